// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the reliable stack walker, arch_stack_walk_reliable(),
 * on which live patching's consistency model rests: a kernel thread
 * asleep in a known chain of functions is walked whole to its start
 * (the walk fails unless it ends at ret_from_kernel_thread), also with a
 * function-graph or a kretprobe return hooked in its chain; so is the
 * idle task, to start_kernel()'s record; and stacks made wrong on
 * purpose (a return address outside kernel text, a record that points
 * at itself, a return into the entry code in the middle of the chain)
 * are refused.  The thread is blocked while its stack is read
 * or changed, and each change is undone before it wakes.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/stacktrace.h>
#include <asm/sections.h>

#define ST_ENTRIES	32

struct st_sleeper {
	struct completion asleep;
	struct completion wake;
	struct task_struct *task;
	unsigned long *record;		/* st_sleep_inner()'s frame record */
};

static noinline void st_sleep_inner(struct st_sleeper *s)
{
	s->record = __builtin_frame_address(0);
	complete(&s->asleep);
	wait_for_completion(&s->wake);
	barrier();			/* no tail call: keep the record */
}

static noinline void st_sleep_outer(struct st_sleeper *s)
{
	st_sleep_inner(s);
	barrier();
}

static int st_thread(void *arg)
{
	st_sleep_outer(arg);
	return 0;
}

static void st_start(struct kunit *test, struct st_sleeper *s)
{
	init_completion(&s->asleep);
	init_completion(&s->wake);
	s->task = kthread_run(st_thread, s, "st_kunit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(s->task));
	get_task_struct(s->task);
	wait_for_completion(&s->asleep);
	KUNIT_ASSERT_NE(test, wait_task_inactive(s->task, TASK_UNINTERRUPTIBLE), 0UL);
}

static void st_stop(struct st_sleeper *s)
{
	complete(&s->wake);
	kthread_stop(s->task);
	put_task_struct(s->task);
}

/* Is some entry a return address into @fn? */
static bool st_has(unsigned long *entries, int n, void *fn)
{
	unsigned long size, off;
	int i;

	for (i = 0; i < n; i++)
		if (kallsyms_lookup_size_offset(entries[i], &size, &off) &&
		    entries[i] - off == (unsigned long)fn)
			return true;
	return false;
}

static void st_expect_whole(struct kunit *test, struct st_sleeper *s)
{
	unsigned long entries[ST_ENTRIES];
	int n = stack_trace_save_tsk_reliable(s->task, entries, ST_ENTRIES);

	KUNIT_ASSERT_GT_MSG(test, n, 0, "walk refused: %d", n);
	KUNIT_EXPECT_TRUE(test, st_has(entries, n, st_sleep_inner));
	KUNIT_EXPECT_TRUE(test, st_has(entries, n, st_sleep_outer));
	KUNIT_EXPECT_TRUE(test, st_has(entries, n, st_thread));
}

static void st_sleeping_thread(struct kunit *test)
{
	struct st_sleeper s;

	st_start(test, &s);
	st_expect_whole(test, &s);
	st_stop(&s);
}

static void st_current_task(struct kunit *test)
{
	unsigned long entries[ST_ENTRIES];
	int n = stack_trace_save_tsk_reliable(current, entries, ST_ENTRIES);

	KUNIT_ASSERT_GT_MSG(test, n, 0, "walk refused: %d", n);
	KUNIT_EXPECT_TRUE(test, st_has(entries, n, st_current_task));
}

/* The idle task, which the test's own thread keeps off the CPU. */
static void st_idle_task(struct kunit *test)
{
	unsigned long entries[ST_ENTRIES];
	int n = stack_trace_save_tsk_reliable(&init_task, entries, ST_ENTRIES);

	KUNIT_ASSERT_GT_MSG(test, n, 0, "walk refused: %d", n);
	KUNIT_EXPECT_TRUE(test, st_has(entries, n, cpu_startup_entry));
}

/* Change one word of the sleeper's stack, walk, put the word back. */
static int st_walk_with(struct st_sleeper *s, unsigned long *word,
			unsigned long value)
{
	unsigned long entries[ST_ENTRIES];
	unsigned long old = *word;
	int n;

	*word = value;
	n = stack_trace_save_tsk_reliable(s->task, entries, ST_ENTRIES);
	*word = old;
	return n;
}

static void st_refuses_bad_stacks(struct kunit *test)
{
	struct st_sleeper s;
	unsigned long *rec;

	st_start(test, &s);
	rec = s.record;
	/* a return address that is not kernel text */
	KUNIT_EXPECT_LT(test, st_walk_with(&s, &rec[1], 0x2), 0);
	/* a record that chains to itself */
	KUNIT_EXPECT_LT(test, st_walk_with(&s, &rec[0], (unsigned long)rec), 0);
	/* a record below the one before it */
	KUNIT_EXPECT_LT(test, st_walk_with(&s, &rec[0], (unsigned long)rec - 16), 0);
	/* the entry code in the middle: an exception frame there */
	KUNIT_EXPECT_LT(test, st_walk_with(&s, &rec[1],
					   (unsigned long)__entry_text_start + 2), 0);
	/* and the stack as it is again */
	st_expect_whole(test, &s);
	st_stop(&s);
}

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
static int st_graph_entry(struct ftrace_graph_ent *trace, struct fgraph_ops *gops,
			  struct ftrace_regs *fregs)
{
	return 1;			/* hook the return */
}

static void st_graph_return(struct ftrace_graph_ret *trace, struct fgraph_ops *gops,
			    struct ftrace_regs *fregs)
{
}

static struct fgraph_ops st_gops = {
	.entryfunc = st_graph_entry,
	.retfunc = st_graph_return,
};

static void st_graph_frame(struct kunit *test)
{
	struct st_sleeper s;
	int ret;

	ret = ftrace_set_filter_ip(&st_gops.ops, (unsigned long)st_sleep_inner, 0, 0);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = register_ftrace_graph(&st_gops);
	KUNIT_ASSERT_EQ(test, ret, 0);
	st_start(test, &s);
	/* st_sleep_inner() returns to return_to_handler now */
	st_expect_whole(test, &s);
	st_stop(&s);
	unregister_ftrace_graph(&st_gops);
	ftrace_free_filter(&st_gops.ops);
}
#endif

#ifdef CONFIG_KRETPROBES
static int st_kret_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}

