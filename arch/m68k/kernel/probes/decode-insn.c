// SPDX-License-Identifier: GPL-2.0
/*
 * The m68k instruction decoder of kprobes and uprobes.
 *
 * It knows the 68020-68060 integer instruction set, the 68030 and 68040/060
 * MMU and cache instructions (only to refuse them) and the 6888x/68040 FPU
 * instructions, and what ColdFire (ISA_A to ISA_C) changes: see
 * coldfire() below.  For the instruction at an address it finds the length,
 * what a probe does there (refuse it, step a copy out of line, or simulate
 * it) and what must be fixed up after a step, where a branch goes, and
 * builds the copy to step: every PC-relative effective address is
 * rewritten into an absolute one, so that the copy computes the same
 * address wherever it runs.  kprobes and uprobes act on this description
 * alone, and kprobes' walk over a function's instructions reads its
 * lengths and targets.
 *
 * Copyright the m68k ftrace port authors.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>

#include "decode-insn.h"

/* The kinds of effective address, as bits of an "allowed" mask. */
#define EA_DN		0x001	/* Dn */
#define EA_AN		0x002	/* An */
#define EA_IND		0x004	/* (An) */
#define EA_POSTINC	0x008	/* (An)+ */
#define EA_PREDEC	0x010	/* -(An) */
#define EA_D16		0x020	/* (d16,An) */
#define EA_IDX		0x040	/* (d8,An,Xn) and the full format */
#define EA_ABSW		0x080	/* (xxx).W */
#define EA_ABSL		0x100	/* (xxx).L */
#define EA_PCD16	0x200	/* (d16,PC) */
#define EA_PCIDX	0x400	/* (d8,PC,Xn) and the full format */
#define EA_IMM		0x800	/* #imm */

/* The addressing categories of the Programmer's Reference Manual. */
#define EA_ALL		0xfff
#define EA_DATA		(EA_ALL & ~EA_AN)
#define EA_MEM		(EA_DATA & ~EA_DN)
#define EA_CTL		(EA_IND | EA_D16 | EA_IDX | EA_ABSW | EA_ABSL | \
			 EA_PCD16 | EA_PCIDX)
#define EA_ALT		(EA_DN | EA_AN | EA_IND | EA_POSTINC | EA_PREDEC | \
			 EA_D16 | EA_IDX | EA_ABSW | EA_ABSL)
#define EA_DALT		(EA_ALT & ~EA_AN)
#define EA_MALT		(EA_DALT & ~EA_DN)
#define EA_CALT		(EA_CTL & ~(EA_PCD16 | EA_PCIDX))

/*
 * ColdFire runs a subset of the 680x0 encodings and a few of its own, and
 * three differences matter here: an instruction is at most three words
 * long, the only indexed mode is the brief format, and line A holds the
 * MAC/EMAC unit's instructions and mov3q instead of trapping.  A ColdFire
 * kernel decodes ColdFire's own instructions and refuses the full
 * extension word; what only the 680x0 has is still decoded as on the
 * 680x0 (such a word never runs as ColdFire code: it is data, or never
 * reached).  Of the PC-relative operands only (d16,PC) has an absolute
 * form that still fits: the indexed ones are refused.
 */
#define M68K_CF_MAX_LEN	6

static inline bool coldfire(void)
{
	return IS_ENABLED(CONFIG_COLDFIRE);
}

/* How a PC-relative effective address is encoded. */
enum m68k_pcrel {
	PCREL_NONE,
	PCREL_D16,	/* (d16,PC): one displacement word */
	PCREL_BRIEF,	/* (d8,PC,Xn): brief extension word */
	PCREL_FULL,	/* full extension word with the PC as base */
};

struct m68k_dec {
	const u16 *text;
	unsigned int nw;	/* words readable at text */
	unsigned int pos;	/* words decoded so far */
	unsigned int flags;	/* M68K_INSN_F_* */
	const char *why;	/* why invalid or refused */
	unsigned int pc_ext;	/* word index of the PC-relative extension */
	enum m68k_pcrel pcrel;
	enum m68k_insn_action sim;	/* STEP, or what may be simulated */
	s32 target;		/* with M68K_INSN_F_TARGET: from the opcode */
};

static int invalid(struct m68k_dec *d, const char *why)
{
	d->why = why;
	return -EINVAL;
}

/* A valid instruction that may not be stepped out of line. */
static int refuse(struct m68k_dec *d, const char *why)
{
	if (!d->why)
		d->why = why;
	return 0;
}

