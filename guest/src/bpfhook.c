// SPDX-License-Identifier: GPL-2.0
/*
 * bpfhook HOOK: one BPF program on one of the kernel's hooks, loaded
 * through the bpf() system call, then a workload that passes the hook a
 * known number of times; prints what the program counted and what the
 * workload did, for guest/tests/bpf.sh to compare.
 *
 *   kprobe, kretprobe      getppid()'s system call function (perf's kprobe PMU)
 *   kprobe_multi, kretprobe_multi
 *                          the same through fprobe (BPF_TRACE_KPROBE_MULTI link)
 *   tracepoint             syscalls:sys_enter_getppid (a perf tracepoint event)
 *   raw_tracepoint         sys_enter, counting getppid()'s number only
 *   perf_event             page faults of this process, one sample each
 *   uprobe, uretprobe      probe_point() in this program (perf's uprobe PMU)
 *
 * The program counts the hits of this process only (the thread group id
 * is an immediate of its first compare) in an array map, and keeps the
 * last value it read: the return register of a return probe, the system
 * call number of a tracepoint.  Its instructions are written out here,
 * so that it needs neither a compiler for BPF nor libbpf.
 *
 * Output: "hook HOOK hits H calls N value V expect E" (E: what V must be,
 * or "-"), then for the perf event "events P" (the faults it counted),
 * for a kprobe_multi link "func F" (the function its fdinfo names);
 * exit status 0 when the program was loaded and attached, 1 (with the
 * verifier's log) when not, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CALLS		1000
#define FAULT_PAGES	64

#ifdef __mc68000__
#define GETPPID_FN	"sys_getppid"
#define RET_OFF		32	/* struct pt_regs: d0 */
#define RET_SIZE	BPF_W
#elif defined(__x86_64__)
#define GETPPID_FN	"__x64_sys_getppid"
#define RET_OFF		80	/* struct pt_regs: ax */
#define RET_SIZE	BPF_DW
#else
#error "bpfhook: no pt_regs layout for this architecture"
#endif

enum kind { KPROBE, TRACEPOINT, RAW_TP, PERF_EVENT, UPROBE, KPROBE_MULTI };

struct hook {
	const char *name;
	enum kind kind;
	int ret;		/* a return probe */
};

static const struct hook hooks[] = {
	{ "kprobe", KPROBE, 0 },
	{ "kretprobe", KPROBE, 1 },
	{ "kprobe_multi", KPROBE_MULTI, 0 },
	{ "kretprobe_multi", KPROBE_MULTI, 1 },
	{ "tracepoint", TRACEPOINT, 0 },
	{ "raw_tracepoint", RAW_TP, 0 },
	{ "perf_event", PERF_EVENT, 0 },
	{ "uprobe", UPROBE, 0 },
	{ "uretprobe", UPROBE, 1 },
};

/* the map's one value */
struct counts {
	uint64_t hits;
	uint64_t value;
};

static struct bpf_insn prog[64];
static int n_insn;
static int to_out[8], n_out;

static void emit(uint8_t code, int dst, int src, int16_t off, int32_t imm)
{
	struct bpf_insn *i = &prog[n_insn++];

	i->code = code;
	i->dst_reg = dst;
	i->src_reg = src;
	i->off = off;
	i->imm = imm;
}

/* a conditional jump to the program's end, fixed up by finish() */
static void jump_out(uint8_t op, int dst, int32_t imm)
{
	to_out[n_out++] = n_insn;
	emit(BPF_JMP | op | BPF_K, dst, 0, 0, imm);
}

/*
 * r6 = ctx; if the current thread group is not TGID, out; r7 = the value
 * (LOAD_VALUE) and, for a system call number, out unless it is getppid's;
 * then map[0].hits += 1 (atomically), map[0].value = r7; out: return 0
 */
