// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the m68k kernel-text patcher (patching.c) and of the
 * ftrace call-site encodings (ftrace.c), on a call site of their own:
 * m68k_kunit_site is a 6-byte site, built in the no-op form with the
 * operand of the call "bsr.l m68k_kunit_target" (ColdFire: "jsr
 * m68k_kunit_target", abs.l), followed by rts.  With the entry registers
 * (DYNAMIC_FTRACE_WITH_REGS), also an ftrace callback that moves the pc.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/ftrace.h>
#include <linux/hrtimer.h>
#include <linux/memory.h>
#include <linux/text-patching.h>

static int kunit_hits;

static noinline notrace __used void m68k_kunit_target(void)
{
	kunit_hits++;
}

/*
 * the site under test, called as a function; with call ops, after the
 * slot that ftrace_make_call() and ftrace_make_nop() write
 */
void m68k_kunit_site(void);
asm(".text\n"
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS
"	.balign	4\n"
"	.long	0\n"
#endif
"	.globl	m68k_kunit_site\n"
"m68k_kunit_site:\n"
"	.short	0x51fb\n"
#ifdef CONFIG_COLDFIRE
"	.long	m68k_kunit_target\n"
#else
"	.long	m68k_kunit_target - .\n"
#endif
"	rts\n");

static u16 *site(void)
{
	return (u16 *)m68k_kunit_site;
}

/* the call form of a site, and the operand it has for @target */
#ifdef CONFIG_COLDFIRE
#define SITE_CALL	M68K_INSN_JSR_ABS

static u32 site_operand(unsigned long target)
{
	return target;
}
#else
#define SITE_CALL	M68K_INSN_BSR_L

static u32 site_operand(unsigned long target)
{
	return target - ((unsigned long)site() + 2);
}
#endif

static u32 site_disp(void)
{
	return site_operand((unsigned long)m68k_kunit_target);
}

/* run the site, return how many times it called the target */
static int run_site(void)
{
	int before = kunit_hits;

	m68k_kunit_site();
	return kunit_hits - before;
}

static void expect_site(struct kunit *test, u16 op)
{
	KUNIT_EXPECT_EQ(test, site()[0], op);
	KUNIT_EXPECT_EQ(test, site()[1], (u16)(site_disp() >> 16));
	KUNIT_EXPECT_EQ(test, site()[2], (u16)site_disp());
}

/*
 * A multi-word write holds text_mutex (patching.c).  A failed KUnit
 * assertion ends the test's thread, so none is made while it is held.
 */
#define locked(call) ({				\
	typeof(call) __ret;			\
						\
	mutex_lock(&text_mutex);		\
	__ret = (call);				\
	mutex_unlock(&text_mutex);		\
	__ret;					\
})

/* the first half of a multi-word write: text_mutex is held if it returns 0 */
static int begin_locked(const u16 *insn, size_t len)
{
	int ret;

	mutex_lock(&text_mutex);
	ret = m68k_patch_begin(site(), insn, len);
	if (ret)
		mutex_unlock(&text_mutex);
	return ret;
}

static void finish_locked(const u16 *insn, size_t len)
{
	m68k_patch_finish(insn, len);
	mutex_unlock(&text_mutex);
}

static void reset_site(struct kunit *test)
{
	u16 nop[3] = { M68K_INSN_TRAPF_L, site_disp() >> 16, site_disp() };

	KUNIT_ASSERT_EQ(test, locked(m68k_patch_text(site(), nop, sizeof(nop))), 0);
	expect_site(test, M68K_INSN_TRAPF_L);
}

static void patch_nop_form_skips(struct kunit *test)
{
	reset_site(test);
	KUNIT_EXPECT_EQ(test, run_site(), 0);
}

static void patch_one_word_flip(struct kunit *test)
{
	u16 op = SITE_CALL;

	reset_site(test);
	KUNIT_ASSERT_EQ(test, m68k_patch_text(site(), &op, 2), 0);
	expect_site(test, SITE_CALL);
	KUNIT_EXPECT_EQ(test, run_site(), 1);
	op = M68K_INSN_TRAPF_L;
	KUNIT_ASSERT_EQ(test, m68k_patch_text(site(), &op, 2), 0);
	KUNIT_EXPECT_EQ(test, run_site(), 0);
}

