/* See COPYING file for copyright and license details. */
/*
 * profile.c: llvm-profgen 19's ProfileGenerator for a profile without
 * calling contexts (generateLineNumBasedProfile, postProcessProfiles) and
 * SampleProfileWriterText.
 *
 * Ranges: every function a range starts in has all its ranges added with
 * count 0 (preprocessRangeCounter), so that code never reached reads 0;
 * the ranges are cut into disjoint ones with summed counts
 * (findDisjointRanges).  Every instruction of a disjoint range adds its
 * count times its size to the total samples of each frame of its inline
 * stack, and its count (times the duplication factor of its
 * discriminator) to its leaf frame's line, as the maximum over the
 * instructions of that line (with --leading-ip-only: the sum, no
 * factor).  Branches: one to the start of a function's entry range adds
 * a call target at the source's leaf line and head samples to the
 * callee's profile.  Then each top-level profile's line counts are
 * raised to the sum of their call targets, and profiles of
 * __cxx_global_var_init* and __tls_init* are dropped.  The writer sorts
 * functions by total samples (descending), then name; lines and call
 * sites by line offset and discriminator; call targets by count
 * (descending), then name; inlined callees by name.
 */
#include <stdlib.h>
#include <string.h>

#include "afdowrite.h"

#define NOPARENT	UINT32_MAX

struct fsamples {
	uint32_t	 name;
	uint32_t	 parent;	/* NOPARENT: top level */
	uint32_t	 line, disc;	/* the call site in the parent */
	uint64_t	 total, head;
	uint8_t		 dropped;
};

struct body {
	uint32_t	 node;
	uint32_t	 line, disc;
	uint64_t	 samples;
};

struct target {
	uint32_t	 body;
	uint32_t	 name;
	uint64_t	 count;
};

struct profile {
	struct code	*c;
	struct dw	*d;
	struct strtab	*names;
	int		 iponly;
	struct fsamples	*fs;
	size_t		 nfs, fscap;
	struct pairtab	 fsidx;		/* (parent << 32 | name, line << 32 |
					 * disc) -> node + 1 */
	struct body	*bd;
	size_t		 nbd, bdcap;
	struct pairtab	 bdidx;		/* (node, line << 32 | disc) ->
					 * body + 1 */
	struct target	*tg;
	size_t		 ntg, tgcap;
	struct pairtab	 tgidx;		/* (body, name) -> target + 1 */
	struct frame	*fv;
	size_t		 fvcap;
	uint64_t	 nfuncs;
	/* the writer's view: per node, its sorted bodies and children */
	uint32_t	*bdorder, *tgorder, *kids, *kidstart, *bdstart,
			*tgstart;
};

static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* ---- discriminators (DILocation, Support/Discriminator.h) ---- */

static unsigned
from_prefix(unsigned u)
{
	if (u & 1)
		return 0;
	u >>= 1;
	return (u & 0x20) ? (((u >> 1) & 0xfe0) | (u & 0x1f)) : (u & 0x1f);
}

/* DILocation::getBaseDiscriminatorFromDiscriminator(D, false), a
 * pseudo-probe discriminator's shape included */
static uint32_t
base_disc(uint32_t d)
{
	if ((d & 7) == 7 && (d & 0xfffffff8u)) {
		if (d & 0x10000000u)
			return (d >> 16) & 7;
		return (d >> 3) & 0xffff;
	}
	return from_prefix(d);
}

/* DILocation::getDuplicationFactorFromDiscriminator */
static uint32_t
dup_factor(uint32_t d)
{
	unsigned r;

	d = (d & 1) == 0 ? d >> ((d & 0x40) ? 14 : 7) : d >> 1;
	r = from_prefix(d);
	return r == 0 ? 1 : r;
}

/* ---- FunctionSamples ---- */

static uint32_t
node_get(struct profile *p, uint32_t parent, uint32_t line, uint32_t disc,
    uint32_t name)
{
	uint64_t *slot = pair_slot(&p->fsidx, (uint64_t)parent << 32 | name,
	    (uint64_t)line << 32 | disc, 1);

	if (*slot == 0) {
		xgrow(&p->fs, &p->fscap, p->nfs + 1, sizeof(*p->fs));
		p->fs[p->nfs] = (struct fsamples){ name, parent, line, disc, 0,
		    0, 0 };
		*slot = ++p->nfs;
	}
	return (uint32_t)(*slot - 1);
}

