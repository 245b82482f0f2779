#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-trace-cmd.sh OUTDIR [TARBALL_DIR]: trace-cmd for the m68k guest and
# the same patched trace-cmd for the host.
#
#   OUTDIR/m68k/bin/trace-cmd   static m68k program, installed as
#                               /usr/bin/trace-cmd in the guest by
#                               harness/mkinitramfs.sh (unstripped copy:
#                               OUTDIR/m68k/trace-cmd.debug)
#   OUTDIR/host/bin/trace-cmd   the host's build of the same sources and
#                               patches (Debian 12's own trace-cmd crashes
#                               on m68k recordings: see
#                               userspace/trace-cmd/patches/libtraceevent)
#   OUTDIR/host/lib/libtraceevent.so.1
#                               the patched library, shared, for Debian's
#                               KernelShark (harness/kshark.sh)
#
# libtraceevent, libtracefs and trace-cmd, the versions Debian 12 ships, are
# built as static libraries into a private prefix per target (pkg-config is
# pointed there), then trace-cmd is linked against them.  Nothing is written
# outside OUTDIR: ldconfig is never run and no /etc/ld.so.conf.d entry is
# made.  No plugins: they are dlopen()ed, which a static program cannot do.
#
# Sources: `apt-get source` first (apt checks them against the .dsc); when
# the archive does not serve a package's tarballs, the upstream tarball in
# TARBALL_DIR, checked against userspace/trace-cmd/SHA256SUMS.  The patches
# in userspace/trace-cmd/patches/PACKAGE/ are applied in name order.
# Rebuilt only when an input changes (hashes in OUTDIR/inputs).
# Environment: JOBS (default: nproc).  Log: OUTDIR/build.log.
set -euo pipefail
me=build-trace-cmd
# shellcheck source=harness/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || [ $# -eq 2 ] || die "usage: $0 OUTDIR [TARBALL_DIR]"
out=$(realpath -m "$1")
tarballs=${2:+$(realpath -m "$2")}
here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
us=$(realpath "$here/../userspace/trace-cmd")
dl=$(realpath -m "$here/../build/dl/trace-cmd")
jobs=${JOBS:-$(nproc)}
cross=m68k-linux-gnu-
cc=${cross}gcc-12

# PACKAGE DEBIAN-VERSION UPSTREAM-TARBALL, in build order.
PACKAGES="libtraceevent 1:1.7.1-1 libtraceevent-1.7.1.tar.gz
libtracefs 1.6.4-1 libtracefs-1.6.4.tar.gz
trace-cmd 3.1.6-1 trace-cmd-v3.1.6.tar.gz"

command -v "$cc" >/dev/null || die "$cc not found (harness/deps.sh installs it)"
[ -f "$us/SHA256SUMS" ] || die "no $us/SHA256SUMS"
mkdir -p "$out" "$dl"
log=$out/build.log

hash_inputs() {
	echo "script $(sha256sum <"$self" | cut -d' ' -f1)"
	# what the build uses: the checksums and the patches (not
	# patches-upstream/, written for the newer upstream releases)
	echo "userspace $(tar -C "$us" --sort=name --mtime=@0 --owner=0 --group=0 \
		--numeric-owner -cf - SHA256SUMS patches | sha256sum | cut -d' ' -f1)"
	echo "cc $("$cc" --version | head -n 1)"
}
now=$(hash_inputs)
if [ -x "$out/m68k/bin/trace-cmd" ] && [ -x "$out/host/bin/trace-cmd" ] &&
	[ -e "$out/host/lib/libtraceevent.so.1" ] && [ -f "$out/inputs" ] && [ "$now" = "$(cat "$out/inputs")" ]; then
	echo "$me: $out/{m68k,host}/bin/trace-cmd are up to date"
	exit 0
fi
: >"$log"
fail() {
	tail -n 25 "$log" >&2
	die "$* (full log: $log)"
}

