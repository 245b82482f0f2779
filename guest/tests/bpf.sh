#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# BPF on the livepatch kernel (configs/bpf.config), run by the interpreter:
# m68k has no BPF JIT.
# 1. lib/test_bpf, the kernel's own test vectors for the interpreter and
#    the JITs, one suite at a time (test_bpf, test_tail_calls,
#    test_skb_segment): its summary must say 0 FAILED, and a suite that
#    prints no summary fails.  The failing cases are named.
# 2. A program on each hook the interpreter can serve (bpfhook, from
#    guest/src/bpfhook.c: loaded through bpf(), counting this process's
#    hits in an array map), each against a workload that passes the hook
#    a known number of times: getppid() 1000 times for the kprobe,
#    kretprobe, fprobe (kprobe_multi) and tracepoint programs, a user
#    function 1000 times for the uprobes, 64 fresh pages for the page
#    fault perf event.  A return probe's program reads the return value
#    from pt_regs (m68k's d0, at offset 32): it must be what the workload
#    got; a tracepoint program reads the system call's number.  A
#    kprobe_multi link (patches 0081, 0082: 32-bit architectures had none) must
#    name its function in its fdinfo.
. /harness/lib.sh

if [ ! -e /proc/sys/kernel/unprivileged_bpf_disabled ]; then
	skip bpf "no bpf() system call (BPF_SYSCALL is off)"
	check_done
	exit
fi

# --- lib/test_bpf ---
for s in test_bpf test_tail_calls test_skb_segment; do
	dmesg -c >/dev/null
	modprobe test_bpf test_suite=$s
	rc=$?
	rmmod test_bpf 2>/dev/null
	log=$(dmesg)
	# "test_bpf: Summary: ..." or "test_bpf: test_tail_calls: Summary: ..."
	sum=$(echo "$log" | sed -n 's/.*test_bpf: \(test_[a-z_]*: \)\{0,1\}Summary: //p' | tail -n 1)
	echo "bpf: $s: $sum (modprobe: $rc)"
	failed=$(echo "$log" | grep -E 'test_bpf: #[0-9]+ .*FAIL' | sed 's/.*test_bpf: //' | head -n 20)
	case $sum in
	*" PASSED, 0 FAILED"*)
		if [ $rc -eq 0 ]; then
			pass "bpf:$s"
		else
			fail "bpf:$s" "modprobe failed ($rc) but the summary says: $sum"
		fi ;;
	'')	fail "bpf:$s" "no summary (modprobe: $rc): $(echo "$log" | tail -n 3)" ;;
	*)	fail "bpf:$s" "$sum; $(echo "$failed" | tr '\n' ';')" ;;
	esac
done

# --- programs on the hooks ---
# bpfhook's line must show a hit per workload pass and, where it says
# what the value must be, that value
# field NAME: the word after NAME in bpfhook's line
# ("hook H hits N calls C value V expect E [events P] [func F]")
field() {
	echo "$line" | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'
}
for h in kprobe kretprobe kprobe_multi kretprobe_multi tracepoint raw_tracepoint \
	 perf_event uprobe uretprobe; do
	out=$(bpfhook $h 2>&1)
	rc=$?
	echo "bpf: $(echo "$out" | tail -n 1)"
	if [ $rc -ne 0 ]; then
		fail "bpf:hook-$h" "bpfhook failed ($rc): $(echo "$out" | tail -n 8 | tr '\n' ' ')"
		continue
	fi
	line=$(echo "$out" | tail -n 1)
	hits=$(field hits) calls=$(field calls) value=$(field value)
	expect=$(field expect) events=$(field events)
	if [ -z "$hits" ] || [ -z "$calls" ]; then
		fail "bpf:hook-$h" "no counts in bpfhook's output: $line"
		continue
	fi
	if [ "$h" = perf_event ]; then
		# one hit per counted fault, and at least one per page touched
		if [ "$hits" -eq "$events" ] && [ "$hits" -ge "$calls" ]; then
			pass "bpf:hook-$h"
		else
			fail "bpf:hook-$h" "$hits hits for $events page faults ($calls pages touched)"
		fi
	elif [ "${h#*_}" = multi ] && [ "$(field func)" != sys_getppid ]; then
		fail "bpf:hook-$h" "the link's fdinfo names '$(field func)', not sys_getppid"
	elif [ "$hits" -ne "$calls" ]; then
		fail "bpf:hook-$h" "$hits hits for $calls passes"
	elif [ "$expect" != - ] && [ "$value" != "$expect" ]; then
		fail "bpf:hook-$h" "the program read $value, the workload got $expect"
	else
		pass "bpf:hook-$h"
	fi
done
check_done