/* Consume @n extension words. */
static int ext(struct m68k_dec *d, unsigned int n)
{
	if (d->pos + n > d->nw)
		return invalid(d, "truncated");
	d->pos += n;
	return 0;
}

/* The next (not yet consumed) extension word. */
static int peek(struct m68k_dec *d, u16 *w)
{
	if (d->pos >= d->nw)
		return invalid(d, "truncated");
	*w = d->text[d->pos];
	return 0;
}

/*
 * The extension words of (d8,An,Xn), (d8,PC,Xn) and the 68020 full format
 * (base displacement, memory indirection, outer displacement).
 */
static int ea_index(struct m68k_dec *d, bool pc)
{
	unsigned int bd, iis, n = 1;
	u16 w;

	if (peek(d, &w))
		return -EINVAL;
	if (!(w & 0x0100)) {
		if (pc) {
			d->pcrel = PCREL_BRIEF;
			d->pc_ext = d->pos;
		}
		return ext(d, 1);
	}
	if (coldfire())
		return invalid(d, "full extension word (not on ColdFire)");
	bd = (w >> 4) & 3;
	iis = w & 7;
	if (bd == 0 || (w & 0x0008))
		return invalid(d, "reserved full extension word");
	if (iis == 4 || ((w & 0x0040) && iis > 4))
		return invalid(d, "reserved full extension word");
	n += bd - 1;
	if (iis & 3)
		n += (iis & 3) - 1;
	if (pc && !(w & 0x0080)) {
		d->pcrel = PCREL_FULL;
		d->pc_ext = d->pos;
	}
	return ext(d, n);
}

/*
 * The effective address in @mode/@reg: check it against @allowed and
 * consume its extension words.  @isize is the size in bytes of an
 * immediate operand.
 */
static int ea(struct m68k_dec *d, unsigned int mode, unsigned int reg,
	      unsigned int allowed, unsigned int isize)
{
	static const u16 kinds[8] = {
		EA_ABSW, EA_ABSL, EA_PCD16, EA_PCIDX, EA_IMM, 0, 0, 0
	};
	unsigned int kind = mode < 7 ? 1U << mode : kinds[reg];

	if (!(kind & allowed))
		return invalid(d, "addressing mode");
	switch (kind) {
	case EA_D16:
	case EA_ABSW:
		return ext(d, 1);
	case EA_PCD16:
		d->pcrel = PCREL_D16;
		d->pc_ext = d->pos;
		return ext(d, 1);
	case EA_ABSL:
		return ext(d, 2);
	case EA_IDX:
		return ea_index(d, false);
	case EA_PCIDX:
		return ea_index(d, true);
	case EA_IMM:
		return ext(d, isize < 2 ? 1 : isize / 2);
	}
	return 0;
}

/* The effective address in bits 5-0 of the opcode. */
static int ea_op(struct m68k_dec *d, u16 op, unsigned int allowed,
		 unsigned int isize)
{
	return ea(d, (op >> 3) & 7, op & 7, allowed, isize);
}

/*
 * The instruction may go to @disp bytes from its word @word (the PC it
 * computes the target from).  Call it once that word is consumed.  A
 * branch that is never taken (dbt, fbf, fdbt...) has no target: its
 * displacement need not point at an instruction (fnop is fbf.w to the
 * middle of itself).
 */
static void branch_to(struct m68k_dec *d, unsigned int word, s32 disp,
		      bool never)
{
	if (never)
		return;
	d->flags |= M68K_INSN_F_TARGET;
	d->target = 2 * word + disp;
}

/* Bytes of the size field in bits 7-6 (0: byte, 1: word, 2: long). */
static unsigned int size_bytes(u16 op)
{
	return 1U << ((op >> 6) & 3);
}

