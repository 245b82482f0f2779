// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of where m68k kprobes may go, through register_kprobe()
 * (no tracefs rule in the way): never inside a switch's jump table, but
 * still on the instructions around it, also with a probe armed before
 * them; never in a blacklisted section
 * (head code, entry code, trampolines), never on the constant tables the
 * FPU emulation packages keep among their code; never on an instruction
 * the 68060 emulates in software, but on the one after it.
 */

#include <kunit/test.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/string.h>
#include <asm/probes.h>
#include <asm/sections.h>
#include <asm/setup.h>

#include "decode-insn.h"

/*
 * A switch as gcc compiles one, in assembly so that the layout is known:
 * the table of word offsets right behind "jmp %pc@(2,%d0:w)", then the
 * default case, then the cases.  The offsets 0x10, 0x14, 0x18 and 0x1c
 * read as two 4-byte "ori.b #imm,(%a0)" and "ori.b #imm,(%a0)+": a walk
 * that decoded the table would find instructions at its first and third
 * words.  m68k_kpt_switch(n) returns 10 + n for n in 0..3, else -1.
 * The layout below is checked against the assembled bytes.
 *
 * ColdFire has only long indexes: gcc sign-extends the offset it read
 * (ext.l) and jumps through "jmp %pc@(2,%d0:l)", two bytes further on.
 * And there neither PC-indexed instruction has an absolute form that a
 * probe could step (decode-insn.c): both are refused.
 */
#ifdef CONFIG_COLDFIRE
#define KPT_EXT		"	ext.l	%d0\n"
#define KPT_INDEX	"l"
#define KPT_CF		2	/* the ext.l */
#else
#define KPT_EXT		""
#define KPT_INDEX	"w"
#define KPT_CF		0
#endif

int m68k_kpt_switch(int n);
asm(".text\n"
"	.globl	m68k_kpt_switch\n"
"	.type	m68k_kpt_switch, @function\n"
"m68k_kpt_switch:\n"
"	move.l	4(%sp),%d0\n"
"	moveq	#3,%d1\n"
"	cmp.l	%d0,%d1\n"
"	jcs	2f\n"
"	add.l	%d0,%d0\n"
"	move.w	1f(%pc,%d0.l),%d0\n"
KPT_EXT
"	jmp	%pc@(2,%d0:" KPT_INDEX ")\n"
"1:	.word	10f-1b, 11f-1b, 12f-1b, 13f-1b\n"
"2:	moveq	#-1,%d0\n"
"	move.l	%d0,%d1\n"
"	move.l	%d1,%d0\n"
"	rts\n"
"10:	moveq	#10,%d0\n"
"	rts\n"
"11:	moveq	#11,%d0\n"
"	rts\n"
"12:	moveq	#12,%d0\n"
"	rts\n"
"13:	moveq	#13,%d0\n"
"	rts\n"
"	.size	m68k_kpt_switch, . - m68k_kpt_switch\n");

/* where each instruction before the table starts; the jmp last */
static const u32 kpt_insns[] = {
	0, 4, 6, 8, 10, 12,
#ifdef CONFIG_COLDFIRE
	16,
#endif
	16 + KPT_CF
};

#define KPT_MOVEW	12	/* move.w 1f(%pc,%d0.l),%d0 */
#define KPT_JMP		(16 + KPT_CF)
#define KPT_TABLE	(20 + KPT_CF)	/* the table of offsets */
#define KPT_DEFAULT	(28 + KPT_CF)	/* moveq #-1,%d0: the default case */
#define KPT_CASE0	(36 + KPT_CF)	/* moveq #10,%d0: case 0 */

static int kpt_hits;

static int kpt_pre(struct kprobe *p, struct pt_regs *regs)
{
	kpt_hits++;
	return 0;
}

/* register_kprobe(@kp) and, if it was accepted, unregister it again */
static int kpt_register_once(struct kprobe *kp)
{
	int ret = register_kprobe(kp);

	if (!ret)
		unregister_kprobe(kp);
	return ret;
}

