#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Live patching on the livepatch kernel (configs/livepatch.config: patchable
# entries with frame pointers, reliable stack traces).
#
# 1. The kernel's own selftests (tools/testing/selftests/livepatch, copied
#    unmodified to /opt/livepatch; their test modules were built against
#    this kernel by harness/build-kernel.sh and installed with the others),
#    run with bash, GNU coreutils, diffutils, procps and kmod from
#    /opt/livepatch/bin (harness/build-klp-tools.sh).  Each case's
#    "TEST: NAME ... ok" becomes the check livepatch:SCRIPT:NAME, and each
#    script's exit status one more (a script that dies leaves its later
#    cases missing, which the expectation counts as failures).
# 2. samples/livepatch/livepatch-sample.ko under a workload: enabled,
#    /proc/cmdline replaced, disabled, the original back, removed.
# 3. The consistency model (guest/modules/klp_consist): a transition
#    completes while a kernel thread sleeps in the patched function's
#    caller, and waits while one sleeps in the patched function itself,
#    until the thread leaves it; it completes while a user task sleeps in
#    a page fault.
. /harness/lib.sh

lp=/opt/livepatch
klp=/sys/kernel/livepatch
check lp-tools "no $lp/bin/bash: the initramfs lacks the selftests' tools" \
	test -x $lp/bin/bash
