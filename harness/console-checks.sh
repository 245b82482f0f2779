#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# console-checks.sh WHAT LOG [VMLINUX]: the checks of a boot without userland
# (MACHINE=mcf5208: ColdFire has no MMU and no libc), made on the host
# from its console log and printed as CHECK lines for harness/results.py.
#
#   selftests  the tracing self tests (CONFIG_FTRACE_STARTUP_TEST and
#              the event self tests) and lib/atomic64_test.c: the same
#              checks guest/tests/boot-selftests.sh makes from dmesg in
#              the MMU guests (the KUnit suites' results in LOG are read
#              by harness/results.py itself); with VMLINUX, the ColdFire
#              kprobes instruction decoder against objdump at every
#              instruction of that kernel and every opcode
#              (harness/tests/decode-insn/check.py --coldfire)
#   boottrace  the trace events enabled from boot (configs/boottrace.config)
#              that ftrace_dump_on_oops printed at the root mount panic:
#              the entry code's irq-flags hooks (every interrupt handler
#              runs after an irq_disable from inthandler; the return to
#              the interrupted kernel code traces irq_enable; both name
#              the interrupted function as parent), a trace clock finer
#              than the jiffy, the function tracer's entries, which
#              ftrace_filter=do_IRQ confines to do_IRQ, a kprobe event's
#              argument and a kretprobe event's return
#   lockdep    the locking API self tests of a lockdep kernel passed (the
#              FLAT init checks that lockdep is still on after its run)
#   bootgraph  function_graph from boot (configs/bootgraph.config),
#              dumped at the root mount panic: do_IRQ alone at the top
#              (ftrace_graph_filter), what it calls nested below it, and
#              durations timed to the microsecond
set -uo pipefail
usage() { echo "usage: console-checks.sh selftests|boottrace|bootgraph|lockdep CONSOLE-LOG [VMLINUX]" >&2; exit 2; }
[ $# -eq 2 ] || [ $# -eq 3 ] || usage
what=$1 log=$2 vmlinux=${3:-}
[ -f "$log" ] || { echo "console-checks: no console log $log" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=guest/lib.sh
. "$top/guest/lib.sh"

BOOT_TMP=$(mktemp -d)
trap 'rm -rf "$BOOT_TMP"' EXIT
# boottrace, bootgraph: what ftrace_dump_on_oops printed after its banner
printed=
# bootconfig_check NAME: the boot-time tracing came from the bootconfig
# embedded in the kernel (configs/VARIANT.bconf): it was loaded, and the
# tracer, events and filters are none of the command line's options
# (its kernel.* keys, which bootconfig adds to the command line, are
# buffer size, dump and graph filter parameters)
bootconfig_check() {
	local cmdline
	cmdline=$(grep -m1 '^Kernel command line: ' "$log")
	from_bootconfig() {
		grep -q '^Load bootconfig: [0-9]* bytes [0-9]* nodes' "$log" && [ -n "$cmdline" ] &&
			! grep -qE '(ftrace|ftrace_filter|trace_event|kprobe_event)=' <<<"$cmdline"
	}
	check "$1" "no 'Load bootconfig' line, or tracing set up on the command line: $cmdline" \
		from_bootconfig
}
case $what in boottrace|bootgraph) printed=$(sed -n '/^Dumping ftrace buffer:/,$p' "$log") ;; esac
case $what in
selftests)
	BOOT_LOG=$log
	# shellcheck source=guest/tests/boot-selftests.sh
	. "$top/guest/tests/boot-selftests.sh"
	# kernel/trace/trace_kprobe.c's self test (a kprobe and a kretprobe
	# event on a function of its own), which prints with its prefix
	check selftest:kprobe_tracing "no 'Testing kprobe tracing: OK' in the boot log" \
		grep -q '^trace_kprobe: Testing kprobe tracing: OK' "$BOOT_TMP/dmesg.txt"
	if [ -n "$vmlinux" ]; then
		out=$(python3 "$top/harness/tests/decode-insn/check.py" --coldfire \
			--workdir "$BOOT_TMP/decode-insn" "$vmlinux" 2>&1)
		rc=$?
		printf '%s\n' "$out" >"${log%.log}.decode-insn"
		check decode-insn:coldfire "exit $rc: $(grep -E '^decode-insn' <<<"$out" |
			sed 's/ (.*;/;/' | tr '\n' ' ') (all: ${log%.log}.decode-insn)" test "$rc" -eq 0
	fi
	;;
