#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Function and function-graph tracer checks (work with or without
# dynamic ftrace: nothing here needs set_ftrace_filter).
. /harness/lib.sh

for t in function function_graph; do
	grep -qw $t $T/available_tracers
	check tracer-$t "not in available_tracers: $(cat $T/available_tracers)" test $? -eq 0
done
echo 8192 >$T/buffer_size_kb

# Run "$@" with the current tracer recording only while it runs.
traced() {
	echo >$T/trace
	echo 1 >$T/tracing_on
	"$@"
	echo 0 >$T/tracing_on
}

# --- function: callee <-caller pairs that the source says must be there
trace_reset
echo 0 >$T/tracing_on
echo function >$T/current_tracer
# (the sleep makes sure a timer interrupt falls inside the window: under
# -icount the loop alone takes about one tick of guest time)
traced sh -c 'while read -r l; do :; done </proc/version; sleep 0.03'
cp $T/trace /tmp/fn.txt
echo nop >$T/current_tracer
n=$(grep -c ' <-' /tmp/fn.txt)
echo "function: $n entries for a shell reading /proc/version"
check function-entries "only $n entries" test "$n" -gt 500
# read(2): sys_read -> ksys_read -> vfs_read (fs/read_write.c), either
# directly or with ksys_read inlined into sys_read
check function-pair-vfs_read "no 'vfs_read <-ksys_read|sys_read'" \
	grep -qE ' vfs_read <-(ksys_read|sys_read)$' /tmp/fn.txt
# execve: do_execveat_common -> bprm_execve (fs/exec.c)
check function-pair-bprm_execve "no 'bprm_execve <-do_execveat_common'" \
	grep -qE ' bprm_execve <-do_execveat_common(\.[a-z0-9.]+)?$' /tmp/fn.txt
# every timer interrupt: do_IRQ is called from the entry code
check function-pair-do_IRQ "no 'do_IRQ <-auto_inthandler|user_inthandler' in: $(grep -m3 ' do_IRQ <-' /tmp/fn.txt)" \
	grep -qE ' do_IRQ <-(auto_inthandler|auto_irqhandler_fixup|user_inthandler|user_irqvec_fixup)$' /tmp/fn.txt
# no callee or caller may be an unresolved address
bad=$(grep ' <-' /tmp/fn.txt | grep -cE ': 0x[0-9a-f]+ <-|<-0x[0-9a-f]+$')
check function-symbols "$bad entries with raw addresses" test "$bad" -eq 0

# --- function_graph: balanced nesting, durations, the syscall encloses its work
trace_reset
echo 0 >$T/tracing_on
echo 1 >$T/options/funcgraph-proc
# a full buffer keeps its beginning: dropping the oldest pages would
# leave closing lines without their openings (the Macintosh's slower
# guest fills the 8 MB with timer ticks)
echo 0 >$T/options/overwrite
echo function_graph >$T/current_tracer
traced sh -c 'while read -r l; do :; done </proc/version'
cp $T/trace /tmp/fg.txt
echo nop >$T/current_tracer
echo 1 >$T/options/overwrite
echo 0 >$T/options/funcgraph-proc
lost=$(sed -n 's/.*entries-in-buffer\/entries-written: \([0-9]*\)\/\([0-9]*\).*/\1 \2/p' /tmp/fg.txt)
head -40 /tmp/fg.txt
# per task: depth never below 0, every "}" and leaf line has a duration
awk -v lost="$lost" '
	/^ *[0-9]+\)/ && /\|/ {
		n = split($0, a, "|"); body = a[n]; dur = a[n - 1]
		match($0, /[^ ]+-[0-9]+ +\|/); task = substr($0, RSTART, RLENGTH)
		if (body ~ /\{ *$/) { depth[task]++; opens++ }
		else if (body ~ /^ *\}/) {
			closes++
			if (--depth[task] < 0) { neg++; depth[task] = 0 }
			if (dur !~ /[0-9.]+ us/) nodur++
		} else if (body ~ /\(\);/) { leaves++; if (dur !~ /[0-9.]+ us/) nodur++ }
	}
	END {
		printf "graph: %d opens, %d closes, %d leaves, %d unbalanced, %d without duration\n",
			opens, closes, leaves, neg, nodur
		exit !(opens > 100 && closes > 100 && neg == 0 && nodur == 0)
	}' /tmp/fg.txt
check graph-balanced "unbalanced nesting or a closing line without a duration" test $? -eq 0
# the read(2) handler encloses vfs_read
awk '
	/\|/ { n = split($0, a, "|"); body = a[n] }
	body ~ /^ *sys_read\(\) \{/ { match(body, /^ */); d = RLENGTH; inside = 1; next }
	inside && body ~ /^ *\}/ { match(body, /^ */); if (RLENGTH == d) inside = 0; next }
	inside && body ~ /vfs_read\(\)/ { found = 1 }
	END { exit !found }' /tmp/fg.txt
check graph-nesting-sys_read "no vfs_read() inside a sys_read() { ... } block" test $? -eq 0

# --- funcgraph options change the output the way they say
graph_with() { # option
	trace_reset
	echo 0 >$T/tracing_on
	echo 1 >$T/options/$1
	echo function_graph >$T/current_tracer
	traced ls / >/dev/null
	grep -v '^#' $T/trace | head -300 >/tmp/opt.txt
	echo nop >$T/current_tracer
	echo 0 >$T/options/$1
}
graph_with funcgraph-tail
check funcgraph-tail "no '} /* func */' lines" grep -qE '\} /\* [a-z_0-9.]+ \*/' /tmp/opt.txt
graph_with funcgraph-abstime
check funcgraph-abstime "no absolute timestamps" grep -qE '^ *[0-9]+\.[0-9]{6} \|' /tmp/opt.txt
graph_with funcgraph-proc
check funcgraph-proc "no task-pid column" grep -qE '(ls|sh)-[0-9]+ +\|' /tmp/opt.txt
trace_reset
echo 0 >$T/options/funcgraph-duration
echo function_graph >$T/current_tracer
traced ls / >/dev/null
grep -v '^#' $T/trace | head -300 >/tmp/opt.txt
echo nop >$T/current_tracer
echo 1 >$T/options/funcgraph-duration
check funcgraph-noduration "no graph lines, or durations still shown" \
	sh -c "grep -qE '[a-z_0-9.]+\(\) *[{;]' /tmp/opt.txt && ! grep -q ' us ' /tmp/opt.txt"

# --- stack traces taken inside a graph-traced function name real callers
trace_reset
echo 1 >$T/options/stacktrace
echo 1 >$T/events/sched/sched_switch/enable
echo function_graph >$T/current_tracer
sleep 0.05
echo nop >$T/current_tracer
echo 0 >$T/events/sched/sched_switch/enable
echo 0 >$T/options/stacktrace
grep -A8 '<stack trace>' $T/trace >/tmp/gst.txt
check graph-stacktrace-no-trampoline "return_to_handler in a stack trace" \
	sh -c "grep -q '=> schedule' /tmp/gst.txt && ! grep -q return_to_handler /tmp/gst.txt"

# --- switching tracers leaves the system healthy
rounds=$(switch_tracers 5)
check switch-5 "only $rounds of 5 rounds switched function, function_graph, nop" test "$rounds" -eq 5
check healthy-after-switching "unhealthy after tracer switches" healthy

trace_reset
check_done
