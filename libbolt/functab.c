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

#include "util.h"
#include "elfobj.h"
#include "functab.h"
#include "a64dec.h"

/* a symbol as discoverFileObjects sees it */
struct rsym {
	uint64_t	addr, size;
	const char	*name;		/* the symbol's name (section's name
					 * for STT_SECTION) */
	const char	*file;		/* locals after a FILE symbol */
	uint32_t	idx;		/* .symtab index */
	unsigned char	type, bind;	/* STT_*, STB_* */
	uint16_t	shndx;
	int		rank;		/* FUNC 0, other 1, SECTION 2;
					 * AArch64's mapping symbols -1 */
	int		mark;		/* AArch64: 1 $x, 2 $d, else 0 */
	int		sec;		/* index into ft->secs or -1 (ABS) */
	int		dead;		/* removed from FileSymRefs */
};

/* a function while discovering: names in BOLT's order */
struct dfunc {
	uint64_t	addr, size, maxsize;
	char		**names;
	size_t		nnames, capnames;
	uint32_t	flags;
	int		sec;
	int		symname;	/* index of the first symbol's rsym, -1 */
	const char	*rawname;	/* the first symbol's own name */
	uint32_t	num;		/* creation order, from 1 */
};

struct disc {
	struct functab	*ft;
	struct rsym	*syms;		/* sorted as BOLT sorts them */
	size_t		 nsyms;
	struct dfunc	*f;
	size_t		 nf, capf;
	/* NameResolver's counters: name -> count */
	char		**cname;
	uint64_t	*ccount;
	size_t		 ccap, cn;
	struct fsym	*ent;
	size_t		 nent, capent;
	uint32_t	 ncreated;	/* functions created so far */
};


static uint64_t
strhash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static char *
keep(struct functab *ft, char *s)
{
	xgrow(&ft->strs, &ft->strscap, ft->nstrs + 1, sizeof(*ft->strs));
	ft->strs[ft->nstrs++] = s;
	return s;
}

static char *
keepf(struct functab *ft, const char *fmt, ...) PRINTFLIKE(2, 3);
static char *
keepf(struct functab *ft, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) == -1) {
		fprintf(stderr, "%s: out of memory\n", progname);
		exit(1);
	}
	va_end(ap);
	return keep(ft, s);
}

/* NameResolver::uniquify: name/N, N counting per name from 1 */
static char *
uniquify(struct disc *d, const char *name)
{
	size_t i, mask;
	uint64_t h;

	if (d->cn * 2 >= d->ccap) {
		size_t ncap = d->ccap ? d->ccap * 2 : 1024, j;
		char **nn = xcalloc(ncap, sizeof(*nn));
		uint64_t *nc = xcalloc(ncap, sizeof(*nc));

		for (j = 0; j < d->ccap; j++) {
			if (d->cname[j] == NULL)
				continue;
			for (i = strhash(d->cname[j]) & (ncap - 1);
			    nn[i] != NULL; i = (i + 1) & (ncap - 1))
				;
			nn[i] = d->cname[j];
			nc[i] = d->ccount[j];
		}
		free(d->cname);
		free(d->ccount);
		d->cname = nn;
		d->ccount = nc;
		d->ccap = ncap;
	}
	mask = d->ccap - 1;
	h = strhash(name);
	for (i = h & mask; d->cname[i] != NULL; i = (i + 1) & mask)
		if (strcmp(d->cname[i], name) == 0)
			break;
	if (d->cname[i] == NULL) {
		d->cname[i] = keep(d->ft, xstrdup(name));
		d->cn++;
	}
	return keepf(d->ft, "%s/%llu", name,
	    (unsigned long long)++d->ccount[i]);
}

/* ------------------------------------------------------------------ */
/* .eh_frame */

struct ehp {
	const uint8_t	*base, *end;
	uint64_t	 addr;		/* of base */
};

static int
eh_uleb(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	size_t n = uleb128_decode(*p, end, v);

	if (n == 0)
		return -1;
	*p += n;
	return 0;
}

static int
eh_sleb(const uint8_t **p, const uint8_t *end, int64_t *v)
{
	size_t n = sleb128_decode(*p, end, v);

	if (n == 0)
		return -1;
	*p += n;
	return 0;
}

/* a DW_EH_PE-encoded pointer at *p; ignore the application part when
 * noapply (an FDE's address range) */
static int
eh_ptr(const struct ehp *e, const uint8_t **p, const uint8_t *end,
    uint8_t enc, int noapply, uint64_t *v)
{
	const uint8_t *q = *p;
	uint64_t u = 0;
	int64_t s;
	size_t n;

	if (enc == 0xff) {		/* DW_EH_PE_omit */
		*v = 0;
		return 0;
	}
	switch (enc & 0x0f) {
	case 0x00:			/* absptr */
	case 0x04:			/* udata8 */
	case 0x0c:			/* sdata8 */
		n = 8;
		break;
	case 0x02:
	case 0x0a:
		n = 2;
		break;
	case 0x03:
	case 0x0b:
		n = 4;
		break;
	case 0x01:
		if (eh_uleb(p, end, &u) == -1)
			return -1;
		n = 0;
		break;
	case 0x09:
		if (eh_sleb(p, end, &s) == -1)
			return -1;
		u = (uint64_t)s;
		n = 0;
		break;
	default:
		return -1;
	}
	if (n != 0) {
		if ((size_t)(end - q) < n)
			return -1;
		if (n == 2) {
			u = ld16(q, 0);
			if (enc & 0x08)
				u = (uint64_t)(int64_t)(int16_t)u;
		} else if (n == 4) {
			u = ld32(q, 0);
			if (enc & 0x08)
				u = (uint64_t)(int64_t)(int32_t)u;
		} else
			u = ld64(q, 0);
		*p = q + n;
	}
	if (!noapply) {
		switch (enc & 0x70) {
		case 0x00:
			break;
		case 0x10:			/* pcrel */
			u += e->addr + (uint64_t)(q - e->base);
			break;
		default:			/* datarel etc.: not in .eh_frame */
			return -1;
		}
	}
	*v = u;
	return 0;
}

