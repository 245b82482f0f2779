// SPDX-License-Identifier: GPL-2.0
/*
 * Host driver of the m68k probes' instruction decoder
 * (arch/m68k/kernel/probes/decode-insn.c, compiled unchanged).
 *
 *   decode-test unit
 *	the tables of hand-picked encodings below
 *   decode-test objdump VMLINUX DIS SLOTS.bin SLOTS.txt
 *	DIS is `objdump -d -z --insn-width=22` of VMLINUX: decode the
 *	section contents (read from the ELF file) at every instruction
 *	boundary objdump reports, compare lengths with objdump's,
 *	write each rewritten PC-relative copy to SLOTS.bin (32 bytes apiece,
 *	padded with nop) with one line per copy in SLOTS.txt
 *	("ADDR<TAB>SLOT_LEN<TAB>OBJDUMP TEXT") for check.py to disassemble;
 *	compare every branch or jump target the decoder finds with the one
 *	objdump prints.  Prints mismatches and a "STATS key value" line per
 *	counter.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode-insn.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define F_BR	M68K_INSN_F_BRANCH
#define F_PR	M68K_INSN_F_PUSHRET
#define F_FIXUP	(F_BR | F_PR)

struct unit_case {
	const char *name;
	unsigned int addr;
	u16 text[12];
	int len;		/* bytes, or -EINVAL: not an instruction */
	const char *why;	/* NULL: accepted; else a substring of why */
	unsigned int flags;	/* the fix-ups: F_BR, F_PR */
	int slot_len;		/* 0: same as len */
	u16 slot[14];		/* expected copy when it is rewritten */
};

