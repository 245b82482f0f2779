// SPDX-License-Identifier: GPL-2.0
/*
 * perfcount: perf_event_open() on m68k, checked against known work.
 *
 * Counters (pid 0 = this task only), each read around the same work done
 * n and 2n times, so that the fixed cost of the enable/disable ioctls
 * cancels out:
 *   - raw_syscalls:sys_enter (a tracepoint event) counts exactly n more
 *     for n more getppid() calls;
 *   - page-faults counts exactly n more for n more freshly mapped pages
 *     touched once each;
 *   - context-switches counts at least n for n pipe round trips with a
 *     child;
 *   - task-clock grows with a busy loop: 4n loops take more than twice
 *     the time of n.
 * Sampling: raw_syscalls:sys_enter with a period of 1 and call chains,
 * read back from the ring buffer: every getppid() gives a sample whose
 * kernel chain passes through syscall_trace_enter() and whose user chain
 * (frame records: see the optimize attributes below) holds the return
 * address into the function that called the syscall's caller.
 * Prints one "CHECK PASS|FAIL name" line per check; exit status 1 when
 * any failed.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define FP __attribute__((noinline, optimize("no-omit-frame-pointer")))

static int failed;

static void check(const char *name, int ok, const char *fmt, long long a,
		  long long b)
{
	if (ok) {
		printf("CHECK PASS %s\n", name);
		return;
	}
	printf("CHECK FAIL %s: ", name);
	printf(fmt, a, b);
	printf("\n");
	failed++;
}

static int perf_open(uint32_t type, uint64_t config)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.disabled = 1;
	return syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
}

static long long count(int fd, void (*work)(long), long n)
{
	long long v = -1;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	work(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return -1;
	return v;
}

static void getppids(long n)
{
	while (n--)
		syscall(SYS_getppid);
}

static void touch_pages(long n)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, n * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long i;

	if (p == MAP_FAILED)
		return;
	for (i = 0; i < n; i++)
		p[i * pg] = 1;
	munmap(p, n * pg);
}

static void ping_pong(long n)
{
	int up[2], down[2];
	char c = 0;
	pid_t pid;
	long i;

	if (pipe(up) || pipe(down))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(down[1]);
		close(up[0]);
		while (read(down[0], &c, 1) == 1)
			if (write(up[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(down[0]);
	close(up[1]);
	for (i = 0; i < n; i++)
		if (write(down[1], &c, 1) != 1 || read(up[0], &c, 1) != 1)
			break;
	close(down[1]);
	close(up[0]);
	waitpid(pid, NULL, 0);
}

static volatile long sink;

static void busy(long n)
{
	while (n--)
		sink += n;
}

static long tracepoint_id(const char *event)
{
	char path[256];
	long id = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/id", event);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &id) != 1)
		id = -1;
	fclose(f);
	return id;
}

/* [start, end) of a kernel text symbol, from /proc/kallsyms */
static int ksym_range(const char *name, uint64_t *start, uint64_t *end)
{
	char line[256], sym[128], t;
	unsigned long addr;
	int found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %127s", &addr, &t, sym) != 3)
			continue;
		if (found) {
			if (addr > *start) {
				*end = addr;
				break;
			}
			continue;
		}
		if (!strcmp(sym, name)) {
			*start = addr;
			found = 1;
		}
	}
	fclose(f);
	return found && *end > *start ? 0 : -1;
}

static uintptr_t expected_ret;

/* the syscall's caller: its frame record holds the return into level2() */
static FP void do_calls(long n)
{
	expected_ret = (uintptr_t)__builtin_return_address(0);
	getppids(n);
}

static FP void level2(long n)
{
	do_calls(n);
	sink++;
}

