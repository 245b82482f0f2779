# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2154 # me, out, dl and version: the sourcing script's
# Sourced by the harness' builds of Debian source packages for the guest
# (build-gnu-tools.sh, build-klp-tools.sh, build-elfutils.sh).  The
# script defines me, die(), out (its OUTDIR: logs OUTDIR/PACKAGE.log,
# sources in OUTDIR/src), dl (build/dl, where source packages are kept)
# and the associative array version (PACKAGE -> the versions it is taken
# in: a shell pattern, matched without the epoch, as in the file names);
# install_bin() also needs arch.sh's CROSS,
# GUEST_MACHINE and KARCH.

# fail PACKAGE MESSAGE: the end of PACKAGE's log, then die
fail() {
	tail -n 25 "$out/$1.log" >&2
	die "$1: $2 (full log: $out/$1.log)"
}

# dsc_of PACKAGE VERSION: the name of its .dsc (no epoch in file names)
dsc_of() { echo "${1}_${2#*:}.dsc"; }

# download PACKAGE: the newest version the index lists and the archive
# serves into build/dl, once; its .dsc's path in dsc[PACKAGE].  When the
# index names a version whose files the archive no longer serves (a
# security update's files move), the next older listed one is taken.
# One package at a time, before the builds start.
declare -A dsc
download() {
	local pkg=$1 v
	for v in $(apt-cache showsrc "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | sort -urV); do
		# shellcheck disable=SC2053 # the version is a pattern
		[[ ${v#*:} == ${version[$pkg]} ]] || continue
		dsc[$pkg]=$dl/$(dsc_of "$pkg" "$v")
		[ -f "${dsc[$pkg]}" ] && return 0
		echo "$me: downloading $pkg $v into $dl"
		(cd "$dl" && apt-get source --download-only "$pkg=$v") >>"$out/$pkg.log" 2>&1 &&
			[ -f "${dsc[$pkg]}" ] && return 0
		echo "$me: $pkg $v is not served, trying an older one"
	done
	fail "$pkg" "no version ${version[$pkg]} of $pkg could be downloaded (deb-src entries missing? see harness/deps.sh)"
}

# unpack PACKAGE: Debian's source tree of it (download found it) in
# $out/src/PACKAGE, with its patches applied; $out/src/PACKAGE-build,
# where a build out of the tree goes, removed
unpack() {
	local pkg=$1
	rm -rf "$out/src/$pkg" "$out/src/$pkg-build"
	mkdir -p "$out/src"
	echo "$me: unpacking $(basename "${dsc[$pkg]}")"
	dpkg-source -x "${dsc[$pkg]}" "$out/src/$pkg" >>"$out/$pkg.log" 2>&1 ||
		fail "$pkg" "dpkg-source -x failed"
}

# install_bin BINARY NAME: a stripped copy as OUTDIR/bin/NAME, once it is
# known to be a static program for the guest
install_bin() {
	"${CROSS}readelf" -h "$1" | grep -q "Machine:.*$GUEST_MACHINE" ||
		die "$1 is not a $KARCH binary"
	if "${CROSS}readelf" -l "$1" | grep -q INTERP; then
		die "$1 is dynamically linked"
	fi
	"${CROSS}strip" -o "$out/bin/$2.tmp" "$1"
	mv "$out/bin/$2.tmp" "$out/bin/$2"
}

# run_parallel PREFIX NAME...: run the shell functions PREFIX<NAME>, each
# in a subshell of its own and all at the same time (most of each build
# is a configure script, which keeps one core busy); when any of them
# failed (each says which and where its log is), die once all have ended.
run_parallel() {
	local prefix=$1 name pid failed=0
	local pids=()
	shift
	for name in "$@"; do
		"$prefix$name" &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || failed=1
	done
	[ $failed -eq 0 ] || die "a build failed (its log is named above)"
}
