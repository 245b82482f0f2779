// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the reliable stack walker, arch_stack_walk_reliable(),
 * on which live patching's consistency model rests: a kernel thread
 * asleep in a known chain of functions is walked whole to its start
 * (the walk fails unless it ends at ret_from_kernel_thread), also with a
 * function-graph or a kretprobe return hooked in its chain, or on its
 * outermost function, kthread(), whose return leads to the entry code; so is the
 * idle task, to start_kernel()'s record; the chain made to start at a
 * user access fault of each 680x0 frame format is walked, and made
 * wrong (taken in the kernel, the frame's size not ending at the top of
 * the stack) refused; and stacks made wrong on purpose (a return address
 * outside kernel text, a record that points at itself, a return into
 * the entry code in the middle of the chain) are refused.  The thread is
 * blocked while its stack is read or changed, and each change is undone
 * before it wakes.
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
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <asm/sections.h>
#include <asm/traps.h>
#include "traps.h"

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

/*
 * Room between the top of the stack and st_sleep_inner()'s record for
 * the access fault frames st_user_fault_frames() builds there.
 */
#define ST_FAULT_MAX	(3 * sizeof(long) + sizeof(struct pt_regs) + \
			 sizeof_field(struct frame, un.fmtb))

static noinline void st_sleep_deep(struct st_sleeper *s)
{
	char room[ST_FAULT_MAX];

	st_sleep_outer(s);
	barrier_data(room);
}

