#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pstore across boots (harness/check.sh, pstore_suite): one boot of a
# chain, the step named by harness.pstore= on the command line.  Every
# boot has the same ramoops region (reserve_mem=, ramoops.mem_name=) in
# RAM that the harness keeps from one boot to the next (qemu-run.sh
# --ram-file), and the same disk, /dev/vda (ext4), holding the kernel's
# pstore kselftest and the state it keeps across its crash.
#
#   crash       the kselftest's pstore_tests, then its pstore_crash_test
#               (sysrq's crash) with the function recorder on, filtered
#               (set_ftrace_filter) to sysrq's and panic's functions
#   oops        what the crash left: the function recorder's last calls
#               in the crash path, the panic in dmesg, the console and
#               pmsg; the kselftest's pstore_post_reboot_tests; then an
#               oops (LKDTM), not a panic, and a clean power-off
#   hang        the oops in dmesg; then the function recorder on and a
#               module that spins with interrupts masked (the harness
#               kills the guest)
#   hung        the hanging function last in what the recorder kept
. /harness/lib.sh

step=$(param harness.pstore '')
P=/sys/fs/pstore
K=/mnt/pstore
PREV=/tmp/pstore-prev
FTRACE_ON=/sys/kernel/debug/pstore/record_ftrace
# the filter of the crash's records, as set_ftrace_filter's globs and as
# an extended regular expression of the functions they take
CRASH_FILTER='write_sysrq_trigger|*handle_sysrq*|sysrq_*|panic*|vpanic'
CRASH_RE='^(write_sysrq_trigger|.*handle_sysrq.*|sysrq_.*|panic.*|vpanic)$'

# every boot: the backend, the region, the disk; the records of the boot
# before, kept in $PREV (the kselftest removes them)
check "pstore:$step-backend" "backend '$(cat /sys/module/pstore/parameters/backend 2>&1)'" \
	[ "$(cat /sys/module/pstore/parameters/backend 2>/dev/null)" = ramoops ]
