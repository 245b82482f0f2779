// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobes for m68k: the 68020-68060 with an MMU, and ColdFire.
 *
 * A probe replaces the first word of an instruction with a breakpoint,
 * line A or ColdFire's illegal (asm/probes.h: one aligned 16-bit store,
 * so the CPU sees either the old or the new word).  trap_c() hands the
 * exception it raises to kprobe_breakpoint_handler(), which runs the
 * pre-handler and then single-steps a copy of the instruction in an
 * out-of-line slot: the trace bit T1 is set in the saved SR, the
 * interrupt mask raised to 7 so that no interrupt handler is traced (nor,
 * on a preemptible ColdFire, the step preempted), and the exception
 * returns to the slot.  After that one instruction the trace exception
 * comes back through trap_c() to kprobe_single_step_handler(), which
 * moves the PC (and a pushed return address) from the slot back to the
 * probed code, restores the SR and runs the post-handler.
 *
 * What to do is the instruction decoder's answer (decode-insn.c): it
 * refuses what cannot run out of line, rewrites PC-relative operands to
 * absolute ones, and flags branches and calls for the fixup here.  What
 * it would let a probe simulate (nop, bra, bsr) is stepped like the rest:
 * in the kernel a simulated bsr would have to push below the exception
 * frame, and one path for every instruction is easier to trust.
 */

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/extable.h>
#include <linux/ftrace.h>
#include <linux/kdebug.h>
#include <linux/uaccess.h>
#include <asm/sections.h>
#include <linux/text-patching.h>
#include "decode-insn.h"

#define M68K_SR_IPL	0x0700
#define M68K_SR_SYS	0xff00		/* T1 T0 S M . I2 I1 I0 */

DEFINE_PER_CPU(struct kprobe *, current_kprobe);
DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/*
 * Instruction boundaries.  A probe may only replace the first word of an
 * instruction, and the only way to find where instructions start is to
 * decode the function from its entry.  That holds until the first thing
 * in the function that is not an instruction: gcc places a switch's table
 * of offsets right after the "jmp (2,%pc,%dN.w)" that uses it, and
 * nothing marks where the table ends.  Past a table the walk resumes only
 * where an instruction is known to start: the target of a branch decoded
 * before it, or the case that the table's first entry points to (when
 * the jmp is gcc's: the table right behind it, indexed by words).  What
 * lies between the jmp and that point is refused; so is everything after
 * the jmp when no such point is known.
 */
#define M68K_WALK_TARGETS	16

struct m68k_walk {
	unsigned long end;			/* the function's end */
	unsigned long ahead[M68K_WALK_TARGETS];	/* known starts ahead */
	unsigned int nr;
};

/* Remember @target, a known instruction start, if it lies ahead of @pc. */
static void m68k_walk_note(struct m68k_walk *w, unsigned long pc,
			   unsigned long target)
{
	unsigned int i, far = 0;

	if (target <= pc || target >= w->end || (target & 1))
		return;
	if (w->nr < M68K_WALK_TARGETS) {
		w->ahead[w->nr++] = target;
		return;
	}
	/*
	 * full: give up one already passed, else the farthest; the nearest
	 * ones are what a resume needs
	 */
	for (i = 0; i < w->nr; i++) {
		if (w->ahead[i] <= pc) {
			w->ahead[i] = target;
			return;
		}
		if (w->ahead[i] > w->ahead[far])
			far = i;
	}
	if (target < w->ahead[far])
		w->ahead[far] = target;
}

/* The nearest known instruction start after @pc, or 0. */
static unsigned long m68k_walk_resume(struct m68k_walk *w, unsigned long pc)
{
	unsigned long best = 0;
	unsigned int i;

	for (i = 0; i < w->nr; i++)
		if (w->ahead[i] > pc && (!best || w->ahead[i] < best))
			best = w->ahead[i];
	return best;
}

/*
 * Note where the instruction @insn at @pc may go; after a jump through a
 * table return the address after it (where the table may be), else 0.
 */
