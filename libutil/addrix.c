/* See COPYING file for copyright and license details. */
/* addrix.c: building the address index (addrix.h). */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "addrix.h"

void
addrix_build(struct addrix *x, size_t n,
    uint64_t (*start)(const void *, size_t), const void *arg)
{
	uint64_t span;
	size_t i, k;

	memset(x, 0, sizeof(*x));
	if (n == 0)
		return;
	x->n = n;
	x->start = xcalloc(n, sizeof(*x->start));
	for (i = 0; i < n; i++)
		x->start[i] = start(arg, i);
	x->lo = x->start[0];
	span = x->start[n - 1] - x->lo;
	/* about 32 buckets a start, at most 2^20 (4 MB) */
	for (x->shift = 4; x->shift < 63 &&
	    (span >> x->shift) >= 32 * (uint64_t)n + 1024 &&
	    (span >> x->shift) >= ((uint64_t)1 << 10); x->shift++)
		;
	while (x->shift < 63 && (span >> x->shift) >= ((uint64_t)1 << 20))
		x->shift++;
	x->nbkt = (size_t)(span >> x->shift) + 1;
	x->last = xcalloc(x->nbkt, sizeof(*x->last));
	for (i = k = 0; k < x->nbkt; k++) {
		uint64_t b = x->lo + ((uint64_t)k << x->shift);

		while (i + 1 < n && x->start[i + 1] <= b)
			i++;
		x->last[k] = (uint32_t)i;
	}
}

void
addrix_free(struct addrix *x)
{
	free(x->start);
	free(x->last);
	memset(x, 0, sizeof(*x));
}
