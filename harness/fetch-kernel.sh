#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's linux-source-X.Y binary package and unpack the pristine tree.
#   fetch-kernel.sh DLDIR PRISTINE_DIR [KERNEL]
#
# KERNEL 6.12 (default): linux-source-6.12 from the machine's own apt
# sources (Debian 12); pins KVER_PIN when the index has it, else the newest.
# KERNEL 7.3: linux-source-7.3, the newest 7.3 version Debian's experimental
# suite serves, through a private apt configuration under DLDIR/apt (its
# own sources list, lists and cache; the system's archive keyring): the
# machine's apt sources are not touched.  Either way the version taken is
# printed and kept in PRISTINE_DIR/.debian-version.
set -euo pipefail
dl=$(realpath -m "$1") out=$(realpath -m "$2") kernel=${3:-6.12}
me=fetch-kernel

[ -f "$out/Makefile" ] && exit 0

pkg=linux-source-$kernel
mkdir -p "$dl"
cd "$dl"
case $kernel in
6.12)
	apt=(apt-get)
	cache=(apt-cache)
	pin=${KVER_PIN:-6.12.117-1~deb12u1}
	;;
7.3)
	a=$dl/apt
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/parts"
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -f "$keyring" ] || { echo "$me: no $keyring (package debian-archive-keyring)" >&2; exit 1; }
	echo "deb [signed-by=$keyring] http://deb.debian.org/debian experimental main" \
		>"$a/sources.list"
	opts=(-o "Dir::Etc::SourceList=$a/sources.list" -o "Dir::Etc::SourceParts=$a/parts"
		-o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache"
		-o "Dir::Cache::pkgcache=$a/cache/pkgcache.bin"
		-o "Dir::Cache::srcpkgcache=$a/cache/srcpkgcache.bin"
		-o "APT::Default-Release=" -o "Debug::NoLocking=1")
	apt=(apt-get "${opts[@]}")
	cache=(apt-cache "${opts[@]}")
	echo "$me: reading the experimental suite's index (private apt configuration in $a)"
	"${apt[@]}" -q update >"$a/update.log" 2>&1 ||
		{ cat "$a/update.log" >&2; echo "$me: apt-get update of experimental failed" >&2; exit 1; }
	pin=${KVER_PIN:-}
	;;
*)
	echo "$me: unknown KERNEL '$kernel' (6.12 or 7.3)" >&2
	exit 2
	;;
esac

versions=$("${cache[@]}" madison "$pkg" 2>/dev/null | awk '{print $3}' | sort -uV)
if [ -n "$pin" ] && grep -qxF "$pin" <<<"$versions"; then
	ver=$pin
else
	ver=$(tail -n 1 <<<"$versions")
	[ -n "$ver" ] || { echo "$me: $pkg is not served (no version of it in the index)" >&2; exit 1; }
	[ -z "$pin" ] || echo "$me: $pin not available"
fi
echo "$me: $pkg version $ver"
deb=${pkg}_${ver/:/%3a}_all.deb
if [ ! -f "$deb" ]; then
	echo "$me: downloading $pkg=$ver"
	"${apt[@]}" download -q "$pkg=$ver" || { echo "$me: apt-get download failed" >&2; exit 1; }
	if [ ! -f "$deb" ]; then
		debs=("${pkg}"_*_all.deb)
		deb=${debs[0]}
	fi
	[ -f "$deb" ] || { echo "$me: apt-get download left no ${pkg}_*_all.deb in $PWD" >&2; exit 1; }
fi
echo "$me: unpacking $deb"
rm -rf deb-x && mkdir deb-x
dpkg-deb -x "$deb" deb-x
tmp=$out.tmp
rm -rf "$tmp" && mkdir -p "$tmp"
tar -xJf "deb-x/usr/src/$pkg.tar.xz" -C "$tmp" --strip-components=1
rm -rf deb-x
echo "$ver" >"$tmp/.debian-version"
mv "$tmp" "$out"
echo "$me: $out is Debian's $pkg $ver"
