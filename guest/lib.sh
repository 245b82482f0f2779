# SPDX-License-Identifier: GPL-2.0
# Helpers for guest test scripts.  Each check prints one line that
# harness/results.py counts:
#   CHECK PASS <name>  |  CHECK FAIL <name>: <why>  |  CHECK SKIP <name>: <why>
T=/sys/kernel/tracing
CHECK_FAILED=${CHECK_FAILED:-0}

pass() { echo "CHECK PASS $1"; }
fail() { echo "CHECK FAIL $1: $2"; CHECK_FAILED=$((CHECK_FAILED + 1)); }
skip() { echo "CHECK SKIP $1: $2"; }

# param NAME DEFAULT: the value of the last NAME=VALUE on the kernel
# command line, or DEFAULT
param() {
	_v=
	for _a in $(cat /proc/cmdline); do
		case $_a in "$1"=*) _v=${_a#*=} ;; esac
	done
	echo "${_v:-$2}"
}

# check NAME WHY-IF-FALSE COMMAND...: pass when COMMAND succeeds
check() {
	_n=$1 _w=$2
	shift 2
	if "$@"; then pass "$_n"; else fail "$_n" "$_w"; fi
}

# Reset tracefs to a known state between checks.
trace_reset() {
	echo 0 >$T/tracing_on
	echo nop >$T/current_tracer
	echo 0 >$T/events/enable
	echo >$T/set_event_pid 2>/dev/null
	echo 0 >$T/options/stacktrace
	echo 0 >$T/options/userstacktrace 2>/dev/null
	[ -w $T/set_ftrace_filter ] && echo >$T/set_ftrace_filter
	[ -w $T/set_ftrace_notrace ] && echo >$T/set_ftrace_notrace
	[ -w $T/set_graph_function ] && echo >$T/set_graph_function
	echo >$T/trace
	echo 1 >$T/tracing_on
}

# event_hits EVENT PATTERN: how many lines of the trace EVENT (a dynamic
# event's name) printed that match PATTERN
event_hits() { grep " $1: " $T/trace | grep -c -- "$2"; }

# check_usercopy: the kernel's copies to and from user memory at every
# alignment, also into and out of pages not present yet, so that the copy
# faults half way (guest/src/usercopy.c): the 68030 retries a faulted MOVES
# write from its bus error frame and splits a misaligned one at the page.
check_usercopy() {
	_uc=$(usercopy 2>&1)
	_st=$?
	check usercopy "status $_st: $(echo "$_uc" | head -n 4 | tr '\n' ' ')" \
		test "$_st" -eq 0
}

# A small workload that sleeps, forks, execs and moves data through pipes.
workload() {
	for _i in 1 2 3 4 5; do
		sleep 0.01
		dd if=/dev/zero bs=4096 count=16 2>/dev/null | cat >/dev/null
		ls /proc >/dev/null
	done
}

# graph_durations FILE: "N DISTINCT MIN STEP" of the function_graph
# durations ("1.276 us |") in FILE: how many, how many distinct values,
# the shortest nonzero one and the smallest step between two of them
# ("none" where there is none).  A jiffies trace clock gives 0 or 10000.
# (harness/console-checks.sh uses it on the host too.)
graph_durations() {
	sed -n 's/^.*[ +!#*@$]\([0-9][0-9]*\.[0-9]*\) us *|.*$/\1/p' "$1" | sort -n | awk '
		{ n++ }
		n == 1 || $1 != last {
			d++
			if ($1 > 0 && min == "") min = $1
			if (d > 1 && (step == "" || $1 - last < step)) step = $1 - last
			last = $1
		}
		END { print n + 0, d + 0, (min == "" ? "none" : min), (step == "" ? "none" : step) }'
}

# last_error: the message of error_log's last entry ("Probe point is not
# an instruction boundary", ...): what a refused tracefs write said.
last_error() {
	tail -n 3 $T/error_log | sed -n 's/^.* error: //p' | tail -n 1
}

