// SPDX-License-Identifier: GPL-2.0
/*
 * ustack-target: user stacks for ftrace's userstacktrace option to record
 * (guest/tests/stack-profile.sh).  Every mode enters the kernel once with
 * getppid() through a trap #0 of its own, so the pc the kernel reports is
 * known, then prints on one line the user stack the kernel should have
 * recorded at that system call, innermost first, as NAME=0xADDRESS:
 *
 *   ustack-target chain   main() -> ustack_a() -> ustack_b() -> ustack_c(),
 *                         all with frame pointers; ustack_c() traps.  The
 *                         line is the pc after its trap and the return
 *                         addresses into ustack_b(), ustack_a() and main(),
 *                         as each function sees its own; more
 *                         frames (libc's, whose code has no frame records)
 *                         may follow in the recording.
 *   ustack-target bad     %a6 set to what must end a walk, one trap each:
 *                         an unmapped page (on the 680x0 also a kernel
 *                         address: user accesses go to the user space), an
 *                         odd address, TASK_SIZE, a record that points at
 *                         itself, and two records whose second points above
 *                         TASK_SIZE.  One line per trap, each the complete
 *                         stack: nothing after the last valid record.
 *
 * Built like every guest program (static, -O2, stripped): the frame
 * pointers come from the functions' attribute.
 */
#include <stdio.h>
#include <string.h>

#define FRAMED __attribute__((noinline, noipa, optimize("no-omit-frame-pointer")))

/*
 * getppid() at the trap in trap_getppid(); returns the pc after it (the
 * pc the kernel saved) through *pc.
 */
long trap_getppid(unsigned long *pc);
__asm__(
"	.text\n"
"	.globl	trap_getppid\n"
"	.type	trap_getppid, @function\n"
"trap_getppid:\n"
"	moveq	#64,%d0\n"		/* __NR_getppid */
"	trap	#0\n"
"1:	move.l	4(%sp),%a0\n"
"	lea	(1b,%pc),%a1\n"
"	move.l	%a1,(%a0)\n"
"	rts\n"
"	.size	trap_getppid, .-trap_getppid\n");

/*
 * The same trap with %a6 = @fp for the trap alone: the caller's frame
 * pointer is restored before anything reads it.
 */
long trap_getppid_fp(unsigned long *pc, unsigned long fp);
__asm__(
"	.text\n"
"	.globl	trap_getppid_fp\n"
"	.type	trap_getppid_fp, @function\n"
"trap_getppid_fp:\n"
"	move.l	%a6,-(%sp)\n"
"	move.l	12(%sp),%a6\n"
"	moveq	#64,%d0\n"
"	trap	#0\n"
"1:	move.l	(%sp)+,%a6\n"
"	move.l	4(%sp),%a0\n"
"	lea	(1b,%pc),%a1\n"
"	move.l	%a1,(%a0)\n"
"	rts\n"
"	.size	trap_getppid_fp, .-trap_getppid_fp\n");

volatile int sink;
/* each function's own return address: into ustack_b(), ustack_a(), main() */
static unsigned long ret_c, ret_b, ret_a;

FRAMED int ustack_c(void)
{
	unsigned long pc;
	long ppid;

	ret_c = (unsigned long)__builtin_return_address(0);
	ppid = trap_getppid(&pc);
	/*
	 * trap_getppid() has no frame record: at its trap %a6 is still ours,
	 * so the kernel sees this function's record first, whose return
	 * address is into ustack_b().
	 */
	printf("ustack_c=%#lx ustack_b=%#lx ustack_a=%#lx main=%#lx\n",
	       pc, ret_c, ret_b, ret_a);
	return ppid > 0 ? sink : 1;
}

FRAMED int ustack_b(void)
{
	ret_b = (unsigned long)__builtin_return_address(0);
	return ustack_c() + sink;
}

FRAMED int ustack_a(void)
{
	ret_a = (unsigned long)__builtin_return_address(0);
	return ustack_b() + sink;
}

static void bad(const char *what, unsigned long fp, const char *rest)
{
	unsigned long pc;

	trap_getppid_fp(&pc, fp);
	printf("%s: pc=%#lx%s\n", what, pc, rest);
}

static int bad_frames(void)
{
	/* records go up the stack: two, the second above the first */
	unsigned long rec[4] __attribute__((aligned(4)));
	char more[64];

	bad("unmapped", 0x1000, "");
	bad("odd", 0x1001, "");
	bad("task_size", 0xf0000000, "");

	rec[0] = (unsigned long)&rec[0];	/* points at itself */
	rec[1] = 0x1234568;
	bad("loop", (unsigned long)rec, " ret=0x1234568");

	rec[0] = (unsigned long)&rec[2];
	rec[1] = 0x2345678;
	rec[2] = 0xfffffff0;			/* above TASK_SIZE */
	rec[3] = 0x3456788;
	snprintf(more, sizeof(more), " ret=%#lx ret=%#lx", rec[1], rec[3]);
	bad("beyond", (unsigned long)rec, more);
	return 0;
}

FRAMED int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "chain"))
		return ustack_a() + sink;
	if (argc == 2 && !strcmp(argv[1], "bad"))
		return bad_frames();
	fprintf(stderr, "usage: ustack-target chain|bad\n");
	return 2;
}
