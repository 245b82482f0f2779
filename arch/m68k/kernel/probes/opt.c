// SPDX-License-Identifier: GPL-2.0
/*
 * Optimized kprobes for m68k: a jump instead of the breakpoint.
 *
 * A kprobe stops the CPU twice per hit: the breakpoint exception and the
 * trace exception that ends the single step of the copied instruction.
 * Once the generic optimizer has seen a probe stay registered, it asks
 * for a detour: the probed instruction and those after it, up to the
 * six bytes of a "jmp abs.l", are replaced by a jump to a buffer of
 * their own (a slot of kprobe_optinsn_slots), which holds
 *
 *	pea	(op).l			the optimized_kprobe
 *	jsr	m68k_optprobe_caller	(opt_caller.S) saves the registers as
 *					the breakpoint would, calls
 *					m68k_optprobe_callback(), restores
 *	<the replaced instructions>	copied as the decoder relocates them
 *	jmp	(addr + size).l		back behind the replaced ones
 *
 * so a hit costs two calls and no exception.  The replaced instructions
 * run from the buffer, so each must be one the decoder would step
 * (decode-insn.c: never a trap, a privileged or SR-reading instruction;
 * PC-relative operands made absolute) and must go on to the next one: no
 * branch, call, jump or return.  And nothing may ever land on the second
 * or third word of the jump:
 *
 *  - no branch in the function may target the inside of the region, and
 *    a function with a jump whose target is not in its opcode (a switch's
 *    table, a computed goto) is never optimized;
 *  - no replaced instruction may have an exception-table entry: a fault
 *    there would leave a sleeping task's PC inside the region, and its
 *    fixup is for the original address (m68k keeps fixup code in .fixup,
 *    out of line, so no fixup lands inside a function);
 *  - the region holds no ftrace site (ftrace rewrites its own sites) and
 *    no jump label or static call;
 *  - no call is replaced, so no return address points into the region.
 *    A task preempted inside it (a preemptible ColdFire kernel) is waited
 *    for by the generic optimizer (synchronize_rcu_tasks()).
 *
 * The jump is written through the text patcher (patching.c), which puts
 * the illegal opcode over the first word while the rest is written and
 * makes the trap it raises take the jump: code reaching the probe at any
 * moment either hits the breakpoint, takes the jump or traps into the
 * emulated jump.  Unoptimizing writes the breakpoint and the original
 * words back the same way, the emulated jump still leading to the
 * buffer, which the generic code frees only after an RCU-tasks grace
 * period.  The patcher has one site in flight at a time; the generic
 * optimizer holds text_mutex, as ftrace's updates do, so no other writer
 * can have a site in flight, even on a preemptible ColdFire.
 */

#define pr_fmt(fmt) "optprobes: " fmt

#include <linux/extable.h>
#include <linux/ftrace.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/text-patching.h>
#include "decode-insn.h"

/* pea (xxx).l, and the jump written over the probe */
#define M68K_INSN_PEA_ABS	0x4879
#define M68K_OPT_JMP_LEN	6

/* Is there an ftrace site, which ftrace rewrites, in @len bytes at @a? */
static bool m68k_opt_ftrace_site(unsigned long a, unsigned int len)
{
#ifdef CONFIG_DYNAMIC_FTRACE
	return ftrace_location_range(a, a + len - 1);
#else
	return false;
#endif
}

/* Does the instruction @op (decoded: @flags) always go on to the next one? */
static bool m68k_opt_straight(u16 op, unsigned int flags)
{
	if (flags & (M68K_INSN_F_BRANCH | M68K_INSN_F_PUSHRET |
		     M68K_INSN_F_TARGET | M68K_INSN_F_TABLE))
		return false;
	if ((op & 0xffc0) == 0x4ec0)		/* jmp */
		return false;
	switch (op) {
	case 0x4e73:				/* rte */
	case 0x4e74:				/* rtd */
	case 0x4e75:				/* rts */
	case 0x4e77:				/* rtr */
		return false;
	}
	return true;
}

