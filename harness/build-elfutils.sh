#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-elfutils.sh OUTDIR: elfutils' libelf and libdw for m68k, static, with
# the compression libraries they and tools/perf link (zlib, bzip2's libbz2,
# xz-utils' liblzma, libzstd), from Debian's source packages, installed in
# OUTDIR/prefix (lib/*.a, include, lib/pkgconfig).  harness/build-perf.sh
# builds the guest's perf against them: with libdw it has `perf probe`
# (DWARF of modules and kernels read in the guest).
#
# Debian ships none of these for m68k in bookworm, and none of them static
# for a cross compiler.  Only the libraries are built: elfutils' shared
# libraries do not link for m68k here (libelf.so has text relocations),
# and no program of elfutils is needed.  Debian's patches are applied
# (dpkg-source -x).  When the index names a source version the archive no
# longer serves (a security update's files move), the next older listed
# version is taken.
#
# Does nothing when the libraries were built by this script as it is
# (OUTDIR/script.hash).  Sources are downloaded once into build/dl; logs
# are OUTDIR/*.log.  Environment: JOBS (default: nproc).
set -euo pipefail
me=build-elfutils
# shellcheck source=harness/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=harness/debsrc.sh
. "$(dirname "$0")/debsrc.sh"

[ $# -eq 1 ] || die "usage: $0 OUTDIR"
out=$(realpath -m "$1")
dl=$(realpath -m "$(dirname "$0")/../build/dl")
jobs=${JOBS:-$(nproc)}
cross=m68k-linux-gnu-
cc=${cross}gcc-12
host=m68k-linux-gnu
pfx=$out/prefix
libs=(libz.a libbz2.a liblzma.a libzstd.a libelf.a libdw.a)

key=$(cat "$0" "$(dirname "$0")/debsrc.sh" | sha1sum | cut -c1-16)
done_already() {
	local l
	[ "$(cat "$out/script.hash" 2>/dev/null)" = "$key" ] || return 1
	for l in "${libs[@]}"; do [ -f "$pfx/lib/$l" ] || return 1; done
}
if done_already; then
	echo "$me: $pfx is up to date, nothing to do"
	exit 0
fi
command -v "$cc" >/dev/null || die "$cc not found (harness/deps.sh installs it)"
mkdir -p "$out" "$dl"
# through ccache when it is installed, its cache outside the clone (as the
# kernels' and perf's), paths below the repository's top made relative so
# that another clone's build hits the same entries
if command -v ccache >/dev/null; then
	export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/m68k-ftrace-ccache}
	CCACHE_BASEDIR=$(realpath "$(dirname "$0")/..")
	export CCACHE_BASEDIR
	cc="ccache $cc"
fi

# The source packages and the versions they are taken in.
declare -A version=([zlib]='1.2.*' [bzip2]='1.0.*' [xz-utils]='5.*' [libzstd]='1.5.*'
	[elfutils]='0.*')
pkgs=(zlib bzip2 xz-utils libzstd elfutils)
# check_lib LIB: an installed archive of m68k objects
check_lib() {
	local f=$pfx/lib/$1
	[ -f "$f" ] || die "no $f after the build"
	# every member is read (grep -q would stop readelf early, a failure
	# under pipefail)
	[ "$("${cross}readelf" -h "$f" | grep -c 'Machine:.*68000')" -gt 0 ] ||
		die "$f holds no m68k objects"
}

t0=$(date +%s)
rm -rf "$pfx" "$out/src"
for p in "${pkgs[@]}"; do
	: >"$out/$p.log"
	download "$p"
done

