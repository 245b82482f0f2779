#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Uprobe events on /usr/bin/uprobe-target (guest/src/uprobe-target.c), a
# static, stripped, non-PIE program.  The guest has no objdump and the
# program has no symbols, so it prints the file offset of each probe
# point itself ("uprobe-target offsets": the function's address minus its
# PT_LOAD segment's vaddr plus the segment's file offset).
#  - entry probes read the arguments ($stackN, +4($stack)) and a string;
#    a uretprobe reads $retval, also through a recursive function;
#  - probes on the instructions that are stepped out of line in special
#    ways (PC-relative operands, jsr (d16,%pc), a taken dbf and bne) or
#    simulated (bsr): the program checks its results, so a wrong step
#    makes it fail, and %d0 at each point is known;
#  - several processes hit the same probes;
#  - a trap #0 and an odd offset cannot be probed;
#  - events removed while processes run: the processes carry on.
. /harness/lib.sh

U=$T/uprobe_events
BIN=/usr/bin/uprobe-target
runq() { $BIN run "$1" >/dev/null; }

if [ ! -e $U ]; then
	skip uprobes "no $U (CONFIG_UPROBE_EVENTS is off)"
	check_done
	exit
fi

trace_reset
echo >$U
offs=$($BIN offsets)
check up-offsets "uprobe-target offsets: $offs" [ -n "$offs" ]
eval "$offs"
check up-baseline "uprobe-target fails without probes" runq 3

# entry arguments: add3(i, 10i, 100i); 0(%sp) is the return address
echo "p:uprobes/add3 $BIN:$add3 a=\$stack1:s32 b=\$stack2:s32 c=\$stack3:s32 a4=+4(\$stack):s32" >>$U
check up-add3-added "add3 refused: $(cat $U)" grep -q 'uprobes/add3 ' $U
echo 1 >$T/events/uprobes/add3/enable
check up-add3-run "uprobe-target fails with a probe on add3" runq 5
check up-add3-hits "$(event_hits add3 .) add3 hits, not 5" [ "$(event_hits add3 .)" -eq 5 ]
check up-add3-args "no add3 hit with a=3 b=30 c=300 a4=3" \
	[ "$(event_hits add3 'a=3 b=30 c=300 a4=3')" -eq 1 ]

# a uretprobe on the same function
echo "r:uprobes/add3r $BIN:$add3 ret=\$retval:s32" >>$U
echo 1 >$T/events/uprobes/add3r/enable
echo >$T/trace
check up-add3r-run "uprobe-target fails with a uretprobe on add3" runq 5
check up-add3r-hits "$(event_hits add3r .) add3 returns, not 5" [ "$(event_hits add3r .)" -eq 5 ]
check up-add3r-retval "no add3 return with ret=555" [ "$(event_hits add3r 'ret=555')" -eq 1 ]
echo 0 >$T/events/uprobes/enable

# a string argument
echo "p:uprobes/greet $BIN:$greet name=+0(\$stack1):string" >>$U
echo 1 >$T/events/uprobes/greet/enable
echo >$T/trace
check up-greet-run "uprobe-target fails with a probe on greet" runq 3
check up-greet-string "$(event_hits greet 'name="uprobe-target"') hits with the name, not 3" \
	[ "$(event_hits greet 'name="uprobe-target"')" -eq 3 ]
echo 0 >$T/events/uprobes/greet/enable

# recursion: fact(6) enters 6 times and returns 6 times
echo "p:uprobes/fact $BIN:$fact n=\$stack1:s32" >>$U
echo "r:uprobes/factr $BIN:$fact ret=\$retval:s32" >>$U
echo 1 >$T/events/uprobes/fact/enable
echo 1 >$T/events/uprobes/factr/enable
echo >$T/trace
check up-fact-run "uprobe-target fails with probes on fact" runq 1
check up-fact-entries "$(event_hits fact 'n=') entries, not 6" [ "$(event_hits fact 'n=')" -eq 6 ]
check up-fact-returns "returns: $(grep ' factr: ' $T/trace | sed 's/.*ret=//' | tr '\n' ' ')" \
	sh -c "[ \"\$(grep ' factr: ' $T/trace | sed 's/.*ret=//' | tr '\n' ' ')\" = '1 2 6 24 120 720 ' ]"
echo 0 >$T/events/uprobes/enable

# the stepped and simulated instruction kinds in pcrel_fn (2 rounds)
for p in pc_lea pc_add pc_jsr pc_bsr pc_loop pc_dbf pc_bne; do
	eval off=\$$p
	echo "p:uprobes/$p $BIN:$off d0=%d0:x32" >>$U
	echo 1 >$T/events/uprobes/$p/enable