static void patch_rejects_bad_requests(struct kunit *test)
{
	u16 other[3] = { 0x4e71, 0x4e71, 0x4e71 };	/* three nops */
	u16 call[3] = { SITE_CALL, site_disp() >> 16, site_disp() };

	reset_site(test);
	KUNIT_EXPECT_EQ(test, m68k_patch_text((u8 *)site() + 1, call, 6), -EINVAL);
	KUNIT_EXPECT_EQ(test, m68k_patch_text(site(), call, 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, m68k_patch_text(site(), call, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, m68k_patch_text(site(), call, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, locked(m68k_patch_text(site(), other, 6)), -EINVAL);
	/* nothing was written */
	expect_site(test, M68K_INSN_TRAPF_L);
}

/*
 * The no-op form of a site always keeps FTRACE_ADDR's displacement.
 * Turning it into a call to FTRACE_ADDR and back flips the first word only;
 * a call to any other target (a direct trampoline) rewrites the whole site.
 */
static void ftrace_forms(struct kunit *test)
{
	struct dyn_ftrace rec = { .ip = (unsigned long)site() };
	unsigned long target = (unsigned long)m68k_kunit_target;
	u32 disp = site_operand(FTRACE_ADDR);
	u16 nop[3] = { M68K_INSN_TRAPF_L, disp >> 16, disp };

	reset_site(test);
	KUNIT_ASSERT_EQ(test, locked(m68k_patch_text(site(), nop, sizeof(nop))), 0);
	KUNIT_EXPECT_EQ(test, run_site(), 0);

	/* to ftrace_caller and back: not run, the bytes only */
	KUNIT_ASSERT_EQ(test, ftrace_make_call(&rec, FTRACE_ADDR), 0);
	KUNIT_EXPECT_EQ(test, site()[0], SITE_CALL);
	KUNIT_EXPECT_EQ(test, site()[1], nop[1]);
	KUNIT_EXPECT_EQ(test, site()[2], nop[2]);
	KUNIT_ASSERT_EQ(test, ftrace_make_nop(NULL, &rec, FTRACE_ADDR), 0);
	KUNIT_EXPECT_EQ(test, memcmp(site(), nop, sizeof(nop)), 0);

	/* to another target and back */
	KUNIT_ASSERT_EQ(test, locked(ftrace_make_call(&rec, target)), 0);
	expect_site(test, SITE_CALL);
	KUNIT_EXPECT_EQ(test, run_site(), 1);
	/* the site calls target, not FTRACE_ADDR: refused */
	KUNIT_EXPECT_EQ(test, ftrace_make_nop(NULL, &rec, FTRACE_ADDR), -EINVAL);
	KUNIT_ASSERT_EQ(test, locked(ftrace_make_nop(NULL, &rec, target)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(site(), nop, sizeof(nop)), 0);
	KUNIT_EXPECT_EQ(test, run_site(), 0);
}

static void ftrace_refuses_unexpected_bytes(struct kunit *test)
{
	struct dyn_ftrace rec = { .ip = (unsigned long)site() };
	unsigned long target = (unsigned long)m68k_kunit_target;

	reset_site(test);
	/* already a no-op: making it one again finds the wrong opcode */
	KUNIT_EXPECT_EQ(test, ftrace_make_nop(NULL, &rec, target), -EINVAL);
	/* a no-op that does not aim at FTRACE_ADDR was not made by ftrace */
	KUNIT_EXPECT_EQ(test, ftrace_make_call(&rec, target), -EINVAL);
	/* a site that is no call site at all */
	rec.ip += 2;
	KUNIT_EXPECT_EQ(test, ftrace_make_call(&rec, target), -EINVAL);
	expect_site(test, M68K_INSN_TRAPF_L);
}

/* The site is half-written: the code that reaches it must get the new insn. */
static void inflight_call_is_emulated(struct kunit *test)
{
	u16 call[3] = { SITE_CALL, site_disp() >> 16, site_disp() };

	reset_site(test);
	KUNIT_ASSERT_EQ(test, begin_locked(call, sizeof(call)), 0);
	KUNIT_EXPECT_EQ(test, site()[0], M68K_INSN_ILLEGAL);
	KUNIT_EXPECT_EQ(test, run_site(), 1);
	KUNIT_EXPECT_EQ(test, run_site(), 1);
	finish_locked(call, sizeof(call));
	expect_site(test, SITE_CALL);
	KUNIT_EXPECT_EQ(test, run_site(), 1);
}

static void inflight_nop_is_emulated(struct kunit *test)
{
	u16 call[3] = { SITE_CALL, site_disp() >> 16, site_disp() };
	u16 nop[3] = { M68K_INSN_TRAPF_L, site_disp() >> 16, site_disp() };

	reset_site(test);
	KUNIT_ASSERT_EQ(test, locked(m68k_patch_text(site(), call, sizeof(call))), 0);
	KUNIT_ASSERT_EQ(test, begin_locked(nop, sizeof(nop)), 0);
	KUNIT_EXPECT_EQ(test, run_site(), 0);
	finish_locked(nop, sizeof(nop));
	expect_site(test, M68K_INSN_TRAPF_L);
}

static struct {
	struct hrtimer timer;
	struct completion done;
	int hits;
} irq_run;

static enum hrtimer_restart run_site_from_irq(struct hrtimer *t)
{
	irq_run.hits = run_site();
	complete(&irq_run.done);
	return HRTIMER_NORESTART;
}

/* ... and so must an interrupt that reaches it. */
static void inflight_site_hit_from_interrupt(struct kunit *test)
{
	u16 call[3] = { SITE_CALL, site_disp() >> 16, site_disp() };

	reset_site(test);
	init_completion(&irq_run.done);
	irq_run.hits = -1;
	hrtimer_setup(&irq_run.timer, run_site_from_irq, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_HARD);
	KUNIT_ASSERT_EQ(test, begin_locked(call, sizeof(call)), 0);
	hrtimer_start(&irq_run.timer, ms_to_ktime(2), HRTIMER_MODE_REL_HARD);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&irq_run.done, HZ), 0);
	finish_locked(call, sizeof(call));
	hrtimer_cancel(&irq_run.timer);
	KUNIT_EXPECT_EQ(test, irq_run.hits, 1);
	expect_site(test, SITE_CALL);
}

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
/*
 * A callback that moves the pc (what livepatch does): the traced function
 * is left for another one, entered with the traced function's arguments
 * and return address.  Both are traced functions of this file.
 */
static noinline int m68k_kunit_old(int x)
{
	return x + 1;
}

static noinline int m68k_kunit_new(int x)
{
	return x * 2;
}

/* through a pointer the compiler cannot see: no inlined or cloned call */
static int m68k_kunit_call(int x)
{
	int (*fn)(int) = m68k_kunit_old;

	OPTIMIZER_HIDE_VAR(fn);
	return fn(x);
}

static void notrace m68k_kunit_redirect(unsigned long ip, unsigned long parent_ip,
					struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	ftrace_regs_set_instruction_pointer(fregs, (unsigned long)m68k_kunit_new);
}

static struct ftrace_ops m68k_kunit_redirect_ops = {
	.func	= m68k_kunit_redirect,
	.flags	= FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY,
};

static void ftrace_callback_moves_pc(struct kunit *test)
{
	unsigned long ip = ftrace_location((unsigned long)m68k_kunit_old);

	KUNIT_ASSERT_NE(test, ip, 0UL);
	KUNIT_EXPECT_EQ(test, m68k_kunit_call(20), 21);
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(&m68k_kunit_redirect_ops, ip, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(&m68k_kunit_redirect_ops), 0);
	KUNIT_EXPECT_EQ(test, m68k_kunit_call(20), 40);
	KUNIT_EXPECT_EQ(test, m68k_kunit_call(-3), -6);
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&m68k_kunit_redirect_ops), 0);
	ftrace_set_filter_ip(&m68k_kunit_redirect_ops, ip, 1, 0);
	KUNIT_EXPECT_EQ(test, m68k_kunit_call(20), 21);
}

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS
static int m68k_kunit_count_hits;