boottrace)
	bootconfig_check trace:bootconfig
	# the dump's events: "TASK-PID CPU FLAGS TIMEus : EVENT: FIELDS"
	dump=$(grep -E '^ *[^ ].* [0-9]+us : [a-z_]+: ' <<<"$printed")
	n=$(printf '%s\n' "$dump" | grep -c . || true)
	check trace:dump "ftrace_dump_on_oops printed $n events, want >= 100" \
		test "$n" -ge 100
	# every irq_handler_entry comes after an irq_disable from inthandler,
	# with no irq_enable in between
	bad=$(printf '%s\n' "$dump" | awk '
		/ irq_disable: / { last = ($0 ~ /caller=inthandler\+/) ? "entry" : "other"; next }
		/ irq_enable: / { last = "on"; next }
		/ irq_handler_entry: / { n++; if (last != "entry") bad++ }
		END { if (n == 0) print "no irq_handler_entry event"; else if (bad) print bad " of " n " handlers ran without the entry hook" }')
	check trace:irq-entry-hook "$bad" test -z "$bad"
	check trace:irq-return-hook "no irq_enable from the return to kernel mode (Lkernel_return)" \
		grep -q " irq_enable: caller=Lkernel_return+" <<<"$dump"
	# the hooks' frame makes the interrupted PC their caller's caller:
	# an interrupt's irq_disable and the irq_enable of its return name
	# the same kernel function as parent
	bad=$(awk '
		/ irq_disable: caller=inthandler\+/ { p = $0; sub(/.* parent=/, "", p); open = 1; next }
		open && / irq_enable: caller=Lkernel_return\+/ {
			q = $0; sub(/.* parent=/, "", q); n++; open = 0
			if (p !~ /^[A-Za-z_][A-Za-z0-9_.]*\+0x/ || p != q) bad = bad " " p "/" q
		}
		END { if (n == 0) print "no interrupt with both hooks"; else if (bad != "") print "parents:" bad }' <<<"$dump")
	check trace:irq-hook-frame "$bad" test -z "$bad"
	# the function tracer from boot, filtered to do_IRQ (dynamic ftrace:
	# every other call site stays a no-op): "TIMEus : do_IRQ <-inthandler",
	# or, once the kretprobe below hooks do_IRQ's return address, the
	# output's name for its trampoline as the parent
	funcs=$(grep -E ' [0-9]+us : [A-Za-z_][A-Za-z0-9_.]* <-' <<<"$printed")
	nf=$(grep -c . <<<"$funcs" || true)
	other=$(grep -vE " : do_IRQ <-(inthandler|\[unknown/kretprobe'd\])$" <<<"$funcs" |
		head -3 | sed 's/.* : //' | tr '\n' ';')
	check trace:function-filter "$nf function entries, want >= 1, all do_IRQ <-inthandler (others: $other)" \
		test "$nf" -ge 1 -a -z "$other"
	# the kprobe event on do_IRQ's entry: its argument, read at 4(%sp)
	# (kernel_stack_pointer() of the breakpoint's frame), is the irq that
	# the handler's irq_handler_entry reports next
	bad=$(awk '
		/ irq_arg: \(do_IRQ\+0x0\// { a = $0; sub(/.* irq=/, "", a); open = 1; n++; next }
		open && / irq_handler_entry: / {
			i = $0; sub(/.* irq=/, "", i); sub(/ .*/, "", i); m++; open = 0
			if (i != a) bad++
		}
		END {
			if (n == 0) print "no irq_arg event"
			else if (m == 0) print "no irq_handler_entry after an irq_arg event"
			else if (bad) print bad " of " m " irq_arg values are not the irq handled next"
		}' <<<"$dump")
	check trace:kprobe-arg "$bad" test -z "$bad"
	# the kretprobe event: do_IRQ returns to inthandler, through the
	# rethook trampoline
	rets=$(grep -E ' irq_ret: ' <<<"$dump")
	nr=$(grep -c . <<<"$rets" || true)
	other=$(grep -vE ' irq_ret: \(inthandler\+0x[0-9a-f]+/0x[0-9a-f]+ <- do_IRQ\)$' <<<"$rets" |
		head -2 | sed 's/.* : //' | tr '\n' ';')
	check trace:kretprobe "$nr irq_ret events, want >= 1, all (inthandler+... <- do_IRQ) (others: $other)" \
		test "$nr" -ge 1 -a -z "$other"
	# jiffies would give a handful of distinct times 10 ms apart
	clock=$(printf '%s\n' "$dump" | sed -n 's/.* \([0-9]\+\)us : .*/\1/p' | sort -nu | awk '
		NR > 1 && $1 - prev > 0 && (min == "" || $1 - prev < min) { min = $1 - prev }
		{ prev = $1; n++ }
		END { print n + 0, (min == "" ? -1 : min) }')
	read -r times step <<<"$clock"
	check trace:clock-us "$times distinct event times, smallest step ${step} us: want >= 50 and < 100 us" \
		test "$times" -ge 50 -a "$step" -ge 0 -a "$step" -lt 100
	;;
bootgraph)
	bootconfig_check graph:bootconfig
	# function_graph's lines: "CPU) DURATION | <2 + 2 * depth spaces>CALL",
	# e.g. " 0)               |  do_IRQ() {", " 0)   1.536 us    |    f();"
	graph=$(grep -E '^ *[0-9]+\) .*\| ' <<<"$printed")
	calls=$(sed -n 's/^[^|]*| \( *\)\([A-Za-z_][A-Za-z0-9_.]*\)() *[{;].*$/\1|\2/p' <<<"$graph" |
		awk -F'|' '{ print (length($1) - 1) / 2, $2 }')
	nc=$(grep -c . <<<"$calls" || true)
	check graph:calls "$nc function_graph calls in the dump, want >= 20" test "$nc" -ge 20
	# The filter: nothing but do_IRQ at the top.  An interrupt may also
	# show do_IRQ at depth 1 without a caller: fgraph counts a function's
	# depth (function_graph_enter_regs(): ++curr_ret_depth) before it asks
	# the tracer whether the filter wants it, and undoes that only after,
	# so an interrupt landing in that window, in any traced-then-refused
	# function, finds the depth one up.  (A nested do_IRQ inside an open
	# one is the same call at depth 2 or more: not counted.)
	other=$(awk '$1 == 0 && $2 != "do_IRQ" { print $2 }' <<<"$calls" | sort -u | head -3 | tr '\n' ' ')
	ntop=$(awk '$1 == 0' <<<"$calls" | grep -c . || true)
	nirq=$(awk '$1 <= 1 && $2 == "do_IRQ"' <<<"$calls" | grep -c . || true)
	check graph:filter "$nirq do_IRQ calls at depth 0 or 1 ($ntop calls at depth 0), want >= 3; nothing else at depth 0 (others: $other)" \
		test "$nirq" -ge 3 -a -z "$other"
	nested=$(awk '$1 >= 1' <<<"$calls" | grep -c . || true)
	check graph:nested "$nested calls below do_IRQ, want >= 10" test "$nested" -ge 10
	# durations ("1.536 us"); a jiffies clock gives 0 or 10000 us
	printf '%s\n' "$graph" >"$BOOT_TMP/graph.txt"
	read -r n distinct min step < <(graph_durations "$BOOT_TMP/graph.txt")
	check graph:durations-us "$n durations, $distinct distinct, shortest nonzero $min us, smallest step $step us: want >= 20, >= 5, < 1000 us, <= 2 us" \
		awk -v n="$n" -v d="$distinct" -v m="$min" -v s="$step" \
		'BEGIN { exit !(n >= 20 && d >= 5 && m != "none" && m < 1000 && s != "none" && s <= 2) }'
	;;
lockdep)
	# lib/locking-selftest.c's summary (any failure prints another)
	check locks:selftests "no 'Good, all N testcases passed' from the locking API self tests" \
		grep -q 'Good, all [0-9]* testcases passed' "$log"
	;;
*) usage ;;
esac
[ "$CHECK_FAILED" -eq 0 ]
