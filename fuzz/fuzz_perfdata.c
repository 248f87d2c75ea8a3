/* See COPYING file for copyright and license details. */
/*
 * fuzz_perfdata: libFuzzer harness for perfdecode's reader.  The input is
 * decoded as a whole perf.data in memory (file or pipe format), with
 * every record kind written to a sink, then again with the --comm,
 * --pid and --event filters and --ordered on.  Seed it with the small
 * perf.data files in tests/data/perfdecode/corpus, copied to a scratch
 * corpus directory:
 *	build/fuzz/fuzz_perfdata -max_total_time=300 corpus
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "perfdecode.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* a sink that drops everything, without a file behind it */
static ssize_t
sink_write(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	(void)buf;
	return (ssize_t)n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	static int32_t pids[] = { 4242, -1 };
	struct wbuf w;
	struct pd d;

	progname = "fuzz_perfdata";
	if (null == NULL) {
		cookie_io_functions_t io = { NULL, sink_write, NULL, NULL };

		if ((null = fopencookie(NULL, "w", io)) == NULL)
			abort();
	}
	wb_init(&w, null, 1 << 16);
	pd_init(&d, &w, "fuzz");
	d.quiet = 1;
	(void)pd_decode_mem(&d, data, size);
	pd_free(&d);

	pd_init(&d, &w, "fuzz");
	d.quiet = 1;
	d.comm = "bench";
	d.pids = pids;
	d.npids = NELEM(pids);
	d.event = "cycles";
	pd_set_ordered(&d);
	(void)pd_decode_mem(&d, data, size);
	pd_finish(&d);
	pd_free(&d);
	wb_free(&w);
	return 0;
}
