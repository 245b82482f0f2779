#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Dynamic ftrace: call-site records, filters, probes, modules, switching.
. /harness/lib.sh

check dyn-filter-file "no set_ftrace_filter: not a dynamic ftrace kernel" test -w $T/set_ftrace_filter

# --- nearly every text function has a call site record.  The rest are
# assembly, notrace code (kernel/trace, lockdep, ...) and the arch
# exclusions, a fixed set, so the share depends on how much driver and
# network code the kernel has: 70-72 % on the test kernels (74-76 % with
# all of virt_defconfig's devices).  A site the arch code refuses fails
# the boot on its own (ftrace_bug() warns).
nrec=$(wc -l <$T/available_filter_functions)
ntext=$(grep -c ' [tT] [^[]*$' /proc/kallsyms)
echo "dynamic: $nrec call sites, $ntext text symbols in the kernel image ($((nrec * 100 / ntext))%)"
check dyn-records "only $nrec records for $ntext text symbols" test $((nrec * 100 / ntext)) -ge 65
grep -q '^vfs_read$' $T/available_filter_functions
check dyn-records-vfs_read "vfs_read not in available_filter_functions" test $? -eq 0
# arch exclusions really are excluded
check dyn-notrace-arch "tracer's own code is listed as traceable" \
	absent '^(prepare_ftrace_return|m68k_patch_text|trap_c|arch_stack_walk)$' $T/available_filter_functions

# Stop tracing and keep the trace (a change of tracer clears the buffer).
stop_trace() {
	echo 0 >$T/tracing_on
	cp $T/trace /tmp/trace.txt
	echo nop >$T/current_tracer
}

only_functions() { # PATTERN: every traced function matches the ERE
	grep -v '^#' /tmp/trace.txt | sed -n 's/.*: \([^ ]*\) <-.*/\1/p' | sort -u >/tmp/funcs.txt
	[ -s /tmp/funcs.txt ] && ! grep -vqE "$1" /tmp/funcs.txt
}

# --- a name
trace_reset
echo vfs_read >$T/set_ftrace_filter
check dyn-filter-name "set_ftrace_filter holds: $(cat $T/set_ftrace_filter)" \
	test "$(cat $T/set_ftrace_filter)" = vfs_read
echo function >$T/current_tracer
n_en=$(wc -l <$T/enabled_functions)
check dyn-enabled-functions "enabled_functions lists $n_en sites, not 1" test "$n_en" -eq 1
workload
stop_trace
only_functions '^vfs_read$'
check dyn-filter-name-trace "traced: $(tr '\n' ' ' </tmp/funcs.txt)" test $? -eq 0

# --- a glob and a negation
trace_reset
echo 'vfs_*' >$T/set_ftrace_filter
echo '!vfs_read' >>$T/set_ftrace_filter
grep -q '^vfs_read$' $T/set_ftrace_filter
check dyn-filter-negation "vfs_read still in the filter" test $? -ne 0
echo function >$T/current_tracer
workload
stop_trace
glob_only() { only_functions '^vfs_' && ! grep -qx vfs_read /tmp/funcs.txt; }
glob_only
check dyn-filter-glob "traced outside vfs_* or vfs_read traced: $(tr '\n' ' ' </tmp/funcs.txt)" \
	test $? -eq 0

# --- notrace
trace_reset
echo 'vfs_*' >$T/set_ftrace_filter
echo 'vfs_write' >$T/set_ftrace_notrace
echo function >$T/current_tracer
workload
stop_trace
check dyn-notrace "vfs_write traced despite set_ftrace_notrace, or no vfs_read" \
	sh -c "grep -q ' vfs_read <-' /tmp/trace.txt && ! grep -q ' vfs_write <-' /tmp/trace.txt"

# --- a function probe: schedule:traceoff turns tracing off
trace_reset
echo 'schedule:traceoff' >$T/set_ftrace_filter
check dyn-probe-listed "probe not listed" grep -q 'schedule:traceoff' $T/set_ftrace_filter
sleep 0.1
check dyn-probe-traceoff "tracing_on is still $(cat $T/tracing_on) after schedule()" \
	test "$(cat $T/tracing_on)" = 0
echo '!schedule:traceoff' >>$T/set_ftrace_filter

# --- function_graph restricted to one subtree
trace_reset
echo 0 >$T/tracing_on
echo vfs_read >$T/set_graph_function
echo function_graph >$T/current_tracer
echo 1 >$T/tracing_on
read -r l </proc/version
stop_trace
top=$(grep -v '^#' /tmp/trace.txt | awk -F'|' '{ b = $NF; match(b, /^ */); if (RLENGTH == 2 && b ~ /\(/) print b }' |
	sed 's/^ *//; s/[();{ ]*$//' | sort -u | tr '\n' ' ')
check dyn-graph-function "top-level graph entries: '$top'" test "$top" = "vfs_read "

# --- a module: load, filter with :mod:, trace, unload while tracing
trace_reset
modprobe trace-events-sample
mod=trace_events_sample
echo ":mod:$mod" >$T/set_ftrace_filter
nmod=$(wc -l <$T/set_ftrace_filter)
check dyn-mod-filter "the :mod: filter selected $nmod functions" test "$nmod" -gt 2
echo function >$T/current_tracer
sleep 2
grep -v '^#' $T/trace >/tmp/mod.txt
echo "module trace: $(wc -l </tmp/mod.txt) entries, e.g. $(head -1 /tmp/mod.txt)"
check dyn-mod-traced "no function of $mod traced" grep -q 'simple_thread' /tmp/mod.txt
rmmod trace-events-sample
check dyn-mod-unload "module still loaded" sh -c "! grep -q '^trace_events_sample ' /proc/modules"
sleep 0.2
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
check dyn-mod-healthy "unhealthy after unloading a traced module" healthy

# --- switching tracers on all functions 200 times under load
trace_reset
(while :; do ls /proc >/dev/null; done) &
load=$!
rounds=$(switch_tracers 200)
check dyn-switch-load "the background load died while switching" kill $load
wait $load 2>/dev/null
check dyn-switch-200 "only $rounds of 200 rounds switched function, function_graph, nop" \
	test "$rounds" -eq 200
check dyn-healthy "unhealthy after switching" healthy

trace_reset
check_done
