/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The m68k instruction decoder of kprobes and uprobes: what a probe does
 * with an instruction, and everything the probe code needs to do it.
 */
#ifndef _M68K_KERNEL_PROBES_DECODE_INSN_H
#define _M68K_KERNEL_PROBES_DECODE_INSN_H

#include <linux/types.h>
#include <asm/probes.h>

/* What a probe does when it hits the instruction. */
enum m68k_insn_action {
	M68K_INSN_REFUSE,	/* it may not be probed: why says why */
	M68K_INSN_STEP,		/* single-step slot[], then apply the fix-ups */
	M68K_INSN_SIM_NOP,	/* may be simulated: go on after it (nop) */
	M68K_INSN_SIM_JUMP,	/* ... go to target (bra) */
	M68K_INSN_SIM_CALL,	/* ... push the address after it, go to target (bsr) */
};

/* The fix-ups after a step of slot[] */
#define M68K_INSN_F_BRANCH	0x01	/* PC-relative branch: a PC off the slot is rebased */
#define M68K_INSN_F_PUSHRET	0x02	/* pushes a return address (bsr, jsr) */
#define M68K_INSN_F_PCREL	0x04	/* slot[] holds an address computed for addr */
/* What the instruction says about the code around it */
#define M68K_INSN_F_TARGET	0x10	/* it may go to target, an instruction start */
#define M68K_INSN_F_TABLE	0x20	/* jmp (d8,%pc,Xn): a table may follow it */
#define M68K_INSN_F_WORD_TABLE	0x40	/* ... gcc's: word offsets from its end */

struct m68k_insn {
	unsigned int len;		/* bytes of the instruction, 0 if invalid */
	enum m68k_insn_action action;
	unsigned int flags;		/* M68K_INSN_F_* */
	unsigned long target;		/* with M68K_INSN_F_TARGET */
	const char *why;		/* why invalid or refused, else NULL */
	unsigned int slot_len;		/* bytes of the copy in slot[] */
	u16 slot[M68K_INSN_SLOT_LEN / 2];	/* the copy to step, unless refused */
};

/*
 * Decode the instruction at @text (@avail bytes readable), which lives at
 * @addr.  Returns -EINVAL when it is not a valid encoding (insn->why says
 * why); else 0, with everything in @insn set: a refused instruction has
 * its length, flags and target too.
 */
int m68k_insn_decode(const u16 *text, unsigned int avail, unsigned long addr,
		     struct m68k_insn *insn);

/*
 * After a step of the copy at @slot (@slot_len bytes) of the instruction at
 * @orig (@len bytes, fix-ups @flags), where the probed code goes on: the
 * step left @pc, which is moved off the slot (jmp, jsr and rts leave an
 * absolute one, which stays).  For the return address a step pushed
 * (M68K_INSN_F_PUSHRET), call it with no @flags: only the slot's end moves.
 */
static inline unsigned long m68k_insn_resume(unsigned int flags,
					     unsigned int len,
					     unsigned int slot_len,
					     unsigned long slot,
					     unsigned long orig,
					     unsigned long pc)
{
	if (pc == slot + slot_len)
		return orig + len;
	if (flags & M68K_INSN_F_BRANCH)
		return pc - slot + orig;
	return pc;
}

#endif /* _M68K_KERNEL_PROBES_DECODE_INSN_H */
