#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-flat-init.sh SOURCE DIR: the ColdFire guest's init (guest/flat/init.c)
# as a FLAT binary, DIR/init, and the initramfs list naming it,
# DIR/initramfs.list, which configs/flat.config builds into the kernel
# (CONFIG_INITRAMFS_SOURCE).  No libc: freestanding, raw system calls,
# PC-relative throughout (-mpcrel) so that harness/elf2flt.py needs no
# relocation records.  Log: DIR/build.log.
set -euo pipefail
src=$1 dir=$2
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
log=$dir/build.log
: >"$log"
# -mcpu=5208: the ColdFire V2 ISA_A+ of QEMU's mcf5208evb (hardware divide)
if ! m68k-linux-gnu-gcc-12 -mcpu=5208 -mpcrel -Os -ffreestanding -fno-builtin -nostdlib \
	-static -fno-jump-tables -fno-asynchronous-unwind-tables -Wall -Wextra -Werror \
	-Wl,-Ttext=0x40 -Wl,-e,_start -Wl,--build-id=none -Wl,-q \
	-o "$dir/init.elf" "$src" >>"$log" 2>&1; then
	cat "$log" >&2
	echo "build-flat-init: compiling $src FAILED (log: $log)" >&2
	exit 1
fi
if ! python3 "$top/harness/elf2flt.py" "$dir/init.elf" "$dir/init.new" >>"$log" 2>&1; then
	cat "$log" >&2
	exit 1
fi
tail -n 1 "$log"
# rewritten only when changed: kbuild rebuilds the initramfs (and
# relinks vmlinux) when a file it lists is newer
if cmp -s "$dir/init.new" "$dir/init" 2>/dev/null; then
	rm "$dir/init.new"
else
	mv "$dir/init.new" "$dir/init"
fi
cat >"$dir/initramfs.list.new" <<LIST
# the ColdFire guest's root file system (usr/gen_init_cpio's format)
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /tracing 0755 0 0
dir /pstore 0755 0 0
dir /debug 0755 0 0
file /init $dir/init 0755 0 0
LIST
if cmp -s "$dir/initramfs.list.new" "$dir/initramfs.list" 2>/dev/null; then
	rm "$dir/initramfs.list.new"
else
	mv "$dir/initramfs.list.new" "$dir/initramfs.list"
fi
