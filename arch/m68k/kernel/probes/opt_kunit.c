// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of optimized kprobes (opt.c): a probe the optimizer takes
 * becomes "jmp abs.l" to its buffer, its handler sees the registers,
 * arguments and %pc a breakpoint would have shown, a register it changes
 * reaches the probed code, the probed code's condition codes survive the
 * handler, the relocated copies compute what the originals did, and the
 * text is byte-exact after the probe goes.  A probe whose region a
 * branch targets, or that holds a branch or a return, stays a breakpoint.
 * A probe inside a region goes only where the replaced instructions had
 * their boundaries; one enabled again before its delayed unoptimization
 * leaves consistent text.  A buffer that held code runs its new detour.
 */

#include <kunit/test.h>
#include <linux/kprobes.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/text-patching.h>
#include <asm/ptrace.h>
#include <asm/probes.h>

/* the probed functions and an entry, in assembly: their layout is known */
int m68k_opt_target(int a), m68k_opt_zero(int a), m68k_opt_loop(int n),
	m68k_opt_enter(int a, kprobe_opcode_t *buf);

/*
 * m68k_opt_target(a) = 2 * (a + 1) + 0x1000; the constant is read
 * PC-relative (the copy makes it absolute).  The probe at +4 replaces
 * the addq and that move.
 */
asm(".text\n"
"	.globl	m68k_opt_target\n"
"	.type	m68k_opt_target, @function\n"
"m68k_opt_target:\n"
"	move.l	4(%sp),%d0\n"
"	addq.l	#1,%d0\n"
"	move.l	%pc@(m68k_opt_k),%d1\n"
"	add.l	%d0,%d0\n"
"	add.l	%d1,%d0\n"
"	rts\n"
"	.size	m68k_opt_target, . - m68k_opt_target\n"
"	.type	m68k_opt_k, @object\n"
"m68k_opt_k:\n"
"	.long	0x1000\n"
"	.size	m68k_opt_k, 4\n");

/*
 * m68k_opt_zero(a) is 1 if a is 0, else 0: the Z flag set by the first
 * move is used by the seq after the region at +4, whose instructions
 * leave the flags alone.
 */
asm(".text\n"
"	.globl	m68k_opt_zero\n"
"	.type	m68k_opt_zero, @function\n"
"m68k_opt_zero:\n"
"	move.l	4(%sp),%d0\n"
"	lea	4(%sp),%a0\n"
"	move.l	%a0,%a1\n"
"	seq	%d0\n"
"	moveq	#1,%d1\n"
"	and.l	%d1,%d0\n"
"	rts\n"
"	.size	m68k_opt_zero, . - m68k_opt_zero\n");

/*
 * m68k_opt_enter(a, buf) is m68k_opt_target(a) with its probe at +4
 * jumping to buf: the stack and %d0 as they are there.
 */
asm(".text\n"
"	.globl	m68k_opt_enter\n"
"	.type	m68k_opt_enter, @function\n"
"m68k_opt_enter:\n"
"	move.l	4(%sp),%d0\n"
"	move.l	8(%sp),%a0\n"
"	jmp	(%a0)\n"
"	.size	m68k_opt_enter, . - m68k_opt_enter\n");

/* m68k_opt_loop(n) = 1 + 2 + ... + n for n >= 1, branching back to +6 */
asm(".text\n"
"	.globl	m68k_opt_loop\n"
"	.type	m68k_opt_loop, @function\n"
"m68k_opt_loop:\n"
"	move.l	4(%sp),%d0\n"
"	moveq	#0,%d1\n"
"1:	add.l	%d0,%d1\n"
"	subq.l	#1,%d0\n"
"	jne	1b\n"
"	move.l	%d1,%d0\n"
"	rts\n"
"	.size	m68k_opt_loop, . - m68k_opt_loop\n");

#define OPT_TARGET_PROBE	4
#define OPT_ZERO_PROBE		4
#define OPT_JMP_ABS		0x4ef9
/* what the code a buffer held before its probe returns */
#define OPT_OLD			0x5a

