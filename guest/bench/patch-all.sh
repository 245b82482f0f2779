#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# How long turning the function tracer on for every call site (and off
# again) takes, and the longest interrupts-off window meanwhile (irqsoff
# tracer in the top instance, function tracer in an instance).
# Boot with ftrace_patch_stop_machine to measure the stop_machine path.
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
echo 0 >$T/tracing_max_latency
echo irqsoff >$T/current_tracer
for i in 1 2 3; do
	mark on$i
	echo function >$T/instances/patch/current_tracer
	mark off$i
	echo nop >$T/instances/patch/current_tracer
	mark done$i
	echo "patch-all: on $(elapsed on$i off$i) us, off $(elapsed off$i done$i) us"
done
echo 0 >$T/tracing_on
echo "patch-all: sites $(wc -l <$T/available_filter_functions), max irqs-off $(cat $T/tracing_max_latency) us" \
	"($(grep -m1 'started at' $T/trace | sed 's/.*: *//') .. $(grep -m1 'ended at' $T/trace | sed 's/.*: *//'))"
echo nop >$T/current_tracer
rmdir $T/instances/patch $C
