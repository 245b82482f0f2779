#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mutate.sh BUILD_DIR KERNEL_ID [MUTANT...]: the cache flush mutants
# (`make mutate`, MACHINE=atari060 by default; not part of make check).
#
# Each mutant is the kernel BUILD_DIR/kobj-KERNEL_ID built again with one
# instruction cache flush taken out of the code that writes instructions,
# then booted on one suite that writes and runs such code.  The mutant
# must fail it ("killed"): otherwise the suites could not see that flush
# go missing ("SURVIVED", exit status 1).  The control is the same
# kernel rebuilt the same way without a change: it must pass, or a
# killed mutant proves nothing.
#
# The mutant's tree is a hard-linked copy of BUILD_DIR/linux in which the
# one file changed is written anew (never through the link), its kernel is
# built from the same .config (through ccache, only the changed file
# compiles), and it boots the unchanged kernel's initramfs (a change in
# built-in code changes no module).  The suite runs through
# harness/check.sh, against its usual expectation.  Work and logs in
# BUILD_DIR/mutate/NAME, a table in BUILD_DIR/mutate/results.md.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
me=mutate
die_status=2
# shellcheck source=harness/lib.sh
. "$top/harness/lib.sh"
[ $# -ge 2 ] || die "usage: $0 BUILD_DIR KERNEL_ID [MUTANT...]"
B=$(realpath "$1") id=$2
shift 2
kobj=$(kobj "$B" "$id")
if [ ! -f "$kobj/vmlinux" ] || [ ! -f "$kobj/initramfs.cpio.gz" ]; then
	die "no $kobj/vmlinux and initramfs.cpio.gz (make initramfs first)"
fi
machine=$(kernel_machine "$id")
jobs=${JOBS:-$(nproc)}

# NAME|SUITE|FILE|what the mutant lacks: SUITE is the suite's name with
# "hatari060" standing for the machine's (hatari030 on atari030).
mutants=(
	"control|hatari060|-|nothing: the kernel rebuilt as the mutants are"
	"writer|hatari060|arch/m68k/kernel/patching.c|the text writer's flush (every site, breakpoint, static branch and slot write)"
	"kprobe-slot|hatari060|arch/m68k/kernel/probes/kprobes.c|the flush of a kprobe's out-of-line slot"
	"optprobe|hatari060|arch/m68k/kernel/probes/opt.c|the flush of an optimized kprobe's detour buffer"
	"uprobe-xol|hatari060-uprobes|arch/m68k/kernel/probes/uprobes.c|the flush of the user XOL slot"
	"module|hatari060|kernel/module/main.c|the flush of a loaded module's text"
)

# mutate NAME FILE: rewrite FILE (a new inode) without its flush
mutate() {
	python3 - "$1" "$2" <<'EOF'
import os, sys
name, path = sys.argv[1:]
edits = {
    'writer': ('\tflush_icache_range(addr, addr + len);\n}\n', '}\n'),
    'kprobe-slot': ('if (m68k_patch_copy(p->ainsn.insn, insn.slot, insn.slot_len)) {',
                    'if (!memcpy(p->ainsn.insn, insn.slot, insn.slot_len)) {'),
    'optprobe': ('if (m68k_patch_copy(slot, buf, 2 * n)) {',
                 'if (!memcpy(slot, buf, 2 * n)) {'),
    'uprobe-xol': ('\tkunmap_local(kaddr);\n\tflush_dcache_page(page);\n',
                   '\tkunmap_local(kaddr);\n'),
    'module': ('\t\t\tflush_icache_range((unsigned long)mod_mem->base,\n'
               '\t\t\t\t\t   (unsigned long)mod_mem->base + mod_mem->size);\n', ''),
}
old, new = edits[name]
text = open(path).read()
if text.count(old) != 1:
    sys.exit(f'mutate: {path}: the text to change is there {text.count(old)} times, not once')
os.unlink(path)
with open(path, 'w') as f:
    f.write(text.replace(old, new))
EOF
}

want=("$@")
mkdir -p "$B/mutate"
table=$B/mutate/results.md
{
	echo "| mutant | taken out | suite | verdict |"
	echo "|---|---|---|---|"
} >"$table"
survived=0
for m in "${mutants[@]}"; do
	IFS='|' read -r name suite file what <<<"$m"
	if [ ${#want[@]} -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qxF "$name"; then
		continue
	fi
	[ "$machine" = atari060 ] || suite=${suite/hatari060/${machine/atari/hatari}}
	d=$B/mutate/$name
	echo "==> [mutate:$name] $(date +%T): $what; suite $suite"
	rm -rf "$d"
	mkdir -p "$d/kobj-$id"
	cp -al "$B/linux" "$d/linux"
	[ "$file" = - ] || mutate "$name" "$d/linux/$file"
	cp "$kobj/.config" "$d/kobj-$id/.config"
	if ! "$top/harness/build-kernel.sh" "$d/linux" "$d/kobj-$id" "$jobs" >"$d/build.txt" 2>&1; then
		cat "$d/build.txt" >&2
		die "$name: the kernel did not build"
	fi
	cp "$kobj/initramfs.cpio.gz" "$d/kobj-$id/"
	if SUITES=$suite "$top/harness/check.sh" "$d" >"$d/check.txt" 2>&1; then
		verdict=passed
	else
		verdict=failed
	fi
	tail -n 1 "$d/check.txt"
	fails=$(grep -h '^CHECK FAIL\|^FAIL\|not ok' "$d/check.txt" | head -3 | cut -c1-100 | paste -sd';' - || true)
	if [ "$name" = control ]; then
		v="passed (as it must)"
		if [ $verdict = failed ]; then
			v="FAILED: $fails"
			survived=1
		fi
	elif [ $verdict = failed ]; then
		v="killed: $(tail -n 1 "$d/check.txt")"
	else
		v="SURVIVED"
		survived=1
	fi
	echo "| $name | $what | $suite | $v |" >>"$table"
	echo "$me: $name: $v"
	# keep the logs, not the copies
	rm -rf "$d/linux" "$d/kobj-$id"
done
cat "$table"
exit $survived
