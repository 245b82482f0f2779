// SPDX-License-Identifier: GPL-2.0
/*
 * init for the ColdFire guest (MACHINE=mcf5208 VARIANT=flat): a program
 * with no libc (the MCF5208 has no MMU and Debian ships no libc for
 * ColdFire) that drives tracefs the way the MMU guests' shell scripts
 * do, and checks what it reads back.  Raw system calls, no data or bss
 * (everything writable lives on the stack), code and constants reached
 * PC-relative (-mpcrel): the image needs no relocation, and
 * harness/elf2flt.py turns it into the FLAT binary the nommu kernel runs.
 *
 * It prints the harness's check lines on the console, "CHECK PASS name"
 * or "CHECK FAIL name: why" (guest/lib.sh's format, counted by
 * harness/results.py), then "HARNESS-EXIT: N" (N failed checks) and
 * exits: the kernel's "Attempted to kill init" panic ends the boot and
 * harness/qemu-run.sh stops QEMU there.
 *
 * Without an MMU the init can also read kernel text through a plain
 * pointer: it looks at the call sites the tracers rewrite (addresses
 * from /proc/kallsyms) to see each switch land and each restore leave
 * the original bytes.
 *
 * With "flat.bench" on the kernel command line (VARIANT=bench, make bench
 * MACHINE=mcf5208) it then times getppid() loops in the states of
 * guest/bench/bench.sh's bench.only=calls and prints its "BENCH state
 * syscall ns" and "FIGURE" lines for harness/bench.py.
 */
#include <asm/unistd.h>
#include <linux/perf_event.h>

#define O_RDONLY	0
#define O_WRONLY	1
#define O_TRUNC		01000
#define O_APPEND	02000

#define ENOENT		2

#define INSN_ILLEGAL	0x4afc	/* the kprobe breakpoint on ColdFire */
#define INSN_JSR_ABS	0x4eb9	/* jsr abs.l: an enabled mcount site */
#define INSN_TPF_L	0x51fb	/* tpf.l #imm32: a disabled one */

#define T		"/tracing/"
#define BUF_SIZE	16384

typedef unsigned short u16;
typedef unsigned int u32;

/* the entry: the stack holds argc, argv and envp, which init ignores */
__asm__(".text\n"
	".globl _start\n"
	"_start:\n"
	"	jsr	main(%pc)\n"
	"	move.l	%d0,%d1\n"
	"	moveq	#1,%d0\n"		/* __NR_exit */
	"	trap	#0\n");

/* a system call: number in %d0, arguments in %d1-%d5, result in %d0 */
static long sys5(long nr, long a, long b, long c, long d, long e)
{
	register long d0 __asm__("d0") = nr;
	register long d1 __asm__("d1") = a;
	register long d2 __asm__("d2") = b;
	register long d3 __asm__("d3") = c;
	register long d4 __asm__("d4") = d;
	register long d5 __asm__("d5") = e;

	__asm__ volatile("trap #0"
			 : "+d" (d0)
			 : "d" (d1), "d" (d2), "d" (d3), "d" (d4), "d" (d5)
			 : "memory", "cc");
	return d0;
}

#define sys3(nr, a, b, c)	sys5(nr, (long)(a), (long)(b), (long)(c), 0, 0)

/* gcc calls memset() to zero a structure, even freestanding */
void *memset(void *s, int c, unsigned long n);
void *memset(void *s, int c, unsigned long n)
{
	char *p = s;

	while (n--)
		*p++ = c;
	return s;
}

static unsigned long slen(const char *s)
{
	unsigned long n = 0;

	while (s[n])
		n++;
	return n;
}

static int starts(const char *s, const char *prefix)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return 0;
	return 1;
}

/* the first occurrence of @needle in @s, or 0 */
static const char *find(const char *s, const char *needle)
{
	for (; *s; s++)
		if (starts(s, needle))
			return s;
	return 0;
}

/* how many lines of @text contain both @a and @b (@b may be 0) */
static int count_lines(const char *text, const char *a, const char *b)
{
	char line[512];
	int n = 0;

	while (*text) {
		unsigned long i = 0;

		while (*text && *text != '\n') {
			if (i < sizeof(line) - 1)
				line[i++] = *text;
			text++;
		}
		if (*text)
			text++;
		line[i] = 0;
		if (find(line, a) && (!b || find(line, b)))
			n++;
	}
	return n;
}

/* --- output: one console line at a time ------------------------------ */

struct out {
	char buf[400];
	unsigned long n;
};

static void out_str(struct out *o, const char *s)
{
	while (*s && o->n < sizeof(o->buf) - 2)
		o->buf[o->n++] = *s++;
}

