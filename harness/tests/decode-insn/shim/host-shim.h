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

/*
 * IS_ENABLED(CONFIG_x) as <linux/kconfig.h> has it, for options given
 * as -DCONFIG_x=1 (the ColdFire build: -DCONFIG_COLDFIRE=1).
 */
#define __ARG_PLACEHOLDER_1	0,
#define __take_second_arg(__ignored, val, ...)	val
#define __is_defined(x)		___is_defined(x)
#define ___is_defined(val)	____is_defined(__ARG_PLACEHOLDER_##val)
#define ____is_defined(arg1_or_junk)	__take_second_arg(arg1_or_junk 1, 0)
#define IS_ENABLED(option)	__is_defined(option)

#endif