/*
 * NULL if nothing in the function at @func (@size bytes) may go into
 * the region (@start, @end): no branch targets its inside and no jump
 * has a target the decoder cannot see; else why.
 */
static const char *m68k_opt_no_entry(unsigned long func, unsigned long size,
				     unsigned long start, unsigned long end)
{
	unsigned long pc = func, fend = func + size;
	u16 buf[M68K_INSN_MAX_LEN / 2];
	struct m68k_insn insn;
	unsigned int avail;

	while (pc < fend) {
		avail = min_t(unsigned long, fend - pc, sizeof(buf)) & ~1U;
		if (m68k_kprobe_read_text(pc, buf, avail))
			return "text not readable";
		if (m68k_insn_decode(buf, avail, pc, &insn))
			return "not all of the function decodes";
		if (insn.flags & M68K_INSN_F_TABLE)
			return "a jump through a table";
		if ((buf[0] & 0xffc0) == 0x4ec0 &&
		    !(insn.flags & M68K_INSN_F_TARGET))
			return "a jump to a computed address";
		if ((insn.flags & M68K_INSN_F_TARGET) &&
		    insn.target > start && insn.target < end)
			return "a branch into the region";
		pc += insn.len;
	}
	return NULL;
}

/*
 * Copy the instructions from @addr on, at least M68K_OPT_JMP_LEN bytes
 * of them, into @copy; their length in the text into *@region and of the
 * copy into *@copy_len.  NULL, or why they cannot run from a buffer.
 */
static const char *m68k_opt_copy(unsigned long addr, unsigned long room,
				 u16 *copy, unsigned int *copy_len,
				 unsigned int *region)
{
	u16 buf[MAX_OPTIMIZED_LENGTH / 2];
	unsigned int avail, pos = 0, out = 0;
	struct m68k_insn insn;
	unsigned long a;

	avail = min_t(unsigned long, room, sizeof(buf)) & ~1U;
	if (avail < M68K_OPT_JMP_LEN)
		return "too close to the function's end";
	if (m68k_kprobe_read_text(addr, buf, avail))
		return "text not readable";
	while (pos < M68K_OPT_JMP_LEN) {
		a = addr + pos;
		if (m68k_insn_decode(&buf[pos / 2], avail - pos, a, &insn))
			return "not an instruction";
		if (insn.action != M68K_INSN_STEP &&
		    insn.action != M68K_INSN_SIM_NOP)
			return insn.why ? insn.why : "not steppable";
		if (!m68k_opt_straight(buf[pos / 2], insn.flags))
			return "a branch, call, jump or return";
		if (search_exception_tables(a))
			return "an instruction that may fault to a fixup";
		if (m68k_opt_ftrace_site(a, insn.len))
			return "an ftrace site";
		if (out + insn.slot_len > M68K_OPT_COPY_LEN)
			return "relocated copies too long";
		memcpy((u8 *)copy + out, insn.slot, insn.slot_len);
		out += insn.slot_len;
		pos += insn.len;
	}
	if (jump_label_text_reserved((void *)addr, (void *)(addr + pos - 1)) ||
	    static_call_text_reserved((void *)addr, (void *)(addr + pos - 1)))
		return "a jump label or static call";
	*copy_len = out;
	*region = pos;
	return NULL;
}

static void m68k_opt_put(u16 *buf, unsigned int *n, u16 op, unsigned long imm)
{
	buf[(*n)++] = op;
	buf[(*n)++] = imm >> 16;
	buf[(*n)++] = imm & 0xffff;
}

int arch_prepare_optimized_kprobe(struct optimized_kprobe *op,
				  struct kprobe *orig)
{
	unsigned long addr = (unsigned long)op->kp.addr;
	u16 buf[MAX_OPTINSN_SIZE];
	unsigned long size, offset;
	unsigned int n = 0, copy_len, region;
	kprobe_opcode_t *slot;
	const char *why;

