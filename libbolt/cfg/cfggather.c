/* See COPYING file for copyright and license details. */
/*
 * cfggather.c: what the graphs of the functions asked for take from the
 * rest of the binary, gathered once for all of them (cfgdis.c): the
 * relocations' entries and references, the branches into them from
 * other functions (scan_branches, through a map of the address space
 * they cover), the jump tables split across fragments.
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "cfgint.h"
#include "search.h"

static long
fidx(const struct cfgdis *d, const struct bfunc *f)
{
	return f ? (long)(f - d->ft->f) : -1;
}

/* what the relocations tell about each function: entries from other
 * functions, labels referenced from data, relocations in padding,
 * references into itself */
static void
scan_relocs(struct cfgdis *d, const uint8_t *set)
{
	const struct functab *ft = d->ft;
	size_t i;

	for (i = 0; i < d->nrel; i++) {
		const struct reloc *r = &d->rel[i];
		const struct bfunc *from = NULL, *to;
		long ti;
		uint64_t a;

		if (r->fromcode) {
			from = functab_find(ft, r->off);
			if (from == NULL)
				continue;
			if (r->off - from->addr >= from->size) {
				d->padrel[fidx(d, from)] = 1;
				continue;
			}
		}
		if (r->pcrel) {
			/* code to code, PC-relative: the disassembly finds
			 * these as branch and address references */
			if (!r->fromcode || !d->arch->reloc_branch(d, r, &a))
				continue;
			to = functab_find(ft, a);
			if (to == NULL || to == from || a == to->addr ||
			    a - to->addr >= to->size)
				continue;
			ti = fidx(d, to);
			if (set[ti])
				cd_push64(&d->xent[ti], &d->nxent[ti],
				    &d->capxent[ti], a);
			continue;
		}
		if (!d->arch->reloc_abs(r->type))
			continue;
		a = r->target;
		to = cd_func_past_end(ft, a);
		if (to == NULL || a == to->addr || a - to->addr >= to->maxsize)
			continue;
		ti = fidx(d, to);
		if (!set[ti])
			continue;
		if (from != NULL && from != to)
			cd_push64(&d->xent[ti], &d->nxent[ti], &d->capxent[ti], a);
		else {
			cd_push64(&d->xref[ti], &d->nxref[ti], &d->capxref[ti],
			    a - to->addr);
			if (from == to)
				d->selfref[ti] = 1;
		}
	}
}

/* v[0, n) in ascending order (sort.h: qsort's callbacks cost more than
 * the sorting of these short lists) */
#define SORT_NAME	sort64
#define SORT_TYPE	uint64_t
#define SORT_LESS(a, b)	(*(a) < *(b))
#include "sort.h"

size_t
cd_uniq(uint64_t *v, size_t n)
{
	size_t i, j;

	if (n == 0)
		return 0;
	sort64(v, n);
	for (i = j = 1; i < n; i++)
		if (v[i] != v[j - 1])
			v[j++] = v[i];
	return j;
}

static void
hitmap_init(struct cd_hitmap *m, const struct cfgdis *d, const uint8_t *set)
{
	const struct functab *ft = d->ft;
	size_t i;

	memset(m, 0, sizeof(*m));
	m->set = set;
	m->lo = UINT64_MAX;
	for (i = 0; i < ft->n; i++)
		if (set[i] && ft->f[i].size > 1) {
			if (ft->f[i].addr < m->lo)
				m->lo = ft->f[i].addr;
			if (ft->f[i].addr + ft->f[i].size > m->hi)
				m->hi = ft->f[i].addr + ft->f[i].size;
		}
	if (m->lo >= m->hi) {
		m->lo = m->hi = 0;
		return;
	}
	m->bits = xcalloc(((m->hi - m->lo) >> 6) / 64 + 2, sizeof(*m->bits));
	for (i = 0; i < ft->n; i++)
		if (set[i] && ft->f[i].size > 1) {
			uint64_t c = (ft->f[i].addr + 1 - m->lo) >> 6,
			    e = (ft->f[i].addr + ft->f[i].size - 1 - m->lo) >> 6;

			for (; c <= e; c++)
				m->bits[c / 64] |= (uint64_t)1 << (c % 64);
		}
}

