#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The probe sweep: kprobes on many sites of the whole kernel, and uprobes
# on many instructions of a program, in batches, each batch enabled while
# a workload with a known result runs.  Nothing may crash or hang, the
# workload's result may not change, and every refused site must have a
# reason.  Four kinds of site:
#   entries  the entry of functions of available_filter_functions
#   symbols  text symbols of /proc/kallsyms (with or without an ftrace site)
#   offsets  every even offset of whole functions that the workload runs
#            (the kernel refuses what is not an instruction boundary)
#   usites   instruction starts of busybox (/opt/sweep/busybox.sites, from
#            objdump on the host: harness/uprobe-sites.py), as uprobes on a
#            copy of it that runs a workload of its own shell and applets
# How many of each, the random seed and the batch size come from the
# kernel command line (sweep.entries=N|all sweep.symbols=N|all
# sweep.functions=N sweep.usites=N|all sweep.seed=N sweep.batch=N); the
# defaults are the shortened form `make check` runs.  Each site kind prints
# its figures: sites tried, accepted, refused by reason, and probe hits.
. /harness/lib.sh

KE=$T/kprobe_events

SEED=$(param sweep.seed 1)
ENTRIES=$(param sweep.entries 3000)
SYMBOLS=$(param sweep.symbols 1500)
FUNCTIONS=$(param sweep.functions 30)
USITES=$(param sweep.usites 2000)
BATCH=$(param sweep.batch 100)

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
		# the sites a crash or a warning came with
		echo "sweep: $_kind batch $_b: $(sed -n '1s/^[^ ]* //p' /tmp/sweep-batch)" \
			".. $(sed -n '$s/^[^ ]* //p' /tmp/sweep-batch)"
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

# every even offset of whole functions (sizes: lib.sh)
text_sizes >/tmp/sizes
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

# --- uprobes on instruction starts of busybox.  The probes go on a copy
# (a file of its own), which only the workload runs: the shell running
# this script is /bin/sh.  Applets run from the copy through links named
# after them.
UB=/tmp/usweep
UE=$T/uprobe_events
mkdir -p $UB/bin
cp /bin/busybox $UB/busybox
for _a in sh seq awk sed sort md5sum tr cut uniq wc grep expr od printf factor sleep; do
	ln -s ../busybox $UB/bin/$_a
done
# uscript: loops and arithmetic in the shell, pipes, awk, sed, sort...;
# uwork: the digest of what it prints
uscript() {
	PATH=$UB/bin $UB/bin/sh -c '
		i=0 s=0
		while [ $i -lt 300 ]; do i=$((i + 1)); s=$((s + i * i % 7)); done
		echo "loop $s"
		seq 1 500 | awk "{ t += \$1 * \$1 } END { print t }"
		seq 1 300 | sed s/1/one/g | sort -r | md5sum
		printf "%s\n" banana apple cherry | sort | tr a-z A-Z
		echo hello world | od -c
		expr 123456 \* 789
		seq 1 1000 | grep -c 7
		factor 1234567890
		cut -d: -f1 /etc/passwd | sort | uniq | wc -l
	' 2>&1
}
uwork() { uscript | md5sum; }
# What the decoder refuses in user code, by objdump's mnemonic: traps,
# illegal, SR writes, and the 68060's emulated instructions (64-bit
# mul/div share their mnemonic with the 32-bit forms).
UREFUSED='^(trap[a-z]*|illegal|bkpt|chk[a-z0-9]*|movep[wl]?|cas2[wl]?|cmp2[bwl]?|(mul|div)[su]l+|(move|andi|ori|eori)w)$'

usweep() {
	_n=0 _ok=0 _hits=0 _bad=0 _b=0 _inb=0
	: >/tmp/usweep-reasons
	: >/tmp/usweep-batch
	# a process mapping the copy: a probe is then checked when enabled
	$UB/bin/sleep 100000 &
	_holder=$!
	urun_batch() {
		[ "$_inb" -gt 0 ] || return 0
		_b=$((_b + 1))
		# one by one: a refused instruction fails its own enable
		while read -r _e _off _mn; do
			if echo 1 >$T/events/usweep/$_e/enable 2>/dev/null; then
				_ok=$((_ok + 1))
			else
				echo "$_mn" >>/tmp/usweep-reasons
			fi
		done </tmp/usweep-batch
		_got=$(uwork)
		echo 0 >$T/events/usweep/enable
		if [ "$_got" != "$uwant" ]; then
			_bad=$((_bad + 1))
			echo "sweep: usites batch $_b: workload result changed" >>/tmp/sweep-trouble
			sed "s/^/sweep: usites batch $_b: /" /tmp/usweep-batch >>/tmp/sweep-trouble
		fi
		_h=$(awk '{ s += $3 } END { print s + 0 }' $T/uprobe_profile)
		_hits=$((_hits + _h))
		: >/tmp/usweep-batch
		echo >$UE || echo "sweep: usites batch $_b: could not clear" >>/tmp/sweep-trouble
		_inb=0
	}
	while read -r _off _mn; do
		_n=$((_n + 1))
		if echo "p:usweep/u$_n $UB/busybox:0x$_off" >>$UE 2>/dev/null; then
			echo "u$_n $_off $_mn" >>/tmp/usweep-batch
			_inb=$((_inb + 1))
			[ "$_inb" -lt "$BATCH" ] || urun_batch
		else
			echo "event not added: $(last_error) ($_off $_mn)" >>/tmp/sweep-trouble
		fi
	done
	urun_batch
	kill $_holder
	_nr=$(wc -l </tmp/usweep-reasons)
	echo "sweep: usites: $_n sites, $_ok accepted in $_b batches, $_hits hits"
	sort /tmp/usweep-reasons | uniq -c | sed "s/^ */sweep: usites: refused /"
	_odd=$(grep -Ecv "$UREFUSED" /tmp/usweep-reasons)
	check sweep-usites-tried "only $_n sites" test "$_n" -gt 0
	check sweep-usites-accepted "only $_ok of $_n sites accepted" \
		test "$_ok" -ge $((_n * 9 / 10))
	check sweep-usites-workload "$_bad batches changed the workload's result" \
		test "$_bad" -eq 0
	check sweep-usites-hits "no probe of $_ok hit" test "$_hits" -gt 0
	check sweep-usites-reasons "$_odd of $_nr refusals are of instructions the decoder takes" \
		test "$_odd" -eq 0
}

echo >$UE
uscript >/tmp/usweep-out
uwant=$(md5sum </tmp/usweep-out)
check sweep-usites-baseline "the copy of busybox did not compute: $(cat /tmp/usweep-out)" \
	grep -q '^1234567890: 2 3 3 5 3607 3803$' /tmp/usweep-out
# a seeded sample of about USITES of the starts (all: every one)
if [ "$USITES" = all ]; then
	cat /opt/sweep/busybox.sites
else
	awk -v seed="$SEED" -v n="$USITES" -v total="$(wc -l </opt/sweep/busybox.sites)" \
		'BEGIN { srand(seed) } rand() * total < n' /opt/sweep/busybox.sites
fi | usweep

cat /tmp/sweep-trouble
check sweep-clean "the sweep ran into trouble (above)" test ! -s /tmp/sweep-trouble
check sweep-healthy "the kernel is not healthy after the sweep" healthy
