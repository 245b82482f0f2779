#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make profile` in one guest (harness/profile.sh): put tracing in the state
# named by "profile.state=" on the kernel command line (off, function,
# function_graph; all functions), then make tagged getppid() calls
# (`bench profile`) for the host's gdb to single-step one of.
. /harness/lib.sh
state=off
for _a in $(cat /proc/cmdline); do
	case $_a in profile.state=*) state=${_a#profile.state=} ;; esac
done

trace_reset
case $state in
off) ;;
function | function_graph) echo "$state" >$T/current_tracer ;;
*) echo "profile: unknown state '$state'"; exit 2 ;;
esac
echo "PROFILE state $state"
bench profile 20 >/dev/null || exit 1
trace_reset
