#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make check`: every test suite against one kernel build, then one summary
# line from harness/results.py ("N passed, N failed, N skipped").
#
#   check.sh DYNAMIC_KOBJ STATIC_KOBJ LOCKDEP_KOBJ PFE_KOBJ
#
# The full set runs on the dynamic-ftrace kernel; the DYNAMIC_FTRACE=n
# kernel runs the suites that do not need dynamic ftrace; the lockdep
# kernel (the dynamic one with PROVE_LOCKING) runs the suites that lock
# and switch the most; the patchable-entry kernel (no frame pointers)
# runs the function tracer suites.
# Each guest suite is one boot (harness/qemu-run.sh --strict --icount: guest
# time counts guest instructions, so no verdict depends on host load; seen
# before: on a loaded host the wall clock stretched an unrelated irqs-off
# section past the 2 ms one the irqsoff checks look for).  The boot
# itself counts as a test case: it must reach the end of its script with a
# console free of WARNING/BUG/Oops; its checks are counted on top.
# Logs: build/logs/check/<suite>.log (console), <suite>.out (harness).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
usage='usage: check.sh DYNAMIC_KOBJ STATIC_KOBJ LOCKDEP_KOBJ PFE_KOBJ'
dyn=${1:?$usage}
static=${2:?$usage}
lockdep=${3:?$usage}
pfe=${4:?$usage}
L=$top/build/logs/check
rm -rf "$L"
mkdir -p "$L"

# guest KOBJ NAME TIMEOUT SCRIPT [ARGS for qemu-run]
# (STRICT= for the one suite whose console problem is expected: it checks
# its console itself)
guest() {
	local kobj=$1 name=$2 timeout=$3 script=$4
	shift 4
	"$top/harness/stage.sh" "check:$name" \
		"$top/harness/qemu-run.sh" --kernel "$kobj/vmlinux" \
		--initrd "$kobj/initramfs.cpio.gz" --timeout "$timeout" ${STRICT---strict} --icount \
		--log "$L/$name.log" "$@" "$script" >"$L/$name.out" 2>&1
	grep -E '^(==>|qemu-run:)|^CHECK FAIL|^\[[0-9]+\].*\[FAIL\]|^ *not ok' "$L/$name.out"
	# the boot verdict, from qemu-run's own last words
	if grep -q '^qemu-run: guest script exited' "$L/$name.out" &&
	   ! grep -q '^qemu-run: --strict' "$L/$name.out"; then
		echo "CHECK PASS boot:$name" >"$L/$name.boot"
	else
		echo "CHECK FAIL boot:$name: $(grep '^qemu-run:' "$L/$name.out" | tail -n 1)" >"$L/$name.boot"
	fi
}

"$top/harness/stage.sh" check:host "$top/harness/host-tests.sh" "$L/host.log" "$dyn/vmlinux"

# The harness itself: a guest that hangs, panics or dies without the
# HARNESS-EXIT marker must fail qemu-run, with the cause in its message.
harness_case() { # NAME MESSAGE SCRIPT-LINE [qemu-run options]
	local name=$1 want=$2 line=$3
	shift 3
	printf '#!/bin/sh\n%s\n' "$line" >"$L/harness-$name.sh"
	if "$top/harness/qemu-run.sh" --kernel "$dyn/vmlinux" \
		--initrd "$dyn/initramfs.cpio.gz" "$@" "$L/harness-$name.sh" \
		>"$L/harness-$name.out" 2>&1; then
		echo "CHECK FAIL harness:$name: qemu-run exited 0"
	elif grep -q "^qemu-run: .*$want" "$L/harness-$name.out"; then
		echo "CHECK PASS harness:$name"
	else
		echo "CHECK FAIL harness:$name: no '$want' from qemu-run"
	fi
}
quick="kunit.enable=0 trace_event="
{
	harness_case timeout 'TIMEOUT after 5s (the console was silent for the last [0-9]\+s)' 'sleep 600' --timeout 5 --append "$quick"
	harness_case panic 'guest panicked' 'true' --timeout 120 \
		--append "$quick rdinit=/nonexistent"
	harness_case lost-console 'guest died/lost console' 'poweroff -f' \
		--timeout 120 --append "$quick"
} >"$L/harness.log"
cat "$L/harness.log"

# KUnit suites run at every boot of the dynamic kernel: count them once.
nokunit="--append kunit.enable=0"

# The guest suites are independent single-threaded QEMU processes: run two
# at a time (this machine has 2 cores; -icount keeps every verdict
# independent of the load), longest first.  Each job writes only its own
# files under $L.
slots=2
running=0
job() { # run "$@" in the background, at most $slots at once
	if [ "$running" -ge "$slots" ]; then
		wait -n
		running=$((running - 1))
	fi
	"$@" &
	running=$((running + 1))
}

# the offsets the guest accepted for kprobes, against objdump
kprobes_job() { # KOBJ NAME
	guest "$1" "$2" 900 "$top/guest/tests/kprobes.sh" $nokunit
	"$top/harness/kprobe-offsets.py" "$L/$2.log" "$1/vmlinux" >"$L/$2-offsets.log" 2>&1
	grep -E '^CHECK FAIL' "$L/$2-offsets.log"
}

