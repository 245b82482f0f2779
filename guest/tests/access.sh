#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Access control: a non-root user (nobody, through busybox setuidgid) can
# neither read traces nor change tracing.  tracefs's permissions are the
# kernel's own (fs/tracefs: the mount root is 0700; kernel/trace/trace.h:
# files TRACE_MODE_WRITE 0640 / TRACE_MODE_READ 0440, owned by root), and
# the debugfs path to it is closed as well (debugfs root 0700).  Every
# attempt must fail with EACCES/EPERM and leave the state as it was; each
# attempt is also made as root, where it must work, so a check cannot pass
# because the operation was impossible anyway.
. /harness/lib.sh

KE=$T/kprobe_events
D=/sys/kernel/debug/tracing

as_nobody() { setuidgid nobody "$@"; }

state() {
	cat $T/current_tracer $T/tracing_on $KE $T/set_ftrace_filter \
		$T/events/enable $T/trace_options $T/buffer_size_kb $T/enabled_functions \
		/proc/sys/kernel/stack_tracer_enabled 2>&1
}

# denied NAME COMMAND: COMMAND, run as nobody, fails with "Permission
# denied" (EACCES) or "Operation not permitted" (EPERM), and the state is
# unchanged
denied() {
	_n=$1
	shift
	_before=$(state)
	if as_nobody sh -c "$*" >/tmp/out 2>/tmp/err; then
		fail access-$_n "nobody could: $* ($(head -c 80 /tmp/out | tr '\n' ' '))"
	elif ! grep -qi 'Permission denied\|Operation not permitted' /tmp/err; then
		fail access-$_n "'$*' failed, but not with EACCES/EPERM: $(cat /tmp/err)"
	elif [ -s /tmp/out ]; then
		fail access-$_n "'$*' failed, but printed: $(head -c 80 /tmp/out | tr '\n' ' ')"
	elif [ "$(state)" != "$_before" ]; then
		fail access-$_n "'$*' failed, but the tracing state changed"
	else
		echo "access: nobody: $*: $(cat /tmp/err)"
		pass access-$_n
	fi
}
# as_root NAME COMMAND: the same command works as root
as_root() {
	_n=$1
	shift
	check access-root-$_n "root could not: $*" sh -c "$*"
}

check access-nobody "setuidgid nobody runs as uid $(as_nobody id -u), gid $(as_nobody id -g)" \
	test "$(as_nobody id -u):$(as_nobody id -g)" = 65534:65534

# --- permissions as the kernel defines them
mode() { stat -c '%a %U:%G' "$1"; }
check access-mode-root "$T is $(mode $T), not 700 root:root" test "$(mode $T)" = "700 root:root"
check access-mode-debugfs "/sys/kernel/debug is $(mode /sys/kernel/debug), not 700 root:root" \
	test "$(mode /sys/kernel/debug)" = "700 root:root"
for f in trace trace_pipe available_tracers; do
	check access-mode-$f "$f is $(mode $T/$f), not 440/640 root:root" \
		sh -c "case '$(mode $T/$f)' in '440 root:root' | '640 root:root') ;; *) false ;; esac"
done
for f in current_tracer tracing_on kprobe_events set_ftrace_filter events/enable; do
	check access-mode-${f%/*} "$f is $(mode $T/$f), not 640 root:root" \
		test "$(mode $T/$f)" = "640 root:root"
done
# no file anywhere in tracefs grants anything to others, none is owned by
# another user (eventfs directories are 0755 by design: the mount root
# keeps others out)
find $T -type f \( -perm -o=r -o -perm -o=w -o -perm -o=x \) >/tmp/other.txt 2>/dev/null
find $T ! -user root >>/tmp/other.txt 2>/dev/null
nfiles=$(find $T -type f -user root -perm -u=r 2>/dev/null | wc -l)
echo "access: $nfiles tracefs files (root's, readable by root)"
check access-mode-all "$(wc -l </tmp/other.txt) tracefs files open to others or not root's: $(head -n 5 /tmp/other.txt | tr '\n' ' ')" \
	test ! -s /tmp/other.txt -a "$nfiles" -gt 1000

# --- a state worth protecting: a tracer running, a filter, a probe
trace_reset
echo >$KE
echo vfs_read >$T/set_ftrace_filter
echo 'p:acc/kp vfs_read' >$KE
echo function >$T/current_tracer
dd if=/harness/lib.sh of=/dev/null bs=512 2>/dev/null

# --- reading traces
denied read-trace "cat $T/trace"
denied read-trace_pipe "timeout 10 cat $T/trace_pipe"
denied read-per-cpu "cat $T/per_cpu/cpu0/trace_pipe_raw"
denied read-debugfs "cat $D/trace"
denied list-tracefs "ls $T"
denied read-filter "cat $T/set_ftrace_filter"
denied read-functions "cat $T/available_filter_functions_addrs"
as_root read-trace "grep -q ' vfs_read <-' $T/trace"
as_root read-trace_pipe "timeout 10 head -n 1 $T/trace_pipe | grep -q vfs_read"

# --- changing tracing
denied current_tracer "echo nop >$T/current_tracer"
denied tracing_on "echo 0 >$T/tracing_on"
denied kprobe_events "echo 'p:evil/kp vfs_write' >>$KE"
denied kprobe_events-clear "echo >$KE"
denied set_ftrace_filter "echo vfs_write >>$T/set_ftrace_filter"
denied set_ftrace_filter-clear "echo >$T/set_ftrace_filter"
denied events-enable "echo 1 >$T/events/enable"
denied event-enable "echo 1 >$T/events/sched/sched_switch/enable"
denied trace-clear "echo >$T/trace"
denied trace_marker "echo hello >$T/trace_marker"
denied instance "mkdir $T/instances/evil"
denied debugfs-tracer "echo nop >$D/current_tracer"
denied stack_tracer "echo 1 >/proc/sys/kernel/stack_tracer_enabled"
denied mount "mkdir -p /tmp/t && mount -t tracefs nodev /tmp/t"
as_root tracing_on "echo 0 >$T/tracing_on && echo 1 >$T/tracing_on"
as_root kprobe_events "echo 'p:acc/kq vfs_write' >>$KE && echo '-:acc/kq' >>$KE"
as_root events-enable "echo 1 >$T/events/sched/sched_switch/enable && echo 0 >$T/events/sched/sched_switch/enable"
as_root instance "mkdir $T/instances/ok && rmdir $T/instances/ok"

check access-state "the state changed: $(cat $T/current_tracer) / $(cat $KE)" \
	sh -c "grep -qx function $T/current_tracer && grep -q acc/kp $KE && grep -qx vfs_read $T/set_ftrace_filter && test -z \"\$(ls $T/instances)\""

echo nop >$T/current_tracer
echo >$KE
trace_reset
check_done