/* Bit operations, MOVEP, immediate operations, CMP2/CHK2, CAS, MOVES. */
static int line0(struct m68k_dec *d, u16 op)
{
	unsigned int mode = (op >> 3) & 7, sz = (op >> 6) & 3;
	unsigned int alu = (op >> 9) & 7;
	u16 w;

	if (op & 0x0100) {
		if (mode == 1) {	/* movep */
			refuse(d, "emulated in software on the 68060");
			return ext(d, 1);
		}
		/* btst/bchg/bclr/bset Dn,<ea> */
		return ea_op(d, op, sz == 0 ? EA_DATA : EA_DALT, 1);
	}
	if (alu == 4) {			/* btst/bchg/bclr/bset #n,<ea> */
		if (ext(d, 1))
			return -EINVAL;
		return ea_op(d, op, sz == 0 ? EA_DATA & ~EA_IMM : EA_DALT, 1);
	}
	if (sz == 3) {
		/* ColdFire's bitrev, byterev and ff1 Dn */
		if (coldfire() && alu <= 2 && mode == 0)
			return 0;
		if (alu <= 2) {		/* cmp2/chk2 */
			if (peek(d, &w) || ext(d, 1))
				return -EINVAL;
			if (w & 0x07ff)
				return invalid(d, "cmp2/chk2 extension word");
			if (w & 0x0800)
				refuse(d, "chk2 traps");
			refuse(d, "emulated in software on the 68060");
			return ea_op(d, op, EA_CTL, 0);
		}
		if (alu == 3)
			return invalid(d, "callm/rtm (68020 only)");
		if ((op & 0x3f) == 0x3c && alu != 5) {	/* cas2 */
			if (ext(d, 2))
				return -EINVAL;
			if ((d->text[1] | d->text[2]) & 0x0e38)
				return invalid(d, "cas2 extension words");
			return refuse(d, "emulated in software on the 68060");
		}
		/* cas */
		if (peek(d, &w) || ext(d, 1))
			return -EINVAL;
		if (w & 0xfe38)
			return invalid(d, "cas extension word");
		return ea_op(d, op, EA_MALT, 0);
	}
	if (alu == 7) {			/* moves */
		if (peek(d, &w) || ext(d, 1))
			return -EINVAL;
		if (w & 0x07ff)
			return invalid(d, "moves extension word");
		refuse(d, "moves is privileged");
		return ea_op(d, op, EA_MALT, 0);
	}
	/* ori/andi/subi/addi/eori/cmpi #imm,<ea> */
	if (ext(d, sz == 2 ? 2 : 1))
		return -EINVAL;
	if ((op & 0x3f) == 0x3c && (alu == 0 || alu == 1 || alu == 5)) {
		if (sz == 0)		/* to ccr */
			return 0;
		if (sz == 1)
			return refuse(d, "writes the status register");
		return invalid(d, "immediate to status register size");
	}
	if (alu == 6)
		return ea_op(d, op, EA_DATA & ~EA_IMM, 0);
	return ea_op(d, op, EA_DALT, 0);
}

/* MOVE and MOVEA: lines 1 (byte), 2 (long) and 3 (word). */
static int line_move(struct m68k_dec *d, u16 op)
{
	static const u8 sizes[4] = { 0, 1, 4, 2 };
	unsigned int sz = sizes[op >> 12];
	unsigned int dmode = (op >> 6) & 7, dreg = (op >> 9) & 7;

	if (ea_op(d, op, sz == 1 ? EA_ALL & ~EA_AN : EA_ALL, sz))
		return -EINVAL;
	return ea(d, dmode, dreg, sz == 1 ? EA_DALT : EA_ALT, 0);
}

/* Line 4, opcodes 0x4e40-0x4eff: trap, link, unlk, rts, jsr, jmp... */
static int line4_e(struct m68k_dec *d, u16 op)
{
	if ((op & 0xff80) == 0x4e80) {		/* jsr, jmp */
		if (!(op & 0x0040))
			d->flags |= M68K_INSN_F_PUSHRET;
		if (ea_op(d, op, EA_CTL, 0))
			return -EINVAL;
		if (d->pcrel == PCREL_D16)
			branch_to(d, 1, (s16)d->text[1], false);
		/*
		 * jmp (d8,%pc,Xn) jumps through a table that may lie right
		 * behind it: gcc's switch tables of word offsets from the
		 * table's start, in the brief format with d8 = 2 and a word
		 * index (on ColdFire, which has only long indexes, the word
		 * read and sign-extended into a long one).
		 */
		if (op == 0x4efb) {
			d->flags |= M68K_INSN_F_TABLE;
			if ((d->text[1] & (coldfire() ? 0x01ff : 0x09ff)) == 0x0002)
				d->flags |= M68K_INSN_F_WORD_TABLE;
		}
		return 0;
	}
	if ((op & 0xfff0) == 0x4e40)
		return refuse(d, "trap #n");
	if ((op & 0xfff8) == 0x4e50)		/* link.w */
		return ext(d, 1);
	if ((op & 0xfff8) == 0x4e58)		/* unlk */
		return 0;
	if ((op & 0xfff0) == 0x4e60)
		return refuse(d, "move usp is privileged");
	switch (op) {
	case 0x4e70:
		return refuse(d, "reset is privileged");
	case 0x4e71:				/* nop */
		d->sim = M68K_INSN_SIM_NOP;
		return 0;
	case 0x4e72:
		if (ext(d, 1))
			return -EINVAL;
		return refuse(d, "stop is privileged");
	case 0x4e73:
		return refuse(d, "rte is privileged");
	case 0x4e74:				/* rtd */
		return ext(d, 1);
	case 0x4e75:				/* rts */
		return 0;
	case 0x4e76:
		return refuse(d, "trapv traps");
	case 0x4e77:				/* rtr: ccr and pc only */
		return 0;
	case 0x4e7a:
	case 0x4e7b:
		if (ext(d, 1))
			return -EINVAL;
		return refuse(d, "movec is privileged");
	}
	return invalid(d, "unknown line 4 opcode");
}

