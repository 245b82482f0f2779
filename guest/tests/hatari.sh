#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The tracers on a 68060 or a 68030 (the Atari kernels on Hatari's Falcon,
# instruction cache emulated): each tracer on a filter, the function
# tracer and function_graph on every function (the emulated CPU counts a
# 128th of its tables' cycles: harness/qemu-run.sh), kprobes, and the
# text they write run at once.  (The KUnit suites of the boot,
# m68k_text_patching and m68k_jump_label among them, write a site and run
# it at once: those are the checks that see a missing instruction cache
# flush.)
. /harness/lib.sh

# --- the CPU the kernel found is the one the kernel was built for
cpu=$(sed -n 's/^CPU:[[:space:]]*//p' /proc/cpuinfo)
mmu=$(sed -n 's/^MMU:[[:space:]]*//p' /proc/cpuinfo)
want=$(param hatari.cpu unknown)
check cpu "cpuinfo says CPU '$cpu' MMU '$mmu', expected $want" \
	test "$cpu" = "$want" -a "$mmu" = "$want"
# --- the kernel's copies to and from user memory, faulting half way
check_usercopy
# --- a debugger's single step over a branch into an unmapped page: the
# trace comes at the target, the fault after it (kprobes steps branches
# the same way); and over stores whose writes fault: the trace comes
# after the store, once its write was rerun (Hatari patch 0009 on the 030)
check step-branch "single steps of branches and faulting stores: step-branch's lines above" step-branch

before=$(workload_digest)

# --- the function tracer on a filter
trace_reset
echo 'vfs_read ksys_read' >$T/set_ftrace_filter
echo function >$T/current_tracer
workload
echo 0 >$T/tracing_on
n=$(grep -c ' vfs_read <-ksys_read' $T/trace)
other=$(grep -v '^#' $T/trace | grep -v ' \(vfs_read\|ksys_read\) <-' | head -n 3)
check function-filter "vfs_read <-ksys_read $n times" test "$n" -gt 10
check function-filter-only "functions outside the filter: $other" test -z "$other"
echo nop >$T/current_tracer

# --- function_graph on a filter (set_graph_function alone would still
# hook every function): ksys_read, vfs_read, rw_verify_area nested (a
# glob: -Os makes it rw_verify_area.constprop.0 there)
trace_reset
echo 'ksys_read vfs_read rw_verify_area*' >$T/set_ftrace_filter
echo function_graph >$T/current_tracer
workload
echo 0 >$T/tracing_on
cat $T/trace >/tmp/graph.txt
echo nop >$T/current_tracer
n=$(grep -c '^ *[0-9]).*|   *vfs_read() {' /tmp/graph.txt)
check graph-nested "ksys_read() { vfs_read() { $n times" test "$n" -gt 10
n=$(grep -c '^ *[0-9]).*|     *rw_verify_area[.a-z0-9]*();' /tmp/graph.txt)
check graph-leaf "rw_verify_area(); nested $n times" test "$n" -gt 10
# the trace clock: the Atari's sched_clock() counts timer C's 24.576 kHz
# clock (40.7 us), not jiffies (10 ms)
# shellcheck disable=SC2046
set -- $(graph_durations /tmp/graph.txt)
n=$1 distinct=$2 min=$3 step=$4
check graph-durations-distinct "only $distinct distinct durations in $n" test "$distinct" -ge 3
check graph-durations-short "the shortest nonzero duration is $min us" \
	awk -v m="$min" 'BEGIN { exit !(m != "none" && m < 1000) }'
check graph-durations-step "the smallest step between durations is $step us" \
	awk -v s="$step" 'BEGIN { exit !(s != "none" && s <= 41) }'