static uint32_t
body_get(struct profile *p, uint32_t node, uint32_t line, uint32_t disc,
    int create)
{
	uint64_t *slot = pair_slot(&p->bdidx, node,
	    (uint64_t)line << 32 | disc, create);

	if (slot == NULL)
		return UINT32_MAX;
	if (*slot == 0) {
		xgrow(&p->bd, &p->bdcap, p->nbd + 1, sizeof(*p->bd));
		p->bd[p->nbd] = (struct body){ node, line, disc, 0 };
		*slot = ++p->nbd;
	}
	return (uint32_t)(*slot - 1);
}

/* getLeafProfileAndAddTotalSamples */
static uint32_t
leaf_profile(struct profile *p, const struct frame *fv, size_t n,
    uint64_t count)
{
	uint32_t x = node_get(p, NOPARENT, 0, 0, fv[0].name);
	size_t i;

	p->fs[x].total = sat_add(p->fs[x].total, count);
	for (i = 1; i < n; i++) {
		x = node_get(p, x, fv[i - 1].off, base_disc(fv[i - 1].disc),
		    fv[i].name);
		p->fs[x].total = sat_add(p->fs[x].total, count);
	}
	return x;
}

/* updateBodySamplesforFunctionProfile */
static void
update_body(struct profile *p, uint32_t node, const struct frame *leaf,
    uint64_t count)
{
	uint32_t b, disc = base_disc(leaf->disc);

	if (p->iponly) {
		b = body_get(p, node, leaf->off, disc, 1);
		p->bd[b].samples = sat_add(p->bd[b].samples, count);
		return;
	}
	count *= dup_factor(leaf->disc);
	b = body_get(p, node, leaf->off, disc, 0);
	if (b == UINT32_MAX) {
		b = body_get(p, node, leaf->off, disc, 1);
		p->bd[b].samples = count;
	} else if (p->bd[b].samples <= count)
		p->bd[b].samples = sat_add(p->bd[b].samples,
		    count - p->bd[b].samples);
}

/* ---- ranges ---- */

struct bpoint {
	uint64_t	addr;
	uint64_t	count;
	uint8_t		end;		/* an end point, else a begin */
	uint8_t		zero;		/* of a zero-count range */
};

/* by address: disjoint_ranges sums the points of an address before it
 * acts, so their order among themselves does not matter */
#define SORT_NAME	sort_bpoints
#define SORT_TYPE	struct bpoint
#define SORT_LESS(a, b)	((a)->addr < (b)->addr)
#include "sort.h"

struct drange {
	uint64_t	begin, end, count;
};

/* preprocessRangeCounter and findDisjointRanges: the disjoint ranges in
 * address order */
static struct drange *
disjoint_ranges(struct profile *p, const struct pairtab *rc, size_t *nout)
{
	struct pairtab all;
	struct bpoint *pt;
	struct drange *out = NULL;
	uint8_t *done = NULL;
	size_t i, j, k, n = 0, cap = 0, ndone = 0;
	uint64_t begin = UINT64_MAX, count = 0;
	int zdepth = 0;

	memset(&all, 0, sizeof(all));
	for (i = 0; i < pair_n(rc); i++)
		pair_add(&all, pair_at(rc, i)->a, pair_at(rc, i)->b,
		    pair_at(rc, i)->count);
	/* every range of each function a range starts in, with count 0 */
	for (i = 0; i < pair_n(rc); i++) {
		const uint64_t *lohi;
		long f;
		size_t nr;

		if ((f = dw_func_at(p->d, pair_at(rc, i)->a)) < 0)
			continue;
		if ((size_t)f >= ndone) {
			size_t old = ndone;

			xgrow(&done, &ndone, (size_t)f + 1, 1);
			memset(done + old, 0, ndone - old);
		}
		if (done[f])
			continue;
		done[f] = 1;
		nr = dw_func_ranges(p->d, f, &lohi);
		for (j = 0; j < nr; j++)
			(void)pair_slot(&all, lohi[2 * j], lohi[2 * j + 1] - 1,
			    1);
	}
	free(done);
	pt = xreallocarray(NULL, 2 * pair_n(&all) + 1, sizeof(*pt));
	for (i = 0, k = 0; i < pair_n(&all); i++) {
		const struct pairent *e = pair_at(&all, i);

		pt[k++] = (struct bpoint){ e->a, e->count, 0, e->count == 0 };
		pt[k++] = (struct bpoint){ e->b, e->count, 1, e->count == 0 };
	}
	pair_free(&all);
	sort_bpoints(pt, k);
	/* the boundary points, one per address: summed begin and end
	 * counts (or none), and whether a zero range begins or ends there */
	for (i = 0; i < k; i = j) {
		uint64_t a = pt[i].addr, bc = 0, ec = 0;
		int hasb = 0, hase = 0, zb = 0, ze = 0;

		for (j = i; j < k && pt[j].addr == a; j++) {
			if (pt[j].end) {
				hase = 1;
				ec += pt[j].count;
				ze |= pt[j].zero;
			} else {
				hasb = 1;
				bc += pt[j].count;
				zb |= pt[j].zero;
			}
		}
		if (hasb) {
			if (begin != UINT64_MAX) {
				xgrow(&out, &cap, n + 1, sizeof(*out));
				out[n++] = (struct drange){ begin, a - 1, count };
			}
			count += bc;
			begin = a;
			zdepth += zb;
		}
		if (hase) {
			xgrow(&out, &cap, n + 1, sizeof(*out));
			out[n++] = (struct drange){ begin, a, count };
			count -= ec;
			begin = a + 1;
			zdepth -= ze;
			if (count == 0 && zdepth == 0)
				begin = UINT64_MAX;
		}
	}
	free(pt);
	*nout = n;
	return out;
}

