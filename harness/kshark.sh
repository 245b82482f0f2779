#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# KernelShark on the host, for m68k recordings (Debian 12's kernelshark and
# libkshark, with the libtraceevent we patch ahead of Debian's, whose
# 1.7.1 crashes on one of m68k's event formats: see
# userspace/trace-cmd/patches/libtraceevent; nothing of the host's
# packages is changed, the library path is set for the one program).
#
#   kshark.sh count TRACE_CMD_DIR FILE...
#                  load each FILE with KernelShark's own loading code
#                  (harness/kshark-count.c, built into TRACE_CMD_DIR/host
#                  when older than its source) and print "FILE ENTRIES"
#   kshark.sh view TRACE_CMD_DIR FILE
#                  start the KernelShark GUI on FILE (needs a display)
#
# TRACE_CMD_DIR is harness/build-trace-cmd.sh's OUTDIR: its host/lib holds
# the patched libtraceevent.so.
set -euo pipefail
me=kshark
# shellcheck source=harness/lib.sh
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
usage="usage: kshark.sh count TRACE_CMD_DIR FILE... | view TRACE_CMD_DIR FILE"
[ $# -ge 3 ] || die "$usage"
cmd=$1 tc=$(realpath -m "$2")
shift 2
lib=$tc/host/lib
[ -e "$lib/libtraceevent.so.1" ] ||
	die "no $lib/libtraceevent.so.1 (harness/build-trace-cmd.sh builds it: make trace-cmd)"
for f in "$@"; do
	[ -r "$f" ] || die "cannot read $f"
done

case $cmd in
count)
	bin=$tc/host/bin/kshark-count
	src=$here/kshark-count.c
	if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
		[ -f /usr/include/kernelshark/libkshark.h ] ||
			die "no libkshark.h (package libkshark-dev: harness/deps.sh installs it)"
		# -isystem: Debian's libkshark.h does not build with -Wextra -Werror
		gcc -O2 -Wall -Wextra -Werror -isystem /usr/include/kernelshark \
			-o "$bin.tmp" "$src" -lkshark || die "cannot build $src"
		mv "$bin.tmp" "$bin"
	fi
	LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec "$bin" "$@"
	;;
view)
	[ $# -eq 1 ] || die "$usage"
	command -v kernelshark >/dev/null || die "no kernelshark (harness/deps.sh installs it)"
	[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] ||
		die "no display (DISPLAY is unset): KernelShark is a GUI; for a count of what it loads: kshark.sh count"
	LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec kernelshark "$1"
	;;
*)
	die "$usage"
	;;
esac