grep -q " $P pstore " /proc/mounts || mount -t pstore pstore $P
check "pstore:$step-disk" "cannot mount /dev/vda on /mnt" mount -t ext4 /dev/vda /mnt
rm -rf $PREV
mkdir -p $PREV
cp $P/* $PREV/ 2>/dev/null
echo "pstore: records of the boot before: $(ls $PREV | tr '\n' ' ')"
echo "pstore-step: $step" >/dev/kmsg

# the kselftest's messages, one check per line of what it does
# ("Checking ...", "Mounting ...", "Writing ...", "Removing ..."): ok or
# FAIL at the end of that line, or on each of the indented lines after it
kselftest() {
	(cd $K && sh "./$1") >/tmp/"$1".out 2>/tmp/"$1".err
	_rc=$?
	cat /tmp/"$1".out /tmp/"$1".err
	awk -v prog="$1" '
		function flush() {
			if (name == "") return
			if (verdict == "ok") print "CHECK PASS pstore-kselftest:" prog "/" name
			else print "CHECK FAIL pstore-kselftest:" prog "/" name ": it said " (verdict == "" ? "nothing" : verdict)
			name = ""
		}
		/^(Checking|Mounting|Writing|Removing) / {
			flush()
			line = $0
			verdict = ""
			if (line ~ /ok$/) verdict = "ok"
			if (line ~ /FAIL$/) verdict = "FAIL"
			sub(/ *(\.\.\.)? *(ok|FAIL)?$/, "", line)
			gsub(/[^A-Za-z0-9]+/, "-", line)
			gsub(/^-|-$/, "", line)
			name = tolower(line)
			next
		}
		/^\t/ && name != "" {
			if ($0 ~ /FAIL$/) verdict = "FAIL"
			else if ($0 ~ /ok$/ && verdict == "") verdict = "ok"
			next
		}
		{ flush() }
		END { flush() }' /tmp/"$1".out
	# (the kselftest's verdicts are the expectation's to judge: they do
	# not count in this boot's exit status, which is ours)
	if [ "$_rc" = 0 ]; then
		echo "CHECK PASS pstore-kselftest:$1"
	else
		echo "CHECK FAIL pstore-kselftest:$1: exited $_rc"
	fi
}

# inside IP SIZE ADDR (hex, no 0x): IP is in ADDR..ADDR+SIZE-1 (the low
# 28 bits compared as numbers: awk's are doubles, too short for 64-bit
# addresses)
inside() {
	[ $# = 3 ] && awk -v ip="$1" -v size="$2" -v at="$3" '
		function low(h) { return strtonum("0x" substr(h, length(h) - 6)) }
		function high(h) { return substr(h, 1, length(h) - 7) }
		BEGIN { d = low(ip) - low(at)
			exit !(length(ip) == length(at) && high(ip) == high(at) &&
			       d >= 0 && d < strtonum("0x" size)) }'
}

# last_of FILE PATTERN: the number of FILE's last line matching PATTERN
last_of() { grep -n -- "$2" "$1" | tail -n 1 | cut -d: -f1; }

case $step in
crash)
	check pstore:crash-empty "records in a fresh region: $(ls $PREV | tr '\n' ' ')" \
		[ -z "$(ls $PREV)" ]
	kselftest pstore_tests
	echo "harness pmsg: written before the crash" >/dev/pmsg0
	# the recorder follows the function tracer's filter: sysrq's and
	# panic's functions only
	echo "$CRASH_FILTER" | tr '|' ' ' >$T/set_ftrace_filter
	echo 1 >$FTRACE_ON
	check pstore:crash-record-ftrace "record_ftrace is $(cat $FTRACE_ON)" \
		[ "$(cat $FTRACE_ON)" = 1 ]
	# the kselftest's crash: sysrq's, after it kept its state on the disk
	(cd $K && sh ./pstore_crash_test)
	fail pstore:crash-crashed "pstore_crash_test returned"
	;;
oops)
	F=$PREV/ftrace-ramoops-0
	check pstore:oops-ftrace-file "no ftrace-ramoops-0 after the crash" [ -s $F ]
	tail -n 30 $F
	# the recorder stops in the panic (at oops_in_progress): its last
	# records are the crash's own calls, sysrq's handler then panic's,
	# the last a call from panic (vpanic on 7.3)
	c=$(last_of $F ' sysrq_handle_crash <- ')
	p=$(last_of $F 'panic <- ')
	check pstore:oops-ftrace-crash-handler "no sysrq_handle_crash call" [ -n "$c" ]
	check pstore:oops-ftrace-panic "no call in panic after sysrq_handle_crash (handler line ${c:-none}, panic ${p:-none})" \
		[ "${p:-0}" -gt "${c:-0}" ]
	check pstore:oops-ftrace-last "the last record is not a call from panic: $(tail -n 1 $F)" \
		sh -c "tail -n 1 $F | grep -qE ' <- v?panic\+0x'"
	check pstore:oops-ftrace-filtered "records outside the filter: $(awk '{ print $5 }' $F | grep -vE "$CRASH_RE" | sort -u | head -n 5 | tr '\n' ' ')" \
		sh -c "! awk '{ print \$5 }' $F | grep -qvE '$CRASH_RE'"
	check pstore:oops-ftrace-symbols "a record without a symbol: $(grep -m1 -E '  0x[0-9a-f]+ <- |<- 0x[0-9a-f]+$' $F)" \
		sh -c "! grep -qE '  0x[0-9a-f]+ <- |<- 0x[0-9a-f]+\$' $F"
	D=$PREV/dmesg-ramoops-0
	check pstore:oops-dmesg-panic "dmesg-ramoops-0 does not start with Panic#1: $(head -n 1 $D 2>&1)" \
		sh -c "head -n 1 $D | grep -q '^Panic#1 Part1'"
	check pstore:oops-dmesg-crash "no sysrq crash panic in dmesg-ramoops-0" \
		grep -q 'Kernel panic - not syncing: sysrq triggered crash' $D
	check pstore:oops-console "console-ramoops-0 has no 'pstore-step: crash'" \
		grep -q 'pstore-step: crash' $PREV/console-ramoops-0
	check pstore:oops-pmsg "pmsg-ramoops-0 lacks what was written" \
		grep -q '^harness pmsg: written before the crash$' $PREV/pmsg-ramoops-0
	kselftest pstore_post_reboot_tests
	# an oops, not a panic: LKDTM's NULL write kills a child shell
	modprobe lkdtm || fail pstore:oops-lkdtm "modprobe lkdtm failed"
	sh -c 'echo EXCEPTION >/sys/kernel/debug/provoke-crash/DIRECT' 2>/dev/null
	check pstore:oops-oopsed "no oops report header on the console" \
		sh -c "dmesg | grep -q '\\[#1\\]'"
	;;
hang)
	D=$PREV/dmesg-ramoops-0
	check pstore:hang-dmesg-oops "dmesg-ramoops-0 does not start with Oops#1: $(head -n 1 $D 2>&1)" \
		sh -c "head -n 1 $D | grep -q '^Oops#1 Part1'"
	check pstore:hang-dmesg-report "no oops report ending in its marker in dmesg-ramoops-0" \
		sh -c "grep -q 'lkdtm_EXCEPTION' $D && grep -q '\\[#1\\]' $D &&
			grep -q -- '---\[ end trace' $D"
	check pstore:hang-no-panic "a panic record after an oops: $(ls $PREV | tr '\n' ' ')" \
		sh -c "! grep -lq '^Panic#' $PREV/dmesg-ramoops-* 2>/dev/null"
	rm -f $P/*
	echo 1 >$FTRACE_ON
	# it never returns: the harness kills the guest at its message
	modprobe pstore_hang
	fail pstore:hang-spins "loading pstore_hang returned"
	;;
hung)
	F=$PREV/ftrace-ramoops-0
	check pstore:hung-ftrace-file "no ftrace-ramoops-0 after the hang" [ -s $F ]
	tail -n 5 $F
	# the module is not loaded here, so not its name: the place of
	# pstore_hang_spin it printed before the kill, in the console it left
	w=$(sed -n 's/.*pstore_hang: spinning .* in pstore_hang_spin+0x0\/0x\([0-9a-f]*\) .* at \([0-9a-f]*\)$/\1 \2/p' \
		$PREV/console-ramoops-0 | tail -n 1)
	check pstore:hung-console "the hang's message is not in console-ramoops-0" [ -n "$w" ]
	# the last records' call sites (their third field) inside that
	# function: the ten last, but for the very last, which may be torn
	# (a record's place is taken before it is written, and the kill
	# can fall between the two)
	n=0
	for ip in $(tail -n 11 $F | head -n 10 | cut -d' ' -f3); do
		# shellcheck disable=SC2086 # $w is SIZE ADDR
		inside "$ip" $w && n=$((n + 1))
	done
	check pstore:hung-ftrace-last "$n of the 10 last records (the very last aside) are calls of pstore_hang_spin (size, place: ${w:-?})" \
		[ "$n" = 10 ]
	check pstore:hung-no-dmesg "a dmesg record after a hang: $(ls $PREV | tr '\n' ' ')" \
		sh -c "! ls $PREV | grep -q '^dmesg-'"
	;;
*)
	fail pstore:step "no such step '$step' (harness.pstore=)"
	;;
esac
umount /mnt
exit "$CHECK_FAILED"
