/* See COPYING file for copyright and license details. */
/*
 * cfgjt.c: jump tables as BOLT 19 finds and bounds them
 * (BinaryContext::analyzeJumpTable and populateJumpTables in
 * bolt/lib/Core/BinaryContext.cpp), whatever the architecture: its
 * decoder finds the table an indirect jump reads (cfg_arch.jump_table),
 * these read the entries.
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "cfgint.h"
#include "search.h"

/* the (address, size) pairs of cfgdis's dsym, by address (stable: an
 * address's pairs in the symbol table's order) */
struct dsym {
	uint64_t	addr, size;
};
#define SORT_NAME	sort_dsyms
#define SORT_TYPE	struct dsym
#define SORT_LESS(a, b)	((a)->addr < (b)->addr)
#define SORT_STABLE
#include "sort.h"

int
cd_data_section(const struct cfgdis *d, uint64_t a, const struct fsec **ps)
{
	const struct fsec *s = functab_section(d->ft, a);

	*ps = s;
	return s != NULL;
}

/* does v lie at an instruction of a fragment of the function being
 * built, or of its parent when it is a fragment (analyzeJumpTable's
 * split jump tables: an entry there counts, but gives no edge) */
static int
in_fragment(struct fbuild *b, uint64_t v)
{
	const struct functab *ft = b->d->ft;
	const struct bfunc *tf = functab_find(ft, v);
	size_t ti, lo;

	if (tf == NULL || tf == b->f || v - tf->addr >= tf->size)
		return 0;
	ti = (size_t)(tf - ft->f);
	if (!((tf->flags & BF_FRAGMENT) && tf->parent == (size_t)b->fi) &&
	    !((b->f->flags & BF_FRAGMENT) && b->f->parent == ti))
		return 0;
	if (b->fragi != (long)ti) {
		b->fragi = (long)ti;
		b->fragok = b->d->arch->decode(b->d, ti, &b->frag, &b->capfrag, &b->nfrag,
		    0) == 0;
	}
	if (b->d->splitpass && v != tf->addr)
		/* postProcessJumpTables: a table's target in another
		 * fragment is an entry point of that fragment */
		cd_push64(&b->d->xent[ti], &b->d->nxent[ti], &b->d->capxent[ti],
		    v);
	if (!b->fragok)
		return 1;	/* not disassembled: BOLT checks nothing */
	SEARCH_FIRST(lo, b->nfrag, m, tf->addr + b->frag[m].off < v);
	return lo < b->nfrag && tf->addr + b->frag[lo].off == v;
}

/* the end of the data object a symbol with a size starts at a, or 0
 * (BinaryContext::getBinaryDataAtAddress: symbols of allocatable data
 * sections, the largest size of those at one address) */
static uint64_t
data_sym_end(struct cfgdis *d, uint64_t a)
{
	size_t lo, m;

	if (!d->dsymdone) {
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;
		size_t cap = 0, n = 0;

		d->dsymdone = 1;
		while ((scn = elf_nextscn(d->eo->elf, scn)) != NULL) {
			Elf_Data *sd;
			size_t k, ns;

			if (gelf_getshdr(scn, &sh) == NULL ||
			    sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0 ||
			    (sd = elf_getdata(scn, NULL)) == NULL)
				continue;
			ns = sh.sh_size / sh.sh_entsize;
			for (k = 1; k < ns; k++) {
				GElf_Sym sy;
				const struct fsec *fs;
				int ty;

				if (gelf_getsym(sd, (int)k, &sy) == NULL)
					break;
				ty = GELF_ST_TYPE(sy.st_info);
				if (sy.st_size == 0 || ty == STT_SECTION ||
				    ty == STT_FILE || sy.st_shndx == SHN_UNDEF ||
				    sy.st_shndx >= SHN_LORESERVE || sy.st_value == 0 ||
				    (fs = functab_section(d->ft, sy.st_value)) == NULL ||
				    (fs->flags & SHF_EXECINSTR))
					continue;
				cd_push64(&d->dsym, &n, &cap, sy.st_value);
				cd_push64(&d->dsym, &n, &cap, sy.st_size);
			}
			break;
		}
		d->ndsym = n / 2;
		if (d->ndsym > 1)
			sort_dsyms((struct dsym *)(void *)d->dsym, d->ndsym);
	}
	SEARCH_FIRST(lo, d->ndsym, j, d->dsym[2 * j] < a);
	if (lo >= d->ndsym || d->dsym[2 * lo] != a)
		return 0;
	for (m = lo; m + 1 < d->ndsym && d->dsym[2 * (m + 1)] == a; m++)
		if (d->dsym[2 * (m + 1) + 1] > d->dsym[2 * lo + 1])
			d->dsym[2 * lo + 1] = d->dsym[2 * (m + 1) + 1];
	return a + d->dsym[2 * lo + 1];
}