	if (!kallsyms_lookup_size_offset(addr, &size, &offset))
		return -EINVAL;
	size = m68k_kprobe_func_end(addr - offset, size) - (addr - offset);
	if (offset >= size)
		return -EILSEQ;
	why = m68k_opt_copy(addr, size - offset, &buf[6], &copy_len, &region);
	if (!why)
		why = m68k_opt_no_entry(addr - offset, size, addr,
					addr + region);
	if (why) {
		pr_debug("%pS not optimized: %s\n", op->kp.addr, why);
		return -EILSEQ;
	}
	if (m68k_kprobe_read_text(addr, op->optinsn.orig, M68K_OPT_JMP_LEN))
		return -EFAULT;

	slot = get_optinsn_slot();
	if (!slot)
		return -ENOMEM;
	m68k_opt_put(buf, &n, M68K_INSN_PEA_ABS, (unsigned long)op);
	m68k_opt_put(buf, &n, M68K_INSN_JSR_ABS,
		     (unsigned long)m68k_optprobe_caller);
	n += copy_len / 2;
	m68k_opt_put(buf, &n, M68K_INSN_JMP_ABS, addr + region);
	if (m68k_patch_copy(slot, buf, 2 * n)) {
		free_optinsn_slot(slot, 0);
		return -EINVAL;
	}
	op->optinsn.insn = slot;
	op->optinsn.size = region;
	return 0;
}

int arch_prepared_optinsn(struct arch_optimized_insn *optinsn)
{
	return optinsn->size > 0;
}

/* No other probe may be armed inside the region. */
int arch_check_optimized_kprobe(struct optimized_kprobe *op)
{
	unsigned int i;
	struct kprobe *p;

	for (i = 2; i < op->optinsn.size; i += 2) {
		p = get_kprobe((u8 *)op->kp.addr + i);
		if (p && !kprobe_disabled(p))
			return -EEXIST;
	}
	return 0;
}

int arch_within_optimized_kprobe(struct optimized_kprobe *op,
				 kprobe_opcode_t *addr)
{
	unsigned long a = (unsigned long)addr;
	unsigned long start = (unsigned long)op->kp.addr;

	return a >= start && a < start + op->optinsn.size;
}

void arch_remove_optimized_kprobe(struct optimized_kprobe *op)
{
	if (op->optinsn.insn) {
		free_optinsn_slot(op->optinsn.insn, 1);
		op->optinsn.insn = NULL;
	}
	op->optinsn.size = 0;
}

/* "jmp (buffer).l", the instruction written over the probe */
static void m68k_opt_jump(struct optimized_kprobe *op, u16 *jmp)
{
	unsigned int n = 0;

	m68k_opt_put(jmp, &n, M68K_INSN_JMP_ABS,
		     (unsigned long)op->optinsn.insn);
}

void arch_optimize_kprobes(struct list_head *oplist)
{
	struct optimized_kprobe *op, *tmp;
	u16 jmp[M68K_OPT_JMP_LEN / 2];

	list_for_each_entry_safe(op, tmp, oplist, list) {
		m68k_opt_jump(op, jmp);
		WARN_ON_ONCE(m68k_patch_text(op->kp.addr, jmp, sizeof(jmp)));
		list_del_init(&op->list);
	}
}

/*
 * Back to the breakpoint: the patcher emulates the jump while it writes
 * the breakpoint and the original words behind it.
 */
