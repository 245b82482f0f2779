// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * insn-count: a QEMU TCG plugin for `make profile-spawn`
 * (harness/profile-spawn.sh).  It counts how often each guest
 * instruction address executes between the first and the second
 * execution of a marker instruction (the guest runs the workload
 * between two calls that reach it), then writes "ADDRESS COUNT" lines,
 * in hex and decimal, one per address that ran in that window.
 *
 *   -plugin insn-count.so,mark=0xADDR,out=FILE
 *
 * Addresses, not code: two user programs mapped at the same address
 * share a counter, which does not matter for the kernel's text (the
 * host side attributes the kernel's addresses only).  One vCPU (the
 * guests of the harness run with -icount, no MTTCG): the inline
 * counters need no atomics.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct counter {
	uint64_t addr;
	uint64_t count;		/* every execution since translation */
	uint64_t start;		/* count at the first marker */
	uint64_t end;		/* count at the second marker */
	int used;
};

#define TABLE_BITS 21		/* 2M addresses: more than a guest runs */
#define TABLE_SIZE (1u << TABLE_BITS)

static struct counter *table;
static unsigned int used;
static uint64_t mark;
static const char *out;
static int marks;
static int full;

static struct counter *lookup(uint64_t addr)
{
	uint32_t i = (uint32_t)((addr * 0x9e3779b97f4a7c15ull) >> (64 - TABLE_BITS));

	while (table[i].used && table[i].addr != addr)
		i = (i + 1) & (TABLE_SIZE - 1);
	if (!table[i].used) {
		if (used >= TABLE_SIZE / 2)
			return NULL;
		table[i].used = 1;
		table[i].addr = addr;
		used++;
	}
	return &table[i];
}

static void write_counts(void)
{
	FILE *f = fopen(out, "w");
	unsigned int i, n = 0;

	if (!f) {
		fprintf(stderr, "insn-count: %s: %s\n", out, strerror(errno));
		return;
	}
	for (i = 0; i < TABLE_SIZE; i++) {
		struct counter *c = &table[i];

		if (c->used && c->end > c->start) {
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n", c->addr, c->end - c->start);
			n++;
		}
	}
	if (full)
		fprintf(f, "# table full: addresses were left uncounted\n");
	if (fclose(f))
		fprintf(stderr, "insn-count: %s: %s\n", out, strerror(errno));
	else
		fprintf(stderr, "insn-count: %u addresses written to %s\n", n, out);
}

/* the marker ran: its own count is already in (the inline op comes first) */
static void marker(unsigned int vcpu, void *data)
{
	unsigned int i;

	marks++;
	if (marks > 2)
		return;
	for (i = 0; i < TABLE_SIZE; i++) {
		if (!table[i].used)
			continue;
		if (marks == 1)
			table[i].start = table[i].count;
		else
			table[i].end = table[i].count;
	}
	if (marks == 2)
		write_counts();
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t addr = qemu_plugin_insn_vaddr(insn);
		struct counter *c = lookup(addr);

		if (!c) {
			full = 1;
			continue;
		}
		/* after the second marker nothing is counted any more */
		if (marks >= 2)
			continue;
		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   &c->count, 1);
		if (addr == mark)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
}

static void at_exit(qemu_plugin_id_t id, void *data)
{
	if (marks < 2)
		fprintf(stderr, "insn-count: the marker %#" PRIx64 " ran %d times, not 2: %s not written\n",
			mark, marks, out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		char *end;

		if (!strncmp(argv[i], "mark=", 5)) {
			errno = 0;
			mark = strtoull(argv[i] + 5, &end, 0);
			if (errno || *end || end == argv[i] + 5) {
				fprintf(stderr, "insn-count: bad address '%s'\n", argv[i]);
				return -1;
			}
		} else if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			out = argv[i] + 4;
		} else {
			fprintf(stderr, "insn-count: unknown argument '%s' (mark=ADDR, out=FILE)\n",
				argv[i]);
			return -1;
		}
	}
	if (!mark || !out) {
		fprintf(stderr, "insn-count: mark=ADDR and out=FILE are needed\n");
		return -1;
	}
	table = calloc(TABLE_SIZE, sizeof(*table));
	if (!table) {
		fprintf(stderr, "insn-count: out of memory\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
