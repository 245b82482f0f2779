#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kprobe sweep: kprobes on many sites of the whole kernel, in batches,
# each batch enabled while a workload with a known result runs.  Nothing
# may crash or hang, the workload's result may not change, and every
# refused site must have a reason in error_log.  Three kinds of site:
#   entries  the entry of functions of available_filter_functions
#   symbols  text symbols of /proc/kallsyms (with or without an ftrace site)
#   offsets  every even offset of whole functions that the workload runs
#            (the kernel refuses what is not an instruction boundary)
# How many of each, the random seed and the batch size come from the
# kernel command line (sweep.entries=N|all sweep.symbols=N|all
# sweep.functions=N sweep.seed=N sweep.batch=N); the defaults are the
# shortened form `make check` runs.  Each site kind prints its figures:
# sites tried, accepted, refused by reason, and probe hits.
. /harness/lib.sh

KE=$T/kprobe_events

param() { # NAME DEFAULT: sweep.NAME= from the kernel command line
	_v=$(tr ' ' '\n' </proc/cmdline | sed -n "s/^sweep\.$1=//p" | tail -n 1)
	echo "${_v:-$2}"
}
SEED=$(param seed 1)
ENTRIES=$(param entries 3000)
SYMBOLS=$(param symbols 1500)
FUNCTIONS=$(param functions 30)
BATCH=$(param batch 100)

# pick N|all LIST-FILE: N lines of the file chosen at random with SEED
pick() {
	if [ "$1" = all ]; then
		cat "$2"
	else
		awk -v seed="$SEED" 'BEGIN { srand(seed) } { print rand() "\t" $0 }' "$2" |
			sort -n | head -n "$1" | cut -f 2
	fi
}

trace_reset
echo >$KE
want=$(workload_digest)
echo "sweep: seed $SEED, $BATCH probes a batch"

# sweep KIND: the sites on stdin ("SYMBOL" or "SYMBOL+OFF"), in batches
sweep() {
	_kind=$1
	_n=0 _ok=0 _hits=0 _bad=0 _b=0 _inb=0
	: >/tmp/sweep-reasons
	: >/tmp/sweep-batch
	run_batch() {
		[ "$_inb" -gt 0 ] || return 0
		_b=$((_b + 1))
		echo 1 >$T/events/sweep/enable ||
			echo "sweep: $_kind batch $_b: enable failed" >>/tmp/sweep-trouble
		_got=$(workload_digest)
		echo 0 >$T/events/sweep/enable
		if [ "$_got" != "$want" ]; then
			_bad=$((_bad + 1))
			echo "sweep: $_kind batch $_b: workload result changed" >>/tmp/sweep-trouble
		fi
		_h=$(awk '{ s += $2 } END { print s + 0 }' $T/kprobe_profile)
		_hits=$((_hits + _h))
		# the sites that were hit, for the offsets
		awk 'NR == FNR { if ($2 > 0) hit[$1] = 1; next }
			($1 in hit) { print $2 }' $T/kprobe_profile /tmp/sweep-batch \
			>>/tmp/sweep-hit
		: >/tmp/sweep-batch
		echo >$KE || echo "sweep: $_kind batch $_b: could not clear" >>/tmp/sweep-trouble
		_inb=0
	}
	while read -r _site; do
		_n=$((_n + 1))
		if echo "p:sweep/s$_n $_site" >>$KE 2>/dev/null; then
			echo "s$_n $_site" >>/tmp/sweep-batch
			_ok=$((_ok + 1))
			_inb=$((_inb + 1))
			[ "$_inb" -lt "$BATCH" ] || run_batch
		else
			_why=$(last_error)
			echo "${_why:-no reason in error_log} ($_site)" >>/tmp/sweep-reasons
		fi
	done
	run_batch
	echo "sweep: $_kind: $_n sites, $_ok accepted in $_b batches, $_hits hits"
	sed 's/ (.*//' /tmp/sweep-reasons | sort | uniq -c |
		sed "s/^ */sweep: $_kind: refused /"
	# some of the refused sites, boundaries aside (those are most offsets)
	grep -v 'not an instruction boundary' /tmp/sweep-reasons | head -n 20 |
		sed "s/^/sweep: $_kind: refused: /"
	check sweep-$_kind-tried "only $_n sites" test "$_n" -gt 0
	check sweep-$_kind-accepted "only $_ok of $_n sites accepted" \
		test "$_ok" -ge $((_n / 4))
	check sweep-$_kind-workload "$_bad batches changed the workload's result" \
		test "$_bad" -eq 0
	check sweep-$_kind-hits "no probe of $_ok hit" test "$_hits" -gt 0
	# every refusal said why (error_log entries are capped, not lost: the
	# last one is always the write that just failed)
	_nr=$(grep -c '^no reason' /tmp/sweep-reasons)
	check sweep-$_kind-reasons "$_nr refusals without a reason" \
		test "$_nr" -eq 0
}

: >/tmp/sweep-trouble
: >/tmp/sweep-hit
cut -d' ' -f1 $T/available_filter_functions | sort -u >/tmp/funcs
pick "$ENTRIES" /tmp/funcs | sweep entries

# text symbols of the kernel proper (not modules)
grep -v '\[' /proc/kallsyms | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u >/tmp/syms
pick "$SYMBOLS" /tmp/syms | sweep symbols

# every even offset of whole functions: sizes from the distance to the
# next symbol (the shell reads the hexadecimal; awk only pairs them)
grep -v '\[' /proc/kallsyms | sort | awk '
	prev != "" { print prev, $1 } { prev = ($2 ~ /^[tT]$/) ? $3 " " $1 : "" }' |
	while read -r _f _a _next; do
		echo "$_f $((0x$_next - 0x$_a))"
	done >/tmp/sizes
# of functions that the workload runs (their entry probes were hit)
awk 'NR == FNR { f[$1] = 1; next } ($1 in f) && $2 > 0 && $2 <= 2048' \
	/tmp/sweep-hit /tmp/sizes >/tmp/sized
pick "$FUNCTIONS" /tmp/sized | while read -r _f _s; do
	_o=0
	while [ $_o -lt "$_s" ]; do
		echo "$_f+$_o"
		_o=$((_o + 2))
	done
done | sweep offsets

cat /tmp/sweep-trouble
check sweep-clean "the sweep ran into trouble (above)" test ! -s /tmp/sweep-trouble
check sweep-healthy "the kernel is not healthy after the sweep" healthy
