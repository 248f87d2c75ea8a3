/* See COPYING file for copyright and license details. */
/*
 * graph.c: a function's profile on the control-flow graph perf2bolt-19
 * builds by disassembly (libbolt/cfg/cfgdis.c), and that profile as
 * YAMLProfileWriter::convert (19) writes it.  Both paths use it: main.c
 * for every function of a plain binary, bat.c for the functions of a
 * BOLTed binary that have no BAT tables (code BOLT left in place), which
 * perf2bolt-19's writeBATYAML converts the same way.  What differs
 * between the two, the callee a call site names (BAT translates calls
 * into functions with tables), comes in through struct ywg_callees.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "cfg.h"
#include "yamlwrite.h"

const struct cfg *
ywg_graph(struct cfgdis *cd, size_t fi)
{
	const struct cfg *g = cfgdis_get(cd, fi);

	return g->ignored || g->nocfg || g->nblocks == 0 ? NULL : g;
}

struct ywg_prof *
ywg_prof_new(const struct cfg *g)
{
	struct ywg_prof *p = xcalloc(1, sizeof(*p));

	if (g != NULL) {
		p->bexec = xcalloc(g->nblocks, sizeof(*p->bexec));
		p->ecnt = xcalloc(g->nsuccs + 1, sizeof(*p->ecnt));
		p->emis = xcalloc(g->nsuccs + 1, sizeof(*p->emis));
	}
	return p;
}

void
ywg_prof_free(struct ywg_prof *p)
{
	if (p == NULL)
		return;
	free(p->bexec);
	free(p->ecnt);
	free(p->emis);
	free(p);
}

long
ywg_edge(const struct cfg *g, size_t i, size_t j)
{
	uint32_t k;

	for (k = 0; k < g->blocks[i].nsucc; k++)
		if (g->succs[g->blocks[i].succ + k] == j)
			return (long)(g->blocks[i].succ + k);
	return -1;
}

int
ywg_branch(const struct cfg *g, struct ywg_prof *p, uint64_t from,
    uint64_t to, uint64_t count, uint64_t mis)
{
	const struct cfg_site *s;
	long fb, tb, e;
	const struct cfg_block *b;

	if (g == NULL || (fb = cfg_block_at(g, from)) < 0 ||
	    (tb = cfg_block_at(g, to)) < 0)
		return 0;
	if (from == to || g->blocks[fb].nsucc == 0)
		return 1;
	b = &g->blocks[tb];
	if (to != b->start) {
		/* into the NOPs past a block's last instruction: the next
		 * block; the "jcc; jmp" of old fdata: nothing */
		s = cfg_site_at(g, b->last);
		if (to == b->last && s != NULL && s->kind == CFG_SITE_JMP &&
		    !s->tail)
			return 1;
		if (to <= b->last || (size_t)tb + 1 >= g->nblocks)
			return 0;
		tb++;
	}
	/* BOLT keeps the offsets of branches, calls and returns only, and
	 * finds NOPs and a block's last instruction (and its last that is
	 * no NOP) too: a branch from any other instruction is dropped
	 * (libbolt/cfg/cfgdis.c: cfg_source_kept).  Hardware records
	 * branches from branches only; batmap writes some from other
	 * instructions */
	if ((s = cfg_site_at(g, from)) == NULL && !cfg_source_kept(g, from))
		return 0;
	if ((e = ywg_edge(g, (size_t)fb, (size_t)tb)) < 0) {
		const struct cfg_block *fbb = &g->blocks[fb];
		long ft, e2;

		/* a recursive call or a return from one */
		if ((g->blocks[tb].flags & CFG_ENTRY) && s != NULL &&
		    (s->kind == CFG_SITE_CALL || s->kind == CFG_SITE_ICALL ||
		    (s->kind == CFG_SITE_JMP && s->tail) ||
		    (s->kind == CFG_SITE_JCC && s->tail) ||
		    s->kind == CFG_SITE_IJMP))
			return 1;
		/* through the fall-through successor of a conditional
		 * block that only jumps on */
		if (fbb->nsucc != 2)
			return 0;
		ft = g->succs[fbb->succ + 1];
		if (g->blocks[ft].nsucc != 1 ||
		    (e2 = ywg_edge(g, (size_t)ft, (size_t)tb)) < 0)
			return 0;
		p->ecnt[e2] += count;
		if (count)
			p->emis[e2] += mis;
		tb = ft;
		e = ywg_edge(g, (size_t)fb, (size_t)tb);
	}
	p->ecnt[e] += count;
	if (count)
		p->emis[e] += mis;
	return 1;
}

void
ywg_entry(const struct cfg *g, struct ywg_prof *p, uint64_t size,
    uint64_t to, uint64_t count)
{
	long b;

	if (to > size)
		return;
	if (to == 0) {
		p->exec += count;
		if (g != NULL)
			p->bexec[0] += count;
	} else if (g != NULL && (b = cfg_block_at(g, to)) >= 0 &&
	    g->blocks[b].start == to && (g->blocks[b].flags & CFG_ENTRY))
		p->bexec[b] += count;
}

static int
sortcallcmp(const void *a, const void *b)
{
	const struct ywg_sortcall *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	if (r != 0)
		return r;
	return x->c.off < y->c.off ? -1 : x->c.off > y->c.off;
}