/* Line 4: the miscellaneous instructions. */
static int line4(struct m68k_dec *d, u16 op)
{
	unsigned int mode = (op >> 3) & 7, sz = (op >> 6) & 3;
	u16 w;

	if (op & 0x0100) {
		switch (sz) {
		case 3:
			if ((op & 0x0ff8) == 0x09c0)	/* extb.l */
				return 0;
			return ea_op(d, op, EA_CTL, 0);	/* lea */
		case 2:				/* chk.w */
		case 0:				/* chk.l */
			refuse(d, "chk traps");
			return ea_op(d, op, EA_DATA, sz == 2 ? 2 : 4);
		}
		return invalid(d, "unknown line 4 opcode");
	}
	switch ((op >> 8) & 0xf) {
	case 0x0:
		/* ColdFire's strldsr #imm: "move.w %sr,-(%sp)", move to sr */
		if (coldfire() && op == 0x40e7) {
			if (peek(d, &w) || ext(d, 2))
				return -EINVAL;
			if (w != 0x46fc)
				return invalid(d, "strldsr without move to sr");
			return refuse(d, "writes the status register");
		}
		if (sz == 3)
			refuse(d, "reads the status register");
		return ea_op(d, op, EA_DALT, 0);	/* negx */
	case 0x2:				/* clr, move from ccr */
		return ea_op(d, op, EA_DALT, 0);
	case 0x4:				/* neg, move to ccr */
		return ea_op(d, op, sz == 3 ? EA_DATA : EA_DALT, 2);
	case 0x6:
		if (sz == 3) {
			refuse(d, "writes the status register");
			return ea_op(d, op, EA_DATA, 2);
		}
		return ea_op(d, op, EA_DALT, 0);	/* not */
	case 0x8:
		if (sz == 0) {
			if (mode == 1)			/* link.l */
				return ext(d, 2);
			return ea_op(d, op, EA_DALT, 0);	/* nbcd */
		}
		if (sz == 1) {
			if (mode == 0)			/* swap */
				return 0;
			if (mode == 1)
				return refuse(d, "bkpt");
			return ea_op(d, op, EA_CTL, 0);	/* pea */
		}
		if (mode == 0)				/* ext.w, ext.l */
			return 0;
		if (ext(d, 1))				/* movem regs,<ea> */
			return -EINVAL;
		return ea_op(d, op, EA_CALT | EA_PREDEC, 0);
	case 0xa:
		if (op == 0x4afc)
			return refuse(d, "illegal");
		if (coldfire() && op == 0x4ac8)
			return refuse(d, "halt is privileged");
		if (coldfire() && op == 0x4acc)		/* pulse */
			return 0;
		if (sz == 3)				/* tas */
			return ea_op(d, op, EA_DALT, 0);
		/* tst */
		return ea_op(d, op, sz == 0 ? EA_ALL & ~EA_AN : EA_ALL,
			     size_bytes(op));
	case 0xc:
		if (coldfire() && (op & 0xfff8) == 0x4c80)	/* sats Dn */
			return 0;
		if (sz >= 2) {				/* movem <ea>,regs */
			if (ext(d, 1))
				return -EINVAL;
			return ea_op(d, op, EA_CTL | EA_POSTINC, 0);
		}
		/* mul.l, div.l */
		if (peek(d, &w) || ext(d, 1))
			return -EINVAL;
		if (w & 0x83f8)
			return invalid(d, "mul.l/div.l extension word");
		if (w & 0x0400)		/* 64-bit product or dividend */
			refuse(d, "emulated in software on the 68060");
		return ea_op(d, op, EA_DATA, 4);
	case 0xe:
		return line4_e(d, op);
	}
	return invalid(d, "unknown line 4 opcode");
}

