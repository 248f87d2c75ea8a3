/* See COPYING file for copyright and license details. */
/*
 * fuzz_profraw: libFuzzer harness for prfraw2idx's readers.  The input
 * goes through the raw reader (or, if it is no raw profile, the text
 * readers), then the merged store through every writer into memory.
 * Seed it with real inputs, e.g.
 *	mkdir corpus && cp *.profraw corpus/ &&
 *	build/fuzz/fuzz_profraw -max_total_time=300 corpus
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "prfraw2idx.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct store s, s2;
	struct namecache *nc;
	struct perr e;
	struct wbuf w;
	FILE *fp;
	int rc;

	progname = "fuzz_profraw";
	store_init(&s, 0);
	store_init(&s2, 1);
	s.quiet = s2.quiet = 1;
	nc = namecache_new();
	memset(&e, 0, sizeof(e));
	if (raw_is_raw(data, size)) {
		rc = raw_read(&s, nc, data, size, 1, &e);
		/* the same bytes again: cached names, weighted merge */
		if (rc == 0)
			rc = raw_read(&s, nc, data, size, 3, &e);
		/* a second writer context, merged in as llvm-profdata does */
		if (rc == 0)
			rc = raw_read(&s2, nc, data, size, 2, &e);
	} else {
		rc = text_read(&s, data, size, 2, &e);
		if (rc == 0)
			rc = text_read(&s2, data, size, 1, &e);
	}
	if (rc == 0)
		store_merge(&s, &s2);
	if (rc == 0 && (fp = fopen("/dev/null", "w")) != NULL) {
		wb_init(&w, fp, 1 << 16);
		indexed_write(&w, &s, 12, 0);
		indexed_write(&w, &s, 7, 1);
		text_write(&w, &s, 0);
		llvmtext_write(&w, &s, 0);
		wb_free(&w);
		fclose(fp);
	}
	namecache_free(nc);
	store_free(&s2);
	store_free(&s);
	return 0;
}
