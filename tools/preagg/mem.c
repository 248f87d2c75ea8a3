/* See COPYING file for copyright and license details. */
/*
 * mem.c: the memory samples preagg -M writes, a profpipe-mem(5) stream:
 * the (ip, data address) pairs of the selected binaries' samples of
 * memory events, summed in a keyed table (ktab.h) that grows with the
 * distinct pairs, and written sorted.
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preagg.h"

struct ment {
	uint64_t	ip, addr, count;
	uint32_t	ipobj, addrobj;
};

static uint64_t
mhash(uint64_t ip, uint64_t addr, uint32_t o)
{
	return hash_mix64(ip ^ hash_mix64(addr ^ ((uint64_t)o << 32)));
}

static uint64_t
ment_hash(const void *p)
{
	const struct ment *e = p;

	return mhash(e->ip, e->addr, e->ipobj + 1);
}

static int
ment_eq(const void *p, const void *q)
{
	const struct ment *x = p, *y = q;

	return x->ip == y->ip && x->addr == y->addr && x->ipobj == y->ipobj &&
	    x->addrobj == y->addrobj;
}

/* the pairs, summed (ktab.h) */
static struct ktab mtab = {
	.recsz = sizeof(struct ment), .mincap = 1024, .hash = ment_hash
};
size_t memn;

void
mem_add(uint64_t ip, uint32_t ipobj, uint64_t addr, uint32_t addrobj,
    uint64_t count)
{
	struct ment k = { ip, addr, 0, ipobj, addrobj }, *e;
	int added;

	e = ktab_get(&mtab, &k, mhash(ip, addr, ipobj + 1), ment_eq, &added);
	if (added) {
		*e = k;
		memn++;
	}
	if (e->count > UINT64_MAX - count)
		errx(1, "memory sample count overflows 2^64");
	e->count += count;
}

static int
mentcmp(const struct ment *x, const struct ment *y)
{
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

/* written sorted (sort.h) */
#define SORT_NAME	sort_ments
#define SORT_TYPE	struct ment
#define SORT_LESS(a, b)	(mentcmp(a, b) < 0)
#include "sort.h"

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
	struct ment *v;
	size_t i, n = mtab.n;

	ktab_drop_index(&mtab);
	v = mtab.v;
	sort_ments(v, n);
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
		put_loc(&w, v[i].ipobj, v[i].ip);
		wb_putc(&w, ' ');
		put_loc(&w, v[i].addrobj, v[i].addr);
		wb_putc(&w, ' ');
		wb_dec(&w, v[i].count);
		wb_putc(&w, '\n');
	}
	wb_free(&w);
	ktab_free(&mtab);
}
