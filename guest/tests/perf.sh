#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# perf events (patch 0023): software and tracepoint counters and sampled
# call chains through perf_event_open(), checked by guest/src/perfcount.c
# against known work; then the same with the function tracer on, whose
# return_to_handler the kernel chains must see through; then tools/perf.
. /harness/lib.sh

check perf-no-pmu "a hardware PMU is registered: $(ls /sys/bus/event_source/devices)" \
	sh -c "! ls /sys/bus/event_source/devices | grep -qvE '^(software|tracepoint|kprobe|uprobe)\$'"
perfcount
st=$?
check perf-run "perfcount exited $st" [ "$st" = 0 ]
trace_reset
echo function_graph >$T/current_tracer
perfcount >/tmp/perfcount.out
st=$?
echo nop >$T/current_tracer
sed 's/^CHECK \([A-Z]*\) /CHECK \1 graph-/' /tmp/perfcount.out
check graph-perf-run "perfcount exited $st under function_graph" [ "$st" = 0 ]
trace_reset

# tools/perf of the same tree (harness/build-perf.sh), on known work:
# `bench syscall N` makes exactly N getppid() calls, `bench ucall N` exactly N
# calls of probe_point().  perf stat -x, writes "count,unit,event,..." lines.
P=/usr/bin/perf
stat_count() { # EVENT COMMAND...: the count perf stat gives EVENT over COMMAND
	_e=$1
	shift
	$P stat -x, -o /tmp/perf.stat -e "$_e" -- "$@" >/dev/null 2>&1 || return 1
	sed -n "s/^\([^,]*\),[^,]*,$_e,.*/\1/p" /tmp/perf.stat
}
if [ ! -x $P ]; then
	fail perf-tool "no $P in the guest"
	check_done
	exit
fi
n=$(stat_count syscalls:sys_enter_getppid bench syscall 1234)
check perf-stat-tracepoint "perf stat counted '$n' getppid entries for 1234 calls" [ "$n" = 1234 ]
n=$(stat_count raw_syscalls:sys_enter bench syscall 3000)
check perf-stat-raw-syscalls "perf stat counted '$n' syscall entries for 3000 getppid() calls and a start-up" \
	sh -c "[ '${n:-0}' -ge 3000 ] && [ '${n:-0}' -lt 3200 ]"
# software counters: a number above 0 (the exact counts are perfcount's)
stat_positive() { # EVENT COMMAND...
	n=$(stat_count "$@")
	check "perf-stat-$1" "perf stat gave '$n' for $1 over '$2 ...'" \
		sh -c "echo '$n' | awk '/^[0-9.]+\$/ && \$1 > 0 { ok = 1 } END { exit !ok }'"
}
stat_positive task-clock bench syscall 1000
stat_positive page-faults bench syscall 1000
stat_positive context-switches sleep 0.02
# kprobe and uprobe events made through tracefs, counted by perf
echo "p:perfk sys_getppid" >>$T/kprobe_events
n=$(stat_count kprobes:perfk bench syscall 500)
check perf-stat-kprobe "perf stat counted '$n' hits of a kprobe on sys_getppid for 500 calls" [ "$n" = 500 ]
echo "-:perfk" >>$T/kprobe_events
off=$(bench ucall-offset)
echo "p:perfu /usr/bin/bench:$off" >>$T/uprobe_events
n=$(stat_count uprobes:perfu bench ucall 777)
check perf-stat-uprobe "perf stat counted '$n' hits of a uprobe for 777 calls" [ "$n" = 777 ]
echo "-:perfu" >>$T/uprobe_events

# perf record of a tracepoint, one sample per event, decoded by perf script
# and perf report
rm -f /tmp/perf.data
$P record -q -o /tmp/perf.data -c 1 -e syscalls:sys_enter_getppid -- bench syscall 300 >/dev/null 2>&1
st=$?
check perf-record "perf record exited $st" [ "$st" = 0 ]
n=$($P script -i /tmp/perf.data -F comm,event 2>/dev/null | grep -c '^ *bench .*sys_enter_getppid')
check perf-script "perf script shows $n getppid entries of bench for 300 calls" [ "$n" = 300 ]
$P report -i /tmp/perf.data --stdio --sort comm >/tmp/perf.report 2>&1
check perf-report "perf report does not give bench all 300 samples: $(grep -v '^#' /tmp/perf.report | head -c 300)" \
	sh -c "grep -q 'Samples: 300 ' /tmp/perf.report && grep -qE '^ +100\.00% +bench' /tmp/perf.report"
