/* See COPYING file for copyright and license details. */
/* ktab.c: the keyed table's growth (ktab.h). */
#include <err.h>
#include <string.h>

#include "util.h"
#include "bigmem.h"
#include "ktab.h"

void
ktab_init(struct ktab *t, size_t recsz, size_t mincap,
    uint64_t (*hash)(const void *))
{
	memset(t, 0, sizeof(*t));
	t->recsz = recsz;
	t->mincap = mincap;
	t->hash = hash;
}

void
ktab_grow(struct ktab *t)
{
	size_t i, j, mask;
	uint64_t h;

	big_free(t->idx, t->cap, sizeof(*t->idx));
	t->cap = t->cap ? t->cap * 2 : t->mincap;
	t->idx = big_zalloc(t->cap, sizeof(*t->idx));
	mask = t->cap - 1;
	for (i = 0; i < t->n; i++) {
		h = t->hash(ktab_at(t, i));
		for (j = h & mask; t->idx[j] != 0; j = (j + 1) & mask)
			;
		t->idx[j] = KTAB_FP(h) | (uint64_t)(i + 1);
	}
}

void *
ktab_append(struct ktab *t, size_t j, uint64_t h)
{
	void *r;

	if (t->n >= KTAB_MAX)
		errx(1, "more than %zu distinct keys in one table",
		    (size_t)KTAB_MAX);
	big_grow(&t->v, &t->capv, t->n + 1, t->recsz);
	r = ktab_at(t, t->n);
	memset(r, 0, t->recsz);
	t->idx[j] = KTAB_FP(h) | (uint64_t)(t->n + 1);
	t->n++;
	return r;
}

void
ktab_drop_index(struct ktab *t)
{
	big_free(t->idx, t->cap, sizeof(*t->idx));
	t->idx = NULL;
	t->cap = 0;
}

void
ktab_free(struct ktab *t)
{
	ktab_drop_index(t);
	big_free(t->v, t->capv, t->recsz);
	t->v = NULL;
	t->n = t->capv = 0;
}
