/* See COPYING file for copyright and license details. */
/*
 * sort.h: the one sort, an in-place introsort with the comparison
 * inlined (qsort's indirect merge sort of large elements costs more than
 * the work around it): quicksort with the median of three and a Hoare
 * partition, insertion sort below 16 elements, heapsort past 2 log2 n
 * levels, which only adversarial orders reach.  Not stable: for keys
 * that are all distinct, or a comparison that breaks ties.
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

#if !defined(SORT_NAME) || !defined(SORT_TYPE) || !defined(SORT_LESS)
#error "sort.h: define SORT_NAME, SORT_TYPE and SORT_LESS first"
#endif

#define SORT_CAT_(a, b)	a##b
#define SORT_CAT(a, b)	SORT_CAT_(a, b)
#define SORT_FN(x)	SORT_CAT(SORT_NAME, x)

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

static void
SORT_NAME(SORT_TYPE *v, size_t n)
{
	unsigned depth = 0;
	size_t k;

	for (k = n; k > 1; k >>= 1)
		depth += 2;
	SORT_FN(_intro)(v, n, depth);
}

#undef SORT_FN
#undef SORT_CAT
#undef SORT_CAT_
#undef SORT_NAME
#undef SORT_TYPE
#undef SORT_LESS
