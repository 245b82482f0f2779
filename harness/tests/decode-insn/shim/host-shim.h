/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host build of arch/m68k/kernel/probes/decode-insn.c: the few kernel
 * types and helpers it uses, mapped onto the C library.  The kernel
 * source is compiled unchanged; shim/linux/ holds one-line headers that
 * include this file in place of <linux/types.h> and friends.
 */
#ifndef DECODE_INSN_HOST_SHIM_H
#define DECODE_INSN_HOST_SHIM_H

#include <stdbool.h>
#include <string.h>

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef signed char s8;
typedef short s16;
typedef int s32;

/*
 * Not <errno.h>: glibc's errno.h includes <linux/errno.h>, which in this
 * build is the shim itself.
 */
#ifndef EINVAL
#define EINVAL		22
#endif

#define hweight8(w)	__builtin_popcount((w) & 0xff)

#endif
