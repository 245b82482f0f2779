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
# Only readelf is built of binutils (with the libraries it links: libiberty,
# zlib, libctf); nothing of it needs bfd at run time.
#
# Does nothing when both programs are newer than this script.  The source
# packages are downloaded once into build/dl; build logs are OUTDIR/*.log.
# Environment: JOBS (default: nproc).
set -euo pipefail
# shellcheck source=harness/arch.sh
. "$(dirname "$0")/arch.sh"
me=build-gnu-tools
die() { echo "$me: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: $0 OUTDIR"
out=$(realpath -m "$1")
dl=$(realpath -m "$(dirname "$0")/../build/dl")
jobs=${JOBS:-$(nproc)}
cc=$GUEST_CC

if [ "$out/bin/gawk" -nt "$0" ] && [ "$out/bin/readelf" -nt "$0" ] &&
   [ "$out/bin/lscpu" -nt "$0" ]; then
	echo "$me: $out/bin is up to date, nothing to do"
	exit 0
fi
command -v "$cc" >/dev/null || die "$cc not found (harness/deps.sh installs it)"
mkdir -p "$out/bin" "$dl"

# source PACKAGE VERSION-GLOB: unpack the newest matching source package
# into $out/src/PACKAGE, downloading it first if build/dl has none.
source_pkg() {
	local pkg=$1 glob=$2 dsc log=$out/$1.log
	dsc=$(find "$dl" -maxdepth 1 -name "${pkg}_$glob.dsc" | sort -V | tail -n 1)
	if [ -z "$dsc" ]; then
		echo "$me: downloading the $pkg source package into $dl"
		(cd "$dl" && apt-get source --download-only "$pkg") >>"$log" 2>&1 ||
			fail "$pkg" "apt-get source $pkg failed (deb-src entries missing? see harness/deps.sh)"
		dsc=$(find "$dl" -maxdepth 1 -name "${pkg}_$glob.dsc" | sort -V | tail -n 1)
		[ -n "$dsc" ] || fail "$pkg" "no ${pkg}_$glob.dsc in $dl after apt-get source"
	fi
	rm -rf "$out/src/$pkg"
	mkdir -p "$out/src"
	echo "$me: unpacking $(basename "$dsc")"
	dpkg-source -x "$dsc" "$out/src/$pkg" >>"$log" 2>&1 || fail "$pkg" "dpkg-source -x failed"
}
fail() {
	tail -n 25 "$out/$1.log" >&2
	die "$1: $2 (full log: $out/$1.log)"
}
check_static() {
	"${CROSS}readelf" -h "$1" | grep -q "Machine:.*$GUEST_MACHINE" ||
		die "$1 is not a $KARCH binary"
	if "${CROSS}readelf" -l "$1" | grep -q INTERP; then
		die "$1 is dynamically linked"
	fi
}
# install_bin BINARY NAME: a checked, stripped copy as OUTDIR/bin/NAME
install_bin() {
	check_static "$1"
	"${CROSS}strip" -o "$out/bin/$2.tmp" "$1"
	mv "$out/bin/$2.tmp" "$out/bin/$2"
}

# the GNU triplet configure builds for
host=${CROSS%-}
[ -n "$host" ] || host=$(gcc -dumpmachine)
t0=$(date +%s)
: >"$out/gawk.log"
source_pkg gawk '5.*'
b=$out/src/gawk-build
mkdir -p "$b"
echo "$me: building gawk (-j$jobs), log: $out/gawk.log"
(cd "$b" && ../gawk/configure --host="$host" CC="$cc" LDFLAGS=-static \
	--disable-nls --without-readline --without-mpfr --disable-extensions --disable-pma) \
	>>"$out/gawk.log" 2>&1 || fail gawk "configure failed"
make -C "$b" -j"$jobs" -C support >>"$out/gawk.log" 2>&1 || fail gawk "make -C support failed"
make -C "$b" -j"$jobs" gawk >>"$out/gawk.log" 2>&1 || fail gawk "make gawk failed"
install_bin "$b/gawk" gawk
ln -sfn gawk "$out/bin/awk"

: >"$out/binutils.log"
source_pkg binutils '2.*'
b=$out/src/binutils-build
mkdir -p "$b"
echo "$me: building readelf (-j$jobs), log: $out/binutils.log"
bmake=(make -C "$b" MAKEINFO=true)
(cd "$b" && ../binutils/configure --host="$host" --target="$host" \
	CC="$cc" --disable-gdb --disable-gdbserver --disable-sim --disable-ld --disable-gas \
	--disable-gprof --disable-gprofng --disable-nls --disable-werror --disable-plugins \
	--disable-shared --without-debuginfod --without-msgpack --without-zstd) \
	>>"$out/binutils.log" 2>&1 || fail binutils "configure failed"
"${bmake[@]}" -j"$jobs" all-libiberty all-zlib all-libctf >>"$out/binutils.log" 2>&1 ||
	fail binutils "building readelf's libraries failed"
"${bmake[@]}" configure-binutils >>"$out/binutils.log" 2>&1 || fail binutils "configure-binutils failed"
# libtool drops a plain -static; -all-static links everything statically.
"${bmake[@]}" -C binutils readelf LDFLAGS=-all-static >>"$out/binutils.log" 2>&1 ||
	fail binutils "make readelf failed"
install_bin "$b/binutils/readelf" readelf

# lscpu alone of util-linux, with its libsmartcols; the Debian patches
# leave the autotools files older than their inputs, so make is told
# not to regenerate them.
: >"$out/util-linux.log"
source_pkg util-linux '2.*'
b=$out/src/util-linux-build
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

rm -rf "$out/src"
echo "$me: $out/bin: gawk $(du -h "$out/bin/gawk" | cut -f1), readelf $(du -h "$out/bin/readelf" | cut -f1), lscpu $(du -h "$out/bin/lscpu" | cut -f1), built in $(($(date +%s) - t0))s"
