/* See COPYING file for copyright and license details. */
/*
 * bbcfg.c: a cfg.h graph from a function of a decoded basic-block address
 * map (bbcfg.h says what the map tells and the graph keeps).  The
 * successor IDs of the PGO analysis map are the compiler's
 * MBB.successors() (AsmPrinter::emitBBAddrMapSection), base IDs of blocks
 * of the same function; a path-cloned function can repeat a base ID, and
 * the first block with it is taken then.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "bbcfg.h"

struct ord {			/* a block in address order */
	uint64_t	addr;
	uint32_t	bb;		/* index in map.bbs */
	uint32_t	range;		/* the function's range number */
	uint32_t	layout;		/* the function's layout index */
	uint32_t	off;		/* from the range's base */
};

static int
ordcmp(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;

	/* ranges by base, then blocks by offset, then in layout order
	 * (empty blocks share an offset with the next).  In a map clang
	 * wrote, offsets grow in layout order; a damaged one can wrap the
	 * 32-bit offsets as LLVM's decoder does, and the graph stays in
	 * address order */
	if (x->range != y->range)
		return x->addr < y->addr ? -1 : x->addr > y->addr ? 1 :
		    x->range < y->range ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->layout < y->layout ? -1 : x->layout > y->layout;
}

#define SORT_NAME	sort_ords
#define SORT_TYPE	struct ord
#define SORT_LESS(a, b)	(ordcmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

/* is j already a successor of i (cfg_is_succ lives in cfgdis.c, which
 * would pull Capstone into every program of the map) */
static int
has_succ(const struct cfg *g, uint32_t i, uint32_t j)
{
	uint32_t k;

	for (k = 0; k < g->blocks[i].nsucc; k++)
		if (g->succs[g->blocks[i].succ + k] == j)
			return 1;
	return 0;
}

#define NONE	UINT32_MAX

/* the layout index of the first block with ID id, NONE if none: byid
 * holds id << 32 | layout index, sorted */
static uint32_t
first_with_id(const uint64_t *byid, uint32_t n, uint32_t id)
{
	uint64_t key = (uint64_t)id << 32;
	uint32_t a = 0, z = n, mid;

	while (a < z) {
		mid = a + (z - a) / 2;
		if (byid[mid] < key)
			a = mid + 1;
		else
			z = mid;
	}
	return a < n && byid[a] >> 32 == id ? (uint32_t)byid[a] : NONE;
}

static int
idcmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

#define SORT_NAME	sort_ids
#define SORT_TYPE	uint64_t
#define SORT_LESS(a, b)	(idcmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

void
bbcfg_build(const struct bam_map *m, size_t fi, struct cfg *g, uint32_t *bbout,
    struct bbcfg_stats *st)
{
	const struct bam_func *f = &m->funcs[fi];
	struct ord *o;
	uint64_t *byid, lo, hi;
	uint32_t *pos, r, k, n, i, j, s, id, nb, l2;
	size_t cap = 0;
	int known;

	memset(g, 0, sizeof(*g));
	g->addr = m->ranges[f->range].base;
	if (f->nbb == 0) {
		g->why = f->feature & BAM_F_OMITBB ? "the map omits its blocks" :
		    "no blocks in the map";
		return;
	}
	nb = f->nbb;
	o = xcalloc(nb, sizeof(*o));
	n = 0;
	lo = UINT64_MAX;
	hi = 0;
	for (r = 0; r < f->nrange; r++) {
		const struct bam_range *rg = &m->ranges[f->range + r];

		if (rg->nbb && rg->base < lo)
			lo = rg->base;
		for (k = 0; k < rg->nbb; k++, n++) {
			const struct bam_bb *b = &m->bbs[rg->bb + k];

			o[n].addr = rg->base;
			o[n].bb = rg->bb + k;
			o[n].range = r;
			o[n].layout = n;
			o[n].off = b->off;
		}
	}
	/* o[].addr is the range's base until here */
	sort_ords(o, nb);
	g->addr = lo;
	g->simple = 1;
	g->nblocks = nb;
	g->blocks = xcalloc(nb, sizeof(*g->blocks));
	pos = xcalloc(nb, sizeof(*pos));	/* layout index -> block */
	byid = xcalloc(nb, sizeof(*byid));	/* id << 32 | layout index */
	for (i = 0; i < nb; i++) {
		const struct bam_bb *b = &m->bbs[o[i].bb];
		struct cfg_block *c = &g->blocks[i];

		/* from the lowest part: no wrap past 2^64 with any base */
		c->start = o[i].addr - lo + b->off;
		c->end = c->start + b->size;
		if (c->end > hi)
			hi = c->end;
		c->last = c->end;
		c->id = b->id;
		c->flags = CFG_LAST_UNKNOWN;
		if (o[i].layout == 0)
			c->flags |= CFG_ENTRY;
		if ((b->md & BAM_MD_RET) && !(b->md & BAM_MD_TAIL))
			c->flags |= CFG_ENDS_RET;
		if (b->md & BAM_MD_TAIL)
			c->flags |= CFG_ENDS_TAIL;
		if (b->md & BAM_MD_EHPAD)
			c->flags |= CFG_LPAD;
		if (b->md & BAM_MD_FALLS)
			c->flags |= CFG_FALLS;
		if (b->md & BAM_MD_INDIRECT)
			c->flags |= CFG_ENDS_INDIRECT;
		if (b->ncs && m->cs[b->cs + b->ncs - 1] == b->size)
			c->flags |= CFG_ENDS_CALL;
		pos[o[i].layout] = i;
		byid[i] = (uint64_t)b->id << 32 | o[i].layout;
		if (bbout)
			bbout[i] = o[i].bb;
	}
	g->size = hi;
	sort_ids(byid, nb);

	/* successors: the map's list (with BrProb), then the fall-through
	 * to the next block of the same range if not listed */
	known = (f->feature & BAM_F_BRPROB) && f->npgo == nb;
	for (i = 0; i < nb; i++) {
		struct cfg_block *c = &g->blocks[i];
		uint32_t l = o[i].layout;

		c->succ = (uint32_t)g->nsuccs;
		if (known) {
			const struct bam_pgobb *pb = &m->pgo[f->pgo + l];

			c->flags |= CFG_SUCCS_KNOWN;
			for (s = 0; s < pb->nsucc; s++) {
				id = m->succs[pb->succ + s].id;
				if ((l2 = first_with_id(byid, nb, id)) == NONE) {
					if (st)
						st->badsucc++;
					continue;
				}
				j = pos[l2];
				if (has_succ(g, i, j))
					continue;
				xgrow(&g->succs, &cap, g->nsuccs + 1,
				    sizeof(*g->succs));
				g->succs[g->nsuccs++] = j;
				c->nsucc++;
			}
		}
		/* the fall-through: the next block of the range in layout
		 * order, when it is also the next in address order */
		if ((c->flags & CFG_FALLS) && i + 1 < nb &&
		    o[i + 1].range == o[i].range &&
		    o[i + 1].layout == l + 1 && !has_succ(g, i, i + 1)) {
			xgrow(&g->succs, &cap, g->nsuccs + 1, sizeof(*g->succs));
			g->succs[g->nsuccs++] = i + 1;
			c->nsucc++;
		}
	}
	free(o);
	free(pos);
	free(byid);
}

void
bbcfg_free(struct cfg *g)
{
	free(g->blocks);
	free(g->succs);
	g->blocks = NULL;
	g->succs = NULL;
	g->nblocks = g->nsuccs = 0;
}
