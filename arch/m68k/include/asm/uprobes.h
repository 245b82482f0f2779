/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Uprobes for m68k (68020-68060 with MMU).
 *
 * The breakpoint, the sizes and what to do with an instruction are those
 * of kprobes (asm/probes.h, the decoder of kernel/probes/decode-insn.h).
 * The probed instruction is simulated or single-stepped out of line with
 * the trace bit, see arch/m68k/kernel/probes/uprobes.c.
 */
#ifndef _ASM_M68K_UPROBES_H
#define _ASM_M68K_UPROBES_H

#include <linux/types.h>
#include <asm/probes.h>

typedef u16 uprobe_opcode_t;

#define UPROBE_SWBP_INSN	M68K_PROBE_BKPT
#define UPROBE_SWBP_INSN_SIZE	M68K_PROBE_BKPT_SIZE
#define MAX_UINSN_BYTES		M68K_INSN_MAX_LEN
#define UPROBE_XOL_SLOT_BYTES	M68K_INSN_SLOT_LEN

/* the decoder's description of the instruction (decode-insn.h) */
struct arch_uprobe {
	/* the instruction as it is in the file (read by the generic code) */
	u16	insn[MAX_UINSN_BYTES / 2];
	/* the copy for the slot; rebuilt per hit if it has a PC operand */
	u16	ixol[UPROBE_XOL_SLOT_BYTES / 2];
	u8	len;		/* bytes of the instruction */
	u8	slot_len;	/* bytes of the copy in the slot */
	u8	action;		/* enum m68k_insn_action */
	u8	flags;		/* M68K_INSN_F_* */
	s32	target;		/* with M68K_INSN_F_TARGET: from the probed address */
};

struct arch_uprobe_task {
	unsigned long	vaddr;		/* probed address the slot is built for */
	u16		saved_trace;	/* the task's T1/T0 bits before the step */
};

#endif /* _ASM_M68K_UPROBES_H */