/* register_kprobe() at @offset into m68k_kpt_switch; unregistered again */
static int kpt_try(unsigned long offset)
{
	struct kprobe kp = {
		.addr = (kprobe_opcode_t *)((unsigned long)m68k_kpt_switch +
					    offset),
		.pre_handler = kpt_pre,
	};

	return kpt_register_once(&kp);
}

static void kpt_switch_layout(struct kunit *test)
{
	const u16 *text = (const u16 *)m68k_kpt_switch;
	int n;

	/* the function is the switch it claims to be ... */
	for (n = -1; n <= 4; n++)
		KUNIT_EXPECT_EQ(test, m68k_kpt_switch(n),
				n >= 0 && n <= 3 ? 10 + n : -1);
	/* ... laid out as the test assumes ... */
	KUNIT_EXPECT_EQ(test, text[KPT_MOVEW / 2], 0x303b);	/* move.w */
	KUNIT_EXPECT_EQ(test, text[KPT_JMP / 2], 0x4efb);	/* jmp */
	KUNIT_EXPECT_EQ(test, text[KPT_DEFAULT / 2], 0x70ff);
	KUNIT_EXPECT_EQ(test, text[KPT_CASE0 / 2], 0x700a);
	/* ... and its table reads as instructions, as the comment says */
	KUNIT_EXPECT_EQ(test, text[KPT_TABLE / 2], 0x0010);
	KUNIT_EXPECT_EQ(test, text[KPT_TABLE / 2 + 2], 0x0018);
}

static void kpt_jump_table_refused(struct kunit *test)
{
	u32 off;

	for (off = KPT_TABLE; off < KPT_DEFAULT; off += 2)
		KUNIT_EXPECT_EQ_MSG(test, kpt_try(off), -EILSEQ,
				    "offset %u in the jump table", off);
}

static void kpt_around_table_accepted(struct kunit *test)
{
	unsigned int i;
	u32 off;

	/*
	 * every instruction before the table, the jmp included (on ColdFire
	 * the two PC-indexed ones are refused as such)
	 */
	for (i = 0; i < ARRAY_SIZE(kpt_insns); i++) {
		off = kpt_insns[i];
		KUNIT_EXPECT_EQ_MSG(test, kpt_try(off),
				    IS_ENABLED(CONFIG_COLDFIRE) &&
				    (off == KPT_MOVEW || off == KPT_JMP) ?
				    -EINVAL : 0, "offset %u", off);
	}
	/* the default case and every case after the table */
	for (off = KPT_DEFAULT; off < KPT_CASE0 + 16; off += 2)
		KUNIT_EXPECT_EQ_MSG(test, kpt_try(off), 0, "offset %u", off);
}

/* A probe on a case behind the table is hit, and the case still runs. */
static void kpt_case_probe_hit(struct kunit *test)
{
	struct kprobe kp = {
		.addr = (kprobe_opcode_t *)((unsigned long)m68k_kpt_switch +
					    KPT_CASE0 + 4),
		.pre_handler = kpt_pre,
	};

	KUNIT_ASSERT_EQ(test, register_kprobe(&kp), 0);
	kpt_hits = 0;
	KUNIT_EXPECT_EQ(test, m68k_kpt_switch(0), 10);
	KUNIT_EXPECT_EQ(test, m68k_kpt_switch(1), 11);
	KUNIT_EXPECT_EQ(test, m68k_kpt_switch(2), 12);
	unregister_kprobe(&kp);
	KUNIT_EXPECT_EQ(test, kpt_hits, 1);
}

/*
 * A probe armed on the first instruction (4 bytes) changes none of the
 * boundaries: the walk reads the opcode under its breakpoint, so the
 * next instruction still takes a probe and the middle of the first one
 * still does not; both probes are hit.
 */