static unsigned long m68k_walk_insn(struct m68k_walk *w, unsigned long pc,
				    const struct m68k_insn *insn)
{
	unsigned long end = pc + insn->len;
	s16 entry;

	if (insn->flags & M68K_INSN_F_TARGET)
		m68k_walk_note(w, pc, insn->target);
	if (!(insn->flags & M68K_INSN_F_TABLE))
		return 0;
	/* gcc's table: its first entry leads to the first case */
	if ((insn->flags & M68K_INSN_F_WORD_TABLE) &&
	    !copy_from_kernel_nofault(&entry, (void *)end, sizeof(entry)))
		m68k_walk_note(w, end, end + entry);
	return end;
}

/*
 * Read @len bytes of text at @addr into @buf as they were before any
 * probe changed them: a registered probe's breakpoint gives back the
 * opcode it replaced, and an optimized probe's jump the words it covers.
 * The walks decode from this, so that a probe armed earlier in the
 * function never moves the instruction boundaries another one is
 * checked against.  Called with kprobe_mutex held.
 */
int m68k_kprobe_read_text(unsigned long addr, u16 *buf, unsigned int len)
{
	struct kprobe *p;
	unsigned int i;

	if (copy_from_kernel_nofault(buf, (void *)addr, len))
		return -EFAULT;
	for (i = 0; i < len / 2; i++) {
		if (buf[i] != M68K_PROBE_BKPT)
			continue;
		p = get_kprobe((kprobe_opcode_t *)(addr + 2 * i));
		if (p)
			buf[i] = p->opcode;
	}
	m68k_opt_recover(addr, buf, len);
	return 0;
}

/*
 * NULL if @addr, @offset bytes into a function of @size bytes, starts an
 * instruction, else why not.
 */
static const char *m68k_kprobe_boundary(unsigned long addr,
					unsigned long size,
					unsigned long offset)
{
	unsigned long pc, table;
	u16 buf[M68K_INSN_MAX_LEN / 2];
	struct m68k_walk w = { };
	struct m68k_insn insn;

	pc = addr - offset;
	w.end = pc + size;
	while (pc < addr) {
		unsigned int avail = min_t(unsigned long, w.end - pc,
					   sizeof(buf)) & ~1U;

		if (m68k_kprobe_read_text(pc, buf, avail))
			return "text not readable";
		if (m68k_insn_decode(buf, avail, pc, &insn))
			return "not an instruction on the way to it";
		table = m68k_walk_insn(&w, pc, &insn);
		pc += insn.len;
		if (table && table <= addr) {
			pc = m68k_walk_resume(&w, table);
			if (!pc || pc > addr)
				return "in or after a jump table";
		}
	}
	return pc == addr ? NULL : "not an instruction boundary";
}

/*
 * The end of the code of the function at @func, kallsyms' @size bytes
 * long.  That size runs to the next symbol, so with call ops it counts the
 * next traced function's ftrace_ops slot (a pointer, not code: a
 * breakpoint there would corrupt it) and the 0x0000 word gcc may put
 * before it to align it to 4 bytes.  A function whose own last word is
 * 0x0000 loses that word too: its last instruction cannot be probed or
 * optimized over, which is safe.
 */
unsigned long m68k_kprobe_func_end(unsigned long func, unsigned long size)
{
	unsigned long end = func + size;
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS
	u16 w;

	if (size > 4 && ftrace_location(end) == end) {
		end -= 4;
		if (end - 2 > func && !m68k_kprobe_read_text(end - 2, &w, 2) &&
		    !w)
			end -= 2;
	}
#endif
	return end;
}

