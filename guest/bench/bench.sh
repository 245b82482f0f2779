#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench` in one guest: the workloads of /usr/bin/bench (guest/src/
# bench.c) in every tracing state this kernel offers, each repeated, and
# the boot-time ftrace figures.  Prints "BENCH state workload ns" and
# "FIGURE name value unit" lines for harness/bench.py.
# With "bench.only=calls" on the kernel command line (`make bench-calls`):
# only the getppid() loop, tracing off, function and function_graph, and
# the traced entries per call; and a kprobe and a kretprobe event, and a
# kprobe in a function body, optimized (a jump) and not.
# Where the kernel has uprobe events: a uprobe and a uretprobe event on a
# user function (`bench ucall`, one hit per call).
# With "bench.only=tracepoints" (the notp, tp and tpnojl kernels): only
# fork+exec+pipe with every tracepoint off, and where the kernel has trace
# events, the tracepoint sites a round passes.
. /harness/lib.sh
REPS=5
NSYSCALL=200000
NSPAWN=20
NSPAWN_TP=4000
NUCALL=20000
only=
for _a in $(cat /proc/cmdline); do
	case $_a in bench.only=*) only=${_a#bench.only=} ;; esac
done
workloads="syscall spawn"
[ "$only" = calls ] && workloads=syscall

iterations() { # WORKLOAD: its N
	case $1 in
	spawn) echo $NSPAWN ;;
	ucall) echo $NUCALL ;;
	*) echo $NSYSCALL ;;
	esac
}

run() { # STATE: all workloads, REPS times each (its own variables start with _r)
	_r=0
	while [ $_r -lt $REPS ]; do
		for _r_w in $workloads; do
			_r_n=$(iterations "$_r_w")
			_r_out=$(bench "$_r_w" "$_r_n") || { echo "bench: '$_r_w' failed in state $1"; exit 1; }
			echo "$_r_out" | sed "s/^BENCH /BENCH $1 /"
		done
		_r=$((_r + 1))
	done
}

# Events the current tracer records while `bench WORKLOAD N` runs (the
# ring buffer's own count: the whole process, exec and exit included).
entries() { # WORKLOAD N
	echo >$T/trace
	bench "$1" "$2" >/dev/null || exit 1
	_st=$(cat $T/per_cpu/cpu0/stats)
	if ! echo "$_st" | grep -q '^overrun: 0$'; then
		echo "bench: the ring buffer overran while counting entries"
		exit 1
	fi
	echo "$_st" | sed -n 's/^entries: //p'
}

# What off tracepoints cost: fork+exec+pipe on kernels without
# tracepoints, with them and with them but no jump labels.  A round's
# instructions vary by thousands (where the timer ticks fall decides who
# runs first after fork, and periodic work falls in some runs only): with
# NSPAWN_TP rounds a run (about a second of guest time each) the median
# of the runs moves by some tens of instructions a round.  Then the
# tracepoint sites a round passes, counted by guest/modules/tp_count (a
# probe on every tracepoint, events or not, but the raw system call
# ones): one round against eleven, three times (bench.py takes the
# median: the count varies with the scheduling too).
if [ "$only" = tracepoints ]; then
	workloads=spawn
	NSPAWN=$NSPAWN_TP
	[ -d $T/events ] && trace_reset
	# 200 rounds first, not counted: the first rounds fill caches
	bench spawn 200 >/dev/null || { echo "bench: 'spawn' failed"; exit 1; }
	run off
	[ -d $T/events ] || exit 0
	modprobe tp_count || { echo "bench: cannot load tp_count"; exit 1; }
	_p=/sys/module/tp_count/parameters
	for _r in 1 2 3; do
		_e0=$(cat $_p/hits)
		bench spawn 1 >/dev/null || exit 1
		_e1=$(cat $_p/hits)
		bench spawn 11 >/dev/null || exit 1
		_e2=$(cat $_p/hits)
		echo "FIGURE tracepoints-10-spawns $((_e2 - _e1 - (_e1 - _e0))) passes"
	done
	sed 's/^/bench: tracepoint passes: /' $_p/top
	rmmod tp_count
	exit 0