static void kpt_after_armed_probe(struct kunit *test)
{
	struct kprobe first = {
		.addr = (kprobe_opcode_t *)m68k_kpt_switch,
		.pre_handler = kpt_pre,
	};
	struct kprobe next = {
		.addr = (kprobe_opcode_t *)((unsigned long)m68k_kpt_switch +
					    kpt_insns[1]),
		.pre_handler = kpt_pre,
	};

	KUNIT_ASSERT_EQ(test, kpt_insns[1], 4);
	KUNIT_ASSERT_EQ(test, register_kprobe(&first), 0);
	KUNIT_EXPECT_EQ(test, *first.addr, M68K_PROBE_BKPT);
	KUNIT_EXPECT_EQ(test, kpt_try(2), -EILSEQ);
	KUNIT_EXPECT_EQ(test, kpt_try(KPT_DEFAULT), 0);
	KUNIT_EXPECT_EQ(test, kpt_try(KPT_TABLE), -EILSEQ);
	if (register_kprobe(&next)) {
		KUNIT_FAIL(test, "no probe accepted behind an armed one, at +4");
	} else {
		KUNIT_EXPECT_EQ(test, next.opcode, 0x7203);	/* moveq #3,%d1 */
		kpt_hits = 0;
		KUNIT_EXPECT_EQ(test, m68k_kpt_switch(1), 11);
		KUNIT_EXPECT_EQ(test, kpt_hits, 2);
		unregister_kprobe(&next);
	}
	unregister_kprobe(&first);
	KUNIT_EXPECT_EQ(test, *first.addr, 0x202f);	/* move.l 4(%sp),%d0 */
}

#ifndef CONFIG_COLDFIRE
/*
 * Instructions the 68060 does not implement and the kernel emulates in
 * software (the ISP package, arch/m68k/ifpsp060): a probe on one is
 * refused with a reason, as the decoder does on every CPU (a copy
 * stepped out of line would trap to the emulation from the slot); a
 * probe on the instruction after one is hit once the emulation has
 * returned there, and the results are right whether the CPU or the
 * emulation computed them.  m68k_kpt_emu(a, b, p) computes a * b as a
 * 64-bit product (mulu.l), divides it back by b (divu.l with a 64-bit
 * dividend) and adds the word that movep.w gathers from p[0] and p[2].
 * The encodings are spelled out: an assembler for the 68060 alone
 * refuses them.  Behind its rts, never run, cas2.l, chk2.l and cmp2.l,
 * for the decoder alone (QEMU, 7.2 at least, implements no cmp2: an
 * illegal instruction there).
 */
u32 m68k_kpt_emu(u32 a, u32 b, const u8 *p);
asm(".text\n"
"	.globl	m68k_kpt_emu\n"
"	.type	m68k_kpt_emu, @function\n"
"m68k_kpt_emu:\n"
"	move.l	4(%sp),%d0\n"
"	move.l	8(%sp),%d1\n"
"	move.l	12(%sp),%a0\n"
"	move.l	%d2,-(%sp)\n"
"	.short	0x4c01, 0x0402\n"		/* mulu.l %d1,%d2:%d0 */
"	tst.l	%d2\n"
"	.short	0x4c41, 0x0402\n"		/* divu.l %d1,%d2:%d0 */
"	add.l	%d2,%d0\n"
"	moveq	#0,%d1\n"
"	.short	0x0308, 0x0000\n"		/* movep.w 0(%a0),%d1 */
"	add.l	%d1,%d0\n"
"	move.l	(%sp)+,%d2\n"
"	rts\n"
"	.short	0x0efc, 0x8080, 0x90c1\n"	/* cas2.l %d0:%d1,%d2:%d3,(%a0):(%a1) */
"	.short	0x04d0, 0x0800\n"		/* chk2.l (%a0),%d0 */
"	.short	0x04e8, 0x0000, 0x0004\n"	/* cmp2.l 4(%a0),%d0 */
"	rts\n"
"	.size	m68k_kpt_emu, . - m68k_kpt_emu\n");

#define KPT_EMU_SIZE	56	/* m68k_kpt_emu's bytes */

/* each such instruction: where, how long, why refused */
static const struct {
	bool run;	/* run, so the next one takes a probe */
	u16 offset, len;
	const char *name, *why;
} kpt_emu_insns[] = {
	{ true, 14, 4, "mulu.l, 64-bit product", "emulated in software" },
	{ true, 20, 4, "divu.l, 64-bit dividend", "emulated in software" },
	{ true, 28, 4, "movep.w", "emulated in software" },
	{ false, 38, 6, "cas2.l", "emulated in software" },
	{ false, 44, 4, "chk2.l", "chk2 traps" },
	{ false, 48, 6, "cmp2.l", "emulated in software" },
};

