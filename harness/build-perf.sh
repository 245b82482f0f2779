#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-perf.sh TREE OUTDIR TRACECMD_DIR ELFUTILS_DIR: tools/perf of the
# kernel tree, as a static m68k program for the guest (OUTDIR/bin/perf,
# installed as /usr/bin/perf by harness/mkinitramfs.sh; unstripped copy:
# OUTDIR/perf.debug).
#
# Built from the same tree as the kernels, against the static libtraceevent
# of harness/build-trace-cmd.sh (TRACECMD_DIR/m68k/prefix), which is what
# perf needs for tracepoint events (-e sched:sched_switch), and elfutils'
# libelf and libdw with their compression libraries from
# harness/build-elfutils.sh (ELFUTILS_DIR/prefix): `perf probe` reads DWARF
# in the guest.  Every other optional library is left out: no libunwind
# (callchains are the kernel's and frame-pointer ones; no DWARF unwinding
# of user stacks either), no libpython/perl scripting, no slang TUI.
# perf stat, record, report, script, list, ftrace, probe and trace work;
# `perf trace` names system calls from the m68k table that patch 0060 adds.
#
# build-perf.sh --host TREE OUTDIR: the same tools/perf for this machine
# (x86_64), with libdw (Debian's libdw-dev), for `perf probe` on an m68k
# kernel's or module's DWARF (harness/perf-probe-defs.sh): OUTDIR/bin/perf.
# Nothing else optional; no libtraceevent (perf probe does not need it).
#
# Rebuilt only when an input changes (hashes in OUTDIR/inputs); perf's own
# make is incremental within OUTDIR/obj.  Environment: JOBS (default: nproc).
# Log: OUTDIR/build.log.
set -euo pipefail
me=build-perf
# shellcheck source=harness/lib.sh
. "$(dirname "$0")/lib.sh"

