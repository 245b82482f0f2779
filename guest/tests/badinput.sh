#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bad input: garbage written to each writable tracefs file the port touches
# (tracers, function filters, probe definitions, event filters, options,
# buffer size, stack tracer, profiler) must make the write fail and change
# nothing.  "Nothing" is a snapshot of every tracked file and of the
# patched call sites (enabled_functions) and armed kprobes, taken before
# and after each write, from a state that is not the default one (a tracer
# running, filters and a probe set), so a write that resets something shows.
# Files whose open(O_TRUNC) clears them by design (set_ftrace_filter,
# set_ftrace_notrace, set_graph_function, kprobe_events, dynamic_events,
# set_event) get their garbage appended (>>), as an addition would be.
. /harness/lib.sh

KE=$T/kprobe_events
EF1=$T/events/sched/sched_switch/filter
EF2=$T/events/raw_syscalls/sys_enter/filter

# everything a garbage write could disturb; $1: a file to leave out
state() {
	for _f in current_tracer tracing_on set_ftrace_filter set_ftrace_notrace \
		set_graph_function kprobe_events dynamic_events set_event \
		trace_options buffer_size_kb stack_max_size function_profile_enabled \
		enabled_functions trace_clock tracing_cpumask max_graph_depth \
		tracing_thresh set_ftrace_pid events/enable options/function-trace \
		events/sched/sched_switch/filter events/sched/sched_switch/enable \
		events/raw_syscalls/sys_enter/filter hwlat_detector/width; do
		[ "$T/$_f" = "$1" ] && continue
		echo "== $_f"
		cat $T/$_f 2>&1
	done
	echo "== stack_tracer_enabled $(cat /proc/sys/kernel/stack_tracer_enabled)"
	echo "== kprobes"
	cat /sys/kernel/debug/kprobes/list 2>&1
	echo "== instances $(ls $T/instances)"
}

# refuse NAME FILE DATA [>>]: writing DATA to FILE fails and changes no state
refuse() {
	_name=$1 _file=$2 _data=$3
	_before=$(state "$4")
	if [ "$4" = ">>" ]; then
		echo "$_data" >>"$_file" 2>/tmp/err
	else
		echo "$_data" >"$_file" 2>/tmp/err
	fi
	_rc=$?
	_after=$(state "$4")
	if [ $_rc -eq 0 ]; then
		fail bad-$_name "'$_data' accepted by ${_file#$T/}"
	elif [ "$_after" != "$_before" ]; then
		echo "$_before" >/tmp/before.st
		echo "$_after" >/tmp/after.st
		fail bad-$_name "'$_data' refused, but the state changed: $(diff /tmp/before.st /tmp/after.st | grep '^[-+][^-+]' | head -n 6 | tr '\n' ' ')"
	else
		echo "badinput: ${_file#$T/} '$_data': $(sed 's/^.*: //' /tmp/err)"
		pass bad-$_name
	fi
}
# appending, for the files O_TRUNC clears; $4: the file state() leaves out
refuse_add() { refuse "$1" "$2" "$3" ">>"; }

# --- a state that is not the default one
trace_reset
echo >$KE
echo vfs_read >$T/set_ftrace_filter
echo vfs_write >$T/set_ftrace_notrace
echo do_sys_openat2 >$T/set_graph_function
echo 'p:keep/kp vfs_read count=$arg3' >$KE
echo 1 >$T/events/keep/kp/enable
echo 1 >$T/events/sched/sched_switch/enable
echo 512 >$T/buffer_size_kb
echo function >$T/current_tracer
check bad-baseline "the baseline state was not set up: $(cat $T/current_tracer), $(cat $KE)" \
	sh -c "grep -q '^vfs_read' $T/enabled_functions && grep -q keep/kp $KE && grep -qx function $T/current_tracer"
state >/tmp/baseline.st

long=$(printf '%0200d' 0 | tr 0 x)

# --- tracers
refuse current_tracer-unknown $T/current_tracer no_such_tracer
refuse current_tracer-two $T/current_tracer 'function nop'
refuse current_tracer-long $T/current_tracer "$long"
refuse current_tracer-empty $T/current_tracer ''

# --- function filters
refuse_add set_ftrace_filter-unknown $T/set_ftrace_filter no_such_function_xyz
refuse_add set_ftrace_filter-command $T/set_ftrace_filter 'vfs_read:no_such_command'
refuse_add set_ftrace_filter-count $T/set_ftrace_filter 'vfs_read:traceoff:many'
refuse_add set_ftrace_notrace-unknown $T/set_ftrace_notrace no_such_function_xyz
refuse_add set_graph_function-unknown $T/set_graph_function no_such_function_xyz
refuse_add set_graph_function-command $T/set_graph_function 'vfs_read:traceoff'

