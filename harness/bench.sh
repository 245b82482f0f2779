#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make bench`: boot each benchmark kernel under QEMU -icount (guest time
# counts guest instructions, so figures repeat run to run), run
# guest/bench/bench.sh in it, then tabulate with harness/bench.py.
#
#   bench.sh BUILD_DIR    (kernels in BUILD_DIR/kobj-{plain,fp,static,dynamic,pfe,
#                         notp,tp,tpnojl},
#                         or kobj-MACHINE-* for MACHINE (environment) other than virt;
#                         with BENCH_ANCHOR=x86_64, also BUILD_DIR/kobj-x86_64-dynamic,
#                         the per-call figures of x86_64 from the same tree, and
#                         kobj-x86_64-{notp,tp,tpnojl} when BENCH_ANCHOR_VARIANTS
#                         names them)
#   bench.sh --calls BUILD_DIR VARIANT
#                         only the per-traced-call figures, on one kernel
#                         (`make bench-calls`; BUILD_DIR/bench/calls.md)
#
# Logs and the table: BUILD_DIR/bench/ (console logs, sizes.txt, table.md;
# the previous run's data is kept as previous.json for comparison).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
me=bench
# shellcheck source=harness/lib.sh
. "$top/harness/lib.sh"
calls=
if [ "${1:-}" = --calls ]; then
	calls=${3:?usage: bench.sh --calls BUILD_DIR VARIANT}
	shift
fi
b=$(realpath "${1:?usage: bench.sh BUILD_DIR}")
# $k$VARIANT: a kernel's object directory (harness/lib.sh)
k=$(kobj "$b" "$(kernel_id "${MACHINE:-virt}" '')")
out=$b/bench
[ "${MACHINE:-virt}" = virt ] || out=$b/bench-$MACHINE
mkdir -p "$out"
# qemu-run.sh --icount: -icount (shift=0 on virt) and -rtc clock=vm (the
# goldfish RTC, the virt machine's only clock, follows the host clock by
# default; on the virtual clock it counts instructions too).
# No boot self tests (trace_event= disables them) and no KUnit: only the
# workloads matter here, and they have passed in `make check`.
quiet="trace_event= kunit.enable=0"
# a boot's wall-clock limit: Hatari (the Atari machines) emulates its CPU
# at a few tens of MIPS, the dynamic kernel's boot takes it ~30 minutes
timeout=900
case ${MACHINE:-virt} in atari*) timeout=3600 ;; esac

boot() { # NAME KOBJ SCRIPT [CMDLINE]
	local name=$1 kobj=$2 script=$3 extra=${4:-} run
	# a kernel with pstore's function recorder gets a ramoops region, and
	# the guest measures the recorder (guest/bench/bench.sh)
	grep -qx CONFIG_PSTORE_FTRACE=y "$kobj/.config" 2>/dev/null && extra+=" $PSTORE_ARGS"
	# ColdFire: the FLAT init in the kernel, whose command line is built in
	# (VARIANT=bench: configs/flatbench.config)
	if [ "${MACHINE:-virt}" = mcf5208 ]; then
		run=(--no-userland)
	else
		run=(--initrd "$kobj/initramfs.cpio.gz" --append "$quiet $extra" "$script")
	fi
	"$top/harness/stage.sh" "bench:$name" \
		"$top/harness/qemu-run.sh" --kernel "$kobj/vmlinux" --timeout "$timeout" --icount \
		--log "$out/$name.log" "${run[@]}" >"$out/$name.out" 2>&1
	local rc=$?
	grep -E '^(==>|qemu-run:)' "$out/$name.out"
	[ $rc -eq 0 ] || { echo "bench: boot $name failed (log: $out/$name.log)" >&2; exit 1; }
}

if [ -n "$calls" ]; then
	rm -f "$out/calls.log" "$out/calls.out"
	boot calls "$k$calls" "$top/guest/bench/bench.sh" bench.only=calls
	exec python3 "$top/harness/bench.py" --calls "$out"
fi
[ -f "$out/results.json" ] && mv "$out/results.json" "$out/previous.json"
rm -f "$out"/*.log "$out"/*.out "$out/sizes.txt"

# BENCH_VARIANTS (from the Makefile): 7.3 has no static (DYNAMIC_FTRACE=n) kernel.
for v in ${BENCH_VARIANTS:-plain fp static dynamic pfe}; do
	[ -f "$k$v/vmlinux" ] || { echo "bench: no kernel $k$v/vmlinux" >&2; exit 1; }
	# notp, tp, tpnojl: fork+exec+pipe only, what off tracepoints cost
	case $v in
	notp | tp | tpnojl) boot "$v" "$k$v" "$top/guest/bench/bench.sh" bench.only=tracepoints ;;
	*) boot "$v" "$k$v" "$top/guest/bench/bench.sh" ;;
	esac
	m68k-linux-gnu-size "$k$v/vmlinux" | awk -v v="$v" 'NR == 2 { print v, $1, $2, $3 }' \
		>>"$out/sizes.txt"
done
boot stop_machine "${k}dynamic" "$top/guest/bench/patch-all.sh" ftrace_patch_stop_machine
# The anchor: the getppid() loop and the probes on x86_64 (bench.py
# sets its figures beside the dynamic and pfe kernels').
# BENCH_ANCHOR_VARIANTS: on 7.3 also notp, tp and tpnojl, what an off
# tracepoint costs there (x86_64-notp.log, ...).
case ${BENCH_ANCHOR:-} in
'') ;;
x86_64)
	boot x86_64 "$b/kobj-x86_64-dynamic" "$top/guest/bench/bench.sh" bench.only=calls
	for v in ${BENCH_ANCHOR_VARIANTS:-}; do
		case $v in
		notp | tp | tpnojl)
			[ -f "$b/kobj-x86_64-$v/vmlinux" ] ||
				{ echo "bench: no kernel $b/kobj-x86_64-$v/vmlinux" >&2; exit 1; }
			boot "x86_64-$v" "$b/kobj-x86_64-$v" "$top/guest/bench/bench.sh" \
				bench.only=tracepoints ;;
		esac
	done ;;
*) echo "bench: unknown BENCH_ANCHOR '$BENCH_ANCHOR' (x86_64, or empty for none)" >&2; exit 1 ;;
esac

python3 "$top/harness/bench.py" "$out"
