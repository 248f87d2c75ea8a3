/* See COPYING file for copyright and license details. */
/*
 * bigmem.c: memory for the large tables of a stage (hash tables of
 * distinct keys, dense arrays of entries), mapped in 2 MB pages where the
 * kernel gives them (transparent huge pages, asked for with madvise).
 *
 * A stage's tables are touched all over; in 4 KB pages each first touch
 * is a page fault, which costs about 12 us on a virtual machine such as
 * the ones we measure on (0.3 us a 4 KB page in a 2 MB one): a table of
 * 8 MB is 2048 faults, 25 ms.  Zeroed tables are also faulted in at once
 * (MADV_POPULATE_WRITE), which costs a few times less than touching them
 * page by page even where no huge page is free.
 *
 * Below BIG_MIN bytes, and in sanitizer builds (whose checks need their
 * own allocator), these are calloc, realloc and free.  A block is freed
 * with the element count and size it was allocated or last grown with.
 */
#ifndef BIGMEM_H
#define BIGMEM_H

#include <stddef.h>

#define BIG_MIN		((size_t)1 << 20)

/* n zeroed elements of size sz, faulted in */
void	*big_zalloc(size_t n, size_t sz);
/* grow *pp (holding *cap elements of size sz) to at least need elements,
 * doubling; the new part is not zeroed and not faulted in */
void	 big_grow(void *pp, size_t *cap, size_t need, size_t sz);
/* free p, of n elements of size sz (NULL: nothing) */
void	 big_free(void *p, size_t n, size_t sz);

/* the process's heap in huge pages (bigmem.c), from prog_init */
void	 big_heap(void);

#endif