fi

trace_reset
run off
# the base of the uprobe figures: the same user calls, nothing probed
_w=$workloads
workloads=ucall
run off
workloads=$_w
grep -qw function $T/available_tracers || exit 0

echo function >$T/current_tracer
run function
# Traced entries per getppid(): the difference between two loop lengths,
# so exec and exit cancel out; bench.py rounds it (a timer tick during
# one of the runs adds its own entries).
_kb=$(cat $T/buffer_size_kb)
echo 8192 >$T/buffer_size_kb
_e1=$(entries syscall 10000) && _e2=$(entries syscall 20000) || { echo "$_e1$_e2"; exit 1; }
echo "FIGURE entries-10000-calls $((_e2 - _e1)) entries"
# the same for two fork+exec+pipe rounds (tens of thousands of entries each)
if [ "$only" != calls ]; then
	echo 32768 >$T/buffer_size_kb
	_e1=$(entries spawn 1) && _e2=$(entries spawn 3) || { echo "$_e1$_e2"; exit 1; }
	echo "FIGURE entries-2-spawns $((_e2 - _e1)) entries"
fi
echo "$_kb" >$T/buffer_size_kb
# A second ftrace_ops on a function the loop never calls: a kprobe event
# at do_sys_openat2's entry (through ftrace where kprobes use it there:
# the pfe kernel, x86_64) beside the function tracer on all functions;
# then the function tracer of an instance alone, whose ftrace_ops is
# allocated.  Without call ops (or per-ops trampolines) both send every
# traced function through the list function.
if [ -w $T/kprobe_events ]; then
	if ! echo 'p:bench/second do_sys_openat2' >$T/kprobe_events ||
	   ! echo 1 >$T/events/bench/second/enable; then
		echo "bench: cannot enable a kprobe event on do_sys_openat2"
		exit 1
	fi
	run function+kprobe
	echo 0 >$T/events/bench/second/enable
	echo >$T/kprobe_events
fi
echo nop >$T/current_tracer
mkdir $T/instances/bench || exit 1
echo function >$T/instances/bench/current_tracer
run function-instance
echo nop >$T/instances/bench/current_tracer
rmdir $T/instances/bench
echo function_graph >$T/current_tracer
run function_graph
echo nop >$T/current_tracer
# pstore's function recorder (PSTORE_FTRACE) on all functions: each
# traced call written to the persistent RAM of the ramoops region that
# the harness gives a kernel with the recorder.  Such a kernel without
# its recorder file would leave the row out: that fails the run.
_pf=/sys/kernel/debug/pstore/record_ftrace
if grep -qw ramoops.mem_name=oops /proc/cmdline; then
	if ! [ -w $_pf ] || ! echo 1 >$_pf || [ "$(cat $_pf)" != 1 ]; then
		echo "bench: cannot switch pstore's function recorder on ($_pf)"
		exit 1
	fi
	run pstore-ftrace
	echo 0 >$_pf
fi

# probe_pair KIND WORKLOAD TARGET: a KIND (kprobe, uprobe) event on TARGET,
# then its return probe (kretprobe, uretprobe), each as a state of its own
# name; TARGET is hit once per iteration of WORKLOAD, the only one run.
# A probe that did not go in, or was hit less than once per iteration,
# fails the run: its figure would measure nothing.
probe_pair() {
	_pp_w=$workloads
	workloads=$2
	# the hits column of KIND_profile (uprobes name the file first)
	_pp_col=2
	[ $1 = uprobe ] && _pp_col=3
	for _pp_e in $1 ${1%probe}retprobe; do
		_pp_t=p
		[ $_pp_e = $1 ] || _pp_t=r
		if ! echo "$_pp_t:bench/$_pp_e $3" >$T/$1_events ||
		   ! echo 1 >$T/events/bench/$_pp_e/enable; then
			echo "bench: cannot enable a $_pp_e event on $3"
			exit 1
		fi
		run $_pp_e
		echo 0 >$T/events/bench/$_pp_e/enable
		_pp_h=$(awk -v c=$_pp_col '{ s += $c } END { print s + 0 }' $T/$1_profile)
		if [ "$_pp_h" -lt $((REPS * $(iterations $2))) ]; then
			echo "bench: $_pp_e on $3 hit $_pp_h times in $REPS x $(iterations $2) iterations"
			exit 1
		fi
		echo >$T/$1_events
	done
	workloads=$_pp_w
}