/* populateBodySamplesForAllFunctions */
static void
body_samples(struct profile *p, const struct drange *r, size_t nr)
{
	size_t i, n;
	uint64_t ip;

	for (i = 0; i < nr; i++) {
		ip = code_next(p->c, r[i].begin);
		if (ip > r[i].end)
			continue;
		do {
			n = dw_symbolize(p->d, ip, &p->fv, &p->fvcap);
			if (n > 0) {
				uint32_t x = leaf_profile(p, p->fv, n,
				    r[i].count * (code_info(p->c, ip) & CI_SIZE));

				update_body(p, x, &p->fv[n - 1], r[i].count);
			}
			ip = ip == UINT64_MAX ? ip : code_next(p->c, ip + 1);
		} while (ip != UINT64_MAX && ip <= r[i].end);
	}
}

/* populateBoundarySamplesForAllFunctions */
static void
boundary_samples(struct profile *p, const struct pairtab *bc)
{
	size_t i, n;

	for (i = 0; i < pair_n(bc); i++) {
		const struct pairent *e = pair_at(bc, i);
		uint32_t callee, x, b, tname;
		uint64_t *slot;

		if ((callee = dw_callee_at(p->d, e->b)) == NONAME)
			continue;
		n = dw_symbolize(p->d, e->a, &p->fv, &p->fvcap);
		if (n > 0) {
			x = leaf_profile(p, p->fv, n, 0);
			b = body_get(p, x, p->fv[n - 1].off,
			    base_disc(p->fv[n - 1].disc), 1);
			tname = callee;
			slot = pair_slot(&p->tgidx, b, tname, 1);
			if (*slot == 0) {
				xgrow(&p->tg, &p->tgcap, p->ntg + 1,
				    sizeof(*p->tg));
				p->tg[p->ntg] = (struct target){ b, tname, 0 };
				*slot = ++p->ntg;
			}
			p->tg[*slot - 1].count = sat_add(p->tg[*slot - 1].count,
			    e->count);
		}
		x = node_get(p, NOPARENT, 0, 0, callee);
		p->fs[x].head = sat_add(p->fs[x].head, e->count);
	}
}

/* updateCallsiteSamples: a top-level line reads at least its calls */
static void
raise_to_calls(struct profile *p)
{
	uint64_t *sum = xcalloc(p->nbd + 1, sizeof(*sum));
	size_t i;

	for (i = 0; i < p->ntg; i++)
		sum[p->tg[i].body] += p->tg[i].count;
	for (i = 0; i < p->nbd; i++)
		if (p->fs[p->bd[i].node].parent == NOPARENT &&
		    sum[i] > p->bd[i].samples)
			p->bd[i].samples = sum[i];
	free(sum);
}

/* filterAmbiguousProfile: names of local initializers that several
 * functions share once suffixes are cut; a dropped node drops its
 * subtree from the output */
