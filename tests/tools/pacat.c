/* See COPYING file for copyright and license details. */
/*
 * pacat: read pre-aggregated streams through libbolt's reader and write
 * every entry back through its writer, one line per entry, E lines
 * included.  The unit test of pa.c (tests/lib/20-pa.bats): what comes out is
 * the canonical form of what went in, and a bad line stops it with
 * "pacat: file:line: message".
 *
 * usage: pacat [file...]
 */
#include <stdio.h>
#include <stdlib.h>

#include "pa.h"

int
main(int argc, char *argv[])
{
	struct pa_reader r;
	struct pa_entry e;
	struct wbuf w;
	int i, k;

	prog_init(argc, argv);
	wb_init(&w, stdout, 1 << 16);
	for (i = 1; i < argc || i == 1; i++) {
		const char *path = i < argc ? argv[i] : "-";

		if (pa_open(&r, path) == -1)
			prog_open_error(path);
		while ((k = pa_next(&r, &e)) == 1)
			pa_put_entry(&w, &e, &r);
		if (k == -1)
			lr_errx(&r.lr, "%s", r.err);
		pa_close(&r);
	}
	wb_free(&w);
	xclose_stdout();
	return 0;
}