void
ywg_convert(const struct cfg *g, const struct ywg_prof *p,
    const struct ywg_call *cs, size_t ncs, const struct ywg_callees *ce,
    const uint64_t *bhash, struct ywg_buf *bu, struct yw_func *yf)
{
	size_t i, k, s, ci = 0;
	uint32_t bi;

	yf->nblk = 0;
	if (g == NULL)
		return;
	xgrow(&bu->in, &bu->capin, g->nblocks, sizeof(*bu->in));
	memset(bu->in, 0, g->nblocks * sizeof(*bu->in));
	for (i = 0; i < g->nblocks; i++)
		for (k = 0; k < g->blocks[i].nsucc; k++)
			bu->in[g->succs[g->blocks[i].succ + k]] +=
			    p->ecnt[g->blocks[i].succ + k];
	xgrow(&bu->blocks, &bu->capblocks, g->nblocks, sizeof(*bu->blocks));
	/* first pass: the calls and successors of every block go into
	 * bu->calls and bu->succ; blocks point into them afterwards */
	bu->ncalls = bu->nsucc = 0;
	/* the sites are by offset, as the blocks: one walk over both */
	s = 0;
	for (bi = 0; bi < g->nblocks; bi++) {
		const struct cfg_block *b = &g->blocks[bi];
		struct yw_block *yb = &bu->blocks[yf->nblk];
		size_t c0 = bu->ncalls, s0 = bu->nsucc;
		uint64_t sum = 0;

		memset(yb, 0, sizeof(*yb));
		yb->bid = bi;
		yb->insns = b->ninsns;
		yb->hash = bhash ? bhash[bi] : 0;
		yb->exec = p->bexec[bi];
		/* the call sites: calls, tail calls and indirect jumps */
		while (s < g->nsites && g->sites[s].off < b->start)
			s++;
		for (; s < g->nsites && g->sites[s].off < b->end; s++) {
			const struct cfg_site *st = &g->sites[s];
			size_t nsc = 0, m;
			uint64_t cnt = 0, mis = 0;

			if (!(st->kind == CFG_SITE_CALL ||
			    st->kind == CFG_SITE_ICALL ||
			    st->kind == CFG_SITE_IJMP ||
			    (st->kind == CFG_SITE_JMP && st->tail) ||
			    (st->kind == CFG_SITE_JCC && st->tail)))
				continue;
			while (ci < ncs && cs[ci].off < st->off)
				ci++;
			if (st->kind == CFG_SITE_ICALL ||
			    st->kind == CFG_SITE_IJMP) {
				/* CallProfile: a target per destination */
				for (m = ci; m < ncs && cs[m].off == st->off;
				    m++) {
					struct ywg_sortcall *x;

					xgrow(&bu->sc, &bu->capsc, nsc + 1,
					    sizeof(*bu->sc));
					x = &bu->sc[nsc++];
					memset(x, 0, sizeof(*x));
					x->name = "";
					if (cs[m].tf != 0)
						ce->indirect(ce->arg,
						    cs[m].tf - 1, &x->c,
						    &x->name);
					x->c.off = (uint32_t)(st->off - b->start);
					x->c.cnt = cs[m].cnt;
					x->c.mis = cs[m].mis;
				}
			} else {
				for (m = ci; m < ncs && cs[m].off == st->off;
				    m++) {
					cnt += cs[m].cnt;
					mis += cs[m].mis;
				}
				if (cnt == 0)
					continue;
				xgrow(&bu->sc, &bu->capsc, 1, sizeof(*bu->sc));
				memset(&bu->sc[0], 0, sizeof(bu->sc[0]));
				nsc = 1;
				bu->sc[0].name = "";
				ce->direct(ce->arg, st->target, &bu->sc[0].c,
				    &bu->sc[0].name);
				bu->sc[0].c.off = (uint32_t)(st->off - b->start);
				bu->sc[0].c.cnt = cnt;
				/* mispredictions only for conditional tail
				 * calls (CTCMispredCount) */
				bu->sc[0].c.mis = st->kind == CFG_SITE_JCC ?
				    mis : 0;
			}
			if (nsc > 1)
				qsort(bu->sc, nsc, sizeof(*bu->sc),
				    sortcallcmp);
			xgrow(&bu->calls, &bu->capcalls, bu->ncalls + nsc,
			    sizeof(*bu->calls));
			for (m = 0; m < nsc; m++)
				bu->calls[bu->ncalls++] = bu->sc[m].c;
		}
		yb->ncalls = bu->ncalls - c0;
		yb->calls = (struct yw_call *)(uintptr_t)c0;
		for (k = 0; k < b->nsucc; k++)
			sum += p->ecnt[b->succ + k];
		if (yb->ncalls == 0 && !(b->flags & CFG_ENTRY) &&
		    !((b->flags & CFG_LPAD) && yb->exec != 0) && sum == 0 &&
		    bu->in[bi] == 0) {
			bu->ncalls = c0;
			continue;
		}
		xgrow(&bu->succ, &bu->capsucc, bu->nsucc + b->nsucc + 1,
		    sizeof(*bu->succ));
		for (k = 0; k < b->nsucc; k++) {
			struct yw_succ *ys = &bu->succ[bu->nsucc++];

			ys->bid = g->succs[b->succ + k];
			ys->cnt = p->ecnt[b->succ + k];
			ys->mis = p->emis[b->succ + k];
		}
		yb->nsucc = bu->nsucc - s0;
		yb->succ = (struct yw_succ *)(uintptr_t)s0;
		yf->nblk++;
	}
	for (i = 0; i < yf->nblk; i++) {
		bu->blocks[i].calls = bu->calls + (uintptr_t)bu->blocks[i].calls;
		bu->blocks[i].succ = bu->succ + (uintptr_t)bu->blocks[i].succ;
	}
	yf->blocks = bu->blocks;
}

void
ywg_buf_free(struct ywg_buf *bu)
{
	free(bu->blocks);
	free(bu->calls);
	free(bu->succ);
	free(bu->in);
	free(bu->sc);
	memset(bu, 0, sizeof(*bu));
}