struct cie {
	uint64_t	off;
	uint8_t		fdeenc, lsdaenc;
	int		aug_z, aug_l;
};

struct fdek {
	uint64_t	start;
	size_t		i;
};

static int
fdekcmp(const void *a, const void *b)
{
	const struct fdek *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* parse .eh_frame; damaged entries end the parse (what was read stays) */
static void
parse_ehframe(struct functab *ft, const uint8_t *buf, size_t len,
    uint64_t addr)
{
	struct ehp e = { buf, buf + len, addr };
	const uint8_t *p = buf, *end = buf + len, *ent, *body, *q;
	struct cie *cies = NULL;
	size_t ncies = 0, capcies = 0, capf = 0, i, j;
	uint64_t l, id, v, start, range, lsda;
	int64_t sv;

	while ((size_t)(end - p) >= 4) {
		ent = p;
		l = ld32(p, 0);
		p += 4;
		if (l == 0)
			continue;	/* a terminator; LLVM reads on */
		if (l == 0xffffffffu) {
			if ((size_t)(end - p) < 8)
				break;
			l = ld64(p, 0);
			p += 8;
		}
		if (l > (uint64_t)(end - p) || l < 4)
			break;
		body = p;
		q = p;
		p += l;		/* the next entry */
		id = ld32(q, 0);
		q += 4;
		if (id == 0) {			/* a CIE */
			struct cie c = { (uint64_t)(ent - buf), 0, 0xff, 0, 0 };
			const char *aug;
			size_t alen;

			if (q >= p)
				continue;
			q++;			/* version */
			aug = (const char *)q;
			alen = strnlen(aug, (size_t)(p - q));
			if (alen == (size_t)(p - q))
				continue;
			q += alen + 1;
			if (strstr(aug, "eh") != NULL)
				q += 8;
			if (q > p || eh_uleb(&q, p, &v) == -1 ||
			    eh_sleb(&q, p, &sv) == -1)
				continue;
			if (body[4] == 1) {
				if (q >= p)
					continue;
				q++;
			} else if (eh_uleb(&q, p, &v) == -1)
				continue;
			if (aug[0] == 'z') {
				uint64_t augl;
				const uint8_t *aend;
				size_t k;
				int bad = 0;

				c.aug_z = 1;
				if (eh_uleb(&q, p, &augl) == -1 ||
				    augl > (uint64_t)(p - q))
					continue;
				aend = q + augl;
				for (k = 1; aug[k] != '\0' && !bad; k++) {
					switch (aug[k]) {
					case 'L':
						if (q >= aend)
							bad = 1;
						else {
							c.lsdaenc = *q++;
							c.aug_l = 1;
						}
						break;
					case 'R':
						if (q >= aend)
							bad = 1;
						else
							c.fdeenc = *q++;
						break;
					case 'P': {
						uint8_t penc;

						if (q >= aend) {
							bad = 1;
							break;
						}
						penc = *q++;
						if (eh_ptr(&e, &q, aend, penc & 0x7f,
						    0, &v) == -1)
							bad = 1;
						break;
					}
					case 'S':
					case 'B':
					case 'G':
						break;
					default:
						k = strlen(aug) - 1;	/* stop */
						break;
					}
				}
				if (bad)
					continue;
			}
			xgrow(&cies, &capcies, ncies + 1, sizeof(*cies));
			cies[ncies++] = c;
			continue;
		}
		/* an FDE: id is the distance back to its CIE */
		{
			uint64_t cieoff;
			const struct cie *c = NULL;

			if (id > (uint64_t)(body - buf))
				continue;
			cieoff = (uint64_t)(body - buf) - id;
			for (j = ncies; j-- > 0;)
				if (cies[j].off == cieoff) {
					c = &cies[j];
					break;
				}
			if (c == NULL)
				continue;
			if (eh_ptr(&e, &q, p, c->fdeenc, 0, &start) == -1 ||
			    eh_ptr(&e, &q, p, c->fdeenc & 0x0f, 1, &range) == -1)
				continue;
			lsda = 0;
			if (c->aug_z) {
				uint64_t augl;
				const uint8_t *aend;

				if (eh_uleb(&q, p, &augl) == -1 ||
				    augl > (uint64_t)(p - q))
					continue;
				aend = q + augl;
				if (c->aug_l && eh_ptr(&e, &q, aend, c->lsdaenc &
				    0x7f, 0, &lsda) == -1)
					lsda = 0;
			}
			xgrow(&ft->fdes, &capf, ft->nfdes + 1, sizeof(*ft->fdes));
			ft->fdes[ft->nfdes++] = (struct fde){ start, range, lsda };
		}
	}
	free(cies);
	/* CFIReaderWriter: one per start, the first with a non-zero range */
	if (ft->nfdes == 0)
		return;
	/* sort by start, file order among equal starts */
	{
		struct fdek *ks = xreallocarray(NULL, ft->nfdes, sizeof(*ks));
		struct fde *t = xreallocarray(NULL, ft->nfdes, sizeof(*t));

		memcpy(t, ft->fdes, ft->nfdes * sizeof(*t));
		for (i = 0; i < ft->nfdes; i++)
			ks[i] = (struct fdek){ t[i].start, i };
		qsort(ks, ft->nfdes, sizeof(*ks), fdekcmp);
		for (i = j = 0; i < ft->nfdes; i++) {
			const struct fde *x = &t[ks[i].i];

			if (j > 0 && ft->fdes[j - 1].start == x->start) {
				if (ft->fdes[j - 1].range == 0 && x->range != 0)
					ft->fdes[j - 1] = *x;
				continue;
			}
			ft->fdes[j++] = *x;
		}
		ft->nfdes = j;
		free(t);
		free(ks);
	}
}

/* first FDE with start >= a */
static size_t
fde_lower(const struct functab *ft, uint64_t a)
{
	size_t lo = 0, hi = ft->nfdes, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (ft->fdes[m].start < a)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

const struct fde *
functab_fde(const struct functab *ft, uint64_t a)
{
	size_t i = fde_lower(ft, a);

	return i < ft->nfdes && ft->fdes[i].start == a ? &ft->fdes[i] : NULL;
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

/* ------------------------------------------------------------------ */
/* discovery */

static int
rsymcmp(const void *a, const void *b)
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
static int
df_contains(const struct dfunc *f, uint64_t a)
{
	return a >= f->addr && a - f->addr < f->size;
}

/* BinaryFunction::isSymbolValidInScope */
static int
valid_in_scope(const struct functab *ft, const struct dfunc *f,
    const struct rsym *s)
{
	if (!sec_contains(ft, f->sec, s->addr))
		return 0;
	if (s->size == 0 && df_contains(f, s->addr))
		return 1;
	if (s->type != STT_NOTYPE)
		return 0;
	if (s->bind != STB_LOCAL)
		return 0;
	return 1;
}

static void
df_addname(struct dfunc *f, char *name)
{
	xgrow(&f->names, &f->capnames, f->nnames + 1, sizeof(*f->names));
	f->names[f->nnames++] = name;
}

/* the function at exactly a (functions are kept sorted) */
static struct dfunc *
df_at(struct disc *d, uint64_t a, size_t *pos)
{
	size_t lo = 0, hi = d->nf, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (d->f[m].addr < a)
			lo = m + 1;
		else
			hi = m;
	}
	if (pos)
		*pos = lo;
	return lo < d->nf && d->f[lo].addr == a ? &d->f[lo] : NULL;
}

/* a new function in *f, the next one created */
static void
df_init(struct disc *d, struct dfunc *f, uint64_t addr, uint64_t size,
    char *name, int sec)
{
	memset(f, 0, sizeof(*f));
	f->addr = addr;
	f->size = size;
	f->sec = sec;
	f->symname = -1;
	f->num = ++d->ncreated;
	df_addname(f, name);
}

static struct dfunc *
df_create(struct disc *d, uint64_t addr, uint64_t size, char *name, int sec)
{
	size_t pos;
	struct dfunc *f;

	df_at(d, addr, &pos);
	xgrow(&d->f, &d->capf, d->nf + 1, sizeof(*d->f));
	memmove(&d->f[pos + 1], &d->f[pos], (d->nf - pos) * sizeof(*d->f));
	d->nf++;
	f = &d->f[pos];
	df_init(d, f, addr, size, name, sec);
	return f;
}

static void
add_entry(struct disc *d, uint64_t addr, const char *name)
{
	xgrow(&d->ent, &d->capent, d->nent + 1, sizeof(*d->ent));
	d->ent[d->nent++] = (struct fsym){ addr, 0, name };
}

/* "(.*)\.cold(\.[0-9]+)?" as llvm::Regex::match finds it: anywhere */
static const char *
cold_suffix(const char *name)
{
	return strstr(name, ".cold");
}

static int
secidx_for(const struct functab *ft, uint64_t a)
{
	const struct fsec *s = functab_section(ft, a);

	return s ? (int)(s - ft->secs) : -1;
}

static int
is_plt_section(const char *n)
{
	return strcmp(n, ".plt") == 0 || strcmp(n, ".plt.got") == 0 ||
	    strcmp(n, ".plt.sec") == 0;
}

/* BinaryContext::getMarkerType: a mapping symbol of AArch64's ELF ABI
 * (IHI0056B): an untyped symbol of size 0 named $x or $x.<any> (code
 * from here on) or $d, $d.<any> (data) */
static int
a64_mark(const char *n, int type, uint64_t size)
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
static void
a64_marks(struct disc *d)
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

/* registerNameAtAddress(name, addr, size), or, name NULL,
 * setBinaryDataSize(addr, size) */
static void
reg(struct functab *ft, const char *name, uint64_t addr, uint64_t size)
{
	xgrow(&ft->regs, &ft->capregs, ft->nregs + 1, sizeof(*ft->regs));
	ft->regs[ft->nregs++] = (struct freg){ addr, size, name };
}

/* registerName in discoverFileObjects: the name, then the alternative */
static void
reg2(struct functab *ft, const char *uname, const char *alt, uint64_t addr,
    uint64_t size)
{
	reg(ft, uname, addr, size);
	if (alt != NULL)
		reg(ft, alt, addr, size);
}

/* the main loop of discoverFileObjects over the sorted symbols */
static void
discover_symbols(struct disc *d)
{
	struct functab *ft = d->ft;
	struct dfunc *prev = NULL;
	unsigned anon = 0;
	size_t i;

	for (i = 0; i < d->nsyms; i++) {
		struct rsym *s = &d->syms[i];
		char *uname, *altname = NULL;
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
		    is_plt_section(ft->secs[s->sec].name))
			continue;
		{
			const char *n = s->name;

			if (*n == '\0')
				uname = keepf(ft, "ANONYMOUS.%u", anon++);
			else if (s->bind != STB_LOCAL)
				uname = strncmp(n, ".L", 2) == 0 ?
				    keepf(ft, "PG%s", n) : keep(ft, xstrdup(n));
			else {
				const char *pn = strncmp(n, ".L", 2) == 0 ?
				    keepf(ft, "PG%s", n) : n;

				uname = uniquify(d, pn);
				if (s->type == STT_FUNC && s->file != NULL) {
					char *alt = keepf(ft, "%s/%s", pn,
					    s->file);

					altname = uniquify(d, alt);
				}
			}
		}
		if (s->sec < 0) {		/* absolute */
			reg2(ft, uname, altname, s->addr, s->size);
			continue;
		}
		sec = &ft->secs[s->sec];
		if (strcmp(s->name, "__bolt_reserved_start") == 0 ||
		    strcmp(s->name, "__bolt_reserved_end") == 0) {
			reg2(ft, uname, altname, s->addr, s->size);
			continue;
		}
		if (s->addr == sec->addr + sec->size) {
			reg2(ft, uname, altname, s->addr, s->size);
			continue;
		}
		if (!(sec->flags & SHF_EXECINSTR) || sec->type == SHT_NOBITS) {
			reg2(ft, uname, altname, s->addr, s->size);
			continue;
		}
		size = s->size;
		if (prev != NULL && s->type != STT_FUNC) {
			if (df_contains(prev, s->addr) ||
			    (prev->size == 0 && valid_in_scope(ft, prev, s))) {
				reg2(ft, uname, altname, s->addr, size);
				continue;
			}
		}
		if (prev != NULL && df_contains(prev, s->addr) &&
		    prev->addr != s->addr) {
			if (!valid_in_scope(ft, prev, s)) {
				/* "using X as another entry" */
				reg2(ft, uname, altname, s->addr, 0);
				add_entry(d, s->addr, uname);
				s->dead = 1;
			} else
				reg2(ft, uname, altname, s->addr, size);
			continue;
		}
		/* conflicts with the FDEs */
		{
			size_t k = fde_lower(ft, s->addr);

			if (k < ft->nfdes) {
				if (ft->fdes[k].start != s->addr) {
					if (k > 0 && s->addr > ft->fdes[k - 1].start &&
					    s->addr - ft->fdes[k - 1].start <
					    ft->fdes[k - 1].range)
						simple = 0;
				} else if (ft->fdes[k].range != size) {
					if (ft->fdes[k].range > size)
						size = ft->fdes[k].range;
					reg(ft, NULL, s->addr, size);
				}
			}
		}
		bf = df_at(d, s->addr, NULL);
		if (bf != NULL) {
			if (size != bf->size) {
				if (size > bf->size)
					bf->size = size;
				reg(ft, NULL, s->addr, bf->size);
			}
			df_addname(bf, uname);
		} else {
			int si = secidx_for(ft, s->addr);

			/* (skipped before it is registered) */
			if (si < 0 || ft->secs[si].size == 0)
				continue;
			bf = df_create(d, s->addr, size, uname, si);
			bf->rawname = s->name;
			bf->symname = (int)i;
			if (!simple)
				bf->flags |= BF_NONSIMPLE;
		}
		if (cold_suffix(s->name) != NULL)
			bf->flags |= BF_FRAGMENT;
		if (altname != NULL)
			df_addname(bf, altname);
		if (s->bind == STB_LOCAL && bf->symname == (int)i)
			bf->flags |= BF_LOCAL;
		reg2(ft, uname, altname, s->addr, size);
		prev = bf;
	}
}

/* ------------------------------------------------------------------ */
/* PLT (disassemblePLTSectionX86): a small decoder for the instructions
 * linkers put in PLT entries.  Returns the length, 0 if unknown; *ind is
 * set with the GOT slot for an indirect jmp through a RIP-relative slot. */
static size_t
plt_insn(const uint8_t *p, size_t n, uint64_t pc, int *ind, uint64_t *slot,
    int *endbr)
{
	size_t k = 0;

	*ind = 0;
	*endbr = 0;
	if (n >= 4 && p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e &&
	    (p[3] == 0xfa || p[3] == 0xfb)) {
		*endbr = 1;
		return 4;
	}
	if (n > 0 && p[0] == 0xf2)	/* bnd */
		k = 1;
	if (n >= k + 6 && p[k] == 0xff && (p[k + 1] == 0x25 || p[k + 1] == 0x35)) {
		int32_t disp = (int32_t)ld32(p + k + 2, 0);

		if (p[k + 1] == 0x25) {
			*ind = 1;
			*slot = pc + k + 6 + (uint64_t)(int64_t)disp;
		}
		return k + 6;
	}
	if (n >= k + 5 && p[k] == 0xe9)
		return k + 5;
	if (k == 0 && n >= 5 && p[0] == 0x68)
		return 5;
	if (k == 0 && n >= 1 && (p[0] == 0x90 || p[0] == 0xcc))
		return 1;
	if (k == 0 && n >= 2 && p[0] == 0x66 && p[1] == 0x90)
		return 2;
	/* multi-byte NOPs: [66]* [2e] 0f 1f modrm [sib] [disp] */
	{
		size_t j = 0, m;
		uint8_t modrm, mod, rm;

		while (j < n && j < 8 && (p[j] == 0x66 || p[j] == 0x2e))
			j++;
		if (n < j + 3 || p[j] != 0x0f || p[j + 1] != 0x1f)
			return 0;
		modrm = p[j + 2];
		mod = modrm >> 6;
		rm = modrm & 7;
		m = j + 3;
		if (mod != 3 && rm == 4)
			m++;
		if (mod == 1)
			m += 1;
		else if (mod == 2 || (mod == 0 && rm == 5))
			m += 4;
		return m <= n ? m : 0;
	}
}

struct dynrel {
	uint64_t	off, addend;
	const char	*sym;		/* NULL: none */
	uint32_t	type;
};

static int
dynrelcmp(const void *a, const void *b)
{
	const struct dynrel *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static void
discover_plt(struct disc *d, Elf *elf, struct dynrel *rels, size_t nrels)
{
	struct functab *ft = d->ft;
	size_t i;

	if (ft->nsecs == 0)
		return;
	for (i = 0; i < ft->nsecs; i++) {
		const struct fsec *sec = &ft->secs[i];
		uint64_t esz, eo;
		uint8_t *buf;
		struct dfunc *f;

		if (!is_plt_section(sec->name) || sec->type == SHT_NOBITS)
			continue;
		esz = strcmp(sec->name, ".plt") == 0 ? 16 : 8;
		if (sec->size > (64u << 20))
			continue;
		buf = xmalloc(sec->size + 1);
		{
			Elf_Scn *scn = NULL;
			int ok = 0;
			GElf_Shdr sh;

			while ((scn = elf_nextscn(elf, scn)) != NULL)
				if (gelf_getshdr(scn, &sh) != NULL &&
				    sh.sh_addr == sec->addr &&
				    sh.sh_size == sec->size &&
				    (sh.sh_flags & SHF_ALLOC)) {
					Elf_Data *dd = elf_getdata(scn, NULL);

					if (dd != NULL && dd->d_size == sec->size &&
					    dd->d_buf != NULL) {
						memcpy(buf, dd->d_buf, sec->size);
						ok = 1;
					}
					break;
				}
			if (!ok) {
				free(buf);
				continue;
			}
		}
		for (eo = 0; eo + esz <= sec->size; eo += esz) {
			uint64_t io = eo, slot = 0;
			size_t n = 0;
			int ind = 0, endbr;

			while (io < eo + esz) {
				n = plt_insn(buf + io, sec->size - io,
				    sec->addr + io, &ind, &slot, &endbr);
				if (n == 0)
					break;
				if (eo == 0 && endbr && esz == 8)
					esz = 16;
				if (ind)
					break;
				io += n;
			}
			if (n == 0 || !ind || io + n > eo + esz)
				continue;
			/* createPLTBinaryFunction */
			{
				struct dynrel key = { slot, 0, NULL, 0 }, *r;
				const char *sym;
				char *name;

				if (slot == 0 || nrels == 0)
					continue;
				r = bsearch(&key, rels, nrels, sizeof(*rels),
				    dynrelcmp);
				if (r == NULL)
					continue;
				/* LLVM 19 makes no function of an IRELATIVE
				 * slot (no symbol) */
				sym = r->sym;
				if (sym == NULL)
					continue;
				name = keepf(ft, "%s@PLT", sym);
				f = df_at(d, sec->addr + eo, NULL);
				if (f == NULL) {
					f = df_create(d, sec->addr + eo, 0, name,
					    (int)i);
					f->maxsize = esz;
					f->flags |= BF_PLT;
					reg(ft, name, sec->addr + eo, esz);
				} else
					df_addname(f, name);
				/* setPLTSymbol: its GOT slot */
				reg(ft, keepf(ft, "%s@GOT", sym), slot, 8);
			}
		}
		free(buf);
		f = df_at(d, sec->addr, NULL);
		if (f == NULL) {
			f = df_create(d, sec->addr, 0,
			    keepf(ft, "__BOLT_PSEUDO_%s", sec->name), (int)i);
			f->maxsize = esz;
			/* the section's entry size, not the one the first
			 * entry adjusted */
			reg(ft, f->names[0], sec->addr,
			    strcmp(sec->name, ".plt") == 0 ? 16 : 8);
		}
		f->flags |= BF_PSEUDO;
	}
}

/* a section's contents, copied (NULL if it has none) */
static uint8_t *
sec_copy(Elf *elf, const struct fsec *sec)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	uint8_t *buf;

	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL && sh.sh_addr == sec->addr &&
		    sh.sh_size == sec->size && (sh.sh_flags & SHF_ALLOC)) {
			Elf_Data *dd = elf_getdata(scn, NULL);

			if (dd == NULL || dd->d_size != sec->size ||
			    dd->d_buf == NULL)
				return NULL;
			buf = xmalloc(sec->size + 1);
			memcpy(buf, dd->d_buf, sec->size);
			return buf;
		}
	return NULL;
}