# --- probe definitions
refuse_add kprobe_events-words $KE 'this is not a probe'
refuse_add kprobe_events-type $KE 'x:bad/a vfs_read'
refuse_add kprobe_events-nosym $KE 'p:bad/a'
refuse_add kprobe_events-unknown $KE 'p:bad/a no_such_function_xyz'
refuse_add kprobe_events-name $KE 'p:bad/1-2 vfs_read'
refuse_add kprobe_events-exists $KE 'p:keep/kp vfs_write'
refuse_add kprobe_events-remove $KE '-:bad/no_such_event'
# garbage arguments
refuse_add kprobe-arg-reg $KE 'p:bad/a vfs_read x=%nosuchreg'
refuse_add kprobe-arg-type $KE 'p:bad/a vfs_read x=+0(%sp):nosuchtype'
refuse_add kprobe-arg-deref $KE 'p:bad/a vfs_read x=+0(((%sp'
refuse_add kprobe-arg-var $KE 'p:bad/a vfs_read x=$nosuchvar'
refuse_add kprobe-arg-index $KE 'p:bad/a vfs_read x=$arg99999'
refuse_add kprobe-arg-name $KE 'p:bad/a vfs_read 1x=%d0'
refuse_add kprobe-arg-dup $KE 'p:bad/a vfs_read x=%d0 x=%d1'
refuse_add kprobe-arg-retval $KE 'p:bad/a vfs_read x=$retval'
refuse_add kprobe-arg-bytes $KE "p:bad/a vfs_read x=$(printf '\001\002\377')"
refuse_add dynamic_events-words $T/dynamic_events 'this is not an event'
refuse_add dynamic_events-remove $T/dynamic_events '-:bad/no_such_event'
refuse_add dynamic_events-unknown $T/dynamic_events 'p:bad/d no_such_function_xyz'

# --- event filters.  A refused filter is shown with its error in the
# filter file (Documentation/trace/events.rst, 5.2): the file is left out
# of the snapshot, and it must show the error, not hold a filter.
efilter() { # NAME FILE DATA
	refuse "$1" "$2" "$3" "$2"
	check bad-$1-shown "${2#$T/} shows '$(head -n 1 $2)' after '$3'" \
		sh -c "grep -q 'error' $2 && grep -qxF '$3' $2"
	echo 0 >"$2"
}
efilter event-filter-field $EF1 'no_such_field == 1'
efilter event-filter-operand $EF1 'prev_pid =='
efilter event-filter-parens $EF2 'id == (((1'
# no filter was left behind: sched_switch still records every switch
echo >$T/trace
sleep 0.05
check bad-event-filter-records "sched_switch records nothing after the refused filters" \
	grep -q 'sched_switch: prev_comm=' $T/trace

# --- options, sizes, switches
refuse trace_options-unknown $T/trace_options no_such_option
refuse trace_options-nounknown $T/trace_options nono_such_option
refuse buffer_size_kb-word $T/buffer_size_kb abc
refuse buffer_size_kb-zero $T/buffer_size_kb 0
refuse buffer_size_kb-negative $T/buffer_size_kb -5
refuse buffer_size_kb-huge $T/buffer_size_kb 99999999999999999999999
refuse_add set_event-unknown $T/set_event no_such_subsystem:no_such_event
refuse_add set_event-event $T/set_event sched:no_such_event
if [ -e $T/stack_max_size ]; then
	refuse stack_max_size-word $T/stack_max_size abc
	refuse stack_max_size-negative $T/stack_max_size -1
else
	skip bad-stack_max_size-word "no stack_max_size (CONFIG_STACK_TRACER=n)"
fi
refuse function_profile_enabled-word $T/function_profile_enabled abc
refuse function_profile_enabled-negative $T/function_profile_enabled -1
refuse stack_tracer_enabled-word /proc/sys/kernel/stack_tracer_enabled abc
refuse tracing_on-word $T/tracing_on abc
refuse trace_clock-unknown $T/trace_clock no_such_clock
refuse max_graph_depth-word $T/max_graph_depth abc
refuse events-enable-two $T/events/enable 2
refuse options-function-trace-two $T/options/function-trace 2
refuse set_ftrace_pid-word $T/set_ftrace_pid abc
refuse hwlat-width-word $T/hwlat_detector/width abc
refuse hwlat-width-window $T/hwlat_detector/width 2000000

# --- after all of it: the baseline state, and it still traces
state >/tmp/end.st
check bad-end-state "state differs from the baseline: $(diff /tmp/baseline.st /tmp/end.st | grep '^[-+][^-+]' | head -n 6 | tr '\n' ' ')" \
	cmp -s /tmp/baseline.st /tmp/end.st
echo >$T/trace
dd if=/harness/lib.sh of=/dev/null bs=512 2>/dev/null
echo 0 >$T/tracing_on
check bad-still-traces "no vfs_read function entry and kp event after the garbage" \
	sh -c "grep -q ' vfs_read <-' $T/trace && grep -q 'kp: (vfs_read' $T/trace"

echo nop >$T/current_tracer
echo 0 >$T/events/enable
echo >$KE
trace_reset
echo 1411 >$T/buffer_size_kb
check_done
