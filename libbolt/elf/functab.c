/* See COPYING file for copyright and license details. */
/*
 * functab.c: the functions of an ELF binary as BOLT 19 discovers them,
 * step for step after RewriteInstance::discoverFileObjects (symbol order,
 * NameResolver numbering, aliases, secondary entries, FDE sizes),
 * disassemblePLT (name@PLT), the FDE-only functions and
 * adjustFunctionBoundaries (MaxSize, zero sizes), and registerFragments.
 * .eh_frame is parsed here with every read bounds-checked.  On AArch64
 * the mapping symbols ($x, $d) are no functions, labels or entries but
 * marks of code and data (kept in ft->marks), and the PLT entries are
 * found by decoding (disassemblePLTSectionAArch64).
 */
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ftint.h"
#include "a64dec.h"

/*
 * The names the table makes (name/N, name@PLT, ...) live in an arena of
 * chunks freed together: a malloc and a free for each of a hundred
 * thousand names, and their headers, cost more than the names.
 */
#define FT_CHUNK	((size_t)64 << 10)

/* n bytes of arena a */
static char *
arena_alloc(struct ftarena *a, size_t n)
{
	char *p;

	if (n > a->left) {
		size_t sz = n > FT_CHUNK / 4 ? n : FT_CHUNK;

		p = xmalloc(sz);
		xgrow(&a->chunks, &a->cap, a->n + 1, sizeof(*a->chunks));
		a->chunks[a->n++] = p;
		if (sz == n)
			return p;	/* a chunk of its own */
		a->next = p;
		a->left = sz;
	}
	p = a->next;
	a->next += n;
	a->left -= n;
	return p;
}

void
ft_arena_free(struct ftarena *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free(a->chunks[i]);
	free(a->chunks);
	memset(a, 0, sizeof(*a));
}

static char *
ft_alloc(struct functab *ft, size_t n)
{
	return arena_alloc(&ft->arena, n);
}