static void build(const struct hook *h, int map_fd, pid_t tgid)
{
	emit(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_1, 0, 0);
	emit(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_pid_tgid);
	emit(BPF_ALU64 | BPF_RSH | BPF_K, BPF_REG_0, 0, 0, 32);
	jump_out(BPF_JNE, BPF_REG_0, tgid);
	emit(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_7, 0, 0, 0);
	switch (h->kind) {
	case KPROBE:
	case KPROBE_MULTI:
	case UPROBE:
		if (h->ret)
			emit(BPF_LDX | BPF_MEM | RET_SIZE, BPF_REG_7, BPF_REG_6, RET_OFF, 0);
		break;
	case TRACEPOINT:
		/* after struct trace_entry (8 bytes): int __syscall_nr */
		emit(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_7, BPF_REG_6, 8, 0);
		jump_out(BPF_JNE, BPF_REG_7, SYS_getppid);
		break;
	case RAW_TP:
		/* sys_enter(regs, id): args[1] */
		emit(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_7, BPF_REG_6, 8, 0);
		jump_out(BPF_JNE, BPF_REG_7, SYS_getppid);
		break;
	case PERF_EVENT:
		break;
	}
	/* the key, 0, at fp - 4 */
	emit(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0);
	emit(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0);
	emit(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4);
	/* r1 = the map (a 64-bit immediate of two instructions) */
	emit(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map_fd);
	emit(0, 0, 0, 0, 0);
	emit(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	jump_out(BPF_JEQ, BPF_REG_0, 0);
	emit(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1);
	emit(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0, BPF_REG_1,
	     offsetof(struct counts, hits), BPF_ADD);
	emit(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_0, BPF_REG_7,
	     offsetof(struct counts, value), 0);
	for (int i = 0; i < n_out; i++)
		prog[to_out[i]].off = n_insn - to_out[i] - 1;
	emit(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	emit(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	return syscall(SYS_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static void die(const char *what)
{
	fprintf(stderr, "bpfhook: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* the number that FORMAT (one %ld) reads from a sysfs or tracefs file */
static long read_number(const char *path, const char *format)
{
	FILE *f = fopen(path, "r");
	long v;

	if (!f)
		die(path);
	if (fscanf(f, format, &v) != 1) {
		fprintf(stderr, "bpfhook: no number (%s) in %s\n", format, path);
		exit(1);
	}
	fclose(f);
	return v;
}

/* the config bit of a PMU's "retprobe" format ("config:N") */
static int retprobe_bit(const char *pmu)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/format/retprobe", pmu);
	return read_number(path, "config:%ld");
}

__attribute__((noipa)) long probe_point(long x)
{
	return x * 3 + 1;
}

/* probe_point()'s offset in this executable, the first object */
static int find_offset(struct dl_phdr_info *info, size_t size, void *data)
{
	unsigned long a = (unsigned long)probe_point - info->dlpi_addr;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && a >= ph->p_vaddr && a < ph->p_vaddr + ph->p_memsz) {
			*(unsigned long *)data = a - ph->p_vaddr + ph->p_offset;
			return 1;
		}
	}
	return 1;
}

/* attach program PROG through a perf event of ATTR; -> the event */
static int attach_perf(struct perf_event_attr *attr, pid_t pid, int cpu, int prog_fd)
{
	int fd = perf_open(attr, pid, cpu);

	if (fd < 0)
		die("perf_event_open");
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) < 0)
		die("PERF_EVENT_IOC_SET_BPF");
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		die("PERF_EVENT_IOC_ENABLE");
	return fd;
}

static int attach(const struct hook *h, int prog_fd, long *expect)
{
	struct perf_event_attr attr;
	union bpf_attr a;
	static const char *syms[] = { GETPPID_FN };
	static char exe[256];
	unsigned long off = 0;
	ssize_t n;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.sample_period = 1;
	switch (h->kind) {
	case KPROBE:
		attr.type = read_number("/sys/bus/event_source/devices/kprobe/type", "%ld");
		attr.config1 = (uintptr_t)GETPPID_FN;
		if (h->ret) {
			attr.config |= 1ULL << retprobe_bit("kprobe");
			*expect = getppid();
		}
		return attach_perf(&attr, -1, 0, prog_fd);
	case UPROBE:
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n < 0)
			die("/proc/self/exe");
		exe[n] = 0;
		dl_iterate_phdr(find_offset, &off);
		if (!off) {
			fprintf(stderr, "bpfhook: no segment holds probe_point()\n");
			exit(1);
		}
		attr.type = read_number("/sys/bus/event_source/devices/uprobe/type", "%ld");
		attr.config1 = (uintptr_t)exe;
		attr.config2 = off;
		if (h->ret) {
			attr.config |= 1ULL << retprobe_bit("uprobe");
			*expect = probe_point(CALLS - 1);
		}
		return attach_perf(&attr, getpid(), -1, prog_fd);
	case TRACEPOINT:
		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = read_number("/sys/kernel/tracing/events/syscalls/sys_enter_getppid/id", "%ld");
		*expect = SYS_getppid;
		return attach_perf(&attr, -1, 0, prog_fd);
	case PERF_EVENT:
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_PAGE_FAULTS;
		return attach_perf(&attr, 0, -1, prog_fd);
	case RAW_TP:
		memset(&a, 0, sizeof(a));
		a.raw_tracepoint.name = (uintptr_t)"sys_enter";
		a.raw_tracepoint.prog_fd = prog_fd;
		if (sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &a) < 0)
			die("BPF_RAW_TRACEPOINT_OPEN sys_enter");
		*expect = SYS_getppid;
		return -1;
	case KPROBE_MULTI:
		memset(&a, 0, sizeof(a));
		a.link_create.prog_fd = prog_fd;
		a.link_create.attach_type = BPF_TRACE_KPROBE_MULTI;
		a.link_create.kprobe_multi.flags = h->ret ? BPF_F_KPROBE_MULTI_RETURN : 0;
		a.link_create.kprobe_multi.cnt = 1;
		a.link_create.kprobe_multi.syms = (uintptr_t)syms;
		/* before the link, whose program would count this call */
		if (h->ret)
			*expect = getppid();
		fd = sys_bpf(BPF_LINK_CREATE, &a);
		if (fd < 0)
			die("BPF_LINK_CREATE kprobe_multi " GETPPID_FN);
		return fd;
	}
	return -1;
}