host=
[ "${1:-}" != --host ] || { host=1; shift; }
if [ -n "$host" ]; then
	[ $# -eq 2 ] || die "usage: $0 --host TREE OUTDIR"
else
	[ $# -eq 4 ] || die "usage: $0 TREE OUTDIR TRACECMD_DIR ELFUTILS_DIR | --host TREE OUTDIR"
fi
tree=$(realpath "$1")
out=$(realpath -m "$2")
prefix=$(realpath -m "${3:-/nonexistent}/m68k/prefix")
elfpfx=$(realpath -m "${4:-/nonexistent}/prefix")
self=$(realpath "$0")
jobs=${JOBS:-$(nproc)}
cc=m68k-linux-gnu-gcc-12
[ -z "$host" ] || cc=gcc

[ -f "$tree/tools/perf/Makefile.perf" ] || die "no tools/perf in $tree"
if [ -z "$host" ]; then
	[ -f "$prefix/lib/libtraceevent.a" ] ||
		die "no static libtraceevent in $prefix (make trace-cmd builds it)"
	[ -f "$elfpfx/lib/libdw.a" ] ||
		die "no static libdw in $elfpfx (make elfutils builds it)"
else
	[ -f /usr/include/elfutils/libdw.h ] || die "no libdw.h (harness/deps.sh installs libdw-dev)"
fi
command -v "$cc" >/dev/null || die "$cc not found (harness/deps.sh installs it)"
# through ccache when it is installed, its cache outside the clone (as the
# kernels'), paths below the repository's top made relative so that
# another clone hits the same entries; perf's own feature tests too
usecc=$cc
if command -v ccache >/dev/null; then
	export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/m68k-ftrace-ccache}
	CCACHE_BASEDIR=$(realpath "$(dirname "$self")/..")
	export CCACHE_BASEDIR
	usecc="ccache $cc"
fi

hash_inputs() {
	echo "script $(sha256sum <"$self" | cut -d' ' -f1)"
	echo "tools $(cd "$tree" && find tools/perf tools/lib tools/include tools/arch/m68k \
		tools/build tools/scripts include/uapi arch/m68k/include/uapi -type f \
		-printf '%P %s %T@\n' 2>/dev/null | sort | sha256sum | cut -d' ' -f1)"
	[ -n "$host" ] ||
		echo "libtraceevent $(sha256sum <"$prefix/lib/libtraceevent.a" | cut -d' ' -f1)"
	[ -n "$host" ] ||
		echo "elfutils $(cat "$elfpfx"/lib/*.a | sha256sum | cut -d' ' -f1)"
	echo "cc $("$cc" --version | head -n 1)"
}
mkdir -p "$out/obj" "$out/bin"
# one build at a time in OUTDIR
exec 9>"$out/.lock"
flock 9
now=$(hash_inputs)
if [ -x "$out/bin/perf" ] && [ -f "$out/inputs" ] && [ "$now" = "$(cat "$out/inputs")" ]; then
	echo "$me: $out/bin/perf is up to date"
	exit 0
fi
rm -f "$out/inputs"
log=$out/build.log
if [ -n "$host" ]; then
	echo "$me: building tools/perf for this machine, with libdw (a few minutes; log: $log)"
	hopts=(NO_JVMTI=1 NO_LIBPYTHON=1 NO_LIBPERL=1 NO_SLANG=1 NO_GTK2=1 NO_LIBUNWIND=1
		NO_LIBBPF=1 NO_LIBCRYPTO=1 NO_LIBNUMA=1 NO_LIBCAP=1 NO_LIBBABELTRACE=1 NO_RUST=1
		NO_SDT=1 NO_AUXTRACE=1 NO_LIBAUDIT=1 NO_CAPSTONE=1 NO_LIBPFM4=1 NO_LIBLLVM=1
		NO_LIBDEBUGINFOD=1 NO_LIBTRACEEVENT=1)
	if ! make -C "$tree/tools/perf" O="$out/obj" CC="$usecc" JOBS="$jobs" "${hopts[@]}" \
		"$out/obj/perf" >"$log" 2>&1; then
		grep -E 'error|Error|\*\*\*' "$log" | head -30 >&2
		die "tools/perf (host) FAILED (full log: $log)"
	fi
	grep -q '^CONFIG_LIBDW=y' "$out/obj/.config-detected" ||
		die "perf was built without libdw (log: $log)"
	cp "$out/obj/perf" "$out/bin/perf"
	echo "$now" >"$out/inputs"
	echo "$me: $out/bin/perf (host, with libdw)"
	exit 0
fi
echo "$me: building tools/perf for m68k (a few minutes; log: $log)"

# perf's Makefile chooses its own -j from the CPU count: JOBS sets it.
# No DWARF unwinding (NO_LIBDW_DWARF_UNWIND): perf has no m68k unwind
# register table for it.
opts=(NO_JVMTI=1 NO_LIBPYTHON=1 NO_LIBPERL=1 NO_SLANG=1 NO_LIBUNWIND=1
	NO_LIBDW_DWARF_UNWIND=1 NO_LIBBPF=1 NO_LIBCRYPTO=1 NO_LIBNUMA=1
	NO_LIBCAP=1 NO_BACKTRACE=1 NO_LIBBABELTRACE=1 NO_RUST=1
	NO_SDT=1 NO_AUXTRACE=1 NO_LIBAUDIT=1 NO_DEMANGLE=1 NO_CAPSTONE=1 NO_LIBPFM4=1
	NO_LIBLLVM=1 NO_LIBDEBUGINFOD=1 NO_AIO=1)
# libtraceevent.pc names .../include/traceevent; perf includes <traceevent/...>.
# LIBDW_DIR gives the feature tests and the link elfutils' directories;
# pkg-config finds libdw's version there (a static link names its libraries).
if ! make -C "$tree/tools/perf" O="$out/obj" ARCH=m68k CROSS_COMPILE=m68k-linux-gnu- \
	CC="$usecc" HOSTCC=gcc JOBS="$jobs" LDFLAGS="-static -L$elfpfx/lib" "${opts[@]}" \
	LIBDW_DIR="$elfpfx" PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig:$elfpfx/lib/pkgconfig" \
	EXTRA_CFLAGS="-I$prefix/include -I$elfpfx/include" \
	"$out/obj/perf" >"$log" 2>&1; then
	grep -E 'error|Error|\*\*\*' "$log" | head -30 >&2
	die "tools/perf FAILED (full log: $log)"
fi
grep -q '^CONFIG_LIBTRACEEVENT=y' "$out/obj/.config-detected" ||
	die "perf was built without libtraceevent (log: $log)"
grep -q '^CONFIG_LIBDW=y' "$out/obj/.config-detected" ||
	die "perf was built without libdw (log: $log; feature tests: $out/obj/feature/test-libdw.make.output)"
file "$out/obj/perf" | grep -q 'statically linked' || die "$out/obj/perf is not a static program"
cp "$out/obj/perf" "$out/perf.debug"
m68k-linux-gnu-strip -o "$out/bin/perf" "$out/obj/perf"
echo "$now" >"$out/inputs"
echo "$me: $(du -h "$out/bin/perf" | cut -f1) $out/bin/perf"