# functions.sh runs /bin/stat --format, bash scripts, sysctl --values:
# GNU's and procps' programs first, busybox's applets after them
PATH=$lp/bin:$PATH
export PATH
ln -sf $lp/bin/bash /bin/bash
ln -sf $lp/bin/stat /bin/stat
# the test modules, where the scripts insmod them from
mkdir -p $lp/test_modules
for m in /lib/modules/*/updates/test_klp_*.ko; do
	[ -f "$m" ] && ln -sf "$m" $lp/test_modules/
done
n=$(ls $lp/test_modules | wc -l)
check lp-test-modules "$n test modules installed" test "$n" -ge 14
# functions.sh's has_kdir() wants the directory the modules were built
# against (KDIR, by default /lib/modules/RELEASE/build) to exist before it
# loads the prebuilt ones: they were built on the host, against this
# kernel's objects (harness/build-kernel.sh); its module directory stands
# for them
KDIR=/lib/modules/$(uname -r)
export KDIR
dmesg -n 5

# --- 1. the selftests, in their Makefile's order
cd $lp || exit 1
for t in test-livepatch.sh test-callbacks.sh test-shadow-vars.sh test-state.sh \
	test-ftrace.sh test-sysfs.sh test-syscall.sh test-kprobe.sh; do
	bash ./$t >/tmp/$t.log 2>&1
	rc=$?
	sed "s/^/LP-LOG $t: /" /tmp/$t.log
	# "TEST: name ... ok" (the result may follow other output on the line)
	sed -n 's/^TEST: \(.*\) \.\.\. \(not ok\|ok\)$/\2|\1/p' /tmp/$t.log |
		while IFS='|' read -r verdict name; do
			if [ "$verdict" = ok ]; then
				pass "livepatch:$t:$name"
			else
				fail "livepatch:$t:$name" "not ok (LP-LOG $t lines above)"
			fi
		done
	check "livepatch:$t" "exit status $rc" test "$rc" -eq 0
done
cd /

# --- 2. the sample under a workload: the shell reads /proc/cmdline in a
# loop while the patch is enabled and disabled; livepatch's debug messages
# (a task with an unreliable stack, ...) go to the log
echo 'file kernel/livepatch/* +p' >/sys/kernel/debug/dynamic_debug/control
dmesg -c >/dev/null
# wait_for FILE VALUE TENTHS: FILE reads VALUE within TENTHS tenths of a
# second ("" for a FILE that is gone)
wait_for() {
	_i=0
	while [ "$(cat "$1" 2>/dev/null)" != "$2" ] && [ $_i -lt "$3" ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ "$(cat "$1" 2>/dev/null)" = "$2" ]
}
# unload MOD...: rmmod once nothing holds them (a disabled patch drops its
# module reference after its sysfs directory is gone)
unload() {
	for _m in "$@"; do
		wait_for /sys/module/$_m/refcnt 0 300
		rmmod "$_m" || return 1
	done
}
orig=$(cat /proc/cmdline)
( while :; do cat /proc/cmdline >/dev/null; done ) &
loop=$!
check sample-load "modprobe livepatch-sample failed" modprobe livepatch-sample
check sample-transition "still in transition after 30 s" \
	wait_for $klp/livepatch_sample/transition 0 300
now=$(cat /proc/cmdline)
check sample-patched "/proc/cmdline says '$now'" test "$now" = "this has been live patched"
echo 0 >$klp/livepatch_sample/enabled
# the patch's directory goes once it is disabled and freed
check sample-disabled "$klp/livepatch_sample still there after 30 s" \
	wait_for $klp/livepatch_sample/enabled "" 300
now=$(cat /proc/cmdline)
check sample-unpatched "/proc/cmdline says '$now'" test "$now" = "$orig"
check sample-remove "rmmod livepatch_sample failed" unload livepatch_sample
kill $loop
wait $loop 2>/dev/null
check sample-healthy "the workload's results changed" healthy
# Every task was switched by the walk of its stack: none needed the fake
# signal livepatch sends after 15 s of transition (a walker refusing
# sleeping tasks would still see the transition end, later, by signals).
check sample-no-signals "the transitions needed livepatch's fake signals" \
	sh -c "! dmesg | grep -q 'signaling remaining tasks'"
dmesg -c | grep -i -e livepatch -e klp | sed 's/^/LP-DMESG sample: /'

# --- 2b. a storm: the sample enabled and disabled STORM times while the
# function tracer traces the function it replaces (two ftrace_ops on one
# site: the tracer's and the patch's) and a reader checks every read of
# /proc/cmdline is one of the two texts
storm=$(param livepatch.storm 8)
bad=/tmp/lp-storm-bad
: >$bad
echo cmdline_proc_show >$T/set_ftrace_filter
echo function >$T/current_tracer
echo >$T/trace
( while :; do
	v=$(cat /proc/cmdline)
	[ "$v" = "$orig" ] || [ "$v" = "this has been live patched" ] || echo "$v" >>$bad
done ) &
loop=$!
cycles=0 step=
while [ $cycles -lt "$storm" ]; do
	step=load; modprobe livepatch-sample || break
	step=transition; wait_for $klp/livepatch_sample/transition 0 300 || break
	step=patched; [ "$(cat /proc/cmdline)" = "this has been live patched" ] || break
	# the site has both ops: the tracer's and the patch's
	step=two-ops; grep -q '^cmdline_proc_show (2)' $T/enabled_functions || break
	step=disable; echo 0 >$klp/livepatch_sample/enabled || break
	step=freed; wait_for $klp/livepatch_sample/enabled "" 300 || break
	step=unpatched; [ "$(cat /proc/cmdline)" = "$orig" ] || break
	step=unload; unload livepatch_sample || break
	cycles=$((cycles + 1)) step=
done
kill $loop
wait $loop 2>/dev/null
check storm-cycles "$cycles of $storm enable/disable cycles (the next stopped at: $step)" \
	test "$cycles" -eq "$storm"
check storm-reads "reads of /proc/cmdline that were neither text: $(head -c 200 $bad)" \
	test ! -s $bad
n=$(grep -c ' cmdline_proc_show <-' $T/trace)
check storm-traced "the tracer saw $n calls of cmdline_proc_show" test "$n" -gt "$storm"
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
check storm-released "cmdline_proc_show still has an ops: $(grep cmdline_proc_show $T/enabled_functions)" \
	sh -c "! grep -q '^cmdline_proc_show' $T/enabled_functions"
check storm-healthy "the kernel's state changed" healthy
check storm-no-signals "the transitions needed livepatch's fake signals" \
	sh -c "! dmesg | grep -q 'signaling remaining tasks'"
dmesg -c | grep -i -e livepatch -e klp | tail -n 20 | sed 's/^/LP-DMESG storm: /'

# --- 3. the consistency model
ct=/sys/module/klp_consist_target/parameters
for where in outer inner; do
	c=consist-$where
	check $c-target "insmod klp_consist_target where=$where failed" \
		modprobe klp_consist_target where=$where
	check $c-asleep "the thread did not fall asleep" wait_for $ct/asleep 1 300
	check $c-original "klp_ct_inner() returned $(cat $ct/result)" test "$(cat $ct/result)" = 1
	check $c-patch "modprobe klp_consist_patch failed" modprobe klp_consist_patch
	if [ $where = inner ]; then
		# asleep in the patched function: the transition waits for it,
		# past the fake signals it sends after 15 s, until it leaves
		sleep 20
		check $c-waits "transition $(cat $klp/klp_consist_patch/transition) after 20 s" \
			test "$(cat $klp/klp_consist_patch/transition)" = 1
		st=$(cat /proc/"$(cat $ct/pid)"/patch_state)
		check $c-thread-unpatched "the sleeping thread's patch_state is $st" test "$st" = 0
		echo 1 >$ct/release
	fi
	# (asleep in the caller, outer: every task switches while it sleeps)
	check $c-complete "still in transition after 30 s" \
		wait_for $klp/klp_consist_patch/transition 0 300
	check $c-patched "klp_ct_inner() returned $(cat $ct/result)" \
		test "$(cat $ct/result)" = 2
	[ $where = inner ] || echo 1 >$ct/release
	echo 0 >$klp/klp_consist_patch/enabled
	check $c-disabled "the patch is still there after 30 s" \
		wait_for $klp/klp_consist_patch/enabled "" 300
	check $c-unpatched "klp_ct_inner() returned $(cat $ct/result)" test "$(cat $ct/result)" = 1
	unload klp_consist_patch klp_consist_target
	check $c-removed "the modules are still loaded" \
		sh -c '! grep -q "^klp_consist" /proc/modules'
	dmesg -c | grep -i -e livepatch -e klp | sed "s/^/LP-DMESG $c: /"
done

# A user task asleep in an access fault (guest/src/fault-loop.c): the
# module holds its mmap lock, so its next fault sleeps (killable: the
# transition's fake signals do not wake it).  Its stack ends at the
# fault's frame (format 7 on the 68040), which the walker must prove:
# the transition completes while it still sleeps there.  It may be caught
# in its madvise() instead: then the lock is dropped and taken again.
c=consist-fault
fault-loop 256 &
fl=$!
in_fault() { grep -q do_page_fault /proc/$fl/stack; }
_t=0
while [ $_t -lt 10 ]; do
	_t=$((_t + 1))
	modprobe klp_consist_target where=fault fault_pid=$fl || break
	wait_for $ct/asleep 1 300 &&
		{ sleep 1; in_fault; } && break
	echo 1 >$ct/release
	unload klp_consist_target
done
check $c-in-fault "fault-loop not asleep in a page fault after $_t tries: $(cat /proc/$fl/stack 2>&1 | head -n 4 | tr '\n' ' ')" \
	in_fault
sed "s/^/LP-STACK $c: /" /proc/$fl/stack
check $c-patch "modprobe klp_consist_patch failed" modprobe klp_consist_patch
check $c-complete "still in transition after 30 s" \
	wait_for $klp/klp_consist_patch/transition 0 300
check $c-still-in-fault "fault-loop left the fault before the transition ended" in_fault
check $c-patched "klp_ct_inner() returned $(cat $ct/result)" test "$(cat $ct/result)" = 2
echo 1 >$ct/release
echo 0 >$klp/klp_consist_patch/enabled
check $c-disabled "the patch is still there after 30 s" \
	wait_for $klp/klp_consist_patch/enabled "" 300
kill $fl
wait $fl 2>/dev/null
unload klp_consist_patch klp_consist_target
check $c-removed "the modules are still loaded" \
	sh -c '! grep -q "^klp_consist" /proc/modules'
dmesg -c | grep -i -e livepatch -e klp | sed "s/^/LP-DMESG $c: /"

check_done
