#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-busybox.sh OUTDIR: a static m68k busybox from Debian's source
# package, left at OUTDIR/busybox (with its applet list OUTDIR/busybox.links);
# with GUEST_ARCH=x86_64 (harness/arch.sh), the x86_64 anchor's, by the host's gcc.
# Does nothing when OUTDIR/busybox is newer than this script.  The source package is
# downloaded once into build/dl; the full build log is OUTDIR/build.log.
# Environment: JOBS (default: nproc).
set -euo pipefail
# shellcheck source=harness/arch.sh
. "$(dirname "$0")/arch.sh"
me=build-busybox
# shellcheck source=harness/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 OUTDIR"
out=$(realpath -m "$1")
dl=$(realpath -m "$(dirname "$0")/../build/dl")
jobs=${JOBS:-$(nproc)}

if [ "$out/busybox" -nt "$0" ]; then
	echo "$me: $out/busybox is up to date, nothing to do"
	exit 0
fi

# Applets the guest scripts and the kselftest ftrace suite rely on.
NEEDED="sh ash chrt nice timeout awk sed grep mktemp seq insmod rmmod lsmod
modprobe depmod find xargs ping sleep poweroff mount umount stat cut tr head
tail wc od dd sort uniq date ip ifconfig hostname setsid cttyhack base64 gzip
tar"

# Changes on top of `make defconfig`.  modprobe-small is replaced by the
# full module tools so that the host-generated modules.dep is used.
# Everything else in defconfig (tc included) links statically against
# Debian 12's m68k glibc; static glibc only warns about getpwnam & co.
# -z separate-code gives the code its own pages, as on x86: the executable
# mapping then starts at the first instruction of .init instead of the ELF
# header, and the kselftest uprobe case probes the start of /bin/sh's
# executable mapping.
CONFIG_CHANGES="CONFIG_STATIC=y
CONFIG_MODPROBE_SMALL=n
CONFIG_EXTRA_LDFLAGS=\"-Wl,-z,separate-code\""

mkdir -p "$out" "$dl"
log=$out/build.log
: >"$log"
fail() {
	tail -n 25 "$log" >&2
	die "$* (full log: $log)"
}

dsc=$(find "$dl" -maxdepth 1 -name 'busybox_1.35.0-*.dsc' | sort -V | tail -n 1)
if [ -z "$dsc" ]; then
	echo "$me: downloading the busybox source package into $dl"
	(cd "$dl" && apt-get source --download-only busybox) >>"$log" 2>&1 ||
		fail "apt-get source busybox failed (deb-src entries missing? see harness/deps.sh)"
	dsc=$(find "$dl" -maxdepth 1 -name 'busybox_1.35.0-*.dsc' | sort -V | tail -n 1)
	[ -n "$dsc" ] || fail "no busybox_1.35.0-*.dsc in $dl after apt-get source (a different version?)"
fi

src=$out/src
rm -rf "$src"
echo "$me: unpacking $(basename "$dsc")"
dpkg-source -x "$dsc" "$src" >>"$log" 2>&1 || fail "dpkg-source -x failed"

bbmake=(make -C "$src" CROSS_COMPILE="$CROSS" CC="$GUEST_CC")
"${bbmake[@]}" defconfig >>"$log" 2>&1 || fail "make defconfig failed"
while IFS='=' read -r opt val; do
	sed -i -e "/^$opt=/d" -e "/^# $opt is not set/d" "$src/.config"
	if [ "$val" = n ]; then
		echo "# $opt is not set" >>"$src/.config"
	else
		echo "$opt=$val" >>"$src/.config"
	fi
done <<<"$CONFIG_CHANGES"
# Answer every new question (options depending on the changes) with its default.
{ yes '' || true; } | "${bbmake[@]}" oldconfig >>"$log" 2>&1 || fail "make oldconfig failed"
while IFS='=' read -r opt val; do
	if [ "$val" = n ]; then
		grep -qx "# $opt is not set" "$src/.config" || fail "$opt=n did not stick"
	else
		grep -qx "$opt=$val" "$src/.config" || fail "$opt=$val did not stick"
	fi
done <<<"$CONFIG_CHANGES"

echo "$me: building (-j$jobs), log: $log"
t0=$(date +%s)
"${bbmake[@]}" -j"$jobs" busybox >>"$log" 2>&1 || fail "build failed"
"${bbmake[@]}" busybox.links >>"$log" 2>&1 || fail "make busybox.links failed"

${CROSS}readelf -h "$src/busybox" | grep -q "Machine:.*$GUEST_MACHINE" ||
	fail "$src/busybox is not an $KARCH binary"
if ${CROSS}readelf -l "$src/busybox" | grep -q INTERP; then
	fail "$src/busybox is dynamically linked"
fi
# The executable segment must not start at the ELF header (see above).
${CROSS}readelf -lW "$src/busybox" | grep -qE '^ +LOAD +0x0*[1-9a-f][0-9a-f]* .* R E ' ||
	fail "$src/busybox: the executable segment starts at file offset 0 (-z separate-code ignored?)"
missing=
for a in $NEEDED; do
	grep -qE "/$a\$" "$src/busybox.links" || missing="$missing $a"
done
[ -z "$missing" ] || fail "applets missing from the build:$missing"

cp "$src/busybox.links" "$out/busybox.links"
cp "$src/busybox" "$out/busybox.tmp"
mv "$out/busybox.tmp" "$out/busybox"
echo "$me: $out/busybox: $(du -h "$out/busybox" | cut -f1), $(wc -l <"$out/busybox.links") applets, built in $(($(date +%s) - t0))s"
