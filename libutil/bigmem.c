/* See COPYING file for copyright and license details. */
/* bigmem.c: large tables in huge pages (bigmem.h). */
#include <err.h>
#include <malloc.h>
#include <unistd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util.h"
#include "bigmem.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23
#endif

#define HUGE	((size_t)2 << 20)

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer)
#define SANITIZED	1
#endif
#endif

static size_t
bytes(size_t n, size_t sz)
{
	if (sz != 0 && n > SIZE_MAX / sz)
		errx(1, "allocation of %zu x %zu bytes overflows", n, sz);
	return n * sz;
}

/* mapped blocks are whole 2 MB pages; a size from n and sz */
static size_t
mapsize(size_t b)
{
	if (b > SIZE_MAX - HUGE)
		errx(1, "allocation of %zu bytes overflows", b);
	return (b + HUGE - 1) & ~(HUGE - 1);
}

static int
mapped(size_t b)
{
#ifdef SANITIZED
	(void)b;
	return 0;
#else
	return b >= BIG_MIN;
#endif
}

/* len bytes (a multiple of HUGE), aligned on HUGE, in huge pages if the
 * kernel has them */
static void *
map(size_t len)
{
	char *p, *a;
	size_t head;

	p = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		err(1, "mmap %zu bytes", len);
	a = (char *)(((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	head = (size_t)(a - p);
	if (head > 0)
		munmap(p, head);
	munmap(a + len, HUGE - head);
	(void)madvise(a, len, MADV_HUGEPAGE);
	return a;
}

void *
big_zalloc(size_t n, size_t sz)
{
	size_t b = bytes(n, sz), len;
	void *p;

	if (!mapped(b))
		return xcalloc(n, sz);
	len = mapsize(b);
	p = map(len);
	/* an old kernel says EINVAL: the pages then come on first touch */
	(void)madvise(p, len, MADV_POPULATE_WRITE);
	return p;
}

void
big_grow(void *pp, size_t *cap, size_t need, size_t sz)
{
	void **vp = pp;
	size_t n, ob, nb;
	void *p;

	if (need <= *cap)
		return;
	n = grow_cap(*cap, need);
	ob = bytes(*cap, sz);
	nb = bytes(n, sz);
	if (!mapped(nb)) {
		*vp = xreallocarray(*vp, n, sz);
		*cap = n;
		return;
	}
	if (mapped(ob) && mapsize(ob) == mapsize(nb)) {
		*cap = n;
		return;
	}
	p = map(mapsize(nb));
	if (*vp != NULL && ob > 0)
		memcpy(p, *vp, ob);
	big_free(*vp, *cap, sz);
	*vp = p;
	*cap = n;
}

void
big_free(void *p, size_t n, size_t sz)
{
	size_t b;

	if (p == NULL)
		return;
	b = bytes(n, sz);
	if (mapped(b))
		munmap(p, mapsize(b));
	else
		free(p);
}

/*
 * The heap in huge pages too: malloc grows its heap (brk) 32 MB at a time
 * and never gives the top back, and that span of address space is marked
 * for huge pages, so the small blocks a stage keeps (graphs, names) are
 * faulted in 2 MB at a time.  Pages never touched cost nothing: the
 * resident size still follows what is used.  Past the first span the
 * heap grows in ordinary pages.
 */
#define HEAP_PAD	((size_t)32 << 20)

void
big_heap(void)
{
#ifndef SANITIZED
	void *p;
	char *lo, *hi;

	if (mallopt(M_TOP_PAD, (int)HEAP_PAD) == 0 ||
	    mallopt(M_TRIM_THRESHOLD, (int)(2 * HEAP_PAD)) == 0 ||
	    mallopt(M_MMAP_THRESHOLD, (int)BIG_MIN) == 0)
		return;
	if ((p = malloc(1)) == NULL)
		return;
	lo = (char *)(((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1));
	hi = sbrk(0);
	free(p);
	if (hi != (char *)-1 && hi > lo)
		(void)madvise(lo, (size_t)(hi - lo), MADV_HUGEPAGE);
#endif
}