/* ADDQ, SUBQ, Scc, DBcc, TRAPcc. */
static int line5(struct m68k_dec *d, u16 op)
{
	unsigned int mode = (op >> 3) & 7, reg = op & 7;

	if (((op >> 6) & 3) != 3)
		return ea_op(d, op, (op & 0xc0) ? EA_ALT : EA_DALT, 0);
	if (mode == 1) {				/* dbcc */
		d->flags |= M68K_INSN_F_BRANCH;
		if (ext(d, 1))
			return -EINVAL;
		branch_to(d, 1, (s16)d->text[1], ((op >> 8) & 0xf) == 0);
		return 0;
	}
	if (mode == 7 && reg >= 2 && reg <= 4) {	/* trapcc */
		if (ext(d, reg == 4 ? 0 : reg - 1))
			return -EINVAL;
		/* trapf never traps: it is the ftrace site's no-op */
		if (((op >> 8) & 0xf) != 1)
			refuse(d, "trapcc traps");
		return 0;
	}
	return ea_op(d, op, EA_DALT, 0);		/* scc */
}

/* BRA, BSR, Bcc with 8, 16 or 32-bit displacement. */
static int line6(struct m68k_dec *d, u16 op)
{
	s32 disp = (s8)(op & 0xff);

	d->flags |= M68K_INSN_F_BRANCH;
	if ((op & 0x0f00) == 0x0000)
		d->sim = M68K_INSN_SIM_JUMP;
	if ((op & 0x0f00) == 0x0100) {
		d->flags |= M68K_INSN_F_PUSHRET;
		d->sim = M68K_INSN_SIM_CALL;
	}
	if (disp == 0) {
		if (ext(d, 1))
			return -EINVAL;
		disp = (s16)d->text[1];
	} else if (disp == -1) {
		if (ext(d, 2))
			return -EINVAL;
		disp = (s32)((u32)d->text[1] << 16 | d->text[2]);
	}
	branch_to(d, 1, disp, false);
	return 0;
}

/* OR, SUB, CMP/EOR, AND and ADD with their special rows (lines 8-d). */
static int line_alu(struct m68k_dec *d, u16 op)
{
	unsigned int line = op >> 12, opm = (op >> 6) & 7;
	unsigned int mode = (op >> 3) & 7;

	if (opm == 3 || opm == 7) {
		/* divu.w, divs.w, mulu.w, muls.w: data; suba, cmpa, adda: all */
		if (line == 8 || line == 0xc)
			return ea_op(d, op, EA_DATA, 2);
		return ea_op(d, op, EA_ALL, opm == 3 ? 2 : 4);
	}
	if (opm < 3) {					/* <ea>,Dn */
		if (line == 8 || line == 0xc)
			return ea_op(d, op, EA_DATA, size_bytes(op));
		return ea_op(d, op, opm ? EA_ALL : EA_ALL & ~EA_AN,
			     size_bytes(op));
	}
	if (line == 0xb) {				/* cmpm, eor */
		if (mode == 1)
			return 0;
		return ea_op(d, op, EA_DALT, 0);
	}
	if (mode > 1)					/* Dn,<ea> */
		return ea_op(d, op, EA_MALT, 0);
	switch (line) {
	case 0x8:			/* sbcd, pack, unpk */
		return opm == 4 ? 0 : ext(d, 1);
	case 0xc:			/* abcd, exg */
		if (opm == 6 && mode == 0)
			return invalid(d, "unknown exg mode");
		return 0;
	}
	return 0;			/* subx, addx */
}

/* Shifts and rotates, bit field instructions. */
static int line_e(struct m68k_dec *d, u16 op)
{
	unsigned int type = (op >> 8) & 7;
	u16 w;

	if (((op >> 6) & 3) != 3)		/* register shifts */
		return 0;
	if (!(op & 0x0800))			/* memory shifts */
		return ea_op(d, op, EA_MALT, 0);
	if (peek(d, &w) || ext(d, 1))
		return -EINVAL;
	/* bftst, bfchg, bfclr, bfset have no register operand */
	if (w & (type & 1 ? 0x8000 : 0xf000))
		return invalid(d, "bit field extension word");
	/* bftst, bfextu, bfexts, bfffo only read */
	if (type == 0 || type == 1 || type == 3 || type == 5)
		return ea_op(d, op, EA_DN | EA_CTL, 0);
	return ea_op(d, op, EA_DN | EA_CALT, 0);
}