/* a copy of s[0, n) in arena a */
char *
ft_astr(struct ftarena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* a copy of s[0, n) in the table's arena */
char *
ft_str(struct functab *ft, const char *s, size_t n)
{
	return ft_astr(&ft->arena, s, n);
}

/* a, b and c one after the other, in the arena (c may be NULL) */
/* with FT_BOUNDS, the names not formed */
static char noname[1];

char *
ft_cat(struct functab *ft, const char *a, const char *b, const char *c)
{
	size_t la, lb, lc;
	char *p;

	if (ft->bounds)
		return noname;
	la = strlen(a);
	lb = strlen(b);
	lc = c ? strlen(c) : 0;
	p = ft_alloc(ft, la + lb + lc + 1);

	memcpy(p, a, la);
	memcpy(p + la, b, lb);
	if (lc > 0)
		memcpy(p + la + lb, c, lc);
	p[la + lb + lc] = '\0';
	return p;
}

char *
ft_keepf(struct functab *ft, const char *fmt, ...)
{
	va_list ap;
	char buf[256], *s;
	int n;

	if (ft->bounds)
		return noname;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)		/* past INT_MAX bytes: no name we keep */
		return noname;
	if ((size_t)n < sizeof(buf))
		return ft_str(ft, buf, (size_t)n);
	s = ft_alloc(ft, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

/* NameResolver::uniquify: name/N, N counting per name from 1.  The
 * counters are keyed by the names where they are (libelf's or the
 * arena's: both outlive the discovery) */
char *
ft_uniquify(struct disc *d, const char *name)
{
	char num[24], *e = num + sizeof(num);
	uint64_t v;
	uint32_t k;

	if (d->ft->bounds)
		return noname;
	k = strtab_intern_ref(&d->cnames, name, strlen(name));
	xgrow(&d->ccount, &d->ccap, (size_t)k + 1, sizeof(*d->ccount));
	if (k >= d->cn) {
		d->ccount[k] = 0;
		d->cn = (size_t)k + 1;
	}
	v = ++d->ccount[k];
	*--e = '\0';
	do
		*--e = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	return ft_cat(d->ft, name, "/", e);
}

/* ------------------------------------------------------------------ */
/* sections */

static int
seccmp(const void *a, const void *b)
{
	const struct fsec *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->size < y->size ? -1 : x->size > y->size;
}

/* a section and its index before the sort (ties keep the ELF order) */
struct fsec_at {
	struct fsec	s;
	size_t		from;
};

static int
secatcmp(const void *a, const void *b)
{
	const struct fsec_at *x = a, *y = b;
	int c = seccmp(&x->s, &y->s);

	if (c != 0)
		return c;
	return x->from < y->from ? -1 : x->from > y->from;
}

/* BinaryContext::getSectionForAddress: the last section starting at or
 * before a that contains it (non-empty sections only) */
const struct fsec *
functab_section(const struct functab *ft, uint64_t a)
{
	size_t lo = 0, hi = ft->nsecs, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (ft->secs[m].addr <= a)
			lo = m + 1;
		else
			hi = m;
	}
	while (lo-- > 0) {
		const struct fsec *s = &ft->secs[lo];

		if (a >= s->addr && a - s->addr < s->size)
			return s;
		if (s->addr + s->size <= a && lo > 0 &&
		    ft->secs[lo - 1].addr + ft->secs[lo - 1].size <= s->addr)
			break;
	}
	return NULL;
}

/* registerNameAtAddress(name, addr, size), or, name NULL,
 * setBinaryDataSize(addr, size) */
void
ft_reg(struct functab *ft, const char *name, uint64_t addr, uint64_t size)
{
	if (ft->bounds)
		return;
	xgrow(&ft->regs, &ft->capregs, ft->nregs + 1, sizeof(*ft->regs));
	ft->regs[ft->nregs++] = (struct freg){ addr, size, name };
}

/* registerName in discoverFileObjects: the name, then the alternative */
void
ft_reg2(struct functab *ft, const char *uname, const char *alt, uint64_t addr,
    uint64_t size)
{
	ft_reg(ft, uname, addr, size);
	if (alt != NULL)
		ft_reg(ft, alt, addr, size);
}

static int
fsymcmp(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->func < y->func ? -1 : x->func > y->func;
}

/* ------------------------------------------------------------------ */
/* names */

/* the first function of a name keeps it */
static void
name_insert(struct functab *ft, const char *name, uint32_t idx)
{
	uint32_t n = ft->names.n;
	uint32_t k;

	ft->names.byref = 1;	/* the names where they are: no copy */
	k = strtab_intern_ref(&ft->names, name, strlen(name));

	if (k < n)
		return;
	xgrow(&ft->nameidx, &ft->nameidxcap, (size_t)k + 1,
	    sizeof(*ft->nameidx));
	ft->nameidx[k] = idx;
}

/* the index of the names, in the order a name goes to its first
 * function: by function, each function's names in BOLT's order */
static void
index_names(struct functab *ft)
{
	size_t i, j;

	for (i = 0; i < ft->n; i++) {
		name_insert(ft, ft->f[i].name, (uint32_t)i);
		for (j = ft->fnoff[i]; j < ft->fnoff[i + 1]; j++)
			name_insert(ft, ft->fnames[j], (uint32_t)i);
	}
	ft->named = 1;
}

const struct bfunc *
functab_by_name(const struct functab *ft, const char *name)
{
	long k;

	/* made when first asked: most runs never ask (fdatawrite on a
	 * binary without .cold fragments), and it is the largest part of
	 * the table after the functions themselves */
	if (!ft->named)
		index_names((struct functab *)(uintptr_t)ft);
	k = strtab_find(&ft->names, name, strlen(name));
	return k < 0 ? NULL : &ft->f[ft->nameidx[k]];
}

/* ------------------------------------------------------------------ */

static void addr_index(struct functab *);

int
functab_load(struct functab *ft, struct elfobj *eo, char *err, size_t errlen)
{
	return functab_load_flags(ft, eo, 0, err, errlen);
}

/* the allocatable sections of the binary into ft->secs (and their
 * ELF index into secmap, which the caller makes nscn + 1 long), its
 * .eh_frame parsed; *symscn and *symsh the first symbol table, if any */
static int
read_sections(struct functab *ft, struct elfobj *eo, size_t shstrndx,
    int *secmap, Elf_Scn **symscn, GElf_Shdr *symsh, char *err,
    size_t errlen)
{
	Elf *elf = eo->elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t capsecs = 0;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;

		if (gelf_getshdr(scn, &sh) == NULL)
			return failf(err, errlen, "%s: bad section header",
			    eo->path);
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n == NULL)
			n = "";
		if (strcmp(n, ".rela.text") == 0)
			ft->has_relocs = 1;
		if (sh.sh_type == SHT_SYMTAB && *symscn == NULL) {
			*symscn = scn;
			*symsh = sh;
		}
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		xgrow(&ft->secs, &capsecs, ft->nsecs + 1, sizeof(*ft->secs));
		ft->secs[ft->nsecs++] = (struct fsec){ sh.sh_addr, sh.sh_size,
		    sh.sh_offset, sh.sh_flags, sh.sh_type,
		    ft_str(ft, n, strlen(n)) };
		secmap[elf_ndxscn(scn)] = (int)ft->nsecs - 1;
		if (strcmp(n, ".eh_frame") == 0 && sh.sh_type == SHT_PROGBITS) {
			Elf_Data *dd = elf_getdata(scn, NULL);

			if (dd != NULL && dd->d_buf != NULL)
				ft_parse_ehframe(ft, dd->d_buf, dd->d_size,
				    sh.sh_addr);
		}
	}
	return 0;
}

