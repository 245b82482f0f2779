// SPDX-License-Identifier: GPL-2.0
/*
 * Kprobes on ftrace sites (KPROBES_ON_FTRACE) for m68k.
 *
 * With patchable function entries a function's first instruction is its
 * ftrace call site.  A kprobe there is an ftrace_ops callback instead of a
 * breakpoint: ftrace_caller (ftrace_entry.S) hands it a full pt_regs of
 * the function's entry state, with pc = site + 6 and the switch_stack of
 * the kprobe trap entry below it, so %d0-%a6, %sp, $argN and $stackN read
 * the same as for a breakpoint at the entry.  The handlers see pc = the
 * probe address, as after the breakpoint trap; the post handler sees the
 * site stepped over (it is a no-op for the function).  A pre handler that
 * returns nonzero has set regs->pc itself: ftrace_caller continues there.
 */

#include <linux/ftrace.h>
#include <linux/kprobes.h>

void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct kprobe_ctlblk *kcb;
	struct pt_regs *regs;
	unsigned long orig_pc;
	struct kprobe *p;
	int bit;

	if (unlikely(kprobe_ftrace_disabled))
		return;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;

	p = get_kprobe((kprobe_opcode_t *)ip);
	regs = ftrace_get_regs(fregs);
	if (unlikely(!p || kprobe_disabled(p) || !regs))
		goto out;

	if (kprobe_running()) {
		kprobes_inc_nmissed_count(p);
		goto out;
	}

	kcb = get_kprobe_ctlblk();
	orig_pc = instruction_pointer(regs);
	instruction_pointer_set(regs, ip);
	__this_cpu_write(current_kprobe, p);
	kcb->kprobe_status = KPROBE_HIT_ACTIVE;
	if (!p->pre_handler || !p->pre_handler(p, regs)) {
		instruction_pointer_set(regs, ip + MCOUNT_INSN_SIZE);
		if (unlikely(p->post_handler)) {
			kcb->kprobe_status = KPROBE_HIT_SSDONE;
			p->post_handler(p, regs, 0);
		}
		instruction_pointer_set(regs, orig_pc);
	}
	__this_cpu_write(current_kprobe, NULL);
out:
	ftrace_test_recursion_unlock(bit);
}

NOKPROBE_SYMBOL(kprobe_ftrace_handler);

int arch_prepare_kprobe_ftrace(struct kprobe *p)
{
	p->ainsn.insn = NULL;
	return 0;
}
