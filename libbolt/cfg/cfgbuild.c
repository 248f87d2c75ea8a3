/* See COPYING file for copyright and license details. */
/*
 * cfgbuild.c: one function's graph as BOLT 19 builds it
 * (BinaryFunction::disassemble, buildCFG, postProcessIndirectBranches in
 * bolt/lib/Core/BinaryFunction.cpp), from the instructions its
 * architecture's decoder gives (cfgint.h).
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "cfgint.h"

/* offsets in ascending order (sort.h) */
#define SORT_NAME	sort64
#define SORT_TYPE	uint64_t
#define SORT_LESS(a, b)	(*(a) < *(b))
#include "sort.h"

static int
is_term(const struct insn *in)
{
	if (in->nopped)
		return 0;
	switch (in->kind) {
	case IK_JCC: case IK_JMP: case IK_IJMP: case IK_RET:
	case IK_TRAP: case IK_HLT:
		return 1;
	}
	return 0;
}

static void
add_label(struct fbuild *b, uint64_t off)
{
	cd_push64(&b->labels, &b->nlabels, &b->caplabels, off);
}

static void
add_edge(struct fbuild *b, uint64_t from, uint64_t to)
{
	xgrow(&b->edges, &b->capedges, b->nedges + 2, sizeof(*b->edges));
	b->edges[b->nedges++] = from;
	b->edges[b->nedges++] = to;
}

static void keep_sites(struct cfg *, const struct fbuild *);
static void keep_tables(struct cfg *, struct fbuild *);
static void keep_sources(struct cfg *, struct fbuild *);

/* the block starting at offset off, or -1 */
static long
block_at_start(const struct cfg *g, uint64_t off)
{
	long k = cfg_block_at(g, off);

	return k >= 0 && g->blocks[k].start == off ? k : -1;
}

/* the successor lists of the graph being built, nb blocks: each
 * block's in b->sh (head, tail, count), the entries in b->sl (target
 * block, next), in the order they are added */
static void
succ_init(struct fbuild *b, size_t nb)
{
	size_t i;

	xgrow(&b->sh, &b->capsh, 3 * nb + 3, sizeof(*b->sh));
	for (i = 0; i < nb; i++) {
		b->sh[3 * i] = b->sh[3 * i + 1] = UINT32_MAX;
		b->sh[3 * i + 2] = 0;
	}
	b->nsl = 0;
}

static int
succ_has(const struct fbuild *b, size_t fb, uint32_t tb)
{
	uint32_t e;

	for (e = b->sh[3 * fb]; e != UINT32_MAX; e = b->sl[2 * e + 1])
		if (b->sl[2 * e] == tb)
			return 1;
	return 0;
}

static void
succ_add(struct fbuild *b, size_t fb, uint32_t tb)
{
	uint32_t e = (uint32_t)b->nsl++;

	xgrow(&b->sl, &b->capsl, 2 * b->nsl, sizeof(*b->sl));
	b->sl[2 * e] = tb;
	b->sl[2 * e + 1] = UINT32_MAX;
	if (b->sh[3 * fb + 1] == UINT32_MAX)
		b->sh[3 * fb] = e;
	else
		b->sl[2 * b->sh[3 * fb + 1] + 1] = e;
	b->sh[3 * fb + 1] = e;
	b->sh[3 * fb + 2]++;
}

/* addUnknownControlFlow: block fb's successors are every offset the
 * function is referenced at (ExternallyReferencedOffsets: from data, and
 * in strict mode the targets of its jump tables), once each, in the
 * order of the offsets (a std::set) */
static void
add_refs(const struct cfgdis *d, size_t fi, struct fbuild *b,
    const struct cfg *g, long fb)
{
	size_t m, n = d->nxref[fi] + b->nreftg;
	uint64_t *all;

	if (fb < 0)
		return;
	all = xcalloc(n + 1, sizeof(*all));
	for (m = 0; m < n; m++)
		all[m] = m < d->nxref[fi] ? d->xref[fi][m] :
		    b->reftg[m - d->nxref[fi]];
	n = cd_uniq(all, n);
	for (m = 0; m < n; m++) {
		uint64_t o = all[m];
		long tb = block_at_start(g, o);

		if (tb < 0 || succ_has(b, (size_t)fb, (uint32_t)tb))
			continue;
		succ_add(b, (size_t)fb, (uint32_t)tb);
	}
	free(all);
}

