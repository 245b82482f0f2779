#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The oops path (patch 0075): kernel faults and traps reported through
# the generic die path.  LKDTM (drivers/misc/lkdtm) provokes each crash
# type from a child shell, which the oops ends; the kernel must go on.
# Each crash type must leave on the console exactly the report the
# generic code gives: its own first line, one "Oops"-style header counted
# "[#N]", the registers and call trace, and one "---[ end trace" marker
# from oops_exit(); a WARNING is a warning report and no oops.  With
# ftrace_dump_on_oops the oops dumps the function trace (the trace
# core's die notifier: before the patch it never ran on m68k).  The
# console is read by these checks, not by qemu-run --strict: the
# reports are the point (harness/check.sh, oops_suite).
. /harness/lib.sh

D=/sys/kernel/debug/provoke-crash/DIRECT
oopses=0

# What each architecture's report says (extended regular expressions):
# the header of oops N ("HEADER" with N for the count), the register
# dump, a NULL dereference's first line, and whether a write to rodata
# oopses (STRICT_KERNEL_RWX).  m68k: die_if_kernel() and the fault
# handlers of arch/m68k; x86_64, the anchor: arch/x86's __die_header()
# and page fault report.
case $(uname -m) in
x86_64)
	HEADER='Oops: .*: [0-9a-f]{4} \[#N\]'
	REGS='RIP: [0-9a-f]{4}:'
	NULL_DEREF='BUG: kernel NULL pointer dereference'
	EXEC_NULL=$NULL_DEREF
	RO_OOPS='BUG: unable to handle page fault for address'
	;;
*)
	HEADER=': [0-9a-f]{8} \[#N\]$'
	REGS='PC: \[<'
	NULL_DEREF='Unable to handle kernel NULL pointer dereference'
	EXEC_NULL='Unable to handle kernel (NULL pointer dereference|access)'
	RO_OOPS=
	;;
esac
# header N: the header of oops N ([0-9]+: any)
header() { echo "$HEADER" | sed "s/#N/#$1/"; }

check oops-lkdtm "modprobe lkdtm failed" modprobe lkdtm
check oops-clean-console "a problem on the console before the test" \
	sh -c "! dmesg | grep -qE 'WARNING:|BUG|Oops|Unable to handle|Kernel panic|cut here|Call Trace'"

# provoke TYPE: the console lines TYPE's trigger added, in /tmp/TYPE.log;
# the status of the shell that wrote TYPE (killed by an oops: 137 or 139)
provoke() {
	dmesg >/tmp/before.log
	sh -c "echo $1 >$D" >/dev/null 2>&1
	_rc=$?
	dmesg | tail -n +"$(($(wc -l </tmp/before.log) + 1))" >/tmp/"$1".log
	return $_rc
}

# an_oops TYPE FIRST-LINE: TYPE gives one oops, whose report starts with
# FIRST-LINE (an extended regular expression) and ends with the marker
oops() {
	_t=$1 _first=$2
	provoke "$_t"
	_rc=$?
	oopses=$((oopses + 1))
	_l=/tmp/$_t.log
	check "oops-$_t-killed" "the writing shell exited $_rc, not killed" [ "$_rc" -gt 128 ]
	check "oops-$_t-first" "no '$_first' in: $(head -3 "$_l" | tr '\n' '|')" grep -qE "$_first" "$_l"
	check "oops-$_t-header" "not one report header counted [#$oopses]" \
		sh -c "[ \$(grep -cE '$(header '[0-9]+')' $_l) = 1 ] && grep -qE '$(header $oopses)' $_l"
	check "oops-$_t-regs" "no registers and call trace" \
		sh -c "grep -qE '$REGS' $_l && grep -q 'Call Trace:' $_l"
	check "oops-$_t-end" "not one '---[ end trace' marker" \
		[ "$(grep -c -- '---\[ end trace [0-9a-f]* \]---' "$_l")" = 1 ]
	check "oops-$_t-tainted" "the kernel is not tainted D (die)" \
		sh -c "[ \$((\$(cat /proc/sys/kernel/tainted) & 128)) != 0 ]"
}

# the crash types m68k can take (drivers/misc/lkdtm): BUG() (the trap
# after "kernel BUG at"), a NULL write and read, a jump to NULL
oops BUG 'kernel BUG at drivers/misc/lkdtm/bugs.c'
oops EXCEPTION "$NULL_DEREF"
oops ACCESS_NULL "$NULL_DEREF"
oops EXEC_NULL "$EXEC_NULL"

# a WARNING is a warning, not an oops: the writer goes on
provoke WARNING
rc=$?
check oops-WARNING-survives "the writing shell exited $rc" [ "$rc" = 0 ]
check oops-WARNING-report "no WARNING report ending in its marker" \
	sh -c "grep -q 'WARNING:' /tmp/WARNING.log && grep -q -- '---\[ end trace' /tmp/WARNING.log"
check oops-WARNING-no-oops "the WARNING gave an oops" \
	sh -c "! grep -qE '$(header '[0-9]+')' /tmp/WARNING.log"

# m68k has no STRICT_KERNEL_RWX: its rodata is writable, so LKDTM's
# write there survives (x86_64 oopses); anything else is a new verdict
if [ -n "$RO_OOPS" ]; then
	oops WRITE_RO "$RO_OOPS"
else
	provoke WRITE_RO
	rc=$?
	if [ "$rc" = 0 ] && grep -q 'FAIL: survived bad write' /tmp/WRITE_RO.log &&
		! grep -qE "$(header '[0-9]+')" /tmp/WRITE_RO.log; then
		skip oops-WRITE_RO "no STRICT_KERNEL_RWX on m68k: the rodata write survives"
	else
		fail oops-WRITE_RO "rc $rc: $(head -4 /tmp/WRITE_RO.log | tr '\n' '|')"
	fi
fi

# ftrace_dump_on_oops: the oops dumps the function trace of lkdtm's
# functions, the last of them the one that faulted
trace_reset
echo ':mod:lkdtm' >$T/set_ftrace_filter
echo function >$T/current_tracer
echo 1 >/proc/sys/kernel/ftrace_dump_on_oops
provoke EXCEPTION
oopses=$((oopses + 1))
echo 0 >/proc/sys/kernel/ftrace_dump_on_oops
L=/tmp/EXCEPTION.log
check oops-dump "no 'Dumping ftrace buffer' with the oops" grep -q 'Dumping ftrace buffer' $L
check oops-dump-functions "the dump has no lkdtm_EXCEPTION line" \
	sh -c "sed -n '/Dumping ftrace buffer/,\$p' $L | grep -q 'lkdtm_EXCEPTION'"
check oops-dump-after-report "the dump does not follow the oops header" \
	sh -c "awk '/$(header $oopses)/ { h = NR } /Dumping ftrace buffer/ { d = NR } END { exit !(h && d > h) }' $L"
check oops-dump-tracing-off "tracing_on is $(cat $T/tracing_on) after the dump" \
	[ "$(cat $T/tracing_on)" = 0 ]
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
echo 1 >$T/tracing_on

# the kernel goes on after all of them
check oops-alive "a process no longer starts" sh -c 'echo alive | grep -q alive'
n=$(dmesg | grep -cE "$(header '[0-9]+')")
check oops-count "$n oops headers, not $oopses" [ "$n" = "$oopses" ]
check oops-no-panic "the console shows a panic" sh -c "! dmesg | grep -q 'Kernel panic'"
exit "$CHECK_FAILED"
