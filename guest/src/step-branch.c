// SPDX-License-Identifier: GPL-2.0
/*
 * step-branch: single-step a branch whose target is not mapped.
 *
 * The trace exception of a single step comes when the instruction
 * completes, with the PC at the next instruction: for a branch, at its
 * target, even if fetching the target would fault.  The 68030 marks a
 * faulted prefetch and takes the fault only when the instruction is to
 * run; the 68040 and 68060 fetch it after the trace.  kprobes relies on
 * it (a probed branch is stepped out of line, and its target, computed
 * from the slot, may lie on any page), and so does a debugger.
 *
 * A child stops itself; the parent points its PC at branches written at
 * the start of a page whose lower neighbour is unmapped, and for each:
 *   - PTRACE_SINGLESTEP must stop with SIGTRAP and the PC at the target;
 *   - for an unmapped target, PTRACE_CONT must then stop with SIGSEGV at
 *     the target (si_addr), the fault that was left for the next
 *     instruction.
 * Cases: a backward bra.s into the unmapped page, jmp (a0) there, and a
 * bra.s to a mapped target (the control).
 *
 * Then stores that fault: a single-stepped move.l whose write goes to a
 * page never touched must stop with SIGTRAP at the next instruction,
 * once the fault was handled and the write rerun (the bus error's RTE
 * completes the instruction, then the trace is taken), with the value in
 * memory.  Cases: a long write into an untouched page, and one that
 * straddles two untouched pages (the 68030's second write cycle faults
 * after the first faulted and completed: its RTE ends the instruction on
 * the last write).
 * Exit status 0 when all hold, 1 otherwise (the reason on stderr).
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/reg.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <asm/cachectl.h>

static int failed;

static void bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "step-branch: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	failed = 1;
}

static void die(const char *what)
{
	fprintf(stderr, "step-branch: %s: %s\n", what, strerror(errno));
	exit(1);
}

static unsigned long peek(pid_t pid, int reg)
{
	long v;

	errno = 0;
	v = ptrace(PTRACE_PEEKUSER, pid, (void *)(reg * sizeof(long)), 0);
	if (v == -1 && errno)
		die("PTRACE_PEEKUSER");
	return v;
}

static void poke(pid_t pid, int reg, unsigned long v)
{
	if (ptrace(PTRACE_POKEUSER, pid, (void *)(reg * sizeof(long)),
		   (void *)v))
		die("PTRACE_POKEUSER");
}

/* resume the child with REQ, return the signal of its next stop */
static int resume(pid_t pid, int req)
{
	int st;

	if (ptrace(req, pid, 0, 0))
		die("ptrace resume");
	if (waitpid(pid, &st, 0) != pid)
		die("waitpid");
	if (!WIFSTOPPED(st)) {
		fprintf(stderr, "step-branch: the child ended (status %#x)\n",
			st);
		exit(1);
	}
	return WSTOPSIG(st);
}

static void step(pid_t pid, const char *name, unsigned long pc,
		 unsigned long a0, unsigned long target, int mapped)
{
	unsigned long now;
	siginfo_t si;
	int sig;

	/* not in a system call: no restart at the new PC */
	poke(pid, PT_ORIG_D0, -1);
	poke(pid, PT_A0, a0);
	poke(pid, PT_PC, pc);
	sig = resume(pid, PTRACE_SINGLESTEP);
	now = peek(pid, PT_PC);
	if (sig != SIGTRAP || now != target) {
		bad("%s at %#lx: single step stopped with signal %d at %#lx, expected SIGTRAP at %#lx",
		    name, pc, sig, now, target);
		return;
	}
	printf("step-branch: %s at %#lx: SIGTRAP at %#lx\n", name, pc, now);
	if (mapped)
		return;
	sig = resume(pid, PTRACE_CONT);
	if (ptrace(PTRACE_GETSIGINFO, pid, 0, &si))
		die("PTRACE_GETSIGINFO");
	if (sig != SIGSEGV || (unsigned long)si.si_addr != target)
		bad("%s: continued, stopped with signal %d at address %p, expected SIGSEGV at %#lx",
		    name, sig, si.si_addr, target);
	else
		printf("step-branch: %s: then SIGSEGV at %p\n", name,
		       si.si_addr);
}

/* PTRACE_SINGLESTEP move.l %d0,(%a0) at PC, writing V to ADDR */
static void step_store(pid_t pid, const char *name, unsigned long pc,
		       unsigned long addr, unsigned long v)
{
	unsigned long now, got = 0;
	int sig, i;

	poke(pid, PT_ORIG_D0, -1);
	poke(pid, PT_D0, v);
	poke(pid, PT_A0, addr);
	poke(pid, PT_PC, pc);
	sig = resume(pid, PTRACE_SINGLESTEP);
	now = peek(pid, PT_PC);
	/* byte by byte: ADDR may straddle two pages */
	for (i = 0; i < 4; i++) {
		long w;

		errno = 0;
		w = ptrace(PTRACE_PEEKDATA, pid, (void *)((addr + i) & ~3UL), 0);
		if (w == -1 && errno)
			die("PTRACE_PEEKDATA");
		got = got << 8 | ((unsigned long)w >> (8 * (3 - ((addr + i) & 3))) & 0xff);
	}
	if (sig != SIGTRAP || now != pc + 2 || got != v) {
		bad("%s at %#lx: single step stopped with signal %d at %#lx, memory %#lx; expected SIGTRAP at %#lx, memory %#lx",
		    name, pc, sig, now, got, pc + 2, v);
		return;
	}
	printf("step-branch: %s at %#lx: SIGTRAP at %#lx, memory %#lx\n",
	       name, pc, now, got);
}

int main(void)
{
	long ps = sysconf(_SC_PAGESIZE);
	unsigned short *p;
	unsigned long base;
	char *m, *d;
	pid_t pid;
	int st;

	m = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		die("mmap");
	if (munmap(m, ps))
		die("munmap");
	p = (unsigned short *)(m + ps);
	base = (unsigned long)p;
	p[0] = 0x60b4;	/* bra.s .-74: into the page below */
	p[1] = 0x4ed0;	/* jmp (%a0) */
	p[2] = 0x6002;	/* bra.s .+4: the next nop but one */
	p[3] = 0x4e71;	/* nop */
	p[4] = 0x4e71;	/* nop */
	p[5] = 0x2080;	/* move.l %d0,(%a0) */
	p[6] = 0x4e71;	/* nop */
	if (syscall(SYS_cacheflush, base, FLUSH_SCOPE_PAGE, FLUSH_CACHE_BOTH,
		    ps))
		die("cacheflush");

	/* three pages nobody touches before the child writes them */
	d = mmap(NULL, 3 * ps, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (d == MAP_FAILED)
		die("mmap");

	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0))
			_exit(10);
		raise(SIGSTOP);
		_exit(11);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st) ||
	    WSTOPSIG(st) != SIGSTOP) {
		fprintf(stderr, "step-branch: the child did not stop\n");
		return 1;
	}

	step(pid, "bra.s to an unmapped page", base, 0, base + 2 - 76, 0);
	step(pid, "jmp (a0) to an unmapped page", base + 2,
	     (unsigned long)m + 0x100, (unsigned long)m + 0x100, 0);
	step(pid, "bra.s to a mapped page", base + 4, 0, base + 8, 1);
	step_store(pid, "move.l into an untouched page", base + 10,
		   (unsigned long)d + 0x10, 0x12345678);
	step_store(pid, "move.l across two untouched pages", base + 10,
		   (unsigned long)d + 2 * ps - 2, 0x9abcdef0);

	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return failed;
}
