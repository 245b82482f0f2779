#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A tracing storm under load.  While a fork/exec/pipe loop and a timer loop
# run in the background, cycle through every tracer of available_tracers
# (at least 1,000 switches by default), rewrite set_ftrace_filter/notrace and
# set_graph_function, resize the ring buffer, create and delete instances
# with a tracer or events enabled in them, add/enable/disable/remove kprobe
# events (and fprobe, tracepoint-probe and uprobe events where the kernel has
# them)
# and toggle events, the function profiler and the stack tracer.
# Then 100 (by default) module load/unload cycles (trace-events-sample and
# preemptirq_delay_test in turn) while the function tracer traces every
# function.  Afterwards: every step did what it was asked, the background
# load computed the same results as before the storm and its sleeps never
# came back early, tracing still works (function tracer, an event),
# nothing is left enabled, and the console (qemu-run --strict) shows no
# WARNING/BUG/Oops.
. /harness/lib.sh

KE=$T/kprobe_events
DE=$T/dynamic_events
# fprobe and tracepoint-probe events need the entry registers (pfe kernel)
UE=$T/uprobe_events
# uprobe events (CONFIG_UPROBE_EVENTS) on guest/src/uprobe-target.c's add3()
UBIN=/usr/bin/uprobe-target
up_add3=
[ -e $UE ] && up_add3=$($UBIN offsets | sed -n 's/^add3=//p')
has_fprobe=
grep -q '^[[:space:]]*f\[:' $T/README && grep -q '^[[:space:]]*t\[:' $T/README && has_fprobe=1
# The storm's size: storm.switches=N (tracer switches, at least) and
# storm.modcycles=N (module load/unload cycles) on the kernel command line;
# the defaults are the full storm (make check CHECK_LONG=1), make check
# runs a quarter of it.
MIN_SWITCHES=$(param storm.switches 1000)
MOD_CYCLES=$(param storm.modcycles 100)

# guest time in centiseconds (under -icount: guest instructions)
now_cs() {
	read -r _up _ </proc/uptime
	echo "${_up%.*}${_up#*.}"
}

# what the background load computes: data through pipes, fork+exec, a
# directory listing, an exit status
load_digest() {
	{
		dd if=/dev/zero bs=4096 count=8 2>/dev/null | md5sum
		seq 1 300 | sort -rn | md5sum
		ls -l /bin /harness | md5sum
		sh -c 'exit 3'
		echo "rc $?"
	} 2>&1
}

# the state the storm must leave as it found it
clean_state() {
	{
		echo "tracer $(cat $T/current_tracer)"
		echo "events $(cat $T/events/enable)"
		echo "tracing_on $(cat $T/tracing_on)"
		echo "kprobe_events $(wc -l <$KE) lines"
		echo "dynamic_events $(wc -l <$T/dynamic_events) lines"
		[ -e $UE ] && echo "uprobe_events $(wc -l <$UE) lines"
		echo "set_event $(wc -l <$T/set_event) lines"
		echo "filter $(cat $T/set_ftrace_filter)"
		echo "notrace $(cat $T/set_ftrace_notrace)"
		echo "graph $(cat $T/set_graph_function)"
		echo "enabled_functions $(wc -l <$T/enabled_functions) lines"
		echo "instances $(ls $T/instances)"
		echo "profile $(cat $T/function_profile_enabled)"
		echo "stack_tracer $(cat /proc/sys/kernel/stack_tracer_enabled)"
		echo "hwlat $(cat $T/hwlat_detector/width 2>/dev/null) $(cat $T/hwlat_detector/window 2>/dev/null)"
		echo "kprobes $(grep -c . /sys/kernel/debug/kprobes/list 2>/dev/null)"
	} 2>&1
}

trace_reset
echo >$KE
read -r buf_kb <$T/buffer_size_kb
want_state=$(clean_state)
echo "storm: initial state:"
echo "$want_state"
want=$(load_digest)
tracers=$(cat $T/available_tracers)
ntr=$(echo $tracers | wc -w)
rounds=$(((MIN_SWITCHES + ntr - 1) / ntr))
echo "storm: $rounds rounds over $ntr tracers: $tracers"
check storm-tracers "available_tracers lacks function/function_graph: $tracers" \
	sh -c "echo ' $tracers ' | grep -q ' function ' && echo ' $tracers ' | grep -q ' function_graph '"

