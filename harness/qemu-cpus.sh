#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# qemu-cpus.sh [QEMU]: which supervisor instructions a QEMU's 680x0 models
# execute, for the instructions Linux's boot and context switch need on
# each CPU (arch/m68k/kernel/head.S, the MMU and FPU code): the 68030's
# PMMU (pmove, pflusha), the 68040's and 68060's transparent translation
# registers (movec ITT0/DTT0), cache and ATC maintenance (cpusha,
# pflusha), the FPU state frames (fsave/frestore) and the 68060's
# processor configuration register (movec PCR).
#
# Each instruction is assembled into a tiny ELF that QEMU's virt board
# starts in supervisor mode (-kernel), run with -d int: an exception in the
# log (illegal instruction, F-line) or QEMU stopping itself (an
# unimplemented control register) is the answer, a clean log means the
# model executed it.  QEMU: the binary to ask (default: qemu-system-m68k
# on PATH, Debian 12's 7.2).  The table is printed and kept in
# build/logs/qemu-cpus.txt.  make qemu-cpus runs it; it is no test of ours,
# and exits 0 whatever the models lack.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
qemu=${1:-qemu-system-m68k}
command -v "$qemu" >/dev/null || { echo "qemu-cpus: no $qemu" >&2; exit 1; }
cross=${CROSS:-m68k-linux-gnu-}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir -p "$top/build/logs"
out=$top/build/logs/qemu-cpus.txt

# CPU|INSTRUCTION|what Linux needs it for
probes='m68030|pmove (%a0),%tc|turns the 030 MMU on (head.S)
m68030|pmove (%a0),%crp|the 030 root pointer (head.S, every context switch)
m68030|pflusha|flushes the 030 ATC
m68030|fsave -(%sp)|FPU state at every context switch (a 68881/2, where fitted)
m68040|movec %d0,%itt0|transparent translation (head.S)
m68040|movec %d0,%dtt0|transparent translation (head.S)
m68040|cpusha %bc|pushes the caches (text patching, head.S)
m68040|pflusha|flushes the ATC
m68040|fsave -(%sp)|FPU state at every context switch
m68060|movec %d0,%itt0|transparent translation (head.S)
m68060|movec %d0,%dtt0|transparent translation (head.S)
m68060|movec %pcr,%d1|the 060 processor configuration (head.S, setup)
m68060|cpusha %bc|pushes the caches and the branch cache (text patching)
m68060|pflusha|flushes the ATC
m68060|fsave -(%sp)|FPU state at every context switch'

verdict() { # CPU INSTRUCTION
	printf '%s\n' '	.text' '	.globl _start' '_start:' '	lea stack_top,%sp' \
		'	lea stack_top-64,%a0' '	moveq #0,%d0' "	$2" '	stop #0x2700' '	.bss' \
		'	.space 1024' 'stack_top:' >"$w/p.S"
	if ! "${cross}as" "-m${1#m}" -o "$w/p.o" "$w/p.S" 2>"$w/as.err"; then
		echo "not assembled"
		return
	fi
	"${cross}ld" -Ttext=0x10000 -o "$w/p.elf" "$w/p.o"
	rm -f "$w/int.log"
	timeout 2 "$qemu" -M virt -cpu "$1" -nographic -monitor none -serial none \
		-kernel "$w/p.elf" -d int -D "$w/int.log" >"$w/q.out" 2>&1 || true
	if grep -q 'Unimplemented control register' "$w/q.out"; then
		echo "QEMU stops: $(grep -o 'Unimplemented control register [a-z]*' "$w/q.out" |
			head -n 1)"
	elif [ -s "$w/int.log" ]; then
		sed -n '1s/^INT *[0-9]*: \([^(]*\).*/exception: \1/p' "$w/int.log"
	else
		echo "executed"
	fi
}

{
	echo "# $("$qemu" --version | head -n 1), -M virt"
	echo "| CPU | instruction | Linux needs it for | QEMU's model |"
	echo "|---|---|---|---|"
	while IFS='|' read -r cpu insn why; do
		echo "| $cpu | \`$insn\` | $why | $(verdict "$cpu" "$insn") |"
	done <<<"$probes"
} | tee "$out"
