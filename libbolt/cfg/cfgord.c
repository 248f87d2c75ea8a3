/* See COPYING file for copyright and license details. */
/*
 * cfgord.c: the ordinary form of batmap's translation, for the writers
 * (fdatawrite, yamlwrite).  batmap writes a pair of blocks BOLT's layout
 * made adjacent, and a conditional tail call or a double jump BOLT
 * removed, as a branch from an input instruction that is no branch (the
 * start of the block, where BAT maps no input instruction, or the last
 * it maps there).  llvm-bolt takes such a source only in the
 * boltedcollection form; these find the input branch it reads the same
 * way in the ordinary form (fdatawrite(1), batmap(1)).
 */
#include <stdint.h>

#include "util.h"
#include "cfg.h"

/* fo's block in g, when g is a simple graph and fo lies in a block and
 * is not the block's branch (or return); else -1 */
static long
mid_block(const struct cfg *g, uint64_t fo)
{
	const struct cfg_site *s;
	long fb;

	if (g == NULL || g->ignored || !g->simple ||
	    (fb = cfg_block_at(g, fo)) < 0)
		return -1;
	if (g->blocks[fb].last == fo && (s = cfg_site_at(g, fo)) != NULL &&
	    s->kind != CFG_SITE_CALL)
		return -1;
	return fb;
}

/* llvm-bolt reads the line from the first block's last instruction as it
 * reads the boltedcollection one: the edge when the second block is a
 * successor, the two edges through the first block's fall-through
 * successor when that one leads there.  A branch from a block's start to
 * itself (two BOLTed blocks of one input block, which llvm-bolt ignores
 * in both forms) stays as given. */
uint64_t
cfg_pair_source(const struct cfg *g, uint64_t faddr, uint64_t fo,
    uint64_t to)
{
	const struct cfg_site *s;
	long fb, tb;

	if (fo == to || (fb = mid_block(g, fo)) < 0 ||
	    (tb = cfg_block_at(g, to)) < 0 || g->blocks[tb].start != to)
		return UINT64_MAX;
	/* a call may be the last instruction BAT maps in its block; a
	 * recursive one (to its own target) or an indirect one is a call */
	if ((s = cfg_site_at(g, fo)) != NULL && (s->kind != CFG_SITE_CALL ||
	    s->target == faddr + to))
		return UINT64_MAX;
	return g->blocks[fb].last;
}

/* one line of the same count, which llvm-bolt reads as it reads the
 * boltedcollection form's: an entry into the callee (the function's
 * branch count), no count on the edge to the successor */
uint64_t
cfg_tail_source(const struct cfg *g, uint64_t fo, uint64_t taddr)
{
	const struct cfg_site *s, *e;
	const struct cfg_block *b;
	long fb;
	uint32_t k;

	if ((fb = mid_block(g, fo)) < 0 || cfg_site_at(g, fo) != NULL)
		return UINT64_MAX;
	b = &g->blocks[fb];
	e = cfg_site_at(g, b->last);
	if (e != NULL && (e->tail ||
	    (e->kind != CFG_SITE_JCC && e->kind != CFG_SITE_JMP)))
		return UINT64_MAX;
	for (k = 0; k < b->nsucc; k++) {
		const struct cfg_block *x = &g->blocks[g->succs[b->succ + k]];

		if ((s = cfg_site_at(g, x->last)) == NULL ||
		    s->kind != CFG_SITE_JMP || !s->tail || s->target != taddr)
			continue;
		return e != NULL ? b->last : x->last;
	}
	return UINT64_MAX;
}