/* a function BOLT ignores before it decodes it: why, or NULL */
static const char *
ignored_early(const struct cfgdis *d, size_t fi)
{
	const struct functab *ft = d->ft;
	const struct bfunc *f = &ft->f[fi];
	size_t i;

	if (f->flags & (BF_PLT | BF_PSEUDO))
		return "PLT";
	if (!ft->has_relocs && ((f->flags & BF_FRAGMENT) || f->parent != fi))
		return "a fragment without relocations";
	if (!ft->has_relocs)
		/* a parent of a fragment is ignored too */
		for (i = 0; i < ft->n; i++)
			if (ft->f[i].parent == fi && i != fi)
				return "a fragment's parent without "
				    "relocations";
	return NULL;
}

/* what makes the function non-simple before its graph, its secondary
 * entries (symbols, interprocedural references) and its landing pads */
static void
entries_and_pads(struct fbuild *b, struct cfg *g)
{
	struct cfgdis *d = b->d;
	const struct functab *ft = d->ft;
	const struct bfunc *f = b->f;
	size_t fi = (size_t)b->fi, k;
	int reloc = ft->has_relocs;
	const struct fde *fde;

	if (f->flags & BF_NONSIMPLE) {
		b->nonsimple = 1;
		g->nocfg = 1;
		g->why = "symbol or FDE conflict";
	}
	if (d->padrel[fi]) {
		b->nonsimple = 1;
		g->nocfg = 1;
		g->why = "relocation in the padding";
	}
	/* HasInternalLabelReference fails postProcessIndirectBranches,
	 * after the graph is built; the address is also an entry point, so
	 * that without relocations, outside BAT mode, the function has no
	 * graph at all (below) */
	if (d->selfref[fi]) {
		b->nonsimple = 1;
		g->why = "reference to its own code";
	}
	/* secondary entries: symbols, interprocedural references */
	for (k = functab_entries_from(ft, f->addr); k < ft->nsyms &&
	    ft->syms[k].addr < f->addr + f->maxsize; k++)
		if (ft->syms[k].addr > f->addr)
			cd_push64(&b->entries, &b->nentries, &b->capentries,
			    ft->syms[k].addr - f->addr);
	for (k = 0; k < d->nxent[fi]; k++)
		cd_push64(&b->entries, &b->nentries, &b->capentries,
		    d->xent[fi][k] - f->addr);
	b->nentries = cd_uniq(b->entries, b->nentries);
	/* postProcessEntryPoints: without relocations an entry point makes
	 * the function non-simple before its graph is built, except in BAT
	 * mode (BOLT 19 registers the known entry points for the graph) */
	if (b->nentries > 0 && !reloc && !d->bat) {
		b->nonsimple = 1;
		g->nocfg = 1;
		g->why = "secondary entry points without relocations";
	}
	/* landing pads */
	if ((fde = functab_fde(ft, f->addr)) != NULL && fde->lsda != 0)
		cd_read_lsda(b, fde->lsda);
	b->nlps = cd_uniq(b->lps, b->nlps);
}

/* labels: 0, entries, landing pads, data-referenced offsets, the
 * targets of tables only a lea names */
