#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The function-entry hooks of a kernel whose entry trampoline saves the
# entry registers (VARIANT=pfe: patchable entries, DYNAMIC_FTRACE_WITH_REGS,
# KPROBES_ON_FTRACE, FPROBE_EVENTS, direct calls):
#  - a kprobe on a function's entry goes through ftrace ([FTRACE] in
#    kprobes/list), reads the arguments ($argN, $stackN) and coexists with
#    the function tracer on the same function; kretprobes see the return value;
#  - fprobe events (f:) at entry and return, tracepoint probes (t:) on a
#    built-in tracepoint and on one of a module that comes and goes (the
#    probe must fire again after the module is reloaded, and removing it
#    afterwards must neither warn nor hang: patch 0026);
#  - the ftrace-direct samples: each loads, its trampoline's C function
#    sees the traced function's real arguments, and it unloads.
# Known work: dd with bs=777 makes vfs_write() calls with count 777.
. /harness/lib.sh

D=$T/dynamic_events
KL=/sys/kernel/debug/kprobes/list
dd777() { dd if=/dev/zero of=/dev/null bs=777 count=3 2>/dev/null; }
# dmesg_mark, then no_new_warning: the kernel printed no WARNING, BUG or
# Oops in between
dmesg_mark() { dmesg >/tmp/dmesg.before; }
no_new_warning() {
	dmesg >/tmp/dmesg.after
	! diff /tmp/dmesg.before /tmp/dmesg.after | grep -qE 'WARNING|BUG|Oops'
}

trace_reset
echo >$D

# kprobes on ftrace
echo 'p:kpw vfs_write cnt=$arg3:u32 st=$stack3:u32' >>$D
check fp-kprobe-added "kprobe on vfs_write refused" grep -q '^p:kprobes/kpw vfs_write' $D
check fp-kprobe-ftrace "vfs_write's kprobe is not an ftrace one: $(grep vfs_write $KL)" \
	sh -c "grep -q 'vfs_write+0x0 .*\\[FTRACE\\]' $KL"
echo 1 >$T/events/kprobes/kpw/enable
dd777
check fp-kprobe-args "$(event_hits kpw 'cnt=777 st=777') hits with cnt=777 st=777, not >= 3" \
	[ "$(event_hits kpw 'cnt=777 st=777')" -ge 3 ]
check fp-kprobe-pc "the event is not at vfs_write+0x0" \
	sh -c "grep ' kpw: ' $T/trace | head -n 1 | grep -q '(vfs_write+0x0/'"

# ... with the function tracer on the same function
echo >$T/trace
echo vfs_write >$T/set_ftrace_filter
echo function >$T/current_tracer
dd777
nfunc=$(grep -c 'dd-.* vfs_write <-' $T/trace) nkp=$(event_hits kpw 'cnt=777')
check fp-kprobe-with-function "function tracer: $nfunc vfs_write entries from dd, kprobe: $nkp hits" \
	test "$nfunc" -ge 3 -a "$nkp" -ge 3
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
check fp-kprobe-still-ftrace "[FTRACE] lost after the function tracer" \
	sh -c "grep -q 'vfs_write+0x0 .*\\[FTRACE\\]' $KL"
echo 0 >$T/events/kprobes/kpw/enable

# kretprobe
echo 'r:kpwr vfs_write ret=$retval:s32' >>$D
echo >$T/trace
echo 1 >$T/events/kprobes/kpwr/enable
dd777
check fp-kretprobe "$(event_hits kpwr 'ret=777') returns with ret=777, not >= 3" \
	[ "$(event_hits kpwr 'ret=777')" -ge 3 ]
echo 0 >$T/events/kprobes/kpwr/enable
echo '-:kprobes/kpw' >>$D
echo '-:kprobes/kpwr' >>$D

# fprobe events
echo 'f:fpw vfs_write cnt=$arg3:u32' >>$D &&
	echo 'f:fpwr vfs_write%return ret=$retval:s32' >>$D
check fp-fprobe-added "fprobe events refused: $(cat $D)" grep -q '^f:fprobes/fpwr' $D
echo >$T/trace
echo 1 >$T/events/fprobes/enable
dd777
echo 0 >$T/events/fprobes/enable
check fp-fprobe-entry "$(event_hits fpw 'cnt=777') entries with cnt=777, not >= 3" \
	[ "$(event_hits fpw 'cnt=777')" -ge 3 ]
check fp-fprobe-return "$(event_hits fpwr 'ret=777') returns with ret=777, not >= 3" \
	[ "$(event_hits fpwr 'ret=777')" -ge 3 ]
echo >$D
check fp-fprobe-removed "dynamic_events not empty: $(cat $D)" absent . $D

# A return through a frame fprobe never entered (patch 0033): a task sleeps
# in hrtimer_nanosleep, entered under function_graph with the function in
# set_graph_notrace (its frame has the tracer's fgraph index bit and no
# data).  After 15 more function_graph registrations, fgraph's LRU of 16
# indices gives that index to fprobe, whose return handler is then called
# for the sleeper's frame.
echo hrtimer_nanosleep >$T/set_graph_notrace
echo function_graph >$T/current_tracer
sleep 5 &
sleeper=$!
sleep 1
echo nop >$T/current_tracer
echo >$T/set_graph_notrace
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
	echo function_graph >$T/current_tracer
	echo nop >$T/current_tracer
done
dmesg_mark
echo 'f:fpstale vfs_write%return ret=$retval:s32' >>$D
echo >$T/trace
echo 1 >$T/events/fprobes/fpstale/enable
wait $sleeper
dd777
echo 0 >$T/events/fprobes/fpstale/enable
check fp-fprobe-stale-frame "a return through the sleeper's frame warned" no_new_warning
check fp-fprobe-stale-after "$(event_hits fpstale 'ret=777') returns with ret=777 after it, not >= 3" \
	[ "$(event_hits fpstale 'ret=777')" -ge 3 ]
