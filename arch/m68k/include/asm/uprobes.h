/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Uprobes for m68k (68020-68060 with MMU).
 *
 * The breakpoint is the kprobes one: the line-A opcode 0xa000, which
 * Linux gives no meaning in user space either (an unhandled line-A
 * instruction is SIGILL).  The probed instruction is single-stepped out
 * of line with the trace bit, see arch/m68k/kernel/probes/uprobes.c.
 */
#ifndef _ASM_M68K_UPROBES_H
#define _ASM_M68K_UPROBES_H

#include <linux/types.h>

typedef u16 uprobe_opcode_t;

#define UPROBE_SWBP_INSN	0xa000
#define UPROBE_SWBP_INSN_SIZE	2

/* the longest 68020-060 integer or FPU instruction */
#define MAX_UINSN_BYTES		22
/*
 * The copy to step: making a PC-relative operand absolute lengthens the
 * instruction by up to 4 bytes, and the decoder refuses a copy longer
 * than 32.  The trace exception ends the step: nothing follows the copy.
 */
#define UPROBE_XOL_SLOT_BYTES	32

struct arch_uprobe {
	/* the instruction as it is in the file (read by the generic code) */
	u16	insn[MAX_UINSN_BYTES / 2];
	/* the copy for the slot; rebuilt per hit if it has a PC operand */
	u16	ixol[UPROBE_XOL_SLOT_BYTES / 2];
	u8	len;		/* bytes of the instruction */
	u8	slot_len;	/* bytes of the copy in the slot */
	u16	flags;		/* M68K_UPROBE_F_* */
};

/* what the copy does to the PC or the stack */
#define M68K_UPROBE_F_BRANCH	0x01	/* PC-relative branch: rebase the PC */
#define M68K_UPROBE_F_PUSHRET	0x02	/* bsr, jsr: fix the return address */
#define M68K_UPROBE_F_PCREL	0x04	/* PC-relative operand made absolute */
/* simulated instead of stepped (arch_uprobe_skip_sstep()) */
#define M68K_UPROBE_F_SIM_NOP	0x10	/* nop */
#define M68K_UPROBE_F_SIM_BRA	0x20	/* bra.b, bra.w, bra.l */
#define M68K_UPROBE_F_SIM_BSR	0x40	/* bsr.b, bsr.w, bsr.l */

struct arch_uprobe_task {
	unsigned long	vaddr;		/* probed address the slot is built for */
	u16		saved_trace;	/* the task's T1/T0 bits before the step */
};

#endif /* _ASM_M68K_UPROBES_H */
