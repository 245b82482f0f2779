// SPDX-License-Identifier: GPL-2.0
/*
 * tep-parse-one FORMAT: parse one event format file with libtraceevent, then
 * print a record of that event (common_type 500, pfn 0x12345,
 * reclaim_flags 2; 32-bit little-endian layout).
 *
 * The reproducer of the libtraceevent crash on m68k's
 * vmscan:mm_vmscan_write_folio (mm_vmscan_write_folio.format here, written
 * in the shape of the kernel's format file: m68k's pfn_to_page() expands to
 * "mem_map + (pfn - (m68k_memory[0].addr >> 12))").  A libtraceevent without
 * the fix dies with SIGSEGV in process_op(); a fixed one warns "unknown op
 * '.'", flags the event FAILED and prints its fields raw:
 *
 *   mm_vmscan_write_folio: [FAILED TO PARSE] pfn=0x12345 reclaim_flags=2
 *
 *   cc -I<prefix>/include/traceevent tep-parse-one.c -ltraceevent
 *
 * Debian sid's static libtraceevent.a needs glibc 2.38's __isoc23_*
 * functions; on an older glibc add isoc23-shim.c to the command line.
 */
#include <stdio.h>
#include <event-parse.h>
#include <trace-seq.h>

int main(int argc, char **argv)
{
	static char buf[65536];
	unsigned char data[16] = { 0 };
	struct tep_record record = { 0 };
	struct tep_event *event = NULL;
	struct tep_handle *tep;
	struct trace_seq s;
	enum tep_errno err;
	FILE *f;
	size_t n;

	if (argc != 2 || !(f = fopen(argv[1], "r"))) {
		fprintf(stderr, "usage: %s FORMAT-FILE\n", argv[0]);
		return 2;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);

	tep = tep_alloc();
	if (!tep)
		return 1;
	tep_set_loglevel(TEP_LOG_ALL);
	tep_set_long_size(tep, 4);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	err = tep_parse_format(tep, &event, buf, n, "vmscan");
	printf("tep_parse_format: %d, event %s, flags 0x%x (FAILED=0x%x)\n",
	       err, event ? event->name : "(none)", event ? event->flags : 0,
	       TEP_EVENT_FL_FAILED);
	if (!event)
		return 1;

	data[0] = 500 & 0xff;	/* common_type */
	data[1] = 500 >> 8;
	data[4] = 1;		/* common_pid */
	data[8] = 0x45;		/* pfn */
	data[9] = 0x23;
	data[10] = 0x01;
	data[12] = 2;		/* reclaim_flags: RECLAIM_WB_FILE */
	record.data = data;
	record.size = sizeof(data);
	trace_seq_init(&s);
	tep_print_event(tep, &s, &record, "%s: %s", TEP_PRINT_NAME, TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	printf("%s\n", s.buffer);
	trace_seq_destroy(&s);
	tep_free(tep);
	return 0;
}