void arch_unoptimize_kprobe(struct optimized_kprobe *op)
{
	u16 jmp[M68K_OPT_JMP_LEN / 2], back[M68K_OPT_JMP_LEN / 2];
	unsigned long flags;

	m68k_opt_jump(op, jmp);
	memcpy(back, op->optinsn.orig, sizeof(back));
	back[0] = M68K_PROBE_BKPT;
	if (!m68k_patch_begin(op->kp.addr, jmp, sizeof(jmp))) {
		m68k_patch_finish(back, sizeof(back));
		return;
	}
	/*
	 * Another site in flight: a writer broke the text_mutex rule (the
	 * patcher has warned).  The jump must go all the same, or the
	 * breakpoint's disarm would leave its operand behind the original
	 * first word: write the three words with interrupts off, when
	 * nothing else runs on this only CPU.
	 */
	raw_local_irq_save(flags);
	m68k_patch_copy(op->kp.addr, back, sizeof(back));
	raw_local_irq_restore(flags);
}

/* The optimized probe @p, if its jump is in the text, else NULL. */
static struct optimized_kprobe *m68k_opt_jumped(struct kprobe *p)
{
	struct optimized_kprobe *op;
	u16 jmp[M68K_OPT_JMP_LEN / 2];

	if (!kprobe_optimized(p))
		return NULL;
	op = container_of(p, struct optimized_kprobe, kp);
	if (!op->optinsn.insn)
		return NULL;
	m68k_opt_jump(op, jmp);
	if (memcmp(p->addr, jmp, sizeof(jmp)))
		return NULL;
	return op;
}

/*
 * Put back into @buf, @len bytes of text read at @addr, the words that
 * optimized probes' jumps cover there (m68k_kprobe_read_text()).
 */
void m68k_opt_recover(unsigned long addr, u16 *buf, unsigned int len)
{
	struct optimized_kprobe *op;
	unsigned long a, w;
	struct kprobe *p;

	for (a = addr - M68K_OPT_JMP_LEN + 2; a < addr + len; a += 2) {
		p = get_kprobe((kprobe_opcode_t *)a);
		op = p ? m68k_opt_jumped(p) : NULL;
		if (!op)
			continue;
		for (w = a; w < a + M68K_OPT_JMP_LEN; w += 2)
			if (w >= addr && w < addr + len)
				buf[(w - addr) / 2] =
					op->optinsn.orig[(w - a) / 2];
	}
}

/*
 * Arming a probe whose jump is still in the text: it was disabled while
 * optimized and enabled again before the delayed unoptimization ran, and
 * the generic code arms it without unoptimizing it (it looks for a jump
 * covering the address only before it).  A breakpoint over the jump's
 * first word alone would leave the jump's operand behind it: write the
 * breakpoint and the original words, as unoptimizing does.  The probe
 * stays flagged optimized and works through its breakpoint.
 */
bool m68k_opt_arm(struct kprobe *p)
{
	struct optimized_kprobe *op = m68k_opt_jumped(p);

	if (!op)
		return false;
	arch_unoptimize_kprobe(op);
	return true;
}

void arch_unoptimize_kprobes(struct list_head *oplist,
			     struct list_head *done_list)
{
	struct optimized_kprobe *op, *tmp;

	list_for_each_entry_safe(op, tmp, oplist, list) {
		arch_unoptimize_kprobe(op);
		list_move(&op->list, done_list);
	}
}

/*
 * Called by m68k_optprobe_caller with the registers of the probed code,
 * laid out as the breakpoint's exception would have saved them.
 */
void m68k_optprobe_callback(struct optimized_kprobe *op, struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb;

	/* a probe being unoptimized after it was disabled */
	if (kprobe_disabled(&op->kp))
		return;

	preempt_disable();
	if (kprobe_running()) {
		kprobes_inc_nmissed_count(&op->kp);
	} else {
		kcb = get_kprobe_ctlblk();
		instruction_pointer_set(regs, (unsigned long)op->kp.addr);
		__this_cpu_write(current_kprobe, &op->kp);
		kcb->kprobe_status = KPROBE_HIT_ACTIVE;
		opt_pre_handler(&op->kp, regs);
		__this_cpu_write(current_kprobe, NULL);
	}
	preempt_enable();
}
NOKPROBE_SYMBOL(m68k_optprobe_callback);
