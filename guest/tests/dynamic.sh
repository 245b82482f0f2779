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

# --- call ops (DYNAMIC_FTRACE_WITH_CALL_OPS): while one ftrace_ops traces
# a site, enabled_functions flags it "O" and names that ops ("ops: OPS
# (FUNC)"), which the site calls directly; with two the site goes through
# the list function (no "ops:"), and calls the one left directly again
# when the other goes.  Each ops sees every call all along.
callops_site() { grep '^vfs_read ' $T/enabled_functions; }
callops_is() { # LINE ERE [NOT-ERE]: LINE matches ERE (and not NOT-ERE)
	echo "$1" | grep -qE -- "$2" || return 1
	[ -z "${3:-}" ] || ! echo "$1" | grep -qE -- "$3"
}
trace_reset
I=$T/instances/callops
echo vfs_read >$T/set_ftrace_filter
echo function >$T/current_tracer
one=$(callops_site)
echo "call ops: the top-level tracer alone: $one"
if ! callops_is "$one" 'ops: '; then
	for c in one two two-traced alone alone-traced off; do
		skip dyn-callops-$c "no call ops in this kernel (enabled_functions names no ops: '$one')"
	done
else
	check dyn-callops-one "vfs_read: '$one'" \
		callops_is "$one" '\(1\) .* O .*ops: global_ops.*function_trace_call'
	mkdir $I
	echo vfs_read >$I/set_ftrace_filter
	echo function >$I/current_tracer
	two=$(callops_site)
	echo "call ops: and an instance's tracer: $two"
	check dyn-callops-two "vfs_read with two tracers: '$two'" \
		callops_is "$two" '\(2\)' 'ops: '
	echo >$T/trace
	echo >$I/trace
	workload
	check dyn-callops-two-traced "vfs_read missing from a trace with two tracers" \
		sh -c "grep -q ' vfs_read <-' $T/trace && grep -q ' vfs_read <-' $I/trace"
	echo nop >$T/current_tracer
	alone=$(callops_site)
	echo "call ops: the instance's tracer alone: $alone"
	check dyn-callops-alone "vfs_read with the instance's tracer alone: '$alone'" \
		callops_is "$alone" '\(1\) .* O .*ops: .*function_trace_call' 'ops: global_ops'
	echo >$I/trace
	workload
	check dyn-callops-alone-traced "vfs_read not traced by the instance alone" \
		grep -q ' vfs_read <-' $I/trace
	echo nop >$I/current_tracer
	rmdir $I
	check dyn-callops-off "vfs_read still enabled: '$(callops_site)'" test -z "$(callops_site)"
fi
echo >$T/set_ftrace_filter

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