# fetch PACKAGE VERSION TARBALL DEST: unpack the source of PACKAGE into DEST.
fetch() {
	local pkg=$1 ver=$2 tarball=$3 dest=$4 dsc sum
	dsc=$dl/${pkg}_${ver#*:}.dsc
	if [ ! -f "$dsc" ]; then
		echo "$me: apt-get source $pkg=$ver"
		rm -f "$dl/${pkg}_"*
		if ! (cd "$dl" && apt-get source --download-only "$pkg=$ver") >>"$log" 2>&1; then
			rm -f "$dl/${pkg}_"*
		fi
	fi
	if [ -f "$dsc" ]; then
		dpkg-source -x "$dsc" "$dest" >>"$log" 2>&1 || fail "dpkg-source -x $dsc failed"
		return
	fi
	[ -n "$tarballs" ] ||
		die "the archive does not serve the source of $pkg $ver, and no tarball directory was given: pass TRACE_CMD_SRC=DIR holding $tarball (see userspace/trace-cmd/SHA256SUMS)"
	[ -f "$tarballs/$tarball" ] ||
		die "the archive does not serve the source of $pkg $ver and $tarballs/$tarball is missing: put the upstream tarball there (checksum in $us/SHA256SUMS)"
	sum=$(sed -n "s/^\([0-9a-f]\{64\}\)  $tarball\$/\1/p" "$us/SHA256SUMS")
	[ -n "$sum" ] || die "$tarball has no checksum in $us/SHA256SUMS"
	[ "$(sha256sum <"$tarballs/$tarball" | cut -d' ' -f1)" = "$sum" ] ||
		die "$tarballs/$tarball does not match its SHA-256 in $us/SHA256SUMS: replace it with the upstream release tarball"
	echo "$me: $pkg from $tarballs/$tarball (SHA-256 checked)"
	mkdir -p "$dest"
	tar -C "$dest" --strip-components=1 -xzf "$tarballs/$tarball" >>"$log" 2>&1 ||
		fail "cannot unpack $tarballs/$tarball"
}

t0=$(date +%s)
src=$out/src
rm -rf "$src" "$out/m68k" "$out/host"
mkdir -p "$src"
while read -r pkg ver tarball; do
	fetch "$pkg" "$ver" "$tarball" "$src/$pkg"
	for p in "$us/patches/$pkg"/*.patch; do
		[ -e "$p" ] || continue
		echo "$me: $pkg: applying $(basename "$p")"
		patch -d "$src/$pkg" -p1 --no-backup-if-mismatch <"$p" >>"$log" 2>&1 ||
			fail "$(basename "$p") does not apply to $pkg $ver"
	done
done <<<"$PACKAGES"

# build TARGET CROSS CC: the three packages for one target in OUTDIR/TARGET
build() {
	local target=$1 cross=$2 cc=$3 dir=$out/$1 pkg
	local prefix=$dir/prefix
	mkdir -p "$prefix/lib/pkgconfig" "$prefix/etc" "$dir/bin"
	cp -a "$src/." "$dir/src/"
	local mk=(make CROSS_COMPILE="$cross" CC="$cc" AR="${cross}ar" prefix="$prefix"
		libdir_relative=lib libdir="$prefix/lib" pkgconfig_dir="$prefix/lib/pkgconfig"
		LDCONFIG=false LD_SO_CONF_PATH="$prefix/etc")
	# The libraries one job at a time: their "libs" target makes the static
	# and the shared library in two sub-makes that compile the same objects
	# in the same directory, and in parallel one links an object the other
	# is still writing ("trace-seq.o: file format not recognized", seen in
	# a CI run).  They take seconds.
	for pkg in libtraceevent libtracefs; do
		echo "$me: $target: building $pkg (-j1)"
		PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig PKG_CONFIG_PATH='' \
			"${mk[@]}" -C "$dir/src/$pkg" -j1 libs >>"$log" 2>&1 ||
			fail "$target: building $pkg failed"
		PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig PKG_CONFIG_PATH='' \
			"${mk[@]}" -C "$dir/src/$pkg" install_libs >>"$log" 2>&1 ||
			fail "$target: installing $pkg failed"
		[ -f "$prefix/lib/$pkg.a" ] || fail "$target: no $prefix/lib/$pkg.a after the install"
	done
	# The host keeps the patched shared libtraceevent for KernelShark
	# (harness/kshark.sh puts it ahead of Debian's); the programs link
	# the static libraries only: they must not need the prefix at run time.
	if [ "$target" = host ]; then
		mkdir -p "$dir/lib"
		cp -a "$prefix"/lib/libtraceevent.so* "$dir/lib/"
	fi
	rm -f "$prefix"/lib/*.so*
	# No python, audit, zstd or vsock (none of them for m68k here, no vsock
	# on QEMU virt); the same options for the host, so that both programs
	# are the same program.
	echo "$me: $target: building trace-cmd (-j$jobs)"
	PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig PKG_CONFIG_PATH='' \
		"${mk[@]}" -C "$dir/src/trace-cmd" -j"$jobs" NO_PYTHON=1 NO_AUDIT=1 \
		NO_LIBZSTD=1 NO_VSOCK=1 LDFLAGS=-static LIBS="-ldl -lpthread -lrt" \
		trace-cmd >>"$log" 2>&1 || fail "$target: building trace-cmd failed"
	cp "$dir/src/trace-cmd/tracecmd/trace-cmd" "$dir/trace-cmd.debug"
	"${cross}strip" -o "$dir/bin/trace-cmd" "$dir/trace-cmd.debug"
	rm -rf "$dir/src"
}

build m68k $cross "$cc"
bin=$out/m68k/bin/trace-cmd
${cross}readelf -h "$bin" | grep -q 'Machine:.*68000' || fail "$bin is not an m68k binary"
if ${cross}readelf -l "$bin" | grep -q INTERP; then
	fail "$bin is dynamically linked"
fi
build host "" gcc
{ "$out/host/bin/trace-cmd" -h 2>&1 || true; } | grep -q 'trace-cmd version' ||
	fail "$out/host/bin/trace-cmd does not run"
rm -rf "$src"
echo "$now" >"$out/inputs"
echo "$me: $bin: $(du -h "$bin" | cut -f1), and $out/host/bin/trace-cmd, built in $(($(date +%s) - t0))s"
