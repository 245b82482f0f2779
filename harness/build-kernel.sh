#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-kernel.sh TREE KOBJ JOBS: vmlinux + modules, and the test modules of
# guest/modules, installed under KOBJ/modroot.  The full log is kept in KOBJ/build.log.
# A kernel without CONFIG_MODULES (MACHINE=mcf5208: no userland to load
# them) is vmlinux alone.
# GUEST_ARCH=x86_64 (arch.sh): the host's gcc, and bzImage for QEMU.
# The compiler runs through ccache when it is installed, with its cache
# outside the clone (CCACHE_DIR, default ~/.cache/m68k-ftrace-ccache), so
# that a fresh clone, CI's among them, finds what an earlier build
# compiled: paths are hashed relative to the repository (CCACHE_BASEDIR).
# ccache then hands gcc the tree's paths relative to KOBJ (../linux/...),
# where the kernel's own -fmacro-prefix-map=TREE/= no longer applies:
# KCPPFLAGS maps the relative prefix away instead, so __FILE__ (in every
# WARNING, BUG and KUnit message) stays "kernel/...", and the absolute
# map, which then matches nothing, is left out of the hash.  (The
# debug information of an object compiled in another clone names that
# clone's directory: gdb needs "directory" there.)
set -euo pipefail
# shellcheck source=harness/arch.sh
. "$(dirname "$0")/arch.sh"
tree=$1 kobj=$2 jobs=$3
repo=$(cd "$(dirname "$0")/.." && pwd)
km=(make -C "$tree" O="$kobj" ARCH="$KARCH" CROSS_COMPILE="$CROSS" -j"$jobs")
if command -v ccache >/dev/null; then
	export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/m68k-ftrace-ccache}
	export CCACHE_BASEDIR=$repo CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
	export CCACHE_IGNOREOPTIONS='-fmacro-prefix-map=/*'
	km+=(CC="ccache ${CROSS}gcc" KCPPFLAGS="-fmacro-prefix-map=$(realpath --relative-to="$kobj" "$tree")/=")
fi
modules=''
grep -qx 'CONFIG_MODULES=y' "$kobj/.config" && modules=1
targets=(vmlinux)
[ "$KARCH" != x86_64 ] || targets+=(bzImage)
[ -z "$modules" ] || targets+=(modules)
if ! "${km[@]}" "${targets[@]}" >"$kobj/build.log" 2>&1; then
	grep -E 'error|Error|\*\*\*' "$kobj/build.log" | head -40 >&2
	echo "build-kernel: FAILED, full log: $kobj/build.log" >&2
	exit 1
fi
grep -E 'warning:' "$kobj/build.log" | sort -u | head -20 || true
if [ -z "$modules" ]; then
	echo "build-kernel: $(du -h "$kobj/vmlinux" | cut -f1) vmlinux, no modules (CONFIG_MODULES off)"
	exit 0
fi
rm -rf "$kobj/modroot"
"${km[@]}" -s INSTALL_MOD_PATH="$kobj/modroot" modules_install >>"$kobj/build.log" 2>&1
# The test modules of guest/modules (built out of tree, against this kernel,
# in KOBJ/ext: kbuild writes its products next to the sources); they test
# m68k's call sites, and the x86_64 anchor has none of them but tp_count,
# which counts the tracepoints a workload passes (make bench), and
# pstore_hang, the hang of the pstore suite.
# With live patching, the test modules of the kernel's livepatch selftests
# too (tools/testing/selftests/livepatch/test_modules, as klp_test_modules),
# for guest/tests/livepatch.sh.
mods=("$repo"/guest/modules/tp_count/ "$repo"/guest/modules/pstore_hang/)
[ "$KARCH" != m68k ] || mods=("$repo"/guest/modules/*/)
klpmods=$tree/tools/testing/selftests/livepatch/test_modules
grep -qx 'CONFIG_LIVEPATCH=y' "$kobj/.config" && mods+=("$klpmods")
for m in "${mods[@]}"; do
	src=${m%/}
	m=$(basename "$src")
	[ "$src" != "$klpmods" ] || m=klp_test_modules
	rm -rf "$kobj/ext/$m" && mkdir -p "$kobj/ext" && cp -r "$src" "$kobj/ext/$m"
	if ! "${km[@]}" M="$kobj/ext/$m" modules >>"$kobj/build.log" 2>&1 ||
	   ! "${km[@]}" -s M="$kobj/ext/$m" INSTALL_MOD_PATH="$kobj/modroot" modules_install >>"$kobj/build.log" 2>&1; then
		grep -E 'error|Error|\*\*\*' "$kobj/build.log" | tail -20 >&2
		echo "build-kernel: test module $m FAILED, full log: $kobj/build.log" >&2
		exit 1
	fi
done
echo "build-kernel: $(du -h "$kobj/vmlinux" | cut -f1) vmlinux, $(find "$kobj/modroot" -name '*.ko' | wc -l) modules"