# workload_digest: what a workload of pipes, fork, exec, directory reads and
# a sort prints; a run under probes must print the same as one without.
workload_digest() {
	{
		dd if=/dev/zero bs=4096 count=32 2>/dev/null | md5sum
		ls -l /bin /harness | md5sum
		for _i in 1 2 3 4 5 6 7 8; do echo "line $_i"; done | sort -r | md5sum
		sh -c 'exit 3'; echo "rc $?"
	} 2>&1
}

# healthy: a workload whose results are known (fork, exec, pipes, a
# computation) gives them, and the function tracer still records.  Fails,
# saying why, when either is wrong; leaves the nop tracer current.
healthy() {
	_h_sum=$(seq 1 3000 | awk '{ s += $1 } END { print s }')
	[ "$_h_sum" = 4501500 ] || { echo "healthy: seq|awk gave '$_h_sum'"; return 1; }
	_h_n=$(dd if=/dev/zero bs=4096 count=16 2>/dev/null | cat | wc -c)
	[ "$_h_n" = 65536 ] || { echo "healthy: 64 KiB through a pipe came out as $_h_n"; return 1; }
	[ -r /proc/self/stat ] || { echo "healthy: no /proc/self/stat"; return 1; }
	echo >$T/trace
	echo 1 >$T/tracing_on
	echo function >$T/current_tracer || { echo "healthy: function tracer refused"; return 1; }
	ls /proc >/dev/null
	echo 0 >$T/tracing_on            # (a change of tracer clears the buffer)
	_h_n=$(grep -vc '^#' $T/trace)
	echo nop >$T/current_tracer
	echo 1 >$T/tracing_on
	[ "$_h_n" -gt 0 ] || { echo "healthy: the function tracer recorded nothing"; return 1; }
}

# switch_tracers N: N rounds of function -> function_graph -> nop on all
# functions; prints how many rounds had all three writes accepted.
switch_tracers() {
	_ok=0 _i=0
	while [ $_i -lt "$1" ]; do
		echo function >$T/current_tracer &&
			echo function_graph >$T/current_tracer &&
			echo nop >$T/current_tracer && _ok=$((_ok + 1))
		_i=$((_i + 1))
	done 2>/dev/null
	echo nop >$T/current_tracer 2>/dev/null
	echo $_ok
}

# absent REGEX FILE: FILE is readable and has no line matching REGEX (ERE)
# (a negated grep alone would pass on a missing file).
absent() {
	[ -r "$2" ] || { echo "absent: cannot read $2"; return 1; }
	! grep -qE "$1" "$2"
}

# Is the kprobe at SYM+OFFSET optimized (a jump: OPTPROBES)?
kprobe_optimized() { # SYM OFFSET
	grep -q "$1+$(printf '0x%x' "$2") .*\[OPTIMIZED\]" /sys/kernel/debug/kprobes/list
}

# Wait up to 3 s for the kprobe optimizer to make the probe at SYM+OFFSET
# a jump (yes) or a breakpoint again (no).
wait_optimized() { # SYM OFFSET yes|no
	_wo=0
	while [ $_wo -lt 30 ]; do
		if kprobe_optimized "$1" "$2"; then
			[ "$3" = yes ] && return 0
		else
			[ "$3" = no ] && return 0
		fi
		sleep 0.1
		_wo=$((_wo + 1))
	done
	return 1
}

# Define and enable the kprobe event GROUP/EVENT at the first offset of
# SYM (+2 to +64) that the optimizer turns into a jump, and print it; if
# there is none, leave nothing defined and fail.  kprobes/list says
# OPTIMIZED as soon as the probe is queued for the optimizer, which
# writes the jump some ticks later: give it a second.
find_optimized() { # GROUP/EVENT SYM
	_fo=2
	while [ $_fo -le 64 ]; do
		if echo "p:$1 $2+$_fo" >>$T/kprobe_events 2>/dev/null; then
			echo 1 >$T/events/$1/enable
			if wait_optimized "$2" $_fo yes; then
				sleep 1
				echo $_fo
				return 0
			fi
			echo 0 >$T/events/$1/enable
			echo "-:$1" >>$T/kprobe_events
		fi
		_fo=$((_fo + 2))
	done
	return 1
}

# Is SYMBOL a text symbol in the running kernel (or a loaded module)?
is_kernel_text() {
	grep -q " [tTwW] $1\$\| [tTwW] $1	" /proc/kallsyms
}

