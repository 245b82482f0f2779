// SPDX-License-Identifier: GPL-2.0
/*
 * ptrace-check: strace semantics on m68k, checked.
 *
 * A child stops itself, then makes a known sequence of system calls;
 * the parent follows it with PTRACE_SYSCALL and reads the registers at
 * every stop with PTRACE_PEEKUSER, as strace does without
 * PTRACE_GET_SYSCALL_INFO: the number in orig_d0 and the arguments in
 * d1..d5 at entry, the result in d0 at exit.  Stops alternate entry,
 * exit.  It prints strace-like lines and checks that:
 *   - getppid() is seen on entry and exit and returns the tracer's pid;
 *   - write(fd, buf, 123) to /dev/null is seen with fd, buf and count as
 *     the child passed them, and returns 123;
 *   - every exit stop reports the syscall number of its entry;
 *   - at every stop, PTRACE_GET_SYSCALL_INFO and PTRACE_GETREGSET
 *     (HAVE_ARCH_TRACEHOOK) agree with PTRACE_PEEKUSER;
 *   - /proc/PID/syscall of the child stopped at write()'s entry shows
 *     write's number and arguments.
 * Exit status 0 when all hold, 1 otherwise (the reason on stderr).
 * Run it with and without syscall tracepoints enabled: both must pass.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include <sys/ptrace.h>
#include <sys/reg.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define COUNT 123

static char buf[COUNT];
static int failed;

static void bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "ptrace-check: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	failed = 1;
}

static int child(int fd)
{
	if (ptrace(PTRACE_TRACEME, 0, 0, 0))
		return 10;
	raise(SIGSTOP);
	syscall(SYS_getppid);
	if (syscall(SYS_write, fd, buf, COUNT) != COUNT)
		return 11;
	_exit(0);
}

static unsigned long peek(pid_t pid, int reg)
{
	long v;

	errno = 0;
	v = ptrace(PTRACE_PEEKUSER, pid, (void *)(reg * sizeof(long)), 0);
	if (v == -1 && errno) {
		perror("ptrace-check: PTRACE_PEEKUSER");
		exit(1);
	}
	return v;
}

/* PTRACE_GET_SYSCALL_INFO and PTRACE_GETREGSET against PTRACE_PEEKUSER */
static void cross_check(pid_t pid, int entry)
{
	struct __ptrace_syscall_info si;
	unsigned int regs[20];
	struct iovec iov = { regs, sizeof(regs) };
	int i;

	memset(&si, 0, sizeof(si));
	if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(si), &si) <= 0) {
		bad("PTRACE_GET_SYSCALL_INFO: %s", strerror(errno));
		return;
	}
	if (si.op != (entry ? PTRACE_SYSCALL_INFO_ENTRY : PTRACE_SYSCALL_INFO_EXIT))
		bad("syscall info op %u at an %s stop", si.op,
		    entry ? "entry" : "exit");
	else if (entry && (si.entry.nr != peek(pid, PT_ORIG_D0) ||
			   si.entry.args[0] != peek(pid, PT_D1) ||
			   si.entry.args[1] != peek(pid, PT_D2) ||
			   si.entry.args[5] != peek(pid, PT_A0)))
		bad("syscall info entry nr %llu args %#llx %#llx ... %#llx",
		    (unsigned long long)si.entry.nr,
		    (unsigned long long)si.entry.args[0],
		    (unsigned long long)si.entry.args[1],
		    (unsigned long long)si.entry.args[5]);
	else if (!entry && (unsigned long)si.exit.rval != peek(pid, PT_D0))
		bad("syscall info rval %lld, d0 %#lx", (long long)si.exit.rval,
		    peek(pid, PT_D0));
	if (si.stack_pointer != peek(pid, PT_USP) ||
	    si.instruction_pointer != peek(pid, PT_PC))
		bad("syscall info sp %#llx pc %#llx, usp %#lx pc %#lx",
		    (unsigned long long)si.stack_pointer,
		    (unsigned long long)si.instruction_pointer,
		    peek(pid, PT_USP), peek(pid, PT_PC));

	if (ptrace(PTRACE_GETREGSET, pid, NT_PRSTATUS, &iov) ||
	    iov.iov_len != sizeof(regs)) {
		bad("PTRACE_GETREGSET: %s (%zu bytes)", strerror(errno),
		    iov.iov_len);
		return;
	}
	for (i = 0; i <= PT_PC; i++)
		if (regs[i] != peek(pid, i))
			bad("GETREGSET register %d: %#x, PEEKUSER %#lx", i,
			    regs[i], peek(pid, i));
}