# --- the background load: fork/exec/pipe loop and a timer loop
rm -f /tmp/storm.stop /tmp/load.count /tmp/load.bad /tmp/timer.count
(
	n=0 bad=0
	while [ ! -e /tmp/storm.stop ]; do
		got=$(load_digest)
		if [ "$got" = "$want" ]; then
			n=$((n + 1))
		else
			bad=$((bad + 1))
			echo "$got" >/tmp/load.bad
		fi
		echo "$n $bad" >/tmp/load.count
	done
) &
load_pid=$!
(
	n=0 min=
	while [ ! -e /tmp/storm.stop ]; do
		t0=$(now_cs)
		sleep 1
		d=$(($(now_cs) - t0))
		n=$((n + 1))
		[ -z "$min" ] || [ "$d" -lt "$min" ] && min=$d
	done
	echo "$n $min" >/tmp/timer.count
) &
timer_pid=$!

t_start=$(now_cs)

# --- the switch storm
filters="vfs_* sched* *lock* do_sys_openat2 - *read* kmem_cache_* -"
graphs="vfs_read - do_sys_openat2 -"
bufsizes="16 256 7 1024 64 1411"
nth() { # N LIST...: the (N mod count)th word of LIST
	_n=$1
	shift
	_n=$((_n % $#))
	shift $_n
	echo "$1"
}
switches=0 sw_bad=0 flt=0 flt_bad=0 buf=0 buf_bad=0 inst=0 inst_bad=0 inst_hits=0
kp=0 kp_bad=0 kp_hits=0 fp=0 fp_bad=0 up=0 up_bad=0 up_hits=0 ev=0 ev_bad=0 tog=0 tog_bad=0 errs=
err() { errs="$errs
$*"; }
# probe_cycle FILE GROUP RUN AFTER DEFINITION...: write each definition to
# FILE, enable GROUP, run the command RUN, disable GROUP, run the command
# AFTER (while the events still exist), remove the events.  Says what failed
# (err) and returns 1 if a step did; the events are gone either way.
probe_cycle() {
	_f=$1 _g=$2 _run=$3 _after=$4
	shift 4
	_bad=
	for _d in "$@"; do
		echo "$_d" >>$_f || { _bad="'$_d' refused"; break; }
	done
	if [ -z "$_bad" ]; then
		if echo 1 >$T/events/$_g/enable; then
			$_run >/dev/null || _bad="'$_run' failed"
			echo 0 >$T/events/$_g/enable || _bad="$_bad, disable failed"
			$_after
		else
			_bad="enable failed"
		fi
	fi
	for _d in "$@"; do
		_n=${_d%% *}
		echo "-:${_n#*:}" >>$_f 2>/dev/null || _bad="$_bad, removing ${_n#*:} failed"
	done
	[ -z "$_bad" ] && return 0
	err "$_g cycle $s: $_bad"
	echo 0 >$T/events/$_g/enable 2>/dev/null
	echo >$_f
	return 1
}
kprobe_hits() { kp_hits=$((kp_hits + $(awk '{ n += $2 } END { print n + 0 }' $T/kprobe_profile))); }
uprobe_hits() { up_hits=$((up_hits + $(awk '{ n += $3 } END { print n + 0 }' $T/uprobe_profile))); }
# hwlat samples with interrupts off for 10 ms, not 0.5 s, per switch
hw_width=$(cat $T/hwlat_detector/width 2>/dev/null)
echo 10000 >$T/hwlat_detector/width 2>/dev/null
r=0
while [ $r -lt $rounds ]; do
	for tr in $tracers; do
		s=$switches
		if echo "$tr" >$T/current_tracer; then
			read -r cur <$T/current_tracer
			[ "$cur" = "$tr" ] || { sw_bad=$((sw_bad + 1)); err "switch $s: current_tracer '$cur', not '$tr'"; }
		else
			sw_bad=$((sw_bad + 1))
			err "switch $s: '$tr' refused"
		fi
		switches=$((switches + 1))

		# filter rewrites ("-" clears: every function)
		if [ $((s % 3)) = 0 ]; then
			f=$(nth $((s / 3)) $filters)
			[ "$f" = - ] && f=
			if echo "$f" >$T/set_ftrace_filter; then
				read -r first <$T/set_ftrace_filter
				case "$f:$first" in
				:"#### all functions enabled ####" | "vfs_*":vfs_* | "sched*":sched* | \
				"*lock*":*lock* | do_sys_openat2:do_sys_openat2 | "*read*":*read* | \
				"kmem_cache_*":kmem_cache_*) ;;
				*) flt_bad=$((flt_bad + 1)); err "filter '$f' reads back '$first'" ;;
				esac
			else
				flt_bad=$((flt_bad + 1))
				err "filter '$f' refused"
			fi
			g=$(nth $((s / 3)) $graphs)
			[ "$g" = - ] && g=
			echo "$g" >$T/set_graph_function || { flt_bad=$((flt_bad + 1)); err "graph '$g' refused"; }
			if [ $((s % 2)) = 0 ]; then n=vfs_write; else n=; fi
			echo "$n" >$T/set_ftrace_notrace || { flt_bad=$((flt_bad + 1)); err "notrace '$n' refused"; }
			flt=$((flt + 1))
		fi

		# ring buffer resizes
		if [ $((s % 5)) = 1 ]; then
			b=$(nth $((s / 5)) $bufsizes)
			if echo "$b" >$T/buffer_size_kb; then
				# whole pages of 4080 data bytes: at most 4 KB more
				read -r cur <$T/buffer_size_kb
				[ "$cur" -ge "$b" ] && [ "$cur" -le $((b + 4)) ] ||
					{ buf_bad=$((buf_bad + 1)); err "buffer_size_kb $cur after writing $b"; }
			else
				buf_bad=$((buf_bad + 1))
				err "buffer_size_kb $b refused"
			fi
			buf=$((buf + 1))
		fi

		# an instance with a tracer (function, function_graph) or events in it
		if [ $((s % 8)) = 2 ]; then
			I=$T/instances/storm$s
			if mkdir $I; then
				case $((s / 8 % 3)) in
				0) echo function >$I/current_tracer ;;
				1) echo function_graph >$I/current_tracer ;;
				2) echo 1 >$I/events/sched/enable && echo 1 >$I/events/raw_syscalls/enable ;;
				esac || { inst_bad=$((inst_bad + 1)); err "instance $s: tracer/events refused"; }
				usleep 20000
				grep -qv '^#' $I/trace && inst_hits=$((inst_hits + 1))
				rmdir $I || { inst_bad=$((inst_bad + 1)); err "instance $s: rmdir failed"; }
			else
				inst_bad=$((inst_bad + 1))
				err "instance $s: mkdir failed"
			fi
			inst=$((inst + 1))
		fi

		# kprobe events: add, enable, disable, remove
		if [ $((s % 7)) = 3 ]; then
			probe_cycle $KE storm "ls /" kprobe_hits \
				'p:storm/kp vfs_read file=$arg1 count=$arg3' \
				'r:storm/kr do_sys_openat2 ret=$retval' || kp_bad=$((kp_bad + 1))
			kp=$((kp + 1))
		fi

		# fprobe and tracepoint-probe events
		if [ -n "$has_fprobe" ] && [ $((s % 7)) = 5 ]; then
			probe_cycle $DE stormf "ls /" : \
				'f:stormf/fp vfs_read count=$arg3' \
				'f:stormf/fr do_sys_openat2%return ret=$retval' \
				't:stormf/tp sched_switch' || fp_bad=$((fp_bad + 1))
			fp=$((fp + 1))
		fi

		# uprobe events on a user program that runs into them
		if [ -n "$up_add3" ] && [ $((s % 7)) = 6 ]; then
			probe_cycle $UE stormu "$UBIN run 2" uprobe_hits \
				"p:stormu/up $UBIN:$up_add3 a=\$stack1:s32" \
				"r:stormu/ur $UBIN:$up_add3 ret=\$retval:s32" || up_bad=$((up_bad + 1))
			up=$((up + 1))
		fi

		# events on and off in the top-level buffer
		if [ $((s % 11)) = 4 ]; then
			case $((s / 11 % 3)) in
			0) e=$T/events/sched/enable ;;
			1) e=$T/events/raw_syscalls/enable ;;
			2) e=$T/events/enable ;;
			esac
			echo 1 >$e && echo 0 >$e || { ev_bad=$((ev_bad + 1)); err "event toggle $e failed"; }
			ev=$((ev + 1))
		fi

		# the function profiler and the stack tracer, on and off
		if [ $((s % 50)) = 5 ]; then
			echo 1 >$T/function_profile_enabled && echo 1 >/proc/sys/kernel/stack_tracer_enabled &&
				ls / >/dev/null &&
				echo 0 >$T/function_profile_enabled && echo 0 >/proc/sys/kernel/stack_tracer_enabled ||
				{ tog_bad=$((tog_bad + 1)); err "profiler/stack tracer toggle failed"; }
			tog=$((tog + 1))
		fi
	done
	r=$((r + 1))
	# progress for whoever reads the console of a slow run
	if [ $((r % 25)) = 0 ]; then
		echo "storm: round $r of $rounds, $switches switches, $((($(now_cs) - t_start) / 100)) s"
	fi