static void
collect_labels(struct fbuild *b)
{
	struct cfgdis *d = b->d;
	const struct bfunc *f = b->f;
	size_t fi = (size_t)b->fi, k;
	int reloc = d->ft->has_relocs;

	/* labels: 0, entries, landing pads, data-referenced offsets */
	add_label(b, 0);
	for (k = 0; k < b->nentries; k++)
		add_label(b, b->entries[k]);
	for (k = 0; k < b->nlps; k++)
		add_label(b, b->lps[k]);
	/* (an offset in a constant island names the data, no label:
	 * getOrCreateLocalLabel's island access) */
	if (reloc)
		for (k = 0; k < d->nxref[fi]; k++)
			if (d->xref[fi][k] < f->size && (d->arch->in_island ==
			    NULL || !d->arch->in_island(d, f->addr +
			    d->xref[fi][k])))
				add_label(b, d->xref[fi][k]);
	if (reloc)
		for (k = 0; k < d->nxlab[fi]; k++)
			if (d->xlab[fi][k] < f->size)
				add_label(b, d->xlab[fi][k]);
	/* the tables BOLT creates for this function; in relocation mode
	 * the entries of those only a lea names are labels and, in strict
	 * mode, referenced offsets (populateJumpTables) */
	cd_find_tables(b);
	for (k = 0; k < b->nltab; k++) {
		uint64_t *tg = NULL;
		size_t ntg = 0, captg = 0, m;

		if (cd_analyze_table(b, b->ltab[k], 1, 1, &tg, &ntg, &captg))
			for (m = 0; m < ntg; m++) {
				add_label(b, tg[m]);
				cd_push64(&b->reftg, &b->nreftg, &b->capreftg, tg[m]);
			}
		free(tg);
	}
}

/* each branch's target as a label and a taken edge, or the branch a
 * tail call; indirect jumps through their tables */
static void
branch_targets(struct fbuild *b)
{
	struct cfgdis *d = b->d;
	const struct bfunc *f = b->f;
	size_t i;

	/* branches */
	for (i = 0; i < b->nin; i++) {
		struct insn *in = &b->in[i];
		uint64_t a = in->target;

		switch (in->kind) {
		case IK_JCC:
		case IK_JMP:
			if (a >= f->addr && a - f->addr < f->size) {
				add_label(b, a - f->addr);
				add_edge(b, in->off, a - f->addr);
			} else if (a == f->addr + f->size && f->size < f->maxsize &&
			    (d->arch->veneer_at == NULL ||
			    !d->arch->veneer_at(d, a)))
				in->nopped = 1;		/* jump past end */
			else
				in->tail = 1;
			break;
		case IK_CALL:
			if (a > f->addr && a - f->addr < f->size)
				add_label(b, a - f->addr);
			break;
		case IK_IJMP: {
			uint64_t t = 0, *tg = NULL;
			size_t ntg = 0, captg = 0, m;
			int pic, r = d->arch->jump_table(b, (long)i, &t, &pic);

			if (r == IB_TABLE) {
				if (cd_analyze_table(b, t, pic, 1, &tg, &ntg,
				    &captg)) {
					for (m = 0; m < ntg; m++) {
						add_label(b, tg[m]);
						cd_push64(&b->reftg, &b->nreftg,
						    &b->capreftg, tg[m]);
						add_edge(b, in->off, tg[m]);
					}
					cd_push64(&b->jts, &b->njts, &b->capjts,
					    (uint64_t)i * 2 + (uint64_t)pic);
				} else if (pic)
					cd_push64(&b->unknown, &b->nunknown,
					    &b->capunknown, i);
				else
					in->tail = 1;
			} else if (r == IB_TAIL)
				in->tail = 1;
			else
				cd_push64(&b->unknown, &b->nunknown, &b->capunknown, i);
			free(tg);
			break;
		}
		default:
			break;
		}
	}
}

/* the blocks: a new one at each label and after each terminator, but
 * for the double jump */