/* The opmodes of the 6888x and 68040 arithmetic, as a bitmap. */
static const u32 fpu_opmodes[4] = {
	0xf777f75f,	/* 0x00-0x1f: fmove ... fgetman */
	0x05ff01ff,	/* 0x20-0x3f: fdiv ... fsub, fsincos, fcmp, ftst */
	0x55000033,	/* 0x40-0x5f: fsmove, fssqrt, fdmove ... fdneg */
	0x000011dd,	/* 0x60-0x7f: fsdiv ... fdsub */
};

/* Bytes of an immediate in each FPU data format: l s x p w d b. */
static const u8 fpu_fmt_size[8] = { 4, 4, 12, 12, 2, 8, 1, 0 };

/* The FPU general instructions: line F, type 0. */
static int fpu_general(struct m68k_dec *d, u16 op)
{
	unsigned int fmt, n, allowed;
	u16 w;

	if (peek(d, &w) || ext(d, 1))
		return -EINVAL;
	fmt = (w >> 10) & 7;
	switch (w >> 13) {
	case 0:				/* fpm,fpn */
		if (op & 0x3f)
			return invalid(d, "fpu register operation with an ea");
		if (!(fpu_opmodes[(w >> 5) & 3] & (1U << (w & 0x1f))))
			return invalid(d, "unknown fpu opmode");
		return 0;
	case 2:				/* <ea>,fpn */
		if (fmt == 7) {		/* fmovecr */
			if (op & 0x3f)
				return invalid(d, "fmovecr with an ea");
			return 0;
		}
		if (!(fpu_opmodes[(w >> 5) & 3] & (1U << (w & 0x1f))))
			return invalid(d, "unknown fpu opmode");
		allowed = EA_DATA;
		if (fmt == 2 || fmt == 3 || fmt == 5)
			allowed &= ~EA_DN;
		return ea_op(d, op, allowed, fpu_fmt_size[fmt]);
	case 3:				/* fmove fpn,<ea> */
		/* the k-factor of .p, or the register holding it; else 0 */
		if (w & (fmt == 3 ? 0 : fmt == 7 ? 0x0f : 0x7f))
			return invalid(d, "fmove out extension word");
		allowed = EA_DALT;
		if (fmt == 2 || fmt == 3 || fmt == 5 || fmt == 7)
			allowed &= ~EA_DN;
		return ea_op(d, op, allowed, 0);
	case 4:				/* fmove(m) <ea>,fpcr/fpsr/fpiar */
	case 5:				/* fmove(m) fpcr/fpsr/fpiar,<ea> */
		if (w & 0x03ff || !fmt)
			return invalid(d, "fpu control register move");
		n = hweight8(fmt);
		if (n > 1)
			allowed = EA_MEM;
		else if (fmt == 1)	/* fpiar alone may use an An */
			allowed = EA_ALL;
		else
			allowed = EA_DATA;
		if (w & 0x2000)
			allowed &= EA_ALT;
		return ea_op(d, op, allowed, 4 * n);
	case 6:				/* fmovem <ea>,fpregs */
	case 7:				/* fmovem fpregs,<ea> */
		if (w & 0x0700)
			return invalid(d, "fmovem extension word");
		/* the list mode (bit 12) says predecrement or not */
		if (!(w & 0x1000) != (((op >> 3) & 7) == 4))
			return invalid(d, "fmovem mode");
		if (w & 0x2000)
			return ea_op(d, op, EA_CALT | EA_PREDEC, 0);
		return ea_op(d, op, EA_CTL | EA_POSTINC, 0);
	}
	return invalid(d, "unknown fpu opclass");
}

