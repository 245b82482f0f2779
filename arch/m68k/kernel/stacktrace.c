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
 *
 * User stacks (USER_STACKTRACE_SUPPORT: ftrace's userstacktrace option,
 * perf's user call chains) are walked the same way, as far as user space
 * keeps %a6 frame records (code built with -fno-omit-frame-pointer).
 */

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/rethook.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <linux/uaccess.h>
#include <asm/ptrace.h>
#include <asm/sections.h>
#include <asm/traps.h>

#include "process.h"
#include "traps.h"

struct m68k_unwind {
	struct task_struct *task;
	unsigned long low;		/* lowest valid stack address */
	unsigned long high;		/* one past the highest */
	int graph_idx;			/* for ftrace_graph_ret_addr() */
	struct llist_node *rethook_cur;	/* for rethook_find_ret_addr() */
};

static void m68k_unwind_init(struct m68k_unwind *u, struct task_struct *task)
{
	unsigned long base = (unsigned long)task_stack_page(task);

	u->task = task;
	/* thread_info lives at the bottom of the stack area */
	u->low = base + sizeof(struct thread_info);
	u->high = base + THREAD_SIZE;
	u->graph_idx = 0;
	u->rethook_cur = NULL;
}

static bool m68k_on_stack(struct m68k_unwind *u, unsigned long addr,
			  unsigned long size)
{
	return addr >= u->low && addr <= u->high - size && !(addr & 1);
}

/*
 * Report one return address read from slot @retp.  The function-graph
 * tracer replaces return addresses with return_to_handler, and rethook
 * (kretprobes) with arch_rethook_trampoline; translate them back so that
 * a trace taken inside a hooked function shows real callers.
 */
static bool m68k_report(struct m68k_unwind *u, stack_trace_consume_fn consume,
			void *cookie, unsigned long pc, unsigned long *retp)
{
	pc = ftrace_graph_ret_addr(u->task, &u->graph_idx, pc, retp);
#ifdef CONFIG_RETHOOK
	if (is_rethook_trampoline(pc))
		pc = rethook_find_ret_addr(u->task, (unsigned long)retp,
					   &u->rethook_cur) ?: pc;
#endif
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
#ifdef CONFIG_RETHOOK
		/*
		 * The rethook trampoline's pt_regs lie right under the frame
		 * record it made for the returning function: regs->pc is
		 * already that record's return address.
		 */
		if (fp == (unsigned long)(regs + 1) &&
		    is_rethook_trampoline(((unsigned long *)fp)[1]))
			fp = *(unsigned long *)fp;
#endif
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

#ifdef CONFIG_HAVE_RELIABLE_STACKTRACE
/*
 * Reliable stack traces, for live patching's consistency model: a walk
 * that reports every function with a frame on @task's stack, or fails.
 * It follows the frame records as arch_stack_walk() does and succeeds
 * only where it can prove the chain complete:
 *
 * - each record lies on the task's stack, above the last one;
 * - each return address is core kernel or module text, after the
 *   function-graph tracer's and rethook's trampolines are resolved back
 *   to the real return address (a walk that cannot resolve one fails),
 *   and outside .kprobes.text (the ftrace, patching and kprobe
 *   trampolines, which can hold a function's entry state outside any
 *   record);
 * - the walk ends at the outermost C function of the task's first
 *   kernel entry: its return address, resolved as above (a thread made
 *   while the function-graph tracer or a kretprobe hooked kthread() has
 *   its outermost return hooked for its whole life), in the entry code,
 *   the entry's four-word exception frame (format 0) right above it at
 *   the top of the stack, where thread.esp0 points, and from user mode,
 *   or, for a kernel thread, the frame copy_thread() left for
 *   ret_from_kernel_thread; or, for the idle task, at rest_init()'s
 *   record, whose caller start_kernel() (freed __init text, nothing to
 *   report) has its record at the top of init_thread_union with the
 *   zero %a6 head.S set.  (The idle task also switches itself in
 *   do_idle(), but not while other tasks keep the CPU busy.)
 *
 * Between that function's record and the pt_regs the entry code pushes
 * at most a switch_stack and an argument (trap, do_signal_return,
 * __sys_clone), less than a pt_regs: no other exception frame fits there.
 *
 * The one larger first entry: an access fault from user mode, where a
 * task sleeps for as long as the fault takes (waiting for the mmap lock,
 * for a page to be read).  Its walk ends at buserr_c()'s record, the
 * return address in buserr, which pushed one argument, the pt_regs just
 * above it; that frame is the CPU's access fault frame (format 7 on the
 * 68040, 4 on the 68060, A or B on the 68030), from user mode, whose
 * extra words end exactly at the top of the stack.  thread.esp0 is not
 * updated on this path and is not used.
 *
 * Any other entry code return address is an exception taken in the
 * kernel (or a first entry from user mode that no rule above proves):
 * the walk fails.
 */
#define M68K_ENTRY_PUSH_MAX	(sizeof(struct switch_stack) + sizeof(long))

/* The words an access fault frame adds to the pt_regs, or -1 */
static int m68k_fault_frame_extra(unsigned int format)
{
	switch (format) {
	case 4:
		return sizeof_field(struct frame, un.fmt4);
	case 7:
		return sizeof_field(struct frame, un.fmt7);
	case 0xa:
		return sizeof_field(struct frame, un.fmta);
	case 0xb:
		return sizeof_field(struct frame, un.fmtb);
	}
	return -1;
}

/* buserr_c()'s record at @fp, called by buserr for a user access fault */
static bool m68k_reliable_fault_end(struct m68k_unwind *u, unsigned long fp)
{
	unsigned long r = fp + 12;
	struct pt_regs *regs = (struct pt_regs *)r;
	int extra;

	if (!m68k_on_stack(u, fp + 8, 4 + sizeof(*regs)) ||
	    *(unsigned long *)(fp + 8) != r)
		return false;
	extra = m68k_fault_frame_extra(regs->format);
	return extra >= 0 && r + sizeof(*regs) + extra == u->high &&
	       user_mode(regs);
}

static bool m68k_pc_in_entry(unsigned long pc)
{
	return pc >= (unsigned long)__entry_text_start &&
	       pc < (unsigned long)__entry_text_end;
}

static bool m68k_reliable_end(struct m68k_unwind *u, unsigned long fp,
			      unsigned long ret)
{
	struct pt_regs *regs = task_pt_regs(u->task);
	unsigned long r = (unsigned long)regs;
	unsigned long size, off, start = 0;

	/* the entry code symbol the return address is in */
	if (kallsyms_lookup_size_offset(ret, &size, &off))
		start = ret - off;
	if (start == (unsigned long)buserr)
		return m68k_reliable_fault_end(u, fp);
	if (!m68k_on_stack(u, r, sizeof(*regs)) ||
	    r + sizeof(*regs) != u->high || regs->format != 0)
		return false;
	if (r < fp || r - fp < 8 || r - fp - 8 > M68K_ENTRY_PUSH_MAX)
		return false;
	if (user_mode(regs))
		return true;
	/* a kernel thread's function, called by ret_from_kernel_thread */
	return start == (unsigned long)ret_from_kernel_thread;
}

/*
 * The real return address of the word at @retp, @pc, with the
 * function-graph tracer's and rethook's replacements undone; 0 if one
 * cannot be.  Every rule of the walk (the entry code, kernel text) is
 * about this address, not the word on the stack: the outermost
 * function's return too may be hooked for as long as a thread lives.
 */
static unsigned long m68k_reliable_resolve(struct m68k_unwind *u,
					   unsigned long pc, unsigned long *retp)
{
	pc = ftrace_graph_ret_addr(u->task, &u->graph_idx, pc, retp);
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	if (pc == (unsigned long)return_to_handler)
		return 0;
#endif
#ifdef CONFIG_RETHOOK
	if (is_rethook_trampoline(pc))
		pc = rethook_find_ret_addr(u->task, (unsigned long)retp,
					   &u->rethook_cur);
#endif
	return pc;
}

/* One resolved return address of the chain: checked, reported. */
static int m68k_reliable_report(stack_trace_consume_fn consume, void *cookie,
				unsigned long pc)
{
	if (!pc)
		return -EINVAL;
	if (!core_kernel_text(pc) && !is_module_text_address(pc))
		return -EINVAL;
#ifdef CONFIG_KPROBES
	if (pc >= (unsigned long)__kprobes_text_start &&
	    pc < (unsigned long)__kprobes_text_end)
		return -EINVAL;
#endif
	return consume(cookie, pc) ? 0 : -EINVAL;
}

noinline notrace int arch_stack_walk_reliable(stack_trace_consume_fn consume,
					      void *cookie,
					      struct task_struct *task)
{
	struct m68k_unwind u;
	unsigned long fp;
	int err;

	m68k_unwind_init(&u, task);
	if (task == current) {
		fp = (unsigned long)__builtin_frame_address(0);
	} else {
		struct switch_stack *sw = (struct switch_stack *)task->thread.ksp;

		if (!m68k_on_stack(&u, (unsigned long)sw, sizeof(*sw)))
			return -EINVAL;
		/*
		 * A new task that has not run yet (copy_thread()'s frame,
		 * which resume() enters at ret_from_fork or
		 * ret_from_kernel_thread) has no frames at all.
		 */
		if (m68k_pc_in_entry(sw->retpc))
			return (unsigned long)(sw + 1) ==
			       u.high - sizeof(struct pt_regs) &&
			       task_pt_regs(task) == (struct pt_regs *)(sw + 1) ?
			       0 : -EINVAL;
		err = m68k_reliable_report(consume, cookie,
					   m68k_reliable_resolve(&u, sw->retpc,
								 &sw->retpc));
		if (err)
			return err;
		fp = sw->a6;
	}

	while (m68k_on_stack(&u, fp, 8)) {
		unsigned long *frame = (unsigned long *)fp;
		unsigned long next = frame[0];
		unsigned long pc = m68k_reliable_resolve(&u, frame[1], &frame[1]);

		if (!pc)
			return -EINVAL;
		if (m68k_pc_in_entry(pc))
			return m68k_reliable_end(&u, fp, pc) ? 0 : -EINVAL;
		if (is_idle_task(task) && next + 8 == u.high && next > fp &&
		    !*(unsigned long *)next)
			return 0;
		err = m68k_reliable_report(consume, cookie, pc);
		if (err)
			return err;
		if (next < fp + 8)
			return -EINVAL;
		fp = next;
	}
	/* off the stack without reaching the entry code */
	return -EINVAL;
}
#endif /* CONFIG_HAVE_RELIABLE_STACKTRACE */

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

#ifdef CONFIG_USER_STACKTRACE_SUPPORT
/*
 * The user's %a6 as it was on kernel entry.  pt_regs does not hold it:
 * entry code leaves %a6 alone, so the outermost kernel frame record saved
 * it.  Follow our own chain up to the record whose saved %a6 is not on
 * the kernel stack.  Exception entry between (an interrupt in a system
 * call) changes nothing: its handlers' records chain through it.
 */
static notrace unsigned long m68k_user_fp(void)
{
	struct m68k_unwind u;
	unsigned long fp = (unsigned long)__builtin_frame_address(0);

	m68k_unwind_init(&u, current);
	while (m68k_on_stack(&u, fp, 8)) {
		unsigned long next = *(unsigned long *)fp;

		if (next < u.low || next >= u.high)
			return next;
		if (next <= fp)
			break;
		fp = next;
	}
	return 0;
}

/*
 * Report @regs->pc, then the return address of every user frame record
 * from the one %a6 held on kernel entry.  Each record is read with page
 * faults disabled, so an unmapped or foreign address (above TASK_SIZE)
 * ends the walk, as do an odd address, a zero return address and a
 * record that does not lie above the last one (no loop).
 */
notrace void arch_stack_walk_user(stack_trace_consume_fn consume,
				  void *cookie, const struct pt_regs *regs)
{
	unsigned long fp = m68k_user_fp();

	if (!consume(cookie, regs->pc))
		return;

	pagefault_disable();
	while (fp && !(fp & 1) && access_ok((void __user *)fp, 8)) {
		unsigned long frame[2];

		if (__copy_from_user_inatomic(frame, (void __user *)fp,
					      sizeof(frame)))
			break;
		if (!frame[1] || !consume(cookie, frame[1]))
			break;
		if (frame[0] <= fp)
			break;
		fp = frame[0];
	}
	pagefault_enable();
}
#endif /* CONFIG_USER_STACKTRACE_SUPPORT */