static void kpt_060_emulated(struct kunit *test)
{
	static const u8 bytes[4] = { 0x12, 0xee, 0x34, 0xee };
	struct kprobe after[ARRAY_SIZE(kpt_emu_insns)];
	unsigned long size, offset;
	unsigned int i, n = 0;

	KUNIT_ASSERT_TRUE(test, kallsyms_lookup_size_offset((unsigned long)m68k_kpt_emu,
							    &size, &offset));
	/* kallsyms' size runs to the next symbol: padding and ops slots too */
	KUNIT_ASSERT_GE(test, size, KPT_EMU_SIZE);
	/* unprobed; the first two products need 64 bits */
	KUNIT_EXPECT_EQ(test, m68k_kpt_emu(0x12345678, 0x9abc, bytes), 0x123468ac);
	KUNIT_EXPECT_EQ(test, m68k_kpt_emu(0x7ffe0000, 0x10001, bytes), 0x7ffe1234);
	KUNIT_EXPECT_EQ(test, m68k_kpt_emu(0x800, 3, bytes), 0x1a34);

	for (i = 0; i < ARRAY_SIZE(kpt_emu_insns); i++) {
		unsigned long addr = (unsigned long)m68k_kpt_emu +
				     kpt_emu_insns[i].offset;
		const char *name = kpt_emu_insns[i].name;
		struct kprobe kp = { .addr = (kprobe_opcode_t *)addr };
		struct m68k_insn insn;
		int ret;

		ret = m68k_insn_decode((const u16 *)addr, 6, addr, &insn);
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%s", name);
		KUNIT_EXPECT_EQ_MSG(test, insn.len, kpt_emu_insns[i].len, "%s", name);
		KUNIT_EXPECT_EQ_MSG(test, insn.action, M68K_INSN_REFUSE, "%s", name);
		KUNIT_EXPECT_TRUE_MSG(test, insn.why && strstr(insn.why, kpt_emu_insns[i].why),
				      "%s: refused for '%s'", name, insn.why ?: "(nothing)");
		KUNIT_EXPECT_EQ_MSG(test, kpt_register_once(&kp), -EINVAL, "%s", name);
		if (!kpt_emu_insns[i].run)
			continue;
		after[n] = (struct kprobe) {
			.addr = (kprobe_opcode_t *)(addr + kpt_emu_insns[i].len),
			.pre_handler = kpt_pre,
		};
		ret = register_kprobe(&after[n]);
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "the instruction after %s", name);
		if (!ret)
			n++;
	}
	kpt_hits = 0;
	KUNIT_EXPECT_EQ(test, m68k_kpt_emu(0x12345678, 0x9abc, bytes), 0x123468ac);
	KUNIT_EXPECT_EQ(test, m68k_kpt_emu(0x800, 3, bytes), 0x1a34);
	KUNIT_EXPECT_EQ(test, kpt_hits, 2 * n);
	for (i = 0; i < n; i++)
		unregister_kprobe(&after[i]);
	kunit_info(test, "%s: %zu refused, %u probes after them hit %d times\n",
		   CPU_IS_060 ? "68060, emulated" : "implemented by this CPU",
		   ARRAY_SIZE(kpt_emu_insns), n, kpt_hits);
}
#endif

/*
 * register_kprobe() on every symbol of [@start, @end) fails with -EINVAL
 * (the blacklist); returns how many symbols were tried.  Stops reporting
 * after a few accepted ones.
 */
