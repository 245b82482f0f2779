#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install every Debian package the build, the guest and the tests need.
# Idempotent: does nothing (and needs no network) when all are present.
set -euo pipefail

PKGS="gcc-12-m68k-linux-gnu binutils-m68k-linux-gnu libc6-dev-m68k-cross
qemu-system-misc qemu-system-x86 make gcc bc bison flex libelf-dev libssl-dev xz-utils cpio
gzip perl python3 dpkg-dev rsync kmod trace-cmd procps patch
gdb-multiarch ccache pkgconf file dwarves shellcheck autoconf automake libtool
kernelshark libkshark-dev libjson-c-dev libdw-dev
cmake libsdl2-dev libcapstone-dev zlib1g-dev libpng-dev"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing="$missing $p"
done

# deb-src entries are needed for `apt-get source busybox`.
need_src=
if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	need_src=1
fi

[ -z "$missing" ] && [ -z "$need_src" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps: need root to install:$missing${need_src:+ (and deb-src entries)}" >&2
	exit 1
fi

if [ -n "$need_src" ]; then
	echo "deps: adding deb-src entries"
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
	fi
	if [ -f /etc/apt/sources.list ]; then
		sed -n 's/^deb \(.*\)$/deb-src \1/p' /etc/apt/sources.list \
			>/etc/apt/sources.list.d/harness-src.list
	fi
fi

echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q || { echo "deps: apt-get update failed" >&2; exit 1; }
# shellcheck disable=SC2086
if [ -n "$missing" ] && ! apt-get install -y -q --no-install-recommends $missing; then
	echo "deps: FAILED to install:$missing" >&2
	exit 1
fi
