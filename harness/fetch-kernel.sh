#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's linux-source-6.12 and unpack the pristine tree.
#   fetch-kernel.sh DLDIR PRISTINE_DIR
# Pins KVER_PIN when the apt index has it, else takes the newest 6.12.
set -euo pipefail
dl=$(realpath -m "$1") out=$(realpath -m "$2")
pin=${KVER_PIN:-6.12.117-1~deb12u1}

[ -f "$out/Makefile" ] && exit 0

mkdir -p "$dl"
cd "$dl"
if apt-cache madison linux-source-6.12 | awk '{print $3}' | grep -qxF "$pin"; then
	ver=$pin
else
	ver=$(apt-cache madison linux-source-6.12 | awk '{print $3}' | sort -V | tail -1)
	[ -n "$ver" ] || { echo "fetch-kernel: linux-source-6.12 not in the apt index" >&2; exit 1; }
	echo "fetch-kernel: $pin not available, using $ver"
fi
deb=$(ls linux-source-6.12_"${ver//\~/\~}"_all.deb 2>/dev/null || true)
if [ -z "$deb" ]; then
	echo "fetch-kernel: downloading linux-source-6.12=$ver"
	apt-get download -q "linux-source-6.12=$ver" ||
		{ echo "fetch-kernel: apt-get download failed" >&2; exit 1; }
	deb=$(ls linux-source-6.12_*_all.deb | head -1)
fi
echo "fetch-kernel: unpacking $deb"
rm -rf deb-x && mkdir deb-x
dpkg-deb -x "$deb" deb-x
tmp=$out.tmp
rm -rf "$tmp" && mkdir -p "$tmp"
tar -xJf deb-x/usr/src/linux-source-6.12.tar.xz -C "$tmp" --strip-components=1
rm -rf deb-x
echo "$ver" >"$tmp/.debian-version"
mv "$tmp" "$out"
