/* See COPYING file for copyright and license details. */
/*
 * hash.c: the function and block hashes perf2bolt writes into YAML
 * (YAMLProfileWriter::convert: BinaryFunction::computeHash in layout
 * order without operands, computeBlockHashes with them), for the
 * functions yamlwrite writes, one at a time when they are written.
 *
 * The strings come from the release's MC layer through the bridge
 * (libbolt/llvm/llvmbr.h), what BOLT's disassembly knows of the rest of
 * the binary from the architecture's part of libbolt (hashsym.h:
 * cfg/x86/x86sym.c, cfg/a64/a64sym.c).  Here the graph's part: the block hash blends
 * (StaleProfileMatching.cpp, BlendedBlockHash) the block's offset, its
 * loose opcode hash, its instruction hash and the opcode hashes of its
 * predecessors and successors, in the order BOLT adds the edges
 * (buildCFG: taken branches sorted by source and target, then the
 * fall-throughs).
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "boltbin.h"
#include "cfg.h"
#include "hashsym.h"
#include "llvmbr.h"
#include "yamlwrite.h"

struct ywh {
	struct hashsym	 hs;		/* the bridge, the binary's symbols,
					 * the function being hashed */
	int		 has;		/* 0: no hashes (0) */
	/* the jump tables of the function being hashed and of its
	 * fragments or parent */
	struct cfg_jt	*jt;
	size_t		 njt, capjt;
	/* per block */
	struct llvmbr_block *bh;
	size_t		 capbh;
	uint32_t	*order, *cnt;	/* successors in BOLT's order */
	size_t		 caporder, capcnt;
	uint64_t	*ph;		/* per block: predecessors' hash */
	size_t		 capph;
	uint8_t		*late;		/* per block: late() */
	size_t		 caplate;
	/* the fragments of each function: frag[fragat[i] .. fragat[i+1]) */
	uint32_t	*fragat, *frag;
	/* hashes made ahead (ywh_ahead), per function until ywh_func
	 * takes them; inahead: the graphs it reads are built ahead too */
	struct ywh_ahead *ah;
	int		 inahead;
};

struct ywh_ahead {
	uint64_t	 fh;
	uint64_t	*bh;		/* NULL: none made */
	size_t		 nb;
	uint64_t	 undecoded;	/* what it added to undecoded */
};

/* ------------------------------------------------------------------ */

struct ywh *
ywh_open(struct boltbin *bin, struct cfgdis *cd, enum llvm_rel rel,
    int stdhash, char *err, size_t errlen)
{
	int has = hashsym_hashes(cd);
	struct llvmbr *br = NULL;
	struct ywh *h;

	/* other targets: no hashes (0) */
	if (has && (br = llvmbr_open(rel, bin->eo.machine, err, errlen)) ==
	    NULL)
		return NULL;
	h = xcalloc(1, sizeof(*h));
	h->hs.bin = bin;
	h->hs.cd = cd;
	h->hs.br = br;
	h->hs.rel = rel;
	h->hs.stdhash = stdhash;
	h->has = has;
	return h;
}

void
ywh_close(struct ywh *h)
{
	if (h == NULL)
		return;
	llvmbr_close(h->hs.br);
	hashsym_free(&h->hs);
	free(h->jt);
	free(h->bh);
	free(h->order);
	free(h->cnt);
	free(h->ph);
	if (h->ah != NULL)
		for (size_t i = 0; i < h->hs.bin->ft.n; i++)
			free(h->ah[i].bh);
	free(h->ah);
	free(h->late);
	free(h->fragat);
	free(h->frag);
	free(h);
}

uint64_t
ywh_undecoded(const struct ywh *h)
{
	return h->hs.undecoded;
}

static void
add_tables(struct ywh *h, size_t fi)
{
	const struct cfg *g = h->inahead ? cfgdis_build_ahead(h->hs.cd, fi) :
	    cfgdis_get(h->hs.cd, fi);

	xgrow(&h->jt, &h->capjt, h->njt + g->njts + 1, sizeof(*h->jt));
	if (g->njts)
		memcpy(h->jt + h->njt, g->jts, g->njts * sizeof(*g->jts));
	h->njt += g->njts;
}

/* how block b's edges were added: 0 taken branches and the
 * fall-through (buildCFG), 1 after all of buildCFG's
 * (postProcessIndirectBranches: unknown control flow, or a jump table
 * set again, updateJumpTableSuccessors); the blocks
 * they go to in BOLT's order into order[] from n: taken branches by
 * source then target (a table's targets by offset), then the
 * fall-through; the referenced offsets in order */