static void
drop_ambiguous(struct profile *p)
{
	static const char *const pfx[] = { "__cxx_global_var_init",
	    "__tls_init" };
	size_t i, k;

	for (i = 0; i < p->nfs; i++) {
		const char *s = p->names->s[p->fs[i].name];

		for (k = 0; k < NELEM(pfx); k++)
			if (strncmp(s, pfx[k], strlen(pfx[k])) == 0)
				p->fs[i].dropped = 1;
	}
}

struct profile *
profile_build(struct code *c, struct dw *d, const struct counters *ct)
{
	struct profile *p = xcalloc(1, sizeof(*p));
	struct drange *r;
	size_t nr;

	p->c = c;
	p->d = d;
	p->names = dw_names(d);
	p->iponly = ct->iponly;
	r = disjoint_ranges(p, &ct->ranges, &nr);
	body_samples(p, r, nr);
	free(r);
	if (!p->iponly)
		boundary_samples(p, &ct->branches);
	raise_to_calls(p);
	drop_ambiguous(p);
	return p;
}

/* ---- the writer ---- */

static struct profile *sortp;

static int
namecmp(uint32_t a, uint32_t b)
{
	return strcmp(sortp->names->s[a], sortp->names->s[b]);
}

/*
 * The orders of the output, over indexes into sortp's arrays, sorted where
 * they stand (sort.h).  Each breaks its last tie by the index, the order
 * the arrays were filled in, as glibc's qsort (a merge sort) kept it.
 */
#define IDXLESS(a, b)	(*(a) < *(b))

/* top level: total samples descending, then name */
static int
topless(const uint32_t *a, const uint32_t *b)
{
	const struct fsamples *x = &sortp->fs[*a], *y = &sortp->fs[*b];
	int c;

	if (x->total != y->total)
		return x->total > y->total;
	c = namecmp(x->name, y->name);
	return c != 0 ? c < 0 : IDXLESS(a, b);
}

/* children by parent, call site, name */
static int
kidless(const uint32_t *a, const uint32_t *b)
{
	const struct fsamples *x = &sortp->fs[*a], *y = &sortp->fs[*b];
	int c;

	if (x->parent != y->parent)
		return x->parent < y->parent;
	if (x->line != y->line)
		return x->line < y->line;
	if (x->disc != y->disc)
		return x->disc < y->disc;
	c = namecmp(x->name, y->name);
	return c != 0 ? c < 0 : IDXLESS(a, b);
}

/* body samples by node, then location */
static int
bodyless(const uint32_t *a, const uint32_t *b)
{
	const struct body *x = &sortp->bd[*a], *y = &sortp->bd[*b];

	if (x->node != y->node)
		return x->node < y->node;
	if (x->line != y->line)
		return x->line < y->line;
	if (x->disc != y->disc)
		return x->disc < y->disc;
	return IDXLESS(a, b);
}

/* call targets by body, count descending, name */
static int
targetless(const uint32_t *a, const uint32_t *b)
{
	const struct target *x = &sortp->tg[*a], *y = &sortp->tg[*b];
	int c;

	if (x->body != y->body)
		return x->body < y->body;
	if (x->count != y->count)
		return x->count > y->count;
	c = namecmp(x->name, y->name);
	return c != 0 ? c < 0 : IDXLESS(a, b);
}

#define SORT_NAME	sort_top
#define SORT_TYPE	uint32_t
#define SORT_LESS(a, b)	topless(a, b)
#include "sort.h"
#define SORT_NAME	sort_kids
#define SORT_TYPE	uint32_t
#define SORT_LESS(a, b)	kidless(a, b)
#include "sort.h"
#define SORT_NAME	sort_bodies
#define SORT_TYPE	uint32_t
#define SORT_LESS(a, b)	bodyless(a, b)
#include "sort.h"
#define SORT_NAME	sort_targets
#define SORT_TYPE	uint32_t
#define SORT_LESS(a, b)	targetless(a, b)
#include "sort.h"

static void
put_loc(struct wbuf *w, uint32_t line, uint32_t disc)
{
	wb_dec(w, line);
	if (disc != 0) {
		wb_putc(w, '.');
		wb_dec(w, disc);
	}
	wb_puts(w, ": ");
}

static void
indent(struct wbuf *w, unsigned n)
{
	while (n-- > 0)
		wb_putc(w, ' ');
}