static struct {
	unsigned int hits;
	unsigned long pc, d0, arg0;
	long add_d0;			/* what the handler adds to %d0 */
} opt;

static int opt_pre(struct kprobe *p, struct pt_regs *regs)
{
	opt.hits++;
	opt.pc = instruction_pointer(regs);
	opt.d0 = regs->d0;
	opt.arg0 = regs_get_kernel_argument(regs, 0);
	regs->d0 += opt.add_d0;
	return 0;
}

static u16 opt_word(void *func, unsigned long offset)
{
	return *(u16 *)((unsigned long)func + offset);
}

/*
 * Register a probe at @offset into @func and let the optimizer run; the
 * six bytes there before it in @before.
 */
static void opt_register(struct kunit *test, struct kprobe *kp, void *func,
			 unsigned long offset, u16 *before)
{
	memset(kp, 0, sizeof(*kp));
	memset(&opt, 0, sizeof(opt));
	kp->addr = (kprobe_opcode_t *)((unsigned long)func + offset);
	kp->pre_handler = opt_pre;
	memcpy(before, kp->addr, 6);
	KUNIT_ASSERT_EQ(test, register_kprobe(kp), 0);
	wait_for_kprobe_optimizer();
}

/*
 * Unregister, and once the optimizer has put the breakpoint back and
 * removed it, the text is as it was.
 */
static void opt_unregister(struct kunit *test, struct kprobe *kp,
			   const u16 *before)
{
	unregister_kprobe(kp);
	wait_for_kprobe_optimizer();
	KUNIT_EXPECT_EQ(test, memcmp(kp->addr, before, 6), 0);
}

static void opt_layout(struct kunit *test)
{
	/* the instructions the tests count on, at their offsets */
	KUNIT_EXPECT_EQ(test, opt_word(m68k_opt_target, 4), 0x5280);	/* addq.l #1,%d0 */
	KUNIT_EXPECT_EQ(test, opt_word(m68k_opt_target, 6), 0x223a);	/* move.l (d16,%pc),%d1 */
	KUNIT_EXPECT_EQ(test, opt_word(m68k_opt_target, 10), 0xd080);	/* add.l %d0,%d0 */
	KUNIT_EXPECT_EQ(test, opt_word(m68k_opt_zero, 4), 0x41ef);	/* lea (d16,%sp),%a0 */
	KUNIT_EXPECT_EQ(test, opt_word(m68k_opt_zero, 8), 0x2248);	/* move.l %a0,%a1 */
	KUNIT_EXPECT_EQ(test, opt_word(m68k_opt_zero, 10), 0x57c0);	/* seq %d0 */
	KUNIT_EXPECT_EQ(test, opt_word(m68k_opt_loop, 10), 0x66fa);	/* bne.b to +6 */
	KUNIT_EXPECT_EQ(test, opt_word(m68k_opt_loop, 12), 0x2001);	/* move.l %d1,%d0 */
	KUNIT_EXPECT_EQ(test, m68k_opt_target(5), 0x100c);
	KUNIT_EXPECT_EQ(test, m68k_opt_zero(0), 1);
	KUNIT_EXPECT_EQ(test, m68k_opt_zero(7), 0);
	KUNIT_EXPECT_EQ(test, m68k_opt_loop(4), 10);
}