#define NOWHY	NULL
static const struct unit_case cases[] = {
	/* the ftrace call-site forms */
	{ "bsr.l _mcount", 0x1000, { 0x61ff, 0x0000, 0x1000 }, 6, NOWHY, F_BR | F_PR },
	{ "trapf.l #imm32 (ftrace nop)", 0x1000, { 0x51fb, 0x1234, 0x5678 }, 6, NOWHY, 0 },
	{ "jsr abs.l", 0x1000, { 0x4eb9, 0x0012, 0x3456 }, 6, NOWHY, F_PR },
	{ "trapf.w", 0x1000, { 0x51fa, 0x0001 }, 4, NOWHY, 0 },
	{ "trapf", 0x1000, { 0x51fc }, 2, NOWHY, 0 },
	/* flags */
	{ "bra.s", 0x1000, { 0x6010 }, 2, NOWHY, F_BR },
	{ "bne.w", 0x1000, { 0x6600, 0x0100 }, 4, NOWHY, F_BR },
	{ "bsr.s", 0x1000, { 0x6110 }, 2, NOWHY, F_BR | F_PR },
	{ "dbra d0", 0x1000, { 0x51c8, 0xfffc }, 4, NOWHY, F_BR },
	{ "fbeq.w", 0x1000, { 0xf281, 0x000c }, 4, NOWHY, F_BR },
	{ "fbogt.l", 0x1000, { 0xf2c2, 0x0000, 0x0100 }, 6, NOWHY, F_BR },
	{ "fdbne d1", 0x1000, { 0xf249, 0x000e, 0xfff0 }, 6, NOWHY, F_BR },
	{ "jsr (a0)", 0x1000, { 0x4e90 }, 2, NOWHY, F_PR },
	{ "jmp (a0)", 0x1000, { 0x4ed0 }, 2, NOWHY, 0 },
	{ "rts", 0x1000, { 0x4e75 }, 2, NOWHY, 0 },
	{ "rtd #8", 0x1000, { 0x4e74, 0x0008 }, 4, NOWHY, 0 },
	{ "rtr", 0x1000, { 0x4e77 }, 2, NOWHY, 0 },
	/* ordinary instructions and their lengths */
	{ "move.l #imm,(d16,a0)", 0x1000, { 0x217c, 1, 2, 3 }, 8, NOWHY, 0 },
	{ "move.l fp,-(sp)", 0x1000, { 0x2f0e }, 2, NOWHY, 0 },
	{ "movem.l d2-d3,-(sp)", 0x1000, { 0x48e7, 0x3000 }, 4, NOWHY, 0 },
	{ "link.l a6,#-8", 0x1000, { 0x480e, 0xffff, 0xfff8 }, 6, NOWHY, 0 },
	{ "move ccr,d0", 0x1000, { 0x42c0 }, 2, NOWHY, 0 },
	{ "move d0,ccr", 0x1000, { 0x44c0 }, 2, NOWHY, 0 },
	{ "andi #,ccr", 0x1000, { 0x023c, 0x00fe }, 4, NOWHY, 0 },
	{ "cas.l d0,d1,(a0)", 0x1000, { 0x0ed0, 0x0040 }, 4, NOWHY, 0 },
	{ "cas2.l", 0x1000, { 0x0efc, 0x8080, 0x90c1 }, 6, "68060", 0 },
	{ "bfextu (a0){0:8},d0", 0x1000, { 0xe9d0, 0x0008 }, 4, NOWHY, 0 },
	{ "mulu.l d1,d3", 0x1000, { 0x4c01, 0x3002 }, 4, NOWHY, 0 },
	{ "mulu.l d1,d2:d3", 0x1000, { 0x4c01, 0x3402 }, 4, "68060", 0 },
	{ "divs.l d1,d2:d3", 0x1000, { 0x4c41, 0x3c02 }, 4, "68060", 0 },
	{ "movep.l d0,(4,a0)", 0x1000, { 0x01c8, 0x0004 }, 4, "68060", 0 },
	{ "fmove.x #imm,fp0", 0x1000, { 0xf23c, 0x4800, 1, 2, 3, 4, 5, 6 }, 16, NOWHY, 0 },
	{ "fmovem.x fp0-fp7,(d16,a0)", 0x1000, { 0xf228, 0xf0ff, 0x04bc }, 6, NOWHY, 0 },
	{ "fmove.l #imm,fpcr", 0x1000, { 0xf23c, 0x9000, 0, 0x20 }, 8, NOWHY, 0 },
	{ "move16 (a0)+,(a1)+", 0x1000, { 0xf620, 0x9000 }, 4, NOWHY, 0 },
	{ "full format, 22 bytes", 0x1000,
	  { 0x21b1, 0x0133, 1, 2, 3, 4, 0x0133, 5, 6, 7, 8 }, 22, NOWHY, 0 },
	/* PC-relative, rewritten */
	{ "lea (d16,pc),a0", 0x1000, { 0x41fa, 0x0010 }, 4, NOWHY, 0,
	  6, { 0x41f9, 0x0000, 0x1012 } },
	{ "lea (-2,pc),a0", 0x1000, { 0x41fa, 0xfffe }, 4, NOWHY, 0,
	  6, { 0x41f9, 0x0000, 0x1000 } },
	{ "jsr (d16,pc)", 0x2000, { 0x4eba, 0x0100 }, 4, NOWHY, F_PR,
	  6, { 0x4eb9, 0x0000, 0x2102 } },
	{ "jmp (d8,pc,d0.w*2)", 0x2000, { 0x4efb, 0x0204 }, 4, NOWHY, 0,
	  8, { 0x4efb, 0x03b0, 0x0000, 0x2006 } },
	{ "move.w (d8,pc,a1.l),(d16,a0)", 0x2000, { 0x317b, 0x98fe, 0x0010 }, 6,
	  NOWHY, 0, 10, { 0x317b, 0x99b0, 0x0000, 0x2000, 0x0010 } },
	{ "cmpi.l #,(d16,pc)", 0x3000, { 0x0cba, 1, 2, 0x0010 }, 8, NOWHY, 0,
	  10, { 0x0cb9, 1, 2, 0x0000, 0x3016 } },
	{ "cmp2.l (d16,pc),d0", 0x103ce, { 0x04fa, 0x0000, 0xf6a6 }, 6, "68060", 0 },
	{ "fsub.s (d16,pc),fp0", 0xae0e, { 0xf23a, 0x4428, 0xff1a }, 6, NOWHY, 0,
	  8, { 0xf239, 0x4428, 0x0000, 0xad2c } },
	{ "move.l ([bd.w,pc],od.w),d0", 0x4000, { 0x203b, 0x0122, 0x0010, 0x0004 },
	  8, NOWHY, 0, 10, { 0x203b, 0x01b2, 0x0000, 0x4012, 0x0004 } },
	{ "move.l (bd.l,pc,d0),d1", 0x4000, { 0x223b, 0x0930, 0xffff, 0xfff0 },
	  8, NOWHY, 0, 8, { 0x223b, 0x09b0, 0x0000, 0x3ff2 } },
	{ "move.l (zpc,d0),d1: not pc-relative", 0x4000, { 0x223b, 0x09b0, 0, 0x10 },
	  8, NOWHY, 0 },
	/* refused, each class */
	{ "move sr,d0", 0x1000, { 0x40c0 }, 2, "status register", 0 },
	{ "move d0,sr", 0x1000, { 0x46c0 }, 2, "status register", 0 },
	{ "ori #,sr", 0x1000, { 0x007c, 0x0700 }, 4, "status register", 0 },
	{ "andi #,sr", 0x1000, { 0x027c, 0xf8ff }, 4, "status register", 0 },
	{ "eori #,sr", 0x1000, { 0x0a7c, 0x0700 }, 4, "status register", 0 },
	{ "rte", 0x1000, { 0x4e73 }, 2, "rte", 0 },
	{ "stop", 0x1000, { 0x4e72, 0x2000 }, 4, "stop", 0 },
	{ "reset", 0x1000, { 0x4e70 }, 2, "reset", 0 },
	{ "movec", 0x1000, { 0x4e7a, 0x0000 }, 4, "movec", 0 },
	{ "moves.l", 0x1000, { 0x0e90, 0x1800 }, 4, "moves", 0 },
	{ "move usp", 0x1000, { 0x4e68 }, 2, "usp", 0 },
	{ "cinva", 0x1000, { 0xf4d8 }, 2, "cinv", 0 },
	{ "cpushp", 0x1000, { 0xf4f0 }, 2, "cpush", 0 },
	{ "pflusha", 0x1000, { 0xf518 }, 2, "pflush", 0 },
	{ "ptestr", 0x1000, { 0xf568 }, 2, "ptest", 0 },
	{ "plpar", 0x1000, { 0xf5c8 }, 2, "plpa", 0 },
	{ "pmove (a0),srp (68030)", 0x1000, { 0xf010, 0x4800 }, 4, "68030 mmu", 0 },
	{ "fsave", 0x1000, { 0xf328, 0x0528 }, 4, "fsave", 0 },
	{ "frestore", 0x1000, { 0xf369, 0x0528 }, 4, "frestore", 0 },
	{ "trap #7", 0x1000, { 0x4e47 }, 2, "trap", 0 },
	{ "trapv", 0x1000, { 0x4e76 }, 2, "trapv", 0 },
	{ "trapne.l", 0x1000, { 0x56fb, 0, 0 }, 6, "trapcc", 0 },
	{ "ftrapeq", 0x1000, { 0xf27c, 0x0001 }, 4, "ftrapcc", 0 },
	{ "chk.w", 0x1000, { 0x4181 }, 2, "chk", 0 },
	{ "chk.l", 0x1000, { 0x4101 }, 2, "chk", 0 },
	{ "chk2.l", 0x1000, { 0x04d0, 0x0800 }, 4, "chk2", 0 },
	{ "illegal", 0x1000, { 0x4afc }, 2, "illegal", 0 },
	{ "bkpt #0", 0x1000, { 0x4848 }, 2, "bkpt", 0 },
	{ "lpstop", 0x1000, { 0xf800, 0x01c0, 0x2000 }, 6, "lpstop", 0 },
	/* invalid encodings */
	{ "line A", 0x1000, { 0xa000 }, -EINVAL, "line A", 0 },
	{ "unknown line F", 0x1000, { 0xfe00 }, -EINVAL, "line F", 0 },
	{ "moveq with bit 8", 0x1000, { 0x7100 }, -EINVAL, "line 7", 0 },
	{ "move.b a0,d0", 0x1000, { 0x1008 }, -EINVAL, "addressing mode", 0 },
	{ "move to (d16,pc)", 0x1000, { 0x25c0 | 0x3a }, -EINVAL, "addressing mode", 0 },
	{ "lea d0", 0x1000, { 0x41c0 }, -EINVAL, "addressing mode", 0 },
	{ "reserved full extension", 0x1000, { 0x2030, 0x0100 }, -EINVAL, "full extension", 0 },
	{ "unknown fpu opmode", 0x1000, { 0xf200, 0x0007 }, -EINVAL, "opmode", 0 },
	{ "fbcc condition 0x20", 0x1000, { 0xf2a0, 0 }, -EINVAL, "condition", 0 },
	{ "callm", 0x1000, { 0x06d0, 0 }, -EINVAL, "callm", 0 },
	{ "truncated bsr.l", 0x1000, { 0x61ff, 0 }, -EINVAL, "truncated", 0 },
	{ "truncated stop", 0x1000, { 0x4e72 }, -EINVAL, "truncated", 0 },
	{ "truncated movec", 0x1000, { 0x4e7b }, -EINVAL, "truncated", 0 },
	{ "truncated lea (d16,pc)", 0x1000, { 0x41fa }, -EINVAL, "truncated", 0 },
};

