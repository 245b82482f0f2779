#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A corrupted call site (harness/check.sh boots this with qemu-run
# --expect-warning ftrace_bug: its one WARNING is the point, and the
# console is read to the end for anything else).  ftrace_site_test.ko
# (guest/modules) overwrites its own fst_victim's call site, a trapf.l
# no-op, with three nops; tracing that function must then make the arch
# code refuse the site (the bytes are not the ones it expects) and ftrace
# report it through ftrace_bug(), which disables ftrace for good: no
# crash, the foreign bytes left alone, the rest of tracing still working,
# and no console problem but ftrace_bug()'s own warning.
. /harness/lib.sh

M=/sys/module/ftrace_site_test/parameters
problems='WARNING:|BUG:|Oops|Unable to handle|Kernel panic|cut here|Call Trace'

check fb-load "modprobe ftrace_site_test failed" modprobe ftrace_site_test
site0=$(cat $M/site)
echo "site before: $site0"
check fb-site "fst_victim has no trapf.l site: '$site0'" \
	sh -c "echo '$site0' | grep -qE '^51fb [0-9a-f]{4} [0-9a-f]{4}\$'"
check fb-call "fst_victim(13) is $(cat $M/call), not 40" [ "$(cat $M/call)" = 40 ]
check fb-listed "fst_victim is not in available_filter_functions" \
	grep -q '^fst_victim \[ftrace_site_test\]' $T/available_filter_functions
check fb-clean-console "a problem on the console before the test" \
	sh -c "! dmesg | grep -qE '$problems'"

echo 1 >$M/corrupt
check fb-corrupted "the site reads '$(cat $M/site)'" [ "$(cat $M/site)" = "4e71 4e71 4e71" ]
check fb-call-corrupted "fst_victim(13) is $(cat $M/call) with nops" [ "$(cat $M/call)" = 40 ]

echo fst_victim >$T/set_ftrace_filter
echo function >$T/current_tracer
sleep 1
dmesg >/tmp/dmesg

# the report names the site and shows both byte strings
exp=$(echo "$site0" | sed 's/\(..\)\(..\) \(..\)\(..\) \(..\)\(..\)/\1:\2:\3:\4:\5:\6/')
check fb-report "no 'ftrace failed to modify' naming fst_victim's site" \
	sh -c "grep -A1 'ftrace failed to modify' /tmp/dmesg |
		grep -qE '\\] fst_victim\\+0x[0-9a-f]+/0x[0-9a-f]+ \\[ftrace_site_test\\]'"
check fb-actual "no ' actual: 4e:71:4e:71:4e:71'" \
	grep -qE 'actual: +4e:71:4e:71:4e:71' /tmp/dmesg
check fb-expected "no ' expected: $exp' (the no-op that was there)" \
	grep -qE "expected: +$exp" /tmp/dmesg
check fb-warning "not exactly one WARNING, in ftrace_bug" \
	sh -c "[ \$(grep -c 'WARNING:' /tmp/dmesg) = 1 ] &&
		grep -qE 'WARNING: (.* )?kernel/trace/ftrace.c:[0-9]* (at )?ftrace_bug' /tmp/dmesg"
check fb-no-crash "BUG/Oops on the console" \
	sh -c "! grep -qE 'BUG:|Oops|Unable to handle|Kernel panic' /tmp/dmesg"

# the arch code wrote nothing over the foreign bytes
check fb-untouched "the site now reads '$(cat $M/site)'" [ "$(cat $M/site)" = "4e71 4e71 4e71" ]
check fb-call-after "fst_victim(13) is $(cat $M/call) afterwards" [ "$(cat $M/call)" = 40 ]
# ftrace_bug() turned function tracing off for good ...
check fb-disabled "set_ftrace_filter still accepts writes" \
	sh -c "! echo vfs_read >$T/set_ftrace_filter 2>/dev/null"
# ... and the rest of tracing goes on: an event still records
echo nop >$T/current_tracer
echo >$T/trace
echo 1 >$T/events/sched/sched_process_exec/enable
/bin/true
echo 0 >$T/events/sched/sched_process_exec/enable
check fb-events "sched_process_exec no longer records" grep -q 'sched_process_exec:.*filename=/bin/true' $T/trace
# the checks other suites rely on for "tracing still works" notice that
# function tracing is gone.  One round only: 6.12's register_ftrace_graph()
# leaves its sched_switch probe registered when ftrace is off, so a second
# function_graph start warns in tracepoint_add_func() (generic code)
rounds=$(switch_tracers 1)
check fb-switch-notices "switch_tracers counted $rounds rounds with ftrace off" \
	test "$rounds" -eq 0
if healthy; then
	fail fb-healthy-notices "healthy passed with ftrace off"
else
	pass fb-healthy-notices
fi
workload
check fb-rmmod "rmmod ftrace_site_test failed" rmmod ftrace_site_test
check_done