/* the function a kprobe_multi link's fdinfo names first ("0\t sym+0x0/0x..") */
static void print_link_func(int link_fd)
{
	char path[64], line[256], func[128] = "-";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", link_fd);
	f = fopen(path, "r");
	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*u %127s", func) == 1 && strchr(func, '+'))
			break;
	fclose(f);
	if (strchr(func, '+'))
		*strchr(func, '+') = 0;
	printf(" func %s", func);
}

static int load(const struct hook *h, int map_fd)
{
	static const uint32_t types[] = {
		[KPROBE] = BPF_PROG_TYPE_KPROBE,
		[KPROBE_MULTI] = BPF_PROG_TYPE_KPROBE,
		[UPROBE] = BPF_PROG_TYPE_KPROBE,
		[TRACEPOINT] = BPF_PROG_TYPE_TRACEPOINT,
		[RAW_TP] = BPF_PROG_TYPE_RAW_TRACEPOINT,
		[PERF_EVENT] = BPF_PROG_TYPE_PERF_EVENT,
	};
	static char log[65536];
	union bpf_attr a;
	int fd;

	build(h, map_fd, getpid());
	memset(&a, 0, sizeof(a));
	a.prog_type = types[h->kind];
	if (h->kind == KPROBE_MULTI)
		a.expected_attach_type = BPF_TRACE_KPROBE_MULTI;
	a.insns = (uintptr_t)prog;
	a.insn_cnt = n_insn;
	a.license = (uintptr_t)"GPL";
	a.log_buf = (uintptr_t)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	fd = sys_bpf(BPF_PROG_LOAD, &a);
	if (fd < 0) {
		fprintf(stderr, "bpfhook: BPF_PROG_LOAD (%s): %s\n%s", h->name,
			strerror(errno), log);
		exit(1);
	}
	return fd;
}

/* the workload; -> the times it passes the hook */
static long workload(const struct hook *h)
{
	volatile long x = 0;
	char *p;

	switch (h->kind) {
	case UPROBE:
		for (long i = 0; i < CALLS; i++)
			x = probe_point(i);
		return CALLS;
	case PERF_EVENT:
		p = mmap(NULL, FAULT_PAGES * 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			die("mmap");
		for (int i = 0; i < FAULT_PAGES; i++)
			p[i * 4096] = 1;
		munmap(p, FAULT_PAGES * 4096);
		return FAULT_PAGES;
	default:
		for (long i = 0; i < CALLS; i++)
			x += syscall(SYS_getppid);
		return CALLS;
	}
}

int main(int argc, char **argv)
{
	const struct hook *h = NULL;
	struct counts c;
	union bpf_attr a;
	uint32_t key = 0;
	long calls, expect = -1;
	uint64_t events = 0;
	int map_fd, prog_fd, ev;

	for (size_t i = 0; argc == 2 && i < sizeof(hooks) / sizeof(hooks[0]); i++)
		if (!strcmp(argv[1], hooks[i].name))
			h = &hooks[i];
	if (!h) {
		fprintf(stderr, "usage: bpfhook HOOK, HOOK one of:");
		for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++)
			fprintf(stderr, " %s", hooks[i].name);
		fprintf(stderr, "\n");
		return 2;
	}
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = sizeof(key);
	a.value_size = sizeof(c);
	a.max_entries = 1;
	map_fd = sys_bpf(BPF_MAP_CREATE, &a);
	if (map_fd < 0)
		die("BPF_MAP_CREATE");
	prog_fd = load(h, map_fd);
	ev = attach(h, prog_fd, &expect);
	calls = workload(h);
	/* the page faults the perf event counted: one sample each */
	if (h->kind == PERF_EVENT) {
		if (ioctl(ev, PERF_EVENT_IOC_DISABLE, 0) < 0 ||
		    read(ev, &events, sizeof(events)) != sizeof(events))
			die("reading the page-fault event");
	}
	memset(&a, 0, sizeof(a));
	a.map_fd = map_fd;
	a.key = (uintptr_t)&key;
	a.value = (uintptr_t)&c;
	if (sys_bpf(BPF_MAP_LOOKUP_ELEM, &a) < 0)
		die("BPF_MAP_LOOKUP_ELEM");
	printf("hook %s hits %llu calls %ld value %lld expect ", h->name,
	       (unsigned long long)c.hits, calls, (long long)c.value);
	if (expect >= 0)
		printf("%ld", expect);
	else
		printf("-");
	if (h->kind == PERF_EVENT)
		printf(" events %llu", (unsigned long long)events);
	if (h->kind == KPROBE_MULTI)
		print_link_func(ev);
	printf("\n");
	return 0;
}