/*
 * What a probe does and where the instruction goes: the action, the flags
 * below, and the target (checked when M68K_INSN_F_TARGET is expected).
 */
#define F_TG	M68K_INSN_F_TARGET
#define F_TB	M68K_INSN_F_TABLE
#define F_WT	M68K_INSN_F_WORD_TABLE
#define F_PC	M68K_INSN_F_PCREL
#define FLOW_FLAGS	(F_BR | F_PR | F_PC | F_TG | F_TB | F_WT)
#define STEP		M68K_INSN_STEP
#define REFUSE		M68K_INSN_REFUSE

struct flow_case {
	const char *name;
	unsigned int addr;
	u16 text[4];
	enum m68k_insn_action action;
	unsigned int flags;
	unsigned long target;
};

static const struct flow_case flows[] = {
	{ "nop", 0x1000, { 0x4e71 }, M68K_INSN_SIM_NOP, 0, 0 },
	{ "bra.s", 0x1000, { 0x6010 }, M68K_INSN_SIM_JUMP, F_BR | F_TG, 0x1012 },
	{ "bra.s back", 0x1000, { 0x60fc }, M68K_INSN_SIM_JUMP, F_BR | F_TG, 0x0ffe },
	{ "bra.w", 0x1000, { 0x6000, 0x0100 }, M68K_INSN_SIM_JUMP, F_BR | F_TG, 0x1102 },
	{ "bra.l", 0x1000, { 0x60ff, 0xffff, 0xf000 }, M68K_INSN_SIM_JUMP,
	  F_BR | F_TG, 0x0002 },
	{ "bsr.s", 0x1000, { 0x6110 }, M68K_INSN_SIM_CALL, F_BR | F_PR | F_TG, 0x1012 },
	{ "bsr.w", 0x1000, { 0x6100, 0xff00 }, M68K_INSN_SIM_CALL,
	  F_BR | F_PR | F_TG, 0x0f02 },
	{ "bsr.l", 0x1000, { 0x61ff, 0x0001, 0x0000 }, M68K_INSN_SIM_CALL,
	  F_BR | F_PR | F_TG, 0x11002 },
	{ "bne.w", 0x1000, { 0x6600, 0x0100 }, STEP, F_BR | F_TG, 0x1102 },
	{ "beq.s", 0x1000, { 0x67f0 }, STEP, F_BR | F_TG, 0x0ff2 },
	{ "dbra d0", 0x1000, { 0x51c8, 0xfffc }, STEP, F_BR | F_TG, 0x0ffe },
	{ "fbeq.w", 0x1000, { 0xf281, 0x000e }, STEP, F_BR | F_TG, 0x1010 },
	{ "fbogt.l", 0x1000, { 0xf2c2, 0x0000, 0x0100 }, STEP, F_BR | F_TG, 0x1102 },
	/* fdbcc counts from its displacement word, as binutils does */
	{ "fdbne d1", 0x1008, { 0xf249, 0x000e, 0x0004 }, STEP, F_BR | F_TG, 0x1010 },
	/* never taken: the displacement need not lead to an instruction */
	{ "fnop (fbf.w +0)", 0x1000, { 0xf280, 0x0000 }, STEP, F_BR, 0 },
	{ "fbsf.l", 0x1000, { 0xf2d0, 0x0000, 0x0010 }, STEP, F_BR, 0 },
	{ "dbt d0", 0x1000, { 0x50c8, 0x0010 }, STEP, F_BR, 0 },
	{ "fdbt d0", 0x1000, { 0xf248, 0x000f, 0x0010 }, STEP, F_BR, 0 },
	{ "dbf d0 (dbra)", 0x1000, { 0x51c8, 0x0010 }, STEP, F_BR | F_TG, 0x1012 },
	{ "jsr (d16,pc)", 0x2000, { 0x4eba, 0x0100 }, STEP, F_PR | F_PC | F_TG, 0x2102 },
	{ "jmp (d16,pc)", 0x2000, { 0x4efa, 0xfff0 }, STEP, F_PC | F_TG, 0x1ff2 },
	{ "jmp (2,pc,d0.w*2): gcc's table", 0x2000, { 0x4efb, 0x0202 }, STEP,
	  F_PC | F_TB | F_WT, 0 },
	{ "jmp (2,pc,d0.l): a table of other entries", 0x2000, { 0x4efb, 0x0a02 },
	  STEP, F_PC | F_TB, 0 },
	{ "jmp (4,pc,d0.w)", 0x2000, { 0x4efb, 0x0004 }, STEP, F_PC | F_TB, 0 },
	{ "jsr (2,pc,d0.w): not a table", 0x2000, { 0x4ebb, 0x0002 }, STEP,
	  F_PR | F_PC, 0 },
	{ "jsr (a0)", 0x1000, { 0x4e90 }, STEP, F_PR, 0 },
	{ "jmp (a0)", 0x1000, { 0x4ed0 }, STEP, 0, 0 },
	{ "lea (d16,pc),a0: data, no target", 0x1000, { 0x41fa, 0x0010 }, STEP, F_PC, 0 },
	{ "rts", 0x1000, { 0x4e75 }, STEP, 0, 0 },
	{ "trapf.l: the ftrace nop is stepped", 0x1000, { 0x51fb, 0, 0 }, STEP, 0, 0 },
	{ "trap #0", 0x1000, { 0x4e40 }, REFUSE, 0, 0 },
	{ "bra.s at an odd address", 0x1001, { 0x6010 }, REFUSE, F_BR | F_TG, 0x1013 },
};

