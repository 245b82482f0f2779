#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The trace clock: sched_clock() must step by microseconds, not jiffies
# (every function_graph duration and latency figure depends on it), and
# must keep counting across the wrap of whatever counter it extends (the
# Macintosh's 16-bit VIA timer 2 wraps every 84 ms).
. /harness/lib.sh

check trace-clock-local "trace_clock is not [local]: $(cat $T/trace_clock)" \
	grep -q '\[local\]' $T/trace_clock

# --- function_graph durations: many short calls, timed to the microsecond
trace_reset
echo ksys_read >$T/set_graph_function
echo function_graph >$T/current_tracer
for _i in 1 2 3 4 5 6 7 8; do dd if=/proc/self/status of=/dev/null bs=64 2>/dev/null; done
# (a change of tracer would empty the buffer)
echo 0 >$T/tracing_on
# the durations of calls that return, timed by the trace clock
# shellcheck disable=SC2046
set -- $(graph_durations $T/trace)
n=$1 distinct=$2 min=$3 step=$4
check graph-durations "only $n function_graph durations" test "$n" -ge 50
check graph-durations-distinct "only $distinct distinct durations in $n" test "$distinct" -ge 10
# (a jiffies clock's shortest nonzero duration is 10000 us)
check graph-durations-short "the shortest nonzero duration is $min us" \
	awk -v m="$min" 'BEGIN { exit !(m != "none" && m < 1000) }'
check graph-durations-step "the smallest step between durations is $step us" \
	awk -v s="$step" 'BEGIN { exit !(s != "none" && s <= 2) }'

# --- across counter wraps: a 300 ms sleep measured by the trace clock,
# between two trace_marker writes, and every time stamp in order
trace_reset
echo 1 >$T/events/sched/sched_switch/enable
echo clock-start >$T/trace_marker
sleep 0.3
echo clock-end >$T/trace_marker
echo 0 >$T/events/sched/sched_switch/enable
# time stamps ("  123.456789: ") in the order the buffer holds them
sed -n 's/^.* \([0-9][0-9]*\.[0-9]\{6\}\): .*$/\1/p' $T/trace >/tmp/ts.txt
n=$(grep -c . /tmp/ts.txt)
bad=$(awk 'NR > 1 && $1 < p { n++ } { p = $1 } END { print n + 0 }' /tmp/ts.txt)
check clock-monotonic "$bad of $n time stamps go backwards" test "$n" -ge 3 -a "$bad" -eq 0
t0=$(sed -n 's/^.* \([0-9][0-9]*\.[0-9]\{6\}\): .*clock-start$/\1/p' $T/trace)
t1=$(sed -n 's/^.* \([0-9][0-9]*\.[0-9]\{6\}\): .*clock-end$/\1/p' $T/trace)
d=$(awk -v a="${t0:-0}" -v b="${t1:-0}" 'BEGIN { printf "%.6f", b - a }')
check clock-sleep "sleep 0.3 took ${d} s by the trace clock" \
	awk -v d="$d" 'BEGIN { exit !(d >= 0.3 && d < 0.4) }'
trace_reset
check_done