done
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
echo >$T/set_ftrace_notrace
echo >$T/set_graph_function
echo "$buf_kb" >$T/buffer_size_kb
[ -n "$hw_width" ] && echo "$hw_width" >$T/hwlat_detector/width
t_switch=$(now_cs)
echo "storm: switch phase: $switches switches, $flt filter rewrites, $buf resizes, $inst instances ($inst_hits with entries), $kp kprobe cycles ($kp_hits hits), $fp fprobe/tprobe cycles, $up uprobe cycles ($up_hits hits), $ev event toggles, $tog profiler/stack toggles in $(((t_switch - t_start) / 100)) s"
[ -n "$errs" ] && echo "storm: errors:$errs" | head -n 40
check storm-switches "$sw_bad of $switches switches failed" test "$sw_bad" -eq 0 -a "$switches" -ge $MIN_SWITCHES
check storm-filters "$flt_bad of $flt filter rewrites failed" test "$flt_bad" -eq 0 -a "$flt" -gt 0
check storm-resizes "$buf_bad of $buf buffer resizes failed" test "$buf_bad" -eq 0 -a "$buf" -gt 0
check storm-instances "$inst_bad of $inst instance cycles failed" test "$inst_bad" -eq 0 -a "$inst" -gt 0
# an instance traces on its own: most of them recorded something in 20 ms
check storm-instance-entries "only $inst_hits of $inst instances recorded entries" \
	test "$inst_hits" -ge $((inst / 2))
