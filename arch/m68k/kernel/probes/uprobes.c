// SPDX-License-Identifier: GPL-2.0
/*
 * Uprobes for m68k (68020-68060 with MMU).
 *
 * The breakpoint is the line-A opcode 0xa000, as for kprobes: the CPU
 * raises vector 10 with the PC at the breakpoint, and trap_c() hands it
 * to uprobe_pre_sstep_notifier().  The generic code then runs the
 * handlers from the return to user mode (TIF_UPROBE) and either
 * simulates the instruction (arch_uprobe_skip_sstep()) or steps a copy
 * of it in a slot of the task's XOL page with the trace bit T1 set.  The
 * trace exception after that one instruction comes back through trap_c()
 * to uprobe_post_sstep_notifier(), and arch_uprobe_post_xol() moves the
 * PC from the slot back to the probed code.
 *
 * What is refused, stepped or simulated is the instruction decoder's
 * answer (decode-insn.c), the same as for kprobes:
 *  - refused is what cannot be stepped out of line: privileged
 *    instructions, traps (trap, trapv, chk, chk2, trapcc but trapf),
 *    bkpt, illegal, line A, the 68060's software-emulated integer
 *    instructions (movep, cas2, cmp2, 64-bit mul/div), and anything it
 *    does not know;
 *  - nop, bra and bsr are simulated;
 *  - everything else is stepped.  A PC-relative operand is made absolute
 *    in the copy (as for kprobes), for the address the probe has in the
 *    task that hit it: one uprobe serves every process mapping the file,
 *    at different addresses for a shared library or a PIE, so the copy is
 *    rebuilt per hit in arch_uprobe_copy_ixol();
 *  - a PC-relative branch (bcc, dbcc, fbcc, fdbcc, a bra or bsr that is
 *    not simulated) runs from the slot and its PC is rebased on the
 *    probed address afterwards; a return address pushed by bsr or jsr
 *    that points after the slot is replaced by the one after the probed
 *    instruction; jmp, jsr, rts, rtd and rtr leave an absolute PC, which
 *    stays.
 */

#define pr_fmt(fmt) "uprobes: " fmt

#include <linux/cacheflush.h>
#include <linux/highmem.h>
#include <linux/kdebug.h>
#include <linux/processor.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>
#include "decode-insn.h"

static_assert(sizeof_field(struct arch_uprobe, ixol) ==
	      sizeof_field(struct m68k_insn, slot));

/* The return trampoline: slot 0 of the XOL page holds a breakpoint. */
static struct arch_uprobe m68k_uprobe_tramp = {
	.ixol		= { UPROBE_SWBP_INSN },
	.len		= UPROBE_SWBP_INSN_SIZE,
	.slot_len	= UPROBE_SWBP_INSN_SIZE,
};

void *arch_uretprobe_trampoline(unsigned long *psize)
{
	*psize = UPROBE_SWBP_INSN_SIZE;
	return m68k_uprobe_tramp.ixol;
}

/* The exception leaves the PC at the breakpoint, not after it. */
unsigned long uprobe_get_swbp_addr(struct pt_regs *regs)
{
	return instruction_pointer(regs);
}

/*
 * uprobe_write_opcode() stores the breakpoint into the task's private copy
 * of the page through the kernel mapping.  Nothing pushes it out of the
 * 68040/060 copyback data cache before the task runs it, and the
 * instruction cache may hold old lines of the same physical page (or, on
 * the 68020/030, of the same virtual address).  These are rare (probe
 * registration, mmap of a probed file): push and invalidate everything.
 */
int set_swbp(struct arch_uprobe *auprobe, struct vm_area_struct *vma,
	     unsigned long vaddr)
{
	int ret = uprobe_write_opcode(auprobe, vma, vaddr, UPROBE_SWBP_INSN,
				      true);

	flush_icache();
	return ret;
}

int set_orig_insn(struct arch_uprobe *auprobe, struct vm_area_struct *vma,
		  unsigned long vaddr)
{
	int ret = uprobe_write_opcode(auprobe, vma, vaddr, auprobe->insn[0],
				      false);

	flush_icache();
	return ret;
}