done
echo >$T/trace
check up-pcrel-run "pcrel_fn gives a wrong result under probes" runq 2
check up-pc-lea "$(event_hits pc_lea .) pc_lea hits, not 2" [ "$(event_hits pc_lea .)" -eq 2 ]
check up-pc-add "$(event_hits pc_add d0=0x100) pc_add hits with d0=0x100, not 2" \
	[ "$(event_hits pc_add d0=0x100)" -eq 2 ]
check up-pc-jsr "$(event_hits pc_jsr d0=0x120) pc_jsr hits with d0=0x120, not 2" \
	[ "$(event_hits pc_jsr d0=0x120)" -eq 2 ]
check up-pc-bsr "$(event_hits pc_bsr d0=0x121) pc_bsr hits with d0=0x121, not 2" \
	[ "$(event_hits pc_bsr d0=0x121)" -eq 2 ]
check up-pc-loop "$(event_hits pc_loop .) pc_loop hits, not 6" [ "$(event_hits pc_loop .)" -eq 6 ]
check up-pc-dbf "$(event_hits pc_dbf .) pc_dbf hits, not 6" [ "$(event_hits pc_dbf .)" -eq 6 ]
check up-pc-bne "$(event_hits pc_bne d0=0x125) pc_bne hits with d0=0x125, not 2" \
	[ "$(event_hits pc_bne d0=0x125)" -eq 2 ]
echo 0 >$T/events/uprobes/enable

# several processes at once
echo 1 >$T/events/uprobes/add3/enable
echo 1 >$T/events/uprobes/add3r/enable
echo >$T/trace
runq 20 & p1=$!
runq 20 & p2=$!
runq 20 & p3=$!
st=0
for p in $p1 $p2 $p3; do wait $p || st=$((st + 1)); done
check up-procs-run "$st of 3 processes failed" [ $st -eq 0 ]
check up-procs-hits "$(event_hits add3 .) add3 hits, $(event_hits add3r .) returns, not 60 each" \
	[ "$(event_hits add3 .)/$(event_hits add3r .)" = 60/60 ]
npid=$(grep ' add3: ' $T/trace | sed 's/^ *uprobe-target-\([0-9]*\) .*/\1/' | sort -u | wc -l)
check up-procs-pids "add3 hits from $npid processes, not 3" [ "$npid" -eq 3 ]

# events removed while processes run (entries, returns, recursion)
echo 1 >$T/events/uprobes/fact/enable
echo 1 >$T/events/uprobes/factr/enable
echo >$T/trace
$BIN spin 4 >/dev/null & p1=$!
$BIN spin 4 >/dev/null & p2=$!
sleep 1
echo 0 >$T/events/uprobes/enable
# (count now: once an event is gone, its entries in the buffer have no format)
before=$(grep -c ' add3: ' $T/trace)
echo >$U
check up-removed "uprobe_events not empty: $(cat $U)" absent . $U
st=0
for p in $p1 $p2; do wait $p || st=$((st + 1)); done
check up-removed-run "$st of 2 processes failed after the events went" [ $st -eq 0 ]
check up-removed-hit "$before add3 hits before the removal" [ "$before" -gt 0 ]
echo >$T/trace
runq 3
check up-removed-quiet "$(grep -vc '^#' $T/trace) trace entries after the removal" \
	sh -c "! grep -qv '^#' $T/trace"

# an instruction that cannot be stepped out of line (trap #0): enabling
# the probe while the program runs fails (the breakpoint goes into the
# running process at once); enabled while nothing maps the file, the
# breakpoint is refused at each new mapping, silently.  Either way the
# program runs as before and nothing hits.
echo "p:uprobes/trap $BIN:$pc_trap" >>$U
echo >$T/trace
$BIN spin 2 >/dev/null & p1=$!
sleep 1
check up-trap-refused "a probe on trap #0 was enabled in a running uprobe-target" \
	sh -c "! echo 1 2>/dev/null >$T/events/uprobes/trap/enable"
wait $p1
st=$?
check up-trap-running "uprobe-target failed under the refused probe (status $st)" [ $st -eq 0 ]
echo 1 >$T/events/uprobes/trap/enable
check up-trap-run "uprobe-target fails with the probe on trap #0 enabled" runq 3
echo 0 >$T/events/uprobes/trap/enable
check up-trap-no-hits "hits on the refused probe: $(grep -c ' trap: ' $T/trace)" \
	sh -c "! grep -q ' trap: ' $T/trace"
echo "-:uprobes/trap" >>$U

# an odd offset cannot be a probe point
echo "p:uprobes/odd $BIN:$(printf 0x%x $((add3 + 1)))" >>$U 2>/dev/null
check up-odd-refused "a probe at an odd offset was enabled" \
	sh -c "! echo 1 2>/dev/null >$T/events/uprobes/odd/enable"
echo >$U 2>/dev/null

check up-no-warnings "$(dmesg | grep -i 'uprobe' | tail -n 3)" \
	sh -c "! dmesg | grep -q 'uprobe: .*SIGILL\|WARNING:'"
trace_reset
check_done
