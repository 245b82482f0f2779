#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# host-tests.sh [LOG [VMLINUX]]: run the host-side unit tests
# (harness/tests/test_*.py) and write one "CHECK PASS|FAIL|SKIP host:Class.test"
# line per test case to LOG (default build/logs/host-tests.log), for
# `results.py summarize`.  The raw unittest output goes next to it (.raw).
# VMLINUX (default build/KERNEL/kobj-dynamic/vmlinux, KERNEL 7.3 by default) is the kernel the instruction
# decoder is checked against (test_decode_insn.py).  Exit 1 on any failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
log=$(realpath -m "${1:-$here/../build/logs/host-tests.log}")
raw=${log%.log}.raw
mkdir -p "$(dirname "$log")"
export DECODE_INSN_VMLINUX
DECODE_INSN_VMLINUX=$(realpath -m "${2:-$here/../build/${KERNEL:-7.3}/kobj-dynamic/vmlinux}")

set +e
PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -v -s "$here/tests" -p 'test_*.py' >"$raw" 2>&1
rc=$?
set -e
python3 "$here/results.py" from-unittest "$raw" >"$log"
cat "$log"
if [ $rc -ne 0 ] || grep -q '^CHECK FAIL' "$log"; then
	echo "host-tests: FAILED (unittest output: $raw)" >&2
	exit 1
fi
echo "host-tests: $(grep -c '^CHECK PASS' "$log") passed ($log)"
