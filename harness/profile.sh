#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# `make profile`: an instruction profile of one traced getppid() call.
#
#   profile.sh KOBJ OUTDIR [STATE...]
#
# States: off function function_graph kprobe kretprobe (all by default).
#
# For each state: boot KOBJ's kernel halted, with QEMU's gdbstub on a free
# local port, and run guest/bench/profile.sh in it (tracing in that state,
# then tagged getppid() calls).  Under -icount like `make bench`: guest time
# is instructions, so a single-stepped call sees the time stamps the bench
# sees; in real time every step lasts milliseconds, and the ring buffer
# would add a time extend to each event (46 instructions per event more
# than the bench executes).  gdb-multiarch (harness/profile_gdb.py)
# single-steps PROFILE_CALLS of those calls and writes OUTDIR/STATE.pcs.
# harness/profile.py then attributes every instruction to its function
# and writes OUTDIR/table.md, beside another kernel's profile when
# PROFILE_BESIDE="NAME VMLINUX DIR" names one (x86_64's, the anchor of
# make bench).  Console logs: OUTDIR/STATE.log.
set -euo pipefail
me=profile
# shellcheck source=harness/lib.sh
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || die "usage: $0 KOBJ OUTDIR [STATE...]"
kobj=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
states=("$@")
[ ${#states[@]} -gt 0 ] || states=(off function function_graph kprobe kretprobe)
command -v gdb-multiarch >/dev/null || die "gdb-multiarch not found (harness/deps.sh installs it)"
[ -f "$kobj/vmlinux" ] || die "no kernel $kobj/vmlinux"
mkdir -p "$out"

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# x86_64 (the anchor of make bench): its symbols' addresses hold only
# without KASLR
arch=m68k append=''
if grep -qx 'CONFIG_X86_64=y' "$kobj/.config"; then
	arch=x86_64 append=nokaslr
fi

for state in "${states[@]}"; do
	case $state in off | function | function_graph | kprobe | kretprobe) ;; *) die "unknown state '$state'" ;; esac
	port=$(free_port)
	rm -f "$out/$state.pcs"
	echo "$me: $state (gdbstub on 127.0.0.1:$port)"
	QEMU_EXTRA="-gdb tcp:127.0.0.1:$port -S" "$top/harness/qemu-run.sh" \
		--kernel "$kobj/vmlinux" --initrd "$kobj/initramfs.cpio.gz" --timeout 600 \
		--icount --log "$out/$state.log" --append "trace_event= kunit.enable=0 profile.state=$state${append:+ $append}" \
		"$top/guest/bench/profile.sh" >"$out/$state.out" 2>&1 &
	qpid=$!
	# QEMU listens once it has started; gdb retries until then.
	ok=
	for _ in $(seq 50); do
		if PROFILE_VMLINUX=$kobj/vmlinux PROFILE_PORT=$port PROFILE_OUT=$out/$state.pcs \
			PROFILE_ARCH=$arch \
			PROFILE_CALLS=${PROFILE_CALLS:-5} \
			gdb-multiarch -nx -batch -x "$top/harness/profile_gdb.py" \
			>"$out/$state.gdb" 2>&1; then
			ok=1
			break
		fi
		grep -q 'Connection refused' "$out/$state.gdb" || break
		sleep 0.2
	done
	grep '^profile:' "$out/$state.gdb" || true
	if ! wait "$qpid"; then
		tail -n 20 "$out/$state.out" >&2
		die "$state: the guest failed (console: $out/$state.log)"
	fi
	[ -n "$ok" ] || { tail -n 20 "$out/$state.gdb" >&2; die "$state: gdb failed ($out/$state.gdb)"; }
done
beside=()
if [ -n "${PROFILE_BESIDE:-}" ]; then
	read -r -a beside <<<"$PROFILE_BESIDE"
	[ ${#beside[@]} = 3 ] || die "PROFILE_BESIDE='$PROFILE_BESIDE': want NAME VMLINUX DIR"
	echo "$me: beside ${beside[0]}'s profile in ${beside[2]}"
fi
python3 "$top/harness/profile.py" "$kobj/vmlinux" "$out" "${beside[@]}"