/* may [a, a + 4] touch a function of the set */
int
cd_hitmap_near(const struct cd_hitmap *m, uint64_t a)
{
	uint64_t c, e;

	if (m->bits == NULL || a + 4 <= m->lo || a >= m->hi)
		return 0;
	c = a > m->lo ? (a - m->lo) >> 6 : 0;
	e = (a + 4 - m->lo) >> 6;
	for (; c <= e; c++)
		if (c < ((m->hi - m->lo) >> 6) + 1 &&
		    (m->bits[c / 64] & ((uint64_t)1 << (c % 64))))
			return 1;
	return 0;
}

/* is a inside (not at the start of) a function of the set */
int
cd_hitmap_has(const struct cd_hitmap *m, const struct functab *ft, uint64_t a)
{
	const struct bfunc *f;
	uint64_t c;

	if (m->bits == NULL || a <= m->lo || a >= m->hi)
		return 0;
	c = (a - m->lo) >> 6;
	if (!(m->bits[c / 64] & ((uint64_t)1 << (c % 64))))
		return 0;
	return (f = functab_find(ft, a)) != NULL && m->set[f - ft->f] &&
	    a != f->addr && a - f->addr < f->size;
}

/* processInterproceduralReferences: a direct branch or call from one
 * function into the middle of another makes an entry point there, for
 * the functions of set.  In relocation mode every function is
 * disassembled: the code of those whose bytes may refer into the set
 * (cfg_arch.may_refer) is decoded.  Without relocations, BOLT's lite
 * mode disassembles only the functions with samples: the set's own code
 * makes entries, in any function not gathered yet. */
static void
scan_branches(struct cfgdis *d, const uint8_t *set, int all)
{
	const struct functab *ft = d->ft;
	size_t fi, k, nin;
	struct cd_hitmap m;
	int reloc = ft->has_relocs;
	uint64_t u0;

	memset(&m, 0, sizeof(m));
	if (reloc && !all && d->arch->may_refer != NULL)
		hitmap_init(&m, d, set);
	else
		all = 1;
	for (fi = 0; fi < ft->n; fi++) {
		const struct bfunc *f = &ft->f[fi], *to;

		if (f->flags & (BF_PLT | BF_PSEUDO))
			continue;
		if (!set[fi] && (!reloc ||
		    (!all && !d->arch->may_refer(d, f, &m))))
			continue;
		u0 = d->stats.undecodable;
		d->arch->decode(d, fi, &d->scratch, &d->capscratch, &nin,
		    set[fi]);
		/* gathered ahead: counted when asked for (ahead_count) */
		if (d->aheadgather && d->stats.undecodable != u0) {
			d->stats.undecodable = u0;
			d->undec[fi] = 1;
		}
		for (k = 0; k < nin; k++) {
			const struct insn *in = &d->scratch[k];
			uint64_t t = in->target;
			size_t ti;

			/* an operand, not a branch's target (on AArch64 a
			 * return may have one, retaasppc's label) */
			int op = in->kind == IK_OTHER ||
			    (in->ripref && in->kind == IK_RET);

			if (in->slow && in->kind == IK_OTHER &&
			    d->arch->pcref(d, f->addr + in->off, in->size, &t))
				;
			else if (in->kind != IK_JMP && in->kind != IK_JCC &&
			    in->kind != IK_CALL && !in->riplea && !in->ripref)
				continue;
			/* with relocations, a relocated operand is read from
			 * its relocation (UsedReloc), not as an address (the
			 * relocation lies in the instruction's bytes: after
			 * x86's opcode, at AArch64's word) */
			if (op && reloc &&
			    cfgdis_reloc_in(d, f->addr + in->off,
			    f->addr + in->off + in->size))
				continue;
			/* handleAddressRef: an address in a constant island
			 * (AArch64), its function's or another's, is an
			 * access to it and nothing else */
			if (op && d->arch->in_island != NULL &&
			    d->arch->in_island(d, t))
				continue;
			/* handleAddressRef, for every PC-relative operand
			 * (handlePCRelOperand: loads and stores as well as
			 * lea): an address of its own code makes a function
			 * non-simple, and the address an entry point
			 * (addEntryPointAtOffset); on AArch64 up to MaxSize */
			if (op && t > f->addr && t - f->addr <
			    (d->arch->self_maxsize ? f->maxsize : f->size)) {
				if (set[fi]) {
					d->selfref[fi] = 1;
					cd_push64(&d->xent[fi], &d->nxent[fi],
					    &d->capxent[fi], t);
				}
				continue;
			}
			to = functab_find(ft, t);
			if (to == NULL || to == f || t == to->addr ||
			    t - to->addr >= to->size)
				continue;
			ti = (size_t)(to - ft->f);
			if (reloc ? !set[ti] : d->done[ti])
				continue;
			cd_push64(&d->xent[ti], &d->nxent[ti], &d->capxent[ti], t);
		}
	}
	free(m.bits);
}

