/* See COPYING file for copyright and license details. */
/*
 * sort.h: the one sort, an in-place introsort with the comparison
 * inlined (qsort's indirect merge sort of large elements costs more than
 * the work around it): quicksort with the median of three and a Hoare
 * partition, insertion sort below 16 elements, heapsort past 2 log2 n
 * levels, which only adversarial orders reach.  Not stable: for keys
 * that are all distinct, or a comparison that breaks ties.  With
 * SORT_STABLE defined too, a stable merge sort instead (insertion-sorted
 * runs of 16 merged bottom-up through a buffer of n elements): equal
 * elements keep their order, as with glibc's qsort, whose merge sort
 * this replaces where ties occur.
 *
 * A template: define SORT_NAME (the function to make), SORT_TYPE (the
 * element type) and SORT_LESS(a, b) (pointers; whether *a sorts before
 * *b), then include this file; it makes
 *
 *	static void SORT_NAME(SORT_TYPE *v, size_t n);
 *
 * and undefines the three.  It may be included several times in a file.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#if !defined(SORT_NAME) || !defined(SORT_TYPE) || !defined(SORT_LESS)
#error "sort.h: define SORT_NAME, SORT_TYPE and SORT_LESS first"
#endif

#define SORT_CAT_(a, b)	a##b
#define SORT_CAT(a, b)	SORT_CAT_(a, b)
#define SORT_FN(x)	SORT_CAT(SORT_NAME, x)

#ifndef SORT_STABLE
static inline void
SORT_FN(_swap)(SORT_TYPE *a, SORT_TYPE *b)
{
	SORT_TYPE t = *a;

	*a = *b;
	*b = t;
}

static void
SORT_FN(_sift)(SORT_TYPE *v, size_t i, size_t n)
{
	size_t c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && SORT_LESS(&v[c], &v[c + 1]))
			c++;
		if (!SORT_LESS(&v[i], &v[c]))
			return;
		SORT_FN(_swap)(&v[i], &v[c]);
		i = c;
	}
}

static void
SORT_FN(_intro)(SORT_TYPE *v, size_t n, unsigned depth)
{
	SORT_TYPE pivot, t;
	size_t i, j;

	while (n > 16) {
		if (depth-- == 0) {
			for (i = n / 2; i-- > 0;)
				SORT_FN(_sift)(v, i, n);
			for (i = n; i-- > 1;) {
				SORT_FN(_swap)(&v[0], &v[i]);
				SORT_FN(_sift)(v, 0, i);
			}
			return;
		}
		if (SORT_LESS(&v[n / 2], &v[0]))
			SORT_FN(_swap)(&v[n / 2], &v[0]);
		if (SORT_LESS(&v[n - 1], &v[n / 2])) {
			SORT_FN(_swap)(&v[n - 1], &v[n / 2]);
			if (SORT_LESS(&v[n / 2], &v[0]))
				SORT_FN(_swap)(&v[n / 2], &v[0]);
		}
		pivot = v[n / 2];
		/* Hoare partition: [0, j] <= pivot <= [j + 1, n) */
		i = 0;
		j = n - 1;
		for (;;) {
			while (SORT_LESS(&v[i], &pivot))
				i++;
			while (SORT_LESS(&pivot, &v[j]))
				j--;
			if (i >= j)
				break;
			SORT_FN(_swap)(&v[i], &v[j]);
			i++;
			j--;
		}
		/* the smaller side by recursion, the larger by the loop */
		if (j + 1 < n - (j + 1)) {
			SORT_FN(_intro)(v, j + 1, depth);
			v += j + 1;
			n -= j + 1;
		} else {
			SORT_FN(_intro)(v + j + 1, n - (j + 1), depth);
			n = j + 1;
		}
	}
	for (i = 1; i < n; i++) {
		t = v[i];
		for (j = i; j > 0 && SORT_LESS(&t, &v[j - 1]); j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

#endif

#ifdef SORT_STABLE
/* a[0, na) and b[0, nb), each sorted, into out: a's first on ties */
static void
SORT_FN(_merge)(const SORT_TYPE *a, size_t na, const SORT_TYPE *b,
    size_t nb, SORT_TYPE *out)
{
	size_t i = 0, j = 0, k = 0;

	while (i < na && j < nb)
		out[k++] = SORT_LESS(&b[j], &a[i]) ? b[j++] : a[i++];
	while (i < na)
		out[k++] = a[i++];
	while (j < nb)
		out[k++] = b[j++];
}

static void
SORT_NAME(SORT_TYPE *v, size_t n)
{
	SORT_TYPE *buf, *from, *to, *t, x;
	size_t run, i, j, lo;

	for (lo = 0; lo < n; lo += 16) {
		size_t hi = lo + 16 < n ? lo + 16 : n;

		for (i = lo + 1; i < hi; i++) {
			x = v[i];
			for (j = i; j > lo && SORT_LESS(&x, &v[j - 1]); j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
	}
	if (n <= 16)
		return;
	buf = xreallocarray(NULL, n, sizeof(*buf));
	from = v;
	to = buf;
	for (run = 16; run < n; run *= 2) {
		for (lo = 0; lo < n; lo += 2 * run) {
			size_t mid = lo + run < n ? lo + run : n;
			size_t hi = lo + 2 * run < n ? lo + 2 * run : n;

			SORT_FN(_merge)(from + lo, mid - lo, from + mid, hi - mid,
			    to + lo);
		}
		t = from;
		from = to;
		to = t;
	}
	if (from != v)
		memcpy(v, from, n * sizeof(*v));
	free(buf);
}
#else
static void
SORT_NAME(SORT_TYPE *v, size_t n)
{
	unsigned depth = 0;
	size_t k;

	for (k = n; k > 1; k >>= 1)
		depth += 2;
	SORT_FN(_intro)(v, n, depth);
}
#endif

#undef SORT_FN
#undef SORT_CAT
#undef SORT_CAT_
#undef SORT_NAME
#undef SORT_TYPE
#undef SORT_LESS
#undef SORT_STABLE
