#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench` in one guest: the workloads of /usr/bin/bench (guest/src/
# bench.c) in every tracing state this kernel offers, each repeated, and
# the boot-time ftrace figures.  Prints "BENCH state workload ns" and
# "FIGURE name value unit" lines for harness/bench.py.
. /harness/lib.sh
REPS=5
NSYSCALL=200000
NSPAWN=20

run() { # STATE: all workloads, REPS times each
	_r=0
	while [ $_r -lt $REPS ]; do
		for _w in "syscall $NSYSCALL" "spawn $NSPAWN"; do
			# shellcheck disable=SC2086
			_out=$(bench $_w) || { echo "bench: '$_w' failed in state $1"; exit 1; }
			echo "$_out" | sed "s/^BENCH /BENCH $1 /"
		done
		_r=$((_r + 1))
	done
}

trace_reset
run off
grep -qw function $T/available_tracers || exit 0

echo function >$T/current_tracer
run function
echo nop >$T/current_tracer
echo function_graph >$T/current_tracer
run function_graph
echo nop >$T/current_tracer

if [ -w $T/set_ftrace_filter ]; then
	echo sys_getppid >$T/set_ftrace_filter
	echo function >$T/current_tracer
	run function-one
	echo nop >$T/current_tracer
	echo >$T/set_ftrace_filter
	# "N pages:P groups: G" - the call-site records (4 KiB pages)
	read -r sites pages _ <$T/dyn_ftrace_total_info
	pages=${pages#pages:}
	echo "FIGURE record-sites $sites sites"
	echo "FIGURE record-pages $pages pages"
	sh /harness/bench/patch-all.sh || exit 1
fi
trace_reset
