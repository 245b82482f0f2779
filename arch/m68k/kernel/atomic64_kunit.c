// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the m68k 64-bit atomics (asm/atomic64.h): both
 * read-modify-write flavours the CPU can run (interrupts off, and CAS2
 * with CONFIG_RMW_INSNS) on values whose carries, borrows and mismatches
 * cross between the two 32-bit words, and the atomic64_t API with an
 * interrupt updating the same counter.  lib/atomic64_test.c
 * (CONFIG_ATOMIC64_SELFTEST) checks the API's semantics at boot.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>

#define LO_ALL	0x00000000ffffffffLL	/* +1 carries into the high word */
#define HI_ONE	0x0000000100000000LL	/* -1 borrows from the high word */
#define PAT_A	0x0123456789abcdefLL
#define PAT_B	0x7edcba9876543210LL

struct flavour {
	const char *name;
	s64 (*fetch_add)(s64 i, atomic64_t *v);
	s64 (*fetch_sub)(s64 i, atomic64_t *v);
	s64 (*fetch_and)(s64 i, atomic64_t *v);
	s64 (*fetch_or)(s64 i, atomic64_t *v);
	s64 (*fetch_xor)(s64 i, atomic64_t *v);
	s64 (*do_cmpxchg)(atomic64_t *v, s64 old, s64 new);
	s64 (*do_xchg)(atomic64_t *v, s64 new);
};

/* the always-inline primitives, called through pointers */
#define FLAVOUR(fl, name)						\
static const struct flavour flavour_##fl = {				\
	name,								\
	__m68k_atomic64_fetch_add_##fl, __m68k_atomic64_fetch_sub_##fl,	\
	__m68k_atomic64_fetch_and_##fl, __m68k_atomic64_fetch_or_##fl,	\
	__m68k_atomic64_fetch_xor_##fl, __m68k_atomic64_cmpxchg_##fl,	\
	__m68k_atomic64_xchg_##fl					\
}

FLAVOUR(irq, "irq");
#ifdef CONFIG_RMW_INSNS
FLAVOUR(cas2, "cas2");
#endif

static const struct flavour *flavours[] = {
	&flavour_irq,
#ifdef CONFIG_RMW_INSNS
	&flavour_cas2,
#endif
};

/* op(v = before, i) must return before and leave after */
static void expect_op(struct kunit *test, const char *what,
		      s64 (*op)(s64 i, atomic64_t *v),
		      s64 before, s64 i, s64 after)
{
	atomic64_t v = ATOMIC64_INIT(before);
	s64 ret = op(i, &v);

	KUNIT_EXPECT_EQ_MSG(test, ret, before, "%s returned", what);
	KUNIT_EXPECT_EQ_MSG(test, v.counter, after, "%s left", what);
}

static void rmw_ops(struct kunit *test)
{
	int n;

	for (n = 0; n < ARRAY_SIZE(flavours); n++) {
		const struct flavour *f = flavours[n];

		kunit_info(test, "flavour %s", f->name);
		expect_op(test, "add carry", f->fetch_add, LO_ALL, 1, HI_ONE);
		expect_op(test, "add negative", f->fetch_add, HI_ONE, -1, LO_ALL);
		expect_op(test, "add both words", f->fetch_add, PAT_A, PAT_B,
			  PAT_A + PAT_B);
		expect_op(test, "sub borrow", f->fetch_sub, HI_ONE, 1, LO_ALL);
		expect_op(test, "sub below zero", f->fetch_sub, 0, 1, -1);
		expect_op(test, "sub both words", f->fetch_sub, PAT_B, PAT_A,
			  PAT_B - PAT_A);
		expect_op(test, "and", f->fetch_and, PAT_A, PAT_B, PAT_A & PAT_B);
		expect_op(test, "or", f->fetch_or, PAT_A, PAT_B, PAT_A | PAT_B);
		expect_op(test, "xor", f->fetch_xor, PAT_A, PAT_B, PAT_A ^ PAT_B);
	}
}

