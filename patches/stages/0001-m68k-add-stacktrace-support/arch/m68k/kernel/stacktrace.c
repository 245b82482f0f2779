// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel stack walking for m68k (ARCH_STACKWALK).
 *
 * With CONFIG_FRAME_POINTER every C function starts with
 * "link %a6,#0" (or the equivalent move/move pair), so %a6 points at a
 * two-word record:
 *
 *	 0(%a6)	the caller's %a6
 *	 4(%a6)	the return address into the caller
 *
 * and the records form a chain towards the top of the stack.  Without
 * frame pointers we fall back to scanning the stack for words that are
 * kernel text addresses, as the m68k oops printer does: it may report
 * stale return addresses, but it never reads outside the task's stack.
 *
 * Every address we read is first checked to lie in the task's stack, so a
 * corrupt or foreign chain ends the walk instead of faulting.
 */

#include <linux/ftrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <asm/ptrace.h>

struct m68k_unwind {
	struct task_struct *task;
	unsigned long low;		/* lowest valid stack address */
	unsigned long high;		/* one past the highest */
	int graph_idx;			/* for ftrace_graph_ret_addr() */
};

static void m68k_unwind_init(struct m68k_unwind *u, struct task_struct *task)
{
	unsigned long base = (unsigned long)task_stack_page(task);

	u->task = task;
	/* thread_info lives at the bottom of the stack area */
	u->low = base + sizeof(struct thread_info);
	u->high = base + THREAD_SIZE;
	u->graph_idx = 0;
}

static bool m68k_on_stack(struct m68k_unwind *u, unsigned long addr,
			  unsigned long size)
{
	return addr >= u->low && addr <= u->high - size && !(addr & 1);
}

/*
 * Report one return address read from slot @retp.  The function-graph
 * tracer replaces return addresses with return_to_handler; translate them
 * back so that a trace taken inside a traced function shows real callers.
 */
static bool m68k_report(struct m68k_unwind *u, stack_trace_consume_fn consume,
			void *cookie, unsigned long pc, unsigned long *retp)
{
	pc = ftrace_graph_ret_addr(u->task, &u->graph_idx, pc, retp);
	return consume(cookie, pc);
}

#ifdef CONFIG_FRAME_POINTER

static void notrace m68k_walk_frames(struct m68k_unwind *u,
				     stack_trace_consume_fn consume,
				     void *cookie, unsigned long fp)
{
	while (m68k_on_stack(u, fp, 8)) {
		unsigned long *frame = (unsigned long *)fp;
		unsigned long next = frame[0];

		if (!__kernel_text_address(frame[1]))
			break;
		if (!m68k_report(u, consume, cookie, frame[1], &frame[1]))
			break;
		/* frames must move towards the top of the stack */
		if (next <= fp)
			break;
		fp = next;
	}
}

/* The first frame pointer that belongs to the code interrupted at @regs. */
static unsigned long notrace m68k_regs_fp(struct m68k_unwind *u,
					  struct pt_regs *regs,
					  unsigned long fp)
{
	/*
	 * pt_regs does not hold %a6: exception entry leaves it alone and
	 * the handlers' frames chain back to it.  Follow our own chain up
	 * to the first frame above the exception frame.
	 */
	while (m68k_on_stack(u, fp, 8) && fp < (unsigned long)regs) {
		unsigned long next = *(unsigned long *)fp;

		if (next <= fp)
			return 0;
		fp = next;
	}
	return fp;
}

noinline notrace void arch_stack_walk(stack_trace_consume_fn consume,
				      void *cookie, struct task_struct *task,
				      struct pt_regs *regs)
{
	struct m68k_unwind u;
	unsigned long fp;

	if (!task)
		task = current;
	m68k_unwind_init(&u, task);

	if (regs) {
		/*
		 * Only the current task's live exception frame has a chain
		 * back to it, and a user frame has no kernel callers.
		 */
		if (task != current || user_mode(regs))
			return;
		if (!consume(cookie, regs->pc))
			return;
		fp = m68k_regs_fp(&u, regs,
				  (unsigned long)__builtin_frame_address(0));
	} else if (task == current) {
		/* start with our caller */
		fp = (unsigned long)__builtin_frame_address(0);
	} else {
		/*
		 * A blocked task stopped in resume(), which pushed a
		 * switch_stack whose retpc is the return into __schedule()
		 * and whose a6 is __schedule()'s frame.
		 */
		struct switch_stack *sw = (struct switch_stack *)task->thread.ksp;

		if (!m68k_on_stack(&u, (unsigned long)sw, sizeof(*sw)))
			return;
		if (!m68k_report(&u, consume, cookie, sw->retpc, &sw->retpc))
			return;
		fp = sw->a6;
	}
	m68k_walk_frames(&u, consume, cookie, fp);
}

#else /* !CONFIG_FRAME_POINTER */

noinline notrace void arch_stack_walk(stack_trace_consume_fn consume,
				      void *cookie, struct task_struct *task,
				      struct pt_regs *regs)
{
	struct m68k_unwind u;
	unsigned long *sp;

	if (!task)
		task = current;
	m68k_unwind_init(&u, task);

	if (regs) {
		if (task != current || user_mode(regs))
			return;
		if (!consume(cookie, regs->pc))
			return;
		/* the interrupted code's stack starts above the frame */
		sp = (unsigned long *)(regs + 1);
	} else if (task == current) {
		sp = (unsigned long *)current_stack_pointer;
	} else {
		sp = (unsigned long *)task->thread.ksp;
	}

	for (; m68k_on_stack(&u, (unsigned long)sp, sizeof(*sp)); sp++) {
		if (!__kernel_text_address(*sp))
			continue;
		if (!m68k_report(&u, consume, cookie, *sp, sp))
			break;
	}
}

#endif /* CONFIG_FRAME_POINTER */