# on getppid()'s system call function (sys_getppid; on x86_64, the
# anchor, __x64_sys_getppid), in the getppid() loop
if [ -w $T/kprobe_events ]; then
	_sym=$(awk '$3 == "sys_getppid" || $3 == "__x64_sys_getppid" { print $3; exit }' /proc/kallsyms)
	[ -n "$_sym" ] || { echo "bench: no getppid() system call function in /proc/kallsyms"; exit 1; }
	probe_pair kprobe syscall "$_sym"
fi
# A kprobe inside a function body, as a jump and as a breakpoint: the
# first offset of __task_pid_nr_ns (once per getppid()) that the
# optimizer turns into a jump (OPTPROBES), hit as such (optprobe) and
# with optimization switched off (kprobe-body).
OPT=/proc/sys/debug/kprobes-optimization
# run STATE with the enabled bench/optprobe event, which must be hit
# once per getppid()
body_run() {
	_br_w=$workloads
	workloads=syscall
	echo >$T/trace
	_br_0=$(awk '$1 == "optprobe" { print $2 }' $T/kprobe_profile)
	run $1
	_br_h=$(( $(awk '$1 == "optprobe" { print $2 }' $T/kprobe_profile) - _br_0 ))
	if [ "$_br_h" -lt $((REPS * NSYSCALL)) ]; then
		echo "bench: $1 on __task_pid_nr_ns+$2 hit $_br_h times in $REPS x $NSYSCALL calls"
		exit 1
	fi
	workloads=$_br_w
}
if [ -w $T/kprobe_events ] && [ -w $OPT ]; then
	_bo=$(find_optimized bench/optprobe __task_pid_nr_ns) ||
		{ echo "bench: no offset of __task_pid_nr_ns up to +64 was optimized"; exit 1; }
	echo "bench: __task_pid_nr_ns+$_bo optimized"
	body_run optprobe $_bo
	echo 0 >$OPT
	wait_optimized __task_pid_nr_ns $_bo no ||
		{ echo "bench: __task_pid_nr_ns+$_bo still optimized with $OPT 0"; exit 1; }
	body_run kprobe-body $_bo
	echo 1 >$OPT
	echo 0 >$T/events/bench/optprobe/enable
	echo >$T/kprobe_events
fi
# on probe_point() in bench itself, in the user-call loop
if [ -w $T/uprobe_events ]; then
	_off=$(bench ucall-offset) || { echo "bench: no offset for probe_point()"; exit 1; }
	probe_pair uprobe ucall /usr/bin/bench:$_off
fi
[ "$only" = calls ] && { trace_reset; exit 0; }

if [ -w $T/set_ftrace_filter ]; then
	echo sys_getppid >$T/set_ftrace_filter
	echo function >$T/current_tracer
	run function-one
	echo nop >$T/current_tracer
	echo >$T/set_ftrace_filter
	# "N pages:P groups: G" - the call-site records (4 KiB pages)
	read -r sites pages _ <$T/dyn_ftrace_total_info
	pages=${pages#pages:}
	echo "FIGURE record-sites $sites sites"
	echo "FIGURE record-pages $pages pages"
	sh /harness/bench/patch-all.sh || exit 1
fi
trace_reset