/* SampleProfileWriterText::writeSample for node x at depth */
static void
write_node(struct profile *p, struct wbuf *w, uint32_t x, unsigned depth)
{
	const struct fsamples *f = &p->fs[x];
	uint32_t i, j, k;

	wb_puts(w, p->names->s[f->name]);
	wb_putc(w, ':');
	wb_dec(w, f->total);
	if (depth == 0) {
		wb_putc(w, ':');
		wb_dec(w, f->head);
	}
	wb_putc(w, '\n');
	for (i = p->bdstart[x]; i < p->bdstart[x + 1]; i++) {
		const struct body *b = &p->bd[p->bdorder[i]];

		indent(w, depth + 1);
		put_loc(w, b->line, b->disc);
		wb_dec(w, b->samples);
		for (j = p->tgstart[p->bdorder[i]];
		    j < p->tgstart[p->bdorder[i] + 1]; j++) {
			const struct target *t = &p->tg[p->tgorder[j]];

			wb_putc(w, ' ');
			wb_puts(w, p->names->s[t->name]);
			wb_putc(w, ':');
			wb_dec(w, t->count);
		}
		wb_putc(w, '\n');
	}
	for (k = p->kidstart[x]; k < p->kidstart[x + 1]; k++) {
		const struct fsamples *c = &p->fs[p->kids[k]];

		if (c->dropped)
			continue;
		indent(w, depth + 1);
		put_loc(w, c->line, c->disc);
		write_node(p, w, p->kids[k], depth + 1);
	}
}

/* start[i]: the first of items (sorted by owner) owned by i or after */
static uint32_t *
starts(size_t nowners, const uint32_t *order, size_t n,
    uint32_t (*owner)(const struct profile *, uint32_t),
    const struct profile *p)
{
	uint32_t *st = xcalloc(nowners + 1, sizeof(*st));
	size_t i, o = 0;

	for (i = 0; i < n; i++)
		while (o <= owner(p, order[i]))
			st[o++] = (uint32_t)i;
	while (o <= nowners)
		st[o++] = (uint32_t)n;
	return st;
}

static uint32_t
body_owner(const struct profile *p, uint32_t i)
{
	return p->bd[i].node;
}

static uint32_t
target_owner(const struct profile *p, uint32_t i)
{
	return p->tg[i].body;
}

static uint32_t
kid_owner(const struct profile *p, uint32_t i)
{
	return p->fs[i].parent;
}

void
profile_write(struct profile *p, FILE *fp)
{
	struct wbuf w;
	uint32_t *top;
	size_t i, ntop = 0, nkids = 0;

	sortp = p;
	top = xreallocarray(NULL, p->nfs + 1, sizeof(*top));
	p->kids = xreallocarray(NULL, p->nfs + 1, sizeof(*p->kids));
	for (i = 0; i < p->nfs; i++) {
		if (p->fs[i].parent == NOPARENT) {
			if (!p->fs[i].dropped)
				top[ntop++] = (uint32_t)i;
		} else
			p->kids[nkids++] = (uint32_t)i;
	}
	sort_top(top, ntop);
	sort_kids(p->kids, nkids);
	p->kidstart = starts(p->nfs, p->kids, nkids, kid_owner, p);
	p->bdorder = xreallocarray(NULL, p->nbd + 1, sizeof(*p->bdorder));
	for (i = 0; i < p->nbd; i++)
		p->bdorder[i] = (uint32_t)i;
	sort_bodies(p->bdorder, p->nbd);
	p->bdstart = starts(p->nfs, p->bdorder, p->nbd, body_owner, p);
	p->tgorder = xreallocarray(NULL, p->ntg + 1, sizeof(*p->tgorder));
	for (i = 0; i < p->ntg; i++)
		p->tgorder[i] = (uint32_t)i;
	sort_targets(p->tgorder, p->ntg);
	p->tgstart = starts(p->nbd, p->tgorder, p->ntg, target_owner, p);
	wb_init(&w, fp, 1 << 16);
	for (i = 0; i < ntop; i++)
		write_node(p, &w, top[i], 0);
	wb_free(&w);
	p->nfuncs = ntop;
	free(top);
}

uint64_t
profile_nfuncs(const struct profile *p)
{
	return p->nfuncs;
}

void
profile_free(struct profile *p)
{
	if (p == NULL)
		return;
	free(p->fs);
	free(p->bd);
	free(p->tg);
	pair_free(&p->fsidx);
	pair_free(&p->bdidx);
	pair_free(&p->tgidx);
	free(p->fv);
	free(p->bdorder);
	free(p->tgorder);
	free(p->kids);
	free(p->kidstart);
	free(p->bdstart);
	free(p->tgstart);
	free(p);
}