static void
make_blocks(const struct fbuild *b, struct cfg *g)
{
	size_t i;
	struct cfg_block *bl = NULL;
	size_t capbl = 0, cur = SIZE_MAX;
	const struct insn *prev = NULL;
	int after_term = 0;
	size_t li = 0;

	for (i = 0; i < b->nin; i++) {
		const struct insn *in = &b->in[i];
		int newb = 0;

		/* (the labels are sorted: a cursor, not a search) */
		while (li < b->nlabels && b->labels[li] < in->off)
			li++;
		if (li < b->nlabels && b->labels[li] == in->off)
			newb = 1;
		else if (after_term) {
			/* the double jump: a jmp joins the block of a
			 * jcc (or other non-branch terminator) */
			if (in->kind == IK_JMP && !in->tail &&
			    !in->nopped && prev != NULL &&
			    !(prev->kind == IK_JMP && !prev->tail) &&
			    prev->kind != IK_RET && !prev->tail)
				newb = 0;
			else
				newb = 1;
		}
		if (newb || cur == SIZE_MAX) {
			xgrow(&bl, &capbl, g->nblocks + 1, sizeof(*bl));
			cur = g->nblocks++;
			memset(&bl[cur], 0, sizeof(bl[cur]));
			bl[cur].start = in->off;
			bl[cur].id = (uint32_t)cur;
			if (in->off == 0 || sorted_has(b->entries, b->nentries,
			    in->off))
				bl[cur].flags |= CFG_ENTRY;
			if (sorted_has(b->lps, b->nlps, in->off))
				bl[cur].flags |= CFG_LPAD;
		}
		bl[cur].end = in->off + in->size;
		bl[cur].last = in->off;
		bl[cur].ninsns++;
		after_term = is_term(in);
		prev = in;
	}
	/* data in code lies in the block before it */
	if (b->d->arch->gaps && g->nblocks > 0) {
		for (i = 0; i + 1 < g->nblocks; i++)
			bl[i].end = bl[i + 1].start;
		bl[g->nblocks - 1].end = b->f->size;
	}
	g->blocks = bl != NULL ? xreallocarray(bl, g->nblocks,
	    sizeof(*bl)) : NULL;
}

