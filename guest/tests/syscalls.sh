#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Syscall tracepoints: raw_syscalls and the per-syscall events.
. /harness/lib.sh

nent=$(ls -d $T/events/syscalls/sys_enter_* 2>/dev/null | wc -l)
next=$(ls -d $T/events/syscalls/sys_exit_* 2>/dev/null | wc -l)
echo "syscall events: $nent sys_enter_*, $next sys_exit_*"
check syscall-events "only $nent enter / $next exit events" test "$nent" -gt 300 -a "$nent" -eq "$next"
# (clone has no event: m68k enters it through m68k_clone(), and the generic
# SYSCALL_DEFINE of clone, which carries the metadata, is not built)
for s in fork vfork clone3; do
	check syscall-event-$s "no sys_enter_$s (assembly wrapper __sys_$s)" \
		test -d $T/events/syscalls/sys_enter_$s
done

# write(2) of 123 bytes to /dev/null: count and return value are 123 (0x7b)
trace_reset
echo 1 >$T/events/syscalls/sys_enter_write/enable
echo 1 >$T/events/syscalls/sys_exit_write/enable
dd if=/dev/zero of=/dev/null bs=123 count=1 2>/dev/null
echo 0 >$T/events/syscalls/enable
grep -E 'sys_write|sys_enter_write|sys_exit_write' $T/trace | grep dd- | head -4
# (7.3 prints the start of the user buffer, here zeros, and a 0x count)
check syscall-write-args "no 'sys_write(fd: 1, ..., count: 7b)' from dd" \
	grep -qE 'dd-[0-9]+ .*sys_write\(fd: 1, buf: ([0-9a-f]+|0x[0-9a-f]+ \((00:)+00, \.\.\.\)), count: (0x)?7b\)' $T/trace
check syscall-write-ret "no 'sys_write -> 0x7b' from dd" \
	grep -qE 'dd-[0-9]+ .*sys_write -> 0x7b' $T/trace

# raw_syscalls with a filter on the syscall number (write = 4 on m68k)
trace_reset
echo 'id == 4' >$T/events/raw_syscalls/sys_enter/filter
echo 1 >$T/events/raw_syscalls/sys_enter/enable
workload
echo 0 >$T/events/raw_syscalls/sys_enter/enable
echo 0 >$T/events/raw_syscalls/sys_enter/filter
n4=$(grep -c 'sys_enter: NR 4 ' $T/trace)
nother=$(grep 'sys_enter: NR ' $T/trace | grep -vc 'sys_enter: NR 4 ')
check raw-syscall-filter "NR 4 events: $n4, other NRs: $nother" test "$n4" -gt 0 -a "$nother" -eq 0

# a common_pid filter keeps one task's syscalls only
trace_reset
sleep 2 &
pid=$!
echo "common_pid == $pid" >$T/events/raw_syscalls/sys_exit/filter
echo 1 >$T/events/raw_syscalls/sys_exit/enable
wait $pid
echo 0 >$T/events/raw_syscalls/sys_exit/enable
echo 0 >$T/events/raw_syscalls/sys_exit/filter
pids=$(grep 'sys_exit: NR' $T/trace | sed -n 's/^ *[^ ]*-\([0-9]*\) .*/\1/p' | sort -u | tr '\n' ' ')
check raw-syscall-pid-filter "pids seen: '$pids', wanted $pid" test "$pids" = "$pid "

# ptrace (strace semantics) is unchanged by the tracepoints: the same
# checks with no event, and with every syscall event enabled
trace_reset
check ptrace-plain "ptrace-check failed without syscall events" ptrace-check
echo 1 >$T/events/syscalls/enable
echo 1 >$T/events/raw_syscalls/enable
check ptrace-with-events "ptrace-check failed with syscall events on" ptrace-check
echo 0 >$T/events/syscalls/enable
echo 0 >$T/events/raw_syscalls/enable
check ptrace-events-seen "no sys_enter_getppid event from ptrace-check" \
	grep -q 'ptrace-check-[0-9]* .*sys_getppid()' $T/trace

trace_reset
check_done
