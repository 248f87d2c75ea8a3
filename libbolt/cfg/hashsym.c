/* See COPYING file for copyright and license details. */
/*
 * hashsym.c: BOLT's BinaryData and the values its hashes take of
 * symbols (hashsym.h), for every architecture.
 */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "boltbin.h"
#include "cfgint.h"
#include "hashsym.h"

int
hashsym_hashes(const struct cfgdis *d)
{
	return d->arch->hash_strings != NULL;
}

uint64_t
hashsym_strings(struct hashsym *hs, struct llvmbr_block *out)
{
	return hs->cd->arch->hash_strings(hs, out);
}

void
hashsym_free(struct hashsym *hs)
{
	free(hs->bd);
	hs->bd = NULL;
	hs->nbd = 0;
	hs->bdread = 0;
}

static int
bd_contains(const struct hs_data *d, uint64_t a)
{
	return (d->addr <= a && a < d->addr + d->size) ||
	    (d->addr == a && d->size == 0);
}

/* the symbols BOLT registers as BinaryData outside code
 * (discoverFileObjects: every symbol in memory but files, address 0
 * and the hot-text markers), the first registered at an address giving
 * the size: functions first, section symbols last, else symbol order */
struct rs {
	uint64_t	addr, size;
	size_t		idx;
	int		rank, sec;
};

#define SORT_NAME	rs_sort
#define SORT_TYPE	struct rs
#define SORT_LESS(x, y)	((x)->addr != (y)->addr ? (x)->addr < (y)->addr : \
	    (x)->rank != (y)->rank ? (x)->rank < (y)->rank : (x)->idx < (y)->idx)
#include "sort.h"
#include "search.h"

/* the symbol table's symbols BOLT registers, into *v (n of them) */
static size_t
bd_symbols(struct hashsym *hs, struct rs **v)
{
	Elf *elf = hs->bin->eo.elf;
	const struct functab *ft = &hs->bin->ft;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t n = 0, cap = 0, k, m;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *data;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_SYMTAB ||
		    sh.sh_entsize == 0 || (data = elf_getdata(scn, NULL)) == NULL)
			continue;
		m = sh.sh_size / sh.sh_entsize;
		for (k = 1; k < m; k++) {
			GElf_Sym sy;
			GElf_Shdr ss;
			Elf_Scn *sc;
			const struct fsec *fs;
			const char *nm;
			int type;

			if (gelf_getsym(data, (int)k, &sy) == NULL)
				break;
			type = GELF_ST_TYPE(sy.st_info);
			if (type == STT_FILE || sy.st_value == 0 ||
			    sy.st_shndx == SHN_UNDEF)
				continue;
			nm = elf_strptr(elf, sh.sh_link, sy.st_name);
			if (nm != NULL && (strcmp(nm, "__hot_start") == 0 ||
			    strcmp(nm, "__hot_end") == 0))
				continue;
			if (sy.st_shndx == SHN_ABS)
				fs = NULL;
			else {
				if (sy.st_shndx >= SHN_LORESERVE ||
				    (sc = elf_getscn(elf, sy.st_shndx)) == NULL ||
				    gelf_getshdr(sc, &ss) == NULL ||
				    !(ss.sh_flags & SHF_ALLOC))
					continue;
				/* code is looked up as functions */
				if (ss.sh_flags & SHF_EXECINSTR)
					continue;
				fs = functab_section(ft, sy.st_value);
			}
			xgrow(v, &cap, n + 1, sizeof(**v));
			(*v)[n].addr = sy.st_value;
			(*v)[n].size = sy.st_size;
			(*v)[n].idx = k;
			(*v)[n].rank = type == STT_FUNC ? 0 :
			    type == STT_SECTION ? 2 : 1;
			(*v)[n].sec = fs ? (int)(fs - ft->secs) : -1;
			n++;
		}
		break;
	}
	return n;
}