/* the successors: taken edges, then the fall-through rule */
static void
successors(struct fbuild *b, struct cfg *g)
{
	struct cfgdis *d = b->d;
	size_t fi = (size_t)b->fi, nb = g->nblocks, i;
	int reloc = d->ft->has_relocs;
	size_t e, li;

	/* postProcessIndirectBranches: a jump through a table is
	 * checked again on its block's instructions alone; where the
	 * pattern is not all there, strict mode (relocations) gives a
	 * PIC table's block every referenced offset as successors
	 * (addUnknownControlFlow), unless the function has one
	 * indirect jump and one table; otherwise the function is not
	 * simple */
	size_t nij = 0, nbad = 0;
	uint64_t *bad = NULL;
	size_t capbad = 0;

	succ_init(b, nb);
	b->nreftg = cd_uniq(b->reftg, b->nreftg);
	for (i = 0; i < b->nin; i++)
		nij += b->in[i].kind == IK_IJMP;
	for (e = 0; e < b->njts; e++) {
		long ji = (long)(b->jts[e] / 2);
		int pic = (int)(b->jts[e] & 1);

		if (d->arch->table_local(b, g, ji)) {
			b->in[ji].table = 1;
			continue;
		}
		if (!reloc || !pic) {
			/* postProcessIndirectBranches gives up: the
			 * graph stays as buildCFG made it, the table's
			 * targets among the taken branches */
			b->in[ji].table = 1;
			b->nonsimple = 1;
			g->why = "a jump table's pattern outside its block";
			continue;
		}
		if (nij == 1 && b->ntables == 1) {
			/* the table set again, its block's successors
			 * removed and added anew after all of buildCFG's
			 * edges (updateJumpTableSuccessors) */
			b->in[ji].table = 2;
			continue;
		}
		cd_push64(&bad, &nbad, &capbad, b->in[ji].off);
	}
	for (e = 0; e < b->nedges; e += 2) {
		long fb = cfg_block_at(g, b->edges[e]);

		if (nbad > 0 && sorted_has(bad, nbad, b->edges[e]))
			continue;
		long tb = -1;
		size_t lo = 0, hi = nb, m;

		while (lo < hi) {	/* block starting at the target */
			m = lo + (hi - lo) / 2;
			if (g->blocks[m].start < b->edges[e + 1])
				lo = m + 1;
			else
				hi = m;
		}
		if (lo < nb && g->blocks[lo].start == b->edges[e + 1])
			tb = (long)lo;
		if (fb < 0 || tb < 0)
			continue;
		/* the same successor once (jump tables repeat) */
		if (!succ_has(b, (size_t)fb, (uint32_t)tb))
			succ_add(b, (size_t)fb, (uint32_t)tb);
	}
	for (e = 0; e < nbad; e++)
		add_refs(d, fi, b, g, cfg_block_at(g, bad[e]));
	free(bad);
	/* unknown control flow in strict mode: the data-referenced
	 * offsets; non-strict: non-simple */
	for (e = 0; e < b->nunknown; e++) {
		const struct insn *in = &b->in[b->unknown[e]];
		long fb = cfg_block_at(g, in->off);
		size_t m;
		int epi = 0;

		if (nb == 1) {
			b->in[b->unknown[e]].tail = 1;
			continue;
		}
		for (m = 0; m < b->nin; m++)
			if (b->in[m].off >= g->blocks[fb].start &&
			    b->in[m].off < g->blocks[fb].end &&
			    d->arch->restores_frame(&b->in[m]))
				epi = 1;
		if (epi) {
			b->in[b->unknown[e]].tail = 1;
			continue;
		}
		if (!reloc) {
			b->nonsimple = 1;
			g->why = "unknown indirect jump without relocations";
			continue;
		}
		if (d->nxref[fi] == 0 && b->nreftg == 0) {
			b->in[b->unknown[e]].tail = 1;
			continue;
		}
		add_refs(d, fi, b, g, fb);
	}
	for (i = 0, li = 0; i < nb; i++) {
		struct cfg_block *bb = &g->blocks[i];
		const struct insn *last;

		/* (blocks and instructions in address order: a cursor) */
		while (b->in[li].off < bb->last)
			li++;
		last = &b->in[li];
		int falls = 0;
		int ctc = last->kind == IK_JCC && last->tail;
		uint32_t sn = b->sh[3 * i + 2];

		if (last->kind == IK_CALL || last->kind == IK_ICALL)
			bb->flags |= CFG_ENDS_CALL;
		if (last->kind == IK_RET)
			bb->flags |= CFG_ENDS_RET;
		if (last->tail)
			bb->flags |= CFG_ENDS_TAIL;
		if (sn == 0)
			falls = ctc ? 1 : !is_term(last);
		else if (sn == 1)
			falls = !ctc && last->kind == IK_JCC &&
			    !last->nopped;
		if (falls && i + 1 < nb) {
			bb->flags |= CFG_FALLS;
			succ_add(b, i, (uint32_t)(i + 1));
		}
	}
	g->succs = xcalloc(b->nsl + 1, sizeof(*g->succs));
	for (i = 0; i < nb; i++) {
		uint32_t k;

		g->blocks[i].succ = (uint32_t)g->nsuccs;
		g->blocks[i].nsucc = b->sh[3 * i + 2];
		for (k = b->sh[3 * i]; k != UINT32_MAX; k = b->sl[2 * k + 1])
			g->succs[g->nsuccs++] = b->sl[2 * k];
	}
}

