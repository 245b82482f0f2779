/* SPDX-License-Identifier: GPL-2.0 */
/*
 * m68k instruction decoder for kprobes (and later uprobes): instruction
 * lengths, what can be single-stepped out of line, and the relocated copy.
 */
#ifndef _M68K_KERNEL_PROBES_DECODE_INSN_H
#define _M68K_KERNEL_PROBES_DECODE_INSN_H

#include <linux/types.h>

#define M68K_INSN_MAX_LEN	22	/* bytes: longest 68020-060 integer/FPU insn */
#define M68K_INSN_SLOT_LEN	32	/* bytes: room for the relocated copy */

#define M68K_INSN_F_BRANCH	0x1	/* may leave the step at a PC-relative target */
#define M68K_INSN_F_PUSHRET	0x2	/* pushes a return address (bsr, jsr) */

struct m68k_insn {
	unsigned int len;		/* bytes of the original instruction */
	unsigned int slot_len;		/* bytes of the copy in slot[] */
	unsigned int flags;		/* M68K_INSN_F_* */
	const char *why;		/* why it was refused, NULL if accepted */
	u16 slot[M68K_INSN_SLOT_LEN / 2];	/* the copy to single-step */
};

/*
 * Length in bytes of the instruction at @text (@avail bytes readable), or
 * -EINVAL if not a valid encoding.
 */
int m68k_insn_len(const u16 *text, unsigned int avail);

/*
 * Decide whether the instruction at @text, which lives at kernel address
 * @addr, can be single-stepped out of line, and build the copy to step.
 * Returns 0 when accepted, -EINVAL when refused (insn->why says why;
 * insn->len is still set when the length is known).
 */
int m68k_insn_prepare(const u16 *text, unsigned int avail, unsigned long addr,
		      struct m68k_insn *insn);

#endif /* _M68K_KERNEL_PROBES_DECODE_INSN_H */