#ifdef CONFIG_COLDFIRE
/*
 * The ColdFire kernel's decoder (decode-test-cf): where it answers the
 * cases above differently, by name (the text is the case's above): no
 * instruction longer than three words, no full extension word, no
 * absolute form for a PC-indexed operand nor for a (d16,PC) one that
 * would grow past three words, and line 7's mvs/mvz.
 */
struct cf_override {
	const char *name;
	int len;
	const char *why;
	unsigned int flags;
	int slot_len;
	u16 slot[4];
};

static const struct cf_override cf_overrides[] = {
	{ "move.l #imm,(d16,a0)", -EINVAL, "longer than a ColdFire" },
	{ "fmove.x #imm,fp0", -EINVAL, "longer than a ColdFire" },
	{ "fmove.l #imm,fpcr", -EINVAL, "longer than a ColdFire" },
	{ "full format, 22 bytes", -EINVAL, "full extension word" },
	{ "jmp (d8,pc,d0.w*2)", 4, "pc-indexed" },
	{ "move.w (d8,pc,a1.l),(d16,a0)", 6, "pc-indexed" },
	{ "cmpi.l #,(d16,pc)", -EINVAL, "longer than a ColdFire" },
	{ "fsub.s (d16,pc),fp0", 6, "copy too long" },
	{ "move.l ([bd.w,pc],od.w),d0", -EINVAL, "full extension word" },
	{ "move.l (bd.l,pc,d0),d1", -EINVAL, "full extension word" },
	{ "move.l (zpc,d0),d1: not pc-relative", -EINVAL, "full extension word" },
	{ "moveq with bit 8", 2, NOWHY, 0 },	/* mvs.b %d0,%d0 */
	{ "line A", -EINVAL, "MAC unit" },
};

