#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make profile-spawn`: where the instructions of a fork+exec+pipe round go,
# function by function, on two kernels side by side (notp and tp: what
# compiling tracepoints in and off adds; make bench gives the total).
#
#   profile-spawn.sh PLUGIN OUTDIR NAME=KOBJ NAME=KOBJ
#
# Each kernel boots under -icount with QEMU's TCG plugin PLUGIN
# (harness/plugin/insn-count.c), which counts every instruction address
# the guest executes between its first and second sys_sync(); the guest
# (guest/bench/profile.sh, profile.state=spawn) runs PROFILE_ROUNDS rounds
# (default 2000) between two sync calls.  harness/profile_spawn.py then
# attributes the kernel's addresses to functions and writes
# OUTDIR/spawn.md.  Counts: OUTDIR/NAME.counts; consoles: OUTDIR/NAME.log.
set -euo pipefail
me=profile-spawn
# shellcheck source=harness/lib.sh
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 4 ] || die "usage: $0 PLUGIN OUTDIR NAME=KOBJ NAME=KOBJ"
plugin=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
[ -f "$plugin" ] || die "no plugin $plugin (make profile-spawn builds it)"
rounds=${PROFILE_ROUNDS:-2000}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "PROFILE_ROUNDS='$rounds': want a positive number"
mkdir -p "$out"
args=()
for k in "$@"; do
	name=${k%%=*} kobj=${k#*=}
	[[ $name =~ ^[a-z0-9_-]+$ && $k == *=* ]] || die "'$k': want NAME=KOBJ"
	[ -f "$kobj/vmlinux" ] || die "no kernel $kobj/vmlinux"
	[ -f "$kobj/initramfs.cpio.gz" ] || die "no initramfs in $kobj"
	# the marker: the sync() system call's function (x86_64: its wrapper)
	mark=$(awk '$3 == "sys_sync" || $3 == "__x64_sys_sync" { print "0x" $1; exit }' "$kobj/System.map")
	[ -n "$mark" ] || die "$kobj/System.map: no sys_sync"
	append="kunit.enable=0 profile.state=spawn profile.rounds=$rounds"
	grep -qx 'CONFIG_X86_64=y' "$kobj/.config" && append+=" nokaslr"
	rm -f "$out/$name.counts"
	echo "$me: $name: $rounds rounds, counting from sys_sync ($mark) to the next"
	if ! QEMU_EXTRA="-plugin $plugin,mark=$mark,out=$out/$name.counts" \
		"$top/harness/qemu-run.sh" --kernel "$kobj/vmlinux" --initrd "$kobj/initramfs.cpio.gz" \
		--timeout 1800 --icount --log "$out/$name.log" --append "$append" \
		"$top/guest/bench/profile.sh" >"$out/$name.out" 2>&1; then
		tail -n 20 "$out/$name.out" >&2
		die "$name: the guest failed (console: $out/$name.log)"
	fi
	grep -q "^PROFILE spawn $rounds rounds" "$out/$name.log" ||
		die "$name: the guest did not finish its rounds ($out/$name.log)"
	[ -s "$out/$name.counts" ] || die "$name: no counts written ($out/$name.out)"
	args+=("$name" "$kobj/vmlinux" "$out/$name.counts")
done
python3 "$top/harness/profile_spawn.py" "$rounds" "$out/spawn.md" "${args[@]}"
