#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Foundation checks: tracefs, trace events, irqsoff tracer, stack traces.
. /harness/lib.sh
. /harness/tests/boot-selftests.sh

check tracefs "no $T/trace" test -f $T/trace
grep -qw nop $T/available_tracers; check tracer-nop "not in available_tracers" test $? -eq 0
grep -qw irqsoff $T/available_tracers
check tracer-irqsoff "not in available_tracers: $(cat $T/available_tracers)" test $? -eq 0

# --- sched_switch records events for a workload
trace_reset
echo 1 >$T/events/sched/sched_switch/enable
workload
echo 0 >$T/events/sched/sched_switch/enable
n=$(grep -c 'sched_switch: prev_comm=.* ==> next_comm=' $T/trace)
check sched-switch-events "only $n sched_switch events" test "$n" -gt 5
# the workload's own commands must be among the switched tasks
check sched-switch-comm "no switch names the workload's dd/sleep" \
	grep -q 'prev_comm=\(dd\|sleep\|cat\|ls\) \|next_comm=\(dd\|sleep\|cat\|ls\) ' $T/trace

# --- options/stacktrace with an event: symbolised stacks through the unwinder
trace_reset
echo 1 >$T/options/stacktrace
echo 1 >$T/events/sched/sched_switch/enable
workload
echo 0 >$T/events/sched/sched_switch/enable
echo 0 >$T/options/stacktrace
grep -A12 'sched_switch:' $T/trace >/tmp/st.txt
# sched_switch fires inside __schedule(), which schedule() calls
check event-stacktrace-schedule "no '=> __schedule' then '=> schedule' in event stacks" \
	sh -c "grep -A1 '=> __schedule\$' /tmp/st.txt | grep -q '=> schedule\$'"
# every symbolised frame must be a real kernel text symbol
bad=
for f in $(sed -n 's/^ => \([a-zA-Z0-9_.]*\)$/\1/p' /tmp/st.txt | sort -u | head -40); do
	is_kernel_text "$f" || bad="$bad $f"
done
nframes=$(grep -c '^ => ' /tmp/st.txt)
check event-stacktrace-symbols "non-text frames:$bad (of $nframes)" \
	test -z "$bad" -a "$nframes" -gt 10
# a syscall-driven switch must unwind back to the syscall entry
check event-stacktrace-depth "no stack reaches a sys_* entry point" \
	grep -q '^ => \(__\)*sys_[a-z_0-9]*$' /tmp/st.txt

# --- irqsoff tracer on a known irqs-off section (preemptirq_delay_test)
trace_reset
echo 0 >$T/tracing_max_latency
echo irqsoff >$T/current_tracer
if modprobe preemptirq_delay_test test_mode=irq delay=5000 burst_size=1; then
	# the latency snapshot is only readable while the tracer is current
	echo 0 >$T/tracing_on
	lat=$(cat $T/tracing_max_latency)
	cat $T/trace >/tmp/irqsoff.txt
	echo nop >$T/current_tracer
	grep '\[preemptirq_delay_test\]' /proc/kallsyms >/tmp/mod.syms
	rmmod preemptirq_delay_test
	# the module busy-waits 5000us with interrupts off; under -icount the
	# clock counts instructions, so only the tracer's own entry and exit
	# come on top (2 us on virt, 23 us on the Macintosh, whose guest runs
	# 8 ns instructions).  5 ms, not less: on a Macintosh at its own speed
	# fork's copy_page_range() keeps interrupts off for 3 ms under this
	# tracer.
	check irqsoff-max-latency "tracing_max_latency=$lat, expected 5000..5250us" \
		test "$lat" -ge 5000 -a "$lat" -le 5250
	start=$(sed -n 's/^# *=> started at: *\([^+ ]*\).*/\1/p' /tmp/irqsoff.txt)
	end=$(sed -n 's/^# *=> ended at: *\([^+ ]*\).*/\1/p' /tmp/irqsoff.txt)
	echo "irqsoff: $lat us, started at $start, ended at $end"
	check irqsoff-start-end "start '$start' / end '$end' are not the delay module's functions" \
		sh -c "[ -n '$start' ] && grep -q ' $start\s' /tmp/mod.syms && grep -q ' $end\s' /tmp/mod.syms"
	check irqsoff-stacktrace "latency trace has no symbolised stack" \
		grep -q '^ => kthread$' /tmp/irqsoff.txt
else
	fail irqsoff-max-latency "modprobe preemptirq_delay_test failed"
fi

# --- irqsoff on a general workload: plausible latency, real endpoints
trace_reset
echo 0 >$T/tracing_max_latency
echo irqsoff >$T/current_tracer
workload
echo 0 >$T/tracing_on
lat=$(cat $T/tracing_max_latency)
cat $T/trace >/tmp/irqsoff-wl.txt
echo nop >$T/current_tracer
start=$(sed -n 's/^# *=> started at: *\([^+ ]*\).*/\1/p' /tmp/irqsoff-wl.txt)
end=$(sed -n 's/^# *=> ended at: *\([^+ ]*\).*/\1/p' /tmp/irqsoff-wl.txt)
echo "irqsoff workload: $lat us, started at $start, ended at $end"
# no section of this workload keeps interrupts off for a whole tick (10 ms)
check irqsoff-workload-latency "tracing_max_latency=$lat, expected 1..9999us" \
	test "$lat" -gt 0 -a "$lat" -lt 10000
check irqsoff-workload-endpoints "'$start'/'$end' are not kernel text" \
	sh -c "grep -q ' [tTwW] $start\$' /proc/kallsyms && grep -q ' [tTwW] $end\$' /proc/kallsyms"

# --- /proc/PID/stack: the current task and a blocked one
check proc-self-stack "no vfs_read in /proc/self/stack" grep -q 'vfs_read' /proc/self/stack
sleep 5 &
pid=$!
sleep 0.2
cat /proc/$pid/stack >/tmp/blocked.txt
kill $pid
# (scheduler functions are left out of /proc/PID/stack by design)
check proc-blocked-stack "sleeping task's stack lacks nanosleep <- sys_*: $(tr '\n' ' ' </tmp/blocked.txt)" \
	sh -c "grep -A3 'hrtimer_nanosleep' /tmp/blocked.txt | grep -q ' sys_'"

# --- static keys: lib/test_static_keys.c, the pair of modules that
# tools/testing/selftests/static_keys loads.  Its init fails when a static
# branch, in the kernel or in a module, does not follow its key.  m68k has
# jump labels on 7.3 (patch 0059); 6.12's keys are plain tests.
if grep -q ' arch_jump_label_transform$' /proc/kallsyms; then
	check static-keys "test_static_keys did not load: $(dmesg | grep -i 'static.key' | tail -3)" \
		sh -c 'modprobe test_static_key_base && modprobe test_static_keys'
	rmmod test_static_keys test_static_key_base 2>/dev/null
else
	skip static-keys "this kernel has no jump labels (6.12: none on m68k)"
fi

# --- the kernel's copies to and from user memory (no tracer involved)
check_usercopy

trace_reset
check_done
