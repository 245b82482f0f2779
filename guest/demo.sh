#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make run`: show tracing working on m68k.
. /harness/lib.sh
set -e
banner() { echo; echo "######## $*"; }
# ... | shows SECTION: print what a section shows; one that shows nothing
# fails the demo (make run exits non-zero naming it)
rm -f /tmp/demo.failed
shows() {
	cat >/tmp/demo.section
	cat /tmp/demo.section
	[ -s /tmp/demo.section ] || echo "$1" >>/tmp/demo.failed
}

banner "kernel: $(uname -r) on $(sed -n 's/^CPU:[[:space:]]*//p' /proc/cpuinfo)"
echo "available_tracers: $(cat $T/available_tracers)"
echo "trace events: $(wc -l <$T/available_events)"

banner "sched_switch events while running 'ls /proc'"
trace_reset
echo 1 >$T/events/sched/sched_switch/enable
ls /proc >/dev/null
echo 0 >$T/events/sched/sched_switch/enable
grep sched_switch $T/trace | head -8 | shows "sched_switch events"

banner "an event with options/stacktrace"
trace_reset
echo 1 >$T/options/stacktrace
echo 1 >$T/events/sched/sched_switch/enable
sleep 0.01
echo 0 >$T/events/sched/sched_switch/enable
echo 0 >$T/options/stacktrace
grep -A10 -m1 'sched_switch:' $T/trace | shows "an event with options/stacktrace"

banner "irqsoff tracer: longest interrupts-off section during a workload"
trace_reset
echo 0 >$T/tracing_max_latency
echo irqsoff >$T/current_tracer
workload
echo 0 >$T/tracing_on
echo "tracing_max_latency: $(cat $T/tracing_max_latency) us"
grep -v '^#' $T/trace | head -30 | shows "irqsoff tracer"
echo nop >$T/current_tracer

banner "function_graph of one read(2) system call"
trace_reset
echo 0 >$T/tracing_on
echo function_graph >$T/current_tracer
echo 1 >$T/tracing_on
read -r line </proc/version
echo 0 >$T/tracing_on
awk '/sys_read\(\) \{/ { on = 1 } on { print; if (++n == 40) exit }' $T/trace |
	shows "function_graph of one read(2)"
echo nop >$T/current_tracer

banner "function_graph with return values: a failing open(2)"
trace_reset
# the open path's first traceable function
f=
for c in do_sys_openat2 do_sys_open; do
	if grep -qx "$c" $T/available_filter_functions; then f=$c; break; fi
done
echo 0 >$T/tracing_on
echo "$f" >$T/set_graph_function
echo function_graph >$T/current_tracer
echo 1 >$T/options/funcgraph-retval
echo 1 >$T/tracing_on
cat /nonexistent 2>/dev/null || true
echo 0 >$T/tracing_on
# the call that failed: its block ends in "} /* do_sys_openat2 ret=-2 */"
# (6.12 writes "= -2")
grep -E "$f|do_filp_open|do_file_open|path_openat" $T/trace |
	awk -v f="$f" 'index($0, f "() {") { n = 0 } { b[n++] = $0 }
	     index($0, "/* " f " ret=-") || index($0, "/* " f " = -") {
		for (i = 0; i < n; i++) print b[i]; exit }' |
	shows "function_graph with return values"
echo 0 >$T/options/funcgraph-retval
echo nop >$T/current_tracer

banner "trace-cmd record -p function_graph -g ksys_read, then trace-cmd report"
trace_reset
cd /tmp
trace-cmd record -q -o /tmp/demo.dat -p function_graph -g ksys_read \
	dd if=/proc/version of=/dev/null bs=4096 count=1 >/dev/null 2>&1
trace-cmd report -i /tmp/demo.dat 2>/dev/null | grep -A24 -m1 'ksys_read() {' |
	shows "trace-cmd record and report"
cd /

banner "stack tracer: the deepest kernel stack during a workload"
trace_reset
echo 0 >$T/stack_max_size
echo 1 >/proc/sys/kernel/stack_tracer_enabled
workload
echo 0 >/proc/sys/kernel/stack_tracer_enabled
echo "stack_max_size: $(cat $T/stack_max_size) bytes"
head -n 14 $T/stack_trace | grep . | shows "stack tracer"

banner "/proc/self/stack"
cat /proc/self/stack | shows "/proc/self/stack"
trace_reset

if [ -s /tmp/demo.failed ]; then
	echo
	while read -r s; do echo "DEMO FAIL: the section '$s' showed nothing"; done </tmp/demo.failed
	exit 1
fi