static void opt_hit(struct kunit *test)
{
	struct kprobe kp;
	u16 before[3];

	opt_register(test, &kp, m68k_opt_target, OPT_TARGET_PROBE, before);
	KUNIT_EXPECT_EQ(test, *kp.addr, OPT_JMP_ABS);
	rcu_read_lock();
	KUNIT_EXPECT_TRUE(test, kprobe_optimized(get_kprobe(kp.addr)));
	rcu_read_unlock();

	KUNIT_EXPECT_EQ(test, m68k_opt_target(5), 0x100c);
	KUNIT_EXPECT_EQ(test, opt.hits, 1);
	KUNIT_EXPECT_EQ(test, opt.pc, (unsigned long)kp.addr);
	KUNIT_EXPECT_EQ(test, opt.d0, 5);
	KUNIT_EXPECT_EQ(test, opt.arg0, 5);
	KUNIT_EXPECT_EQ(test, m68k_opt_target(-1), 0x1000);
	KUNIT_EXPECT_EQ(test, opt.hits, 2);
	opt_unregister(test, &kp, before);
	KUNIT_EXPECT_EQ(test, m68k_opt_target(5), 0x100c);
	KUNIT_EXPECT_EQ(test, opt.hits, 2);
}

/* A register the handler changes is the one the probed code goes on with. */
static void opt_regs(struct kunit *test)
{
	struct kprobe kp;
	u16 before[3];

	opt_register(test, &kp, m68k_opt_target, OPT_TARGET_PROBE, before);
	KUNIT_EXPECT_EQ(test, *kp.addr, OPT_JMP_ABS);
	opt.add_d0 = 10;
	KUNIT_EXPECT_EQ(test, m68k_opt_target(5), 0x1020);
	KUNIT_EXPECT_EQ(test, opt.hits, 1);
	opt_unregister(test, &kp, before);
}

/* The condition codes set before the probe reach the code after it. */
static void opt_flags(struct kunit *test)
{
	struct kprobe kp;
	u16 before[3];

	opt_register(test, &kp, m68k_opt_zero, OPT_ZERO_PROBE, before);
	KUNIT_EXPECT_EQ(test, *kp.addr, OPT_JMP_ABS);
	KUNIT_EXPECT_EQ(test, m68k_opt_zero(0), 1);
	KUNIT_EXPECT_EQ(test, m68k_opt_zero(7), 0);
	KUNIT_EXPECT_EQ(test, m68k_opt_zero(-1), 0);
	KUNIT_EXPECT_EQ(test, opt.hits, 3);
	opt_unregister(test, &kp, before);
}

/*
 * Stays a breakpoint, and still hits (the loop's body 3 times): a region
 * a branch goes into (+4: the loop's +6), one holding a branch (+6),
 * one holding the return (+12).
 */
static void opt_refused(struct kunit *test)
{
	static const unsigned long offsets[] = { 4, 6, 12 };
	static const unsigned int hits[] = { 1, 3, 1 };
	struct kprobe kp;
	unsigned int i;
	u16 before[3];

	for (i = 0; i < ARRAY_SIZE(offsets); i++) {
		opt_register(test, &kp, m68k_opt_loop, offsets[i], before);
		KUNIT_EXPECT_EQ_MSG(test, *kp.addr, M68K_PROBE_BKPT,
				    "m68k_opt_loop+%lu", offsets[i]);
		KUNIT_EXPECT_EQ(test, m68k_opt_loop(3), 6);
		KUNIT_EXPECT_EQ_MSG(test, opt.hits, hits[i],
				    "m68k_opt_loop+%lu", offsets[i]);
		opt_unregister(test, &kp, before);
	}
}

/*
 * A probe disabled while optimized keeps its jump until the delayed
 * unoptimization.  Enabled again before that, it is armed over its jump:
 * the text must then be the jump, or the breakpoint with the original
 * words behind it, never a breakpoint in front of the jump's operand.
 */
static void opt_reenable(struct kunit *test)
{
	struct kprobe kp;
	u16 before[3];
	const u16 *text;

	opt_register(test, &kp, m68k_opt_target, OPT_TARGET_PROBE, before);
	KUNIT_EXPECT_EQ(test, *kp.addr, OPT_JMP_ABS);
	KUNIT_EXPECT_EQ(test, disable_kprobe(&kp), 0);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&kp), 0);
	text = kp.addr;
	if (text[0] == OPT_JMP_ABS ||
	    (text[0] == M68K_PROBE_BKPT && !memcmp(&text[1], &before[1], 4))) {
		KUNIT_EXPECT_EQ(test, m68k_opt_target(5), 0x100c);
		KUNIT_EXPECT_EQ(test, opt.hits, 1);
	} else {
		KUNIT_FAIL(test, "%04x %04x %04x at the probe after enabling",
			   text[0], text[1], text[2]);
	}
	opt_unregister(test, &kp, before);
}

