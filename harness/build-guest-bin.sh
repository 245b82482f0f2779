#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-guest-bin.sh SRCDIR OUTDIR: every SRCDIR/NAME.c becomes a static
# m68k program OUTDIR/NAME (installed as /usr/bin/NAME in the guest by
# harness/mkinitramfs.sh).  Only programs older than their source are
# rebuilt; programs whose source is gone are removed.
set -euo pipefail
me=build-guest-bin
die() { echo "$me: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: $0 SRCDIR OUTDIR"
src=$(realpath "$1")
out=$(realpath -m "$2")
cc=m68k-linux-gnu-gcc-12
command -v "$cc" >/dev/null || die "$cc not found (harness/deps.sh installs it)"
mkdir -p "$out"

for c in "$src"/*.c; do
	[ -e "$c" ] || continue
	name=$(basename "$c" .c)
	bin=$out/$name
	if [ "$bin" -nt "$c" ] && [ "$bin" -nt "$0" ]; then
		continue
	fi
	echo "$me: $name"
	"$cc" -static -O2 -Wall -Wextra -Werror -s -o "$bin.tmp" "$c" ||
		die "cannot build $c"
	mv "$bin.tmp" "$bin"
done
for bin in "$out"/*; do
	[ -e "$bin" ] || continue
	[ -f "$src/$(basename "$bin").c" ] || rm -f "$bin"
done
