// SPDX-License-Identifier: GPL-2.0
/*
 * Host driver of the m68k kprobes instruction decoder
 * (arch/m68k/kernel/probes/decode-insn.c, compiled unchanged).
 *
 *   decode-test unit
 *	the table of hand-picked encodings below
 *   decode-test objdump VMLINUX DIS SLOTS.bin SLOTS.txt
 *	DIS is `objdump -d -z --insn-width=22` of VMLINUX: decode the
 *	section contents (read from the ELF file) at every instruction
 *	boundary objdump reports, compare lengths with objdump's,
 *	write each rewritten PC-relative copy to SLOTS.bin (32 bytes apiece,
 *	padded with nop) with one line per copy in SLOTS.txt
 *	("ADDR<TAB>SLOT_LEN<TAB>OBJDUMP TEXT") for check.py to disassemble.
 *	Prints mismatches and a "STATS key value" line per counter.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode-insn.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define F_BR	M68K_INSN_F_BRANCH
#define F_PR	M68K_INSN_F_PUSHRET

struct unit_case {
	const char *name;
	unsigned int addr;
	u16 text[12];
	int len;		/* m68k_insn_len(): bytes or -EINVAL */
	const char *why;	/* NULL: accepted; else a substring of why */
	unsigned int flags;
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

/* Bytes readable at the unit case's text: all of it but for the truncated. */
static unsigned int case_avail(const struct unit_case *c)
{
	if (!strcmp(c->name, "truncated bsr.l"))
		return 4;
	if (!strncmp(c->name, "truncated", 9))
		return 2;
	return sizeof(c->text);
}

static int run_unit(void)
{
	unsigned int i, fails = 0, n = ARRAY_SIZE(cases);

	for (i = 0; i < n; i++) {
		const struct unit_case *c = &cases[i];
		unsigned int avail = case_avail(c);
		int slot_len = c->slot_len ? c->slot_len : c->len;
		struct m68k_insn insn;
		int len, ret;
		const char *bad = NULL;

		len = m68k_insn_len(c->text, avail);
		ret = m68k_insn_prepare(c->text, avail, c->addr, &insn);
		if (len != c->len)
			bad = "length";
		else if (c->why && (ret != -EINVAL || !insn.why ||
				    !strstr(insn.why, c->why)))
			bad = "refusal";
		else if (!c->why && (ret || insn.why))
			bad = "accepted";
		else if (len > 0 && insn.len != (unsigned int)len)
			bad = "insn.len";
		else if (!c->why && insn.flags != c->flags)
			bad = "flags";
		else if (!c->why && insn.slot_len != (unsigned int)slot_len)
			bad = "slot_len";
		else if (!c->why && memcmp(insn.slot, c->slot_len ? c->slot : c->text,
					   slot_len))
			bad = "slot";
		if (bad) {
			fails++;
			printf("FAIL %s: %s (len %d ret %d why %s flags %#x slot_len %u)\n",
			       c->name, bad, len, ret, insn.why ? insn.why : "-",
			       insn.flags, insn.slot_len);
		}
	}
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
	unsigned long n_pcrel_mismatch = 0;
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
		int len, ret, pcrel_text;

		if (!s) {
			printf("NOSECTION %lx: %s\n", r->addr, r->text);
			return 2;
		}
		off = r->addr - s->start;
		for (w = 0; w < sizeof(text) / 2 && off + 2 * w + 1 < s->size; w++) {
			text[w] = s->bytes[off + 2 * w] << 8 | s->bytes[off + 2 * w + 1];
			avail += 2;
		}
		len = m68k_insn_len(text, avail);
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
		ret = m68k_insn_prepare(text, avail, r->addr, &insn);
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
		if (ret) {
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
		if (pcrel_text != (insn.slot_len != insn.len ||
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
