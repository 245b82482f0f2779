#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf events (patch 0023): software and tracepoint counters and sampled
# call chains through perf_event_open(), checked by guest/src/perfcount.c
# against known work; then the same with the function tracer on, whose
# return_to_handler the kernel chains must see through.
. /harness/lib.sh

check perf-no-pmu "a hardware PMU is registered: $(ls /sys/bus/event_source/devices)" \
	sh -c "! ls /sys/bus/event_source/devices | grep -qvE '^(software|tracepoint|kprobe|uprobe)\$'"
perfcount
st=$?
check perf-run "perfcount exited $st" [ "$st" = 0 ]
trace_reset
echo function_graph >$T/current_tracer
perfcount >/tmp/perfcount.out
st=$?
echo nop >$T/current_tracer
sed 's/^CHECK \([A-Z]*\) /CHECK \1 graph-/' /tmp/perfcount.out
check graph-perf-run "perfcount exited $st under function_graph" [ "$st" = 0 ]
check_done
