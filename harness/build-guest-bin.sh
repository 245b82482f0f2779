#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-guest-bin.sh SRCDIR OUTDIR: every SRCDIR/NAME.c becomes a static
# m68k program OUTDIR/NAME (installed as /usr/bin/NAME in the guest by
# harness/mkinitramfs.sh); an x86_64 one with GUEST_ARCH=x86_64 (arch.sh).
# build-guest-bin.sh SRCDIR OUTDIR NAME...: only those programs (the
# anchor has bench alone: the others test m68k's own instructions).
# Only programs older than their source are rebuilt; programs in OUTDIR
# that are not among those built (their source gone, or not asked for)
# are removed.
set -euo pipefail
# shellcheck source=harness/arch.sh
. "$(dirname "$0")/arch.sh"
me=build-guest-bin
# shellcheck source=harness/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: $0 SRCDIR OUTDIR [NAME...]"
src=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
progs=()
for c in "$src"/*.c; do
	[ -e "$c" ] && progs+=("$(basename "$c" .c)")
done
if [ $# -gt 0 ]; then
	for p in "$@"; do
		[ -f "$src/$p.c" ] || die "no $src/$p.c"
	done
	progs=("$@")
fi
cc=$GUEST_CC
command -v "$cc" >/dev/null || die "$cc not found (harness/deps.sh installs it)"
mkdir -p "$out"

for name in "${progs[@]}"; do
	c=$src/$name.c
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
	[[ " ${progs[*]} " = *" $(basename "$bin") "* ]] || rm -f "$bin"
done