# text_sizes [NAME]: "NAME SIZE" for each text symbol of the kernel proper
# (or only the first called NAME), SIZE the distance to the next symbol in
# /proc/kallsyms.  awk only pairs the addresses: POSIX awk, GNU awk among
# them, reads no hexadecimal; the shell's arithmetic does.
text_sizes() {
	grep -v '\[' /proc/kallsyms | sort | awk -v f="${1:-}" '
		prev != "" { print prev, $1; if (f != "") exit }
		{ prev = ($2 ~ /^[tT]$/ && (f == "" || $3 == f)) ? $3 " " $1 : "" }' |
		while read -r _ts_f _ts_a _ts_next; do
			echo "$_ts_f $((0x$_ts_next - 0x$_ts_a))"
		done
}

# perf probe definitions (harness/perf-probe-defs.sh: entry.def, line.def,
# return.def in a directory).  probe_defs_missing DIR: each one missing or
# empty, with the start of its error output, one a line (nothing when all
# are there); probe_defs_add DIR: their first lines into kprobe_events;
# evname DEF: the event (GROUP/NAME) a definition makes.
probe_defs_missing() {
	for _pd in entry line return; do
		[ -s "$1/$_pd.def" ] || echo "$_pd: $(head -c 300 "$1/$_pd.err" 2>/dev/null)"
	done
}
probe_defs_add() {
	for _pd in entry line return; do
		head -n 1 "$1/$_pd.def" 2>/dev/null >>$T/kprobe_events
	done
}
evname() { _e=${1%% *}; echo "${_e#?:}"; }
# guest_probe_defs DIR FN PATTERN ENTRY LINE WHERE...: the guest's perf
# ($P) writes into DIR what harness/perf-probe-defs.sh writes on the host:
# -L FN (lines.txt; rel: the number it gives the line matching PATTERN, a
# sed pattern), the definitions of FN's entry with the arguments ENTRY, of
# line rel of FN with the variables LINE and of its return value, and
# -V FN:rel.  WHERE: perf probe's options naming the object and its
# source (-m KO or -k FILE, -s DIR).
guest_probe_defs() {
	_gd=$1 _gf=$2 _gp=$3 _ge=$4 _gl=$5
	shift 5
	rm -rf "$_gd" && mkdir -p "$_gd"
	$P probe "$@" -L "$_gf" >"$_gd/lines.txt" 2>"$_gd/lines.err"
	sed -n "s/^ *\([0-9][0-9]*\) .*$_gp.*/\1/p" "$_gd/lines.txt" | head -n 1 >"$_gd/rel"
	_gr=$(cat "$_gd/rel")
	$P probe "$@" --definition "$_gf $_ge" >"$_gd/entry.def" 2>"$_gd/entry.err"
	$P probe "$@" --definition "$_gf:${_gr:-0} $_gl" >"$_gd/line.def" 2>"$_gd/line.err"
	$P probe "$@" --definition "$_gf%return \$retval" >"$_gd/return.def" 2>"$_gd/return.err"
	$P probe "$@" -V "$_gf:${_gr:-0}" >"$_gd/vars.txt" 2>"$_gd/vars.err"
}

# End a script: status is the number of failed checks.
check_done() {
	echo "checks: $CHECK_FAILED failed"
	[ "$CHECK_FAILED" -eq 0 ]
}

# send_file NAME PATH: copy PATH to the host through the console, as
#   GUEST-FILE-BEGIN NAME
#   <base32 of the gzipped file>
#   GUEST-FILE-END NAME <gzipped bytes> <md5 of the gzipped bytes>
# harness/guest-files.py writes it back as NAME on the host.  base32, not
# base64: its alphabet cannot spell a console pattern qemu-run --strict
# fails on ("Oops", "BUG:").
send_file() {
	gzip -c "$2" >/tmp/.send_file.gz || return 1
	echo "GUEST-FILE-BEGIN $1"
	base32 /tmp/.send_file.gz
	echo "GUEST-FILE-END $1 $(wc -c </tmp/.send_file.gz) $(md5sum </tmp/.send_file.gz | cut -d' ' -f1)"
	rm -f /tmp/.send_file.gz
}
