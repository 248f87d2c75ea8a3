/* See COPYING file for copyright and license details. */
/*
 * ehframe.c: .eh_frame as BOLT 19 reads it (CFIReaderWriter: one FDE per
 * start, the first with a non-zero range) and the functions known only
 * from it (__BOLT_FDE_FUNCat<hex>); every read bounds-checked.
 */
#include <stdlib.h>
#include <string.h>

#include "ftint.h"
#include "a64dec.h"

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

/* (start, index) is a total order: the sort needs no stability */
#define SORT_NAME	sort_fdek
#define SORT_TYPE	struct fdek
#define SORT_LESS(a, b)	(fdekcmp(a, b) < 0)
#include "sort.h"

/* a CIE's augmentation data (after 'z'): the encodings it names */
static int
parse_cie_aug(struct ehp *e, const char *aug, const uint8_t *q,
    const uint8_t *aend, struct cie *c)
{
	uint64_t v;
	size_t k;
	uint8_t penc;

	for (k = 1; aug[k] != '\0'; k++) {
		switch (aug[k]) {
		case 'L':
			if (q >= aend)
				return -1;
			c->lsdaenc = *q++;
			c->aug_l = 1;
			break;
		case 'R':
			if (q >= aend)
				return -1;
			c->fdeenc = *q++;
			break;
		case 'P':	/* the personality: its encoding, pointer */
			if (q >= aend)
				return -1;
			penc = *q++;
			if (eh_ptr(e, &q, aend, penc & 0x7f, 0, &v) == -1)
				return -1;
			break;
		case 'S':
		case 'B':
		case 'G':
			break;
		default:
			return 0;	/* unknown: the rest is not read */
		}
	}
	return 0;
}

/* the CIE whose body (after the length) is body, its fields from q (after
 * the id) to p; -1 if damaged */
static int
parse_cie(struct ehp *e, const uint8_t *body, const uint8_t *q,
    const uint8_t *p, struct cie *c)
{
	const char *aug;
	size_t alen;
	uint64_t v, augl;
	int64_t sv;

	if (q >= p)
		return -1;
	q++;			/* version */
	aug = (const char *)q;
	alen = strnlen(aug, (size_t)(p - q));
	if (alen == (size_t)(p - q))
		return -1;
	q += alen + 1;
	if (strstr(aug, "eh") != NULL)
		q += 8;
	if (q > p || eh_uleb(&q, p, &v) == -1 || eh_sleb(&q, p, &sv) == -1)
		return -1;
	if (body[4] == 1) {	/* version 1: a byte for the return column */
		if (q >= p)
			return -1;
		q++;
	} else if (eh_uleb(&q, p, &v) == -1)
		return -1;
	if (aug[0] != 'z')
		return 0;
	c->aug_z = 1;
	if (eh_uleb(&q, p, &augl) == -1 || augl > (uint64_t)(p - q))
		return -1;
	return parse_cie_aug(e, aug, q, q + augl, c);
}

/* the FDE whose body is body, its fields from q (after the id, the
 * distance back to its CIE) to p; -1 if damaged or its CIE unknown */
static int
parse_fde(struct ehp *e, const struct cie *cies, size_t ncies,
    const uint8_t *body, uint64_t id, const uint8_t *q, const uint8_t *p,
    struct fde *f)
{
	const struct cie *c = NULL;
	const uint8_t *aend;
	uint64_t cieoff, augl;
	size_t j;

	if (id > (uint64_t)(body - e->base))
		return -1;
	cieoff = (uint64_t)(body - e->base) - id;
	for (j = ncies; j-- > 0;)
		if (cies[j].off == cieoff) {
			c = &cies[j];
			break;
		}
	if (c == NULL)
		return -1;
	if (eh_ptr(e, &q, p, c->fdeenc, 0, &f->start) == -1 ||
	    eh_ptr(e, &q, p, c->fdeenc & 0x0f, 1, &f->range) == -1)
		return -1;
	f->lsda = 0;
	if (c->aug_z) {
		if (eh_uleb(&q, p, &augl) == -1 || augl > (uint64_t)(p - q))
			return -1;
		aend = q + augl;
		if (c->aug_l && eh_ptr(e, &q, aend, c->lsdaenc & 0x7f, 0,
		    &f->lsda) == -1)
			f->lsda = 0;
	}
	return 0;
}