/* the entries split jump tables make in other fragments of a function:
 * the graphs of the parents and fragments of the set's functions (and
 * of the functions of the set that are one) are built once to find
 * them (in_fragment records them), then dropped */
static void
split_tables(struct cfgdis *d, const uint8_t *set)
{
	const struct functab *ft = d->ft;
	struct cfgdis_stats st = d->stats;
	uint8_t *fam, *rel;
	size_t i, p;

	if (!ft->has_relocs)
		return;		/* fragments and parents are ignored */
	/* the families (by parent) with a function of the set */
	fam = xcalloc(ft->n + 1, 1);
	rel = xcalloc(ft->n + 1, 1);
	for (i = 0; i < ft->n; i++)
		if (set[i] && ft->f[i].parent < ft->n)
			fam[ft->f[i].parent] = 1;
	for (i = 0; i < ft->n; i++)
		if ((ft->f[i].flags & BF_FRAGMENT) &&
		    (p = ft->f[i].parent) < ft->n && p != i && fam[p])
			rel[i] = rel[p] = 1;
	d->splitpass = 1;
	for (i = 0; i < ft->n; i++)
		if (rel[i]) {
			struct cfg *g = cd_build(d, i);

			cfg_free(g);
			free(g);
		}
	d->splitpass = 0;
	d->stats = st;
	free(fam);
	free(rel);
}

/* the facts the graphs of the functions asked for and not gathered yet
 * take from the rest of the binary */
void
cd_gather(struct cfgdis *d)
{
	const struct functab *ft = d->ft;
	uint8_t *set = xcalloc(ft->n + 1, 1);
	size_t i;
	int all = 1;

	for (i = 0; i < ft->n; i++) {
		set[i] = d->need[i] && !d->done[i];
		all &= set[i];
	}
	if (ft->has_relocs && d->arch->scan_relocs == NULL)
		scan_relocs(d, set);
	scan_branches(d, set, all);
	split_tables(d, set);
	if (!ft->has_relocs)
		cd_lite_tables(d, set);
	for (i = 0; i < ft->n; i++)
		d->done[i] |= set[i];
	d->scanned = 1;
	free(set);
	/* scan_branches' decoding, as large as the largest function's: a
	 * gather again is rare */
	free(d->scratch);
	d->scratch = NULL;
	d->capscratch = 0;
	/* the passes over every function's code are done: what stays in
	 * memory of the file is what the graphs read from now on */
	elfobj_release(d->eo);
	elfobj_random(d->eo);
	d->unreleased = 0;
}