static void
bd_read(struct hashsym *hs)
{
	struct rs *v = NULL;
	size_t n, i;

	hs->bdread = 1;
	n = bd_symbols(hs, &v);
	rs_sort(v, n);
	hs->bd = xcalloc(n + 1, sizeof(*hs->bd));
	for (i = 0; i < n; i++) {
		struct hs_data *d;

		if (hs->nbd > 0 && hs->bd[hs->nbd - 1].addr == v[i].addr)
			continue;
		d = &hs->bd[hs->nbd];
		d->addr = v[i].addr;
		d->size = v[i].size;
		d->sec = v[i].sec;
		d->parent = -1;
		/* updateObjectNesting: the root of the one before holds it */
		if (hs->nbd > 0) {
			long r = (long)hs->nbd - 1;
			const struct hs_data *p;

			if (hs->bd[r].parent >= 0)
				r = hs->bd[r].parent;
			p = &hs->bd[r];
			if (p->sec == d->sec && bd_contains(p, d->addr) &&
			    d->addr + d->size <= p->addr + p->size)
				d->parent = r;
		}
		hs->nbd++;
	}
	free(v);
}

/* the one at or before a if it holds a, else its root if that does */
const struct hs_data *
hashsym_data(struct hashsym *hs, uint64_t a)
{
	size_t lo;
	const struct hs_data *d;

	if (!hs->bdread)
		bd_read(hs);
	SEARCH_FIRST(lo, hs->nbd, mid, hs->bd[mid].addr <= a);
	if (lo == 0)
		return NULL;
	d = &hs->bd[lo - 1];
	if (bd_contains(d, a))
		return d;
	if (d->parent >= 0 && bd_contains(&hs->bd[d->parent], a))
		return &hs->bd[d->parent];
	return NULL;
}

int
hashsym_in_table(const struct hashsym *hs, uint64_t a)
{
	size_t i;

	for (i = 0; i < hs->njt; i++)
		if ((a >= hs->jt[i].addr && a - hs->jt[i].addr < hs->jt[i].size) ||
		    (hs->jt[i].size == 0 && a == hs->jt[i].addr))
			return 1;
	return 0;
}

int
hashsym_is_table(const struct hashsym *hs, uint64_t a)
{
	size_t i;

	for (i = 0; i < hs->njt; i++)
		if (hs->jt[i].addr == a)
			return 1;
	return 0;
}

const struct bfunc *
hashsym_func_of(const struct hashsym *hs, uint64_t a)
{
	const struct bfunc *f = functab_find(&hs->bin->ft, a);

	return f != NULL && a - f->addr < f->size ? f : NULL;
}

int
hashsym_is_code(const struct hashsym *hs, uint64_t a)
{
	const struct fsec *s = functab_section(&hs->bin->ft, a);

	return s != NULL && (s->flags & SHF_EXECINSTR);
}

/* getJumpTableContainingAddress is over all of BOLT's jump tables, those
 * of every function it disassembled (in relocation mode, all), not only
 * the one being hashed: is v in another function's table?  Tables are
 * named by code (the references of cd_read_crefs), and a table's entries
 * end at the next table of the binary, so the nearest table at or below
 * v is the only one that may hold it (a leaq of kSecret-125 in a gap
 * before it, where another function's table lies, is hashed as nothing:
 * issue 39, item 12) */
static int
other_table(struct hashsym *hs, uint64_t v)
{
	struct cfgdis *d = hs->cd;
	const struct cfg *g;
	const uint64_t *t;
	size_t lo, k, n;
	uint32_t nt, j;

	if (!d->ft->has_relocs)
		return 0;
	if (!d->crefdone)
		cd_read_crefs(d);
	SEARCH_FIRST(lo, d->ncref, m, d->cref[m].addr <= v);
	for (k = lo, n = 0; k-- > 0 && n < 256; n++) {
		const struct cref *c = &d->cref[k];

		t = cd_func_tables(d, c->fi, &nt);
		for (j = 0; j < nt && t[j] != c->addr; j++)
			;
		if (j == nt)
			continue;
		if ((g = cfgdis_peek(d, c->fi)) == NULL)
			return 0;
		for (j = 0; j < g->njts; j++)
			if (g->jts[j].addr == c->addr)
				return v - c->addr < g->jts[j].size;
		return 0;
	}
	return 0;
}

void
hashsym_value(struct hashsym *hs, uint64_t v, int func,
    struct llvmbr_sym *s)
{
	s->sym = 1;
	s->hasval = !func && !hashsym_in_table(hs, v) && !other_table(hs, v);
	s->value = v;
}