# its rate: a 3 s sleep timed by the trace clock and by /proc/uptime
# (the clocksource, 10 ms steps), read by shell builtins between the
# markers; what the trace clock counts on top is the marker writes and
# the reads, ~80 ms on this CPU
trace_reset
echo clock-start >$T/trace_marker
read -r u0 _ </proc/uptime
sleep 3
read -r u1 _ </proc/uptime
echo clock-end >$T/trace_marker
t0=$(sed -n 's/^.* \([0-9][0-9]*\.[0-9]\{6\}\): .*clock-start$/\1/p' $T/trace)
t1=$(sed -n 's/^.* \([0-9][0-9]*\.[0-9]\{6\}\): .*clock-end$/\1/p' $T/trace)
d=$(awk -v a="${t0:-0}" -v b="${t1:-0}" 'BEGIN { printf "%.6f", b - a }')
du=$(awk -v a="$u0" -v b="$u1" 'BEGIN { printf "%.2f", b - a }')
check clock-rate "sleep 3: ${d} s by the trace clock, ${du} s by /proc/uptime" \
	awk -v d="$d" -v u="$du" 'BEGIN { exit !(u >= 3 && d >= u - 0.011 && d <= u + 0.15) }'

# the clock across the end of a timer period that the interrupt handler has
# not counted yet, timed by the irqsoff tracer (its function-trace option
# off, so that it times the sections alone).  (1) the CPU idle until the
# timer interrupt: no time of the idle loop may show inside the interrupt
# (2 s of sleep).  (2) interrupts off across it: preemptirq_delay_test
# busy-waits 8 ms by this clock with interrupts off (a clock that stops
# there hangs the machine: the marker line shows where)
trace_reset
echo 0 >$T/options/function-trace
echo 0 >$T/tracing_max_latency
echo irqsoff >$T/current_tracer
sleep 2
lat=$(cat $T/tracing_max_latency)
check clock-idle "the longest irqs-off section in 2 s of sleep is $lat us" \
	test "$lat" -lt 5000
# irqs_off_delay NAME MS: preemptirq_delay_test busy-waits MS ms with
# interrupts off; the irqsoff tracer must time it at MS..MS+1 ms
irqs_off_delay() {
	echo 0 >$T/tracing_max_latency
	echo "clock: preemptirq_delay_test, $2 ms with interrupts off"
	if modprobe preemptirq_delay_test test_mode=irq delay=$(($2 * 1000)) burst_size=1; then
		lat=$(cat $T/tracing_max_latency)
		rmmod preemptirq_delay_test
		check "$1" "tracing_max_latency=$lat, expected $(($2 * 1000))..$(($2 * 1000 + 1000)) us" \
			test "$lat" -ge $(($2 * 1000)) -a "$lat" -le $(($2 * 1000 + 1000))
	else
		fail "$1" "modprobe preemptirq_delay_test failed"
	fi
}
irqs_off_delay clock-irqs-off 8
# (3) interrupts off across several periods (25 ms: two ends of a period
# while the first is still pending; a clock that stood still there hung
# the machine, as the hwlat tracer did)
irqs_off_delay clock-irqs-off-periods 25
echo nop >$T/current_tracer
echo 1 >$T/options/function-trace
# (4) the hwlat tracer: half a second of every second with interrupts off,
# reading this clock until the half second has passed; its samples (two
# readings a clock step apart count as a latency above tracing_thresh)
# show that its sampling loop ended
trace_reset
echo "clock: the hwlat tracer, 3 s"
echo hwlat >$T/current_tracer
sleep 3
echo 0 >$T/tracing_on
n=$(grep -c 'inner/outer(us):' $T/trace)
echo nop >$T/current_tracer
check clock-hwlat "$n hwlat samples in 3 s" test "$n" -ge 1

