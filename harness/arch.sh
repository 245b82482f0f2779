# shellcheck shell=bash disable=SC2034
# SPDX-License-Identifier: GPL-2.0
# Sourced by the build scripts: the toolchain of the guest's architecture.
# GUEST_ARCH is m68k (the default: every machine of the port) or x86_64
# (MACHINE=x86_64: the anchor of make bench, built from the same tree with
# the host's gcc).  Sets KARCH (kbuild's ARCH), KSRCARCH (arch/ directory),
# CROSS (CROSS_COMPILE), GUEST_CC and GUEST_MACHINE (readelf's "Machine:").
case ${GUEST_ARCH:-m68k} in
m68k)
	KARCH=m68k KSRCARCH=m68k CROSS=m68k-linux-gnu- GUEST_CC=m68k-linux-gnu-gcc-12
	GUEST_MACHINE='68000'
	;;
x86_64)
	KARCH=x86_64 KSRCARCH=x86 CROSS='' GUEST_CC=gcc
	GUEST_MACHINE='X86-64'
	;;
*)
	echo "arch.sh: unknown GUEST_ARCH '$GUEST_ARCH' (m68k or x86_64)" >&2
	exit 1
	;;
esac