static void notrace m68k_kunit_count(unsigned long ip, unsigned long parent_ip,
				     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	m68k_kunit_count_hits++;
}

static struct ftrace_ops m68k_kunit_count_ops = {
	.func	= m68k_kunit_count,
};

/* the ops in the slot before the function at @ip */
static const struct ftrace_ops *slot_ops(unsigned long ip)
{
	return *(const struct ftrace_ops * const *)(ip - 4);
}

/*
 * Call ops: the aligned slot before a traced function holds its only ops,
 * the list ops while two trace it, and the no-op ops when none does; the
 * function still runs each ops' callback.
 */
static void ftrace_call_ops_slot(struct kunit *test)
{
	unsigned long ip = ftrace_location((unsigned long)m68k_kunit_old);

	KUNIT_ASSERT_NE(test, ip, 0UL);
	KUNIT_EXPECT_EQ(test, (ip - 4) & 3, 0UL);
	KUNIT_EXPECT_PTR_EQ(test, slot_ops(ip), &ftrace_nop_ops);
	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(&m68k_kunit_count_ops, ip, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(&m68k_kunit_count_ops), 0);
	KUNIT_EXPECT_PTR_EQ(test, slot_ops(ip), &m68k_kunit_count_ops);
	m68k_kunit_count_hits = 0;
	KUNIT_EXPECT_EQ(test, m68k_kunit_call(20), 21);
	KUNIT_EXPECT_EQ(test, m68k_kunit_count_hits, 1);

	KUNIT_ASSERT_EQ(test, ftrace_set_filter_ip(&m68k_kunit_redirect_ops, ip, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(&m68k_kunit_redirect_ops), 0);
	KUNIT_EXPECT_PTR_EQ(test, slot_ops(ip), &ftrace_list_ops);
	KUNIT_EXPECT_EQ(test, m68k_kunit_call(20), 40);
	KUNIT_EXPECT_EQ(test, m68k_kunit_count_hits, 2);
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&m68k_kunit_redirect_ops), 0);
	ftrace_set_filter_ip(&m68k_kunit_redirect_ops, ip, 1, 0);

	KUNIT_EXPECT_PTR_EQ(test, slot_ops(ip), &m68k_kunit_count_ops);
	KUNIT_EXPECT_EQ(test, m68k_kunit_call(20), 21);
	KUNIT_EXPECT_EQ(test, m68k_kunit_count_hits, 3);
	KUNIT_EXPECT_EQ(test, unregister_ftrace_function(&m68k_kunit_count_ops), 0);
	ftrace_set_filter_ip(&m68k_kunit_count_ops, ip, 1, 0);
	KUNIT_EXPECT_PTR_EQ(test, slot_ops(ip), &ftrace_nop_ops);
	KUNIT_EXPECT_EQ(test, m68k_kunit_call(20), 21);
	KUNIT_EXPECT_EQ(test, m68k_kunit_count_hits, 3);
}
#endif /* CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS */
#endif

static struct kunit_case m68k_patching_cases[] = {
	KUNIT_CASE(patch_nop_form_skips),
	KUNIT_CASE(patch_one_word_flip),
	KUNIT_CASE(patch_rejects_bad_requests),
	KUNIT_CASE(ftrace_forms),
	KUNIT_CASE(ftrace_refuses_unexpected_bytes),
	KUNIT_CASE(inflight_call_is_emulated),
	KUNIT_CASE(inflight_nop_is_emulated),
	KUNIT_CASE(inflight_site_hit_from_interrupt),
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
	KUNIT_CASE(ftrace_callback_moves_pc),
#endif
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS
	KUNIT_CASE(ftrace_call_ops_slot),
#endif
	{}
};

static void m68k_patching_exit(struct kunit *test)
{
	u16 nop[3] = { M68K_INSN_TRAPF_L, site_disp() >> 16, site_disp() };

	locked(m68k_patch_text(site(), nop, sizeof(nop)));
}

static struct kunit_suite m68k_patching_suite = {
	.name = "m68k_text_patching",
	.exit = m68k_patching_exit,
	.test_cases = m68k_patching_cases,
};

kunit_test_suite(m68k_patching_suite);
