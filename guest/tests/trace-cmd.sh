#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# trace-cmd (harness/build-trace-cmd.sh, /usr/bin/trace-cmd) on m68k: list,
# record, report, start/stop/extract/show/reset, stat, stack, and a
# recording sent over the network.
#
# Every recording NAME.dat is sent to the host with the guest's own report
# of it (send_file NAME.dat, NAME.report): harness/trace-cmd-host.sh checks
# that the host's trace-cmd reports the same events from the same file.
#
# The network case needs `trace-cmd listen` on the host: harness/check.sh
# passes its port as tc.listen=PORT on the kernel command line (QEMU user
# networking maps the host's loopback to 10.0.2.2).
. /harness/lib.sh

D=/tmp/tc
mkdir -p $D
TC=trace-cmd

# report NAME: the guest's report of NAME.dat, kept as NAME.report
report() {
	$TC report -i $D/$1.dat >$D/$1.report 2>$D/$1.report-err
}

# keep NAME: send NAME.dat and the guest's NAME.report to the host
keep() {
	send_file "$1.dat" $D/$1.dat
	send_file "$1.report" $D/$1.report
}

# wait_for SECONDS COMMAND...: until COMMAND succeeds, at most SECONDS
wait_for() {
	_t=$(($1 * 10))
	shift
	while ! "$@"; do
		_t=$((_t - 1))
		[ $_t -gt 0 ] || { echo "wait_for: gave up on: $*"; return 1; }
		sleep 0.1
	done
}

# tcp_drained: every TCP connection is over: in TIME_WAIT or CLOSE (states
# 06, 07 of /proc/net/tcp), so the peer has acknowledged all we sent and
# closed its end.  Listening sockets (no remote address) do not count.
tcp_drained() {
	awk 'NR > 1 && $3 != "00000000:0000" && $4 != "06" && $4 != "07" { busy = 1 }
	     END { exit busy }' /proc/net/tcp
}

# events_of NAME: the event lines of NAME.report (no header, no stack lines)
events_of() {
	grep -E '^ *[^ ].*\[[0-9]+\] +[0-9]+\.[0-9]+: ' $D/$1.report
}

command -v $TC >/dev/null || { fail tc:installed "no trace-cmd in the guest"; check_done; exit; }
pass tc:installed
trace_reset

# ---- list
$TC list -t >$D/tracers
check tc:list-tracers "function/function_graph missing from 'list -t'" \
	sh -c "grep -qw function $D/tracers && grep -qw function_graph $D/tracers"
$TC list -e >$D/events
want=$(wc -l <$T/available_events)
got=$(grep -c . $D/events)
check tc:list-events "'list -e' gave $got events, available_events has $want" \
	sh -c "[ $got -eq $want ] && grep -qx sched:sched_switch $D/events"
# (the argument is a regular expression)
$TC list -f '^vfs_rea' >$D/funcs
check tc:list-functions "'list -f ^vfs_rea' lacks vfs_read or lists other names" \
	sh -c "grep -qx vfs_read $D/funcs && ! grep -v '^vfs_rea' $D/funcs | grep -q ."

# ---- record and report
# events with a filter: no sched_switch to the idle task (pid 0) survives
$TC record -q -o $D/switch.dat -e sched:sched_switch -f 'next_pid != 0' \
	sleep 0.05 >/dev/null 2>&1
report switch
n=$(events_of switch | grep -c 'sched_switch:')
idle=$(events_of switch | grep -c 'next_pid=0 ')
check tc:record-event-filter "$n sched_switch events, $idle to pid 0" \
	sh -c "[ $n -gt 0 ] && [ $idle -eq 0 ]"
keep switch

# -p function -l: only the one function (one read(2) of a known file: dd,
# not cat, which uses sendfile(2))
$TC record -q -o $D/function.dat -p function -l vfs_read \
	dd if=/proc/version of=/dev/null bs=4096 count=1 >/dev/null 2>&1
report function
n=$(events_of function | grep -c 'function: *vfs_read')
other=$(events_of function | grep -vc 'function: *vfs_read')
check tc:record-function-l "$n vfs_read events, $other others" \
	sh -c "[ $n -gt 0 ] && [ $other -eq 0 ]"
keep function

# -p function_graph -g: the graph of ksys_read, with durations
$TC record -q -o $D/graph.dat -p function_graph -g ksys_read \
	dd if=/proc/version of=/dev/null bs=4096 count=1 >/dev/null 2>&1
if report graph; then
	pass tc:report-graph-runs
else
	fail tc:report-graph-runs "trace-cmd report exited $?: $(tail -n 2 $D/graph.report-err)"
fi
check tc:record-graph "no 'ksys_read() {' with a nested vfs_read in the report" \
	sh -c "grep -q 'ksys_read() {' $D/graph.report && grep -q 'vfs_read' $D/graph.report"
check tc:report-graph-durations "no closing brace with a duration in us" \
	grep -qE '[0-9]+\.[0-9]+ us +\| +\}' $D/graph.report
keep graph