/* sort the sections, remapping the index map through the order the sort
 * chose (each section carries where it came from: comparing struct fsec
 * values bytewise would read their padding) */
static void
sort_sections(struct functab *ft, int *secmap, size_t nscn)
{
	struct fsec_at *o = xreallocarray(NULL, ft->nsecs + 1, sizeof(*o));
	size_t *to = xreallocarray(NULL, ft->nsecs + 1, sizeof(*to));
	size_t i, j;

	for (j = 0; j < ft->nsecs; j++)
		o[j] = (struct fsec_at){ ft->secs[j], j };
	qsort(o, ft->nsecs, sizeof(*o), secatcmp);
	for (j = 0; j < ft->nsecs; j++) {
		ft->secs[j] = o[j].s;
		to[o[j].from] = j;
	}
	for (i = 0; i <= nscn; i++)
		if (secmap[i] >= 0)
			secmap[i] = (int)to[secmap[i]];
	free(to);
	free(o);
}

/* BOLT's order of the symbols (ft_rsymcmp: address, rank, symbol
 * index) as 16-byte keys, sorted rather than the 64-byte symbols: the
 * address, then the rank + 1 (0 to 3) above the symbol's position in
 * the array, which follows its index */
struct rkey {
	uint64_t	addr, rp;
};
#define SORT_NAME	sort_rkeys
#define SORT_TYPE	struct rkey
#define SORT_LESS(a, b)	((a)->addr != (b)->addr ? (a)->addr < (b)->addr : \
			    (a)->rp < (b)->rp)
#include "sort.h"

static void
sort_rsyms(struct rsym *v, size_t n)
{
	struct rkey *k = xreallocarray(NULL, n, sizeof(*k));
	struct rsym *o = xreallocarray(NULL, n, sizeof(*o));
	size_t i;

	for (i = 0; i < n; i++)
		k[i] = (struct rkey){ v[i].addr,
		    (uint64_t)(v[i].rank + 1) << 32 | i };
	sort_rkeys(k, n);
	memcpy(o, v, n * sizeof(*o));
	for (i = 0; i < n; i++)
		v[i] = o[(uint32_t)k[i].rp];
	free(o);
	free(k);
}

/* the symbols of symscn in allocatable sections, with their FILE, into
 * d->syms sorted as BOLT sorts them */