static int
late(const struct cfg *g, size_t b, int *ijmp)
{
	const struct cfg_block *bb = &g->blocks[b];
	size_t k;

	*ijmp = 0;
	for (k = cfg_site_from(g, bb->start); k < g->nsites &&
	    g->sites[k].off < bb->end; k++)
		if (g->sites[k].kind == CFG_SITE_IJMP && !g->sites[k].tail) {
			*ijmp = 1;
			return g->sites[k].table != 1;
		}
	return 0;
}

static size_t
succ_order(struct ywh *h, const struct cfg *g, size_t b, size_t n, int ijmp)
{
	const struct cfg_block *bb = &g->blocks[b];
	size_t k, m, s0 = n;
	long t;

	xgrow(&h->order, &h->caporder, n + bb->nsucc + 2, sizeof(*h->order));
	if (ijmp) {
		for (k = 0; k < bb->nsucc; k++) {
			uint32_t v = g->succs[bb->succ + k];

			if ((bb->flags & CFG_FALLS) && k + 1 == bb->nsucc)
				break;
			for (m = n; m > s0 && h->order[m - 1] > v; m--)
				h->order[m] = h->order[m - 1];
			h->order[m] = v;
			n++;
		}
	} else {
		for (k = cfg_site_from(g, bb->start); k < g->nsites &&
		    g->sites[k].off < bb->end; k++) {
			const struct cfg_site *st = &g->sites[k];

			if (st->tail || (st->kind != CFG_SITE_JCC &&
			    st->kind != CFG_SITE_JMP))
				continue;
			if (st->target < g->addr ||
			    (t = cfg_block_at(g, st->target - g->addr)) < 0 ||
			    g->blocks[t].start != st->target - g->addr)
				continue;
			xgrow(&h->order, &h->caporder, n + bb->nsucc + 2,
			    sizeof(*h->order));
			h->order[n++] = (uint32_t)t;
		}
	}
	if (bb->flags & CFG_FALLS) {
		xgrow(&h->order, &h->caporder, n + 1, sizeof(*h->order));
		h->order[n++] = (uint32_t)(b + 1);
	}
	return n;
}

/* each function's fragments, in table order (a count per parent, then
 * the fragments placed): one pass, not one over the table per function */
static void
frag_index(struct ywh *h)
{
	const struct functab *ft = &h->hs.bin->ft;
	size_t i;

	h->fragat = xcalloc(ft->n + 2, sizeof(*h->fragat));
	h->frag = xcalloc(ft->n + 1, sizeof(*h->frag));
	for (i = 0; i < ft->n; i++)
		if (ft->f[i].parent != i && ft->f[i].parent < ft->n &&
		    (ft->f[i].flags & BF_FRAGMENT))
			h->fragat[ft->f[i].parent + 2]++;
	for (i = 0; i < ft->n; i++)
		h->fragat[i + 2] += h->fragat[i + 1];
	for (i = 0; i < ft->n; i++)
		if (ft->f[i].parent != i && ft->f[i].parent < ft->n &&
		    (ft->f[i].flags & BF_FRAGMENT))
			h->frag[h->fragat[ft->f[i].parent + 1]++] =
			    (uint32_t)i;
}

static uint64_t hash_func(struct ywh *, size_t, const struct cfg *,
	    uint64_t *);

uint64_t
ywh_func(struct ywh *h, size_t fi, const struct cfg *g, uint64_t *out)
{
	struct ywh_ahead *a;
	uint64_t fh;

	if (g == NULL || g->nblocks == 0)
		return 0;
	if (!h->has) {
		memset(out, 0, g->nblocks * sizeof(*out));
		return 0;
	}
	/* made ahead: taken once, as if made now */
	if (h->ah != NULL && (a = &h->ah[fi])->bh != NULL &&
	    a->nb == g->nblocks) {
		memcpy(out, a->bh, a->nb * sizeof(*out));
		h->hs.undecoded += a->undecoded;
		fh = a->fh;
		free(a->bh);
		memset(a, 0, sizeof(*a));
		return fh;
	}
	return hash_func(h, fi, g, out);
}