/* The FPU: line F with coprocessor id 1. */
static int line_f_fpu(struct m68k_dec *d, u16 op)
{
	unsigned int mode = (op >> 3) & 7, reg = op & 7;
	s32 disp;
	u16 w;

	switch ((op >> 6) & 7) {
	case 0:
		return fpu_general(d, op);
	case 1:				/* fscc, fdbcc, ftrapcc */
		if (peek(d, &w) || ext(d, 1))
			return -EINVAL;
		if (w & 0xffe0)
			return invalid(d, "fpu condition");
		if (mode == 1) {	/* fdbcc: from its displacement */
			d->flags |= M68K_INSN_F_BRANCH;
			if (ext(d, 1))
				return -EINVAL;
			branch_to(d, 2, (s16)d->text[2], (w & 0xf) == 0xf);
			return 0;
		}
		if (mode == 7 && reg >= 2 && reg <= 4) {
			if (ext(d, reg == 4 ? 0 : reg - 1))
				return -EINVAL;
			return refuse(d, "ftrapcc traps");
		}
		return ea_op(d, op, EA_DALT, 0);
	case 2:				/* fbcc.w */
	case 3:				/* fbcc.l */
		if (op & 0x20)
			return invalid(d, "fpu condition");
		d->flags |= M68K_INSN_F_BRANCH;
		if (ext(d, op & 0x40 ? 2 : 1))
			return -EINVAL;
		if (op & 0x40)
			disp = (s32)((u32)d->text[1] << 16 | d->text[2]);
		else
			disp = (s16)d->text[1];
		branch_to(d, 1, disp, (op & 0xf) == 0);
		return 0;
	case 4:
		refuse(d, "fsave is privileged");
		return ea_op(d, op, EA_CALT | EA_PREDEC, 0);
	case 5:
		refuse(d, "frestore is privileged");
		return ea_op(d, op, EA_CTL | EA_POSTINC, 0);
	}
	return invalid(d, "unknown fpu instruction");
}

/* The 68030 MMU: pmove, pflush, pload, ptest (opcodes 0xf000-0xf03f). */
static int pmmu030(struct m68k_dec *d, u16 op)
{
	u16 w;

	if (peek(d, &w) || ext(d, 1))
		return -EINVAL;
	refuse(d, "68030 mmu instruction");
	switch (w >> 13) {
	case 0:				/* pmove tt0/tt1 */
	case 2:				/* pmove tc/srp/crp */
	case 3:				/* pmove mmusr */
		if (w & 0x0200)		/* to memory */
			return ea_op(d, op, EA_CALT, 0);
		return ea_op(d, op, EA_CTL, 0);
	case 1:				/* pflush, pload */
		if (((w >> 10) & 7) == 1)	/* pflusha: no ea */
			return 0;
		return ea_op(d, op, EA_CALT, 0);
	case 4:				/* ptest */
		return ea_op(d, op, EA_CALT, 0);
	}
	return invalid(d, "unknown 68030 mmu instruction");
}

/* Line F: FPU, 68030 PMMU, 68040/060 cache and MMU, MOVE16, LPSTOP. */
static int line_f(struct m68k_dec *d, u16 op)
{
	u16 w;

	switch ((op >> 9) & 7) {
	case 0:
		if ((op & 0xffc0) == 0xf000)
			return pmmu030(d, op);
		break;
	case 1:
		return line_f_fpu(d, op);
	case 2:
		if ((op & 0xff00) == 0xf400) {
			if (!(op & 0x0018))
				break;
			return refuse(d, "cinv/cpush are privileged");
		}
		if ((op & 0xffe0) == 0xf500 || (op & 0xffd8) == 0xf548)
			return refuse(d, "pflush/ptest are privileged");
		if ((op & 0xffb8) == 0xf588)
			return refuse(d, "plpa is privileged");
		break;
	case 3:
		if ((op & 0xffe0) == 0xf600)	/* move16 with (xxx).L */
			return ext(d, 2);
		if ((op & 0xfff8) == 0xf620) {	/* move16 (Ax)+,(Ay)+ */
			if (peek(d, &w) || ext(d, 1))
				return -EINVAL;
			if ((w & 0x8fff) != 0x8000)
				return invalid(d, "move16 extension word");
			return 0;
		}
		break;
	case 4:
		if (op == 0xf800 && d->nw > 1 && d->text[1] == 0x01c0) {
			if (ext(d, 2))
				return -EINVAL;
			return refuse(d, "lpstop is privileged");
		}
		break;
	}
	return invalid(d, "unknown line F opcode");
}

/*
 * Decode the instruction at @text: its length in bytes, or -EINVAL when it
 * is no valid encoding.  A valid instruction that may not be stepped out of
 * line comes back with its length and d->why set.
 */