static int
read_symbols(struct disc *d, struct elfobj *eo, Elf_Scn *symscn,
    const GElf_Shdr *symsh, const int *secmap, size_t nscn, char *err,
    size_t errlen)
{
	struct functab *ft = d->ft;
	Elf_Data *sd = elf_getdata(symscn, NULL);
	size_t n, i, cap = 0;
	const char *file = NULL;

	if (sd == NULL || symsh->sh_entsize == 0)
		return failf(err, errlen, "%s: bad symbol table", eo->path);
	n = symsh->sh_size / symsh->sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym s;
		const char *nm;
		struct rsym r;
		int t;

		if (gelf_getsym(sd, (int)i, &s) == NULL)
			break;
		nm = elf_strptr(eo->elf, symsh->sh_link, s.st_name);
		if (nm == NULL)
			nm = "";
		t = GELF_ST_TYPE(s.st_info);
		if (s.st_shndx == SHN_UNDEF)
			continue;
		if (t == STT_FILE) {
			if (strcmp(nm, "ld-temp.o") != 0)
				file = *nm ? nm : NULL;
			continue;
		}
		memset(&r, 0, sizeof(r));
		r.addr = s.st_value;
		r.size = s.st_size;
		r.idx = (uint32_t)i;
		r.type = (unsigned char)t;
		r.bind = (unsigned char)GELF_ST_BIND(s.st_info);
		r.shndx = s.st_shndx;
		r.file = r.bind == STB_LOCAL ? file : NULL;
		r.rank = t == STT_FUNC ? 0 : t == STT_SECTION ? 2 : 1;
		if (eo->machine == EM_AARCH64 &&
		    (r.mark = ft_a64_mark(nm, t, s.st_size)) != 0)
			r.rank = -1;
		if (s.st_shndx == SHN_ABS)
			r.sec = -1;
		else if (s.st_shndx >= SHN_LORESERVE || s.st_shndx > nscn)
			continue;
		else {
			r.sec = secmap[s.st_shndx];
			if (r.sec < 0)
				continue;	/* not allocatable */
			/* checkSymbolInSection */
			if (r.addr < ft->secs[r.sec].addr ||
			    r.addr + r.size > ft->secs[r.sec].addr +
			    ft->secs[r.sec].size)
				continue;
		}
		if (t == STT_SECTION && r.sec >= 0)
			nm = ft->secs[r.sec].name;
		/* the names stay libelf's (its string table lives until
		 * elfobj_close, after the table is freed): no copy of each */
		r.name = nm;
		xgrow(&d->syms, &cap, d->nsyms + 1, sizeof(*d->syms));
		d->syms[d->nsyms++] = r;
	}
	if (d->nsyms > 1)
		sort_rsyms(d->syms, d->nsyms);
	return 0;
}

/* the functions discovered into ft->f, their names indexed, and the
 * entries of the symbol loop given their functions, one per address:
 * 0, or -1 past 2^32 names */
static int
make_table(struct functab *ft, struct disc *d)
{
	size_t i, k, nfn = 0, capfn = 0;

	ft->f = xcalloc(d->nf + 1, sizeof(*ft->f));
	ft->n = d->nf;
	ft->fnoff = xcalloc(d->nf + 1, sizeof(*ft->fnoff));
	for (i = 0; i < d->nf; i++) {
		struct dfunc *f = &d->f[i];
		struct bfunc *b = &ft->f[i];
		size_t j;

		b->addr = f->addr;
		b->size = f->size;
		b->maxsize = f->maxsize;
		b->name = f->name0;
		b->filename = f->name0;
		/* getLocationName under BAT: the first name of the form
		 * symbol/file/N */
		for (j = 0; j < f->nnames; j++) {
			const char *sl = strchr(ft_df_name(f, j), '/');

			if (sl != NULL && strchr(sl + 1, '/') != NULL) {
				b->filename = ft_df_name(f, j);
				break;
			}
		}
		b->symname = f->rawname ? f->rawname : f->name0;
		b->flags = f->flags;
		b->parent = (uint32_t)i;
		b->shndx = (uint16_t)f->sec;
		b->num = f->num;
		/* the aliases, for the index of names */
		ft->fnoff[i] = (uint32_t)nfn;
		if (f->nnames > 1) {
			xgrow(&ft->fnames, &capfn, nfn + f->nnames - 1,
			    sizeof(*ft->fnames));
			for (j = 1; j < f->nnames; j++)
				ft->fnames[nfn++] = ft_df_name(f, j);
		}
		free(f->more);
	}
	if (nfn >= UINT32_MAX)
		return -1;
	ft->fnoff[d->nf] = (uint32_t)nfn;
	addr_index(ft);
	/* entries: assign the functions of those found in the symbol loop */
	for (i = 0; i < d->nent; i++) {
		const struct bfunc *b = functab_find(ft, d->ent[i].addr);

		if (d->ent[i].name != NULL || b == NULL)
			d->ent[i].func = b ? (uint32_t)(b - ft->f) : 0;
		if (d->ent[i].name == NULL)
			d->ent[i].name = ft->f[d->ent[i].func].name;
	}
	if (d->nent > 1)
		qsort(d->ent, d->nent, sizeof(*d->ent), fsymcmp);
	/* one entry per address */
	for (i = k = 0; i < d->nent; i++)
		if (k == 0 || d->ent[k - 1].addr != d->ent[i].addr)
			d->ent[k++] = d->ent[i];
	ft->syms = d->ent;
	ft->nsyms = k;
	return 0;
}