int __kprobes arch_prepare_kprobe(struct kprobe *p)
{
	unsigned long addr = (unsigned long)p->addr;
	unsigned long size, offset;
	u16 buf[M68K_INSN_MAX_LEN / 2];
	struct m68k_insn insn;
	unsigned int avail;
	const char *why;

	if (addr & 1)
		return -EILSEQ;
	if (!kallsyms_lookup_size_offset(addr, &size, &offset))
		return -EINVAL;
	size = m68k_kprobe_func_end(addr - offset, size) - (addr - offset);
	if (offset >= size) {
		pr_debug("%pS: an ftrace_ops slot or padding\n", p->addr);
		return -EILSEQ;
	}
	why = m68k_kprobe_boundary(addr, size, offset);
	if (why) {
		pr_debug("%pS: %s\n", p->addr, why);
		return -EILSEQ;
	}

	avail = min_t(unsigned long, size - offset, sizeof(buf)) & ~1U;
	if (m68k_kprobe_read_text(addr, buf, avail))
		return -EFAULT;
	if (buf[0] == M68K_PROBE_BKPT || buf[0] == M68K_INSN_ILLEGAL)
		return -EBUSY;	/* someone else's breakpoint, or a site in flight */
	if (m68k_insn_decode(buf, avail, addr, &insn) ||
	    insn.action == M68K_INSN_REFUSE) {
		pr_debug("%pS: %s\n", p->addr, insn.why);
		return -EINVAL;
	}

	p->ainsn.insn = get_insn_slot();
	if (!p->ainsn.insn)
		return -ENOMEM;
	if (m68k_patch_copy(p->ainsn.insn, insn.slot, insn.slot_len)) {
		free_insn_slot(p->ainsn.insn, 0);
		p->ainsn.insn = NULL;
		return -EINVAL;
	}
	p->opcode = buf[0];
	p->ainsn.len = insn.len;
	p->ainsn.slot_len = insn.slot_len;
	p->ainsn.flags = insn.flags;
	return 0;
}

void __kprobes arch_arm_kprobe(struct kprobe *p)
{
	u16 bkpt = M68K_PROBE_BKPT;

	if (m68k_opt_arm(p))
		return;
	WARN_ON_ONCE(m68k_patch_text(p->addr, &bkpt, sizeof(bkpt)));
}

void __kprobes arch_disarm_kprobe(struct kprobe *p)
{
	WARN_ON_ONCE(m68k_patch_text(p->addr, &p->opcode, sizeof(p->opcode)));
}

void __kprobes arch_remove_kprobe(struct kprobe *p)
{
	if (p->ainsn.insn) {
		free_insn_slot(p->ainsn.insn, 0);
		p->ainsn.insn = NULL;
	}
}

static void __kprobes save_previous_kprobe(struct kprobe_ctlblk *kcb)
{
	kcb->prev_kprobe.kp = kprobe_running();
	kcb->prev_kprobe.status = kcb->kprobe_status;
	kcb->prev_kprobe.saved_sr = kcb->saved_sr;
}

static void __kprobes restore_previous_kprobe(struct kprobe_ctlblk *kcb)
{
	__this_cpu_write(current_kprobe, kcb->prev_kprobe.kp);
	kcb->kprobe_status = kcb->prev_kprobe.status;
	kcb->saved_sr = kcb->prev_kprobe.saved_sr;
}

static void __kprobes set_current_kprobe(struct kprobe *p)
{
	__this_cpu_write(current_kprobe, p);
}

/* Return to the slot with T1 set and interrupts masked. */
static void __kprobes setup_singlestep(struct kprobe *p, struct pt_regs *regs,
				       struct kprobe_ctlblk *kcb, bool reenter)
{
	/*
	 * An exception does not mask interrupts on m68k: the breakpoint's
	 * handler runs at the probed code's level.  From the status below to
	 * the rte that starts the step, an interrupt hitting a probe would
	 * find one being stepped and could not recover: mask them first (the
	 * rte loads the step's SR, and the step's end gives back the probed
	 * code's).
	 */
	raw_local_irq_disable();
	if (reenter) {
		save_previous_kprobe(kcb);
		set_current_kprobe(p);
		kcb->kprobe_status = KPROBE_REENTER;
	} else {
		kcb->kprobe_status = KPROBE_HIT_SS;
	}
	kcb->saved_sr = regs->sr;
	regs->sr = (regs->sr & ~M68K_SR_T0) | M68K_SR_T1 | M68K_SR_IPL;
	instruction_pointer_set(regs, (unsigned long)p->ainsn.insn);
}

