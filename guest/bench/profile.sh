#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make profile` in one guest (harness/profile.sh): put tracing in the state
# named by "profile.state=" on the kernel command line (off; function,
# function_graph: all functions; kprobe, kretprobe: an event on getppid()'s
# system call function, as `make bench` puts it), then make tagged getppid()
# calls (`bench profile`) for the host's gdb to single-step one of.
# "profile.state=spawn": see below.
. /harness/lib.sh
state=off
rounds=2000
for _a in $(cat /proc/cmdline); do
	case $_a in
	profile.state=*) state=${_a#profile.state=} ;;
	profile.rounds=*) rounds=${_a#profile.rounds=} ;;
	esac
done

# `make profile-spawn` (harness/profile-spawn.sh): fork+exec+pipe rounds,
# tracing as the kernel booted (none on notp), between two sync() calls:
# the host's instruction counter (harness/plugin/insn-count.c) counts
# from the first sys_sync() to the second.  200 rounds first, not
# counted, as make bench does.
if [ "$state" = spawn ]; then
	bench spawn 200 >/dev/null || { echo "profile: 'spawn' failed"; exit 1; }
	sync
	bench spawn "$rounds" >/dev/null || { echo "profile: 'spawn' failed"; exit 1; }
	sync
	echo "PROFILE spawn $rounds rounds"
	exit 0
fi

trace_reset
case $state in
off) ;;
function | function_graph) echo "$state" >$T/current_tracer ;;
kprobe | kretprobe)
	_sym=$(awk '$3 == "sys_getppid" || $3 == "__x64_sys_getppid" { print $3; exit }' /proc/kallsyms)
	[ -n "$_sym" ] || { echo "profile: no getppid() system call function in /proc/kallsyms"; exit 1; }
	_t=p
	[ $state = kretprobe ] && _t=r
	if ! echo "$_t:profile/$state $_sym" >$T/kprobe_events ||
	   ! echo 1 >$T/events/profile/$state/enable; then
		echo "profile: cannot enable a $state event on $_sym"
		exit 1
	fi
	;;
*) echo "profile: unknown state '$state'"; exit 2 ;;
esac
echo "PROFILE state $state"
bench profile 20 >/dev/null || exit 1
trace_reset
[ -w $T/kprobe_events ] && echo >$T/kprobe_events