int
functab_load_flags(struct functab *ft, struct elfobj *eo, unsigned flags,
    char *err, size_t errlen)
{
	Elf *elf = eo->elf;
	Elf_Scn *symscn = NULL;
	GElf_Shdr symsh = { 0 };
	size_t shstrndx, nscn, i, nrels = 0;
	struct disc d;
	struct dynrel *rels;
	int rc;
	int *secmap;		/* ELF section index -> ft->secs index */

	memset(ft, 0, sizeof(*ft));
	memset(&d, 0, sizeof(d));
	d.ft = ft;
	d.cnames.byref = 1;
	ft->bounds = (flags & FT_BOUNDS) != 0;
	if (elf == NULL || elf_getshdrstrndx(elf, &shstrndx) != 0 ||
	    elf_getshdrnum(elf, &nscn) != 0)
		return failf(err, errlen, "%s: bad section headers", eo->path);
	secmap = xcalloc(nscn + 1, sizeof(*secmap));
	for (i = 0; i <= nscn; i++)
		secmap[i] = -1;
	/* allocatable sections, and .rela.text, .eh_frame, .symtab */
	if (read_sections(ft, eo, shstrndx, secmap, &symscn, &symsh, err,
	    errlen) != 0) {
		free(secmap);
		return -1;
	}
	if (symscn == NULL && !(flags & FT_ALLOW_STRIPPED)) {
		free(secmap);
		functab_free(ft);
		return failf(err, errlen, "%s: no symbol table (stripped); BOLT "
		    "needs one", eo->path);
	}
	sort_sections(ft, secmap, nscn);
	/* the symbols, with their FILE (none in a stripped binary: its
	 * functions are then those of .eh_frame and the PLT, as BOLT's
	 * --allow-stripped finds them) */
	if (symscn != NULL && read_symbols(&d, eo, symscn, &symsh, secmap,
	    nscn, err, errlen) != 0) {
		free(secmap);
		free(d.syms);
		functab_free(ft);
		return -1;
	}
	free(secmap);

	ft->machine = eo->machine;
	if (eo->machine == EM_AARCH64)
		ft_a64_marks(&d);
	ft_discover_symbols(&d);
	rels = ft_read_dynrels(ft, elf, &nrels);
	d.batch = 1;
	if (eo->machine == EM_AARCH64)
		ft_discover_plt_a64(&d, elf, rels, nrels);
	else
		ft_discover_plt(&d, elf, rels, nrels);
	ft_df_merge(&d);
	free(rels);
	ft_discover_fde_funcs(&d);
	ft_adjust_boundaries(&d);

	rc = make_table(ft, &d);
	if (rc == 0 && !ft->bounds)
		ft_link_fragments(ft, &d);
	free(d.f);
	free(d.syms);
	strtab_free(&d.cnames);
	ft_arena_free(&d.tmp);
	free(d.ccount);
	if (rc == -1)
		return failf(err, errlen, "%s: more than 2^32 function names",
		    eo->path);
	return 0;
}

static uint64_t
func_start(const void *arg, size_t i)
{
	return ((const struct functab *)arg)->f[i].addr;
}

/* functab_find's index */
static void
addr_index(struct functab *ft)
{
	addrix_build(&ft->aix, ft->n, func_start, ft);
}

void
functab_free(struct functab *ft)
{
	ft_arena_free(&ft->arena);
	free(ft->fnames);
	free(ft->fnoff);
	free(ft->f);
	free(ft->syms);
	free(ft->fdes);
	free(ft->marks);
	free(ft->secs);
	free(ft->regs);
	strtab_free(&ft->names);
	free(ft->nameidx);
	addrix_free(&ft->aix);
	memset(ft, 0, sizeof(*ft));
}

const struct bfunc *
functab_find(const struct functab *ft, uint64_t a)
{
	long i = addrix_find(&ft->aix, a);
	const struct bfunc *f;

	if (i < 0)
		return NULL;
	f = &ft->f[i];
	return a - f->addr < f->maxsize ? f : NULL;
}

size_t
functab_entries_from(const struct functab *ft, uint64_t a)
{
	size_t lo = 0, hi = ft->nsyms, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (ft->syms[m].addr < a)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

void
functab_put_name(struct wbuf *w, const char *name)
{
	for (; *name; name++) {
		if (*name == ' ' || *name == '\\')
			wb_putc(w, '\\');
		wb_putc(w, *name);
	}
}
