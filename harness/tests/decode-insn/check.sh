#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.sh VMLINUX [WORKDIR]: the m68k kprobes instruction decoder
# (arch/m68k/kernel/probes/decode-insn.c, built on the host) against
# objdump at every instruction of VMLINUX, plus its unit table.  Prints a
# "decode-insn: ..." summary line; exits non-zero on any failure.  See
# check.py for what is compared and which differences are tolerated.
#   check.sh --unit: the unit table alone (no vmlinux needed)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --unit ]; then
	exec python3 "$here/check.py" --unit-only ${2:+--workdir "$2"}
fi
vmlinux=${1:?usage: check.sh VMLINUX [WORKDIR] | check.sh --unit [WORKDIR]}
exec python3 "$here/check.py" ${2:+--workdir "$2"} "$vmlinux"