static unsigned int kpt_range_refused(struct kunit *test, const char *what,
				      unsigned long start, unsigned long end)
{
	unsigned long addr, size, offset;
	unsigned int n = 0, bad = 0;

	KUNIT_EXPECT_LT_MSG(test, start, end, "%s is empty", what);
	for (addr = start; addr < end; addr += size - offset) {
		struct kprobe kp = { .addr = (kprobe_opcode_t *)addr };

		if (!kallsyms_lookup_size_offset(addr, &size, &offset) ||
		    size <= offset) {
			KUNIT_FAIL(test, "%s: no symbol at %#lx", what, addr);
			break;
		}
		if (kpt_register_once(&kp) != -EINVAL && bad++ < 8)
			KUNIT_FAIL(test, "%s: %pS accepted", what, (void *)addr);
		n++;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "%s: symbols accepted", what);
	kunit_info(test, "%s: %u symbols tried, %u accepted\n", what, n, bad);
	return n;
}

/* register_kprobe(@name) fails with -EINVAL, and @name exists */
static void kpt_name_refused(struct kunit *test, const char *name)
{
	struct kprobe kp = { .symbol_name = name };

	KUNIT_EXPECT_NE_MSG(test, kallsyms_lookup_name(name), 0, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, kpt_register_once(&kp), -EINVAL, "%s",
			    name);
}

/*
 * The blacklist is made of sections, not names: every symbol in them is
 * refused, also the ones inside a trampoline (ftrace_call, the call that
 * ftrace rewrites in ftrace_caller).
 */
static void kpt_sections_refused(struct kunit *test)
{
	static const char * const names[] = {
		"_stext", "_start",
#ifdef CONFIG_MMU
		"kernel_pg_dir",
#endif
#ifdef CONFIG_DYNAMIC_FTRACE
		"ftrace_caller", "ftrace_call", "m68k_patch_call_tramp",
#endif
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
		"return_to_handler",
#endif
	};
	unsigned int i;

	kpt_range_refused(test, ".head.text", (unsigned long)_stext,
			  (unsigned long)__head_text_end);
	kpt_range_refused(test, ".entry.text",
			  (unsigned long)__entry_text_start,
			  (unsigned long)__entry_text_end);
	kpt_range_refused(test, ".kprobes.text",
			  (unsigned long)__kprobes_text_start,
			  (unsigned long)__kprobes_text_end);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		kpt_name_refused(test, names[i]);
}

#if defined(CONFIG_M68040) || defined(CONFIG_M68060)
/* fpsp040's constant tables, each a label followed by .long data */
static void kpt_fpsp_tables_refused(struct kunit *test)
{
	static const char * const tables[] = {
		"PIRN", "PIRZRM", "SMALRN", "BIGRN", "PTENRN", "tblpre",
	};
	unsigned long start = (unsigned long)__fpsp_text_start;
	unsigned long end = (unsigned long)__fpsp_text_end;
	unsigned long addr;
	unsigned int i;

	if (!IS_ENABLED(CONFIG_M68040))
		kunit_skip(test, "no fpsp040 in a kernel without 68040 support");
	for (i = 0; i < ARRAY_SIZE(tables); i++) {
		addr = kallsyms_lookup_name(tables[i]);
		KUNIT_EXPECT_TRUE_MSG(test, addr >= start && addr < end,
				      "%s at %#lx", tables[i], addr);
		kpt_name_refused(test, tables[i]);
	}
	/* and every other symbol of the packages */
	KUNIT_EXPECT_GT(test, kpt_range_refused(test, ".text..fpsp", start, end),
			100);
}
#endif

static struct kunit_case m68k_kprobes_cases[] = {
	KUNIT_CASE(kpt_switch_layout),
	KUNIT_CASE(kpt_jump_table_refused),
	KUNIT_CASE(kpt_around_table_accepted),
	KUNIT_CASE(kpt_case_probe_hit),
	KUNIT_CASE(kpt_after_armed_probe),
#ifndef CONFIG_COLDFIRE
	KUNIT_CASE(kpt_060_emulated),
#endif
	KUNIT_CASE(kpt_sections_refused),
#if defined(CONFIG_M68040) || defined(CONFIG_M68060)
	KUNIT_CASE(kpt_fpsp_tables_refused),
#endif
	{}
};

static struct kunit_suite m68k_kprobes_suite = {
	.name = "m68k_kprobes",
	.test_cases = m68k_kprobes_cases,
};

kunit_test_suite(m68k_kprobes_suite);
