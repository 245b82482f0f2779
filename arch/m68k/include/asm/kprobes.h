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

#ifdef CONFIG_OPTPROBES
/*
 * An optimized kprobe (probes/opt.c) replaces the probed instruction and
 * those after it with "jmp abs.l": up to 4 bytes of instructions and
 * then one more, whose relocated copies (at most three instructions) run
 * from a buffer between "pea (op).l; jsr m68k_optprobe_caller" and the
 * jmp back.
 */
#define MAX_OPTIMIZED_LENGTH	(4 + M68K_INSN_MAX_LEN)
#define M68K_OPT_COPY_LEN	(3 * M68K_INSN_SLOT_LEN)
/* in kprobe_opcode_t units */
#define MAX_OPTINSN_SIZE	((6 + 6 + M68K_OPT_COPY_LEN + 6) / 2)

struct arch_optimized_insn {
	kprobe_opcode_t *insn;	/* the buffer, a kprobe_optinsn_slots slot */
	unsigned int size;	/* bytes of text the jump replaces */
	kprobe_opcode_t orig[3];	/* the words under the jump, unprobed */
};

struct optimized_kprobe;

/* the buffer calls the first (opt_caller.S), which calls the second */
void m68k_optprobe_caller(void);
asmlinkage void m68k_optprobe_callback(struct optimized_kprobe *op,
				       struct pt_regs *regs);
bool m68k_opt_arm(struct kprobe *p);
void m68k_opt_recover(unsigned long addr, u16 *buf, unsigned int len);
#else
static inline bool m68k_opt_arm(struct kprobe *p)
{
	return false;
}

static inline void m68k_opt_recover(unsigned long addr, u16 *buf,
				    unsigned int len)
{
}
#endif

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

int m68k_kprobe_read_text(unsigned long addr, u16 *buf, unsigned int len);
unsigned long m68k_kprobe_func_end(unsigned long func, unsigned long size);
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
