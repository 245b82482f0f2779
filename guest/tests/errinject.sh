#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Function error injection (patch 0062) through fail_function: the kprobe
# at an error-injectable function's entry sets the return value
# (regs_set_return_value(): %d0, and %a0, where a caller of a function
# returning a pointer reads it) and returns to the caller without running
# the function (override_function_with_return()).
#  - a system call, sys_openat, failed for one task (task-filter and
#    /proc/PID/make-it-fail): its open fails with the injected errno,
#    another task's open of the same file succeeds meanwhile, and after
#    the injection is removed the task opens it again.  Each failing open
#    runs again after the kprobe optimizer had time to replace the
#    breakpoint where it can (kprobes/list says which);
#  - the errinj_test module's two functions (guest/modules/errinj_test):
#    one returning a pointer (ERRNO_NULL), one an int (ERRNO, notrace:
#    a breakpoint probe on both kernels); its caller sees exactly the injected value,
#    the function does not run, the other function is untouched, and
#    removing the injection restores both.
. /harness/lib.sh

F=/sys/kernel/debug/fail_function
if [ ! -d $F ]; then
	skip errinject "no $F (FUNCTION_ERROR_INJECTION or FAIL_FUNCTION is off)"
	check_done
	exit
fi

# inject FUNC ERRNO|0: make every call of FUNC return -ERRNO (or 0)
inject() {
	echo "$1" >$F/inject || return 1
	if [ "$2" = 0 ]; then
		echo 0 >"$F/$1/retval"
	else
		printf '%#x\n' $((0xffffffff - $2 + 1)) >"$F/$1/retval"
	fi
}
echo 100 >$F/probability
echo 1 >$F/interval
echo -1 >$F/times
echo 0 >$F/space
echo 0 >$F/verbose

# --- a system call, for one task ---
echo Y >$F/task-filter
check ei-openat-inject "fail_function refused sys_openat" inject sys_openat 13
# open_failing: cat in a task that makes faults fail; prints its error
open_failing() {
	sh -c 'echo 1 >/proc/self/make-it-fail && exec cat /etc/passwd' 2>&1
}
out=$(open_failing)
check ei-openat-fails "cat with make-it-fail: '$(echo "$out" | head -c 200)'" \
	eval 'echo "$out" | grep -q "Permission denied"'
check ei-openat-others "an open without make-it-fail failed" \
	sh -c 'cat /etc/passwd | grep -q "^root:"'
# give the optimizer its delay, then the same again
sleep 0.3
grep -E 'sys_openat' /sys/kernel/debug/kprobes/list
out=$(open_failing)
check ei-openat-fails-later "cat with make-it-fail after 0.3 s: '$(echo "$out" | head -c 200)'" \
	eval 'echo "$out" | grep -q "Permission denied"'
echo '!sys_openat' >$F/inject
out=$(open_failing)
check ei-openat-removed "cat with make-it-fail after the removal: '$(echo "$out" | head -c 200)'" \
	eval 'echo "$out" | grep -q "^root:"'

# --- a function returning a pointer, and one returning an int ---
echo N >$F/task-filter
C=/sys/module/errinj_test/parameters/call
check ei-module "errinj_test did not load" modprobe errinj_test
# expect NAME WANT: the caller's view is WANT
expect() {
	_got=$(cat $C)
	check "$1" "errinj_test says '$_got', want '$2'" test "$_got" = "$2"
}
expect ei-none "get=obj count=22 get_runs=1 count_runs=1"
inject errinj_test_get 12
expect ei-ptr-errno "get=-12 count=22 get_runs=1 count_runs=2"
sleep 0.3
expect ei-ptr-errno-later "get=-12 count=22 get_runs=1 count_runs=3"
echo 0 >$F/errinj_test_get/retval
expect ei-ptr-null "get=null count=22 get_runs=1 count_runs=4"
echo '!errinj_test_get' >$F/inject
# errinj_test_count() is notrace: no ftrace site, so its probe is a
# breakpoint on both kernels, one the optimizer could turn into a jump,
# whose handlers cannot move the pc; fail_function gives its probes a
# post handler, which keeps them breakpoints (kprobes.rst)
inject errinj_test_count 5
expect ei-int-errno "get=obj count=-5 get_runs=2 count_runs=4"
sleep 1
check ei-int-not-optimized "the probe on errinj_test_count was optimized: $(grep errinj_test_count /sys/kernel/debug/kprobes/list)" \
	sh -c '! grep -q "errinj_test_count+0x0 .*OPTIMIZED" /sys/kernel/debug/kprobes/list'
grep errinj_test /sys/kernel/debug/kprobes/list
expect ei-int-errno-later "get=obj count=-5 get_runs=3 count_runs=4"
echo '!errinj_test_count' >$F/inject
expect ei-removed "get=obj count=22 get_runs=4 count_runs=5"
check ei-inject-empty "injection points left: $(cat $F/inject)" test -z "$(cat $F/inject)"
rmmod errinj_test
check_done