/* /proc/PID/syscall of a child stopped at the entry of write(fd, buf, n) */
static void proc_syscall(pid_t pid, int fd)
{
	unsigned long nr, a0, a1, a2;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	f = fopen(path, "r");
	if (!f) {
		bad("%s: %s", path, strerror(errno));
		return;
	}
	if (fscanf(f, "%lu %lx %lx %lx", &nr, &a0, &a1, &a2) != 4)
		bad("%s: not \"nr args...\"", path);
	else if (nr != SYS_write || a0 != (unsigned long)fd ||
		 a1 != (unsigned long)buf || a2 != COUNT)
		bad("%s: %lu %#lx %#lx %#lx", path, nr, a0, a1, a2);
	fclose(f);
}

int main(void)
{
	unsigned long nr = 0, args[3] = { 0 };
	int seen_getppid = 0, seen_write = 0, in_syscall = 0, status, fd;
	long ret;
	pid_t pid;

	fd = open("/dev/null", O_WRONLY);
	if (fd < 0) {
		perror("ptrace-check: /dev/null");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("ptrace-check: fork");
		return 1;
	}
	if (pid == 0)
		return child(fd);

	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
		fprintf(stderr, "ptrace-check: child did not stop\n");
		return 1;
	}
	if (ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD |
		   PTRACE_O_EXITKILL)) {
		perror("ptrace-check: PTRACE_SETOPTIONS");
		return 1;
	}
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, 0, 0)) {
			perror("ptrace-check: PTRACE_SYSCALL");
			return 1;
		}
		if (waitpid(pid, &status, 0) != pid) {
			perror("ptrace-check: waitpid");
			return 1;
		}
		if (WIFEXITED(status))
			break;
		if (!WIFSTOPPED(status) || WSTOPSIG(status) != (SIGTRAP | 0x80))
			continue;
		in_syscall = !in_syscall;
		cross_check(pid, in_syscall);
		if (in_syscall) {
			nr = peek(pid, PT_ORIG_D0);
			args[0] = peek(pid, PT_D1);
			args[1] = peek(pid, PT_D2);
			args[2] = peek(pid, PT_D3);
			if (nr == SYS_write && args[0] == (unsigned long)fd)
				proc_syscall(pid, fd);
			continue;
		}
		if (peek(pid, PT_ORIG_D0) != nr)
			bad("exit stop of syscall %lu, entry was %lu",
			    peek(pid, PT_ORIG_D0), nr);
		ret = peek(pid, PT_D0);
		printf("[%d] syscall %lu(%#lx, %#lx, %#lx) = %ld\n", pid, nr,
		       args[0], args[1], args[2], ret);
		if (nr == SYS_getppid) {
			seen_getppid = 1;
			if (ret != getpid())
				bad("getppid() returned %ld, tracer is %d",
				    ret, getpid());
		} else if (nr == SYS_write && args[0] == (unsigned long)fd) {
			seen_write = 1;
			if (args[1] != (unsigned long)buf || args[2] != COUNT)
				bad("write args buf %#lx count %lu",
				    args[1], args[2]);
			if (ret != COUNT)
				bad("write returned %ld, want %d", ret, COUNT);
		}
	}
	if (WEXITSTATUS(status))
		bad("child exited %d", WEXITSTATUS(status));
	if (!seen_getppid || !seen_write)
		bad("syscalls not seen: getppid %d, write %d",
		    seen_getppid, seen_write);
	printf("ptrace-check: %s\n", failed ? "FAIL" : "ok");
	return failed;
}
