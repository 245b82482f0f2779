// SPDX-License-Identifier: GPL-2.0
/*
 * bench: the two guest workloads of `make bench`.
 *
 *   bench syscall N   N getppid() system calls in a tight loop
 *   bench spawn N     N rounds of fork + exec of this program + a pipe
 *                     round trip with the child
 *   bench ucall N     N calls of probe_point(), a user function that does
 *                     nothing: the target of the uprobe benchmarks
 *   bench ucall-offset
 *                     print probe_point()'s offset in this file (where a
 *                     uprobe event on /usr/bin/bench:OFFSET hits it)
 *   bench profile N   N getppid() calls tagged for `make profile`: the
 *                     first argument register holds PROFILE_TAG, which
 *                     getppid() ignores and harness/profile.py's
 *                     breakpoint looks for
 *
 * Prints one line "BENCH <workload> <ns per iteration>" from
 * CLOCK_MONOTONIC.  Under QEMU's -icount (sleep=off) guest time counts
 * guest instructions, so the figure repeats from run to run.
 * Built statically for m68k by harness/build-guest-bin.sh (/usr/bin/bench),
 * and for x86_64, the anchor of make bench.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "bench: %s: %s\n", what, strerror(errno));
	exit(2);
}

static long long now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		die("clock_gettime");
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void run_syscall(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);	/* not cached by any libc */
}

/* Not inlined, cloned or analysed away: each call really enters it. */
__attribute__((noipa)) long probe_point(long x)
{
	return x + 1;
}

static void run_ucall(long n)
{
	long i, x = 0;

	for (i = 0; i < n; i++)
		x = probe_point(x);
	if (x != n)
		exit(3);
}

/* The executable is the first object: probe_point()'s file offset. */
static int print_probe_offset(struct dl_phdr_info *info, size_t size,
			      void *data)
{
	unsigned long a = (unsigned long)probe_point - info->dlpi_addr;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && a >= ph->p_vaddr &&
		    a < ph->p_vaddr + ph->p_filesz) {
			printf("0x%lx\n", a - ph->p_vaddr + ph->p_offset);
			*(int *)data = 1;
			break;
		}
	}
	return 1;
}

/* "PROF": getppid() has no arguments; its %d1 slot in pt_regs tags the call. */
#define PROFILE_TAG 0x50524f46L

static void run_profile(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid, PROFILE_TAG);
}

/* The child's side of a spawn round: echo one byte back on fd 1. */
static int child(void)
{
	char c;

	if (read(0, &c, 1) != 1)
		return 3;
	if (write(1, &c, 1) != 1)
		return 4;
	return 0;
}

static void run_spawn(long n, const char *self)
{
	long i;

	for (i = 0; i < n; i++) {
		int to[2], from[2], status;
		char c = 'x';
		pid_t pid;

		if (pipe(to) || pipe(from))
			die("pipe");
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			dup2(to[0], 0);
			dup2(from[1], 1);
			close(to[0]);
			close(to[1]);
			close(from[0]);
			close(from[1]);
			execl(self, self, "child", (char *)NULL);
			_exit(127);
		}
		close(to[0]);
		close(from[1]);
		if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
			die("pipe round trip");
		close(to[1]);
		close(from[0]);
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "bench: child failed (status %#x)\n",
				status);
			exit(2);
		}
	}
}

int main(int argc, char **argv)
{
	long long t0, t1;
	char *end;
	long n;

	if (argc == 2 && !strcmp(argv[1], "child"))
		return child();
	if (argc == 2 && !strcmp(argv[1], "ucall-offset")) {
		int found = 0;

		dl_iterate_phdr(print_probe_offset, &found);
		if (!found)
			fprintf(stderr, "bench: no segment holds probe_point()\n");
		return !found;
	}
	if (argc != 3)
		goto usage;
	n = strtol(argv[2], &end, 10);
	if (*end || n <= 0)
		goto usage;

	t0 = now_ns();
	if (!strcmp(argv[1], "syscall"))
		run_syscall(n);
	else if (!strcmp(argv[1], "profile"))
		run_profile(n);
	else if (!strcmp(argv[1], "spawn"))
		run_spawn(n, "/proc/self/exe");
	else if (!strcmp(argv[1], "ucall"))
		run_ucall(n);
	else
		goto usage;
	t1 = now_ns();
	printf("BENCH %s %.1f\n", argv[1], (double)(t1 - t0) / n);
	return 0;
usage:
	fprintf(stderr, "usage: bench syscall|spawn|profile|ucall N | ucall-offset\n");
	return 2;
}