int arch_uprobe_analyze_insn(struct arch_uprobe *auprobe, struct mm_struct *mm,
			     unsigned long addr)
{
	struct m68k_insn insn;

	if (m68k_insn_decode(auprobe->insn, MAX_UINSN_BYTES, addr, &insn) ||
	    insn.action == M68K_INSN_REFUSE) {
		pr_debug("%#lx: %04x: %s\n", addr, auprobe->insn[0], insn.why);
		return -EINVAL;
	}

	memcpy(auprobe->ixol, insn.slot, sizeof(auprobe->ixol));
	auprobe->len = insn.len;
	auprobe->slot_len = insn.slot_len;
	auprobe->action = insn.action;
	auprobe->flags = insn.flags;
	/* the same file may be mapped elsewhere: keep the distance */
	auprobe->target = 0;
	if (insn.flags & M68K_INSN_F_TARGET)
		auprobe->target = insn.target - addr;
	return 0;
}

/*
 * Write the copy to step into its slot.  The generic code calls this for
 * the return trampoline (m68k_uprobe_tramp) and, on every hit, for the
 * slot of the instruction to step, with @src the probe's ixol.  A copy
 * with a PC-relative operand is rebuilt for the probed address in this
 * task, which arch_uprobe_skip_sstep() noted just before.  Then the data
 * cache is pushed and the instruction cache invalidated for the page:
 * m68k's flush_dcache_page() does both (cpushp %bc on the 68040/060; the
 * 68020/030 data cache is write-through and their instruction cache is
 * invalidated as a whole).
 */
void arch_uprobe_copy_ixol(struct page *page, unsigned long vaddr,
			   void *src, unsigned long len)
{
	struct arch_uprobe *auprobe = container_of(src, struct arch_uprobe,
						   ixol);
	struct uprobe_task *utask = current->utask;
	struct m68k_insn insn;
	void *kaddr;

	if ((auprobe->flags & M68K_INSN_F_PCREL) && utask) {
		if (!m68k_insn_decode(auprobe->insn, MAX_UINSN_BYTES,
				      utask->autask.vaddr, &insn) &&
		    insn.action == auprobe->action &&
		    insn.slot_len == auprobe->slot_len)
			src = insn.slot;
		else
			utask->autask.vaddr = 0;	/* pre_xol refuses */
	}

	kaddr = kmap_local_page(page);
	memcpy(kaddr + (vaddr & ~PAGE_MASK), src, len);
	kunmap_local(kaddr);
	flush_dcache_page(page);
}

/* A task single-stepped by ptrace stops after the probed instruction. */
static void m68k_uprobe_trace_stop(u16 trace, unsigned long addr)
{
	if (trace & M68K_SR_T1)
		force_sig_fault(SIGTRAP, TRAP_TRACE, (void __user *)addr);
}

bool arch_uprobe_skip_sstep(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	unsigned long pc = instruction_pointer(regs);
	unsigned long target, usp;

	/*
	 * The generic code calls this just before it takes a slot for the
	 * step (handle_swbp() -> pre_ssout() -> arch_uprobe_copy_ixol()):
	 * note the probed address the copy must be built for.
	 */
	if (current->utask)
		current->utask->autask.vaddr = pc;

	switch (auprobe->action) {
	case M68K_INSN_SIM_NOP:
		target = pc + auprobe->len;
		break;
	case M68K_INSN_SIM_JUMP:
	case M68K_INSN_SIM_CALL:
		target = pc + auprobe->target;
		/* an odd target raises an address error: let the step do it */
		if (target & 1)
			return false;
		if (auprobe->action == M68K_INSN_SIM_JUMP)
			break;
		usp = user_stack_pointer(regs) - 4;
		/* a bad stack faults the step, as it would the bsr */
		if (put_user(pc + auprobe->len, (u32 __user *)usp))
			return false;
		wrusp(usp);
		break;
	default:
		return false;
	}

	instruction_pointer_set(regs, target);
	m68k_uprobe_trace_stop(regs->sr, pc);
	return true;
}