/* ColdFire's own instructions, and how its breakpoint is refused */
static const struct unit_case cf_cases[] = {
	{ "illegal: the ColdFire breakpoint", 0x1000, { 0x4afc }, 2, "illegal", 0 },
	{ "mvs.w (d16,a0),d1", 0x1000, { 0x7368, 0x0010 }, 4, NOWHY, 0 },
	{ "mvz.b #imm,d0", 0x1000, { 0x71bc, 0x00ff }, 4, NOWHY, 0 },
	{ "mvz.w (d16,pc),d2: made absolute", 0x1000, { 0x75fa, 0x0010 }, 4, NOWHY, 0,
	  6, { 0x75f9, 0x0000, 0x1012 } },
	{ "mov3q #-1,(d16,a1)", 0x1000, { 0xa169, 0x0008 }, 4, NOWHY, 0 },
	{ "mov3q to (d16,pc)", 0x1000, { 0xa17a, 0x0008 }, -EINVAL, "addressing", 0 },
	{ "sats d3", 0x1000, { 0x4c83 }, 2, NOWHY, 0 },
	{ "bitrev d0", 0x1000, { 0x00c0 }, 2, NOWHY, 0 },
	{ "byterev d1", 0x1000, { 0x02c1 }, 2, NOWHY, 0 },
	{ "ff1 d7", 0x1000, { 0x04c7 }, 2, NOWHY, 0 },
	{ "pulse", 0x1000, { 0x4acc }, 2, NOWHY, 0 },
	{ "halt", 0x1000, { 0x4ac8 }, 2, "privileged", 0 },
	{ "strldsr #0x2700", 0x1000, { 0x40e7, 0x46fc, 0x2700 }, 6, "status register", 0 },
	{ "move.w %sr,-(%sp) alone", 0x1000, { 0x40e7, 0x4e71 }, -EINVAL, "strldsr", 0 },
	{ "mac.w d0,d1 (line A)", 0x1000, { 0xa200, 0x0000 }, -EINVAL, "MAC unit", 0 },
	{ "move.l (d16,pc),d0: made absolute", 0x2000, { 0x203a, 0x0100 }, 4, NOWHY, 0,
	  6, { 0x2039, 0x0000, 0x2102 } },
	{ "move.l (d16,pc),(d16,a0): too long made absolute", 0x2000,
	  { 0x217a, 0x0100, 0x0004 }, 6, "copy too long", 0 },
	{ "jmp (2,pc,d0.l): gcc's ColdFire switch", 0x2000, { 0x4efb, 0x0802 }, 4,
	  "pc-indexed", 0 },
	{ "move.l (bd.w,a0,d0) full format", 0x1000, { 0x2030, 0x0920, 0x0010 },
	  -EINVAL, "full extension word", 0 },
	{ "tpf.l (the ftrace nop)", 0x1000, { 0x51fb, 0x1234, 0x5678 }, 6, NOWHY, 0 },
	{ "tpf", 0x1000, { 0x51fc }, 2, NOWHY, 0 },
	{ "jsr abs.l (the ftrace call)", 0x1000, { 0x4eb9, 0x0012, 0x3456 }, 6, NOWHY, F_PR },
};

/* ... and the flow cases it answers differently */
static const struct flow_case cf_flows[] = {
	{ "jmp (2,pc,d0.w*2): gcc's table", 0x2000, { 0x4efb, 0x0202 }, REFUSE,
	  F_TB | F_WT, 0 },
	/* gcc's on ColdFire: the word offset read, then ext.l */
	{ "jmp (2,pc,d0.l): a table of other entries", 0x2000, { 0x4efb, 0x0a02 },
	  REFUSE, F_TB | F_WT, 0 },
	{ "jmp (4,pc,d0.w)", 0x2000, { 0x4efb, 0x0004 }, REFUSE, F_TB, 0 },
	{ "jsr (2,pc,d0.w): not a table", 0x2000, { 0x4ebb, 0x0002 }, REFUSE,
	  F_PR, 0 },
};
#endif

/*
 * Where the probed code goes on after a step (m68k_insn_resume()): the
 * instruction at 0x1000 stepped from a slot at 0x8000.
 */
struct resume_case {
	const char *name;
	u16 text[4];
	unsigned long pc;	/* after the step */
	unsigned long want;
};

static const struct resume_case resumes[] = {
	{ "bra.s taken", { 0x6010 }, 0x8012, 0x1012 },
	{ "bne.w not taken", { 0x6600, 0x0100 }, 0x8004, 0x1004 },
	{ "bne.w taken", { 0x6600, 0x0100 }, 0x8102, 0x1102 },
	{ "jmp (a0): absolute", { 0x4ed0 }, 0x5000, 0x5000 },
	{ "jmp (d16,pc): made absolute", { 0x4efa, 0x0100 }, 0x1102, 0x1102 },
	{ "lea (d16,pc),a0: copy 2 bytes longer", { 0x41fa, 0x0010 }, 0x8006, 0x1004 },
	{ "rts: absolute", { 0x4e75 }, 0x1234, 0x1234 },
};

/* the return address pushed by the step of jsr: rebased only at the slot's end */
static const struct resume_case returns[] = {
	{ "jsr (a0) pushed", { 0x4e90 }, 0x8002, 0x1002 },
	{ "jsr (d16,pc) pushed", { 0x4eba, 0x0100 }, 0x8006, 0x1004 },
	{ "bsr.s pushed", { 0x6110 }, 0x8002, 0x1002 },
	{ "bsr.s: not from the slot's end", { 0x6110 }, 0x8012, 0x8012 },
};

static unsigned int run_resume(const struct resume_case *cases, unsigned int n,
			       bool ret)
{
	unsigned int i, fails = 0;

	for (i = 0; i < n; i++) {
		const struct resume_case *c = &cases[i];
		struct m68k_insn insn;
		unsigned long got;

		if (m68k_insn_decode(c->text, sizeof(c->text), 0x1000, &insn)) {
			printf("FAIL resume %s: invalid\n", c->name);
			fails++;
			continue;
		}
		got = m68k_insn_resume(ret ? 0 : insn.flags, insn.len, insn.slot_len,
				       0x8000, 0x1000, c->pc);
		if (got != c->want) {
			printf("FAIL resume %s: %#lx, want %#lx\n", c->name, got, c->want);
			fails++;
		}
	}
	return fails;
}

/* Bytes readable at the unit case's text: all of it but for the truncated. */
static unsigned int case_avail(const struct unit_case *c)
{
	if (!strcmp(c->name, "truncated bsr.l"))
		return 4;
	if (!strncmp(c->name, "truncated", 9))
		return 2;
	return sizeof(c->text);
}