check storm-kprobes "$kp_bad of $kp kprobe cycles failed" test "$kp_bad" -eq 0 -a "$kp" -gt 0
# every cycle's ls opened / (do_sys_openat2), and the load reads files
check storm-kprobe-hits "the storm's kprobes hit $kp_hits times in $kp cycles" test "$kp_hits" -ge "$kp"
if [ -n "$has_fprobe" ]; then
	check storm-fprobes "$fp_bad of $fp fprobe/tprobe cycles failed" test "$fp_bad" -eq 0 -a "$fp" -gt 0
else
	skip storm-fprobes "no fprobe/tprobe events in this kernel"
fi
if [ -n "$up_add3" ]; then
	check storm-uprobes "$up_bad of $up uprobe cycles failed" test "$up_bad" -eq 0 -a "$up" -gt 0
	# each cycle runs add3() twice: two entries and two returns
	check storm-uprobe-hits "the storm's uprobes hit $up_hits times in $up cycles" \
		test "$up_hits" -eq $((4 * up))
else
	skip storm-uprobes "no uprobe events in this kernel"
fi
check storm-events "$ev_bad of $ev event toggles failed" test "$ev_bad" -eq 0 -a "$ev" -gt 0
check storm-toggles "$tog_bad of $tog profiler/stack tracer toggles failed" test "$tog_bad" -eq 0 -a "$tog" -gt 0

# --- module load/unload while every function is traced
trace_reset
echo function >$T/current_tracer
mod_bad=0 cycles=0 mod_traced=
while [ $cycles -lt $MOD_CYCLES ]; do
	if [ $((cycles % 2)) = 0 ]; then
		m=trace-events-sample M=trace_events_sample
	else
		m=preemptirq_delay_test M=preemptirq_delay_test
	fi
	if modprobe $m; then
		# the first time: the module's own functions are traced too
		# (kernel/trace/ is built without -pg: only the sample has sites)
		if [ $cycles = 0 ] && grep -q "\[$M\]" $T/enabled_functions; then
			mod_traced=$M
		fi
		rmmod $m || { mod_bad=$((mod_bad + 1)); err "cycle $cycles: rmmod $m failed"; }
	else
		mod_bad=$((mod_bad + 1))
		err "cycle $cycles: modprobe $m failed"
	fi
	cycles=$((cycles + 1))
	if [ $((cycles % 25)) = 0 ]; then
		echo "storm: module cycle $cycles of $MOD_CYCLES, $((($(now_cs) - t_switch) / 100)) s"
	fi
done
read -r cur <$T/current_tracer
t_end=$(now_cs)
touch /tmp/storm.stop
wait $load_pid $timer_pid
echo nop >$T/current_tracer
echo "storm: module phase: $cycles cycles in $(((t_end - t_switch) / 100)) s, tracer still '$cur'"
check storm-mod-cycles "$mod_bad of $cycles module cycles failed" test "$mod_bad" -eq 0 -a "$cycles" -eq $MOD_CYCLES
check storm-mod-traced "trace_events_sample's functions not in enabled_functions while tracing all" \
	test "$mod_traced" = trace_events_sample