build_zlib() {
	unpack zlib
	echo "$me: building zlib, log: $out/zlib.log"
	(cd "$out/src/zlib" && CHOST=$host CC="$cc" AR=${cross}ar RANLIB=${cross}ranlib CFLAGS=-O2 \
		./configure --static --prefix="$pfx" && make -j"$jobs" libz.a && make install) \
		>>"$out/zlib.log" 2>&1 || fail zlib "build failed"
}
# bzip2's own Makefile; Debian's patches add no pkg-config file for the
# static library, and perf links it by name
build_bzip2() {
	unpack bzip2
	echo "$me: building bzip2's libbz2, log: $out/bzip2.log"
	(cd "$out/src/bzip2" && make -j"$jobs" CC="$cc" AR=${cross}ar RANLIB=${cross}ranlib \
		CFLAGS='-O2 -D_FILE_OFFSET_BITS=64' libbz2.a) >>"$out/bzip2.log" 2>&1 ||
		fail bzip2 "build failed"
	install -D -m 644 "$out/src/bzip2/libbz2.a" "$pfx/lib/libbz2.a"
	install -D -m 644 "$out/src/bzip2/bzlib.h" "$pfx/include/bzlib.h"
}
build_xz() {
	unpack xz-utils
	echo "$me: building xz-utils' liblzma, log: $out/xz-utils.log"
	mkdir -p "$out/src/xz-build"
	(cd "$out/src/xz-build" && ../xz-utils/configure --host=$host CC="$cc" --prefix="$pfx" \
		--disable-shared --enable-static --disable-nls --disable-xz --disable-xzdec \
		--disable-lzmadec --disable-lzmainfo --disable-lzma-links --disable-scripts \
		--disable-doc && make -j"$jobs" -C src/liblzma && make -C src/liblzma install) \
		>>"$out/xz-utils.log" 2>&1 || fail xz-utils "build failed"
}
# the library alone, by its own Makefile (single-threaded, as perf's
# feature tests and elfutils link it)
build_zstd() {
	unpack libzstd
	echo "$me: building libzstd, log: $out/libzstd.log"
	(cd "$out/src/libzstd/lib" && make -j"$jobs" CC="$cc" AR=${cross}ar libzstd.a &&
		make CC="$cc" AR=${cross}ar PREFIX="$pfx" install-static install-includes install-pc) \
		>>"$out/libzstd.log" 2>&1 || fail libzstd "build failed"
}
# libelf.a and libdw.a (which holds libdwfl, libdwelf, libebl, the
# backends and libcpu) and their headers; their install targets would
# build the shared libraries, so the parts are installed one by one
build_elfutils() {
	unpack elfutils
	echo "$me: building elfutils' libelf and libdw, log: $out/elfutils.log"
	local b=$out/src/elfutils-build d
	mkdir -p "$b"
	(cd "$b" && ../elfutils/configure --host=$host CC="$cc" --prefix="$pfx" \
		CPPFLAGS="-I$pfx/include" LDFLAGS="-L$pfx/lib" \
		--disable-debuginfod --disable-libdebuginfod --disable-nls) \
		>>"$out/elfutils.log" 2>&1 || fail elfutils "configure failed"
	for d in lib:libeu.a libelf:libelf.a libebl:libebl.a backends:libebl_backends.a \
		libcpu:libcpu.a libdwelf:libdwelf.a libdwfl:libdwfl.a libdw:libdw.a; do
		make -C "$b/${d%%:*}" -j"$jobs" "${d#*:}" >>"$out/elfutils.log" 2>&1 ||
			fail elfutils "make ${d#*:} failed"
	done
	(cd "$b" && make -C libelf install-includeHEADERS install-libLIBRARIES &&
		make -C libdw install-includeHEADERS install-pkgincludeHEADERS install-libLIBRARIES &&
		make -C libdwfl install-pkgincludeHEADERS && make -C libdwelf install-pkgincludeHEADERS &&
		make install-pkgincludeHEADERS && make -C config install-pkgconfigDATA) \
		>>"$out/elfutils.log" 2>&1 || fail elfutils "installing the libraries failed"
}

# the compression libraries at the same time (each mostly a configure
# script on one core), then elfutils, which links against them
run_parallel build_ zlib bzip2 xz zstd
build_elfutils
for l in "${libs[@]}"; do check_lib "$l"; done
rm -rf "$out/src"
echo "$key" >"$out/script.hash"
echo "$me: ${libs[*]} in $pfx/lib, built in $(($(date +%s) - t0))s"