/* The case to run as cases[i] (i < ARRAY_SIZE(cases)), or cf_cases[i - that]. */
static const struct unit_case *unit_case(unsigned int i)
{
#ifdef CONFIG_COLDFIRE
	static struct unit_case c;
	unsigned int j;

	if (i >= ARRAY_SIZE(cases))
		return &cf_cases[i - ARRAY_SIZE(cases)];
	c = cases[i];
	for (j = 0; j < ARRAY_SIZE(cf_overrides); j++) {
		const struct cf_override *o = &cf_overrides[j];

		if (strcmp(o->name, c.name))
			continue;
		c.len = o->len;
		c.why = o->why;
		c.flags = o->flags;
		c.slot_len = o->slot_len;
		memcpy(c.slot, o->slot, sizeof(o->slot));
	}
	return &c;
#else
	return &cases[i];
#endif
}

static const struct flow_case *flow_case(unsigned int i)
{
#ifdef CONFIG_COLDFIRE
	unsigned int j;

	for (j = 0; j < ARRAY_SIZE(cf_flows); j++)
		if (!strcmp(cf_flows[j].name, flows[i].name))
			return &cf_flows[j];
#endif
	return &flows[i];
}

static int run_unit(void)
{
	unsigned int i, fails = 0, n = ARRAY_SIZE(cases);

#ifdef CONFIG_COLDFIRE
	n += ARRAY_SIZE(cf_cases);
#endif
	for (i = 0; i < n; i++) {
		const struct unit_case *c = unit_case(i);
		unsigned int avail = case_avail(c);
		int slot_len = c->slot_len ? c->slot_len : c->len;
		struct m68k_insn insn;
		int len, ret;
		const char *bad = NULL;

		ret = m68k_insn_decode(c->text, avail, c->addr, &insn);
		len = ret ? ret : (int)insn.len;
		if (len != c->len)
			bad = "length";
		else if (c->why && (insn.action != M68K_INSN_REFUSE || !insn.why ||
				    !strstr(insn.why, c->why)))
			bad = "refusal";
		else if (!c->why && (ret || insn.why ||
				     insn.action == M68K_INSN_REFUSE))
			bad = "accepted";
		else if (!c->why && (insn.flags & F_FIXUP) != c->flags)
			bad = "flags";
		else if (!c->why && insn.slot_len != (unsigned int)slot_len)
			bad = "slot_len";
		else if (!c->why && memcmp(insn.slot, c->slot_len ? c->slot : c->text,
					   slot_len))
			bad = "slot";
		else if (!c->why && !(insn.flags & M68K_INSN_F_PCREL) != !c->slot_len)
			bad = "pcrel flag";
		if (bad) {
			fails++;
			printf("FAIL %s: %s (len %d ret %d why %s flags %#x slot_len %u)\n",
			       c->name, bad, len, ret, insn.why ? insn.why : "-",
			       insn.flags, insn.slot_len);
		}
	}

	for (i = 0; i < ARRAY_SIZE(flows); i++) {
		const struct flow_case *c = flow_case(i);
		struct m68k_insn insn;
		const char *bad = NULL;
		int ret;

		ret = m68k_insn_decode(c->text, sizeof(c->text), c->addr, &insn);
		if (ret)
			bad = "invalid";
		else if (insn.action != c->action)
			bad = "action";
		else if ((insn.flags & FLOW_FLAGS) != c->flags)
			bad = "flags";
		else if ((insn.flags & M68K_INSN_F_TARGET) && insn.target != c->target)
			bad = "target";
		if (bad) {
			fails++;
			printf("FAIL %s: %s (ret %d action %d flags %#x target %#lx)\n",
			       c->name, bad, ret, insn.action, insn.flags, insn.target);
		}
	}
	n += ARRAY_SIZE(flows);
	fails += run_resume(resumes, ARRAY_SIZE(resumes), false);
	fails += run_resume(returns, ARRAY_SIZE(returns), true);
	n += ARRAY_SIZE(resumes) + ARRAY_SIZE(returns);
	printf("decode-insn unit: %u cases, %u failed\n", n, fails);
	return fails ? 1 : 0;
}

/* ---- objdump mode ---- */

struct section {
	unsigned long start;
	size_t size;
	unsigned char *bytes;
};

static struct section secs[64];
static unsigned int nsecs;