# -F: only the command's own events
$TC record -q -o $D/only.dat -e raw_syscalls:sys_enter -F bench syscall 50 >/dev/null 2>&1
report only
n=$(events_of only | grep -c .)
mine=$(events_of only | grep -c '^ *bench-[0-9]')
check tc:record-F "$n events, $mine of them from bench" \
	sh -c "[ $n -ge 50 ] && [ $mine -eq $n ]"
keep only

# -P: one existing process, until SIGINT
sh -c 'while :; do dd if=/proc/version of=/dev/null bs=64 count=1 2>/dev/null; done' &
loop=$!
$TC record -q -o $D/pid.dat -e sched:sched_process_fork -P $loop >/dev/null 2>&1 &
rec=$!
# SIGINT only once the recording runs (it has set set_event_pid): a
# recorder interrupted in its set-up can leave a reader of trace_pipe_raw
# behind that eats the next recording's data.
wait_for 30 grep -qw $loop $T/set_event_pid
sleep 1
kill -INT $rec
wait $rec
kill $loop
wait $loop 2>/dev/null
wait_for 30 sh -c '! pidof trace-cmd >/dev/null'
report pid
n=$(events_of pid | grep -c 'sched_process_fork:')
mine=$(events_of pid | grep -c "sched_process_fork: .*pid=$loop ")
check tc:record-P "$n fork events, $mine of them by pid $loop" \
	sh -c "[ $n -gt 0 ] && [ $mine -eq $n ]"
keep pid

# -O: a tracer option (an event with its kernel stack trace)
$TC record -q -o $D/stack.dat -e sched:sched_process_exec -O stacktrace \
	sh -c 'exec true' >/dev/null 2>&1
report stack
check tc:record-option "no kernel stack after sched_process_exec" \
	sh -c "grep -A3 'sched_process_exec:' $D/stack.report | grep -q '=> .*exec'"
check tc:option-restored "options/stacktrace is still on after the recording" \
	grep -qx 0 $T/options/stacktrace
keep stack

# ---- start / stop / show / stat / extract / reset
trace_reset
$TC start -q -e sched:sched_switch -e sched:sched_process_exec >/dev/null 2>&1
ls /proc >/dev/null
sleep 0.05
$TC stop
check tc:start "tracing_on is not 0 after 'stop'" grep -qx 0 $T/tracing_on
check tc:show "no sched_switch in 'trace-cmd show'" \
	sh -c "$TC show | grep -q 'sched_switch:'"
$TC stat >$D/stat 2>&1
check tc:stat "'trace-cmd stat' does not list sched_process_exec as enabled" \
	sh -c "sed -n '/^Events:/,/^\$/p' $D/stat | grep -qw sched_process_exec"
# extract reads the buffer through trace_pipe_raw, which consumes it
$TC extract -o $D/extract.dat >/dev/null 2>&1
report extract
n=$(events_of extract | grep -c 'sched_process_exec: *filename=/bin/ls ')
check tc:extract "no sched_process_exec of ls in the extracted data" test "$n" -eq 1
keep extract
$TC reset >/dev/null 2>&1
check tc:reset "current_tracer/events not reset" \
	sh -c "grep -qx nop $T/current_tracer && grep -qx 0 $T/events/enable"

# ---- stack
$TC stack --start >/dev/null 2>&1
workload
$TC stack >$D/stack-out 2>&1
$TC stack --stop >/dev/null 2>&1
check tc:stack "no 'Depth' table with a kernel function in 'trace-cmd stack'" \
	sh -c "grep -q Depth $D/stack-out && grep -Eq '^ *[0-9]+\) +[0-9]+ +[0-9]+ +[a-z_]' $D/stack-out"
check tc:stack-stop "stack tracer still enabled after --stop" \
	grep -qx 0 /proc/sys/kernel/stack_tracer_enabled

# ---- over the network to the host's `trace-cmd listen`
port=$(param tc.listen "")
if [ -z "$port" ]; then
	skip tc:record-N "no tc.listen=PORT on the kernel command line"
elif ! ip addr add 10.0.2.15/24 dev eth0 || ! ip link set eth0 up ||
	! ip route add default via 10.0.2.2; then
	fail tc:record-N "no eth0 to reach the host"
else
	# File version 6: the version 7 file that the host's trace-cmd 3.1.6
	# listen writes for this big-endian client cannot be read back
	# ("cannot goto buffer offset -7937...").
	# -t: the per-CPU data over TCP too (QEMU's user network drops UDP
	# under load).
	if $TC record -t --file-version 6 -N 10.0.2.2:$port \
		-e syscalls:sys_enter_getppid -F bench syscall 100 >$D/net.out 2>&1; then
		pass tc:record-N
	else
		fail tc:record-N "trace-cmd record -N exited $?: $(tail -n 2 $D/net.out)"
	fi
	# trace-cmd exits with its last data still queued in the kernel: the
	# guest must not power off before the host has it all.
	check tc:record-N-sent "TCP connections to the host still open after 60 s" \
		wait_for 60 tcp_drained
fi

trace_reset
check_done