/* Give back the probed code's SR, keeping the condition codes of the step. */
static void __kprobes restore_sr(struct kprobe_ctlblk *kcb,
				 struct pt_regs *regs)
{
	regs->sr = (kcb->saved_sr & M68K_SR_SYS) | (regs->sr & ~M68K_SR_SYS);
}

static bool __kprobes reenter_kprobe(struct kprobe *p, struct pt_regs *regs,
				     struct kprobe_ctlblk *kcb)
{
	switch (kcb->kprobe_status) {
	case KPROBE_HIT_SSDONE:
	case KPROBE_HIT_ACTIVE:
		kprobes_inc_nmissed_count(p);
		setup_singlestep(p, regs, kcb, true);
		return true;
	case KPROBE_HIT_SS:
	case KPROBE_REENTER:
		/*
		 * The step runs with interrupts masked: a probe hit inside
		 * it cannot be recovered.  trap_c() dies on it.
		 */
		pr_err("unrecoverable kprobe re-entry at %pS\n", p->addr);
		dump_kprobe(p);
		return false;
	default:
		WARN_ON(1);
		return false;
	}
}

bool __kprobes kprobe_breakpoint_handler(struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	unsigned long addr = instruction_pointer(regs);
	struct kprobe *p;
	u16 op;

	p = get_kprobe((kprobe_opcode_t *)addr);
	if (!p) {
		/*
		 * The probe went away after we hit it (the breakpoint is
		 * gone): run the instruction that is there now.  The CPU
		 * has just fetched from @addr, so it can be read (and
		 * nothing on this path may call a traceable function such
		 * as copy_from_kernel_nofault(): a probe there would recurse).
		 */
		op = READ_ONCE(*(u16 *)addr);
		return op != M68K_PROBE_BKPT;
	}

	if (kprobe_running())
		return reenter_kprobe(p, regs, kcb);

	set_current_kprobe(p);
	kcb->kprobe_status = KPROBE_HIT_ACTIVE;
	/*
	 * A pre-handler that returns non-zero has changed the PC itself
	 * (e.g. a kretprobe-less function override): do not step.
	 */
	if (!p->pre_handler || !p->pre_handler(p, regs))
		setup_singlestep(p, regs, kcb, false);
	else
		reset_current_kprobe();
	return true;
}

/* Move the PC and a pushed return address from the slot to the text. */
static void __kprobes m68k_kprobe_fixup(struct kprobe *p, struct pt_regs *regs)
{
	unsigned long slot = (unsigned long)p->ainsn.insn;
	unsigned long orig = (unsigned long)p->addr;
	unsigned long *sp;

	regs->pc = m68k_insn_resume(p->ainsn.flags, p->ainsn.len,
				    p->ainsn.slot_len, slot, orig, regs->pc);
	if (p->ainsn.flags & M68K_INSN_F_PUSHRET) {
		sp = (unsigned long *)kernel_stack_pointer(regs);
		*sp = m68k_insn_resume(0, p->ainsn.len, p->ainsn.slot_len,
				       slot, orig, *sp);
	}
}

static void __kprobes post_kprobe_handler(struct kprobe *cur,
					  struct kprobe_ctlblk *kcb,
					  struct pt_regs *regs)
{
	if (kcb->kprobe_status == KPROBE_REENTER) {
		restore_previous_kprobe(kcb);
		return;
	}
	kcb->kprobe_status = KPROBE_HIT_SSDONE;
	if (cur->post_handler)
		cur->post_handler(cur, regs, 0);
	reset_current_kprobe();
}

