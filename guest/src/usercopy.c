// SPDX-License-Identifier: GPL-2.0
/*
 * usercopy: the kernel's copies to and from user memory at every
 * alignment, also when the user page is not present yet, so that the copy
 * faults half way and is resumed (guest/tests/hatari.sh, foundation.sh).
 *
 * On m68k the kernel copies with MOVES; a write that faults on the 68030
 * is retried by the CPU from the data output buffer of its bus error
 * frame, and a misaligned access that crosses a page is split in two bus
 * cycles, the second of which may fault.  Each case below compares the
 * bytes with what they must be; a wrong one prints one line:
 *
 *   to-user OFF LEN       read() into a present buffer at offset OFF
 *   to-user-fault OFF     read() of 32 bytes that end on a page not yet
 *                         present, starting OFF bytes from its start
 *   from-user OFF LEN     write() from a present buffer at offset OFF
 *   from-user-fault OFF   write() of 32 bytes from a file mapping whose
 *                         second page has not been touched
 *   getdents-fault OFF    getdents64() of a directory into a buffer whose
 *                         second page is not present yet differs from the
 *                         listing read into touched memory
 *
 * The last line is "usercopy: N cases, M wrong"; the status is 1 when any
 * case was wrong, 2 when the test itself could not run.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAGE	4096
#define FILE_SZ	(3 * PAGE)

static unsigned char ref[FILE_SZ];
static int cases, wrong;

static void dump(const char *what, int off, int len, const unsigned char *b)
{
	wrong++;
	if (wrong > 40)
		return;
	printf("%s %d %d:", what, off, len);
	for (int i = 0; i < len && i < 40; i++)
		printf(" %02x", b[i]);
	printf("\n");
}

static unsigned char *fresh(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("usercopy: mmap");
		_exit(2);
	}
	return p;
}

/* the name of the test directory's entry of LEN characters */
static void entry_name(char *name, size_t size, int len)
{
	snprintf(name, size, "/tmp/usercopy.d/%0*d", len, len);
}

static long getdents_into(const char *dir, unsigned char *buf, size_t len)
{
	int d = open(dir, O_RDONLY | O_DIRECTORY);
	long n;

	if (d < 0) {
		perror("usercopy: open dir");
		_exit(2);
	}
	n = syscall(SYS_getdents64, d, buf, len);
	close(d);
	return n;
}

int main(void)
{
	unsigned char *buf, *map, got[64];
	int fd;

	for (int i = 0; i < FILE_SZ; i++)
		ref[i] = (unsigned char)(i * 7 + 1);
	fd = open("/tmp/usercopy.ref", O_CREAT | O_TRUNC | O_RDWR, 0600);
	if (fd < 0 || write(fd, ref, FILE_SZ) != FILE_SZ) {
		perror("usercopy: reference file");
		return 2;
	}

	/* to user, present page: every offset in a longword, short lengths */
	buf = fresh(PAGE);
	for (int off = 0; off < 8; off++) {
		for (int len = 1; len <= 40; len++) {
			unsigned char *b = buf + 100 + off;

			memset(buf, 0xee, PAGE);
			cases++;
			if (pread(fd, b, len, 0) != len || memcmp(b, ref, len) ||
			    b[-1] != 0xee || b[len] != 0xee)
				dump("to-user", off, len, b - 1);
		}
	}
	munmap(buf, PAGE);

	/* to user, ending on a page that is not present yet */
	for (int off = -7; off < 8; off++) {
		unsigned char *b;

		buf = fresh(2 * PAGE);
		buf[0] = 1;
		b = buf + PAGE - 16 + off;
		cases++;
		if (pread(fd, b, 32, 0) != 32 || memcmp(b, ref, 32))
			dump("to-user-fault", off, 32, b);
		munmap(buf, 2 * PAGE);
	}

	/* from user, present page */
	buf = fresh(PAGE);
	for (int off = 0; off < 8; off++) {
		for (int len = 1; len <= 40; len++) {
			memcpy(buf + 100 + off, ref + 50, len);
			cases++;
			if (pwrite(fd, buf + 100 + off, len, 2 * PAGE) != len ||
			    pread(fd, got, len, 2 * PAGE) != len ||
			    memcmp(got, ref + 50, len))
				dump("from-user", off, len, got);
		}
	}
	munmap(buf, PAGE);

	/* from user, the source's second page not touched yet */
	for (int off = -7; off < 8; off++) {
		const unsigned char *s;
		int tmp;

		map = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED) {
			perror("usercopy: mmap file");
			return 2;
		}
		s = map + PAGE - 16 + off;
		tmp = open("/tmp/usercopy.out", O_CREAT | O_TRUNC | O_RDWR, 0600);
		cases++;
		if (write(tmp, s, 32) != 32 || pread(tmp, got, 32, 0) != 32 ||
		    memcmp(got, ref + PAGE - 16 + off, 32))
			dump("from-user-fault", off, 32, got);
		close(tmp);
		munmap(map, 2 * PAGE);
	}

	/*
	 * The symptom first seen: names of a directory read into new memory.
	 * Names of 1 to 60 characters put the records' ends at every
	 * alignment; the listing goes into a buffer whose second page is not
	 * touched yet, at each offset in a longword, and must equal the one
	 * read into touched memory.
	 */
	mkdir("/tmp/usercopy.d", 0700);
	for (int len = 1; len <= 60; len++) {
		char name[80];

		entry_name(name, sizeof(name), len);
		close(open(name, O_CREAT | O_WRONLY, 0600));
	}
	for (int off = 0; off < 8; off++) {
		static unsigned char touched[2 * PAGE];
		unsigned char *b;
		long a, n;

		memset(touched, 0, sizeof(touched));
		a = getdents_into("/tmp/usercopy.d", touched, PAGE);
		buf = fresh(2 * PAGE);
		buf[0] = 1;
		b = buf + PAGE - 300 + off;
		n = getdents_into("/tmp/usercopy.d", b, PAGE);
		cases++;
		if (a < 60 * 20 || a != n || memcmp(touched, b, a)) {
			wrong++;
			printf("getdents-fault %d: %ld bytes into touched memory, %ld into untouched",
			       off, a, n);
			for (long i = 0; i < a && i < n; i++) {
				if (touched[i] != b[i]) {
					printf(", first difference at %ld: %02x, %02x",
					       i, touched[i], b[i]);
					break;
				}
			}
			printf("\n");
		}
		munmap(buf, 2 * PAGE);
	}
	for (int len = 1; len <= 60; len++) {
		char name[80];

		entry_name(name, sizeof(name), len);
		unlink(name);
	}
	rmdir("/tmp/usercopy.d");

	unlink("/tmp/usercopy.ref");
	unlink("/tmp/usercopy.out");
	printf("usercopy: %d cases, %d wrong\n", cases, wrong);
	return wrong != 0;
}
