#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stage.sh NAME CMD...: run one build/test stage with a banner and its wall
# time; the time is also appended to build/logs/times.log.
name=$1
shift
log=$(dirname "$0")/../build/logs
mkdir -p "$log"
t0=$(date +%s)
echo "==> [$name] $(date +%T)"
"$@"
rc=$?
t=$(($(date +%s) - t0))
echo "$(date +%F\ %T) $name ${t}s rc=$rc" >>"$log/times.log"
if [ $rc -ne 0 ]; then
	echo "==> [$name] FAILED (exit $rc) after ${t}s" >&2
else
	echo "==> [$name] done in ${t}s"
fi
exit $rc