/* disassemblePLTSectionAArch64: an entry is the instructions up to an
 * indirect branch, its GOT slot the load that branch's register comes
 * from, at the page of the adrp that load's base register comes from
 * (AArch64MCPlusBuilder::analyzePLTEntry); the NOPs after an entry are
 * skipped.  createPLTBinaryFunction: a function already at the entry
 * keeps its name (an IFUNC trampoline), else the entry is name@PLT by
 * the slot's dynamic relocation, and the first, without one, the
 * section's __BOLT_PSEUDO_ function. */
static void
discover_plt_a64(struct disc *d, Elf *elf, struct dynrel *rels, size_t nrels)
{
	struct functab *ft = d->ft;
	size_t i;

	for (i = 0; i < ft->nsecs; i++) {
		const struct fsec *sec = &ft->secs[i];
		uint64_t o = 0;
		uint8_t *buf;


		if (strcmp(sec->name, ".plt") != 0 || sec->type == SHT_NOBITS ||
		    sec->size > (64u << 20) ||
		    (buf = sec_copy(elf, sec)) == NULL)
			continue;
		while (o + 4 <= sec->size) {
			/* the last writer of each register: its index in the
			 * entry + 1 (0: none); the words; for each load, the
			 * writer of its base register then (computeLocalUDChain) */
			uint32_t def[32] = { 0 }, words[64], base[64];
			uint64_t start = o, slot = 0;
			size_t n = 0;
			struct a64d a;
			int ended = 0;

			while (o + 4 <= sec->size && n < 64) {
				uint32_t w = a64d_word(buf + o);

				a64d_decode(w, sec->addr + o, &a);
				words[n++] = w;
				o += 4;
				if (a.kind == A64K_IJMP) {
					ended = 1;
					break;
				}
				/* the writers a PLT entry has: adrp, ldr
				 * (unsigned offset), add (immediate) */
				if (a.adrp)
					def[a.rd] = (uint32_t)n;
				else if ((w & 0xffc00000u) == 0xf9400000u) {
					base[n - 1] = def[(w >> 5) & 31];
					def[w & 31] = (uint32_t)n;
				}
				else if (a.addxi && a.rd != 31)
					def[a.rd] = (uint32_t)n;
			}
			if (!ended)
				break;
			/* br xT: xT from ldr xT, [xN, #imm], xN from adrp */
			if (a.rd < 31 && def[a.rd] != 0) {
				uint32_t li = def[a.rd] - 1, l = words[li];

				if ((l & 0xffc00000u) == 0xf9400000u &&
				    base[li] != 0) {
					uint32_t ap = base[li] - 1;
					struct a64d pg;

					a64d_decode(words[ap], sec->addr + start +
					    4 * (uint64_t)ap, &pg);
					if (pg.adrp)
						slot = pg.ref +
						    (uint64_t)((l >> 10) & 0xfff) * 8;
				}
			}
			if (slot != 0) {
				struct dynrel key = { slot, 0, NULL, 0 }, *r = NULL;
				struct dfunc *f = df_at(d, sec->addr + start, NULL);
				uint64_t esz = o - start;

				if (nrels > 0)
					r = bsearch(&key, rels, nrels,
					    sizeof(*rels), dynrelcmp);
				if (f != NULL)
					f->flags |= BF_PLT;	/* keeps its name */
				else if (r != NULL && r->sym != NULL) {
					f = df_create(d, sec->addr + start, 0,
					    keepf(ft, "%s@PLT", r->sym), (int)i);
					f->maxsize = esz;
					f->flags |= BF_PLT;
				} else if (start == 0) {
					f = df_create(d, sec->addr, 0,
					    keepf(ft, "__BOLT_PSEUDO_%s",
					    sec->name), (int)i);
					f->maxsize = esz;
					f->flags |= BF_PSEUDO;
				}
			}
			while (o + 4 <= sec->size &&
			    a64d_word(buf + o) == 0xd503201fu)
				o += 4;
		}
		free(buf);
	}
}