static void out_num(struct out *o, long v)
{
	char d[12];
	int i = 0;
	unsigned long u = v < 0 ? -(unsigned long)v : (unsigned long)v;

	if (v < 0)
		out_str(o, "-");
	do {
		d[i++] = '0' + u % 10;
		u /= 10;
	} while (u);
	while (i && o->n < sizeof(o->buf) - 2)
		o->buf[o->n++] = d[--i];
}

static void out_hex(struct out *o, unsigned long v, int digits)
{
	static const char x[] = "0123456789abcdef";

	while (digits-- && o->n < sizeof(o->buf) - 2)
		o->buf[o->n++] = x[(v >> (4 * digits)) & 15];
}

static void out_line(struct out *o)
{
	o->buf[o->n++] = '\n';
	sys3(__NR_write, 1, o->buf, o->n);
	o->n = 0;
}

static void say(const char *s)
{
	struct out o = { .n = 0 };

	out_str(&o, s);
	out_line(&o);
}

/* CHECK PASS name, or CHECK FAIL name: why (@why built by the caller) */
static void check_(int *failed, const char *name, int ok, struct out *why)
{
	struct out o = { .n = 0 };

	out_str(&o, ok ? "CHECK PASS " : "CHECK FAIL ");
	out_str(&o, name);
	if (!ok) {
		why->buf[why->n] = 0;
		out_str(&o, ": ");
		out_str(&o, why->buf);
		(*failed)++;
	}
	out_line(&o);
	why->n = 0;
}

/* --- files ------------------------------------------------------------ */

/* write @s to @path opened with @flags: 0 or -errno */
static long put(const char *path, const char *s, int flags)
{
	long fd = sys3(__NR_open, path, O_WRONLY | flags, 0);
	long r;

	if (fd < 0)
		return fd;
	r = sys3(__NR_write, fd, s, slen(s));
	sys3(__NR_close, fd, 0, 0);
	return r < 0 ? r : 0;
}

/* "/tracing/FILE", built in @p */
static const char *tpath(struct out *p, const char *file)
{
	p->n = 0;
	out_str(p, T);
	out_str(p, file);
	p->buf[p->n] = 0;
	return p->buf;
}

static long set(const char *file, const char *s)
{
	struct out p;

	return put(tpath(&p, file), s, O_TRUNC);
}

/*
 * Read @path into @buf (NUL-terminated): its length or -errno.  A file
 * longer than @buf is cut at @buf's end, or with @tail its end is kept:
 * as much of it as half of @buf holds, at least.
 */
static long read_file(const char *path, char *buf, unsigned long size, int tail)
{
	long fd = sys3(__NR_open, path, O_RDONLY, 0);
	unsigned long n = 0, h = (size - 1) / 2, i;

	if (fd < 0)
		return fd;
	for (;;) {
		long r;

		if (n == size - 1) {
			if (!tail)
				break;
			for (i = 0; i < n - h; i++)
				buf[i] = buf[h + i];
			n -= h;
		}
		r = sys3(__NR_read, fd, buf + n, size - 1 - n);
		if (r < 0) {
			sys3(__NR_close, fd, 0, 0);
			return r;
		}
		if (r == 0)
			break;
		n += r;
	}
	sys3(__NR_close, fd, 0, 0);
	buf[n] = 0;
	return n;
}

static long get_path(const char *path, char *buf, unsigned long size)
{
	return read_file(path, buf, size, 0);
}

static long get(const char *file, char *buf, unsigned long size)
{
	struct out p;

	return get_path(tpath(&p, file), buf, size);
}

/* the end of @path in @buf (NUL-terminated), as much as half of it holds */
static long get_tail(const char *path, char *buf, unsigned long size)
{
	return read_file(path, buf, size, 1);
}

/* the last line of the @n characters of @buf (its newline cut off) */
static const char *last_line(char *buf, long n)
{
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	while (n > 0 && buf[n - 1] != '\n')
		n--;
	return buf + n;
}

/*
 * Stop tracing, read the trace into @buf, then put the nop tracer back
 * and tracing on again: in that order, as a change of tracer empties the
 * buffer.  The caller resets its own options after.
 */
static void stop_and_read(char *buf, unsigned long size)
{
	set("tracing_on", "0");
	get("trace", buf, size);
	set("current_tracer", "nop");
	set("tracing_on", "1");
}

static long number(const char *s)
{
	long v = 0;

	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return v;
}

/* --- kernel symbols --------------------------------------------------- */

struct syms {
	const char *name[4];
	unsigned long addr[4];
	int n;
};

