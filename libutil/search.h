/* See COPYING file for copyright and license details. */
/*
 * search.h: the one binary search, beside sort.h's sort.
 *
 *	SEARCH_FIRST(i, n, m, below);
 *
 * sets i (a size_t lvalue) to the first index of [0, n) for which the
 * expression below, evaluated with the index in m (a name the macro
 * declares), is false, or to n if there is none; below must be true on
 * a prefix of the range and false after it (the range is partitioned:
 * "v[m] < key" is std::lower_bound, "v[m] <= key" std::upper_bound).  A
 * macro, so that the comparison is compiled in place, as the hand-written
 * loops it replaces were.
 */
#ifndef PROFPIPE_SEARCH_H
#define PROFPIPE_SEARCH_H

#include <stddef.h>

#define SEARCH_FIRST(i, n, m, below) do {				\
	size_t search_hi_ = (n);					\
									\
	(i) = 0;							\
	while ((i) < search_hi_) {					\
		size_t m = (i) + (search_hi_ - (i)) / 2;		\
									\
		if (below)						\
			(i) = m + 1;					\
		else							\
			search_hi_ = m;					\
	}								\
} while (0)

#endif