/* the dynamic relocations (.rela.dyn and .rela.plt), sorted by offset */
static struct dynrel *
read_dynrels(struct functab *ft, Elf *elf, size_t *nout)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh, lsh;
	struct dynrel *r = NULL;
	size_t n = 0, cap = 0, k, cnt;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *dd;
		Elf_Scn *ls;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_RELA ||
		    !(sh.sh_flags & SHF_ALLOC) || sh.sh_entsize == 0)
			continue;
		if ((dd = elf_getdata(scn, NULL)) == NULL)
			continue;
		ls = elf_getscn(elf, sh.sh_link);
		if (ls == NULL || gelf_getshdr(ls, &lsh) == NULL)
			ls = NULL;
		cnt = sh.sh_size / sh.sh_entsize;
		for (k = 0; k < cnt; k++) {
			GElf_Rela ra;
			GElf_Sym sy;
			const char *nm = NULL;
			size_t si;

			if (gelf_getrela(dd, (int)k, &ra) == NULL)
				break;
			si = GELF_R_SYM(ra.r_info);
			if (si != 0 && ls != NULL) {
				Elf_Data *sd = elf_getdata(ls, NULL);

				if (sd != NULL && gelf_getsym(sd, (int)si, &sy) != NULL)
					nm = elf_strptr(elf, lsh.sh_link, sy.st_name);
				if (nm != NULL && *nm == '\0')
					nm = NULL;
				if (nm != NULL)
					nm = keep(ft, xstrdup(nm));
			}
			xgrow(&r, &cap, n + 1, sizeof(*r));
			r[n++] = (struct dynrel){ ra.r_offset,
			    (uint64_t)ra.r_addend, nm,
			    (uint32_t)GELF_R_TYPE(ra.r_info) };
		}
	}
	if (n > 1) {
		/* keep the first relocation at each offset */
		struct dynrel *t;
		size_t i, j;

		for (i = 0; i < n; i++)
			r[i].addend = r[i].addend;	/* stable by index below */
		t = xreallocarray(NULL, n, sizeof(*t));
		memcpy(t, r, n * sizeof(*t));
		qsort(r, n, sizeof(*r), dynrelcmp);
		for (i = j = 0; i < n; i++)
			if (j == 0 || r[j - 1].off != r[i].off)
				r[j++] = r[i];
		n = j;
		free(t);
	}
	*nout = n;
	return r;
}

