/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_M68K_KPROBES_H
#define _ASM_M68K_KPROBES_H

#include <asm-generic/kprobes.h>
#include <asm/probes.h>

#ifdef CONFIG_KPROBES
#include <linux/types.h>
#include <linux/percpu.h>

#define __ARCH_WANT_KPROBES_INSN_SLOT
/* in kprobe_opcode_t units: room for the relocated copy of an instruction */
#define MAX_INSN_SIZE		(M68K_INSN_SLOT_LEN / 2)
#define kretprobe_blacklist_size	0

typedef u16 kprobe_opcode_t;

struct pt_regs;
struct kprobe;

/* slots are written through m68k_patch_copy(), which flushes */
static inline void flush_insn_slot(struct kprobe *p)
{
}

struct arch_specific_insn {
	kprobe_opcode_t *insn;		/* the out-of-line copy, in a slot */
	unsigned int len;		/* bytes of the probed instruction */
	unsigned int slot_len;		/* bytes of the copy */
	unsigned int flags;		/* M68K_INSN_F_*, decode-insn.h */
};

struct prev_kprobe {
	struct kprobe *kp;
	unsigned int status;
	unsigned short saved_sr;
};

struct kprobe_ctlblk {
	unsigned int kprobe_status;
	unsigned short saved_sr;	/* SR of the probed code, during the step */
	struct prev_kprobe prev_kprobe;
};

void arch_remove_kprobe(struct kprobe *p);
int kprobe_fault_handler(struct pt_regs *regs, unsigned int trapnr);
bool kprobe_breakpoint_handler(struct pt_regs *regs);
bool kprobe_single_step_handler(struct pt_regs *regs);

#else /* !CONFIG_KPROBES */

struct pt_regs;

static inline bool kprobe_breakpoint_handler(struct pt_regs *regs)
{
	return false;
}

static inline bool kprobe_single_step_handler(struct pt_regs *regs)
{
	return false;
}

#endif /* CONFIG_KPROBES */
#endif /* _ASM_M68K_KPROBES_H */