static unsigned long hexval(const char *s, int len)
{
	unsigned long v = 0;

	while (len--) {
		char c = *s++;

		v = v * 16 + (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return v;
}

/* the addresses of @sy's names in /proc/kallsyms ("40301234 T name") */
static long lookup(struct syms *sy)
{
	char buf[4096], line[160];
	long fd = sys3(__NR_open, "/proc/kallsyms", O_RDONLY, 0);
	unsigned long len = 0;
	long r;
	int i;

	if (fd < 0)
		return fd;
	while ((r = sys3(__NR_read, fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < r; i++) {
			int k;

			if (buf[i] != '\n') {
				if (len < sizeof(line) - 1)
					line[len++] = buf[i];
				continue;
			}
			line[len] = 0;
			/* address, blank, type, blank, name */
			for (k = 0; len > 11 && k < sy->n; k++) {
				const char *a = line + 11, *b = sy->name[k];

				while (*a && *a == *b)
					a++, b++;
				if (!*a && !*b)
					sy->addr[k] = hexval(line, 8);
			}
			len = 0;
		}
	}
	sys3(__NR_close, fd, 0, 0);
	return r;
}

/*
 * The mcount call site of the function at @fn: the first of its first
 * eight words that is a jsr abs.l or tpf.l whose operand is @caller.
 */
static const u16 *mcount_site(unsigned long fn, unsigned long caller)
{
	const u16 *p = (const u16 *)fn;
	int i;

	for (i = 0; i < 8; i++, p++)
		if ((p[0] == INSN_JSR_ABS || p[0] == INSN_TPF_L) &&
		    ((u32)p[1] << 16 | p[2]) == caller)
			return p;
	return 0;
}

#define check(name, ok, why)	check_(&failed, name, ok, why)

/* a check on what tracefs printed: on failure, its first lines too */
static void check_text_(int *failed, const char *name, int ok, struct out *why,
			const char *text)
{
	int lines = 0;

	check_(failed, name, ok, why);
	while (!ok && *text && lines < 24) {
		struct out o = { .n = 0 };

		if (*text == '#') {	/* the header, the same every time */
			while (*text && *text++ != '\n')
				;
			continue;
		}
		out_str(&o, "flat-init: | ");
		while (*text && *text != '\n' && o.n < sizeof(o.buf) - 2)
			o.buf[o.n++] = *text++;
		while (*text && *text++ != '\n')
			;
		out_line(&o);
		lines++;
	}
}

#define check_text(name, ok, why, text) \
	check_text_(&failed, name, ok, why, text)

static void out_words(struct out *o, const u16 *p, int n)
{
	while (n--) {
		out_hex(o, *p++, 4);
		if (n)
			out_str(o, " ");
	}
}

static int same_words(const u16 *a, const u16 *b, int n)
{
	while (n--)
		if (*a++ != *b++)
			return 0;
	return 1;
}

/* 1 (and @word named in @w) if @word is not in @text */
static int want_word(struct out *w, const char *text, const char *word)
{
	if (find(text, word))
		return 0;
	out_str(w, word);
	return 1;
}

/*
 * lockdep's debug_locks (1 while it watches; its first report or a full
 * table turns it off for good), or -1 on a kernel without lockdep
 */
static long lockdep_watching(char *buf, unsigned long size)
{
	const char *p;

	if (get_path("/proc/lockdep_stats", buf, size) < 0)
		return -1;
	p = find(buf, "debug_locks:");
	if (!p)
		return -2;
	p += slen("debug_locks:");
	while (*p == ' ')
		p++;
	return number(p);
}

static void getpid_n(int nr, int n)
{
	while (n--)
		sys3(nr, 0, 0, 0);
}

static void sleep_ms(long ms)
{
	long ts[2] = { 0, ms * 1000000 };

	sys3(__NR_nanosleep, ts, 0, 0);
}

/*
 * A perf counter of this task for event @config of @type, enabled around
 * @what: 1, seven getppid() calls; 2, three 5 ms sleeps.  0 and the
 * count in @count, or -errno.
 */
static long perf_count(u32 type, unsigned long config, int what,
		       unsigned long long *count)
{
	struct perf_event_attr attr;
	long fd, r;
	int i;

	memset(&attr, 0, sizeof(attr));
	attr.type = type;
	attr.size = sizeof(attr);
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_hv = 1;
	*count = 0;
	fd = sys5(__NR_perf_event_open, (long)&attr, 0, -1, -1, 0);
	if (fd < 0)
		return fd;
	sys3(__NR_ioctl, fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < (what == 1 ? 7 : 3); i++) {
		if (what == 1)
			sys3(__NR_getppid, 0, 0, 0);
		else
			sleep_ms(5);
	}
	sys3(__NR_ioctl, fd, PERF_EVENT_IOC_DISABLE, 0);
	r = sys3(__NR_read, fd, count, sizeof(*count));
	sys3(__NR_close, fd, 0, 0);
	return r == sizeof(*count) ? 0 : (r < 0 ? r : -1);
}

/* --- make bench MACHINE=mcf5208 (flat.bench) -------------------------- */

#define BENCH_REPS	5
#define BENCH_CALLS	10000

/*
 * CLOCK_MONOTONIC in ns, modulo 2^32 (a difference holds 4.29 s; no 64-bit
 * arithmetic without libgcc): under -icount it counts instructions.
 */
static u32 now_ns(void)
{
	long ts[2];

	sys3(__NR_clock_gettime, 1, ts, 0);
	return (u32)ts[0] * 1000000000u + (u32)ts[1];
}

/* BENCH_REPS lines "BENCH @state syscall NS": ns per getppid() */
static void bench_state(const char *state)
{
	struct out o = { .n = 0 };
	int rep;

	for (rep = 0; rep < BENCH_REPS; rep++) {
		u32 t = now_ns();

		getpid_n(__NR_getppid, BENCH_CALLS);
		t = now_ns() - t;
		out_str(&o, "BENCH ");
		out_str(&o, state);
		out_str(&o, " syscall ");
		out_num(&o, t / BENCH_CALLS);
		out_str(&o, ".");
		out_num(&o, t % BENCH_CALLS * 10 / BENCH_CALLS);
		out_line(&o);
	}
}

/* the events the tracer recorded for @n getppid(), or -1 if it overran */
static long bench_entries(char *buf, unsigned long size, int n)
{
	const char *p;

	set("trace", "");
	getpid_n(__NR_getppid, n);
	if (get("per_cpu/cpu0/stats", buf, size) < 0 || !find(buf, "\noverrun: 0\n"))
		return -1;
	p = find(buf, "entries: ");
	return p ? number(p + slen("entries: ")) : -1;
}

/* a kprobe or kretprobe event (@kind "p" or "r") on sys_getppid, timed */
static int bench_probe(char *buf, unsigned long size, const char *kind, const char *state)
{
	struct out o = { .n = 0 };
	const char *p;
	long hits;

	out_str(&o, kind);
	out_str(&o, ":bench/");
	out_str(&o, state);
	out_str(&o, " sys_getppid");
	o.buf[o.n] = 0;
	if (set("kprobe_events", o.buf) || set("events/bench/enable", "1")) {
		say("flat-init: bench: cannot enable a probe event on sys_getppid");
		return 1;
	}
	bench_state(state);
	set("events/bench/enable", "0");
	/* "  bench/STATE  HITS  MISSED": each call hit it once */
	get("kprobe_profile", buf, size);
	p = find(buf, state);
	hits = 0;
	if (p) {
		for (p += slen(state); *p == ' '; p++)
			;
		hits = number(p);
	}
	set("kprobe_events", "");
	if (hits < BENCH_REPS * BENCH_CALLS) {
		o.n = 0;
		out_str(&o, "flat-init: bench: the probe was hit ");
		out_num(&o, hits);
		out_str(&o, " times");
		out_line(&o);
		return 1;
	}
	return 0;
}

/* the states of guest/bench/bench.sh's bench.only=calls: 0 or 1 (failed) */
static int run_bench(char *buf, unsigned long size)
{
	struct out o = { .n = 0 };
	char kb[16];
	long e1, e2;
	int i;

	say("flat-init: make bench (flat.bench on the command line)");
	bench_state("off");
	set("current_tracer", "function");
	bench_state("function");
	/* traced entries per call: the difference of two loop lengths */
	get("buffer_size_kb", buf, size);
	for (i = 0; buf[i] >= '0' && buf[i] <= '9' && i < (int)sizeof(kb) - 1; i++)
		kb[i] = buf[i];
	kb[i] = 0;
	set("buffer_size_kb", "4096");
	e1 = bench_entries(buf, size, BENCH_CALLS);
	e2 = bench_entries(buf, size, 2 * BENCH_CALLS);
	set("current_tracer", "nop");
	set("buffer_size_kb", kb);
	if (e1 < 0 || e2 < 0) {
		say("flat-init: bench: the ring buffer overran while counting entries");
		return 1;
	}
	out_str(&o, "FIGURE entries-10000-calls ");
	out_num(&o, (e2 - e1) * 10000 / BENCH_CALLS);
	out_str(&o, " entries");
	out_line(&o);
	set("current_tracer", "function_graph");
	bench_state("function_graph");
	set("current_tracer", "nop");
	return bench_probe(buf, size, "p", "kprobe") ||
	       bench_probe(buf, size, "r", "kretprobe");
}

/* --- the checks ------------------------------------------------------- */

/* --- pstore (the flat kernel: ramoops outside the kernel's RAM) ------- */

/*
 * The records the boot before left, read from pstore (mounted): the
 * harness boots this kernel a second time on the same RAM (qemu-run.sh
 * --ram-file), after a first boot that armed the function recorder
 * and ended in the panic of init's exit.  @buf holds the start of
 * dmesg-ramoops-0 (@r: its length or -errno).
 */
static int pstore_after(char *buf, unsigned long size, long r)
{
	struct out w = { .n = 0 };
	const char *l;
	int failed = 0;

	out_str(&w, "dmesg-ramoops-0 does not start with Panic#1 Part1 (read: ");
	out_num(&w, r);
	out_str(&w, ")");
	check("flat:pstore-dmesg-panic", r > 0 && starts(buf, "Panic#1 Part1"), &w);
	/* the newest lines are at the end of a record */
	r = get_tail("/pstore/dmesg-ramoops-0", buf, size);
	out_str(&w, "no panic of init's exit at the end of dmesg-ramoops-0 (read: ");
	out_num(&w, r);
	out_str(&w, ")");
	check("flat:pstore-dmesg-init", r > 0 && find(buf, "Attempted to kill init!"), &w);
	r = get_tail("/pstore/console-ramoops-0", buf, size);
	/* (the console record has the kernel's messages, not init's) */
	out_str(&w, "console-ramoops-0 lacks the first boot's panic (read: ");
	out_num(&w, r);
	out_str(&w, ")");
	check("flat:pstore-console", r > 0 &&
	      find(buf, "Kernel panic - not syncing: Attempted to kill init!"), &w);
	/* the recorder stops in the panic: its last record a call from it */
	r = get_tail("/pstore/ftrace-ramoops-0", buf, size);
	l = r > 0 ? last_line(buf, r) : "";
	out_str(&w, "the last record is not a call from panic (read: ");
	out_num(&w, r);
	out_str(&w, "): ");
	out_str(&w, l);
	check("flat:pstore-ftrace-last", find(l, "<- vpanic+0x") || find(l, "<- panic+0x"), &w);
	return failed;
}

/*
 * The first boot arms the function recorder at its very end, after every
 * other check (it traces every function, and the checks look at call
 * sites the tracers switch), and exits: init's exit panics, and the
 * recorder stops in that panic.
 */
static int pstore_arm(char *buf, unsigned long size)
{
	struct out w = { .n = 0 };
	long r, m;
	int failed = 0;

	m = sys5(__NR_mount, (long)"debugfs", (long)"/debug", (long)"debugfs", 0, 0);
	r = put("/debug/pstore/record_ftrace", "1", O_TRUNC);
	if (r == 0)
		r = get_path("/debug/pstore/record_ftrace", buf, size);
	out_str(&w, "mount debugfs: ");
	out_num(&w, m);
	out_str(&w, ", record_ftrace: ");
	out_num(&w, r);
	check("flat:pstore-armed", m == 0 && r > 0 && buf[0] == '1', &w);
	return failed;
}

int main(void)
{
	char buf[BUF_SIZE];
	struct out w = { .n = 0 };
	struct syms sy = {
		.name = { "sys_getpid", "sys_getppid", "ftrace_caller" },
		.n = 3,
	};
	u16 getpid_text[8], getppid_text[8];
	const u16 *site;
	unsigned long long count;
	long r, pid, locks;
	int i, n, m, failed = 0, pst;

	say("flat-init: tracefs from a FLAT init (no MMU, no libc)");
	pid = sys3(__NR_getpid, 0, 0, 0);

	r = sys5(__NR_mount, (long)"tracefs", (long)"/tracing", (long)"tracefs", 0, 0);
	out_str(&w, "mount tracefs on /tracing: ");
	out_num(&w, r);
	check("flat:mount-tracefs", r == 0, &w);
	r = sys5(__NR_mount, (long)"proc", (long)"/proc", (long)"proc", 0, 0);
	out_str(&w, "mount proc on /proc: ");
	out_num(&w, r);
	check("flat:mount-proc", r == 0, &w);

	/*
	 * pstore, where the command line gives ramoops a region (the flat
	 * kernel, configs/flat.config): a region with records of the boot
	 * before is read and checked, and that ends this boot; an empty one
	 * gets the function recorder armed at the end.
	 */
	pst = get_path("/proc/cmdline", buf, sizeof(buf)) > 0 &&
	      find(buf, "ramoops.mem_size=");
	locks = -1;
	if (pst) {
		r = sys5(__NR_mount, (long)"pstore", (long)"/pstore", (long)"pstore", 0, 0);
		out_str(&w, "mount pstore on /pstore: ");
		out_num(&w, r);
		check("flat:pstore-mount", r == 0, &w);
		r = get_path("/pstore/dmesg-ramoops-0", buf, sizeof(buf));
		if (r != -ENOENT) {
			say("flat-init: pstore has the records of the boot before");
			failed += pstore_after(buf, sizeof(buf), r);
			goto done;
		}
		r = get_path("/pstore/ftrace-ramoops-0", buf, sizeof(buf));
		out_str(&w, "a function record in an empty region (read: ");
		out_num(&w, r);
		out_str(&w, ")");
		check("flat:pstore-empty", r == -ENOENT, &w);
	}

	/* the tracers a preemptible ColdFire kernel offers */
	/* on a lockdep kernel (mcf5208-lockdep): is lockdep watching? */
	locks = lockdep_watching(buf, sizeof(buf));
	if (locks != -1) {
		out_str(&w, "debug_locks is ");
		out_num(&w, locks);
		out_str(&w, " before the checks");
		check("flat:locks-on", locks == 1, &w);
	}

	/* each name is followed by a blank (the last by a newline) */
	r = get("available_tracers", buf, sizeof(buf));
	n = 0;
	n += want_word(&w, buf, "function ");
	n += want_word(&w, buf, "function_graph ");
	n += want_word(&w, buf, "irqsoff ");
	n += want_word(&w, buf, "preemptoff ");
	n += want_word(&w, buf, "preemptirqsoff ");
	n += want_word(&w, buf, "wakeup ");
	out_str(&w, "missing from available_tracers (read: ");
	out_num(&w, r);
	out_str(&w, ")");
	check("flat:tracers", r > 0 && !n, &w);

	r = lookup(&sy);
	for (i = 0; i < sy.n; i++) {
		if (!sy.addr[i]) {
			out_str(&w, sy.name[i]);
			out_str(&w, " ");
		}
	}
	out_str(&w, "not in /proc/kallsyms (read: ");
	out_num(&w, r);
	out_str(&w, ")");
	check("flat:kallsyms", r == 0 && sy.addr[0] && sy.addr[1] && sy.addr[2], &w);
	if (!sy.addr[0] || !sy.addr[1] || !sy.addr[2]) {
		say("flat-init: cannot go on without the symbols");
		goto out;
	}
	for (i = 0; i < 8; i++) {
		getpid_text[i] = ((const u16 *)sy.addr[0])[i];
		getppid_text[i] = ((const u16 *)sy.addr[1])[i];
	}

	/*
	 * dynamic ftrace: at rest the site is tpf.l aimed at ftrace_caller;
	 * the function tracer filtered to sys_getppid turns its first word
	 * into jsr abs.l and nothing else; nop restores it.
	 */
	site = mcount_site(sy.addr[1], sy.addr[2]);
	out_str(&w, "sys_getppid starts ");
	out_words(&w, (const u16 *)sy.addr[1], 8);
	out_str(&w, ": no tpf.l ftrace_caller there");
	check("flat:site-off", site && site[0] == INSN_TPF_L, &w);
	if (!site)
		goto out;

	r = set("set_ftrace_filter", "sys_getppid");
	get("enabled_functions", buf, sizeof(buf));
	out_str(&w, "set_ftrace_filter: ");
	out_num(&w, r);
	out_str(&w, "; enabled_functions holds ");
	out_num(&w, count_lines(buf, "", 0));
	out_str(&w, " lines");
	set("trace", "");
	r = set("current_tracer", "function");
	out_str(&w, ", current_tracer function: ");
	out_num(&w, r);
	get("enabled_functions", buf, sizeof(buf));
	n = count_lines(buf, "", 0);
	m = count_lines(buf, "sys_getppid", 0);
	out_str(&w, "; then ");
	out_num(&w, n);
	check("flat:function-on", r == 0 && n == 1 && m == 1, &w);

	out_str(&w, "sys_getppid's site with the tracer on: ");
	out_words(&w, site, 3);
	check("flat:site-on", site[0] == INSN_JSR_ABS &&
	      same_words(site + 1, getppid_text + (site - (const u16 *)sy.addr[1]) + 1, 2), &w);

	getpid_n(__NR_getppid, 10);
	stop_and_read(buf, sizeof(buf));
	n = count_lines(buf, " sys_getppid <-", 0);
	m = count_lines(buf, " <-", 0);
	out_str(&w, "10 getppid() calls traced ");
	out_num(&w, n);
	out_str(&w, " times, ");
	out_num(&w, m);
	out_str(&w, " function entries in all");
	check_text("flat:function-calls", n == 10 && m == 10, &w, buf);

	set("set_ftrace_filter", "");
	out_str(&w, "sys_getppid after nop: ");
	out_words(&w, (const u16 *)sy.addr[1], 8);
	out_str(&w, ", before: ");
	out_words(&w, getppid_text, 8);
	check("flat:site-restored", site[0] == INSN_TPF_L &&
	      same_words((const u16 *)sy.addr[1], getppid_text, 8), &w);

	/* the stack of a traced system call, down to the syscall entry */
	set("set_ftrace_filter", "sys_getppid");
	set("options/func_stack_trace", "1");
	set("trace", "");
	set("current_tracer", "function");
	getpid_n(__NR_getppid, 1);
	stop_and_read(buf, sizeof(buf));
	set("options/func_stack_trace", "0");
	set("set_ftrace_filter", "");
	n = count_lines(buf, "<stack trace>", 0);
	m = count_lines(buf, " => system_call", 0);
	out_str(&w, "func_stack_trace gave ");
	out_num(&w, n);
	out_str(&w, " stack traces, ");
	out_num(&w, m);
	out_str(&w, " reaching system_call");
	check_text("flat:function-stack", n == 1 && m == 1, &w, buf);

	/* function_graph with return values: getpid() returns init's pid */
	set("set_graph_function", "sys_getpid");
	r = set("options/funcgraph-retval", "1");
	set("trace", "");
	set("current_tracer", "function_graph");
	getpid_n(__NR_getpid, 4);
	stop_and_read(buf, sizeof(buf));
	set("set_graph_function", "");
	set("options/funcgraph-retval", "0");
	n = count_lines(buf, "sys_getpid()", 0);
	/* a leaf "sys_getpid(); / * ret=0x1 * /", or "} / * sys_getpid ret=0x1 * /" */
	m = count_lines(buf, "sys_getpid(); /* ret=0x1 */", 0) +
	    count_lines(buf, "} /* sys_getpid ret=0x1 */", 0);
	out_str(&w, "funcgraph-retval: ");
	out_num(&w, r);
	out_str(&w, "; 4 getpid() calls graphed ");
	out_num(&w, n);
	out_str(&w, " times, ");
	out_num(&w, m);
	out_str(&w, " returning 0x1 (init's pid is ");
	out_num(&w, pid);
	out_str(&w, ")");
	check_text("flat:graph-retval", pid == 1 && r == 0 && n == 4 && m == 4, &w, buf);

	/*
	 * a kprobe and a kretprobe event on sys_getpid: the breakpoint is
	 * there while they are enabled, the original text after
	 */
	set("trace", "");
	r = put(T "kprobe_events", "p:flat/gp sys_getpid\n", O_APPEND);
	out_str(&w, "p:flat/gp sys_getpid: ");
	out_num(&w, r);
	m = put(T "kprobe_events", "r:flat/gpr sys_getpid ret=$retval:s32\n", O_APPEND);
	out_str(&w, ", r:flat/gpr sys_getpid: ");
	out_num(&w, m);
	n = set("events/flat/enable", "1");
	out_str(&w, ", enable: ");
	out_num(&w, n);
	out_str(&w, "; sys_getpid starts ");
	out_words(&w, (const u16 *)sy.addr[0], 2);
	check("flat:kprobe-armed", r == 0 && m == 0 && n == 0 &&
	      *(const u16 *)sy.addr[0] == INSN_ILLEGAL, &w);
	getpid_n(__NR_getpid, 6);
	set("events/flat/enable", "0");
	get("trace", buf, sizeof(buf));
	n = count_lines(buf, " gp: (sys_getpid+0x0/", 0);
	m = count_lines(buf, " gpr: (", " <- sys_getpid) ret=1");
	out_str(&w, "6 getpid() calls hit the kprobe ");
	out_num(&w, n);
	out_str(&w, " times, the kretprobe ");
	out_num(&w, m);
	out_str(&w, " times with ret=1");
	check_text("flat:kprobe-hits", n == 6 && m == 6, &w, buf);
	r = set("kprobe_events", "");
	get("kprobe_events", buf, sizeof(buf));
	out_str(&w, "clearing kprobe_events: ");
	out_num(&w, r);
	out_str(&w, "; sys_getpid after: ");
	out_words(&w, (const u16 *)sy.addr[0], 8);
	out_str(&w, ", before: ");
	out_words(&w, getpid_text, 8);
	check("flat:kprobe-restored", r == 0 && !buf[0] &&
	      same_words((const u16 *)sy.addr[0], getpid_text, 8), &w);

	/* bad input: refused with the reason in error_log, nothing armed */
	r = put(T "kprobe_events", "p:flat/bad sys_getpid+1\n", O_APPEND);
	get("kprobe_events", buf, sizeof(buf));
	n = buf[0] != 0;
	get("error_log", buf, sizeof(buf));
	m = count_lines(buf, "not an instruction boundary", 0);
	out_str(&w, "p:flat/bad sys_getpid+1: ");
	out_num(&w, r);
	out_str(&w, ", kprobe_events ");
	out_str(&w, n ? "not empty" : "empty");
	out_str(&w, ", error_log lines naming the boundary: ");
	out_num(&w, m);
	check("flat:kprobe-refused", r < 0 && !n && m == 1 &&
	      same_words((const u16 *)sy.addr[0], getpid_text, 8), &w);
	set("error_log", "");

	/* trace_marker, and a trace event from the scheduler */
	set("trace", "");
	r = put(T "trace_marker", "flat-init was here", 0);
	set("events/sched/sched_switch/enable", "1");
	for (i = 0; i < 3; i++)
		sleep_ms(20);
	set("events/sched/sched_switch/enable", "0");
	get("trace", buf, sizeof(buf));
	n = count_lines(buf, "tracing_mark_write: flat-init was here", 0);
	out_str(&w, "trace_marker: ");
	out_num(&w, r);
	out_str(&w, ", read back ");
	out_num(&w, n);
	out_str(&w, " times");
	check_text("flat:trace-marker", r == 0 && n == 1, &w, buf);
	n = count_lines(buf, "prev_comm=init prev_pid=1 ", "prev_state=S ");
	out_str(&w, "3 sleeps of init gave ");
	out_num(&w, n);
	out_str(&w, " sched_switch events from init in state S");
	check_text("flat:sched-switch", n == 3, &w, buf);

	/*
	 * syscall events: exact counts, an argument read from user memory
	 * and a return value
	 */
	set("trace", "");
	r = set("events/syscalls/sys_enter_getppid/enable", "1");
	set("events/syscalls/sys_exit_getppid/enable", "1");
	set("events/syscalls/sys_enter_open/enable", "1");
	set("events/syscalls/sys_exit_open/enable", "1");
	getpid_n(__NR_getppid, 3);
	m = sys3(__NR_open, "/flat-no-such-file", O_RDONLY, 0);
	set("events/syscalls/enable", "0");
	get("trace", buf, sizeof(buf));
	n = count_lines(buf, "sys_getppid()", 0) +
	    count_lines(buf, "sys_getppid -> 0x0", 0);
	out_str(&w, "enabling sys_enter_getppid: ");
	out_num(&w, r);
	out_str(&w, "; 3 getppid() gave ");
	out_num(&w, n);
	out_str(&w, " entry and exit events");
	check_text("flat:syscall-events", r == 0 && n == 6, &w, buf);
	n = count_lines(buf, "sys_open(filename: 0x", "\"/flat-no-such-file\"");
	i = count_lines(buf, "sys_open -> 0xfffffffe", 0);
	out_str(&w, "open(\"/flat-no-such-file\") returned ");
	out_num(&w, m);
	out_str(&w, ", traced with its file name ");
	out_num(&w, n);
	out_str(&w, " times, returning -ENOENT ");
	out_num(&w, i);
	out_str(&w, " times");
	check_text("flat:syscall-args", m == -ENOENT && n == 1 && i == 1, &w, buf);

	/*
	 * perf events: counters of a tracepoint and of a software event,
	 * read after a known number of occurrences
	 */
	get("events/syscalls/sys_enter_getppid/id", buf, sizeof(buf));
	r = perf_count(PERF_TYPE_TRACEPOINT, number(buf), 1, &count);
	out_str(&w, "perf_event_open(sys_enter_getppid, id ");
	out_num(&w, number(buf));
	out_str(&w, "): ");
	out_num(&w, r);
	out_str(&w, "; 7 getppid() counted ");
	out_num(&w, (long)count);
	check("flat:perf-tracepoint", r == 0 && count == 7, &w);
	r = perf_count(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 2, &count);
	out_str(&w, "perf_event_open(context-switches): ");
	out_num(&w, r);
	out_str(&w, "; 3 sleeps counted ");
	out_num(&w, (long)count);
	/* (a wakeup may preempt init now and then: a few more switches) */
	check("flat:perf-software", r == 0 && count >= 3 && count < 10, &w);

	/* the latency tracers that exist only on a preemptible kernel */
	for (i = 0; i < 2; i++) {
		const char *tracer = i ? "preemptirqsoff" : "preemptoff";
		long lat;

		set("tracing_max_latency", "0");
		r = set("current_tracer", tracer);
		for (n = 0; n < 3; n++)
			sleep_ms(5);
		lookup(&sy);
		get("tracing_max_latency", buf, sizeof(buf));
		lat = number(buf);
		stop_and_read(buf, sizeof(buf));
		n = count_lines(buf, "# ", tracer);
		m = count_lines(buf, "=> started at:", 0) +
		    count_lines(buf, "=> ended at:", 0);
		out_str(&w, tracer);
		out_str(&w, ": ");
		out_num(&w, r);
		out_str(&w, ", max latency ");
		out_num(&w, lat);
		out_str(&w, " us, header lines naming it ");
		out_num(&w, n);
		out_str(&w, ", started/ended lines ");
		out_num(&w, m);
		check(i ? "flat:preemptirqsoff" : "flat:preemptoff",
		      r == 0 && lat > 0 && n >= 1 && m == 2, &w);
	}

	if (get_path("/proc/cmdline", buf, sizeof(buf)) > 0 && find(buf, "flat.bench"))
		failed += run_bench(buf, sizeof(buf));

out:
	if (locks != -1) {
		locks = lockdep_watching(buf, sizeof(buf));
		out_str(&w, "debug_locks is ");
		out_num(&w, locks);
		out_str(&w, " after the checks: lockdep turned itself off");
		check("flat:locks-still-on", locks == 1, &w);
	}
	if (pst)
		failed += pstore_arm(buf, sizeof(buf));
done:
	{
		struct out o = { .n = 0 };

		out_str(&o, "HARNESS-EXIT: ");
		out_num(&o, failed);
		out_line(&o);
	}
	return failed;
}