/* FDEs with no function: __BOLT_FDE_FUNCat<hex>.  Made apart and merged
 * in at the end (a BOLTed binary has one for each function BOLT moved:
 * inserting each in place moved the functions above it every time); the
 * FDEs come by address, so the function below one is the last made here
 * or the one below it in d->f, whichever is higher: an FDE in the range
 * of that one (getBinaryFunctionContainingAddress without MaxSize) has
 * its function */
static void
discover_fde_funcs(struct disc *d)
{
	struct functab *ft = d->ft;
	struct dfunc *nf = NULL;
	const struct dfunc *below;
	size_t i, j, k, pos, nn = 0, capn = 0;

	for (i = 0; i < ft->nfdes; i++) {
		const struct fde *e = &ft->fdes[i];
		int si;

		if (df_at(d, e->start, &pos) != NULL)
			continue;
		below = pos > 0 ? &d->f[pos - 1] : NULL;
		if (nn > 0 && (below == NULL || nf[nn - 1].addr > below->addr))
			below = &nf[nn - 1];
		if (below != NULL && df_contains(below, e->start))
			continue;
		si = secidx_for(ft, e->start);
		if (si < 0)
			continue;
		xgrow(&nf, &capn, nn + 1, sizeof(*nf));
		df_init(d, &nf[nn], e->start, e->range,
		    keepf(ft, "__BOLT_FDE_FUNCat%llx",
		    (unsigned long long)e->start), si);
		reg(ft, nf[nn].names[0], e->start, e->range);
		nf[nn++].flags |= BF_FDE;
	}
	if (nn == 0)
		return;
	xgrow(&d->f, &d->capf, d->nf + nn, sizeof(*d->f));
	i = d->nf;
	j = nn;
	k = d->nf + nn;
	while (j > 0)
		if (i > 0 && d->f[i - 1].addr > nf[j - 1].addr)
			d->f[--k] = d->f[--i];
		else
			d->f[--k] = nf[--j];
	d->nf += nn;
	free(nf);
}