echo >$D

# tracepoint probe on a built-in tracepoint
echo 't:tpexec sched_process_exec' >>$D
echo >$T/trace
echo 1 >$T/events/tracepoints/tpexec/enable
/bin/true
echo 0 >$T/events/tracepoints/tpexec/enable
check fp-tprobe "no tpexec hit from an exec" sh -c "grep -q ' tpexec: ' $T/trace"
echo >$D

# tracepoint probe on a module that is loaded, unloaded and loaded again
rmmod trace-events-sample 2>/dev/null
echo 't:tpmod foo_bar' >>$D
check fp-tprobe-absent "t: on foo_bar of an absent module refused" grep -q tpmod $D
echo 1 >$T/events/tracepoints/tpmod/enable
for round in 1 2 3; do
	echo >$T/trace
	modprobe trace-events-sample
	sleep 2
	rmmod trace-events-sample
	n=$(grep -c ' tpmod: ' $T/trace)
	check fp-tprobe-module-$round "$n hits while the module was loaded (round $round)" [ "$n" -gt 0 ]
done
echo >$T/trace
sleep 1
check fp-tprobe-module-gone "hits after the module went" sh -c "! grep -q ' tpmod: ' $T/trace"
echo 0 >$T/events/tracepoints/tpmod/enable
dmesg_mark
# the removal that warned and oopsed (or hung) before patch 0026
echo >$D
check fp-tprobe-removed "tpmod still defined: $(cat $D)" absent tpmod $D
check fp-tprobe-no-warning "the removal printed a warning" no_new_warning
# event_mutex is free again: a new event can be defined and removed
echo 'p:after vfs_read' >>$D && echo '-:kprobes/after' >>$D
check fp-after-tprobe "cannot define an event after the removal" absent . $D

# direct calls: the samples
direct_load() { # MODULE [SECONDS]: load, let it run, keep the trace
	echo >$T/trace
	modprobe "$1" || return 1
	sleep "${2:-3}"
	cat $T/trace >/tmp/direct.trace
	rmmod "$1"
}
addr() { grep " [tT] $1\$" /proc/kallsyms | cut -d' ' -f1 | sed 's/^0*//'; } # as %lx prints it

check fp-direct-load "modprobe ftrace-direct failed" direct_load ftrace-direct
check fp-direct-args "my_direct_func saw no task of its own name" \
	grep -qE 'my_direct_func: waking up ([^ ]+)-[0-9]+$' /tmp/direct.trace
check fp-direct-unloaded "ftrace-direct still loaded" sh -c "! grep -q '^ftrace_direct ' /proc/modules"

# four arguments: compare with a kprobe on the same site
echo 'p:hmf handle_mm_fault addr=$arg2:x32' >>$D
echo 1 >$T/events/kprobes/hmf/enable
check fp-direct-too-load "modprobe ftrace-direct-too failed" direct_load ftrace-direct-too
echo 0 >$T/events/kprobes/hmf/enable
grep -o 'handle mm fault vma=[^ ]* address=[0-9a-f]*' /tmp/direct.trace |
	sed 's/.*address=//' | sort -u >/tmp/direct.addr
grep ' hmf: ' /tmp/direct.trace | sed 's/.*addr=0x//' | sort -u >/tmp/kprobe.addr
check fp-direct-too-args "direct addresses $(head -c 60 /tmp/direct.addr | tr '\n' ' ') not all in the kprobe's" \
	sh -c "[ -s /tmp/direct.addr ] && ! grep -vxF -f /tmp/kprobe.addr /tmp/direct.addr"
echo >$D

check fp-direct-modify-load "modprobe ftrace-direct-modify failed" direct_load ftrace-direct-modify 5
check fp-direct-modify "func1 and func2 not both seen" \
	sh -c "grep -q 'my direct func1' /tmp/direct.trace && grep -q 'my direct func2' /tmp/direct.trace"

wup=$(addr wake_up_process) sch=$(addr schedule)
check fp-direct-multi-load "modprobe ftrace-direct-multi failed" direct_load ftrace-direct-multi
grep -o 'my_direct_func: ip [0-9a-f]*' /tmp/direct.trace | sed 's/.* //' | sort -u >/tmp/direct.ips
check fp-direct-multi-ips "ips $(tr '\n' ' ' </tmp/direct.ips) are not {wake_up_process $wup, schedule $sch}" \
	sh -c "[ \"\$(tr '\n' ' ' </tmp/direct.ips)\" = \"\$(printf '%s\n' $wup $sch | sort | tr '\n' ' ')\" ]"

check fp-direct-multi-modify-load "modprobe ftrace-direct-multi-modify failed" \
	direct_load ftrace-direct-multi-modify 5
check fp-direct-multi-modify "func1 and func2 not both seen at wake_up_process/schedule" \
	sh -c "grep -qE 'my direct func1 ip ($wup|$sch)' /tmp/direct.trace &&
		grep -qE 'my direct func2 ip ($wup|$sch)' /tmp/direct.trace"
check fp-direct-none-left "a direct sample still loaded: $(grep ftrace_direct /proc/modules)" \
	sh -c "! grep -q ftrace_direct /proc/modules"

# afterwards: nothing left enabled, tracing still works
check fp-nothing-enabled "enabled_functions: $(head -n 3 $T/enabled_functions)" \
	absent . $T/enabled_functions
echo vfs_write >$T/set_ftrace_filter
echo function >$T/current_tracer
echo >$T/trace
dd777
check fp-function-after "no vfs_write from dd afterwards" grep -q 'dd-.* vfs_write <-' $T/trace
trace_reset
check_done