check storm-mod-tracer "current_tracer '$cur' after the module cycles" test "$cur" = function
check storm-mod-gone "a test module is still loaded" \
	sh -c "! grep -q '^\(trace_events_sample\|preemptirq_delay_test\) ' /proc/modules"

# --- the background load
read -r ln lbad </tmp/load.count
check storm-load-results "$lbad of $((ln + lbad)) load rounds computed other results: $(cat /tmp/load.bad 2>/dev/null | tr '\n' ' ')" \
	test "$lbad" -eq 0
check storm-load-ran "only $ln load rounds during the storm" test "$ln" -ge 20
read -r tn tmin </tmp/timer.count
echo "storm: load: $ln rounds with the right results; timer loop: $tn sleeps of 1 s, the shortest $tmin cs"
check storm-timer-ran "only $tn timer sleeps during the storm" test "$tn" -ge 20
# a 1 s sleep never returns early (99: /proc/uptime's own granularity)
check storm-timer-early "the shortest of $tn sleeps of 1 s took $tmin cs" test "${tmin:-0}" -ge 99

# --- nothing left enabled, tracing still works
got_state=$(clean_state)
check storm-clean "state after the storm differs: $(echo "$want_state" >/tmp/want.st; echo "$got_state" >/tmp/got.st; diff /tmp/want.st /tmp/got.st | grep '^[-+][^-+]' | tr '\n' ' ')" \
	test "$got_state" = "$want_state"
check storm-clean-nop "current_tracer is $(cat $T/current_tracer)" test "$(cat $T/current_tracer)" = nop
check storm-clean-events "events/enable is $(cat $T/events/enable)" test "$(cat $T/events/enable)" = 0
check storm-clean-kprobes "kprobe_events: $(cat $KE | tr '\n' ' ')" test ! -s $KE
check storm-clean-dynevents "dynamic_events: $(cat $DE | tr '\n' ' ')" test ! -s $DE
check storm-clean-filter "set_ftrace_filter: $(head -n 3 $T/set_ftrace_filter | tr '\n' ' ')" \
	test "$(cat $T/set_ftrace_filter)" = "#### all functions enabled ####"
check storm-clean-instances "instances left: $(ls $T/instances | tr '\n' ' ')" test -z "$(ls $T/instances)"
read -r cur <$T/buffer_size_kb
check storm-clean-buffer "buffer_size_kb $cur after writing back $buf_kb" \
	test "$cur" -ge "$buf_kb" -a "$cur" -le $((buf_kb + 4))
check storm-clean-sites "enabled_functions lists $(wc -l <$T/enabled_functions) sites" test ! -s $T/enabled_functions

trace_reset
echo vfs_read >$T/set_ftrace_filter
echo function >$T/current_tracer
# (dd, not cat: busybox cat copies with sendfile(2), which never calls vfs_read)
dd if=/harness/lib.sh of=/dev/null bs=512 2>/dev/null
echo 0 >$T/tracing_on
check storm-after-function "no vfs_read entry from the function tracer" grep -q ' vfs_read <-' $T/trace
if ! grep -q ' vfs_read <-' $T/trace; then
	echo "storm: tracing_on $(cat $T/tracing_on), tracer $(cat $T/current_tracer), filter $(cat $T/set_ftrace_filter), $(grep -vc '^#' $T/trace) entries"
	cat $T/enabled_functions
	head -n 30 $T/trace
	cat $T/trace_options | tr '\n' ' '; echo
	cat $T/tracing_cpumask $T/set_ftrace_pid $T/set_ftrace_notrace_pid $T/buffer_size_kb $T/per_cpu/cpu0/stats
fi
echo nop >$T/current_tracer
trace_reset
echo 1 >$T/events/sched/sched_process_exec/enable
sh -c true
echo 0 >$T/events/sched/sched_process_exec/enable
check storm-after-event "no sched_process_exec event" grep -q 'sched_process_exec: filename=' $T/trace
trace_reset

t_all=$(now_cs)
echo "storm: $switches tracer switches ($ntr tracers), $flt filter rewrites, $buf buffer resizes, $inst instances, $kp kprobe cycles, $fp fprobe/tprobe cycles, $up uprobe cycles, $cycles module cycles, $ln load rounds in $(((t_all - t_start) / 100)) s"
check_done
