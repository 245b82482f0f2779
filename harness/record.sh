#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# record.sh VMLINUX INITRAMFS OUT.dat TIMEOUT CMD [TRACE_CMD_ARGS]: `make
# record`.  Boots the guest, runs `trace-cmd record TRACE_CMD_ARGS CMD`
# there and leaves the recording at OUT.dat on the host.  The guest's report
# of it is printed; the console log is OUT.log.
set -euo pipefail
me=record
# shellcheck source=harness/lib.sh
. "$(dirname "$0")/lib.sh"
[ $# -eq 5 ] || [ $# -eq 6 ] || die "usage: $0 VMLINUX INITRAMFS OUT.dat TIMEOUT CMD [TRACE_CMD_ARGS]"
here=$(cd "$(dirname "$0")" && pwd)
vmlinux=$1 initrd=$2 out=$(realpath -m "$3") timeout=$4 cmd=$5 args=${6:-}
[ -n "$cmd" ] || die "CMD is empty: make record CMD=\"ls /\" [TRACE_CMD_ARGS=\"-p function_graph\"]"

tmp=$(mktemp -d /tmp/record.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# CMD and TRACE_CMD_ARGS are shell text for the guest, as typed.
# shellcheck disable=SC2016 # $rc is the guest shell's
{
	echo '#!/bin/sh'
	echo '. /harness/lib.sh'
	echo 'cd /tmp'
	printf 'trace-cmd record -o /tmp/trace.dat %s %s\n' "$args" "$cmd"
	echo 'rc=$?'
	echo '[ -f /tmp/trace.dat ] || { echo "record: trace-cmd record wrote no trace.dat (exit $rc)"; exit 1; }'
	echo 'trace-cmd report -i /tmp/trace.dat | head -n 40'
	echo 'send_file trace.dat /tmp/trace.dat'
} >"$tmp/record.sh"

echo "$me: trace-cmd record $args $cmd"
"$here/qemu-run.sh" --kernel "$vmlinux" --initrd "$initrd" --timeout "$timeout" \
	--log "${out%.dat}.log" --append kunit.enable=0 "$tmp/record.sh" |
	grep -v -e '^[A-Z2-7]*=*$' -e '^GUEST-FILE-'
python3 "$here/guest-files.py" "${out%.dat}.log" "$tmp" trace.dat >/dev/null ||
	die "the recording did not reach the host intact (console: ${out%.dat}.log)"
mv "$tmp/trace.dat" "$out"
echo "$me: $out ($(wc -c <"$out") bytes)"
if grep -qa 'name: mm_vmscan_write_folio' "$out"; then
	# every event format is in the file (no -e): see trace-cmd-host.sh
	echo "$me: report it with $(realpath "$here/../build/trace-cmd/host/bin/trace-cmd") report -i $out"
	echo "$me: (Debian 12's own trace-cmd crashes on one of the m68k event formats in it)"
else
	echo "$me: report it with: trace-cmd report -i $out"
fi
