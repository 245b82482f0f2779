#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-hatari.sh OUTDIR [TARBALL_DIR]: the Atari emulator Hatari, for the
# 68060 and 68030 machines (harness/hatari-run.sh).
#
#   OUTDIR/bin/hatari    the emulator (host program)
#   OUTDIR/version       what it was built from
#
# Debian 12's hatari 2.4.1 cannot run Linux with the MMU on (wrong
# interrupt mask, fixed in 2.5.0), and sid's 2.6.1+dfsg-3 is served as its
# debian tarball only (the .dsc and the orig tarball answer 404).  So: the
# upstream v2.6.1 tree from TARBALL_DIR (hatari-2.6.1.tar.gz, checked
# against userspace/hatari/SHA256SUMS), Debian's patches from sid's debian
# tarball (fetched by apt-get source through a private apt configuration
# under build/dl/hatari, which checks it against the signed index), then
# ours from userspace/hatari/patches in name order.  Built with cmake
# against Debian 12's libraries (harness/deps.sh), through ccache when it
# is installed.  Only the `hatari` target is built.  Rebuilt only when an
# input changes (hashes in OUTDIR/inputs).
# Environment: JOBS (default: nproc).  Log: OUTDIR/build.log.
set -euo pipefail
me=build-hatari
# shellcheck source=harness/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || [ $# -eq 2 ] || die "usage: $0 OUTDIR [TARBALL_DIR]"
out=$(realpath -m "$1")
tarballs=${2:+$(realpath -m "$2")}
here=$(cd "$(dirname "$0")" && pwd)
self=$here/$(basename "$0")
us=$(realpath "$here/../userspace/hatari")
dl=$(realpath -m "$here/../build/dl/hatari")
jobs=${JOBS:-$(nproc)}
tarball=hatari-2.6.1.tar.gz
debver=2.6.1+dfsg-3
debtar=hatari_$debver.debian.tar.xz

for t in cmake pkg-config gcc; do
	command -v $t >/dev/null || die "$t not found (harness/deps.sh installs it)"
done
pkg-config --exists sdl2 || die "no SDL2 development files (libsdl2-dev; harness/deps.sh installs it)"
mkdir -p "$out" "$dl"
log=$out/build.log

hash_inputs() {
	echo "script $(sha256sum <"$self" | cut -d' ' -f1)"
	echo "userspace $(tar -C "$us" --sort=name --mtime=@0 --owner=0 --group=0 \
		--numeric-owner -cf - . | sha256sum | cut -d' ' -f1)"
	echo "cc $(gcc --version | head -n 1)"
}
now=$(hash_inputs)
if [ -x "$out/bin/hatari" ] && [ -f "$out/inputs" ] && [ "$now" = "$(cat "$out/inputs")" ]; then
	echo "$me: $out/bin/hatari is up to date ($(cat "$out/version"))"
	exit 0
fi
: >"$log"
fail() {
	tail -n 25 "$log" >&2
	die "$* (full log: $log)"
}

# The upstream tree.
[ -n "$tarballs" ] || die "no tarball directory: pass HATARI_SRC=DIR holding $tarball"
[ -f "$tarballs/$tarball" ] ||
	die "$tarballs/$tarball is missing: put Hatari's v2.6.1 tarball there (checksum in $us/SHA256SUMS)"
sum=$(sed -n "s/^\([0-9a-f]\{64\}\)  $tarball\$/\1/p" "$us/SHA256SUMS")
[ -n "$sum" ] || die "$tarball has no checksum in $us/SHA256SUMS"
[ "$(sha256sum <"$tarballs/$tarball" | cut -d' ' -f1)" = "$sum" ] ||
	die "$tarballs/$tarball does not match its SHA-256 in $us/SHA256SUMS"

# Debian's patches: apt-get source fetches what the archive serves of
# hatari=$debver and checks each file against the signed Sources index;
# the .dsc and the orig tarball fail (404), the debian tarball must come.
if [ ! -f "$dl/$debtar" ]; then
	a=$dl/apt
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/parts"
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -f "$keyring" ] || die "no $keyring (package debian-archive-keyring)"
	echo "deb-src [signed-by=$keyring] http://deb.debian.org/debian sid main" >"$a/sources.list"
	opts=(-o "Dir::Etc::SourceList=$a/sources.list" -o "Dir::Etc::SourceParts=$a/parts"
		-o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache"
		-o "Dir::Cache::pkgcache=$a/cache/pkgcache.bin"
		-o "Dir::Cache::srcpkgcache=$a/cache/srcpkgcache.bin"
		-o "APT::Default-Release=" -o "Debug::NoLocking=1")
	echo "$me: reading sid's source index (private apt configuration in $a)"
	apt-get "${opts[@]}" -q update >>"$log" 2>&1 || fail "apt-get update of sid's sources failed"
	(cd "$dl" && apt-get "${opts[@]}" source --download-only "hatari=$debver") >>"$log" 2>&1 || true
	[ -f "$dl/$debtar" ] ||
		fail "the archive did not serve $debtar (is hatari $debver still in sid? apt-cache showsrc hatari)"
fi

t0=$(date +%s)
src=$out/src
rm -rf "$src" "${out:?}/bin"
mkdir -p "$src" "$out/bin"
echo "$me: hatari from $tarballs/$tarball (SHA-256 checked)"
tar -C "$src" --strip-components=1 -xzf "$tarballs/$tarball" >>"$log" 2>&1 ||
	fail "cannot unpack $tarball"
tar -C "$src" -xJf "$dl/$debtar" >>"$log" 2>&1 || fail "cannot unpack $debtar"
[ -f "$src/debian/patches/series" ] || fail "$debtar has no debian/patches/series"
while read -r p; do
	case $p in '' | '#'*) continue ;; esac
	echo "$me: applying Debian's $p"
	patch -d "$src" -p1 --no-backup-if-mismatch <"$src/debian/patches/$p" >>"$log" 2>&1 ||
		fail "Debian's $p does not apply"
done <"$src/debian/patches/series"
for p in "$us"/patches/*.patch; do
	[ -e "$p" ] || continue
	echo "$me: applying $(basename "$p")"
	patch -d "$src" -p1 --no-backup-if-mismatch <"$p" >>"$log" 2>&1 ||
		fail "$(basename "$p") does not apply"
done

launcher=()
if command -v ccache >/dev/null; then
	export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/m68k-ftrace-ccache}
	export CCACHE_BASEDIR=$src CCACHE_NOHASHDIR=1
	launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
echo "$me: configuring (cmake)"
cmake -S "$src" -B "$src/b" -DCMAKE_BUILD_TYPE=Release -DENABLE_MAN_PAGES=0 \
	"${launcher[@]}" >>"$log" 2>&1 || fail "cmake failed"
echo "$me: building hatari (-j$jobs)"
make -C "$src/b" -j"$jobs" hatari >>"$log" 2>&1 || fail "building hatari failed"
# a new file renamed into place: a guest that runs keeps its binary
cp "$src/b/src/hatari" "$out/bin/hatari.new"
mv -f "$out/bin/hatari.new" "$out/bin/hatari"
ver=$("$out/bin/hatari" --version 2>&1 | grep -m1 -o 'Hatari v[^ ,]*' || true)
[ -n "$ver" ] || fail "$out/bin/hatari does not run (--version)"
ours=$(find "$us/patches" -name '*.patch' | wc -l)
echo "$ver ($tarball, Debian $debver patches, $ours of ours)" >"$out/version"
rm -rf "$src"
echo "$now" >"$out/inputs"
echo "$me: $out/bin/hatari: $(cat "$out/version"), built in $(($(date +%s) - t0))s"