# kernel call chains of sched_switch, seen from a sleep: the chain reaches the
# system call that slept
$P record -q -g -o /tmp/perf.data -e sched:sched_switch -- sleep 0.05 >/dev/null 2>&1
$P script -i /tmp/perf.data --comm sleep -F comm,event,ip,sym >/tmp/perf.script 2>&1
check perf-record-callchain "no chain of sleep's sched_switch reaches schedule() and a nanosleep: $(head -c 400 /tmp/perf.script)" \
	sh -c "grep -qE ' schedule\$' /tmp/perf.script && grep -qE 'nanosleep' /tmp/perf.script"
# user call chains: ustack-target's getppid() from ustack_c(), called by
# ustack_b(), ustack_a() and main(), all with frame pointers; the program
# prints the pc after its trap and the return addresses into its callers,
# which the chain must hold in that order (arch_stack_walk_user())
$P record -q -g -o /tmp/perf.data -e syscalls:sys_enter_getppid -- ustack-target chain \
	>/tmp/perf.ustack 2>&1
want=$(sed -n 's/.*ustack_c=0x\([0-9a-f]*\) ustack_b=0x\([0-9a-f]*\) ustack_a=0x\([0-9a-f]*\) main=0x\([0-9a-f]*\).*/\1 \2 \3 \4/p' /tmp/perf.ustack)
got=$($P script -i /tmp/perf.data -F ip 2>/dev/null | awk '{ a = $1; sub(/^0+/, "", a); printf "%s ", a }')
check perf-record-user-callchain "perf's chain '$got' does not hold '$want' (ustack_c, _b, _a, main)" \
	eval 'case " $got" in *" $want "*) [ -n "$want" ] ;; *) false ;; esac'
check perf-list "perf list does not list sched:sched_switch" sh -c "$P list tracepoint 2>/dev/null | grep -q 'sched:sched_switch'"

# perf ftrace: the function and function_graph tracers through perf, limited
# to the command it runs
n=$($P ftrace -t function -T sys_getppid -- bench syscall 50 2>/dev/null | grep -c 'sys_getppid')
check perf-ftrace-function "perf ftrace -t function showed $n sys_getppid entries for 50 calls" [ "$n" = 50 ]
$P ftrace -t function_graph -G sys_getppid -- bench syscall 40 >/tmp/perf.graph 2>/dev/null
n=$(grep -c 'sys_getppid()' /tmp/perf.graph)
check perf-ftrace-graph "perf ftrace -G showed $n sys_getppid graphs for 40 calls: $(head -c 300 /tmp/perf.graph)" [ "$n" = 40 ]

# perf trace: m68k's system call names (patch 0060; without it perf used
# the generic numbering, where m68k's openat is pkey_mprotect, and "-e"
# chose calls by it): dd's openat returns a descriptor, and a read of
# 4096 bytes returns the whole file (from fd 0, which perf leaves out).
# The file name is a pointer: perf reads user strings through BPF, which
# this perf is built without.  dd's C library opens with O_LARGEFILE,
# m68k's 0400000 (patch 0080).  Then cat of a missing file: its openat
# fails with ENOENT, named (patch 0079), and its brk() calls return
# addresses above 2 GiB, results in hex, not errors (patch 0078).
case $(uname -r) in
6.12*)	# the frozen 6.12 port has no patch 0060
	for c in openat read only largefile errno brk; do
		skip perf-trace-$c "6.12's perf has no m68k system call table"
	done ;;
