#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-gnu-tools.sh OUTDIR: static m68k GNU awk, GNU readelf and
# util-linux's lscpu from Debian's source packages (gawk, binutils,
# util-linux), left in OUTDIR/bin as gawk, awk (a link to gawk), readelf
# and lscpu; with GUEST_ARCH=x86_64 (arch.sh) the
# x86_64 anchor's, by the host's gcc, so that both guests run kselftest
# ftrace with the same tools.
#
# The kselftest ftrace suite needs them where busybox falls short:
# trace_marker_raw.tc uses gawk's strtonum() and asks `lscpu` for the
# byte order (without lscpu it writes its records big-endian, right on
# m68k only), add_remove_uprobe.tc reads /bin/sh's entry point and LOAD
# segments with `readelf -hW`/`readelf -lW`.
# Only readelf is built of binutils, with the libraries it links (libiberty,
# zlib, libsframe) and bfd's two generated headers it includes; libctf is
# left out (--disable-libctf: readelf then has no --ctf dump, which no test
# uses), and with it the build of bfd that libctf needs.
#
# Does nothing when the three programs were built by this script as it is
# (OUTDIR/script.hash: a hash of it, arch.sh and debsrc.sh; a file's time would
# change with every git checkout, and rebuild for nothing).  The
# source packages are downloaded once into build/dl; build logs are
# OUTDIR/*.log.  The three are built at the same time: most of each build
# is a configure script, which keeps one core busy, so one at a time would
# leave the other core idle for most of the step.
# Environment: JOBS (default: nproc).
set -euo pipefail
# shellcheck source=harness/arch.sh
. "$(dirname "$0")/arch.sh"
# shellcheck source=harness/debsrc.sh
. "$(dirname "$0")/debsrc.sh"
me=build-gnu-tools
# shellcheck source=harness/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 OUTDIR"
out=$(realpath -m "$1")
dl=$(realpath -m "$(dirname "$0")/../build/dl")
jobs=${JOBS:-$(nproc)}
cc=$GUEST_CC

key=$(cat "$0" "$(dirname "$0")/arch.sh" "$(dirname "$0")/debsrc.sh" | sha1sum | cut -c1-16)
if [ -x "$out/bin/gawk" ] && [ -x "$out/bin/readelf" ] && [ -x "$out/bin/lscpu" ] &&
   [ "$(cat "$out/script.hash" 2>/dev/null)" = "$key" ]; then
	echo "$me: $out/bin is up to date, nothing to do"
	exit 0
fi
command -v "$cc" >/dev/null || die "$cc not found (harness/deps.sh installs it)"
mkdir -p "$out/bin" "$dl"

# The source packages, each with the versions it is taken in.
declare -A version=([gawk]='5.*' [binutils]='2.*' [util-linux]='2.*')
# the GNU triplet configure builds for
host=${CROSS%-}
[ -n "$host" ] || host=$(gcc -dumpmachine)
t0=$(date +%s)
for pkg in "${!version[@]}"; do
	: >"$out/$pkg.log"
	download "$pkg"
done

build_gawk() {
	unpack gawk
	local b=$out/src/gawk-build
	mkdir -p "$b"
	echo "$me: building gawk (-j$jobs), log: $out/gawk.log"
	(cd "$b" && ../gawk/configure --host="$host" CC="$cc" LDFLAGS=-static \
		--disable-nls --without-readline --without-mpfr --disable-extensions --disable-pma) \
		>>"$out/gawk.log" 2>&1 || fail gawk "configure failed"
	make -C "$b" -j"$jobs" -C support >>"$out/gawk.log" 2>&1 || fail gawk "make -C support failed"
	make -C "$b" -j"$jobs" gawk >>"$out/gawk.log" 2>&1 || fail gawk "make gawk failed"
	install_bin "$b/gawk" gawk
	ln -sfn gawk "$out/bin/awk"
}

build_readelf() {
	unpack binutils
	local b=$out/src/binutils-build
	mkdir -p "$b"
	echo "$me: building readelf (-j$jobs), log: $out/binutils.log"
	local bmake=(make -C "$b" MAKEINFO=true)
	(cd "$b" && ../binutils/configure --host="$host" --target="$host" \
		CC="$cc" --disable-gdb --disable-gdbserver --disable-sim --disable-ld --disable-gas \
		--disable-gprof --disable-gprofng --disable-nls --disable-werror --disable-plugins \
		--disable-shared --without-debuginfod --without-msgpack --without-zstd \
		--disable-libctf) >>"$out/binutils.log" 2>&1 || fail binutils "configure failed"
	"${bmake[@]}" -j"$jobs" all-libiberty all-zlib all-libsframe configure-bfd \
		>>"$out/binutils.log" 2>&1 || fail binutils "building readelf's libraries failed"
	"${bmake[@]}" -C bfd bfd.h bfdver.h >>"$out/binutils.log" 2>&1 ||
		fail binutils "generating bfd.h and bfdver.h failed"
	"${bmake[@]}" configure-binutils >>"$out/binutils.log" 2>&1 || fail binutils "configure-binutils failed"
	# libtool drops a plain -static; -all-static links everything statically.
	"${bmake[@]}" -C binutils readelf LDFLAGS=-all-static >>"$out/binutils.log" 2>&1 ||
		fail binutils "make readelf failed"
	install_bin "$b/binutils/readelf" readelf
}

# lscpu alone of util-linux, with its libsmartcols; the Debian patches
# leave the autotools files older than their inputs, so make is told
# not to regenerate them.
build_lscpu() {
	unpack util-linux
	local b=$out/src/util-linux-build
	mkdir -p "$b"
	echo "$me: building lscpu (-j$jobs), log: $out/util-linux.log"
	(cd "$b" && ../util-linux/configure --host="$host" CC="$cc" --disable-all-programs \
		--enable-lscpu --enable-libsmartcols --disable-nls --disable-shared --enable-static \
		--disable-bash-completion --without-python --without-systemd --without-udev \
		--without-ncurses --without-ncursesw --without-tinfo --without-readline \
		--without-libz --without-cap-ng --without-selinux --without-audit \
		--without-utempter --without-econf) >>"$out/util-linux.log" 2>&1 ||
		fail util-linux "configure failed"
	make -C "$b" -j"$jobs" ACLOCAL=true AUTOMAKE=true AUTOCONF=true AUTOHEADER=true \
		lscpu LDFLAGS=-all-static >>"$out/util-linux.log" 2>&1 || fail util-linux "make lscpu failed"
	install_bin "$b/lscpu" lscpu
}

# Each build in a subshell of its own (a failure says which and exits
# it); the step fails when any of them did, after all three ended.
run_parallel build_ gawk readelf lscpu

rm -rf "$out/src"
echo "$key" >"$out/script.hash"
echo "$me: $out/bin: gawk $(du -h "$out/bin/gawk" | cut -f1), readelf $(du -h "$out/bin/readelf" | cut -f1), lscpu $(du -h "$out/bin/lscpu" | cut -f1), built in $(($(date +%s) - t0))s"