/* CFIReaderWriter: one FDE per start, the first with a non-zero range;
 * sorted by start, file order among equal starts */
static void
fdes_unique(struct functab *ft)
{
	struct fdek *ks = xreallocarray(NULL, ft->nfdes, sizeof(*ks));
	struct fde *t = xreallocarray(NULL, ft->nfdes, sizeof(*t));
	size_t i, j;

	memcpy(t, ft->fdes, ft->nfdes * sizeof(*t));
	for (i = 0; i < ft->nfdes; i++)
		ks[i] = (struct fdek){ t[i].start, i };
	for (i = 1; i < ft->nfdes && ks[i - 1].start <= ks[i].start; i++)
		;
	if (i < ft->nfdes)	/* most .eh_frame sections are sorted */
		sort_fdek(ks, ft->nfdes);
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

/* parse .eh_frame; damaged entries end the parse (what was read stays) */
void
ft_parse_ehframe(struct functab *ft, const uint8_t *buf, size_t len,
    uint64_t addr)
{
	struct ehp e = { buf, buf + len, addr };
	const uint8_t *p = buf, *end = buf + len, *ent, *body;
	struct cie *cies = NULL, c;
	struct fde f;
	size_t ncies = 0, capcies = 0, capf = 0;
	uint64_t l, id;

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
		p += l;		/* the next entry */
		id = ld32(body, 0);
		if (id == 0) {
			c = (struct cie){ (uint64_t)(ent - buf), 0, 0xff, 0, 0 };
			if (parse_cie(&e, body, body + 4, p, &c) == 0) {
				xgrow(&cies, &capcies, ncies + 1, sizeof(*cies));
				cies[ncies++] = c;
			}
		} else if (parse_fde(&e, cies, ncies, body, id, body + 4, p,
		    &f) == 0) {
			xgrow(&ft->fdes, &capf, ft->nfdes + 1, sizeof(*ft->fdes));
			ft->fdes[ft->nfdes++] = f;
		}
	}
	free(cies);
	if (ft->nfdes > 0)
		fdes_unique(ft);
}

/* first FDE with start >= a */
size_t
ft_fde_lower(const struct functab *ft, uint64_t a)
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
	size_t i = ft_fde_lower(ft, a);

	return i < ft->nfdes && ft->fdes[i].start == a ? &ft->fdes[i] : NULL;
}

/* FDEs with no function: __BOLT_FDE_FUNCat<hex>.  Made apart and merged
 * in at the end (a BOLTed binary has one for each function BOLT moved:
 * inserting each in place moved the functions above it every time); the
 * FDEs come by address, so the function below one is the last made here
 * or the one below it in d->f, whichever is higher: an FDE in the range
 * of that one (getBinaryFunctionContainingAddress without MaxSize) has
 * its function */
void
ft_discover_fde_funcs(struct disc *d)
{
	struct functab *ft = d->ft;
	struct dfunc *nf = NULL;
	const struct dfunc *below;
	size_t i, j, k, pos, nn = 0, capn = 0;

	/* the FDEs and the functions are both sorted by address: where
	 * each FDE's start goes among the functions is a cursor's walk */
	for (i = pos = 0; i < ft->nfdes; i++) {
		const struct fde *e = &ft->fdes[i];
		int si;

		while (pos < d->nf && d->f[pos].addr < e->start)
			pos++;
		if (pos < d->nf && d->f[pos].addr == e->start)
			continue;
		below = pos > 0 ? &d->f[pos - 1] : NULL;
		if (nn > 0 && (below == NULL || nf[nn - 1].addr > below->addr))
			below = &nf[nn - 1];
		if (below != NULL && ft_df_contains(below, e->start))
			continue;
		si = ft_secidx_for(ft, e->start);
		if (si < 0)
			continue;
		xgrow(&nf, &capn, nn + 1, sizeof(*nf));
		ft_df_init(d, &nf[nn], e->start, e->range,
		    ft_keepf(ft, "__BOLT_FDE_FUNCat%llx",
		    (unsigned long long)e->start), si);
		ft_reg(ft, nf[nn].name0, e->start, e->range);
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