*)
	$P trace -o /tmp/perf.trace -e openat,read -- dd if=/etc/passwd of=/dev/null bs=4096 >/dev/null 2>&1
	size=$(wc -c </etc/passwd)
	check perf-trace-openat "no openat returning a descriptor: $(head -c 400 /tmp/perf.trace)" \
		grep -qE ' dd/[0-9]+ openat\(.*\) += [0-9]+$' /tmp/perf.trace
	check perf-trace-read "no read returning the $size bytes of /etc/passwd: $(head -c 400 /tmp/perf.trace)" \
		grep -qE " dd/[0-9]+ read\\(.*count: 4096\\) += $size\$" /tmp/perf.trace
	check perf-trace-only "calls other than openat and read: $(grep -vE ' (openat|read)\(' /tmp/perf.trace | head -c 300)" \
		sh -c "! grep -vE ' (openat|read)\\(' /tmp/perf.trace | grep -q ."
	check perf-trace-largefile "no openat with RDONLY|LARGEFILE: $(grep openat /tmp/perf.trace | head -c 300)" \
		grep -qE ' dd/[0-9]+ openat\(.*flags: RDONLY\|LARGEFILE[,)].* += [0-9]+$' /tmp/perf.trace
	$P trace -o /tmp/perf.trace -e openat,brk -- cat /nonexistent >/dev/null 2>&1
	check perf-trace-errno "no openat failing with ENOENT, named: $(grep openat /tmp/perf.trace | head -c 300)" \
		grep -qE ' cat/[0-9]+ openat\(.*\) += -1 ENOENT \(No such file or directory\)$' /tmp/perf.trace
	# every brk() a result: an address, in hex, above 2 GiB
	brks=$(grep -cE ' cat/[0-9]+ brk\(' /tmp/perf.trace)
	check perf-trace-brk "brk() calls: $brks, not all returning an address: $(grep brk /tmp/perf.trace | head -c 300)" \
		sh -c "[ $brks -gt 0 ] && [ \$(grep -cE ' cat/[0-9]+ brk\\(.*\\) += 0x[89a-f][0-9a-f]{7}\$' /tmp/perf.trace) -eq $brks ]"
	;;
esac
# perf probe (patch 0070: m68k's DWARF register names), on the DWARF of
# guest/modules/probe_target, twice: the host's perf (libdw of the build
# machine) wrote definitions into /opt/perf-probe (harness/perf-probe-defs.sh);
# the guest's own perf (harness/build-elfutils.sh's libdw) writes the same
# ones here, from the module installed in /lib/modules (its source, for
# -L, from /opt/perf-probe).  Each set: pt_mix's
# arguments at its entry, its locals at the PT_LINE line, its return value,
# perf probe -L and -V.  pt_mix(7, 22) has sq 49, mixed 49 ^ 22 = 39 and
# returns 88; the arguments and the return value are also probed by hand
# ($argN, $retval).
pp_names="defs args line return L V"

# guest_defs DIR KO: the guest's perf writes what perf-probe-defs.sh
# writes, from the module KO (its source, for -L, from /opt/perf-probe)
guest_defs() {
	if [ -z "$2" ]; then
		rm -rf "$1" && mkdir -p "$1"
		echo "no probe_target.ko in /lib/modules" >"$1/entry.err"
		return
	fi
	guest_probe_defs "$1" pt_mix PT_LINE 'a b' 'sq mixed' -m "$2" -s /opt/perf-probe
}

