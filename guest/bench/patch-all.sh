#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# How long turning the function tracer on for every call site (and off
# again) takes, and the longest interrupts-off window meanwhile.
# Boot with ftrace_patch_stop_machine to measure the stop_machine path.
#
# The irqsoff tracer runs in the top instance with options/function-trace
# off, so that it registers no ftrace_ops of its own: every call site is
# then really rewritten when the function tracer of instance "patch" is
# switched on and off.  Prints "FIGURE name value unit" lines.
. /harness/lib.sh
# timestamps (us) from trace markers in an instance of their own
C=$T/instances/clock
mark() { echo "$1" >$C/trace_marker; }
elapsed() { # FROM TO: microseconds between two markers
	awk -v a="$1" -v b="$2" '
		$0 ~ ": " a "$" { split($0, f, ":"); n = split(f[1], w, " "); t0 = w[n] }
		$0 ~ ": " b "$" { split($0, f, ":"); n = split(f[1], w, " "); t1 = w[n] }
		END { printf "%d", (t1 - t0) * 1000000 }' $C/trace
}

mkdir $T/instances/patch $C
echo 0 >$T/options/function-trace
echo irqsoff >$T/current_tracer
# the irqs-off baseline: the same length of time without patching
echo 0 >$T/tracing_max_latency
sleep 1
base=$(cat $T/tracing_max_latency)
echo 0 >$T/tracing_max_latency
for i in 1 2 3; do
	mark on$i
	echo function >$T/instances/patch/current_tracer
	mark off$i
	echo nop >$T/instances/patch/current_tracer
	mark done$i
	echo "FIGURE patch-on-us $(elapsed on$i off$i) us"
	echo "FIGURE patch-off-us $(elapsed off$i done$i) us"
done
echo 0 >$T/tracing_on
max=$(cat $T/tracing_max_latency)
echo "FIGURE patch-irqsoff-max-us $max us"
echo "FIGURE idle-irqsoff-max-us $base us"
echo "patch-all: longest irqs-off window from" \
	"$(grep -m1 'started at' $T/trace | sed 's/.*: *//') to" \
	"$(grep -m1 'ended at' $T/trace | sed 's/.*: *//')"
echo nop >$T/current_tracer
echo 1 >$T/options/function-trace
echo 1 >$T/tracing_on
rmdir $T/instances/patch $C
# A window as long as the whole switch means the patcher ran with
# interrupts off; that is a figure to report, not a failure here.
test "$max" -gt 0
