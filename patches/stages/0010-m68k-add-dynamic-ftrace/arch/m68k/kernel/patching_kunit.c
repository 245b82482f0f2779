// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the m68k kernel-text patcher (patching.c) and of the
 * ftrace call-site encodings (ftrace.c), on a call site of their own:
 * m68k_kunit_site is a 6-byte site, built in the no-op form with the
 * displacement of "bsr.l m68k_kunit_target", followed by rts.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/ftrace.h>
#include <linux/hrtimer.h>
#include <linux/text-patching.h>

static int kunit_hits;

static noinline notrace __used void m68k_kunit_target(void)
{
	kunit_hits++;
}

/* the site under test, called as a function */
void m68k_kunit_site(void);
asm(".text\n"
"	.globl	m68k_kunit_site\n"
"m68k_kunit_site:\n"
"	.short	0x51fb\n"
"	.long	m68k_kunit_target - .\n"
"	rts\n");

static u16 *site(void)
{
	return (u16 *)m68k_kunit_site;
}

static u32 site_disp(void)
{
	return (unsigned long)m68k_kunit_target - ((unsigned long)site() + 2);
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

static void reset_site(struct kunit *test)
{
	u16 nop[3] = { M68K_INSN_TRAPF_L, site_disp() >> 16, site_disp() };

	KUNIT_ASSERT_EQ(test, m68k_patch_text(site(), nop, sizeof(nop)), 0);
	expect_site(test, M68K_INSN_TRAPF_L);
}

static void patch_nop_form_skips(struct kunit *test)
{
	reset_site(test);
	KUNIT_EXPECT_EQ(test, run_site(), 0);
}

static void patch_one_word_flip(struct kunit *test)
{
	u16 op = M68K_INSN_BSR_L;

	reset_site(test);
	KUNIT_ASSERT_EQ(test, m68k_patch_text(site(), &op, 2), 0);
	expect_site(test, M68K_INSN_BSR_L);
	KUNIT_EXPECT_EQ(test, run_site(), 1);
	op = M68K_INSN_TRAPF_L;
	KUNIT_ASSERT_EQ(test, m68k_patch_text(site(), &op, 2), 0);
	KUNIT_EXPECT_EQ(test, run_site(), 0);
}

static void patch_rejects_bad_requests(struct kunit *test)
{
	u16 other[3] = { 0x4e71, 0x4e71, 0x4e71 };	/* three nops */
	u16 call[3] = { M68K_INSN_BSR_L, site_disp() >> 16, site_disp() };

	reset_site(test);
	KUNIT_EXPECT_EQ(test, m68k_patch_text((u8 *)site() + 1, call, 6), -EINVAL);
	KUNIT_EXPECT_EQ(test, m68k_patch_text(site(), call, 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, m68k_patch_text(site(), call, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, m68k_patch_text(site(), call, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, m68k_patch_text(site(), other, 6), -EINVAL);
	/* nothing was written */
	expect_site(test, M68K_INSN_TRAPF_L);
}

static void ftrace_forms(struct kunit *test)
{
	struct dyn_ftrace rec = { .ip = (unsigned long)site() };
	unsigned long target = (unsigned long)m68k_kunit_target;

	reset_site(test);
	KUNIT_ASSERT_EQ(test, ftrace_make_call(&rec, target), 0);
	expect_site(test, M68K_INSN_BSR_L);
	KUNIT_EXPECT_EQ(test, run_site(), 1);
	KUNIT_ASSERT_EQ(test, ftrace_make_nop(NULL, &rec, target), 0);
	expect_site(test, M68K_INSN_TRAPF_L);
	KUNIT_EXPECT_EQ(test, run_site(), 0);
}

static void ftrace_refuses_unexpected_bytes(struct kunit *test)
{
	struct dyn_ftrace rec = { .ip = (unsigned long)site() };
	unsigned long target = (unsigned long)m68k_kunit_target;

	reset_site(test);
	/* already a no-op: making it one again finds the wrong opcode */
	KUNIT_EXPECT_EQ(test, ftrace_make_nop(NULL, &rec, target), -EINVAL);
	/* a call to somewhere else is not what the site holds */
	KUNIT_EXPECT_EQ(test, ftrace_make_call(&rec, target + 2), -EINVAL);
	/* a site that is no call site at all */
	rec.ip += 2;
	KUNIT_EXPECT_EQ(test, ftrace_make_call(&rec, target), -EINVAL);
	expect_site(test, M68K_INSN_TRAPF_L);
}

/* The site is half-written: the code that reaches it must get the new insn. */
static void inflight_call_is_emulated(struct kunit *test)
{
	u16 call[3] = { M68K_INSN_BSR_L, site_disp() >> 16, site_disp() };

	reset_site(test);
	KUNIT_ASSERT_EQ(test, m68k_patch_begin(site(), call, sizeof(call)), 0);
	KUNIT_EXPECT_EQ(test, site()[0], M68K_INSN_ILLEGAL);
	KUNIT_EXPECT_EQ(test, run_site(), 1);
	KUNIT_EXPECT_EQ(test, run_site(), 1);
	m68k_patch_finish(call, sizeof(call));
	expect_site(test, M68K_INSN_BSR_L);
	KUNIT_EXPECT_EQ(test, run_site(), 1);
}

static void inflight_nop_is_emulated(struct kunit *test)
{
	u16 call[3] = { M68K_INSN_BSR_L, site_disp() >> 16, site_disp() };
	u16 nop[3] = { M68K_INSN_TRAPF_L, site_disp() >> 16, site_disp() };

	reset_site(test);
	KUNIT_ASSERT_EQ(test, m68k_patch_text(site(), call, sizeof(call)), 0);
	KUNIT_ASSERT_EQ(test, m68k_patch_begin(site(), nop, sizeof(nop)), 0);
	KUNIT_EXPECT_EQ(test, run_site(), 0);
	m68k_patch_finish(nop, sizeof(nop));
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
	u16 call[3] = { M68K_INSN_BSR_L, site_disp() >> 16, site_disp() };

	reset_site(test);
	init_completion(&irq_run.done);
	irq_run.hits = -1;
	hrtimer_setup(&irq_run.timer, run_site_from_irq, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_HARD);
	KUNIT_ASSERT_EQ(test, m68k_patch_begin(site(), call, sizeof(call)), 0);
	hrtimer_start(&irq_run.timer, ms_to_ktime(2), HRTIMER_MODE_REL_HARD);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&irq_run.done, HZ), 0);
	m68k_patch_finish(call, sizeof(call));
	hrtimer_cancel(&irq_run.timer);
	KUNIT_EXPECT_EQ(test, irq_run.hits, 1);
	expect_site(test, M68K_INSN_BSR_L);
}

static struct kunit_case m68k_patching_cases[] = {
	KUNIT_CASE(patch_nop_form_skips),
	KUNIT_CASE(patch_one_word_flip),
	KUNIT_CASE(patch_rejects_bad_requests),
	KUNIT_CASE(ftrace_forms),
	KUNIT_CASE(ftrace_refuses_unexpected_bytes),
	KUNIT_CASE(inflight_call_is_emulated),
	KUNIT_CASE(inflight_nop_is_emulated),
	KUNIT_CASE(inflight_site_hit_from_interrupt),
	{}
};

static void m68k_patching_exit(struct kunit *test)
{
	u16 nop[3] = { M68K_INSN_TRAPF_L, site_disp() >> 16, site_disp() };

	m68k_patch_text(site(), nop, sizeof(nop));
}

static struct kunit_suite m68k_patching_suite = {
	.name = "m68k_text_patching",
	.exit = m68k_patching_exit,
	.test_cases = m68k_patching_cases,
};

kunit_test_suite(m68k_patching_suite);