static int st_thread(void *arg)
{
	st_sleep_deep(arg);
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

/*
 * A user access fault at the start of the chain: st_sleep_inner()'s
 * record made to chain to a record of buserr_c() with its return into
 * buserr and its argument, over the pt_regs of a frame of @format with
 * @extra more bytes, which ends at the top of the stack.  The top of the
 * sleeper's stack is saved first and put back after the walk.
 */
static int st_walk_fault(struct kunit *test, struct st_sleeper *s,
			 unsigned int format, int extra, bool user, int arg_off)
{
	unsigned long high = (unsigned long)task_stack_page(s->task) + THREAD_SIZE;
	unsigned long *fake = (unsigned long *)(high - extra -
						sizeof(struct pt_regs) - 3 * sizeof(long));
	struct pt_regs *regs = (struct pt_regs *)(fake + 3);
	unsigned long entries[ST_ENTRIES];
	unsigned long save[ST_FAULT_MAX / sizeof(long)];
	unsigned long link = s->record[0];
	size_t len = high - (unsigned long)fake;
	int n;

	/* the region rewritten must lie above the record changed */
	KUNIT_ASSERT_LE(test, len, sizeof(save));
	KUNIT_ASSERT_LE(test, (unsigned long)(s->record + 2), (unsigned long)fake);
	memcpy(save, fake, len);
	memset(fake, 0, len);
	fake[1] = (unsigned long)buserr + 2;
	fake[2] = (unsigned long)regs + arg_off;
	regs->sr = user ? 0 : PS_S;
	regs->format = format;
	regs->vector = 2 * sizeof(long);	/* the access fault vector */
	s->record[0] = (unsigned long)fake;
	n = stack_trace_save_tsk_reliable(s->task, entries, ST_ENTRIES);
	s->record[0] = link;
	memcpy(fake, save, len);
	if (n > 0)
		KUNIT_EXPECT_TRUE(test, st_has(entries, n, st_sleep_inner));
	return n;
}

static void st_user_fault_frames(struct kunit *test)
{
	static const struct {
		unsigned int format;
		int extra;
	} fault[] = {
		{ 4, sizeof_field(struct frame, un.fmt4) },	/* 68060 */
		{ 7, sizeof_field(struct frame, un.fmt7) },	/* 68040 */
		{ 0xa, sizeof_field(struct frame, un.fmta) },	/* 68030 */
		{ 0xb, sizeof_field(struct frame, un.fmtb) },
	};
	struct st_sleeper s;
	int i;

	st_start(test, &s);
	for (i = 0; i < ARRAY_SIZE(fault); i++) {
		KUNIT_EXPECT_GT_MSG(test, st_walk_fault(test, &s, fault[i].format,
							fault[i].extra, true, 0),
				    0, "format %x refused", fault[i].format);
		/* taken in the kernel: the chain goes on below it */
		KUNIT_EXPECT_LT(test, st_walk_fault(test, &s, fault[i].format,
						    fault[i].extra, false, 0), 0);
		/* an argument that is not the pt_regs */
		KUNIT_EXPECT_LT(test, st_walk_fault(test, &s, fault[i].format,
						    fault[i].extra, true, 4), 0);
	}
	/* a frame whose size does not reach the top of the stack */
	KUNIT_EXPECT_LT(test, st_walk_fault(test, &s, 7, sizeof_field(struct frame, un.fmtb),
					    true, 0), 0);
	KUNIT_EXPECT_LT(test, st_walk_fault(test, &s, 0xb, sizeof_field(struct frame, un.fmta),
					    true, 0), 0);
	/* no access fault frame: a four-word frame */
	KUNIT_EXPECT_LT(test, st_walk_fault(test, &s, 0, 0, true, 0), 0);
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

/* a thread made with st_gops (filter set) registered, walked whole */
static void st_walk_graph_hooked(struct kunit *test)
{
	struct st_sleeper s;
	int ret;

	ret = register_ftrace_graph(&st_gops);
	KUNIT_ASSERT_EQ(test, ret, 0);
	st_start(test, &s);
	st_expect_whole(test, &s);
	st_stop(&s);
	unregister_ftrace_graph(&st_gops);
	ftrace_free_filter(&st_gops.ops);
}

static void st_graph_frame(struct kunit *test)
{
	int ret;

	ret = ftrace_set_filter_ip(&st_gops.ops, (unsigned long)st_sleep_inner, 0, 0);
	KUNIT_ASSERT_EQ(test, ret, 0);
	/* st_sleep_inner() returns to return_to_handler now */
	st_walk_graph_hooked(test);
}

/*
 * The outermost function's return hooked: a thread made while kthread()
 * is graph-traced returns from it to return_to_handler, not to the entry
 * code, for as long as it lives.  The walk must still end there.
 */
static void st_graph_outermost(struct kunit *test)
{
	unsigned char name[] = "kthread";
	int ret;

	ret = ftrace_set_filter(&st_gops.ops, name, sizeof(name) - 1, 1);
	KUNIT_ASSERT_EQ(test, ret, 0);
	st_walk_graph_hooked(test);
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

/* a thread made with st_krp on @addr or @name, walked whole */
static void st_walk_kretprobed(struct kunit *test, kprobe_opcode_t *addr,
			       const char *name)
{
	struct st_sleeper s;

	st_krp.kp.addr = addr;
	st_krp.kp.symbol_name = name;
	st_krp.kp.flags = 0;
	KUNIT_ASSERT_EQ(test, register_kretprobe(&st_krp), 0);
	st_start(test, &s);
	st_expect_whole(test, &s);
	st_stop(&s);
	unregister_kretprobe(&st_krp);
	st_krp.kp.symbol_name = NULL;
}

static void st_kretprobe_frame(struct kunit *test)
{
	/* st_sleep_inner() returns to the rethook trampoline now */
	st_walk_kretprobed(test, (kprobe_opcode_t *)st_sleep_inner, NULL);
}

/* The same with a kretprobe on kthread(): the rethook trampoline */
static void st_kretprobe_outermost(struct kunit *test)
{
	st_walk_kretprobed(test, NULL, "kthread");
}
#endif

static struct kunit_case st_cases[] = {
	KUNIT_CASE(st_sleeping_thread),
	KUNIT_CASE(st_current_task),
	KUNIT_CASE(st_idle_task),
	KUNIT_CASE(st_refuses_bad_stacks),
	KUNIT_CASE(st_user_fault_frames),
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	KUNIT_CASE(st_graph_frame),
	KUNIT_CASE(st_graph_outermost),
#endif
#ifdef CONFIG_KRETPROBES
	KUNIT_CASE(st_kretprobe_frame),
	KUNIT_CASE(st_kretprobe_outermost),
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
