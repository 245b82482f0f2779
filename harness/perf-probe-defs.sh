#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf-probe-defs.sh KOBJ HOST_PERF OUTDIR: perf probe on the host, reading
# the DWARF of guest/modules/probe_target (built against KOBJ with -g), for
# guest/tests/perf.sh, which gets OUTDIR as /opt/perf-probe:
#   entry.def   perf probe --definition 'pt_mix a b'           (arguments)
#   line.def    ... 'pt_mix:REL sq mixed'  (locals at the PT_LINE line)
#   return.def  ... 'pt_mix%return $retval'
#   lines.txt   perf probe -L pt_mix;  vars.txt  perf probe -V pt_mix:REL
#   rel         REL, the PT_LINE line relative to pt_mix's first line
#   probe_target.c  the module's source, for the guest's own perf probe -L
# and, when KOBJ's vmlinux has DWARF (the btf kernel: DEBUG_INFO), the
# same for a function of the kernel itself, in OUTDIR/vmlinux (perf probe
# -k vmlinux, with the source of KOBJ/source; guest/tests/perf-vmlinux.sh):
#   entry.def   'vfs_read file->f_path.dentry->d_name.name:string count'
#   line.def    'vfs_read:REL ret'     (REL: the fsnotify_access() line)
#   return.def  'vfs_read%return $retval'
#   lines.txt   -L vfs_read;  vars.txt  -V vfs_read:REL;  rel  REL
# and what the guest's perf needs for the same (perf-vmlinux.sh):
#   vmlinux.debug  the DWARF of vmlinux (objcopy --only-keep-debug, its
#                  sections compressed: ~70 MiB; kept in KOBJ between runs)
#   src/linux/fs/read_write.c, src/kobj  the source, as -s src/kobj names it
# Each command's errors go to NAME.err: a failure here is reported by the
# guest's checks (the definition is missing), not by the build.
set -uo pipefail
me='perf-probe-defs'
[ $# -eq 3 ] || { echo "usage: $0 KOBJ HOST_PERF OUTDIR" >&2; exit 2; }
kobj=$1 perf=$2 out=$3
# defs DIR FN REL ENTRY LINE WHERE...: perf probe WHERE... writes into DIR
# the definitions of FN's entry with the arguments ENTRY, of line REL of FN
# with the variables LINE, of its return value, and -L FN and -V FN:REL
defs() {
	local dir=$1 fn=$2 rel=$3 entry=$4 line=$5 spec name opt arg
	shift 5
	for spec in "entry.def|--definition|$fn $entry" "line.def|--definition|$fn:$rel $line" \
		"return.def|--definition|$fn%return \$retval" "lines.txt|-L|$fn" "vars.txt|-V|$fn:$rel"; do
		IFS='|' read -r name opt arg <<<"$spec"
		"$perf" probe "$@" "$opt" "$arg" >"$dir/$name" 2>"$dir/${name%.*}.err" ||
			echo "$me: perf probe $* $opt '$arg' failed (see $dir/${name%.*}.err)" >&2
	done
	echo "$me: $(cat "$dir"/*.def 2>/dev/null | wc -l) definitions of $fn in $dir"
}

d=$kobj/ext/probe_target
ko=$d/probe_target.ko
src=$d/probe_target.c
rm -rf "$out" && mkdir -p "$out"
if [ ! -f "$ko" ]; then
	echo "no $ko (harness/build-kernel.sh builds it)" >"$out/entry.err"
	echo "$me: no $ko" >&2
	exit 0
fi
fn=$(grep -n '^static .*[^a-z_]pt_mix(' "$src" | cut -d: -f1)
line=$(grep -n 'PT_LINE' "$src" | head -n 1 | cut -d: -f1)
rel=$((line - fn))
echo "$rel" >"$out/rel"
cp "$src" "$out/probe_target.c"
defs "$out" pt_mix "$rel" 'a b' 'sq mixed' -m "$ko"

vmlinux=$kobj/vmlinux
"${CROSS:-m68k-linux-gnu-}readelf" -S "$vmlinux" 2>/dev/null | grep -q '\.debug_info' || exit 0
src=$kobj/source/fs/read_write.c
out=$out/vmlinux
mkdir -p "$out"
fn=$(grep -n '^ssize_t vfs_read(' "$src" | cut -d: -f1)
line=$(awk -v f="$fn" 'NR > f && /fsnotify_access\(file\);/ { print NR; exit }' "$src")
if [ -z "$fn" ] || [ -z "$line" ]; then
	echo "no vfs_read() with an fsnotify_access(file) line in $src" >"$out/line.err"
	echo "$me: vfs_read's lines not found in $src" >&2
	exit 0
fi
rel=$((line - fn))
echo "$rel" >"$out/rel"
defs "$out" vfs_read "$rel" 'file->f_path.dentry->d_name.name:string count' ret \
	-k "$vmlinux" -s "$kobj/source"
dbg=$kobj/vmlinux.debug
if [ ! "$dbg" -nt "$vmlinux" ]; then
	"${CROSS:-m68k-linux-gnu-}objcopy" --only-keep-debug --compress-debug-sections=zlib \
		"$vmlinux" "$dbg.tmp" 2>"$out/objcopy.err" && mv "$dbg.tmp" "$dbg" ||
		echo "$me: objcopy --only-keep-debug failed (see $out/objcopy.err)" >&2
fi
ln -f "$dbg" "$out/vmlinux.debug" 2>/dev/null || cp "$dbg" "$out/vmlinux.debug"
mkdir -p "$out/src/linux/fs" "$out/src/kobj"
cp "$src" "$out/src/linux/fs/read_write.c"