struct cfg *
cd_build(struct cfgdis *d, size_t fi)
{
	const struct functab *ft = d->ft;
	const struct bfunc *f = &ft->f[fi];
	struct fbuild b;
	struct cfg *g = xcalloc(1, sizeof(*g));
	size_t k, j;
	int reloc = ft->has_relocs;

	g->addr = f->addr;
	g->size = f->size;
	if ((g->why = ignored_early(d, fi)) != NULL) {
		g->ignored = 1;
		return g;
	}
	cd_fbuild_init(&b, d, fi);
	if (d->arch->decode(d, fi, &b.in, &b.capin, &b.nin, 0) == -1 ||
	    b.nin == 0) {
		g->ignored = 1;
		g->why = "undecodable or unsupported instruction";
		goto out;
	}
	if (reloc && !d->arch->valid_padding(&b)) {
		g->ignored = 1;
		g->why = "invalid code padding";
		goto out;
	}
	entries_and_pads(&b, g);
	collect_labels(&b);
	branch_targets(&b);
	b.nlabels = cd_uniq(b.labels, b.nlabels);
	/* a label inside an instruction (both sorted: a cursor) */
	for (k = 0, j = 0; k < b.nlabels; k++) {
		while (j < b.nin && b.in[j].off < b.labels[k])
			j++;
		if (j == b.nin || b.in[j].off != b.labels[k]) {
			g->why = "a label inside an instruction";
			if (reloc) {
				g->ignored = 1;
				goto out;
			}
			b.nonsimple = 1;
			g->nocfg = 1;
		}
	}

	make_blocks(&b, g);
	successors(&b, g);
	g->simple = !b.nonsimple;
	d->stats.jtcut += b.cut;
	keep_tables(g, &b);
out:
	if (!g->ignored) {
		keep_sites(g, &b);
		keep_sources(g, &b);
	}
	if (g->ignored) {
		free(g->blocks);
		g->blocks = NULL;
		g->nblocks = 0;
		free(g->succs);
		g->succs = NULL;
		g->nsuccs = 0;
		g->simple = 0;
		d->stats.ignored++;
	} else if (!g->simple)
		d->stats.nonsimple++;
	else
		d->stats.simple++;
	cd_fbuild_done(&b);
	return g;
}

/* a working array is kept for the next build up to this size: more is
 * a rare function's, whose memory goes back (as malloc's own threshold
 * for giving it back, 128 KiB, has it) */
#define FB_KEEP		((size_t)128 << 10)

/* the arrays of struct fbuild cd_fbuild_init and cd_fbuild_done pass on
 * (fragent is the caller's: cfgdis_tables hands it out) */
#define FB_BUFS(X)							\
	X(in, capin) X(labels, caplabels) X(entries, capentries)	\
	X(lps, caplps) X(edges, capedges) X(tables, captables)		\
	X(ltab, capltab) X(unknown, capunknown) X(frag, capfrag)	\
	X(jts, capjts) X(reftg, capreftg) X(jtv, capjtv) X(sh, capsh)	\
	X(sl, capsl) X(tmp, captmp)

/* b empty, for function fi, with the spare arrays of the last build
 * done (a build within a build, func_tables', finds none and allocates
 * its own) */
void
cd_fbuild_init(struct fbuild *b, struct cfgdis *d, size_t fi)
{
	struct fbuild *s = d->spare;

	memset(b, 0, sizeof(*b));
	b->d = d;
	b->f = &d->ft->f[fi];
	b->fi = (long)fi;
	b->fragi = -1;
	if (s == NULL)
		return;
#define TAKE(a, c)	b->a = s->a; b->c = s->c; s->a = NULL; s->c = 0;
	FB_BUFS(TAKE)
#undef TAKE
}

/* b's arrays: kept for the next build where there is room, else freed */
void
cd_fbuild_done(struct fbuild *b)
{
	struct cfgdis *d = b->d;
	struct fbuild *s;

	if (d->spare == NULL)
		d->spare = xcalloc(1, sizeof(*d->spare));
	s = d->spare;
#define GIVE(a, c)							\
	if (s->a == NULL && b->c * sizeof(*b->a) <= FB_KEEP) {		\
		s->a = b->a;						\
		s->c = b->c;						\
	} else								\
		free(b->a);						\
	b->a = NULL;							\
	b->c = 0;
	FB_BUFS(GIVE)
#undef GIVE
}

void
cd_fbuild_free_spare(struct cfgdis *d)
{
	struct fbuild *s = d->spare;

	if (s == NULL)
		return;
#define FREE(a, c)	free(s->a);
	FB_BUFS(FREE)
#undef FREE
	free(s);
	d->spare = NULL;
}