# --- every function: the function tracer, then function_graph (each
# timer tick traced whole, which at the emulator's own speed took longer
# than the tick); distinct functions seen during a short workload (an
# exec, a directory read, read(2)s: each call costs ~20 times as much
# with every function traced).  ~6 minutes of host time on the 060, more
# on the 030: hatari.all=0 (hatari030 in make check) leaves them out.
all=$(param hatari.all 1)
all_workload() {
	ls /proc >/dev/null
	dd if=/proc/version of=/dev/null 2>/dev/null
}
# trace_all TRACER FILE: the workload under TRACER on every function, its
# trace left in FILE, read with every call site a no-op again
# (ftrace_enabled=0 keeps the buffer, which a change of tracer clears):
# formatting the trace with every function still calling the tracer took
# minutes
trace_all() {
	trace_reset
	echo "$1" >$T/current_tracer
	all_workload
	echo 0 >$T/tracing_on
	echo 0 >/proc/sys/kernel/ftrace_enabled
	cat $T/trace >"$2"
	echo nop >$T/current_tracer
	echo 1 >/proc/sys/kernel/ftrace_enabled
}
if [ "$all" = 1 ]; then
	trace_all function /tmp/function-all.txt
	n=$(sed -n 's/^.*: \([^ ]*\) <-.*$/\1/p' /tmp/function-all.txt | sort -u | wc -l)
	check function-all "$n distinct functions traced" test "$n" -gt 500
	trace_all function_graph /tmp/graph-all.txt
	n=$(sed -n 's/^.*|  *\([A-Za-z_][A-Za-z0-9_.]*\)() {$/\1/p' /tmp/graph-all.txt | sort -u | wc -l)
	check graph-all "$n distinct functions graphed with children" test "$n" -gt 200
	n=$(grep -c '^ *[0-9]).*|   *vfs_read() {' /tmp/graph-all.txt)
	check graph-all-nested "ksys_read() { vfs_read() { $n times" test "$n" -ge 1
	# shellcheck disable=SC2046
	set -- $(graph_durations /tmp/graph-all.txt)
	check graph-all-durations "only $2 distinct durations in $1" test "$2" -ge 10
fi

# --- kprobe and kretprobe events (breakpoints written and removed)
trace_reset
echo 'p:hk vfs_read' >$T/kprobe_events &&
	echo 'r:hr vfs_read ret=$retval' >>$T/kprobe_events
check probe-define "kprobe_events refused: $(last_error)" test -d $T/events/kprobes/hk
echo 1 >$T/events/kprobes/enable
workload
echo 0 >$T/events/kprobes/enable
hk=$(event_hits hk '')
hr=$(event_hits hr 'ret=')
check kprobe-hits "hk hit $hk times" test "$hk" -gt 10
check kretprobe-hits "hr hit $hr times (hk $hk)" test "$hr" -gt 10
echo >$T/kprobe_events

# --- switching: a filtered tracer on and off, a kprobe armed and
# disarmed, 20 rounds each, each followed by a call of the site (dd:
# busybox cat copies with sendfile, which does not call vfs_read)
trace_reset
echo vfs_read >$T/set_ftrace_filter
ok=0 i=0
while [ $i -lt 20 ]; do
	echo function >$T/current_tracer && dd if=/proc/version of=/dev/null 2>/dev/null &&
		echo nop >$T/current_tracer && dd if=/proc/version of=/dev/null 2>/dev/null && ok=$((ok + 1))
	i=$((i + 1))
done
check function-rounds "$ok of 20 rounds" test $ok -eq 20
echo 'p:hs vfs_read' >$T/kprobe_events
echo >$T/trace
ok=0 i=0
while [ $i -lt 20 ]; do
	echo 1 >$T/events/kprobes/hs/enable && dd if=/proc/version of=/dev/null 2>/dev/null &&
		echo 0 >$T/events/kprobes/hs/enable && dd if=/proc/version of=/dev/null 2>/dev/null && ok=$((ok + 1))
	i=$((i + 1))
done
check kprobe-rounds "$ok of 20 rounds" test $ok -eq 20
n=$(event_hits hs '')
check kprobe-rounds-hits "hs hit $n times in 20 armed rounds" test "$n" -ge 20
echo >$T/kprobe_events
trace_reset
after=$(workload_digest)
check digest "the workload printed otherwise after the rounds" test "$before" = "$after"

# --- static keys: lib/test_static_keys.c (kernel and module keys)
check static-keys "test_static_keys did not load: $(dmesg | grep -i 'static.key' | tail -3)" \
	sh -c 'modprobe test_static_key_base && modprobe test_static_keys'
rmmod test_static_keys test_static_key_base 2>/dev/null

trace_reset
check_done
