/* See COPYING file for copyright and license details. */
/*
 * addrix.h: the one address index: which of n ascending starts (of
 * functions, of ranges) is the last at or below an address, in a step or
 * two rather than a binary search over thousands.  The starts are kept
 * dense (addrix_start), and for each 2^shift bytes from the lowest, the
 * last start at or below the bucket's beginning; a lookup reads that and
 * steps over the few starts within the bucket.  Buckets are about
 * 32 per start (at most 2^20), at least 16 bytes each.  The caller checks the end
 * of what it found (BOLT's MaxSize, a range's end).
 */
#ifndef PROFPIPE_ADDRIX_H
#define PROFPIPE_ADDRIX_H

#include <stddef.h>
#include <stdint.h>

struct addrix {
	uint64_t	*start;		/* the starts, ascending */
	size_t		 n;
	uint32_t	*last;		/* per bucket: the last start at or
					 * below its beginning */
	size_t		 nbkt;
	uint64_t	 lo;		/* start[0] */
	unsigned	 shift;
};

/* the index of n starts, start(arg, i) the i-th (ascending; n below
 * 2^32) */
void	 addrix_build(struct addrix *, size_t n,
	    uint64_t (*start)(const void *arg, size_t i), const void *arg);
void	 addrix_free(struct addrix *);

/* the last start at or below a: its index, or -1 if a is below all */
static inline long
addrix_find(const struct addrix *x, uint64_t a)
{
	uint64_t k;
	size_t i;

	if (x->n == 0 || a < x->lo)
		return -1;
	k = (a - x->lo) >> x->shift;
	i = k < x->nbkt ? x->last[k] : x->n - 1;
	while (i + 1 < x->n && x->start[i + 1] <= a)
		i++;
	return (long)i;
}

static inline uint64_t
addrix_start(const struct addrix *x, size_t i)
{
	return x->start[i];
}

#endif