/*
 * A probe registered inside an optimized region is checked against the
 * instructions the jump replaced: m68k_opt_zero's region at +0 holds the
 * move (4 bytes) and the lea (4), so +4 takes a probe while +6, the
 * lea's displacement and right behind the jump, does not.  Enabling the
 * inner probe puts the optimized one back to its breakpoint.
 */
static void opt_inner(struct kunit *test)
{
	struct kprobe kp, inner = { .pre_handler = opt_pre,
				    .flags = KPROBE_FLAG_DISABLED };
	struct kprobe after = inner;
	u16 before[3];

	inner.addr = (kprobe_opcode_t *)((unsigned long)m68k_opt_zero + 4);
	after.addr = (kprobe_opcode_t *)((unsigned long)m68k_opt_zero + 6);
	opt_register(test, &kp, m68k_opt_zero, 0, before);
	KUNIT_EXPECT_EQ(test, *kp.addr, OPT_JMP_ABS);
	if (!register_kprobe(&after)) {
		KUNIT_FAIL(test, "a probe accepted inside the lea, at +6");
		unregister_kprobe(&after);
	}
	if (register_kprobe(&inner)) {
		KUNIT_FAIL(test, "no probe accepted on the lea, at +4");
		opt_unregister(test, &kp, before);
		return;
	}
	KUNIT_EXPECT_EQ(test, inner.opcode, 0x41ef);	/* lea */
	KUNIT_EXPECT_EQ(test, *kp.addr, OPT_JMP_ABS);
	KUNIT_EXPECT_EQ(test, enable_kprobe(&inner), 0);
	KUNIT_EXPECT_EQ(test, *kp.addr, M68K_PROBE_BKPT);
	KUNIT_EXPECT_EQ(test, *inner.addr, M68K_PROBE_BKPT);
	KUNIT_EXPECT_EQ(test, opt_word(m68k_opt_zero, 2), 4);
	KUNIT_EXPECT_EQ(test, opt_word(m68k_opt_zero, 6), 4);
	KUNIT_EXPECT_EQ(test, m68k_opt_zero(0), 1);
	KUNIT_EXPECT_EQ(test, opt.hits, 2);
	unregister_kprobe(&inner);
	KUNIT_EXPECT_EQ(test, opt_word(m68k_opt_zero, 4), 0x41ef);
	opt_unregister(test, &kp, before);
}

/*
 * A buffer may hold code that has just run: the test fills the first
 * clean one with "moveq #0x5a,%d0; rts" pairs and runs each pair, then
 * has the buffer written for a probe at m68k_opt_target+4 and enters it
 * at once, as the probe's jump would (m68k_opt_enter).  The new detour
 * must run: the handler sees the probe, the result is m68k_opt_target's
 * (the old code would return 0x5a).
 *
 * The pairs run once more as late as they can: when the slot allocator
 * hands the buffer to arch_prepare_optimized_kprobe() (a kretprobe on
 * __get_insn_slot()), after its symbol lookup and decoding and right
 * before it writes.  Run only before that, the buffer's lines were
 * replaced in a 68060's 8 KiB cache by the code of the lookup and the
 * decoder, so a write without its flush went unseen on Hatari's 060;
 * now only the writer's own few lines run between the old code and the
 * entry.  The kretprobe goes only after the entry: unregistering it
 * writes text and waits for RCU, which would replace the lines too.
 */
static struct {
	kprobe_opcode_t *slot;		/* the buffer to run, NULL: none */
	unsigned int bytes, runs, wrong;
} opt_late;

