// SPDX-License-Identifier: GPL-2.0
/*
 * Call chains for perf events on m68k.
 *
 * Kernel chains come from the stack walker (arch_stack_walk()), user
 * chains from the user stack walker (arch_stack_walk_user()).
 */

#include <linux/perf_event.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>

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

static bool m68k_perf_store_user(void *cookie, unsigned long pc)
{
	return perf_callchain_store(cookie, pc) == 0;
}

/*
 * User chains come from the user stack walker (arch_stack_walk_user()),
 * which needs frame pointers to find the user's %a6 and an MMU to read
 * user memory with a fixup; without them the chain is the user pc alone.
 */
void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
			 struct pt_regs *regs)
{
	if (IS_ENABLED(CONFIG_USER_STACKTRACE_SUPPORT))
		arch_stack_walk_user(m68k_perf_store_user, entry, regs);
	else
		perf_callchain_store(entry, regs->pc);
}