bool __kprobes kprobe_single_step_handler(struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe *cur = kprobe_running();

	if (!cur || !(kcb->kprobe_status & (KPROBE_HIT_SS | KPROBE_REENTER)))
		return false;
	/*
	 * The step runs with T1 set, so the trace exception that ends it
	 * saves an SR with T1 set.  One whose SR does not trace was raised
	 * after an instruction that cleared T1, which is never the stepped
	 * one (the decoder refuses SR writes): QEMU (7.2 at least) does not
	 * clear ColdFire's T on exception entry and traces the first
	 * instruction of the step's own trace exception, "move #0x2700,%sr".
	 * Let that entry go on: it reports the step next.
	 */
	if (!(regs->sr & M68K_SR_T1))
		return true;

	m68k_kprobe_fixup(cur, regs);
	restore_sr(kcb, regs);
	post_kprobe_handler(cur, kcb, regs);
	return true;
}

int __kprobes kprobe_fault_handler(struct pt_regs *regs, unsigned int trapnr)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe *cur = kprobe_running();

	switch (kcb->kprobe_status) {
	case KPROBE_HIT_SS:
	case KPROBE_REENTER:
		/*
		 * The stepped copy faulted.  Point the PC back at the probed
		 * instruction and let the fault be handled as if it had
		 * happened there: its exception-table entry, if any, is for
		 * that address, and after a fixed-up fault the probe hits
		 * again.
		 */
		instruction_pointer_set(regs, (unsigned long)cur->addr);
		restore_sr(kcb, regs);
		if (kcb->kprobe_status == KPROBE_REENTER)
			restore_previous_kprobe(kcb);
		else
			reset_current_kprobe();
		break;
	case KPROBE_HIT_ACTIVE:
	case KPROBE_HIT_SSDONE:
		/*
		 * a handler faulted: its exception table decides (a no-MMU
		 * kernel has none)
		 */
		if (IS_ENABLED(CONFIG_MMU) && fixup_exception(regs))
			return 1;
		break;
	}
	return 0;
}

/*
 * Besides what the generic code refuses (.kprobes.text, where the ftrace
 * trampolines are, and every NOKPROBE_SYMBOL()), no probe may go into
 *  - the exception and interrupt entry, the system call path and resume
 *    (.entry.text);
 *  - the head code (.head.text): head.S keeps the kernel's root page
 *    table there, which a breakpoint would corrupt;
 *  - the FPU emulation packages (.text..fpsp), whose constant tables sit
 *    among their code.
 */
int __init arch_populate_kprobe_blacklist(void)
{
	int ret;

	ret = kprobe_add_area_blacklist((unsigned long)__entry_text_start,
					(unsigned long)__entry_text_end);
	if (ret)
		return ret;
	ret = kprobe_add_area_blacklist((unsigned long)_stext,
					(unsigned long)__head_text_end);
	if (ret)
		return ret;
#if defined(CONFIG_M68040) || defined(CONFIG_M68060)
	ret = kprobe_add_area_blacklist((unsigned long)__fpsp_text_start,
					(unsigned long)__fpsp_text_end);
#endif
	return ret;
}

int __kprobes arch_trampoline_kprobe(struct kprobe *p)
{
	return 0;
}

#if defined(CONFIG_FTRACE_MCOUNT_USE_PATCHABLE_FUNCTION_ENTRY) && \
	!defined(CONFIG_KPROBES_ON_FTRACE)
/*
 * With patchable function entries a function's first instruction is its
 * ftrace call site, which a breakpoint may not replace.  With
 * KPROBES_ON_FTRACE a probe there goes through ftrace (probes/ftrace.c);
 * without it, a probe on the entry goes to the instruction after the site:
 * the site is a no-op, or a call that returns with the stack as it found
 * it, so that is still the function's entry state (0(%sp) the return
 * address, the arguments above it) and kretprobes work as usual.
 */
kprobe_opcode_t *arch_adjust_kprobe_addr(unsigned long addr,
					 unsigned long offset,
					 bool *on_func_entry)
{
	if (ftrace_location(addr) == addr) {
		*on_func_entry = !offset || offset == MCOUNT_INSN_SIZE;
		if (*on_func_entry)
			offset = MCOUNT_INSN_SIZE;
	} else {
		*on_func_entry = !offset;
	}
	return (kprobe_opcode_t *)(addr + offset);
}
#endif

int __init arch_init_kprobes(void)
{
	return 0;
}
