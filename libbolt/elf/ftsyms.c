/* See COPYING file for copyright and license details. */
/*
 * ftsyms.c: functions from the symbol table, step for step after
 * RewriteInstance::discoverFileObjects (symbol order, NameResolver
 * numbering, aliases, secondary entries, .cold fragments).
 */
#include <stdlib.h>
#include <string.h>

#include "ftint.h"
#include "a64dec.h"

/* ------------------------------------------------------------------ */
/* discovery */

int
ft_rsymcmp(const void *a, const void *b)
{
	const struct rsym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int
sec_contains(const struct functab *ft, int sec, uint64_t a)
{
	return sec >= 0 && a >= ft->secs[sec].addr &&
	    a - ft->secs[sec].addr < ft->secs[sec].size;
}

/* BinaryFunction::containsAddress (Size, not MaxSize) */
int
ft_df_contains(const struct dfunc *f, uint64_t a)
{
	return a >= f->addr && a - f->addr < f->size;
}

/* BinaryFunction::isSymbolValidInScope */
int
ft_valid_in_scope(const struct functab *ft, const struct dfunc *f,
    const struct rsym *s)
{
	if (!sec_contains(ft, f->sec, s->addr))
		return 0;
	if (s->size == 0 && ft_df_contains(f, s->addr))
		return 1;
	if (s->type != STT_NOTYPE)
		return 0;
	if (s->bind != STB_LOCAL)
		return 0;
	return 1;
}

void
ft_df_addname(struct dfunc *f, const char *name)
{
	if (f->nnames == 0)
		f->name0 = name;
	else {
		xgrow(&f->more, &f->capmore, f->nnames, sizeof(*f->more));
		f->more[f->nnames - 1] = name;
	}
	f->nnames++;
}

/* the first of the n functions of v at or after a */
static size_t
df_lower(const struct dfunc *v, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n, m;

	/* the symbols come in address order: mostly an append */
	if (n == 0 || v[n - 1].addr < a)
		return n;
	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (v[m].addr < a)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* the function at exactly a (functions are kept sorted); *pos, if
 * asked for, is where in f one at a goes (not while batch is set) */
struct dfunc *
ft_df_at(struct disc *d, uint64_t a, size_t *pos)
{
	size_t lo = df_lower(d->f, d->nf, a);

	if (pos)
		*pos = lo;
	if (lo < d->nf && d->f[lo].addr == a)
		return &d->f[lo];
	if (d->nbf > 0) {
		lo = df_lower(d->bf, d->nbf, a);
		if (lo < d->nbf && d->bf[lo].addr == a)
			return &d->bf[lo];
	}
	return NULL;
}

/* a new function in *f, the next one created */
void
ft_df_init(struct disc *d, struct dfunc *f, uint64_t addr, uint64_t size,
    const char *name, int sec)
{
	memset(f, 0, sizeof(*f));
	f->addr = addr;
	f->size = size;
	f->sec = sec;
	f->symname = -1;
	f->num = ++d->ncreated;
	ft_df_addname(f, name);
}

/* a new function at addr, where none is (ft_df_at) */
struct dfunc *
ft_df_create(struct disc *d, uint64_t addr, uint64_t size, const char *name,
    int sec)
{
	struct dfunc **v = d->batch ? &d->bf : &d->f;
	size_t *n = d->batch ? &d->nbf : &d->nf;
	size_t pos = df_lower(*v, *n, addr);
	struct dfunc *f;

	if (d->batch)
		xgrow(&d->bf, &d->capbf, d->nbf + 1, sizeof(*d->bf));
	else
		xgrow(&d->f, &d->capf, d->nf + 1, sizeof(*d->f));
	memmove(&(*v)[pos + 1], &(*v)[pos], (*n - pos) * sizeof(**v));
	(*n)++;
	f = &(*v)[pos];
	ft_df_init(d, f, addr, size, name, sec);
	return f;
}

/* the batch's functions into f, in address order */
void
ft_df_merge(struct disc *d)
{
	size_t i = d->nf, j = d->nbf, k = d->nf + d->nbf;

	d->batch = 0;
	if (d->nbf == 0)
		return;
	xgrow(&d->f, &d->capf, k, sizeof(*d->f));
	while (j > 0)
		if (i > 0 && d->f[i - 1].addr > d->bf[j - 1].addr)
			d->f[--k] = d->f[--i];
		else
			d->f[--k] = d->bf[--j];
	d->nf += d->nbf;
	free(d->bf);
	d->bf = NULL;
	d->nbf = d->capbf = 0;
}

void
ft_add_entry(struct disc *d, uint64_t addr, const char *name)
{
	xgrow(&d->ent, &d->capent, d->nent + 1, sizeof(*d->ent));
	d->ent[d->nent++] = (struct fsym){ addr, 0, name };
}

/* "(.*)\.cold(\.[0-9]+)?" as llvm::Regex::match finds it: anywhere */
const char *
ft_cold_suffix(const char *name)
{
	return strstr(name, ".cold");
}

int
ft_secidx_for(const struct functab *ft, uint64_t a)
{
	const struct fsec *s = functab_section(ft, a);

	return s ? (int)(s - ft->secs) : -1;
}

/* BinaryContext::getMarkerType: a mapping symbol of AArch64's ELF ABI
 * (IHI0056B): an untyped symbol of size 0 named $x or $x.<any> (code
 * from here on) or $d, $d.<any> (data) */
int
ft_a64_mark(const char *n, int type, uint64_t size)
{
	if (type != STT_NOTYPE || size != 0 || n[0] != '$' ||
	    (n[1] != 'x' && n[1] != 'd') || (n[2] != '\0' && n[2] != '.'))
		return 0;
	return n[1] == 'x' ? 1 : 2;
}

/* the marks BOLT applies (discoverFileObjects' addExtraDataMarkerPerSymbol:
 * compilers put several data objects in one $d-$x stretch, so after a $d
 * every other symbol at a new address is a data mark too; the first
 * symbol at an address decides, a mapping symbol sorting first), then
 * the mapping symbols taken out of the symbols that make functions */
void
ft_a64_marks(struct disc *d)
{
	struct functab *ft = d->ft;
	uint64_t last = 0;
	size_t i, k, cap = 0;
	int isdata = 0;

	for (i = 0; i < d->nsyms; i++) {
		const struct rsym *r = &d->syms[i];

		if (r->addr == last)
			continue;
		if (r->mark == 0 && !isdata)
			continue;
		xgrow(&ft->marks, &cap, ft->nmarks + 1, sizeof(*ft->marks));
		ft->marks[ft->nmarks++] = (struct fmark){ r->addr,
		    (uint8_t)(r->mark == 0 || r->mark == 2) };
		last = r->addr;
		if (r->mark != 0)
			isdata = r->mark == 2;
	}
	for (i = k = 0; i < d->nsyms; i++)
		if (d->syms[i].mark == 0)
			d->syms[k++] = d->syms[i];
	d->nsyms = k;
}

size_t
functab_marks_from(const struct functab *ft, uint64_t a)
{
	size_t lo = 0, hi = ft->nmarks, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (ft->marks[m].addr < a)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* "name/file", the key of a local function's other name: the one kept
 * the first time (uniquify's counters hold their keys where they are,
 * for the discovery only: d->tmp), else formed in *buf */
static const char *
alt_key(struct disc *d, char **buf, size_t *cap, const char *pn,
    const char *file)
{
	size_t lp = strlen(pn), lf = strlen(file);

	xgrow(buf, cap, lp + lf + 2, 1);
	memcpy(*buf, pn, lp);
	(*buf)[lp] = '/';
	memcpy(*buf + lp + 1, file, lf + 1);
	if (strtab_find(&d->cnames, *buf, lp + 1 + lf) >= 0)
		return *buf;
	return ft_astr(&d->tmp, *buf, lp + 1 + lf);
}

/* the main loop of discoverFileObjects over the sorted symbols */
void
ft_discover_symbols(struct disc *d)
{
	struct functab *ft = d->ft;
	struct dfunc *prev = NULL;
	unsigned anon = 0;
	size_t i, altcap = 0;
	char *altbuf = NULL;

	for (i = 0; i < d->nsyms; i++) {
		struct rsym *s = &d->syms[i];
		const char *uname, *altname = NULL;
		const struct fsec *sec;
		struct dfunc *bf;
		uint64_t size;
		int simple = 1;

		if (s->addr == 0 || strcmp(s->name, "__hot_start") == 0 ||
		    strcmp(s->name, "__hot_end") == 0) {
			s->dead = 1;
			continue;
		}
		/* (FileSymRefs holds it from here on) */
		if (s->type == STT_SECTION && s->sec >= 0 &&
		    ft_is_plt_section(ft->secs[s->sec].name))
			continue;
		{
			const char *n = s->name;

			/* a global's name is libelf's, where it is; with
			 * FT_BOUNDS every name is (no counting) */
			if (ft->bounds)
				uname = n;
			else if (*n == '\0')
				uname = ft_keepf(ft, "ANONYMOUS.%u", anon++);
			else if (s->bind != STB_LOCAL)
				uname = strncmp(n, ".L", 2) == 0 ?
				    ft_cat(ft, "PG", n, NULL) : n;
			else {
				const char *pn = strncmp(n, ".L", 2) == 0 ?
				    ft_cat(ft, "PG", n, NULL) : n;

				uname = ft_uniquify(d, pn);
				if (s->type == STT_FUNC && s->file != NULL)
					altname = ft_uniquify(d,
					    alt_key(d, &altbuf, &altcap, pn,
					    s->file));
			}
		}
		if (s->sec < 0) {		/* absolute */
			ft_reg2(ft, uname, altname, s->addr, s->size);
			continue;
		}
		sec = &ft->secs[s->sec];
		if (strcmp(s->name, "__bolt_reserved_start") == 0 ||
		    strcmp(s->name, "__bolt_reserved_end") == 0) {
			ft_reg2(ft, uname, altname, s->addr, s->size);
			continue;
		}
		if (s->addr == sec->addr + sec->size) {
			ft_reg2(ft, uname, altname, s->addr, s->size);
			continue;
		}
		if (!(sec->flags & SHF_EXECINSTR) || sec->type == SHT_NOBITS) {
			ft_reg2(ft, uname, altname, s->addr, s->size);
			continue;
		}
		size = s->size;
		if (prev != NULL && s->type != STT_FUNC) {
			if (ft_df_contains(prev, s->addr) ||
			    (prev->size == 0 && ft_valid_in_scope(ft, prev, s))) {
				ft_reg2(ft, uname, altname, s->addr, size);
				continue;
			}
		}
		if (prev != NULL && ft_df_contains(prev, s->addr) &&
		    prev->addr != s->addr) {
			if (!ft_valid_in_scope(ft, prev, s)) {
				/* "using X as another entry" */
				ft_reg2(ft, uname, altname, s->addr, 0);
				ft_add_entry(d, s->addr, uname);
				s->dead = 1;
			} else
				ft_reg2(ft, uname, altname, s->addr, size);
			continue;
		}
		/* conflicts with the FDEs */
		{
			size_t k = ft_fde_lower(ft, s->addr);

			if (k < ft->nfdes) {
				if (ft->fdes[k].start != s->addr) {
					if (k > 0 && s->addr > ft->fdes[k - 1].start &&
					    s->addr - ft->fdes[k - 1].start <
					    ft->fdes[k - 1].range)
						simple = 0;
				} else if (ft->fdes[k].range != size) {
					if (ft->fdes[k].range > size)
						size = ft->fdes[k].range;
					ft_reg(ft, NULL, s->addr, size);
				}
			}
		}
		bf = ft_df_at(d, s->addr, NULL);
		if (bf != NULL) {
			if (size != bf->size) {
				if (size > bf->size)
					bf->size = size;
				ft_reg(ft, NULL, s->addr, bf->size);
			}
			ft_df_addname(bf, uname);
		} else {
			int si = ft_secidx_for(ft, s->addr);

			/* (skipped before it is registered) */
			if (si < 0 || ft->secs[si].size == 0)
				continue;
			bf = ft_df_create(d, s->addr, size, uname, si);
			bf->rawname = s->name;
			bf->symname = (int)i;
			if (!simple)
				bf->flags |= BF_NONSIMPLE;
		}
		if (ft_cold_suffix(s->name) != NULL)
			bf->flags |= BF_FRAGMENT;
		if (altname != NULL)
			ft_df_addname(bf, altname);
		if (s->bind == STB_LOCAL && bf->symname == (int)i)
			bf->flags |= BF_LOCAL;
		ft_reg2(ft, uname, altname, s->addr, size);
		prev = bf;
	}
	free(altbuf);
}
