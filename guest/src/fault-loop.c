// SPDX-License-Identifier: GPL-2.0
/*
 * fault-loop: a process that spends its time in user access faults, for
 * the live patching case of a task asleep in one (guest/tests/livepatch.sh:
 * klp_consist_target.ko where=fault holds this process's mmap lock, and
 * the next fault sleeps until it is dropped).
 *
 *   fault-loop MIB     map MIB MiB of anonymous memory, read one byte of
 *                      each page (each read a fault that maps the zero
 *                      page), drop the pages (madvise) and start again,
 *                      until killed
 *
 * Only the madvise() between two passes is a system call.  Exits 2 when
 * it cannot run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *p;
	unsigned long sum = 0;
	size_t len, off;
	long mib;

	mib = argc == 2 ? atol(argv[1]) : 0;
	if (mib <= 0) {
		fprintf(stderr, "usage: fault-loop MIB\n");
		return 2;
	}
	len = (size_t)mib << 20;
	p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "fault-loop: mmap: %s\n", strerror(errno));
		return 2;
	}
	for (;;) {
		for (off = 0; off < len; off += page)
			sum += p[off];
		if (madvise(p, len, MADV_DONTNEED)) {
			fprintf(stderr, "fault-loop: madvise: %s\n", strerror(errno));
			return 2;
		}
		/* the zero page is zero (and each pass reads every page) */
		if (sum)
			return 1;
	}
}
