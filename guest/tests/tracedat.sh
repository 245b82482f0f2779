#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Raw tracefs captures for harness/tracedat.py, which assembles them into a
# trace.dat (version 6) on the host and checks that the host's own
# `trace-cmd report` decodes this big-endian trace like the guest does.
#
# Each recording NAME is stopped, then captured to /tmp/tracedat/NAME:
#   header_page header_event          events/<sys>/<event>/format
#   kallsyms printk_formats saved_cmdlines trace_clock uname subbuf_size endian
#   cpuN.raw (per_cpu/cpuN/trace_pipe_raw)  cpuN.stats  trace.txt (text trace)
# and printed as a base32 tar.gz between
#   TRACEDAT-BEGIN NAME
#   TRACEDAT-END NAME <bytes> <md5>
# The guest's own per-event-type counts, from the text trace, are printed as
#   TRACEDAT-COUNT NAME <type> <count>
# for the host to compare with trace-cmd's report.  The checks here only
# cover the capture itself.
. /harness/lib.sh

TD=/tmp/tracedat

# count_types NAME: per-event-type counts of the text trace of NAME.
# Event lines name their event ("sched_switch: ..."), except syscall events,
# printed as "sys_read(fd: ...)" (sys_enter_read) and "sys_read -> 0x3"
# (sys_exit_read), and function_graph lines: "func() {" and "func();" are
# funcgraph_entry (the latter a leaf: entry and exit merged in one line) and
# "}" is funcgraph_exit; both printers merge leaves the same way.
count_types() {
	awk -v name="$1" '
	/^#/ { next }
	# function_graph: " 0)  1.000 us    |    fdget_pos();"
	/^ *[0-9]+\) .*\| / {
		body = $0; sub(/^[^|]*\| */, "", body)
		if (body ~ /^\/\*/) { n["funcgraph_comment"]++; next }
		if (body ~ /\) \{ *$/) n["funcgraph_entry"]++
		else if (body ~ /\); *$/) { n["funcgraph_entry"]++; n["funcgraph_leaf"]++ }
		else if (body ~ /^\} */) n["funcgraph_exit"]++
		else n["funcgraph_other"]++
		next
	}
	# event line: "  comm-pid  [000] d..1.  12.345678: what..."
	/\[[0-9]+\] .* [0-9]+\.[0-9]+: / {
		rest = $0; sub(/^.* [0-9]+\.[0-9]+: /, "", rest)
		if (match(rest, /^[A-Za-z0-9_]+: /)) {
			t = substr(rest, 1, RLENGTH - 2)
		} else if (match(rest, /^sys_[A-Za-z0-9_]+ -> /)) {
			t = substr(rest, 5, RLENGTH - 8); t = "sys_exit_" t
		} else if (match(rest, /^sys_[A-Za-z0-9_]+\(/)) {
			t = substr(rest, 5, RLENGTH - 5); t = "sys_enter_" t
		} else {
			t = "unparsed"
		}
		n[t]++
	}
	END { for (t in n) printf "TRACEDAT-COUNT %s %s %d\n", name, t, n[t] }
	' $TD/$1/trace.txt | sort
}

# capture NAME SYSTEM...: save everything trace.dat needs from the stopped
# trace, with the event formats of the given systems (ftrace is always
# included), then print it on the console.
capture() {
	_name=$1
	shift
	_d=$TD/$_name
	echo 0 >$T/tracing_on
	rm -rf $_d
	mkdir -p $_d/events
	for _f in header_page header_event; do
		cat $T/events/$_f >$_d/$_f
	done
	cat $T/printk_formats >$_d/printk_formats
	cat $T/saved_cmdlines >$_d/saved_cmdlines
	cat $T/trace_clock >$_d/trace_clock
	cat /proc/kallsyms >$_d/kallsyms
	uname -a >$_d/uname
	# byte order: a 16-bit 1 stored as 00 01 is big endian
	case $(printf '\000\001' | od -An -tu2 | tr -d ' ') in
	1) echo big >$_d/endian ;;
	*) echo little >$_d/endian ;;
	esac
	if [ -r $T/buffer_subbuf_size_kb ]; then
		echo $(($(cat $T/buffer_subbuf_size_kb) * 1024)) >$_d/subbuf_size
	else
		echo 4096 >$_d/subbuf_size
	fi
	for _s in ftrace "$@"; do
		for _e in $T/events/$_s/*/; do
			_e=${_e%/}
			[ -f $_e/format ] || continue
			mkdir -p $_d/events/$_s/${_e##*/}
			cat $_e/format >$_d/events/$_s/${_e##*/}/format
		done
	done
	# The text trace first: trace_pipe_raw consumes what it reads.
	cat $T/trace >$_d/trace.txt
	for _c in $T/per_cpu/cpu*; do
		_n=${_c##*/cpu}
		cat $_c/stats >$_d/cpu$_n.stats
		_entries=$(sed -n 's/^entries: *//p' $_c/stats)
		if [ "${_entries:-0}" -gt 0 ]; then
			# A read blocks once the buffer is empty, even with tracing
			# off: bound it.  Every read returns one whole sub-buffer.
			timeout 5 dd if=$_c/trace_pipe_raw of=$_d/cpu$_n.raw \
				bs="$(cat $_d/subbuf_size)" 2>/dev/null
		fi
		[ -f $_d/cpu$_n.raw ] || : >$_d/cpu$_n.raw
	done
	(cd $TD && tar cf - $_name) | gzip -9 >$TD/$_name.tar.gz
	_size=$(wc -c <$TD/$_name.tar.gz)
	_md5=$(md5sum $TD/$_name.tar.gz | cut -d' ' -f1)
	echo "TRACEDAT-BEGIN $_name"
	base32 $TD/$_name.tar.gz
	echo "TRACEDAT-END $_name $_size $_md5"
	count_types $_name

	_raw=$(cat $_d/cpu*.raw | wc -c)
	_nfmt=$(find $_d/events -name format | wc -l)
	_lines=$(grep -vc '^#' $_d/trace.txt)
	echo "$_name: $_raw bytes of ring buffer, $_nfmt formats, $_lines trace lines"
	check tracedat-raw-$_name "no ring-buffer data captured" test "$_raw" -gt 0
	check tracedat-text-$_name "empty text trace" test "$_lines" -gt 0
	check tracedat-kallsyms-$_name "empty kallsyms" test -s $_d/kallsyms
	check tracedat-headers-$_name "no commit field in header_page" \
		grep -q 'commit' $_d/header_page
	rm -rf $_d $TD/$_name.tar.gz
}

# (a) syscall and sched events around a known command
trace_reset
echo 1 >$T/events/syscalls/enable
echo 1 >$T/events/sched/enable
cat /proc/version >/dev/null
sleep 0.01
echo 0 >$T/tracing_on
echo 0 >$T/events/enable
capture events syscalls sched

# (b) function_graph of one read(2) of /proc/version (dd, not cat: busybox
# cat copies with sendfile(2))
trace_reset
if [ -w $T/set_graph_function ] && is_kernel_text ksys_read; then
	echo 0 >$T/tracing_on
	echo ksys_read >$T/set_graph_function
	echo function_graph >$T/current_tracer
	echo 1 >$T/tracing_on
	dd if=/proc/version of=/dev/null bs=4096 count=1 2>/dev/null
	echo 0 >$T/tracing_on
	capture graph
else
	skip tracedat-graph "no set_graph_function (DYNAMIC_FTRACE=n) or no ksys_read"
fi

trace_reset
check_done
