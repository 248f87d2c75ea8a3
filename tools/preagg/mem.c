/* See COPYING file for copyright and license details. */
/*
 * mem.c: the memory samples preagg -M writes, a profpipe-mem(5) stream:
 * the (ip, data address) pairs of the selected binaries' samples of
 * memory events, summed in a table that grows with the distinct pairs,
 * and written sorted.
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preagg.h"

struct ment {
	uint64_t	ip, addr, count;
	uint32_t	ipobj, addrobj;	/* 0 marks a free slot: objects are
					 * stored + 1 */
};

static struct ment *mtab;
static size_t mcap;
size_t memn;

static uint64_t
mhash(uint64_t ip, uint64_t addr, uint32_t o)
{
	return hash_mix64(ip ^ hash_mix64(addr ^ ((uint64_t)o << 32)));
}

static void
mem_put(struct ment *t, size_t cap, const struct ment *e)
{
	size_t i, mask = cap - 1;

	for (i = mhash(e->ip, e->addr, e->ipobj) & mask; t[i].ipobj != 0;
	    i = (i + 1) & mask)
		;
	t[i] = *e;
}

void
mem_add(uint64_t ip, uint32_t ipobj, uint64_t addr, uint32_t addrobj,
    uint64_t count)
{
	size_t i, mask;
	struct ment *t;

	if ((memn + 1) * 2 > mcap) {
		size_t ncap = mcap ? mcap * 2 : 1024;

		t = xcalloc(ncap, sizeof(*t));
		for (i = 0; i < mcap; i++)
			if (mtab[i].ipobj != 0)
				mem_put(t, ncap, &mtab[i]);
		free(mtab);
		mtab = t;
		mcap = ncap;
	}
	mask = mcap - 1;
	for (i = mhash(ip, addr, ipobj + 1) & mask; mtab[i].ipobj != 0;
	    i = (i + 1) & mask)
		if (mtab[i].ip == ip && mtab[i].addr == addr &&
		    mtab[i].ipobj == ipobj + 1 &&
		    mtab[i].addrobj == addrobj + 1) {
			if (mtab[i].count > UINT64_MAX - count)
				errx(1, "memory sample count overflows 2^64");
			mtab[i].count += count;
			return;
		}
	mtab[i] = (struct ment){ ip, addr, count, ipobj + 1, addrobj + 1 };
	memn++;
}

static int
mentcmp(const void *a, const void *b)
{
	const struct ment *x = a, *y = b;

	if (x->ipobj != y->ipobj)
		return x->ipobj < y->ipobj ? -1 : 1;
	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	if (x->addrobj != y->addrobj)
		return x->addrobj < y->addrobj ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return 0;
}

/* a location as the pre-aggregated format writes it: bare, or
 * buildid:offset for binary i */
static void
put_loc(struct wbuf *w, uint32_t obj, uint64_t a)
{
	if (obj != OBJ_PLAIN) {
		wb_puts(w, bins[OBJ_INDEX(obj)].bb.bid);
		wb_putc(w, ':');
	}
	wb_hex(w, a);
}

void
mem_write(FILE *fp)
{
	struct wbuf w;
	size_t i, n;

	for (i = n = 0; i < mcap; i++)
		if (mtab[i].ipobj != 0)
			mtab[n++] = mtab[i];
	if (n > 1)
		qsort(mtab, n, sizeof(*mtab), mentcmp);
	wb_init(&w, fp, 1 << 16);
	wb_puts(&w, "# profpipe-mem 1\n");
	/* bare locations name the one binary: its build-id lets a reader
	 * check it is given the same */
	if (!buildid_locs && nbins == 1 && bins[0].bb.bid[0] != '\0') {
		wb_puts(&w, "# buildid=");
		wb_puts(&w, bins[0].bb.bid);
		wb_putc(&w, '\n');
	}
	for (i = 0; i < n; i++) {
		wb_puts(&w, "mem ");
		put_loc(&w, mtab[i].ipobj - 1, mtab[i].ip);
		wb_putc(&w, ' ');
		put_loc(&w, mtab[i].addrobj - 1, mtab[i].addr);
		wb_putc(&w, ' ');
		wb_dec(&w, mtab[i].count);
		wb_putc(&w, '\n');
	}
	wb_free(&w);
	free(mtab);
	mtab = NULL;
	mcap = 0;
}
