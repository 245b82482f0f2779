#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: the kernels the selected suites need, the suites, then one
# summary line from harness/results.py ("N passed, N failed, N skipped").
#
#   check.sh --make RUN...      make check: RUN is KERNEL:SUITES (SUITES
#                               "all" or comma-separated patterns); builds
#                               every kernel the runs need (make initramfs),
#                               runs their suites, sums them up in one line
#   check.sh --kernels RUN...   print "KERNEL MACHINE VARIANT BOARD OBJDIR"
#                               for each kernel the runs need
#   check.sh BUILD_DIR          the suites on BUILD_DIR/kobj-ID, and a summary
#   check.sh --run BUILD_DIR    the suites only (the summary comes later)
#   check.sh --summary BUILD_DIR...
#                               one summary of the runs of several kernels
#                               (written to the first one's logs)
#   check.sh --variants         print the kernel ids the suites need
#   check.sh --list             print "SUITE KERNEL-ID" for each suite
#
# SUITES (environment, comma-separated shell patterns, default: all) picks
# the suites, e.g. SUITES=foundation,pfe-kprobes or SUITES='lockdep-*'; a
# kernel id is [MACHINE-]VARIANT (harness/machines, harness/lib.sh).
# The settings (declared with their defaults in the Makefile): CHECK_LONG,
# CHECK_BTF, CHECK_Q800_SLOW.
#
# Every suite is one unit of harness/expect/KERNEL/: its log must show exactly the
# checks, self tests, KUnit cases and kselftest verdicts listed in
# harness/expect/KERNEL/SUITE.expect (results.py --expect), so a check that goes
# missing, appears or changes verdict fails the run.  A guest suite is one
# boot (harness/qemu-run.sh --strict --icount: guest time counts guest
# instructions, so no verdict depends on host load); the boot is a check of
# its own (boot:SUITE, results.py reads it from SUITE.out), passed only when
# the script exited 0 with a console free of WARNING/BUG/Oops.  A suite
# with a host post-processor (kprobes offsets against objdump, trace-cmd
# reports on the host) has a second unit, SUITE-offsets or SUITE-host, and
# the post-processor's exit status is a check too.
# Logs: BUILD_DIR/logs/check/<unit>.log (console), <suite>.out (harness);
# the summary in summary.txt and results.md (`make results` commits the
# latter).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
me=check.sh
# shellcheck source=harness/lib.sh
. "$top/harness/lib.sh"
usage='usage: check.sh --make RUN... | --kernels RUN... | BUILD_DIR | --run BUILD_DIR | --summary BUILD_DIR... | --variants | --list'
mode=run
case ${1:-} in
--make|--kernels)
	mode=${1#--}
	shift
	[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
	;;
--variants) mode=variants ;;
--list) mode=list ;;
--run) mode=suites; B=${2:?$usage} ;;
--summary) mode=summary; shift; [ $# -gt 0 ] || { echo "$usage" >&2; exit 2; } ;;
-*|'') echo "$usage" >&2; exit 2 ;;
*) B=$1 ;;
esac

