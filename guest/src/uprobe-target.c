// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe-target: functions for guest/tests/uprobes.sh to probe.
 *
 *   uprobe-target offsets     print NAME=0xOFFSET for every probe point,
 *                             the offset in this file (uprobe_events wants
 *                             file offsets; the guest has no objdump and
 *                             the program is stripped)
 *   uprobe-target run N       N rounds of calls, each checked
 *   uprobe-target spin SECS   rounds every 10 ms for SECS seconds
 *
 * A round calls add3(i, 10 * i, 100 * i), greet("uprobe-target"),
 * fact(6) (recursive: 6 entries, 6 returns) and pcrel_fn(), whose
 * instructions are the out-of-line cases of the m68k uprobes: PC-relative
 * operands, a PC-relative jsr, bsr, a taken dbf and bne, and
 * trap_getpid(), whose trap #0 cannot be probed.  A wrong result (a step
 * gone wrong) exits with status 1.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PROBED __attribute__((noinline, noipa))

volatile int sink;

PROBED int add3(int a, int b, int c)
{
	return a + b + c;
}

PROBED int greet(const char *name)
{
	int n = 0;

	while (name[n])
		n++;
	return n + sink;
}

PROBED int fact(int n)
{
	int r;

	if (n <= 1)
		return 1;
	r = fact(n - 1);
	/* keep the recursion: no accumulator loop */
	__asm__ __volatile__("" : "+d" (r));
	return n * r;
}

/*
 * Returns 0x125.  Each labelled instruction is a probe point (branches
 * aim at local labels: gas makes a branch to a global symbol long):
 * pc_lea, pc_add  PC-relative operands (made absolute in the copy)
 * pc_jsr          jsr (d16,%pc): relocated, its return address fixed
 * pc_bsr          bsr.w (simulated)
 * pc_loop         addq, three times
 * pc_dbf          dbf, taken twice then not
 * pc_bne          bne.s, taken
 */
int pcrel_fn(void);
__asm__(
"	.text\n"
"	.globl	pcrel_fn\n"
"	.type	pcrel_fn, @function\n"
"pcrel_fn:\n"
"	.globl	pc_lea\n"
"pc_lea:	lea	(pc_data,%pc),%a0\n"
"	move.l	(%a0),%d0\n"
"	.globl	pc_add\n"
"pc_add:	add.l	(pc_data+4,%pc),%d0\n"
"	.globl	pc_jsr\n"
"pc_jsr:	jsr	(pc_sub,%pc)\n"
"	.globl	pc_bsr\n"
"pc_bsr:	bsr.w	pc_sub\n"
"	moveq	#2,%d1\n"
"	.globl	pc_loop\n"
"pc_loop:\n"
".Lloop:	addq.l	#1,%d0\n"
"	.globl	pc_dbf\n"
"pc_dbf:	dbf	%d1,.Lloop\n"
"	.globl	pc_bne\n"
"pc_bne:	bne.s	1f\n"
"	moveq	#0,%d0\n"
"1:	rts\n"
"pc_sub:	addq.l	#1,%d0\n"
"	rts\n"
"	.p2align 2\n"
"pc_data:	.long	0x100, 0x20\n"
"	.size	pcrel_fn, .-pcrel_fn\n");

extern const char pc_lea[], pc_add[], pc_jsr[], pc_bsr[], pc_loop[],
	pc_dbf[], pc_bne[];

/*
 * getpid() through its own trap #0 at pc_trap: an instruction the m68k
 * uprobes refuse to step out of line, so a probe there cannot be enabled.
 */
int trap_getpid(void);
__asm__(
"	.text\n"
"	.globl	trap_getpid\n"
"	.type	trap_getpid, @function\n"
"trap_getpid:\n"
"	moveq	#20,%d0\n"		/* __NR_getpid */
"	.globl	pc_trap\n"
"pc_trap:	trap	#0\n"
"	rts\n"
"	.size	trap_getpid, .-trap_getpid\n");

extern const char pc_trap[];

static const struct {
	const char *name;
	const void *addr;
} points[] = {
	{ "add3", add3 },
	{ "greet", greet },
	{ "fact", fact },
	{ "pcrel_fn", pcrel_fn },
	{ "pc_lea", pc_lea },
	{ "pc_add", pc_add },
	{ "pc_jsr", pc_jsr },
	{ "pc_bsr", pc_bsr },
	{ "pc_loop", pc_loop },
	{ "pc_dbf", pc_dbf },
	{ "pc_bne", pc_bne },
	{ "pc_trap", pc_trap },
};

/* The executable is the first object: file offset of each point. */
static int print_offsets(struct dl_phdr_info *info, size_t size, void *data)
{
	unsigned int i, j;
	int *missing = data;

	(void)size;
	for (i = 0; i < sizeof(points) / sizeof(points[0]); i++) {
		unsigned long a = (unsigned long)points[i].addr - info->dlpi_addr;

		for (j = 0; j < info->dlpi_phnum; j++) {
			const Elf32_Phdr *ph = &info->dlpi_phdr[j];

			if (ph->p_type != PT_LOAD || a < ph->p_vaddr ||
			    a >= ph->p_vaddr + ph->p_filesz)
				continue;
			printf("%s=0x%lx\n", points[i].name,
			       a - ph->p_vaddr + ph->p_offset);
			break;
		}
		if (j == info->dlpi_phnum) {
			fprintf(stderr, "no segment holds %s\n", points[i].name);
			(*missing)++;
		}
	}
	return 1;
}

static int round_ok(int i)
{
	int r;

	r = add3(i, 10 * i, 100 * i);
	if (r != 111 * i) {
		fprintf(stderr, "add3(%d): %d\n", i, r);
		return 0;
	}
	r = greet("uprobe-target");
	if (r != 13) {
		fprintf(stderr, "greet: %d\n", r);
		return 0;
	}
	r = fact(6);
	if (r != 720) {
		fprintf(stderr, "fact(6): %d\n", r);
		return 0;
	}
	r = pcrel_fn();
	if (r != 0x125) {
		fprintf(stderr, "pcrel_fn: %#x\n", r);
		return 0;
	}
	r = trap_getpid();
	if (r != getpid()) {
		fprintf(stderr, "trap_getpid: %d\n", r);
		return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	int missing = 0;
	long n, i;

	if (argc == 2 && !strcmp(argv[1], "offsets")) {
		dl_iterate_phdr(print_offsets, &missing);
		return missing ? 1 : 0;
	}
	if (argc == 3 && !strcmp(argv[1], "run")) {
		n = strtol(argv[2], NULL, 0);
		for (i = 1; i <= n; i++)
			if (!round_ok(i))
				return 1;
		printf("uprobe-target: %ld rounds ok\n", n);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "spin")) {
		time_t end = time(NULL) + strtol(argv[2], NULL, 0);

		for (i = 1; time(NULL) < end; i++) {
			if (!round_ok(i))
				return 1;
			usleep(10000);
		}
		printf("uprobe-target: %ld rounds ok\n", i - 1);
		return 0;
	}
	fprintf(stderr, "usage: %s offsets | run N | spin SECONDS\n", argv[0]);
	return 2;
}