static void cmpxchg_xchg(struct kunit *test)
{
	int n;

	for (n = 0; n < ARRAY_SIZE(flavours); n++) {
		const struct flavour *f = flavours[n];
		atomic64_t v = ATOMIC64_INIT(PAT_A);

		kunit_info(test, "flavour %s", f->name);
		/* only the high word differs, then only the low word */
		KUNIT_EXPECT_EQ(test, f->do_cmpxchg(&v, PAT_A ^ HI_ONE, PAT_B), PAT_A);
		KUNIT_EXPECT_EQ(test, v.counter, PAT_A);
		KUNIT_EXPECT_EQ(test, f->do_cmpxchg(&v, PAT_A ^ 1, PAT_B), PAT_A);
		KUNIT_EXPECT_EQ(test, v.counter, PAT_A);
		KUNIT_EXPECT_EQ(test, f->do_cmpxchg(&v, PAT_A, PAT_B), PAT_A);
		KUNIT_EXPECT_EQ(test, v.counter, PAT_B);
		KUNIT_EXPECT_EQ(test, f->do_xchg(&v, LO_ALL), PAT_B);
		KUNIT_EXPECT_EQ(test, v.counter, LO_ALL);
	}
}

static void read_set(struct kunit *test)
{
	atomic64_t v = ATOMIC64_INIT(0);

	atomic64_set(&v, PAT_A);
	KUNIT_EXPECT_EQ(test, v.counter, PAT_A);
	KUNIT_EXPECT_EQ(test, atomic64_read(&v), PAT_A);
	v.counter = PAT_B;
	KUNIT_EXPECT_EQ(test, atomic64_read(&v), PAT_B);
	KUNIT_EXPECT_TRUE(test, atomic64_inc_and_test(&(atomic64_t)ATOMIC64_INIT(-1)));
	KUNIT_EXPECT_EQ(test, atomic64_add_return(1, &(atomic64_t)ATOMIC64_INIT(LO_ALL)),
			HI_ONE);
	KUNIT_EXPECT_EQ(test, atomic64_sub_return(1, &(atomic64_t)ATOMIC64_INIT(HI_ONE)),
			LO_ALL);
}

/*
 * An interrupt handler adds to the counter and flips a second one between
 * two values that differ in both words while the test adds and reads:
 * a lost update or a torn read shows.
 */
static struct {
	struct hrtimer timer;
	atomic64_t sum, flip;
	int hits;
} irq_run;

#define IRQ_ADD	(HI_ONE + 3)
#define TASK_ADD	LO_ALL

static enum hrtimer_restart irq_update(struct hrtimer *t)
{
	atomic64_add(IRQ_ADD, &irq_run.sum);
	atomic64_xchg(&irq_run.flip,
		      atomic64_read(&irq_run.flip) == PAT_A ? PAT_B : PAT_A);
	irq_run.hits++;
	hrtimer_forward_now(t, ns_to_ktime(50 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* until this many interrupts have hit, within a second */
#define IRQ_HITS	20

static void against_interrupts(struct kunit *test)
{
	u64 end = ktime_get_ns() + NSEC_PER_SEC;
	long loops = 0, torn = 0;
	s64 f;

	atomic64_set(&irq_run.sum, 0);
	atomic64_set(&irq_run.flip, PAT_A);
	irq_run.hits = 0;
	hrtimer_setup(&irq_run.timer, irq_update, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_HARD);
	hrtimer_start(&irq_run.timer, ns_to_ktime(50 * NSEC_PER_USEC), HRTIMER_MODE_REL_HARD);
	while (READ_ONCE(irq_run.hits) < IRQ_HITS && ktime_get_ns() < end) {
		atomic64_add(TASK_ADD, &irq_run.sum);
		f = atomic64_read(&irq_run.flip);
		if (f != PAT_A && f != PAT_B)
			torn++;
		loops++;
	}
	hrtimer_cancel(&irq_run.timer);

	kunit_info(test, "%ld loops, %d interrupts", loops, irq_run.hits);
	KUNIT_EXPECT_GE(test, irq_run.hits, IRQ_HITS);
	KUNIT_EXPECT_EQ(test, torn, 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&irq_run.sum),
			loops * TASK_ADD + irq_run.hits * IRQ_ADD);
}

static struct kunit_case m68k_atomic64_cases[] = {
	KUNIT_CASE(rmw_ops),
	KUNIT_CASE(cmpxchg_xchg),
	KUNIT_CASE(read_set),
	KUNIT_CASE(against_interrupts),
	{}
};

static struct kunit_suite m68k_atomic64_suite = {
	.name = "m68k-atomic64",
	.test_cases = m68k_atomic64_cases,
};

kunit_test_suite(m68k_atomic64_suite);