# run_parts RUN: k, the kernel of RUN (KERNEL:SUITES), and s, its SUITES
# (empty for all)
run_parts() {
	k=${1%%:*} s=${1#*:}
	[ "$s" != all ] || s=
}
# RUN...: each kernel the runs need, as "KERNEL MACHINE VARIANT BOARD
# OBJDIR", from the suites' kernel ids.
kernels() {
	local run k s id m
	for run in "$@"; do
		run_parts "$run"
		for id in $(SUITES=$s KERNEL=$k "$0" --variants) ; do
			m=$(kernel_machine "$id")
			echo "$k $m $(kernel_variant "$id") $(machine_field "$m" board)" \
				"$(kobj "$top/build/$k" "$id")"
		done
	done
}
if [ "$mode" = kernels ]; then
	kernels "$@"
	exit
fi
if [ "$mode" = make ]; then
	# the kernels (with the guest's userland in their initramfs; perf only
	# when a suite of the run uses it: it is the largest tool build), then
	# the suites of each run, then one summary of all
	for run in "$@"; do
		run_parts "$run"
		perf=
		# (grep reads it all: with -q its early exit could end --list by
		# SIGPIPE, which pipefail would take for no match)
		SUITES=$s KERNEL=$k "$0" --list | grep -E '^(perf|btf-perf-vmlinux) ' >/dev/null && perf=1
		kernels "$run" | while read -r k m v _; do
			make -C "$top" --no-print-directory initramfs KERNEL="$k" MACHINE="$m" \
				VARIANT="$v" GUEST_PERF=$perf </dev/null || exit
		done || exit
	done
	dirs=()
	for run in "$@"; do
		run_parts "$run"
		SUITES=$s KERNEL=$k "$0" --run "$top/build/$k"
		dirs+=("$top/build/$k")
	done
	exec "$0" --summary "${dirs[@]}"
fi

# summary BUILD_DIR...: one results.py summary of the runs in each
# BUILD_DIR/logs/check (their units, kernel and about line were written by
# the run), each against the expectations of its kernel.
summary() {
	local first=$1/logs/check d l args=()
	for d in "$@"; do
		l=$d/logs/check
		[ -f "$l/units" ] || { echo "check.sh: no run in $l" >&2; return 2; }
		[ ${#args[@]} -eq 0 ] || args+=(--and)
		args+=(--about "$(cat "$l/about")" --expect "$top/harness/expect/$(cat "$l/kernel")"
			--units "$(cat "$l/units")")
		args+=("$l"/*.log "$l"/*.out)
	done
	echo
	python3 "$top/harness/results.py" summarize --markdown "$first/results.md" "${args[@]}" |
		tee "$first/summary.txt"
	return "${PIPESTATUS[0]}"
}
if [ "$mode" = summary ]; then
	shopt -s nullglob
	summary "$@"
	exit
fi
IFS=, read -r -a patterns <<<"${SUITES:-*}"
# KERNEL (environment, from the Makefile): 7.3 or 6.12.
export KERNEL=${KERNEL:-7.3}

# The suites, in the order they start: two at a time (the machine has 2
# cores; -icount keeps every verdict independent of the load), longest
# first.  nokunit: KUnit suites run at every boot of a KUnit kernel; they
# are counted on the boots that do not turn them off.
nokunit=(--append kunit.enable=0)
# static CMD...: a suite of the DYNAMIC_FTRACE=n kernel.  Since 7.3,
# DYNAMIC_FTRACE has no prompt: an architecture with dynamic ftrace has no
# mcount-only kernel, so these run on 6.12 only.
static() {
	[ "$KERNEL" = 6.12 ] || return 0
	"$@"
}
# CHECK_BTF=1 (make check CHECK_BTF=1): kselftest ftrace on the pfe kernel with
# BTF (configs/btf.config; 7.3 only), for the BTF argument cases.  Not in
# a plain make check: that kernel is the slowest to build (~12 min).
btf() {
	[ -n "${CHECK_BTF:-}" ] && [ "$KERNEL" != 6.12 ] || return 0
	"$@"
}
# CHECK_LONG=1 (make check CHECK_LONG=1): the long suites that a plain
# make check leaves out so that it fits CI's time on a fresh machine (each
# needs a kernel of its own or many minutes): the other machines' (below),
# the virt lockdep kernel's (a plain run proves lockdep on ColdFire,
# mcf5208-lockdep), and the full tracing storm (a plain run storms a
# quarter as long on the pfe kernel); the Makefile adds the frozen 6.12
# port's suites.  SUITES= naming a long suite runs it too.
long() {
	[ -n "${CHECK_LONG:-}${SUITES:-}" ] || return 0
	"$@"
}
storm_size=
[ -n "${CHECK_LONG:-}" ] || storm_size="storm.switches=250 storm.modcycles=25"
# machine SUITE...: a suite of the machines other than virt and ColdFire,
# each with a kernel of its own: 7.3 only, and long.  The Macintosh
# (q800-dynamic: mac_defconfig and the dynamic fragments, the largest
# build) runs 8 ns instructions (qemu-run.sh: the Mac's clocksource needs
# them slower than virt's), so its suites take more instructions than
# virt's twins; kselftest ftrace there (about 10 min of one core) runs
# only with CHECK_Q800_SLOW=1.  The 68040+68060 kernel (virt060-dynamic)
# on QEMU's 68040.  The 68060 and the 68030 on Hatari (atari060-dynamic,
# atari030-dynamic: a kernel and the emulator to build, and an emulated
# CPU of a few tens of MIPS).  And the x86_64 anchor (x86_64-dynamic),
# for the suites whose verdicts are compared with x86_64's.
machine() {
	[ "$KERNEL" != 6.12 ] || return 0
	long "$@"
}
q800_slow() {
	[ -n "${CHECK_Q800_SLOW:-}" ] && [ "$KERNEL" != 6.12 ] || return 0
	"$@"
}
# only73 SUITE...: a suite that the frozen 6.12 port does not have: those
# of ColdFire (MACHINE=mcf5208, kernels mcf5208-boot, -boottrace,
# -bootgraph, -flat, -lockdep; boots without a libc, checked from the
# console by harness/console-checks.sh, or by the FLAT init itself),
# which 6.12 has no kernel for, and BPF's.
only73() {
	[ "$KERNEL" != 6.12 ] || return 0
	"$@"
}
suites() {
	suite host dynamic host_suite
	suite harness dynamic harness_suite
	suite ftracetest dynamic guest 3600 ftracetest.sh "${nokunit[@]}"
	static suite static-ftracetest static guest 3600 ftracetest.sh
	long suite lockdep-storm lockdep lockdep_suite storm 2400
	suite pfe-ftracetest pfe guest 3600 ftracetest.sh "${nokunit[@]}"
	btf suite btf-ftracetest btf guest 3600 ftracetest.sh "${nokunit[@]}"
	# perf probe -k vmlinux: the host's and the guest's perf on the btf
	# kernel's DWARF
	btf suite btf-perf-vmlinux btf guest 600 perf-vmlinux.sh "${nokunit[@]}"
	# the full storm: ~560 s of wall time on an idle machine; a hang still
	# fails at 2400 s
	suite pfe-storm pfe guest 2400 storm.sh --append "kunit.enable=0 $storm_size"
	q800_slow suite q800-ftracetest q800-dynamic guest 3600 ftracetest.sh "${nokunit[@]}"
	suite trace-cmd dynamic trace_cmd_suite
	suite foundation dynamic guest 600 foundation.sh
	suite dynamic dynamic guest 1200 dynamic.sh "${nokunit[@]}"
	machine suite q800-dynamic q800-dynamic guest 1200 dynamic.sh "${nokunit[@]}"
	suite kprobes dynamic kprobes_suite
	suite function dynamic guest 900 function.sh "${nokunit[@]}"
	machine suite q800-function q800-dynamic guest 900 function.sh "${nokunit[@]}"
	suite syscalls dynamic guest 600 syscalls.sh "${nokunit[@]}"
	suite stack-profile dynamic guest 600 stack-profile.sh "${nokunit[@]}"
	suite badinput dynamic guest 600 badinput.sh "${nokunit[@]}"
	suite access dynamic guest 600 access.sh "${nokunit[@]}"
	suite perf dynamic guest 600 perf.sh "${nokunit[@]}"
	suite uprobes dynamic guest 600 uprobes.sh "${nokunit[@]}"
	# live patching on patchable entries with frame pointers: the
	# kernel's livepatch selftests, the sample, the consistency model;
	# at boot the KUnit suite of the reliable stack walker alone (the
	# others are counted on the pfe kernel)
	suite livepatch livepatch guest 1800 livepatch.sh \
		--append "kunit.filter_glob=m68k_reliable_stacktrace"
	# BPF, interpreted: lib/test_bpf and a program on each hook (the
	# livepatch kernel carries configs/bpf.config)
	only73 suite bpf livepatch guest 900 bpf.sh "${nokunit[@]}"
	# function error injection: kprobes by breakpoint and through ftrace
	suite errinject dynamic guest 600 errinject.sh "${nokunit[@]}"
	suite pfe-errinject pfe guest 600 errinject.sh "${nokunit[@]}"
	static suite static static guest 900 static.sh
	static suite static-stack-profile static guest 600 stack-profile.sh
	long suite lockdep-dynamic lockdep lockdep_suite dynamic 1200
	long suite lockdep-kprobes lockdep lockdep_suite kprobes 1200
	long suite lockdep-foundation lockdep lockdep_suite foundation 600
	long suite lockdep-function lockdep lockdep_suite function 900
	suite ftrace-bug dynamic ftrace_bug_suite
	# the oops path: LKDTM's crash types through the generic die path,
	# ftrace_dump_on_oops, and oops=panic in a boot of its own
	suite oops dynamic oops_suite
	# pstore: ramoops' records (dmesg, console, pmsg, the function
	# recorder) across a crash, an oops and a hang, and its kselftest
	suite pstore dynamic pstore_suite
	# the same two on the x86_64 anchor (from the same tree): what m68k's
	# verdicts are to be compared with
	machine suite x86_64-oops x86_64-dynamic oops_suite
	machine suite x86_64-pstore x86_64-dynamic pstore_suite
	# no frame pointers, patchable function entries (KUnit counted on
	# pfe-function: kprobes at entries go through ftrace there)
	suite pfe-function pfe guest 900 function.sh
	suite pfe-dynamic pfe guest 1200 dynamic.sh "${nokunit[@]}"
	suite pfe-ftrace-bug pfe ftrace_bug_suite
	suite pfe-fprobe pfe guest 600 fprobe.sh "${nokunit[@]}"
	suite pfe-kprobes pfe kprobes_suite
	suite pfe-uprobes pfe guest 600 uprobes.sh "${nokunit[@]}"
	# kprobes on a seeded sample of the whole kernel (the shortened form
	# of make sweep)
	suite sweep dynamic guest 1500 sweep.sh "${nokunit[@]}"
	suite pfe-sweep pfe guest 1500 sweep.sh "${nokunit[@]}"
	long suite lockdep-uprobes lockdep lockdep_suite uprobes 600
	# the trace clock (microseconds, not jiffies) on both boards
	suite clock dynamic guest 600 clock.sh "${nokunit[@]}"
	machine suite q800-clock q800-dynamic guest 600 clock.sh "${nokunit[@]}"
	machine suite q800-foundation q800-dynamic guest 600 foundation.sh
	machine suite q800-kprobes q800-dynamic kprobes_suite
	machine suite q800-uprobes q800-dynamic guest 600 uprobes.sh "${nokunit[@]}"
	# the 68040+68060 kernel (MACHINE=virt060) on QEMU's 68040: no QEMU
	# runs Linux on its 68060 (make qemu-cpus), so these prove that the
	# 060 build of the port traces on the 040 it also supports
	machine suite virt060-foundation virt060-dynamic guest 600 foundation.sh
	machine suite virt060-function virt060-dynamic guest 900 function.sh "${nokunit[@]}"
	machine suite virt060-dynamic virt060-dynamic guest 1200 dynamic.sh "${nokunit[@]}"
	machine suite virt060-kprobes virt060-dynamic kprobes_suite
	machine suite virt060-uprobes virt060-dynamic guest 600 uprobes.sh "${nokunit[@]}"
	# the 68060 on Hatari's Falcon (MACHINE=atari060), its instruction
	# cache emulated: the KUnit suites that write text and run it at once,
	# the tracers on filters and on every function
	machine suite hatari060 atari060-dynamic guest 1200 hatari.sh --append hatari.cpu=68060
	# the 68030 (MACHINE=atari030): the same checks but those on every
	# function (several minutes more of its slower emulation)
	machine suite hatari030 atari030-dynamic guest 600 hatari.sh \
		--append "hatari.cpu=68030 hatari.all=0"
	# the foundation suite on both (KUnit ran in the suites above; these
	# kernels have no boot self tests of the tracers: configs/atari.config)
	machine suite hatari060-foundation atari060-dynamic guest 900 foundation.sh "${nokunit[@]}"
	machine suite hatari030-foundation atari030-dynamic guest 900 foundation.sh "${nokunit[@]}"
	# the uprobes suite on the 68060 and the 68030 (under a minute each):
	# breakpoints written into user text, single steps out of line in the
	# XOL page (on the 030 the first step faults the page in: Hatari
	# patch 0005)
	machine suite hatari060-uprobes atari060-dynamic guest 900 uprobes.sh "${nokunit[@]}"
	machine suite hatari030-uprobes atari030-dynamic guest 900 uprobes.sh "${nokunit[@]}"
	# the kprobes suite on the 68060 and the 68030 (~4 and ~6 minutes): a
	# probe on every instruction of six hot functions, written into text
	# the emulated instruction cache holds.  On the 030 a branch stepped
	# in a slot may aim at an unmapped page: the trace comes first
	# (Hatari patch 0007)
	machine suite hatari060-kprobes atari060-dynamic kprobes_suite
	machine suite hatari030-kprobes atari030-dynamic kprobes_suite
	# the function tracer's suite on the 68060: ~4 minutes; the dynamic
	# suite (200 switches of the tracers on every function under load):
	# ~15 minutes on the 060, ~18 on the 030
	machine suite hatari060-function atari060-dynamic guest 1800 function.sh "${nokunit[@]}"
	machine suite hatari060-dynamic atari060-dynamic guest 3600 dynamic.sh "${nokunit[@]}"
	# kselftest ftrace on the 68060 at a 256th of the cycles (case 49,
	# fgraph-multi-filter.tc, function_graph on every function of two
	# instances, makes no progress at Hatari's default 128th): all 177
	# verdicts in one boot, 5,114 s of one core when measured; the
	# timeout allows a day 3.5 times slower
	machine suite hatari060-ftracetest atari060-dynamic guest 18000 ftracetest.sh \
		--cpu-cycle-div 256 "${nokunit[@]}"
	# the same on the 68030 (its slower emulation: more host time per
	# case): all 177 verdicts as expected in one boot, 6,120 s of one
	# core when measured; the timeout allows a day 3.5 times slower
	machine suite hatari030-ftracetest atari030-dynamic guest 21600 ftracetest.sh \
		--cpu-cycle-div 256 "${nokunit[@]}"
	machine suite hatari030-dynamic atari030-dynamic guest 3600 dynamic.sh "${nokunit[@]}"
	# ColdFire: the tracing self tests, and the trace events of a boot
	only73 suite mcf5208-selftests mcf5208-boot nouser_suite 300 selftests
	only73 suite mcf5208-boottrace mcf5208-boottrace nouser_suite 300 boottrace
	only73 suite mcf5208-bootgraph mcf5208-bootgraph nouser_suite 300 bootgraph
	only73 suite mcf5208-flat mcf5208-flat flat_suite 600
	only73 suite mcf5208-lockdep mcf5208-lockdep nouser_suite 600 lockdep
}

selected() { # NAME: is NAME one of the SUITES patterns?
	local p
	for p in "${patterns[@]}"; do
		# shellcheck disable=SC2053
		[[ $1 == $p ]] && return 0
	done
	return 1
}

# The SUITES patterns must each name a suite.
all=$(suite() { echo "$1 $2"; }; suites)
for p in "${patterns[@]}"; do
	found=
	while read -r n _; do
		# shellcheck disable=SC2053
		[[ $n == $p ]] && found=1
	done <<<"$all"
	if [ -z "$found" ]; then
		echo "check.sh: SUITES pattern '$p' names no suite; the suites are:" >&2
		awk '{print "  " $1 " (" $2 " kernel)"}' <<<"$all" >&2
		exit 2
	fi
done
case $mode in
list) suite() { selected "$1" && echo "$1 $2"; }; suites; exit 0 ;;
variants) suite() { selected "$1" && echo "$2"; }; suites | sort -u; exit 0 ;;
esac

L=$B/logs/check
rm -rf "$L"
mkdir -p "$L"

# guest NAME VARIANT TIMEOUT SCRIPT [ARGS for qemu-run]: one boot running
# guest/tests/SCRIPT.  (STRICT: qemu-run's console rule, see ftrace-bug;
# empty for none, see oops.)
guest() {
	local name=$1 kobj timeout=$3 script=$top/guest/tests/$4
	kobj=$(kobj "$B" "$2")
	shift 4
	# shellcheck disable=SC2086 # STRICT is a list of options
	"$top/harness/stage.sh" "check:$name" \
		"$top/harness/qemu-run.sh" --kernel "$kobj/vmlinux" \
		--initrd "$kobj/initramfs.cpio.gz" --timeout "$timeout" ${STRICT---strict} --icount \
		--log "$L/$name.log" "$@" "$script" >"$L/$name.out" 2>&1
	grep -E '^(==>|qemu-run:)|^CHECK FAIL|^\[[0-9]+\].*\[FAIL\]|^ *not ok' "$L/$name.out"
}

# post NAME UNIT CMD...: a host post-processor writing CHECK lines to
# UNIT.log; its failing exit is a failed check.
post() {
	local name=$1 unit=$2 rc
	shift 2
	"$@" >"$L/$unit.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || echo "CHECK FAIL $name:exit: exited $rc (log: $L/$unit.log)" >>"$L/$unit.log"
	grep -E '^CHECK FAIL' "$L/$unit.log"
}

host_suite() { # the host-side unit tests (the instruction decoder needs vmlinux)
	"$top/harness/stage.sh" check:host "$top/harness/host-tests.sh" "$L/host.log" \
		"$(kobj "$B" dynamic)/vmlinux"
}

# The harness itself: a guest that hangs, panics or dies without the
# HARNESS-EXIT marker must fail qemu-run, with the cause in its message.
harness_case() { # NAME MESSAGE SCRIPT-LINE [qemu-run options]
	local name=$1 want=$2 line=$3 kobj
	kobj=$(kobj "$B" dynamic)
	shift 3
	mkdir -p "$L/harness"
	printf '#!/bin/sh\n%s\n' "$line" >"$L/harness/$name.sh"
	if "$top/harness/qemu-run.sh" --kernel "$kobj/vmlinux" \
		--initrd "$kobj/initramfs.cpio.gz" "$@" "$L/harness/$name.sh" \
		>"$L/harness/$name.txt" 2>&1; then
		echo "CHECK FAIL harness:$name: qemu-run exited 0"
	elif grep -q "^qemu-run: .*$want" "$L/harness/$name.txt"; then
		echo "CHECK PASS harness:$name"
	else
		echo "CHECK FAIL harness:$name: no '$want' from qemu-run"
	fi
}
harness_suite() {
	local quick="kunit.enable=0 trace_event="
	{
		harness_case timeout 'TIMEOUT after 5s (the console was silent for the last [0-9]\+s)' \
			'sleep 600' --timeout 5 --append "$quick"
		harness_case panic 'guest panicked' 'true' --timeout 120 \
			--append "$quick rdinit=/nonexistent"
		harness_case lost-console 'guest died/lost console' 'poweroff -f' \
			--timeout 120 --append "$quick"
		harness_case script-exit 'guest script exited 3 ' 'exit 3' \
			--timeout 120 --append "$quick"
	} >"$L/harness.log"
	cat "$L/harness.log"
}

# kprobes.sh, then the offsets the guest accepted checked against objdump
kprobes_suite() { # NAME VARIANT
	guest "$1" "$2" 900 kprobes.sh "${nokunit[@]}"
	post kp-host-offsets "$1-offsets" "$top/harness/kprobe-offsets.py" "$L/$1.log" \
		"$(kobj "$B" "$2")/vmlinux"
}

# trace-cmd in the guest.  Its recordings are reported again on the host,
# and one goes over QEMU user networking (the guest's 10.0.2.2 is the host's
# loopback) to the host's `trace-cmd listen`: our host build, whose listener
# lets its readers drain their connection instead of stopping them a fixed
# second after the client's close (userspace/trace-cmd/patches/trace-cmd/).
trace_cmd_suite() { # NAME VARIANT
	local tc_port tc_listen
	tc_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	mkdir -p "$L/listen"
	(cd "$L/listen" && exec "$top/build/trace-cmd/host/bin/trace-cmd" listen -p "$tc_port" -d "$L/listen" -l "$L/listen/listen.log") &
	tc_listen=$!
	(export QEMU_EXTRA="-netdev user,id=net0 -device virtio-net-device,netdev=net0"
	 guest "$1" "$2" 900 trace-cmd.sh --append "kunit.enable=0 tc.listen=$tc_port")
	# The listener forks a child per client, which writes the trace.dat
	# once the client is done: give it time to finish (a loaded host is
	# slow) before the listener goes.
	for _ in $(seq 600); do
		pgrep -P "$tc_listen" >/dev/null || break
		sleep 0.1
	done
	kill "$tc_listen" 2>/dev/null
	wait "$tc_listen" 2>/dev/null
	post tc-host "$1-host" "$top/harness/trace-cmd-host.sh" "$L/$1.log" "$L/$1" \
		"$top/build/trace-cmd/host/bin/trace-cmd" "$L/listen"
}

# A corrupted call site: ftrace_bug() warns once and turns ftrace off.  The
# console is read to the end: that one WARNING, and nothing else.
ftrace_bug_suite() { # NAME VARIANT
	STRICT="--strict --expect-warning ftrace_bug" \
		guest "$1" "$2" 600 ftrace-bug.sh "${nokunit[@]}"
}

# The oops path.  oops.sh provokes oopses on purpose and reads its own
# console (no qemu-run --strict: the reports are the point).  Then a boot
# with oops=panic (panic_on_oops) must end in the panic of the oops it
# provokes, its checks in unit NAME-panic.
oops_suite() { # NAME VARIANT
	local kobj run=$L/harness/$1-panic u=$L/$1-panic.log rc
	kobj=$(kobj "$B" "$2")
	STRICT='' guest "$1" "$2" 600 oops.sh "${nokunit[@]}"
	mkdir -p "$L/harness"
	cat >"$run.sh" <<-'EOS'
		#!/bin/sh
		modprobe lkdtm || exit 1
		echo "oops-panic: panic_on_oops=$(cat /proc/sys/kernel/panic_on_oops)"
		echo EXCEPTION >/sys/kernel/debug/provoke-crash/DIRECT
		echo "oops-panic: the writer survived"
	EOS
	"$top/harness/qemu-run.sh" --kernel "$kobj/vmlinux" --initrd "$kobj/initramfs.cpio.gz" \
		--timeout 300 --icount --log "$run.console" \
		--append "kunit.enable=0 trace_event= oops=panic" "$run.sh" >"$run.txt" 2>&1
	rc=$?
	{
		if grep -q '^oops-panic: panic_on_oops=1' "$run.console"; then
			echo "CHECK PASS oops-panic-armed"
		else
			echo "CHECK FAIL oops-panic-armed: the guest did not report panic_on_oops=1"
		fi
		if [ $rc -ne 0 ] && grep -q 'Kernel panic - not syncing: Fatal exception' "$run.console"; then
			echo "CHECK PASS oops-panic-panicked"
		else
			echo "CHECK FAIL oops-panic-panicked: qemu-run exited $rc, no 'Fatal exception' panic ($run.console)"
		fi
		if grep -q '^oops-panic: the writer survived' "$run.console"; then
			echo "CHECK FAIL oops-panic-stopped: the oops did not stop the writer"
		else
			echo "CHECK PASS oops-panic-stopped"
		fi
	} >"$u"
	grep '^CHECK FAIL' "$u"
}

# pstore across four boots of one guest whose RAM is a file kept from one
# boot to the next (qemu-run.sh --ram-file), with the same ramoops region
# (reserve_mem=) and the same disk, an ext4 image holding the kernel's
# pstore kselftest and its state (guest/tests/pstore.sh: what each step
# does and checks).  The host checks how each boot ended, that the
# command line was not cut short and that the region was at the same
# address in all of them (the region: PSTORE_ARGS, harness/lib.sh).
pstore_suite() { # NAME VARIANT
	local kobj d=$L/$1 u=$L/$1.log step region regions='' blk=virtio-blk-device
	local -a kill steps
	kobj=$(kobj "$B" "$2")
	# virt's virtio is on MMIO, the PC's on PCI
	[ "$(kernel_machine "$2")" != x86_64 ] || blk=virtio-blk-pci
	rm -rf "$d"
	mkdir -p "$d/disk"
	cp -a "$B/linux/tools/testing/selftests/pstore" "$d/disk/"
	mkfs.ext4 -q -O ^has_journal -E root_owner=0:0 -d "$d/disk" "$d/disk.img" 16M
	steps=(crash oops hang hung)
	# x86_64's serial console is printed by a kernel thread (nbcon): on
	# its one CPU, with interrupts masked for ever, the hang's message
	# never reaches the console, and there is nothing to kill the guest at
	[ "$blk" = virtio-blk-device ] || steps=(crash oops)
	for step in "${steps[@]}"; do
		kill=()
		[ "$step" != hang ] || kill=(--kill-at 'pstore_hang: spinning with interrupts masked')
		QEMU_EXTRA="-drive file=$d/disk.img,format=raw,if=none,id=disk -device $blk,drive=disk" \
			"$top/harness/stage.sh" "check:$1-$step" \
			"$top/harness/qemu-run.sh" --kernel "$kobj/vmlinux" \
			--initrd "$kobj/initramfs.cpio.gz" --timeout 600 --icount \
			--ram-file "$d/ram" --log "$d/$step.console" "${kill[@]}" \
			--append "kunit.enable=0 trace_event= $PSTORE_ARGS harness.pstore=$step" \
			"$top/guest/tests/pstore.sh" >"$d/$step.txt" 2>&1
	done
	{
		for step in "${steps[@]}"; do
			grep -a '^CHECK ' "$d/$step.console"
		done
		[ ${#steps[@]} = 4 ] ||
			echo "CHECK SKIP pstore:hang: x86_64's nbcon serial console prints nothing while interrupts are masked on its one CPU"
		# how each boot ended: the crash in sysrq's panic, the oops and
		# the last boot at their script's end, the hang killed
		if grep -q '^qemu-run: no HARNESS-EXIT marker: guest panicked' "$d/crash.txt" &&
			grep -q 'Kernel panic - not syncing: sysrq triggered crash' "$d/crash.console"; then
			echo "CHECK PASS pstore:crash-panicked"
		else
			echo "CHECK FAIL pstore:crash-panicked: no sysrq crash panic ($d/crash.txt)"
		fi
		for step in oops hung; do
			[ -f "$d/$step.txt" ] || continue
			if grep -q '^qemu-run: guest script exited 0 ' "$d/$step.txt"; then
				echo "CHECK PASS pstore:$step-boot"
			else
				echo "CHECK FAIL pstore:$step-boot: $(grep '^qemu-run:' "$d/$step.txt" | tail -n 1)"
			fi
		done
		if [ ! -f "$d/hang.txt" ]; then
			:
		elif grep -q '^qemu-run: killed the guest at ' "$d/hang.txt"; then
			echo "CHECK PASS pstore:hang-killed"
		else
			echo "CHECK FAIL pstore:hang-killed: $(grep '^qemu-run:' "$d/hang.txt" | tail -n 1)"
		fi
		# ramoops' own word on its region, the same in every boot
		for step in "${steps[@]}"; do
			grep -q "Kernel command line: .* harness.pstore=$step\$" "$d/$step.console" ||
				echo "CHECK FAIL pstore:$step-cmdline: the kernel's command line lost its end"
			region=$(sed -n 's/.*ramoops: using \(0x[0-9a-f]*@0x[0-9a-f]*\),.*/\1/p' "$d/$step.console" | head -n 1)
			regions+=" $step:${region:-none}"
		done
		if [ "$(tr ' ' '\n' <<<"$regions" | sed -n 's/^[a-z-]*://p' | sort -u)" = \
			"$(sed -n 's/^ crash:\(0x[^ ]*\) .*/\1/p' <<<"$regions")" ]; then
			echo "CHECK PASS pstore:region-same"
		else
			echo "CHECK FAIL pstore:region-same: ramoops' regions:$regions"
		fi
	} >"$u"
	grep '^CHECK FAIL' "$u"
}

# A ColdFire kernel booted without userland (qemu-run.sh --no-userland):
# its console holds the self tests, a boot-time trace dumped at the root
# mount panic, or the FLAT init's own checks (guest/flat/init.c: CHECK
# lines and HARNESS-EXIT); with WHAT, harness/console-checks.sh WHAT reads
# the console log on the host as well.
# (RAM: a file for the guest's RAM, qemu-run.sh --ram-file.)
nouser_suite() { # NAME VARIANT TIMEOUT [WHAT]
	"$top/harness/stage.sh" "check:$1" \
		"$top/harness/qemu-run.sh" --kernel "$(kobj "$B" "$2")/vmlinux" --no-userland \
		--timeout "$3" --strict --icount ${RAM:+--ram-file "$RAM"} \
		--log "$L/$1.log" >"$L/$1.out" 2>&1
	grep -E '^(==>|qemu-run:)|^CHECK FAIL' "$L/$1.out"
	[ -z "${4:-}" ] || post console-checks "$1-host" "$top/harness/console-checks.sh" "$4" \
		"$L/$1.log" "$(kobj "$B" "$2")/vmlinux"
}

# The FLAT init on ColdFire, on RAM kept in a file, then the same kernel
# booted again on that RAM: its init finds what pstore kept of the first
# boot (the panic of init's exit in dmesg, the console, the function
# recorder's last calls) and checks it, in unit NAME-pstore.
flat_suite() { # NAME VARIANT TIMEOUT
	local ram=$L/$1.ram
	rm -f "$ram"
	RAM=$ram nouser_suite "$1" "$2" "$3"
	RAM=$ram nouser_suite "$1-pstore" "$2" "$3"
}

# lockdep watching the suites that lock and switch the most
lockdep_suite() { # NAME VARIANT SUITE TIMEOUT
	guest "$1" "$2" "$4" lockdep.sh --append "kunit.enable=0 locks.suite=$3"
}

# Run the selected suites, two at a time; note each unit they produce.
slots=2
running=0
units=()
suite() { # NAME VARIANT FUNCTION [ARGS]: FUNCTION NAME VARIANT [ARGS]
	local name=$1 fn=$3
	selected "$name" || return 0
	units+=("$name")
	case $fn in
	kprobes_suite) units+=("$name-offsets") ;;
	oops_suite) units+=("$name-panic") ;;
	flat_suite) units+=("$name-pstore") ;;
	trace_cmd_suite) units+=("$name-host") ;;
	nouser_suite) [ $# -lt 5 ] || units+=("$name-host") ;;
	esac
	if [ "$running" -ge "$slots" ]; then
		wait -n
		running=$((running - 1))
	fi
	set -- "$1" "$2" "${@:4}"
	"$fn" "$@" &
	running=$((running + 1))
}
suites
wait

shopt -s nullglob
(IFS=,; echo "${units[*]}") >"$L/units"
echo "$KERNEL" >"$L/kernel"
about="Linux $(cat "$B/pristine/.debian-version" 2>/dev/null || echo '?') (Debian's linux-source),"
# the boards of the suites that ran (harness/machines' labels), each
# machine looked up once
boards=$(suite() { selected "$1" && kernel_machine "$2"; }
	suites | sort -u | while read -r m; do machine_field "$m" label; done |
	paste -sd, - | sed 's/,/, /g')
about+=" QEMU $(qemu-system-m68k --version | sed -n 's/.*version \([^ ]*\).*/\1/p;q'), boards: $boards,"
about+=" commit $(git -C "$top" describe --always --dirty 2>/dev/null || echo '?'),"
about+=" $(date -u +%F), suites: ${SUITES:-all}."
echo "$about" >"$L/about"
[ "$mode" = suites ] || summary "$B"