int arch_uprobe_pre_xol(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	/* the slot was built for another address: cannot happen */
	if (WARN_ON_ONCE((auprobe->flags & M68K_INSN_F_PCREL) &&
			 utask->autask.vaddr != utask->vaddr))
		return -EINVAL;

	/*
	 * User mode cannot change the trace bits (move to %sr is privileged,
	 * sigreturn only restores the condition codes): they are ptrace's,
	 * T1 for a single step, T0 for a block step on the 68020/030.
	 * Trace the one instruction; interrupts stay enabled (the mask is
	 * 0 in user mode), and an interrupt handler is not traced.
	 */
	utask->autask.saved_trace = regs->sr & M68K_SR_TRACE;
	regs->sr = (regs->sr & ~M68K_SR_TRACE) | M68K_SR_T1;
	instruction_pointer_set(regs, utask->xol_vaddr);
	return 0;
}

static void m68k_uprobe_restore_trace(struct uprobe_task *utask,
				      struct pt_regs *regs)
{
	regs->sr = (regs->sr & ~M68K_SR_TRACE) | utask->autask.saved_trace;
}

int arch_uprobe_post_xol(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	unsigned long slot = utask->xol_vaddr;
	unsigned long orig = utask->vaddr;
	u32 __user *sp;
	u32 ret;

	m68k_uprobe_restore_trace(utask, regs);

	regs->pc = m68k_insn_resume(auprobe->flags, auprobe->len,
				    auprobe->slot_len, slot, orig, regs->pc);
	if (auprobe->flags & M68K_INSN_F_PUSHRET) {
		sp = (u32 __user *)user_stack_pointer(regs);
		/* the step has just written it: failing here is SIGILL */
		if (get_user(ret, sp) ||
		    put_user(m68k_insn_resume(0, auprobe->len, auprobe->slot_len,
					      slot, orig, ret), sp))
			return -EFAULT;
	}

	m68k_uprobe_trace_stop(utask->autask.saved_trace, orig);
	return 0;
}

/*
 * The step did not finish: a signal came, or the copy faulted.  Go back
 * to the probed instruction; the task meets the breakpoint again after
 * the signal (and its handler, if it has one).
 */
void arch_uprobe_abort_xol(struct arch_uprobe *auprobe, struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	m68k_uprobe_restore_trace(utask, regs);
	instruction_pointer_set(regs, utask->vaddr);
}

/*
 * Did the stepped copy itself raise the pending signal?  Every fault of a
 * user instruction on m68k becomes one of these signals sent to the
 * thread (force_sig_fault() and friends, from trap_c(), the bus and
 * access error handlers and the FPU and integer emulation); a signal sent
 * to the whole process, or any other one, waits for the step to finish.
 * A false positive only sends the task back to the breakpoint.
 */
bool arch_uprobe_xol_was_trapped(struct task_struct *t)
{
	sigset_t faults;
	bool trapped;

	siginitset(&faults, sigmask(SIGSEGV) | sigmask(SIGBUS) |
		   sigmask(SIGILL) | sigmask(SIGFPE) | sigmask(SIGTRAP));
	spin_lock_irq(&t->sighand->siglock);
	sigandsets(&faults, &faults, &t->pending.signal);
	sigandnsets(&faults, &faults, &t->blocked);
	trapped = !sigisemptyset(&faults);
	spin_unlock_irq(&t->sighand->siglock);
	return trapped;
}

/* trap_c() calls the uprobe notifiers itself. */
int arch_uprobe_exception_notify(struct notifier_block *self,
				 unsigned long val, void *data)
{
	return NOTIFY_DONE;
}

/*
 * At a function's first instruction the return address is at 0(%usp)
 * (every argument is on the stack above it).
 */
unsigned long arch_uretprobe_hijack_return_addr(unsigned long trampoline_vaddr,
						struct pt_regs *regs)
{
	u32 __user *sp = (u32 __user *)user_stack_pointer(regs);
	u32 orig;

	if (get_user(orig, sp))
		return -1;
	if (put_user(trampoline_vaddr, sp))
		return -1;
	return orig;
}

/*
 * ret->stack is %usp at the probed function's entry, pointing at its
 * return address.  A call at the same depth reuses that slot, so a new
 * entry (RP_CHECK_CALL) with %usp at or above it means the frame is
 * gone; a chained entry or a return (%usp just above the popped slot)
 * sees it alive only below or at it.
 */
bool arch_uretprobe_is_alive(struct return_instance *ret, enum rp_check ctx,
			     struct pt_regs *regs)
{
	unsigned long usp = user_stack_pointer(regs);

	if (ctx == RP_CHECK_CALL)
		return usp < ret->stack;
	return usp <= ret->stack;
}