static struct kretprobe st_krp = {
	.handler = st_kret_handler,
};

static void st_kretprobe_frame(struct kunit *test)
{
	struct st_sleeper s;

	st_krp.kp.addr = (kprobe_opcode_t *)st_sleep_inner;
	st_krp.kp.symbol_name = NULL;
	st_krp.kp.flags = 0;
	KUNIT_ASSERT_EQ(test, register_kretprobe(&st_krp), 0);
	st_start(test, &s);
	/* st_sleep_inner() returns to the rethook trampoline now */
	st_expect_whole(test, &s);
	st_stop(&s);
	unregister_kretprobe(&st_krp);
}
#endif

static struct kunit_case st_cases[] = {
	KUNIT_CASE(st_sleeping_thread),
	KUNIT_CASE(st_current_task),
	KUNIT_CASE(st_idle_task),
	KUNIT_CASE(st_refuses_bad_stacks),
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	KUNIT_CASE(st_graph_frame),
#endif
#ifdef CONFIG_KRETPROBES
	KUNIT_CASE(st_kretprobe_frame),
#endif
	{}
};

static struct kunit_suite st_suite = {
	.name = "m68k_reliable_stacktrace",
	.test_cases = st_cases,
};

kunit_test_suite(st_suite);

MODULE_DESCRIPTION("KUnit tests of the m68k reliable stack walker");
MODULE_LICENSE("GPL");