/* adjustFunctionBoundaries; the symbols still in FileSymRefs are the
 * live entries of d->syms, which are sorted by address */
static void
adjust_boundaries(struct disc *d)
{
	struct functab *ft = d->ft;
	size_t i, k, lo, hi, m;

	for (i = 0; i < d->nf; i++) {
		struct dfunc *f = &d->f[i];
		const struct dfunc *next = i + 1 < d->nf ? &d->f[i + 1] : NULL;
		uint64_t nextobj, maxsize;

		lo = 0;
		hi = d->nsyms;
		while (lo < hi) {	/* upper_bound(addr) */
			m = lo + (hi - lo) / 2;
			if (d->syms[m].addr <= f->addr)
				lo = m + 1;
			else
				hi = m;
		}
		for (k = lo; k < d->nsyms; k++) {
			const struct rsym *s = &d->syms[k];

			if (s->dead)
				continue;
			if (next != NULL && s->addr >= next->addr)
				break;
			if (!valid_in_scope(ft, f, s))
				break;
			/* x86 has no private label prefix to skip */
			add_entry(d, s->addr, NULL);
			d->ent[d->nent - 1].func = (uint32_t)i;
		}
		nextobj = ft->secs[f->sec].addr + ft->secs[f->sec].size;
		while (k < d->nsyms && d->syms[k].dead)
			k++;
		if (k < d->nsyms && d->syms[k].addr < nextobj)
			nextobj = d->syms[k].addr;
		if (next != NULL && next->addr < nextobj)
			nextobj = next->addr;
		maxsize = nextobj - f->addr;
		if (maxsize < f->size) {
			f->flags |= BF_NONSIMPLE;
			f->maxsize = f->size;
			continue;
		}
		f->maxsize = maxsize;
		if (f->size == 0 && !(f->flags & BF_NONSIMPLE)) {
			f->size = maxsize;
			f->flags |= BF_ZEROSIZE;
		}
	}
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

static void
name_insert(struct functab *ft, const char *name, uint32_t idx)
{
	size_t i, mask;

	if ((ft->nnames + 1) * 2 > ft->nameidxcap) {
		size_t ncap = ft->nameidxcap ? ft->nameidxcap * 2 : 1024, j;
		uint32_t *ni = xcalloc(ncap, sizeof(*ni));
		const char **nn = xcalloc(ncap, sizeof(*nn));

		for (j = 0; j < ft->nameidxcap; j++) {
			if (ft->nameidx[j] == 0)
				continue;
			for (i = strhash(ft->nameof[j]) & (ncap - 1); ni[i] != 0;
			    i = (i + 1) & (ncap - 1))
				;
			ni[i] = ft->nameidx[j];
			nn[i] = ft->nameof[j];
		}
		free(ft->nameidx);
		free(ft->nameof);
		ft->nameidx = ni;
		ft->nameof = nn;
		ft->nameidxcap = ncap;
	}
	mask = ft->nameidxcap - 1;
	for (i = strhash(name) & mask; ft->nameidx[i] != 0; i = (i + 1) & mask)
		if (strcmp(ft->nameof[i], name) == 0)
			return;		/* the first function keeps it */
	ft->nameidx[i] = idx + 1;
	ft->nameof[i] = name;
	ft->nnames++;
}

const struct bfunc *
functab_by_name(const struct functab *ft, const char *name)
{
	size_t i, mask;

	if (ft->nameidxcap == 0)
		return NULL;
	mask = ft->nameidxcap - 1;
	for (i = strhash(name) & mask; ft->nameidx[i] != 0; i = (i + 1) & mask)
		if (strcmp(ft->nameof[i], name) == 0)
			return &ft->f[ft->nameidx[i] - 1];
	return NULL;
}

/* registerFragments, simplified to names: the parent is the function
 * named by the fragment's name up to ".cold" (a global, else the only
 * local of that name, else the local of the same file) */
static void
link_fragments(struct functab *ft, struct disc *d)
{
	size_t i;

	for (i = 0; i < ft->n; i++) {
		struct bfunc *f = &ft->f[i];
		const struct bfunc *p = NULL;
		const char *c;
		char *pn;

		f->parent = (uint32_t)i;
		if (!(f->flags & BF_FRAGMENT) || f->symname == NULL)
			continue;
		c = cold_suffix(f->symname);
		pn = xstrndup(f->symname, (size_t)(c - f->symname));
		/* getBinaryDataByName: any of a function's names, so a
		 * fragment named after an alias (g++'s C2 constructor, the
		 * function being named after its C1) finds it */
		if ((p = functab_by_name(ft, pn)) == NULL) {
			char *ln = NULL, *fn = NULL;
			const char *file = NULL;

			if (f->filename != f->name) {
				/* name/file/N: take the file */
				const char *a = strchr(f->filename +
				    strlen(f->symname), '/');
				const char *b = a ? strrchr(a + 1, '/') : NULL;

				if (a != NULL && b != NULL)
					file = a + 1, fn = xstrndup(file,
					    (size_t)(b - file));
			}
			p = NULL;
			if (fn != NULL) {
				size_t k;

				for (k = 1; k < 1000 && p == NULL; k++) {
					const struct bfunc *q;

					free(ln);
					if (asprintf(&ln, "%s/%s/%zu", pn, fn, k) == -1)
						break;
					q = functab_by_name(ft, ln);
					if (q == NULL)
						break;
					if (strcmp(q->filename, ln) == 0)
						p = q;
				}
			}
			if (p == NULL) {
				free(ln);
				ln = NULL;
				if (asprintf(&ln, "%s/1", pn) != -1)
					p = functab_by_name(ft, ln);
			}
			free(ln);
			free(fn);
		}
		free(pn);
		if (p != NULL && p != f)
			f->parent = (uint32_t)(p - ft->f);
	}
	(void)d;
}

/* ------------------------------------------------------------------ */

static void addr_index(struct functab *);

int
functab_load(struct functab *ft, struct elfobj *eo, char *err, size_t errlen)
{
	return functab_load_flags(ft, eo, 0, err, errlen);
}

int
functab_load_flags(struct functab *ft, struct elfobj *eo, unsigned flags,
    char *err, size_t errlen)
{
	Elf *elf = eo->elf;
	Elf_Scn *scn = NULL, *symscn = NULL;
	GElf_Shdr sh, symsh = { 0 };
	size_t shstrndx, nscn, i, k, nrels = 0, capsecs = 0;
	struct disc d;
	struct dynrel *rels;
	int *secmap;		/* ELF section index -> ft->secs index */

	memset(ft, 0, sizeof(*ft));
	memset(&d, 0, sizeof(d));
	d.ft = ft;
	if (elf == NULL || elf_getshdrstrndx(elf, &shstrndx) != 0 ||
	    elf_getshdrnum(elf, &nscn) != 0)
		return failf(err, errlen, "%s: bad section headers", eo->path);
	secmap = xcalloc(nscn + 1, sizeof(*secmap));
	for (i = 0; i <= nscn; i++)
		secmap[i] = -1;
	/* allocatable sections, and .rela.text, .eh_frame, .symtab */
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;

		if (gelf_getshdr(scn, &sh) == NULL) {
			free(secmap);
			return failf(err, errlen, "%s: bad section header",
			    eo->path);
		}
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n == NULL)
			n = "";
		if (strcmp(n, ".rela.text") == 0)
			ft->has_relocs = 1;
		if (sh.sh_type == SHT_SYMTAB && symscn == NULL) {
			symscn = scn;
			symsh = sh;
		}
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		xgrow(&ft->secs, &capsecs, ft->nsecs + 1, sizeof(*ft->secs));
		ft->secs[ft->nsecs++] = (struct fsec){ sh.sh_addr, sh.sh_size,
		    sh.sh_offset, sh.sh_flags, sh.sh_type,
		    keep(ft, xstrdup(n)) };
		secmap[elf_ndxscn(scn)] = (int)ft->nsecs - 1;
		if (strcmp(n, ".eh_frame") == 0 && sh.sh_type == SHT_PROGBITS) {
			Elf_Data *dd = elf_getdata(scn, NULL);

			if (dd != NULL && dd->d_buf != NULL)
				parse_ehframe(ft, dd->d_buf, dd->d_size,
				    sh.sh_addr);
		}
	}
	if (symscn == NULL && !(flags & FT_ALLOW_STRIPPED)) {
		free(secmap);
		functab_free(ft);
		return failf(err, errlen, "%s: no symbol table (stripped); BOLT "
		    "needs one", eo->path);
	}
	/* sort the sections, remapping the index map through the order the
	 * sort chose (each section carries where it came from: comparing
	 * struct fsec values bytewise would read their padding) */
	{
		struct fsec_at *o = xreallocarray(NULL, ft->nsecs + 1,
		    sizeof(*o));
		size_t *to = xreallocarray(NULL, ft->nsecs + 1, sizeof(*to));
		size_t j;

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
	/* the symbols, with their FILE (none in a stripped binary: its
	 * functions are then those of .eh_frame and the PLT, as BOLT's
	 * --allow-stripped finds them) */
	if (symscn != NULL) {
		Elf_Data *sd = elf_getdata(symscn, NULL);
		size_t n, cap = 0;
		const char *file = NULL;

		if (sd == NULL || symsh.sh_entsize == 0) {
			free(secmap);
			functab_free(ft);
			return failf(err, errlen, "%s: bad symbol table",
			    eo->path);
		}
		n = symsh.sh_size / symsh.sh_entsize;
		for (i = 1; i < n; i++) {
			GElf_Sym s;
			const char *nm;
			struct rsym r;
			int t;

			if (gelf_getsym(sd, (int)i, &s) == NULL)
				break;
			nm = elf_strptr(elf, symsh.sh_link, s.st_name);
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
			    (r.mark = a64_mark(nm, t, s.st_size)) != 0)
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
			r.name = keep(ft, xstrdup(nm));
			if (r.file != NULL)
				r.file = keep(ft, xstrdup(r.file));
			xgrow(&d.syms, &cap, d.nsyms + 1, sizeof(*d.syms));
			d.syms[d.nsyms++] = r;
		}
		if (d.nsyms > 1)
			qsort(d.syms, d.nsyms, sizeof(*d.syms), rsymcmp);
	}
	free(secmap);

	ft->machine = eo->machine;
	if (eo->machine == EM_AARCH64)
		a64_marks(&d);
	discover_symbols(&d);
	rels = read_dynrels(ft, elf, &nrels);
	if (eo->machine == EM_AARCH64)
		discover_plt_a64(&d, elf, rels, nrels);
	else
		discover_plt(&d, elf, rels, nrels);
	free(rels);
	discover_fde_funcs(&d);
	adjust_boundaries(&d);

	/* the table */
	ft->f = xcalloc(d.nf + 1, sizeof(*ft->f));
	ft->n = d.nf;
	for (i = 0; i < d.nf; i++) {
		struct dfunc *f = &d.f[i];
		struct bfunc *b = &ft->f[i];
		size_t j;

		b->addr = f->addr;
		b->size = f->size;
		b->maxsize = f->maxsize;
		b->name = f->names[0];
		b->filename = f->names[0];
		/* getLocationName under BAT: the first name of the form
		 * symbol/file/N */
		for (j = 0; j < f->nnames; j++) {
			const char *sl = strchr(f->names[j], '/');

			if (sl != NULL && strchr(sl + 1, '/') != NULL) {
				b->filename = f->names[j];
				break;
			}
		}
		b->symname = f->rawname ? f->rawname : f->names[0];
		b->flags = f->flags;
		b->parent = (uint32_t)i;
		b->shndx = (uint16_t)f->sec;
		b->num = f->num;
		for (j = 0; j < f->nnames; j++)
			name_insert(ft, f->names[j], (uint32_t)i);
		free(f->names);
	}
	addr_index(ft);
	/* entries: assign the functions of those found in the symbol loop */
	for (i = 0; i < d.nent; i++) {
		const struct bfunc *b = functab_find(ft, d.ent[i].addr);

		if (d.ent[i].name != NULL || b == NULL)
			d.ent[i].func = b ? (uint32_t)(b - ft->f) : 0;
		if (d.ent[i].name == NULL)
			d.ent[i].name = ft->f[d.ent[i].func].name;
	}
	if (d.nent > 1)
		qsort(d.ent, d.nent, sizeof(*d.ent), fsymcmp);
	/* one entry per address */
	for (i = k = 0; i < d.nent; i++)
		if (k == 0 || d.ent[k - 1].addr != d.ent[i].addr)
			d.ent[k++] = d.ent[i];
	ft->syms = d.ent;
	ft->nsyms = k;
	link_fragments(ft, &d);
	free(d.f);
	free(d.syms);
	free(d.cname);
	free(d.ccount);
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
	size_t i;

	for (i = 0; i < ft->nstrs; i++)
		free(ft->strs[i]);
	free(ft->strs);
	free(ft->f);
	free(ft->syms);
	free(ft->fdes);
	free(ft->marks);
	free(ft->secs);
	free(ft->regs);
	free(ft->nameidx);
	free(ft->nameof);
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
