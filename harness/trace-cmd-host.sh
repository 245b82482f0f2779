#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# trace-cmd-host.sh LOG OUTDIR HOST_TRACE_CMD [LISTEN_DIR]: the host's half of
# the trace-cmd suite (guest/tests/trace-cmd.sh).
#
# Every NAME.dat the guest sent with its own report NAME.report is written to
# OUTDIR (harness/guest-files.py) and reported again on the host, where a
# big-endian m68k recording is read on a little-endian machine:
#
#   tc-host:NAME     HOST_TRACE_CMD (harness/build-trace-cmd.sh: the guest's
#                    sources and patches, built for the host) must print the
#                    guest's report line for line.  Neither side has plugins.
#   ks:NAME          Debian's KernelShark loads every record of it
#                    (harness/kshark.sh, with our libtraceevent).
#   tc-debian:NAME   Debian's own trace-cmd, plugins off (-N), likewise.
#                    Skipped for recordings that carry every event format:
#                    Debian 12's libtraceevent crashes on one of m68k's
#                    (userspace/trace-cmd/patches/libtraceevent/0001-*).
#
# LISTEN_DIR holds what the host's `trace-cmd listen` received from the
# guest's `trace-cmd record -N`: both programs must report the recorded calls.
# Prints one CHECK line per case, for harness/results.py.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage="usage: trace-cmd-host.sh LOG OUTDIR HOST_TRACE_CMD [LISTEN_DIR]"
log=${1:?$usage}
out=${2:?$usage}
ours=${3:?$usage}
# harness/build-trace-cmd.sh's OUTDIR (OUTDIR/host/bin/trace-cmd is ours)
tcdir=$(cd "$(dirname "$ours")/../.." && pwd)
listen=${4:-}
# the event whose print format Debian 12's libtraceevent cannot parse
CRASHER='name: mm_vmscan_write_folio'

mkdir -p "$out"
if ! python3 "$here/guest-files.py" "$log" "$out" >"$out/files.log" 2>&1; then
	echo "CHECK FAIL tc-host:files: $(grep -m1 'ERROR' "$out/files.log")"
fi

# same NAME TOOL-LABEL: compare NAME.TOOL-LABEL (the host's report) with the
# guest's NAME.report; STATUS is the reporting program's exit status
same() {
	local name=$1 label=$2 status=$3 rep=$out/$1.report mine=$out/$1.$2
	if [ "$status" -ne 0 ]; then
		echo "CHECK FAIL $label:$name: trace-cmd report exited $status: $(tail -n 1 "$mine.err")"
	elif ! diff -u "$rep" "$mine" >"$mine.diff"; then
		echo "CHECK FAIL $label:$name: the report differs from the guest's ($(grep -c '^[-+][^-+]' "$mine.diff") lines, see $mine.diff)"
	else
		echo "CHECK PASS $label:$name: $(grep -c '\[[0-9]*\] ' "$rep") events"
	fi
}

# kshark NAME: KernelShark's own loading code (harness/kshark.sh count:
# libkshark's kshark_open() and kshark_load_entries(), as its GUI opens a
# file, with our libtraceevent) loads every record of NAME.dat: as many
# entries as the raw report (-R: one line a record; the plain one prints
# a function_graph leaf's entry and exit as one line) has events.
kshark() {
	local name=$1 got want rc
	want=$("$ours" report -R -i "$out/$name.dat" 2>/dev/null | grep -c '\[[0-9]*\] ')
	got=$("$here/kshark.sh" count "$tcdir" "$out/$name.dat" 2>"$out/$name.ks.err")
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "CHECK FAIL ks:$name: KernelShark's loader exited $rc (139: it crashed): $(tail -n 1 "$out/$name.ks.err")"
	elif [ "${got##* }" != "$want" ] || [ "$want" -eq 0 ]; then
		echo "CHECK FAIL ks:$name: KernelShark loaded ${got##* } entries, trace-cmd report -R shows $want events"
	else
		echo "CHECK PASS ks:$name: $want entries"
	fi
}

n=0
for rep in "$out"/*.report; do
	[ -e "$rep" ] || continue
	name=$(basename "$rep" .report)
	n=$((n + 1))
	if [ ! -f "$out/$name.dat" ]; then
		echo "CHECK FAIL tc-host:$name: the guest sent no $name.dat"
		continue
	fi
	if ! grep -q '\[[0-9]*\] ' "$rep"; then
		echo "CHECK FAIL tc-host:$name: the guest's report has no events"
		continue
	fi
	"$ours" report -i "$out/$name.dat" >"$out/$name.tc-host" 2>"$out/$name.tc-host.err"
	same "$name" tc-host $?
	kshark "$name"
	if grep -qa "$CRASHER" "$out/$name.dat"; then
		echo "CHECK SKIP tc-debian:$name: the recording has every event format; Debian 12's libtraceevent 1.7.1 crashes on mm_vmscan_write_folio's (fixed by userspace/trace-cmd/patches/libtraceevent/0001)"
		continue
	fi
	trace-cmd report -N -i "$out/$name.dat" >"$out/$name.tc-debian" 2>"$out/$name.tc-debian.err"
	same "$name" tc-debian $?
done
[ $n -gt 0 ] || echo "CHECK FAIL tc-host:files: no recording with its report in $log"

if [ -n "$listen" ]; then
	dat=$(find "$listen" -name '*.dat' | head -n 1)
	for tc in "$ours" trace-cmd; do
		label="tc-host"
		[ "$tc" = "$ours" ] || label="tc-debian"
		if [ -z "$dat" ]; then
			echo "CHECK FAIL $label:listen: trace-cmd listen received no trace.dat"
		elif ! "$tc" report -N -i "$dat" >"$out/listen.$label" 2>"$out/listen.$label.err"; then
			echo "CHECK FAIL $label:listen: trace-cmd report of $dat exited $?"
		else
			calls=$(grep -c 'sys_enter_getppid:' "$out/listen.$label")
			if [ "$calls" -ge 100 ]; then
				echo "CHECK PASS $label:listen: $calls getppid calls"
			else
				echo "CHECK FAIL $label:listen: $calls getppid calls in $dat, want >= 100"
			fi
		fi
	done
fi