static int
jtcmp(const void *a, const void *b)
{
	const struct cfg_jt *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* the tables, by address, each once */
static void
keep_tables(struct cfg *g, struct fbuild *b)
{
	size_t i, n = 0;

	if (b->njtv == 0)
		return;
	qsort(b->jtv, b->njtv, sizeof(*b->jtv), jtcmp);
	for (i = 0; i < b->njtv; i++)
		if (n == 0 || b->jtv[n - 1].addr != b->jtv[i].addr)
			b->jtv[n++] = b->jtv[i];
	g->jts = b->jtv;
	g->njts = n;
	b->jtv = NULL;
	b->njtv = b->capjtv = 0;
}

/* the branches, calls and returns of a built graph (cfg.h: cfg_site) */
static void
keep_sites(struct cfg *g, const struct fbuild *b)
{
	size_t i, n = 0;

	for (i = 0; i < b->nin; i++)
		switch (b->in[i].kind) {
		case IK_CALL: case IK_ICALL: case IK_JMP: case IK_IJMP:
		case IK_JCC: case IK_RET:
			if (!b->in[i].nopped)
				n++;
			break;
		}
	g->sites = xcalloc(n + 1, sizeof(*g->sites));
	for (i = 0; i < b->nin; i++) {
		const struct insn *in = &b->in[i];
		struct cfg_site *s = &g->sites[g->nsites];
		static const uint8_t kinds[] = {
			[IK_CALL] = CFG_SITE_CALL,
			[IK_ICALL] = CFG_SITE_ICALL,
			[IK_JMP] = CFG_SITE_JMP, [IK_IJMP] = CFG_SITE_IJMP,
			[IK_JCC] = CFG_SITE_JCC, [IK_RET] = CFG_SITE_RET,
			[IK_BAD] = 0
		};

		if (in->nopped || kinds[in->kind] == 0)
			continue;
		s->kind = kinds[in->kind];
		s->off = in->off;
		s->tail = in->tail;
		s->table = in->table;
		s->target = in->target;
		g->nsites++;
	}
}

/* the other offsets BOLT 19 takes as a branch's source
 * (DataReader::recordBranch, BinaryFunction::getInstructionAtOffset):
 * every NOP, and each block's last instruction that is no NOP (cfg.h:
 * cfg_source_kept; checked with perf2bolt-19 --pa -w on branches from
 * the first 8, the last 4 and the NOPs of every block of a
 * 3500-function program, tests/data/yamlwrite/srcgen.py) */
static void
keep_sources(struct cfg *g, struct fbuild *b)
{
	size_t i, j = 0, n = 0;
	uint64_t *v, *lastreal;

	if (g->nblocks == 0)
		return;
	/* in b->tmp: the offsets, then each block's last instruction
	 * that is no NOP */
	xgrow(&b->tmp, &b->captmp, b->nin + 2 * g->nblocks + 1,
	    sizeof(*b->tmp));
	v = b->tmp;
	lastreal = b->tmp + b->nin + g->nblocks + 1;
	for (j = 0; j < g->nblocks; j++)
		lastreal[j] = UINT64_MAX;
	j = 0;
	for (i = 0; i < b->nin; i++) {
		const struct insn *in = &b->in[i];

		while (j < g->nblocks && g->blocks[j].end <= in->off)
			j++;
		if (in->kind == IK_NOP || in->nopped)
			v[n++] = in->off;
		else if (j < g->nblocks && in->off >= g->blocks[j].start)
			lastreal[j] = in->off;
	}
	for (j = 0; j < g->nblocks; j++)
		if (lastreal[j] != UINT64_MAX && lastreal[j] != g->blocks[j].last)
			v[n++] = lastreal[j];
	sort64(v, n);
	/* kept with the graph: no larger than what it holds */
	g->srcs = xcalloc(n + 1, sizeof(*v));
	if (n > 0)
		memcpy(g->srcs, v, n * sizeof(*v));
	g->nsrcs = n;
}
