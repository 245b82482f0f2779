// SPDX-License-Identifier: GPL-2.0
/*
 * kshark-count FILE...: load each trace.dat with KernelShark's own loading
 * code (libkshark: kshark_open(), kshark_load_entries(), what the GUI does
 * to open a file) and print "FILE ENTRIES", one line each.  Exits 1 if a
 * file cannot be opened or loaded (each such file named on stderr).
 *
 * Built on the host against Debian's libkshark-dev by harness/kshark.sh,
 * which runs it with the libtraceevent we patch (harness/build-trace-cmd.sh)
 * ahead of Debian's: Debian 12's crashes on one of m68k's event formats.
 */
#include <stdio.h>
#include <stdlib.h>
#include <libkshark.h>

int main(int argc, char **argv)
{
	struct kshark_context *ctx = NULL;
	struct kshark_entry **rows;
	int i, sd, rc = 0;
	ssize_t n, j;

	if (argc < 2) {
		fprintf(stderr, "usage: kshark-count FILE...\n");
		return 2;
	}
	if (!kshark_instance(&ctx)) {
		fprintf(stderr, "kshark-count: no KernelShark session\n");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		sd = kshark_open(ctx, argv[i]);
		if (sd < 0) {
			fprintf(stderr, "kshark-count: cannot open %s (%d)\n",
				argv[i], sd);
			rc = 1;
			continue;
		}
		rows = NULL;
		n = kshark_load_entries(ctx, sd, &rows);
		if (n < 0) {
			fprintf(stderr, "kshark-count: cannot load %s (%zd)\n",
				argv[i], n);
			rc = 1;
		} else {
			printf("%s %zd\n", argv[i], n);
		}
		for (j = 0; j < n; j++)
			free(rows[j]);
		free(rows);
		kshark_close(ctx, sd);
	}
	kshark_free(ctx);
	return rc;
}