# probe_checks PREFIX DIR WHOSE: the checks PREFIX-{defs,args,...} on the
# definitions and listings in DIR
probe_checks() {
	_p=$1 pp=$2 _who=$3
	probe_defs_missing $pp >/tmp/pp.missing
	check "$_p-defs" "perf probe ($_who) gave no definition for: $(cat /tmp/pp.missing)" \
		test ! -s /tmp/pp.missing
	modprobe probe_target
	probe_defs_add $pp
	# shellcheck disable=SC2016 # $arg1, $retval: the kprobe event's
	{
		echo 'p:hand/mix probe_target:pt_mix a=$arg1:s32 b=$arg2:s32'
		echo 'r:hand/ret probe_target:pt_mix ret=$retval:s32'
	} >>$T/kprobe_events
	echo >$T/trace
	echo 1 >$T/events/hand/enable
	echo 1 >$T/events/probe/enable
	echo 7 >/sys/module/probe_target/parameters/run
	echo 0 >$T/events/probe/enable
	echo 0 >$T/events/hand/enable
	cat $T/trace >/tmp/pp.trace
	e=$(evname "$(head -n 1 $pp/entry.def 2>/dev/null)")
	a=$(field "$e" a) b=$(field "$e" b)
	check "$_p-args" "$_who's $e: a=$a b=$b, by hand: a=$(field hand/mix a) b=$(field hand/mix b), expected 7 22" \
		test "$a $b" = "7 22" -a "$(field hand/mix a) $(field hand/mix b)" = "7 22"
	e=$(evname "$(head -n 1 $pp/line.def 2>/dev/null)")
	check "$_p-line" "$_who's $e: sq=$(field "$e" sq) mixed=$(field "$e" mixed), expected 49 39" \
		test "$(field "$e" sq) $(field "$e" mixed)" = "49 39"
	e=$(evname "$(head -n 1 $pp/return.def 2>/dev/null)")
	# perf gives $retval no type: the value prints in hex
	r=$(field "$e" arg1)
	check "$_p-return" "$_who's $e: arg1=$r, by hand: ret=$(field hand/ret ret), expected 88" \
		sh -c "[ '$r' = 0x58 ] && [ '$(field hand/ret ret)' = 88 ]"
	echo "PP-TRACE ($_who): $(grep -c . /tmp/pp.trace) lines; definitions:"; cat $pp/*.def
	grep -v '^#' /tmp/pp.trace | sed 's/^/PP-TRACE /' | head -n 10
	echo >$T/kprobe_events
	rmmod probe_target
	# perf probe -L numbers the lines a probe can be put on; -V lists the
	# variables there
	rel=$(cat $pp/rel 2>/dev/null)
	check "$_p-L" "$_who: perf probe -L pt_mix does not number line $rel, PT_LINE: $(head -c 400 $pp/lines.txt 2>/dev/null) $(head -c 200 $pp/lines.err 2>/dev/null)" \
		grep -qE "^ +${rel:-x} +.*PT_LINE" $pp/lines.txt
	check "$_p-V" "$_who: perf probe -V pt_mix:$rel does not list sq and mixed: $(head -c 400 $pp/vars.txt 2>/dev/null)" \
		sh -c "grep -qE '(int|s32)[[:space:]]+sq' $pp/vars.txt && grep -qE '(int|s32)[[:space:]]+mixed' $pp/vars.txt"
}
# field EVENT NAME: NAME's value in EVENT's line of the trace
field() {
	grep " ${1#*/}: " /tmp/pp.trace | head -n 1 |
		sed -n "s/.* $2=\\([^ ]*\\).*/\\1/p"
}

case $(uname -r) in
6.12*)	# the frozen 6.12 port has no patch 0070
	for c in $pp_names; do
		skip "perf-probe-$c" "6.12's perf has no m68k DWARF register names"
		skip "perf-probe-guest-$c" "6.12's perf has no m68k DWARF register names"
	done
	skip perf-probe-guest-add "6.12's perf has no m68k DWARF register names" ;;
*)
	probe_checks perf-probe /opt/perf-probe "the host's perf"
	ko=$(find /lib/modules/"$(uname -r)" -name probe_target.ko | head -n 1)
	guest_defs /tmp/pp-guest "$ko"
	probe_checks perf-probe-guest /tmp/pp-guest "the guest's perf"
	# perf probe -a adds the event itself, -l lists it, -d removes it
	modprobe probe_target
	$P probe -q -m "$ko" -a 'ppadd=pt_mix a b' >/tmp/pp-add.out 2>&1
	$P probe -l >>/tmp/pp-add.out 2>&1
	listed=$(grep -c 'probe:ppadd.*pt_mix' /tmp/pp-add.out)
	$P probe -q -d 'probe:ppadd' >>/tmp/pp-add.out 2>&1
	check perf-probe-guest-add "perf probe -a/-l/-d: listed $listed, left: $(grep ppadd $T/kprobe_events); $(head -c 400 /tmp/pp-add.out)" \
		sh -c "[ '$listed' = 1 ] && ! grep -q ppadd $T/kprobe_events"
	rmmod probe_target
	;;
esac
trace_reset
check_done