static unsigned long be(const unsigned char *p, int n)
{
	unsigned long v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

/* The executable PROGBITS sections of an ELF32 big-endian file. */
static int read_elf(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *img;
	unsigned long shoff, i, shnum, shentsize;
	long size;

	if (!f || fseek(f, 0, SEEK_END)) {
		perror(path);
		return -1;
	}
	size = ftell(f);
	if (size < 52) {
		fprintf(stderr, "%s: too short\n", path);
		return -1;
	}
	img = malloc(size);
	rewind(f);
	if (!img || fread(img, 1, size, f) != (size_t)size) {
		perror(path);
		return -1;
	}
	fclose(f);
	if (memcmp(img, "\177ELF\1\2", 6) || be(img + 18, 2) != 4) {
		fprintf(stderr, "%s: not an ELF32 big-endian m68k file\n", path);
		return -1;
	}
	shoff = be(img + 32, 4);
	shentsize = be(img + 46, 2);
	shnum = be(img + 48, 2);
	for (i = 0; i < shnum; i++) {
		const unsigned char *sh = img + shoff + i * shentsize;
		struct section *s = &secs[nsecs];

		/* SHT_PROGBITS with SHF_EXECINSTR */
		if (be(sh + 4, 4) != 1 || !(be(sh + 8, 4) & 4) || nsecs == 64)
			continue;
		s->start = be(sh + 12, 4);
		s->size = be(sh + 20, 4);
		s->bytes = img + be(sh + 16, 4);
		nsecs++;
	}
	return 0;
}

static struct section *find_section(unsigned long addr)
{
	unsigned int i;

	for (i = 0; i < nsecs; i++)
		if (addr >= secs[i].start && addr - secs[i].start < secs[i].size)
			return &secs[i];
	return NULL;
}

/* A group of exactly four hex digits followed by a blank. */
static int hex4(const char *p)
{
	int i;

	for (i = 0; i < 4; i++)
		if (!isxdigit((unsigned char)p[i]))
			return 0;
	return p[4] == ' ' || p[4] == '\t';
}

/*
 * One instruction line: "  addr:\txxxx xxxx \ttext".  Returns the number of
 * bytes objdump shows and fills *addr, *text; -1 when the line is something
 * else.  Lines where objdump gave up ("Address 0x... is out of bounds.")
 * have no bytes: 0.
 */
static int parse_line(char *line, unsigned long *addr, char **text)
{
	char *p = line, *end;
	int n = 0;

	while (*p == ' ')
		p++;
	*addr = strtoul(p, &end, 16);
	if (end == p || *end != ':' || end[1] != '\t')
		return -1;
	p = end + 2;
	for (;;) {
		while (*p == ' ')
			p++;
		if (!hex4(p))
			break;
		n += 2;
		p += 4;
	}
	if (*p == '\t')
		p++;
	*text = p;
	return n;
}

/*
 * The target objdump prints for a branch (bcc, bsr, dbcc, fbcc, fdbcc:
 * "beqw 1e3dec <vfs_read+0x32e>", "fdbne %d1,10 <b>") or a jmp/jsr
 * (d16,%pc) ("jsr %pc@(1234 <f>)"): 1 with *target set, else 0.
 */
static int objdump_target(const char *text, unsigned long *target)
{
	static const char *const not_branches[] = {
		"bchg", "bclr", "bset", "btst", "bf", "bkpt",
	};
	/* branches never taken, which the decoder gives no target */
	static const char *const never[] = {
		"dbt", "fdbt", "fdbst", "fbf", "fbfw", "fbfl", "fbsf", "fbsfw", "fbsfl",
	};
	const char *op, *end;
	char *after;
	unsigned int i;

	*target = 0;
	if (!strncmp(text, "jsr %pc@(", 9) || !strncmp(text, "jmp %pc@(", 9)) {
		op = text + 9;
		*target = strtoul(op, &after, 16);
		/* no index, no memory indirection: just the displacement */
		return after != op && (*after == ')' || *after == ' ') &&
		       !strchr(after, ',') && !strstr(after, ")@(");
	}
	for (i = 0; i < ARRAY_SIZE(not_branches); i++)
		if (!strncmp(text, not_branches[i], strlen(not_branches[i])))
			return 0;
	for (i = 0; i < ARRAY_SIZE(never); i++)
		if (!strncmp(text, never[i], strlen(never[i])) &&
		    text[strlen(never[i])] == ' ')
			return 0;
	if (text[0] != 'b' && strncmp(text, "db", 2) && strncmp(text, "fb", 2) &&
	    strncmp(text, "fdb", 3))
		return 0;
	end = strstr(text, " <");
	if (!end)
		end = text + strlen(text);
	for (op = end; op > text && op[-1] != ' ' && op[-1] != ','; op--)
		;
	if (op == text || op == end)
		return 0;
	*target = strtoul(op, &after, 16);
	return after == end;
}

struct rec {
	unsigned long addr;
	int len;
	char *text;
};

/*
 * Where objdump shows no instruction: data words (".short"), and where it
 * stopped at a symbol inside an instruction (no text, or "Address ... is
 * out of bounds.").
 */
static int objdump_unknown(const struct rec *r)
{
	return !r->len || !r->text[0] || !strncmp(r->text, ".short", 6) ||
	       strstr(r->text, "out of bounds");
}

static int run_objdump(const char *elf, const char *dis, const char *slotbin, const char *slottxt)
{
	FILE *f = fopen(dis, "r"), *sb, *st;
	struct rec *recs = NULL;
	size_t nrec = 0, caprec = 0, i;
	char *line = NULL;
	size_t lcap = 0;
	unsigned long n_insn = 0, n_agree = 0, n_mismatch = 0, n_short = 0;
	unsigned long n_short_inval = 0, n_short_len = 0, n_inval = 0;
	unsigned long n_pcrel = 0, n_accept = 0, n_refused = 0;
	unsigned long n_pcrel_mismatch = 0, n_target = 0, n_target_mismatch = 0;
	struct { const char *why; unsigned long n; } whys[64];
	unsigned int nwhys = 0, k;

	if (!f) {
		perror(dis);
		return 2;
	}
	if (read_elf(elf))
		return 2;
	sb = fopen(slotbin, "w");
	st = fopen(slottxt, "w");
	if (!sb || !st) {
		perror("slot files");
		return 2;
	}
	while (getline(&line, &lcap, f) > 0) {
		unsigned long addr;
		char *text;
		int n;

		n = parse_line(line, &addr, &text);
		if (n < 0)
			continue;
		if (nrec == caprec) {
			caprec = caprec ? caprec * 2 : 65536;
			recs = realloc(recs, caprec * sizeof(*recs));
			if (!recs)
				return 2;
		}
		text[strcspn(text, "\n")] = 0;
		recs[nrec].addr = addr;
		recs[nrec].len = n;
		recs[nrec].text = strdup(text);
		nrec++;
	}
	fclose(f);

	for (i = 0; i < nrec; i++) {
		struct rec *r = &recs[i];
		struct section *s = find_section(r->addr);
		size_t off;
		u16 text[M68K_INSN_MAX_LEN / 2 + 2];
		unsigned int avail = 0, w;
		struct m68k_insn insn;
		int len, ret, pcrel_text, has_target;
		unsigned long target = 0;

		if (!s) {
			printf("NOSECTION %lx: %s\n", r->addr, r->text);
			return 2;
		}
		off = r->addr - s->start;
		for (w = 0; w < sizeof(text) / 2 && off + 2 * w + 1 < s->size; w++) {
			text[w] = s->bytes[off + 2 * w] << 8 | s->bytes[off + 2 * w + 1];
			avail += 2;
		}
		ret = m68k_insn_decode(text, avail, r->addr, &insn);
		len = ret ? ret : (int)insn.len;
		if (objdump_unknown(r)) {
			n_short++;
			if (len < 0) {
				n_short_inval++;
			} else {
				n_short_len++;
				printf("OBJDUMP-UNKNOWN %lx: decoder length %d: %04x: %s\n",
				       r->addr, len, text[0], r->text);
			}
			continue;
		}
		n_insn++;
		if (len < 0) {
			n_inval++;
			printf("INVALID %lx: %04x %04x: %s\t(decoder: %s)\n", r->addr,
			       text[0], text[1], r->text, insn.why);
			continue;
		}
		if (len != r->len) {
			n_mismatch++;
			printf("MISMATCH %lx: objdump %d decoder %d: %04x %04x %04x: %s\n",
			       r->addr, r->len, len, text[0], text[1], text[2], r->text);
			continue;
		}
		n_agree++;
		has_target = objdump_target(r->text, &target);
		if (has_target != !!(insn.flags & M68K_INSN_F_TARGET) ||
		    (has_target && target != (insn.target & 0xffffffff))) {
			n_target_mismatch++;
			printf("TARGET %lx: objdump %s %lx, decoder %s %lx: %s\n", r->addr,
			       has_target ? "goes to" : "shows no target", target,
			       insn.flags & M68K_INSN_F_TARGET ? "goes to" : "has no target",
			       insn.target, r->text);
			continue;
		}
		n_target += has_target;
		if (insn.action == M68K_INSN_REFUSE) {
			n_refused++;
			for (k = 0; k < nwhys; k++)
				if (!strcmp(whys[k].why, insn.why))
					break;
			if (k == nwhys && nwhys < 64) {
				whys[nwhys].why = insn.why;
				whys[nwhys++].n = 0;
			}
			if (k < 64)
				whys[k].n++;
			continue;
		}
		n_accept++;
		pcrel_text = !!strstr(r->text, "%pc@(");
		if (pcrel_text != !!(insn.flags & M68K_INSN_F_PCREL) ||
		    pcrel_text != (insn.slot_len != insn.len ||
				   memcmp(insn.slot, text, insn.len))) {
			n_pcrel_mismatch++;
			printf("PCREL %lx: objdump %s pc-relative, decoder %s: %s\n",
			       r->addr, pcrel_text ? "says" : "does not say",
			       pcrel_text ? "did not rewrite" : "rewrote", r->text);
			continue;
		}
		if (!pcrel_text)
			continue;
		n_pcrel++;
		for (w = 0; w < M68K_INSN_SLOT_LEN / 2; w++) {
			u16 v = w < insn.slot_len / 2 ? insn.slot[w] : 0x4e71;

			fputc(v >> 8, sb);
			fputc(v & 0xff, sb);
		}
		fprintf(st, "%lx\t%u\t%s\n", r->addr, insn.slot_len, r->text);
	}
	fclose(sb);
	fclose(st);
	printf("STATS instructions %lu\n", n_insn);
	printf("STATS agree %lu\n", n_agree);
	printf("STATS mismatch %lu\n", n_mismatch);
	printf("STATS invalid %lu\n", n_inval);
	printf("STATS accepted %lu\n", n_accept);
	printf("STATS pcrel %lu\n", n_pcrel);
	printf("STATS pcrel-mismatch %lu\n", n_pcrel_mismatch);
	printf("STATS refused %lu\n", n_refused);
	printf("STATS targets %lu\n", n_target);
	printf("STATS target-mismatch %lu\n", n_target_mismatch);
	printf("STATS objdump-unknown %lu\n", n_short);
	printf("STATS objdump-unknown-invalid %lu\n", n_short_inval);
	printf("STATS objdump-unknown-decoded %lu\n", n_short_len);
	for (k = 0; k < nwhys; k++)
		printf("STATS refused:%s %lu\n", whys[k].why, whys[k].n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "unit"))
		return run_unit();
	if (argc == 6 && !strcmp(argv[1], "objdump"))
		return run_objdump(argv[2], argv[3], argv[4], argv[5]);
	fprintf(stderr, "usage: %s unit | objdump VMLINUX DIS SLOTS.bin SLOTS.txt\n",
		argv[0]);
	return 2;
}