static void sample_callchains(long tp)
{
	struct perf_event_attr a;
	struct perf_event_mmap_page *meta;
	long pg = sysconf(_SC_PAGESIZE), nsamples = 0, kok = 0, uok = 0;
	size_t len = 9 * pg;
	uint64_t ks = 0, ke = 0, head, pos;
	unsigned char *data;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = tp;
	a.disabled = 1;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	fd = syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
	check("perf-sample-open", fd >= 0, "perf_event_open: %lld%lld", fd, 0);
	if (fd < 0)
		return;
	meta = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check("perf-sample-mmap", meta != MAP_FAILED, "mmap of the ring: %lld%lld", 0, 0);
	if (meta == MAP_FAILED)
		return;
	if (ksym_range("syscall_trace_enter", &ks, &ke))
		ks = ke = 0;
	check("perf-kallsyms", ke > ks, "no syscall_trace_enter in kallsyms%lld%lld", 0, 0);

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	level2(5);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	head = meta->data_head;
	__sync_synchronize();
	data = (unsigned char *)meta + meta->data_offset;
	for (pos = meta->data_tail; pos < head; ) {
		struct perf_event_header *h = (void *)(data + pos % meta->data_size);
		uint64_t *w = (uint64_t *)(h + 1), nr, i;
		int ctx = 0, kin = 0, uin = 0;

		if (h->size == 0)
			break;
		if (h->type == PERF_RECORD_SAMPLE) {
			nsamples++;
			nr = w[1];
			for (i = 0; i < nr; i++) {
				uint64_t ip = w[2 + i];

				if (ip == PERF_CONTEXT_KERNEL)
					ctx = 1;
				else if (ip == PERF_CONTEXT_USER)
					ctx = 2;
				else if (ctx == 1 && ip >= ks && ip < ke)
					kin = 1;
				else if (ctx == 2 && ip == expected_ret)
					uin = 1;
			}
			kok += kin;
			uok += uin;
		}
		pos += h->size;
	}
	printf("samples %ld, kernel chains through syscall_trace_enter %ld, user chains through level2 %ld\n",
	       nsamples, kok, uok);
	/* 5 getppid() + the disable ioctl */
	check("perf-sample-count", nsamples >= 5, "%lld samples for 5 syscalls%lld", nsamples, 0);
	check("perf-callchain-kernel", kok >= 5,
	      "%lld of %lld samples pass through syscall_trace_enter", kok, nsamples);
	check("perf-callchain-user", uok >= 5,
	      "%lld of %lld samples hold the return address into level2()", uok, nsamples);
	munmap(meta, len);
	close(fd);
}

int main(void)
{
	long tp = tracepoint_id("raw_syscalls/sys_enter");
	long long c1, c2;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	check("perf-tracepoint-id", tp >= 0, "no raw_syscalls/sys_enter id in tracefs%lld%lld", 0, 0);

	fd = perf_open(PERF_TYPE_TRACEPOINT, tp);
	check("perf-open-tracepoint", fd >= 0, "perf_event_open: %lld%lld", fd, 0);
	if (fd >= 0) {
		count(fd, getppids, 10);
		c1 = count(fd, getppids, 1000);
		c2 = count(fd, getppids, 2000);
		printf("raw_syscalls:sys_enter: %lld for 1000 getppid(), %lld for 2000\n", c1, c2);
		check("perf-tracepoint-count", c1 >= 1000 && c2 - c1 == 1000,
		      "counts %lld and %lld, not 1000 apart", c1, c2);
		close(fd);
	}

	fd = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	check("perf-open-page-faults", fd >= 0, "perf_event_open: %lld%lld", fd, 0);
	if (fd >= 0) {
		count(fd, touch_pages, 8);
		c1 = count(fd, touch_pages, 64);
		c2 = count(fd, touch_pages, 128);
		printf("page-faults: %lld for 64 pages, %lld for 128\n", c1, c2);
		check("perf-page-faults", c1 >= 64 && c2 - c1 == 64,
		      "counts %lld and %lld, not 64 apart", c1, c2);
		close(fd);
	}

	fd = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES);
	check("perf-open-context-switches", fd >= 0, "perf_event_open: %lld%lld", fd, 0);
	if (fd >= 0) {
		c1 = count(fd, ping_pong, 100);
		printf("context-switches: %lld for 100 round trips\n", c1);
		check("perf-context-switches", c1 >= 100,
		      "%lld switches for %lld round trips", c1, 100);
		close(fd);
	}

	fd = perf_open(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	check("perf-open-task-clock", fd >= 0, "perf_event_open: %lld%lld", fd, 0);
	if (fd >= 0) {
		c1 = count(fd, busy, 100000);
		c2 = count(fd, busy, 400000);
		printf("task-clock: %lld ns for 100000 loops, %lld ns for 400000\n", c1, c2);
		check("perf-task-clock", c1 > 0 && c2 > 2 * c1,
		      "%lld ns and %lld ns", c1, c2);
		close(fd);
	}

	if (tp >= 0)
		sample_callchains(tp);
	return failed ? 1 : 0;
}
