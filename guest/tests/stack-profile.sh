#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The stack tracer and the function profiler (both ride on the function
# tracer; run on both kernels), and user stack traces (7.3).
. /harness/lib.sh

# --- stack tracer: the deepest kernel stack seen during a workload ---
trace_reset
echo 0 >/proc/sys/kernel/stack_tracer_enabled
echo 0 >$T/stack_max_size
echo 1 >/proc/sys/kernel/stack_tracer_enabled
workload
echo 0 >/proc/sys/kernel/stack_tracer_enabled
max=$(cat $T/stack_max_size)
cat $T/stack_trace
check stack-max-size "stack_max_size is '$max'" test "$max" -gt 0

# "  N)  DEPTH  SIZE  func+0xoff/0xlen": each frame's size is its depth
# minus the next frame's depth, and every location lies inside a kernel
# function.  stack_max_size leaves out the tracer's own frames, an
# overhead the core measures once, at the first maximum: the top frame's
# depth is stack_max_size plus at most a few tracer frames (the first
# maximum may be taken through ftrace_ops_list_func, later ones not).
sed -n 's/^ *\([0-9]*\)) *\([0-9]*\) *\([0-9]*\) *\([^ ]*\).*/\1 \2 \3 \4/p' \
	$T/stack_trace >/tmp/frames
nframes=$(wc -l </tmp/frames)
check stack-frames "only $nframes frames listed" test "$nframes" -ge 5
bad=$(awk -v max="$max" '
	NR == 1 && ($2 < max || $2 > max + 256) { print "top depth " $2 ", stack_max_size " max }
	NR > 1 && pdepth - $2 != psize { print "frame " pn ": size " psize " != " pdepth " - " $2 }
	{ pn = $1; pdepth = $2; psize = $3 }
	END { if (psize > pdepth) print "last frame size " psize " > depth " pdepth }' /tmp/frames)
check stack-sizes-add-up "$bad" test -z "$bad"
nonk=
while read -r _n _d _s loc; do
	fn=${loc%%+*}
	off=${loc#*+}
	len=${off#*/}
	off=${off%/*}
	if ! is_kernel_text "$fn" || [ $((off)) -ge $((len)) ]; then
		nonk="$nonk $loc"
	fi
done </tmp/frames
check stack-frames-in-kernel "not inside kernel functions:$nonk" test -z "$nonk"
# the walk ends at an entry to the kernel (arch/m68k/kernel/entry.S: the
# syscall path, an interrupt or exception, a new task or kernel thread)
outer=$(tail -n 1 /tmp/frames)
check stack-outermost "outermost frame '$outer' is not a kernel entry" \
	eval 'echo "$outer" | grep -qE " (system_call|syscall|ret_from_[a-z_]+|kthread|[a-z_]*inthandler|buserr|trap)\+"'

# --- function profiler: hit counts and times per function ---
trace_reset
echo 0 >$T/function_profile_enabled
echo 1 >$T/function_profile_enabled
# 300 one-byte reads: vfs_read is called at least 300 times
dd if=/dev/zero of=/dev/null bs=1 count=300 2>/dev/null
echo 0 >$T/function_profile_enabled
head -n 12 $T/trace_stat/function0
hits=$(awk '$1 == "vfs_read" { print $2 }' $T/trace_stat/function0)
check profile-vfs-read-hits "vfs_read hits '$hits', want >= 300" test "${hits:-0}" -ge 300
# "Function  Hit  Time us  Avg us  s^2 us": every timed function has hits,
# and its average is its time over its hits (to the printed 0.001 us)
bad=$(awk 'NR > 2 && NF >= 6 && $3 + 0 > 0 {
		n++
		d = $3 / $2 - $5
		if ($2 <= 0 || $4 != "us" || $6 != "us") { print "bad line: " $0; exit }
		if (d < 0) d = -d
		if (d > 0.001 + $5 * 0.01) { print "avg != time/hits: " $0; exit }
	}
	END { if (n < 20) print "only " n + 0 " functions with a time" }' $T/trace_stat/function0)
check profile-times "$bad" test -z "$bad"

# --- user stack traces: options/userstacktrace with a system call event ---
# ustack_run MODE: guest/src/ustack-target.c MODE, each of its traps'
# getppid() recorded with its user stack (the event filtered on the
# program's comm: nothing else is recorded).  Its output goes to
# /tmp/ustack.out, its stacks to /tmp/ustack.rec, one line each: "-" and
# the addresses as the trace prints them (8 hex digits), innermost first.
ustack_run() {
	trace_reset
	echo 1 >$T/options/userstacktrace
	_e=$T/events/syscalls/sys_enter_getppid
	echo 'comm == "ustack-target"' >$_e/filter
	echo 1 >$_e/enable
	ustack-target "$1" >/tmp/ustack.out
	_rc=$?
	echo 0 >$_e/enable
	echo 0 >$_e/filter
	echo 0 >$T/options/userstacktrace
	awk '/ustack-target-[0-9]+ .*<user stack trace>/ { if (s != "") print s; s = "-"; next }
	     s != "" && /^ => / { gsub(/[<>]/, "", $2); s = s " " $2; next }
	     { if (s != "") print s; s = "" }
	     END { if (s != "") print s }' $T/trace >/tmp/ustack.rec
	return $_rc
}
# hex8 WORD...: the 0x numbers among WORDs (NAME=0x... or ret=0x...) as
# the trace prints them
hex8() {
	for _w in "$@"; do
		case $_w in *=0x*) printf ' %08x' $((${_w#*=})) ;; esac
	done
}
if grep -q ' arch_stack_walk_user$' /proc/kallsyms; then
	check ustack-chain-run "ustack-target chain failed: $(cat /tmp/ustack.out 2>/dev/null)" ustack_run chain
	cat /tmp/ustack.out /tmp/ustack.rec
	# ustack_c=0x... ustack_b=0x... ustack_a=0x... main=0x...
	read -r l </tmp/ustack.out
	want="-$(hex8 $l)"
	got=$(head -n 1 /tmp/ustack.rec)
	# the recorded addresses by the names the program gave them
	names=$(echo "$got" | awk -v l="$l" '
		BEGIN { n = split(l, w, " ")
			for (i = 1; i <= n; i++) { split(w[i], f, "=0x"); name[f[2]] = f[1] } }
		{ for (i = 2; i <= NF; i++) { a = $i; sub(/^0+/, "", a)
			printf "%s ", (a in name) ? name[a] : $i } }')
	check ustack-chain "recorded '$got' ($names), want '$want' first ($l)" \
		eval 'case "$got " in "$want "*) true ;; *) false ;; esac'
	check ustack-chain-once "$(wc -l </tmp/ustack.rec) user stacks for one getppid()" \
		test "$(wc -l </tmp/ustack.rec)" -eq 1

	# bad frame pointers end the walk after the last valid record
	check ustack-bad-run "ustack-target bad failed: $(cat /tmp/ustack.out 2>/dev/null)" ustack_run bad
	cat /tmp/ustack.out /tmp/ustack.rec
	check ustack-bad-count "$(wc -l </tmp/ustack.rec) user stacks for 5 traps" \
		test "$(wc -l </tmp/ustack.rec)" -eq 5
	i=0
	while read -r what rest; do
		i=$((i + 1))
		want="-$(hex8 $rest)"
		got=$(sed -n "${i}p" /tmp/ustack.rec)
		check "ustack-bad-${what%:}" "recorded '$got', want '$want'" test "$got" = "$want"
	done </tmp/ustack.out
else
	skip ustack "this kernel has no user stack traces (6.12: none on m68k)"
fi
trace_reset
check_done