# trace-cmd in the guest.  Its recordings are reported again on the host,
# and one goes over QEMU user networking (the guest's 10.0.2.2 is the host's
# loopback) to the host's `trace-cmd listen`: our host build, whose listener
# lets its readers drain their connection instead of stopping them a fixed
# second after the client's close (userspace/trace-cmd/patches/trace-cmd/).
trace_cmd_job() {
	local tc_port tc_listen
	tc_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	mkdir -p "$L/listen"
	(cd "$L/listen" && exec "$top/build/trace-cmd/host/bin/trace-cmd" listen -p "$tc_port" -d "$L/listen" -l "$L/listen/listen.log") &
	tc_listen=$!
	(export QEMU_EXTRA="-netdev user,id=net0 -device virtio-net-device,netdev=net0"
	 guest "$dyn" trace-cmd 900 "$top/guest/tests/trace-cmd.sh" --append "kunit.enable=0 tc.listen=$tc_port")
	# The listener forks a child per client, which writes the trace.dat
	# once the client is done: give it time to finish (a loaded host is
	# slow) before the listener goes.
	for _ in $(seq 600); do
		pgrep -P "$tc_listen" >/dev/null || break
		sleep 0.1
	done
	kill "$tc_listen" 2>/dev/null
	wait "$tc_listen" 2>/dev/null
	"$top/harness/trace-cmd-host.sh" "$L/trace-cmd.log" "$L/trace-cmd" \
		"$top/build/trace-cmd/host/bin/trace-cmd" "$L/listen" >"$L/trace-cmd-host.log" 2>&1
	grep -E '^CHECK FAIL' "$L/trace-cmd-host.log"
}

# a corrupted call site: ftrace_bug() warns once and turns ftrace off
ftrace_bug_job() {
	STRICT='' guest "$dyn" ftrace-bug 600 "$top/guest/tests/ftrace-bug.sh" $nokunit
}

pfe_bug_job() {
	STRICT='' guest "$pfe" pfe-ftrace-bug 600 "$top/guest/tests/ftrace-bug.sh" $nokunit
}

# lockdep watching the suites that lock and switch the most
lockdep_job() { # SUITE TIMEOUT
	guest "$lockdep" "lockdep-$1" "$2" "$top/guest/tests/lockdep.sh" \
		--append "kunit.enable=0 locks.suite=$1"
}

job guest "$dyn" ftracetest 3600 "$top/guest/tests/ftracetest.sh" $nokunit
job guest "$static" static-ftracetest 3600 "$top/guest/tests/ftracetest.sh"
# the longest boot: the storm on the lockdep kernel
job lockdep_job storm 2400
# the entry-hook cases (fprobe, tprobe, direct calls) need the pfe kernel
job guest "$pfe" pfe-ftracetest 3600 "$top/guest/tests/ftracetest.sh" $nokunit
# a tracing storm under load (~2 min of guest time) on the pfe kernel, with
# fprobe and tracepoint-probe cycles too (the lockdep storm covers the
# mcount sites); garbage writes, a non-root user.  Its wall time is its
# guest time (-icount) over the CPU share it gets: ~560 s on an idle
# machine, 873-904 s with 2/3 of a core.  A run left with half a core
# (another session's build: with sched autogroup, nice 19 does not hold
# back a process in another session) once ran past its old 1200 s limit.
# The hang guard is 2400 s, like the lockdep storm's: a slow run passes, a
# hang still fails
job guest "$pfe" pfe-storm 2400 "$top/guest/tests/storm.sh" $nokunit
job trace_cmd_job
job guest "$dyn" foundation 600 "$top/guest/tests/foundation.sh"
job guest "$dyn" dynamic 1200 "$top/guest/tests/dynamic.sh" $nokunit
job kprobes_job "$dyn" kprobes
job guest "$dyn" function 900 "$top/guest/tests/function.sh" $nokunit
job guest "$dyn" syscalls 600 "$top/guest/tests/syscalls.sh" $nokunit
job guest "$dyn" stack-profile 600 "$top/guest/tests/stack-profile.sh" $nokunit
job guest "$dyn" badinput 600 "$top/guest/tests/badinput.sh" $nokunit
job guest "$dyn" access 600 "$top/guest/tests/access.sh" $nokunit
job guest "$dyn" perf 600 "$top/guest/tests/perf.sh" $nokunit
job guest "$static" static 900 "$top/guest/tests/static.sh"
job guest "$static" static-stack-profile 600 "$top/guest/tests/stack-profile.sh"
job lockdep_job dynamic 1200
job lockdep_job kprobes 1200
job lockdep_job foundation 600
job lockdep_job function 900
job ftrace_bug_job
# without frame pointers, on patchable function entries (KUnit counted here
# too: kprobes at entries go through ftrace)
job guest "$pfe" pfe-function 900 "$top/guest/tests/function.sh"
job guest "$pfe" pfe-dynamic 1200 "$top/guest/tests/dynamic.sh" $nokunit
job pfe_bug_job
job guest "$pfe" pfe-fprobe 600 "$top/guest/tests/fprobe.sh" $nokunit
job kprobes_job "$pfe" pfe-kprobes
# uprobe and uretprobe events on a user program (every kernel has them; the
# pfe kernel runs them, and lockdep watches them)
job guest "$pfe" pfe-uprobes 600 "$top/guest/tests/uprobes.sh" $nokunit
job lockdep_job uprobes 600
wait

echo
python3 "$top/harness/results.py" summarize "$L"/*.log "$L"/*.boot | tee "$L/summary.txt"
exit "${PIPESTATUS[0]}"