static int
crefcmp(const void *a, const void *b)
{
	const struct cref *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->fi < y->fi ? -1 : x->fi > y->fi;
}

#define SORT_NAME	sort_crefs
#define SORT_TYPE	struct cref
#define SORT_LESS(a, b)	(crefcmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

/* relocation mode: the references of code to data, by the address they
 * name (cfg_arch.reloc_data_ref).  Every table of a function is named
 * so. */
void
cd_read_crefs(struct cfgdis *d)
{
	const struct functab *ft = d->ft;
	size_t i, cap = 0;

	d->crefdone = 1;
	for (i = 0; i < d->nrel; i++) {
		const struct reloc *r = &d->rel[i];
		const struct bfunc *f;
		const struct fsec *s;
		uint64_t a;

		if (!r->fromcode || !d->arch->reloc_data_ref(r, &a))
			continue;
		if ((s = functab_section(ft, a)) == NULL ||
		    (s->flags & SHF_EXECINSTR) || s->type == SHT_NOBITS ||
		    (f = functab_find(ft, r->off)) == NULL)
			continue;
		xgrow(&d->cref, &cap, d->ncref + 1, sizeof(*d->cref));
		d->cref[d->ncref++] = (struct cref){ a, (uint32_t)(f - ft->f) };
	}
	if (d->ncref > 1)
		sort_crefs(d->cref, d->ncref);
}

/* the tables function fi dispatches through, as BOLT creates them while
 * disassembling it (processIndirectBranch, handleAddressRef) */
const uint64_t *
cd_func_tables(struct cfgdis *d, size_t fi, uint32_t *n)
{
	if (!d->jtknown[fi]) {
		struct fbuild b;
		int sp = d->splitpass;

		cd_fbuild_init(&b, d, fi);
		d->splitpass = 0;
		if (!(b.f->flags & (BF_PLT | BF_PSEUDO)) &&
		    d->arch->decode(d, fi, &b.in, &b.capin, &b.nin, 0) == 0)
			cd_find_tables(&b);	/* records them */
		d->splitpass = sp;
		d->jtknown[fi] = 1;
		cd_code_read(d, b.f->size);
		cd_fbuild_done(&b);
	}
	*n = d->njt[fi];
	return d->jt[fi];
}

/* without relocations: the tables of the set's functions join those
 * that bound each other (lite mode: BOLT disassembles only these) */
void
cd_lite_tables(struct cfgdis *d, const uint8_t *set)
{
	size_t i;
	uint32_t k, nt;

	for (i = 0; i < d->ft->n; i++) {
		const uint64_t *v;

		if (!set[i])
			continue;
		v = cd_func_tables(d, i, &nt);
		for (k = 0; k < nt; k++) {
			xgrow(&d->ltabs, &d->capltabs, d->nltabs + 1,
			    sizeof(*d->ltabs));
			d->ltabs[d->nltabs++] = (struct cref){ v[k],
			    (uint32_t)i };
		}
	}
	if (d->nltabs > 1)
		sort_crefs(d->ltabs, d->nltabs);
}

/* populateJumpTables: the next jump table of the binary after t, below
 * ub, or 0.  In relocation mode every function is disassembled and the
 * tables of all of them count; without relocations (lite mode) those of
 * this function */