static int m68k_decode(struct m68k_dec *d, const u16 *text, unsigned int avail)
{
	u16 op;
	int ret;

	memset(d, 0, sizeof(*d));
	d->sim = M68K_INSN_STEP;
	d->text = text;
	d->nw = avail / 2;
	if (ext(d, 1))
		return -EINVAL;
	op = text[0];
	switch (op >> 12) {
	case 0x0:
		ret = line0(d, op);
		break;
	case 0x1:
	case 0x2:
	case 0x3:
		ret = line_move(d, op);
		break;
	case 0x4:
		ret = line4(d, op);
		break;
	case 0x5:
		ret = line5(d, op);
		break;
	case 0x6:
		ret = line6(d, op);
		break;
	case 0x7:
		if (!(op & 0x0100))			/* moveq */
			ret = 0;
		else if (coldfire())			/* mvs, mvz */
			ret = ea_op(d, op, EA_ALL, op & 0x0040 ? 2 : 1);
		else
			ret = invalid(d, "unknown line 7 opcode");
		break;
	case 0xa:
		if (coldfire() && (op & 0xf1c0) == 0xa140)	/* mov3q */
			ret = ea_op(d, op, EA_ALT, 0);
		else if (coldfire())
			ret = invalid(d, "line A: the MAC unit's");
		else
			ret = invalid(d, "line A");
		break;
	case 0xe:
		ret = line_e(d, op);
		break;
	case 0xf:
		ret = line_f(d, op);
		break;
	default:
		ret = line_alu(d, op);
		break;
	}
	if (ret)
		return ret;
	if (coldfire() && d->pos * 2 > M68K_CF_MAX_LEN)
		return invalid(d, "longer than a ColdFire instruction");
	return d->pos * 2;
}

/*
 * Copy the instruction into insn->slot with its PC-relative effective
 * address made absolute.  The PC the CPU uses for it is the address of its
 * first extension word: addr + 2 * d->pc_ext.
 */
static int m68k_insn_relocate(struct m68k_dec *d, unsigned long addr,
			      struct m68k_insn *insn)
{
	unsigned int i = d->pc_ext, tail, out;
	u32 base = (u32)addr + 2 * i;
	u16 w = d->text[i];
	s32 disp = 0;

	memcpy(insn->slot, d->text, 2 * i);
	switch (d->pcrel) {
	case PCREL_D16:
		/* (d16,PC) -> (xxx).L */
		disp = (s16)w;
		insn->slot[0] = (insn->slot[0] & ~0x3f) | 0x39;
		i++;
		break;
	case PCREL_BRIEF:
		/* (d8,PC,Xn) -> (bd.L,ZPC,Xn): keep the index, scale */
		disp = (s8)(w & 0xff);
		insn->slot[i] = (w & 0xfe00) | 0x01b0;
		i++;
		break;
	case PCREL_FULL:
		/* suppress the PC, make the base displacement absolute */
		if (((w >> 4) & 3) == 2)
			disp = (s16)d->text[i + 1];
		else if (((w >> 4) & 3) == 3)
			disp = (s32)((u32)d->text[i + 1] << 16 | d->text[i + 2]);
		insn->slot[i] = w | 0x00b0;
		i += ((w >> 4) & 3);
		break;
	default:
		return -EINVAL;
	}
	out = d->pc_ext + (d->pcrel == PCREL_D16 ? 0 : 1);
	tail = d->pos - i;
	if (2 * (out + 2 + tail) > M68K_INSN_SLOT_LEN)
		return -EINVAL;
	base += disp;
	insn->slot[out] = base >> 16;
	insn->slot[out + 1] = base & 0xffff;
	memcpy(&insn->slot[out + 2], &d->text[i], 2 * tail);
	insn->slot_len = 2 * (out + 2 + tail);
	return 0;
}

int m68k_insn_decode(const u16 *text, unsigned int avail, unsigned long addr,
		     struct m68k_insn *insn)
{
	struct m68k_dec d;
	int len;

	memset(insn, 0, sizeof(*insn));
	len = m68k_decode(&d, text, avail);
	if (len < 0) {
		insn->why = d.why;
		return -EINVAL;
	}
	insn->len = len;
	insn->flags = d.flags;
	if (d.flags & M68K_INSN_F_TARGET)
		insn->target = addr + d.target;
	if (d.why) {
		insn->why = d.why;
		return 0;
	}
	if (addr & 1) {
		insn->why = "odd address";
		return 0;
	}
	if (d.pcrel != PCREL_NONE) {
		if (coldfire() && d.pcrel != PCREL_D16) {
			insn->why = "pc-indexed operand (no absolute form on ColdFire)";
			return 0;
		}
		if (m68k_insn_relocate(&d, addr, insn) ||
		    (coldfire() && insn->slot_len > M68K_CF_MAX_LEN)) {
			insn->slot_len = 0;
			insn->why = "relocated copy too long";
			return 0;
		}
		insn->flags |= M68K_INSN_F_PCREL;
	} else {
		memcpy(insn->slot, text, len);
		insn->slot_len = len;
	}
	insn->action = d.sim;
	return 0;
}
