/* See COPYING file for copyright and license details. */
/*
 * fuzz_preagg: libFuzzer harness for libbolt's pre-aggregated reader
 * (pa_parse_line) and writer: any bytes, split into lines, must parse or
 * be rejected with a message, and what parses must write back and parse
 * again to the same entry.  pa_parse_fast (pa_next's fast path, on a
 * copy padded as lineio pads it) takes a line only as pa_parse_line
 * reads it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pa_reader r, r2;
	struct pa_entry e, e2;
	char *buf = malloc(size + 1), *line, *nl, err[200];
	char *out = NULL;
	size_t outlen = 0;
	FILE *mem;
	struct wbuf w;
	int i;

	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	memset(&r, 0, sizeof(r));
	memset(&r2, 0, sizeof(r2));
	r.curev = r2.curev = PA_NO_EVENT;
	for (line = buf; line != NULL; line = nl) {
		char *pad;
		int fast;
		uint32_t ev0 = r.curev;

		if ((nl = strchr(line, '\n')) != NULL)
			*nl++ = '\0';
		/* the fast path first, on a padded copy (it cuts nothing) */
		if ((pad = calloc(1, strlen(line) + 1 + LR_PAD)) == NULL)
			abort();
		strcpy(pad, line);
		fast = pa_parse_fast(&r, pad, &e2);
		free(pad);
		if (pa_parse_line(&r, line, &e, err, sizeof(err)) != 1) {
			if (fast)
				abort();
			continue;
		}
		if (fast && (e2.type != e.type || e2.nloc != e.nloc ||
		    e2.count != e.count || e2.mis != e.mis ||
		    e2.has_mis != e.has_mis || e2.event != e.event ||
		    (e.type == PA_S && e.event != ev0)))
			abort();
		for (i = 0; fast && i < e.nloc; i++)
			if (e2.loc[i].addr != e.loc[i].addr ||
			    e2.loc[i].obj != e.loc[i].obj)
				abort();
		/* the writer's line parses back to the same entry */
		if ((mem = open_memstream(&out, &outlen)) == NULL)
			abort();
		wb_init(&w, mem, 4096);
		pa_put_entry(&w, &e, &r);
		wb_free(&w);
		fclose(mem);
		out[strcspn(out, "\n")] = '\0';
		if (pa_parse_line(&r2, out, &e2, err, sizeof(err)) != 1 ||
		    e2.type != e.type || e2.count != e.count)
			abort();
		for (i = 0; i < e.nloc; i++)
			if (e2.loc[i].addr != e.loc[i].addr ||
			    (e.loc[i].obj < 2 && e2.loc[i].obj != e.loc[i].obj))
				abort();
		free(out);
		out = NULL;
	}
	pa_close(&r);
	pa_close(&r2);
	free(buf);
	return 0;
}