static uint64_t
next_table(struct fbuild *b, uint64_t t, uint64_t ub, int *other)
{
	struct cfgdis *d = b->d;
	uint64_t nx = 0;
	size_t k, lo;
	uint32_t nt;

	for (k = 0; k < b->ntables; k++)
		if (b->tables[k] > t && b->tables[k] < ub &&
		    (nx == 0 || b->tables[k] < nx))
			nx = b->tables[k];
	*other = 0;
	if (nx != 0)
		ub = nx;
	if (!d->ft->has_relocs) {
		/* the tables of the functions lite mode disassembles */
		SEARCH_FIRST(lo, d->nltabs, m, d->ltabs[m].addr <= t);
		for (k = lo; k < d->nltabs && d->ltabs[k].addr < ub; k++)
			if (d->ltabs[k].fi != (uint32_t)b->fi) {
				*other = 1;
				return d->ltabs[k].addr;
			}
		return nx;
	}
	if (!d->crefdone)
		cd_read_crefs(d);
	SEARCH_FIRST(lo, d->ncref, m, d->cref[m].addr <= t);
	for (k = lo; k < d->ncref && d->cref[k].addr < ub; k++) {
		const uint64_t *v;

		if (d->cref[k].fi == (uint32_t)b->fi)
			continue;
		v = cd_func_tables(d, d->cref[k].fi, &nt);
		if (sorted_has(v, nt, d->cref[k].addr)) {
			*other = 1;
			return d->cref[k].addr;
		}
	}
	return nx;
}

/* 1: a table of type pic at t, with its targets (function offsets) added
 * to out (BinaryContext::analyzeJumpTable).  Its entries end at the end
 * of its section, of the data symbol that starts at t, and, when final
 * (populateJumpTables, after every function is disassembled), at the
 * next jump table of the binary; otherwise (analyzeMemoryAt, while the
 * function is disassembled) at neither table */
int
cd_analyze_table(struct fbuild *b, uint64_t t, int pic, int final,
    uint64_t **out, size_t *nout, size_t *capout)
{
	const struct fsec *s;
	const uint8_t *p;
	uint64_t avail, ub, ea, v, esz = pic ? 4 : 8;
	size_t real = 0, unreach = 0, start = *nout, nent = 0, trimmed = 0;
	size_t fstart0 = b->nfragent, ri;
	const struct bfunc *f = b->f;
	int reloc = b->d->ft->has_relocs, other = 0, cut = 0, fstart = 0;
	const struct bfunc *past;

	if (!cd_data_section(b->d, t, &s))
		return 0;
	ub = s->addr + s->size;
	if ((v = data_sym_end(b->d, t)) != 0 && v < ub)
		ub = v;
	if ((p = cd_sec_bytes(b->d, t, &avail)) == NULL)
		return 0;
	if (avail < ub - t)
		ub = t + avail;
	if (final) {
		/* the entries go no further than their relocations: another
		 * table starts no later than where those end */
		uint64_t e = t;

		ri = reloc ? cd_reloc_from(b->d, t) : 0;
		if (reloc)
			for (; e + esz <= ub; e += esz) {
				const struct reloc *r = cd_reloc_next(b->d,
				    &ri, e);

				if (r == NULL || r->pcrel != pic)
					break;
			}
		else
			e = ub;
		if ((v = next_table(b, t, e, &other)) != 0 && v < ub) {
			ub = v;
			cut = other;
		}
	}
	ri = reloc ? cd_reloc_from(b->d, t) : 0;
	for (ea = t; ea + esz <= ub; ea += esz) {
		if (reloc) {
			const struct reloc *r = cd_reloc_next(b->d, &ri, ea);

			if (pic && (r == NULL || !r->pcrel))
				break;
			if (!pic && (r == NULL || r->pcrel))
				break;
		}
		if (pic)
			v = t + (uint64_t)(int64_t)(int32_t)ld32(p + (ea - t), 0);
		else
			v = ld64(p + (ea - t), 0);
		if (v == f->addr + f->size) {
			unreach++;
			nent++;
			continue;
		}
		/* the function's start: an entry, which alone does not make
		 * a table */
		if (v == f->addr) {
			fstart = 1;
			cd_push64(out, nout, capout, 0);
			trimmed = ++nent;
			continue;
		}
		if (v > f->addr && v - f->addr < f->size) {
			if (cd_insn_at(b, v - f->addr) < 0)
				break;
			real++;
			cd_push64(out, nout, capout, v - f->addr);
		} else if (in_fragment(b, v)) {
			real++;		/* a split table: no edge */
			if (b->wantfrag)
				cd_push64(&b->fragent, &b->nfragent,
				    &b->capfragent, v);
		}
		else
			break;
		trimmed = ++nent;
	}
	/* a normal table's trailing __builtin_unreachable entries are
	 * dropped where a function starts at that address */
	if (!pic && trimmed != nent &&
	    (past = functab_find(b->d->ft, f->addr + f->size)) != NULL &&
	    past->addr == f->addr + f->size)
		nent = trimmed;
	b->jtent = nent;
	if (cut && ea == ub) {
		/* would the first entry of the next function's table,
		 * read as one of this table, have been taken? */
		v = t + (uint64_t)(int64_t)(int32_t)ld32(p + (ea - t), 0);
		if (!pic)
			v = ld64(p + (ea - t), 0);
		if (v == f->addr + f->size || (v > f->addr &&
		    v - f->addr < f->size && cd_insn_at(b, v - f->addr) >= 0))
			b->cut++;
	}
	if (real + (unreach > 0 || fstart) < 2)
		b->nfragent = fstart0;
	if (real + (unreach > 0 || fstart) >= 2) {
		xgrow(&b->jtv, &b->capjtv, b->njtv + 1, sizeof(*b->jtv));
		b->jtv[b->njtv].addr = t;
		b->jtv[b->njtv++].size = ea - t;
		return 1;
	}
	*nout = start;
	return 0;
}

