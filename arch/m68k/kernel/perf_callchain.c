// SPDX-License-Identifier: GPL-2.0
/*
 * Call chains for perf events on m68k.
 *
 * Kernel chains come from the stack walker (arch_stack_walk()).  User
 * chains follow the user's %a6 frame records, as far as user space keeps
 * them (code built with -fno-omit-frame-pointer), reading each record with
 * page faults disabled: a bad chain ends the walk, never the task.
 */

#include <linux/perf_event.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <linux/uaccess.h>

struct m68k_perf_walk {
	struct perf_callchain_entry_ctx *entry;
	unsigned long skip_to;	/* report nothing before this address */
};

static bool m68k_perf_store(void *cookie, unsigned long pc)
{
	struct m68k_perf_walk *w = cookie;

	if (w->skip_to) {
		if (pc != w->skip_to)
			return true;
		w->skip_to = 0;
	}
	return perf_callchain_store(w->entry, pc) == 0;
}

void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
			   struct pt_regs *regs)
{
	struct m68k_perf_walk w = { .entry = entry };

	if (object_is_on_stack(regs)) {
		/* an exception frame: the walker starts at regs->pc */
		arch_stack_walk(m68k_perf_store, &w, current, regs);
		return;
	}
	/*
	 * In-line regs (perf_fetch_caller_regs(): software events and
	 * tracepoints) live outside the stack and hold only the address the
	 * event was raised from.  Walk our own stack and start reporting at
	 * that return address, which leaves out perf's own frames.
	 */
	w.skip_to = regs->pc;
	arch_stack_walk(m68k_perf_store, &w, current, NULL);
	if (w.skip_to)
		perf_callchain_store(entry, regs->pc);
}

#ifdef CONFIG_FRAME_POINTER
/*
 * The user's %a6 as it was on kernel entry.  Entry code leaves %a6 alone,
 * so the outermost kernel frame record saved it: follow our own chain up
 * to the record whose saved %a6 is not on the kernel stack.
 */
static unsigned long m68k_user_fp(void)
{
	unsigned long low = (unsigned long)task_stack_page(current);
	unsigned long high = low + THREAD_SIZE;
	unsigned long fp = (unsigned long)__builtin_frame_address(0);

	while (fp >= low && fp <= high - 8 && !(fp & 1)) {
		unsigned long next = *(unsigned long *)fp;

		if (next < low || next >= high)
			return next;
		if (next <= fp)
			break;
		fp = next;
	}
	return 0;
}
#else
static unsigned long m68k_user_fp(void)
{
	return 0;
}
#endif

void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
			 struct pt_regs *regs)
{
	unsigned long fp = m68k_user_fp();

	if (perf_callchain_store(entry, regs->pc))
		return;

	/*
	 * Without an MMU (ColdFire) a user access has no exception fixup:
	 * a stale frame pointer would fault in the kernel.  The call chain
	 * is the user pc alone there.
	 */
	if (!IS_ENABLED(CONFIG_MMU))
		return;

	pagefault_disable();
	while (fp && !(fp & 1) && access_ok((void __user *)fp, 8)) {
		unsigned long frame[2];

		if (__copy_from_user_inatomic(frame, (void __user *)fp,
					      sizeof(frame)))
			break;
		if (!frame[1] || perf_callchain_store(entry, frame[1]))
			break;
		/* records must move towards the top of the user stack */
		if (frame[0] <= fp)
			break;
		fp = frame[0];
	}
	pagefault_enable();
}
