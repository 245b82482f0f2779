#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-qemu-plugin.sh OUTDIR: harness/plugin/insn-count.c as
# OUTDIR/insn-count.so, a TCG plugin for the QEMU this machine runs
# (make profile-spawn).  The plugin API's header is not in Debian's binary
# packages: it is taken from the source package of the installed
# qemu-system-misc (the same upstream version; downloaded once into
# build/dl), include/qemu/qemu-plugin.h only.  Log: OUTDIR/build.log.
set -euo pipefail
me=build-qemu-plugin
# shellcheck source=harness/lib.sh
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || die "usage: $0 OUTDIR"
out=$(realpath -m "$1")
dl=$top/build/dl
src=$top/harness/plugin/insn-count.c
mkdir -p "$out" "$dl"
sum=$(sha256sum "$src" "$0" | sha256sum | cut -d' ' -f1)
if [ -f "$out/insn-count.so" ] && [ "$(cat "$out/script.hash" 2>/dev/null)" = "$sum" ]; then
	exit 0
fi
log=$out/build.log
: >"$log"
srcver=$(dpkg-query -W -f '${source:Version}' qemu-system-misc 2>/dev/null) ||
	die "qemu-system-misc is not installed (harness/deps.sh installs it)"
upstream=${srcver#*:}
upstream=${upstream%-*}
orig=$dl/qemu_$upstream.orig.tar.xz
if [ ! -f "$orig" ]; then
	# any Debian revision of the same upstream version has this tarball
	for v in $(apt-cache showsrc qemu 2>/dev/null | sed -n 's/^Version: //p' | sort -urV); do
		u=${v#*:}
		[ "${u%-*}" = "$upstream" ] || continue
		echo "$me: downloading the qemu $v source package into $dl"
		(cd "$dl" && apt-get source --download-only "qemu=$v") >>"$log" 2>&1 && break
	done
	[ -f "$orig" ] || die "no qemu $upstream source could be downloaded (deb-src entries: harness/deps.sh; log: $log)"
fi
rm -rf "$out/include"
mkdir -p "$out/include"
tar -xJf "$orig" -C "$out/include" --strip-components=3 --wildcards '*/include/qemu/qemu-plugin.h' \
	>>"$log" 2>&1 || die "no include/qemu/qemu-plugin.h in $orig"
echo "$me: building $out/insn-count.so against qemu $upstream's plugin API"
gcc -O2 -Wall -Werror -shared -fPIC -I"$out/include" -o "$out/insn-count.so.tmp" "$src" \
	>>"$log" 2>&1 || { tail -n 20 "$log" >&2; die "the build failed (log: $log)"; }
mv "$out/insn-count.so.tmp" "$out/insn-count.so"
echo "$sum" >"$out/script.hash"