/* the tables BOLT creates while it disassembles the function: those its
 * indirect jumps read (processIndirectBranch: the pattern, and
 * analyzeMemoryAt finds a table of that type there) and, in relocation
 * mode, any PC-relative lea of what reads as a PIC table (handleAddressRef
 * catches "jump table references outside of the basic block containing
 * the indirect jump"), those in b->ltab too; b->tables, sorted, also
 * kept as the function's in the binary's list.  0 */
int
cd_find_tables(struct fbuild *b)
{
	struct cfgdis *d = b->d;
	uint64_t *tg = NULL;
	size_t i, ntg = 0, captg = 0, nt0;

	for (i = 0; i < b->nin; i++) {
		uint64_t t;
		int pic;

		ntg = 0;
		if (b->in[i].kind == IK_IJMP &&
		    d->arch->jump_table(b, (long)i, &t, &pic) == IB_TABLE &&
		    cd_analyze_table(b, t, pic, 0, &tg, &ntg, &captg))
			cd_push64(&b->tables, &b->ntables, &b->captables, t);
	}
	b->ntables = cd_uniq(b->tables, b->ntables);
	nt0 = b->ntables;
	if (d->ft->has_relocs)
		for (i = 0; i < b->nin; i++) {
			const struct fsec *s;
			uint64_t t = b->in[i].target;

			ntg = 0;
			if (!b->in[i].riplea || !cd_data_section(d, t, &s) ||
			    s->type == SHT_NOBITS ||
			    sorted_has(b->tables, nt0, t) ||
			    !cd_analyze_table(b, t, 1, 0, &tg, &ntg, &captg))
				continue;
			cd_push64(&b->tables, &b->ntables, &b->captables, t);
			cd_push64(&b->ltab, &b->nltab, &b->capltab, t);
		}
	free(tg);
	b->ntables = cd_uniq(b->tables, b->ntables);
	b->nltab = cd_uniq(b->ltab, b->nltab);
	if (!d->jtknown[b->fi]) {
		d->jtknown[b->fi] = 1;
		d->njt[b->fi] = (uint32_t)b->ntables;
		if (b->ntables > 0) {
			d->jt[b->fi] = xcalloc(b->ntables, sizeof(uint64_t));
			memcpy(d->jt[b->fi], b->tables,
			    b->ntables * sizeof(uint64_t));
		}
	}
	return 0;
}