static int opt_late_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	unsigned int i;

	if (!opt_late.slot ||
	    regs_return_value(regs) != (unsigned long)opt_late.slot)
		return 0;
	for (i = 0; i < opt_late.bytes; i += 4)
		if (((int (*)(void))((u8 *)opt_late.slot + i))() != OPT_OLD)
			opt_late.wrong++;
	opt_late.runs++;
	return 0;
}

static void opt_buffer_reused(struct kunit *test)
{
	struct kprobe probe = { .pre_handler = opt_pre };
	struct kretprobe late = { .kp.symbol_name = "__get_insn_slot",
				  .handler = opt_late_ret };
	u16 code[MAX_OPTINSN_SIZE & ~1];
	struct optimized_kprobe op = {};
	kprobe_opcode_t *slot;
	unsigned int i;
	int ret, result = 0;

	for (i = 0; i < ARRAY_SIZE(code); i += 2) {
		code[i] = 0x7000 | OPT_OLD;	/* moveq #OPT_OLD,%d0 */
		code[i + 1] = 0x4e75;		/* rts */
	}
	memset(&opt_late, 0, sizeof(opt_late));
	KUNIT_ASSERT_EQ(test, register_kretprobe(&late), 0);
	/* an optimizer taking buffers for it is done before ours is chosen */
	wait_for_kprobe_optimizer();
	slot = get_optinsn_slot();
	if (!slot) {
		unregister_kretprobe(&late);
		KUNIT_FAIL(test, "no optimized-probe buffer");
		return;
	}
	if (m68k_patch_copy(slot, code, sizeof(code))) {
		free_optinsn_slot(slot, 0);
		unregister_kretprobe(&late);
		KUNIT_FAIL(test, "the buffer could not be written");
		return;
	}
	for (i = 0; i < sizeof(code); i += 4)
		KUNIT_EXPECT_EQ(test, ((int (*)(void))((u8 *)slot + i))(), OPT_OLD);
	free_optinsn_slot(slot, 0);

	memset(&opt, 0, sizeof(opt));
	op.kp.addr = (kprobe_opcode_t *)((unsigned long)m68k_opt_target +
					 OPT_TARGET_PROBE);
	INIT_LIST_HEAD(&op.kp.list);
	list_add(&probe.list, &op.kp.list);
	opt_late.bytes = sizeof(code);
	opt_late.slot = slot;
	ret = arch_prepare_optimized_kprobe(&op, &probe);
	opt_late.slot = NULL;
	/* entered before anything else runs */
	if (!ret)
		result = m68k_opt_enter(5, op.optinsn.insn);
	unregister_kretprobe(&late);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_PTR_EQ(test, op.optinsn.insn, slot);
	KUNIT_EXPECT_EQ(test, result, 0x100c);
	KUNIT_EXPECT_EQ(test, opt.hits, 1);
	KUNIT_EXPECT_EQ(test, opt.pc, (unsigned long)op.kp.addr);
	KUNIT_EXPECT_EQ(test, opt.d0, 5);
	arch_remove_optimized_kprobe(&op);
	/* the old code ran (and returned its value) when the buffer was taken */
	KUNIT_EXPECT_EQ(test, opt_late.runs, 1);
	KUNIT_EXPECT_EQ(test, opt_late.wrong, 0);
}

static struct kunit_case m68k_optprobes_cases[] = {
	KUNIT_CASE(opt_layout),
	KUNIT_CASE(opt_hit),
	KUNIT_CASE(opt_regs),
	KUNIT_CASE(opt_flags),
	KUNIT_CASE(opt_refused),
	KUNIT_CASE(opt_inner),
	KUNIT_CASE(opt_reenable),
	KUNIT_CASE(opt_buffer_reused),
	{}
};

static struct kunit_suite m68k_optprobes_suite = {
	.name = "m68k_optprobes",
	.test_cases = m68k_optprobes_cases,
};

kunit_test_suite(m68k_optprobes_suite);

MODULE_DESCRIPTION("KUnit tests for m68k optimized kprobes");
MODULE_LICENSE("GPL");
