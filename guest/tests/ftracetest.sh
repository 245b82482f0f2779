#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the kernel's own kselftest ftrace suite from the same
# source tree (copied to /opt/ftrace in the initramfs).  Arguments are
# passed to ftracetest (e.g. test.d/ftrace to run one directory).
#
# After the run, print one "FTRACE-REASON" line per case that did not
# PASS, from the case's own log, so the results list says why.
log=/tmp/ftracetest-logs
rm -rf $log
cd /opt/ftrace || { echo "CHECK FAIL ftracetest:setup: no /opt/ftrace in the initramfs"; exit 1; }
# Kernel messages below warnings stay off the console during the run: a
# module a case loads (trace-events-sample: "Starting thread for ...")
# would otherwise print into the middle of a case's result line.
dmesg -n 5
# The results are read from ftracetest's own log ($log/ftracetest.log,
# the same lines as its standard output), printed when the run is over.
# Its standard output also gets what a case leaks past the redirection
# to the case's log: busybox ash runs a subshell's EXIT trap after the
# function's redirections are undone, so event-mod.tc's
# 'trap "rmmod trace-events-sample" EXIT' wrote its xtrace line into the
# middle of the case's result line.  That output stays in
# $log/stdout.txt, printed only if the run produced no log.
mkdir -p $log
# On the slow machines the run takes hours (Hatari's 68060): once a
# minute, the verdicts that came since the last minute ("FTRACE-SEEN"
# lines, which no result parser reads) and how many cases have one, so a
# run stopped before its end still shows what it saw.  Stopped before the
# log is printed, so it never cuts into a result line.  Its timer is
# "busybox sleep", whose task is named "busybox": the hist poll case
# (trigger-hist-poll.tc) waits for the exit of a task named "sleep" and
# fails ("poll exits too soon") when another one exits during its wait,
# as this loop's "sleep 60" did on the 68030.
(
	shown=0
	while busybox sleep 60; do
		grep -E '^\[[0-9]+\].*\[[A-Z]+\]$' $log/ftracetest.log >/tmp/ftracetest-seen 2>/dev/null
		n=$(wc -l </tmp/ftracetest-seen)
		sed -n "$((shown + 1)),\$s/^/FTRACE-SEEN /p" /tmp/ftracetest-seen
		shown=$n
		echo "FTRACE-PROGRESS $n cases done"
	done
) &
progress=$!
./ftracetest -k -l $log "$@" >$log/stdout.txt 2>&1
rc=$?
kill $progress
if [ -f $log/ftracetest.log ]; then
	cat $log/ftracetest.log
else
	cat $log/stdout.txt
fi
for f in "$log"/*-log.*; do
	[ -f "$f" ] || continue
	n=${f##*/}
	n=${n%%-*}
	# a case whose log has more than the "execute:" line said something
	why=$(grep -v '^execute' "$f" | grep -v '^+ ' | grep -v '^$' | tail -n 1)
	grep -q "^\[$n\].*\[PASS\]" $log/ftracetest.log 2>/dev/null && continue
	echo "FTRACE-REASON [$n] ${why:-no message}"
	# full log of real failures, for the host log
	if grep -q "^\[$n\].*\[\(FAIL\|UNRESOLVED\)\]" $log/ftracetest.log; then
		sed "s/^/FTRACE-LOG [$n] /" "$f" | tail -n 60
	fi
done
exit $rc