void
ywh_ahead(struct ywh *h, size_t fi, const struct cfg *g)
{
	struct ywh_ahead *a;
	uint64_t u0 = h->hs.undecoded;

	if (g == NULL || g->nblocks == 0 || !h->has ||
	    fi >= h->hs.bin->ft.n)
		return;
	if (h->ah == NULL)
		h->ah = xcalloc(h->hs.bin->ft.n + 1, sizeof(*h->ah));
	a = &h->ah[fi];
	if (a->bh != NULL)
		return;
	a->bh = xcalloc(g->nblocks, sizeof(*a->bh));
	a->nb = g->nblocks;
	h->inahead = 1;
	a->fh = hash_func(h, fi, g, a->bh);
	h->inahead = 0;
	a->undecoded = h->hs.undecoded - u0;
	h->hs.undecoded = u0;
}

static uint64_t
hash_func(struct ywh *h, size_t fi, const struct cfg *g, uint64_t *out)
{
	const struct functab *ft = &h->hs.bin->ft;
	const struct bfunc *f = &ft->f[fi];
	const struct llvmbr *br = h->hs.br;
	size_t a, b, k, n;
	uint64_t fh;

	h->njt = 0;
	add_tables(h, fi);
	if (f->parent != fi)
		add_tables(h, f->parent);
	if (h->fragat == NULL)
		frag_index(h);
	for (k = h->fragat[fi]; k < h->fragat[fi + 1]; k++)
		add_tables(h, h->frag[k]);
	h->hs.f = f;
	h->hs.g = g;
	h->hs.jt = h->jt;
	h->hs.njt = h->njt;
	xgrow(&h->bh, &h->capbh, g->nblocks, sizeof(*h->bh));
	/* the strings, block by block in layout order */
	fh = hashsym_strings(&h->hs, h->bh);
	/* the edges in BOLT's order: successors, then each block's
	 * predecessors in the order the edges into it were added */
	xgrow(&h->cnt, &h->capcnt, g->nblocks + 1, sizeof(*h->cnt));
	xgrow(&h->late, &h->caplate, g->nblocks + 1, sizeof(*h->late));
	n = 0;
	for (b = 0; b < g->nblocks; b++) {
		int ij;

		h->cnt[b] = (uint32_t)n;
		h->late[b] = (uint8_t)late(g, b, &ij);
		n = succ_order(h, g, b, n, ij);
	}
	h->cnt[g->nblocks] = (uint32_t)n;
	/* predecessors' hashes in the order the edges were added: the
	 * taken ones, from the blocks in layout order, then the
	 * fall-throughs */
	xgrow(&h->ph, &h->capph, g->nblocks, sizeof(*h->ph));
	memset(h->ph, 0, g->nblocks * sizeof(*h->ph));
	for (a = 0; a < g->nblocks; a++) {
		if (h->late[a])
			continue;
		for (k = h->cnt[a]; k < h->cnt[a + 1]; k++)
			if (!((g->blocks[a].flags & CFG_FALLS) &&
			    k + 1 == h->cnt[a + 1]))
				h->ph[h->order[k]] = llvmbr_hash16(br, 
				    h->ph[h->order[k]], h->bh[a].opcode);
	}
	for (a = 0; a + 1 < g->nblocks; a++)
		if (g->blocks[a].flags & CFG_FALLS)
			h->ph[a + 1] = llvmbr_hash16(br, h->ph[a + 1],
			    h->bh[a].opcode);
	for (a = 0; a < g->nblocks; a++) {
		if (!h->late[a])
			continue;
		for (k = h->cnt[a]; k < h->cnt[a + 1]; k++)
			h->ph[h->order[k]] = llvmbr_hash16(br, h->ph[h->order[k]],
			    h->bh[a].opcode);
	}
	for (b = 0; b < g->nblocks; b++) {
		const struct cfg_block *bb = &g->blocks[b];
		uint64_t sh = 0, ph = h->ph[b], oh, ih, sv, pv;

		for (k = h->cnt[b]; k < h->cnt[b + 1]; k++)
			sh = llvmbr_hash16(br, sh, h->bh[h->order[k]].opcode);
		if (h->hs.stdhash) {
			ih = llvmbr_hash_value(br, h->bh[b].instr);
			oh = llvmbr_hash_value(br, h->bh[b].opcode);
			sv = llvmbr_hash_value(br, sh);
			pv = llvmbr_hash_value(br, ph);
		} else {
			ih = h->bh[b].instr;
			oh = h->bh[b].opcode;
			sv = sh;
			pv = ph;
		}
		out[b] = (bb->start & 0xffff) | (oh & 0xffff) << 16 |
		    (ih & 0xffff) << 32 | (pv & 0xff) << 48 | (sv & 0xff) << 56;
	}
	return fh;
}
