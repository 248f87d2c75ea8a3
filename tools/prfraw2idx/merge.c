/* See COPYING file for copyright and license details. */
/*
 * merge.c: the record store.  Records are merged exactly as
 * llvm-profdata 19's InstrProfWriter::addRecord does (saturating
 * weighted sums clamped below 2^64-2, bitmaps ORed, value sites
 * merge-joined by value then stable-sorted by count and cut to 255),
 * so that the indexed output comes out byte for byte the same.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "prfraw2idx.h"

static struct fentry **lookup(struct store *, const char *, size_t, uint64_t);
static void	grow(struct store *);
static void	rec_copy(struct rec *, const struct rec *);
static void	rec_scale(struct store *, struct fentry *, struct rec *, uint64_t);
static void	rec_merge(struct store *, struct fentry *, struct rec *,
		    const struct rec *, uint64_t);
static void	site_merge(struct site *, struct site *, uint64_t, int *);
static void	vsort(struct vpair *, size_t, int bycount);
static uint64_t	sat_muladd(uint64_t, uint64_t, uint64_t, int *);

void
perr_set(struct perr *e, uint64_t off, int has_off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	e->off = off;
	e->has_off = has_off;
}

void
store_warn(struct store *s, const char *fmt, ...)
{
	va_list ap;

	s->nwarn++;
	if (s->quiet)
		return;
	fprintf(stderr, "%s: ", progname);
	if (s->curfile != NULL)
		fprintf(stderr, "%s: ", s->curfile);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
store_init(struct store *s, unsigned id)
{
	memset(s, 0, sizeof(*s));
	s->cap = 1024;
	s->tab = xcalloc(s->cap, sizeof(*s->tab));
	s->id = id;
}

static void
rec_free(struct rec *r)
{
	int k;
	uint32_t i;

	free(r->counts);
	free(r->bitmap);
	for (k = 0; k < NKINDS; k++) {
		for (i = 0; i < r->nsites[k]; i++)
			free(r->sites[k][i].v);
		free(r->sites[k]);
	}
}

void
store_free(struct store *s)
{
	size_t i, j;

	for (i = 0; i < s->cap; i++) {
		struct fentry *fe = s->tab[i];

		if (fe == NULL)
			continue;
		for (j = 0; j < fe->nrecs; j++)
			rec_free(&fe->recs[j]);
		free(fe->recs);
		free(fe->name);
		free(fe);
	}
	free(s->tab);
	for (i = 0; i < s->nids; i++)
		free(s->ids[i].p);
	free(s->ids);
	for (i = 0; i < s->ntraces; i++)
		free(s->traces[i].refs);
	free(s->traces);
	memset(s, 0, sizeof(*s));
}

static struct fentry **
lookup(struct store *s, const char *name, size_t len, uint64_t key)
{
	size_t mask = s->cap - 1, i = (size_t)(key ^ (key >> 29)) & mask;
	struct fentry **slot;

	for (;;) {
		slot = &s->tab[i];
		if (*slot == NULL)
			return slot;
		if ((*slot)->key == key && (*slot)->namelen == len &&
		    memcmp((*slot)->name, name, len) == 0)
			return slot;
		i = (i + 1) & mask;
	}
}

static void
grow(struct store *s)
{
	struct fentry **old = s->tab;
	size_t oldcap = s->cap, i;

	s->cap *= 2;
	s->tab = xcalloc(s->cap, sizeof(*s->tab));
	for (i = 0; i < oldcap; i++) {
		struct fentry *fe = old[i];

		if (fe != NULL)
			*lookup(s, fe->name, fe->namelen, fe->key) = fe;
	}
	free(old);
}

struct fentry *
store_entry(struct store *s, const char *name, size_t len, uint64_t key)
{
	struct fentry **slot = lookup(s, name, len, key), *fe;

	if (*slot != NULL)
		return *slot;
	fe = xcalloc(1, sizeof(*fe));
	fe->key = key;
	fe->name = xmalloc(len + 1);
	memcpy(fe->name, name, len);
	fe->name[len] = '\0';
	fe->namelen = len;
	*slot = fe;
	if (++s->n * 4 >= s->cap * 3)
		grow(s);
	return fe;
}

int
store_kind(struct store *s, uint64_t kind, struct perr *e)
{
	if (s->kind == 0) {
		s->kind = kind;
		return 0;
	}
	if ((s->kind & VAR_FE) != (kind & VAR_FE)) {
		perr_set(e, 0, 0, "cannot merge an IR profile with a "
		    "frontend (clang) profile");
		return -1;
	}
	if (((s->kind & VAR_ENTRY_ONLY) && (kind & VAR_ENTRY_FIRST)) ||
	    ((s->kind & VAR_ENTRY_FIRST) && (kind & VAR_ENTRY_ONLY))) {
		perr_set(e, 0, 0, "cannot merge function-entry-only and "
		    "basic-block profiles");
		return -1;
	}
	s->kind |= kind;
	return 0;
}

void
store_binid(struct store *s, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = s->nids; i-- > 0;)
		if (s->ids[i].len == len && memcmp(s->ids[i].p, p, len) == 0)
			return;
	xgrow(&s->ids, &s->capids, s->nids + 1, sizeof(*s->ids));
	s->ids[s->nids].p = xmalloc(len ? len : 1);
	memcpy(s->ids[s->nids].p, p, len);
	s->ids[s->nids].len = len;
	s->nids++;
}

void
store_add(struct store *s, struct fentry *fe, const struct rec *r,
    uint64_t w)
{
	struct rec *d;
	uint32_t i;

	for (i = 0; i < fe->nrecs; i++)
		if (fe->recs[i].hash == r->hash)
			break;
	if (i == fe->nrecs) {
		if (fe->nrecs == fe->caprecs) {
			/* most names have one hash: start at one */
			fe->caprecs = fe->caprecs ? fe->caprecs * 2 : 1;
			fe->recs = xreallocarray(fe->recs, fe->caprecs,
			    sizeof(*fe->recs));
		}
		d = &fe->recs[fe->nrecs++];
		rec_copy(d, r);
		if (w > 1)
			rec_scale(s, fe, d, w);
	} else {
		d = &fe->recs[i];
		rec_merge(s, fe, d, r, w);
	}
	rec_sort_values(d);
}

static void
rec_copy(struct rec *d, const struct rec *r)
{
	int k;
	uint32_t i;

	memset(d, 0, sizeof(*d));
	d->hash = r->hash;
	d->ncounts = r->ncounts;
	d->counts = xreallocarray(NULL, r->ncounts ? r->ncounts : 1, 8);
	memcpy(d->counts, r->counts, (size_t)r->ncounts * 8);
	d->nbitmap = r->nbitmap;
	if (r->nbitmap) {
		d->bitmap = xmalloc(r->nbitmap);
		memcpy(d->bitmap, r->bitmap, r->nbitmap);
	}
	for (k = 0; k < NKINDS; k++) {
		d->nsites[k] = r->nsites[k];
		if (r->nsites[k] == 0)
			continue;
		d->sites[k] = xcalloc(r->nsites[k], sizeof(struct site));
		for (i = 0; i < r->nsites[k]; i++) {
			const struct site *ss = &r->sites[k][i];
			struct site *ds = &d->sites[k][i];

			ds->n = ds->cap = ss->n;
			if (ss->n) {
				ds->v = xreallocarray(NULL, ss->n,
				    sizeof(struct vpair));
				memcpy(ds->v, ss->v, ss->n * sizeof(struct vpair));
			}
		}
	}
}

static uint64_t
sat_muladd(uint64_t a, uint64_t w, uint64_t b, int *ovf)
{
	uint64_t p;

	if (__builtin_mul_overflow(a, w, &p)) {
		*ovf = 1;
		return UINT64_MAX;
	}
	if (__builtin_add_overflow(p, b, &p)) {
		*ovf = 1;
		return UINT64_MAX;
	}
	return p;
}

static void
rec_scale(struct store *s, struct fentry *fe, struct rec *d, uint64_t w)
{
	int k, ovf = 0;
	uint32_t i, j;

	for (i = 0; i < d->ncounts; i++) {
		uint64_t v = sat_muladd(d->counts[i], w, 0, &ovf);

		if (v > MAXCOUNT) {
			v = MAXCOUNT;
			ovf = 1;
		}
		d->counts[i] = v;
	}
	for (k = 0; k < NKINDS; k++)
		for (i = 0; i < d->nsites[k]; i++)
			for (j = 0; j < d->sites[k][i].n; j++)
				d->sites[k][i].v[j].count = sat_muladd(
				    d->sites[k][i].v[j].count, w, 0, &ovf);
	if (ovf)
		store_warn(s, "function '%s': counter overflow", fe->name);
}

#define PSEUDO_HOT	UINT64_MAX
#define PSEUDO_WARM	(UINT64_MAX - 1)

static int
pseudo(const struct rec *r)
{
	if (r->counts[0] == PSEUDO_HOT)
		return 1;
	if (r->counts[0] == PSEUDO_WARM)
		return 2;
	return 0;
}

static void
rec_merge(struct store *s, struct fentry *fe, struct rec *d,
    const struct rec *r, uint64_t w)
{
	int k, ovf = 0, pd, po;
	uint32_t i;

	if (d->ncounts != r->ncounts) {
		store_warn(s, "function '%s': function basic block count "
		    "change detected (counter mismatch)", fe->name);
		return;
	}
	pd = pseudo(d);
	po = pseudo(r);
	if (pd || po) {
		if (!pd || !po) {
			store_warn(s, "function '%s': function basic block "
			    "count change detected (counter mismatch)",
			    fe->name);
			return;
		}
		d->counts[0] = (pd == 1 || po == 1) ? PSEUDO_HOT : PSEUDO_WARM;
		return;
	}
	for (i = 0; i < r->ncounts; i++) {
		uint64_t v = sat_muladd(r->counts[i], w, d->counts[i], &ovf);

		if (v > MAXCOUNT) {
			v = MAXCOUNT;
			ovf = 1;
		}
		d->counts[i] = v;
	}
	if (ovf)
		store_warn(s, "function '%s': counter overflow", fe->name);
	if (d->nbitmap != r->nbitmap) {
		store_warn(s, "function '%s': function bitmap size change "
		    "detected (bitmap size mismatch)", fe->name);
		return;
	}
	for (i = 0; i < r->nbitmap; i++)
		d->bitmap[i] |= r->bitmap[i];
	for (k = 0; k < NKINDS; k++) {
		if (d->nsites[k] != r->nsites[k]) {
			store_warn(s, "function '%s': function value site "
			    "count change detected (counter mismatch)",
			    fe->name);
			continue;
		}
		ovf = 0;
		for (i = 0; i < d->nsites[k]; i++)
			site_merge(&d->sites[k][i], &r->sites[k][i], w, &ovf);
		if (ovf)
			store_warn(s, "function '%s': counter overflow",
			    fe->name);
	}
}

/*
 * InstrProfValueSiteRecord::merge: both sides sorted by value, a
 * merge-join adding W times the input's count to equal values.
 * Values new to the site are taken unscaled, as LLVM 19 does.
 */
static void
site_merge(struct site *d, struct site *in, uint64_t w, int *ovf)
{
	struct vpair *m;
	uint32_t i = 0, j, n = 0;

	if (in->n == 0)
		return;
	vsort(d->v, d->n, 0);
	/* the input is const to callers; sorting it in place is harmless */
	vsort(in->v, in->n, 0);
	m = xreallocarray(NULL, (size_t)d->n + in->n, sizeof(*m));
	for (j = 0; j < in->n; j++) {
		const struct vpair *J = &in->v[j];

		while (i < d->n && d->v[i].value < J->value)
			m[n++] = d->v[i++];
		if (i < d->n && d->v[i].value == J->value) {
			m[n] = d->v[i++];
			m[n].count = sat_muladd(J->count, w, m[n].count, ovf);
			n++;
			continue;
		}
		m[n++] = *J;
	}
	while (i < d->n)
		m[n++] = d->v[i++];
	free(d->v);
	d->v = m;
	d->n = d->cap = n;
}

static int
vless(const struct vpair *a, const struct vpair *b, int bycount)
{
	return bycount ? a->count > b->count : a->value < b->value;
}

/* a value with its place, for a stable sort through sort.h: ties keep
 * their order by place */
struct vpos {
	struct vpair	p;
	size_t		pos;
};
#define SORT_NAME	vsort_value
#define SORT_TYPE	struct vpos
#define SORT_LESS(a, b)	((a)->p.value != (b)->p.value ? \
			    (a)->p.value < (b)->p.value : (a)->pos < (b)->pos)
#include "sort.h"
#define SORT_NAME	vsort_count
#define SORT_TYPE	struct vpos
#define SORT_LESS(a, b)	((a)->p.count != (b)->p.count ? \
			    (a)->p.count > (b)->p.count : (a)->pos < (b)->pos)
#include "sort.h"

/* stable sort: by value ascending, or by count descending */
static void
vsort(struct vpair *v, size_t n, int bycount)
{
	struct vpos *t;
	size_t i;

	if (n < 2)
		return;
	for (i = 1; i < n && !vless(&v[i], &v[i - 1], bycount); i++)
		continue;
	if (i == n)
		return;		/* sorted already, the common case */
	t = xreallocarray(NULL, n, sizeof(*t));
	for (i = 0; i < n; i++) {
		t[i].p = v[i];
		t[i].pos = i;
	}
	if (bycount)
		vsort_count(t, n);
	else
		vsort_value(t, n);
	for (i = 0; i < n; i++)
		v[i] = t[i].p;
	free(t);
}

void
rec_sort_values(struct rec *r)
{
	int k;
	uint32_t i;

	for (k = 0; k < NKINDS; k++)
		for (i = 0; i < r->nsites[k]; i++) {
			struct site *st = &r->sites[k][i];

			vsort(st->v, st->n, 1);
			if (st->n > MAXVALS)
				st->n = MAXVALS;
		}
}

/* DenseMapInfo<uint64_t>::getHashValue in LLVM 19 */
static uint32_t
dm_hash(uint64_t k)
{
	k *= 0xbf58476d1ce4e5b9ULL;
	k ^= k >> 31;
	return (uint32_t)k;
}

static void
dm_place(uint32_t *b, uint32_t nb, const struct fentry *fe, uint32_t idx)
{
	uint32_t i = dm_hash(fe->recs[idx].hash) & (nb - 1), probe = 1;

	while (b[i] != UINT32_MAX)
		i = (i + probe++) & (nb - 1);
	b[i] = idx;
}

/*
 * The iteration order of SmallDenseMap<uint64_t, InstrProfRecord> after
 * inserting fe's hashes in order: 4 inline buckets, then at least 64,
 * doubling when 4(n+1) >= 3 buckets; quadratic probing; a grow moves
 * the entries over in bucket order.
 */
void
fentry_order(const struct fentry *fe, uint32_t *order)
{
	uint32_t nb = 4, *b, *nbk, n = 0, i, j;

	if (fe->nrecs == 1) {
		order[0] = 0;
		return;
	}
	b = xreallocarray(NULL, nb, sizeof(*b));
	memset(b, 0xff, nb * sizeof(*b));
	for (i = 0; i < fe->nrecs; i++) {
		if ((n + 1) * 4 >= nb * 3) {
			uint32_t nn = nb * 2 < 64 ? 64 : nb * 2;

			nbk = xreallocarray(NULL, nn, sizeof(*nbk));
			memset(nbk, 0xff, nn * sizeof(*nbk));
			for (j = 0; j < nb; j++)
				if (b[j] != UINT32_MAX)
					dm_place(nbk, nn, fe, b[j]);
			free(b);
			b = nbk;
			nb = nn;
		}
		dm_place(b, nb, fe, i);
		n++;
	}
	for (i = 0, j = 0; i < nb; i++)
		if (b[i] != UINT32_MAX)
			order[j++] = b[i];
	free(b);
}

void
store_merge(struct store *dst, struct store *src)
{
	size_t i;
	uint32_t *order = NULL, j;
	size_t cap = 0;

	for (i = 0; i < src->cap; i++) {
		struct fentry *fe = src->tab[i], *de;

		if (fe == NULL)
			continue;
		xgrow(&order, &cap, fe->nrecs, sizeof(*order));
		fentry_order(fe, order);
		de = store_entry(dst, fe->name, fe->namelen, fe->key);
		for (j = 0; j < fe->nrecs; j++)
			store_add(dst, de, &fe->recs[order[j]], 1);
	}
	free(order);
	for (i = 0; i < src->nids; i++)
		store_binid(dst, src->ids[i].p, src->ids[i].len);
	dst->nwarn += src->nwarn;
	if (src->ntraces > 0) {
		store_traces(dst, src->traces, src->ntraces, src->streamsize);
		src->ntraces = 0;
	}
}

static int
namecmp(const void *a, const void *b)
{
	const struct fentry *x = *(struct fentry *const *)a;
	const struct fentry *y = *(struct fentry *const *)b;
	size_t n = x->namelen < y->namelen ? x->namelen : y->namelen;
	int c = memcmp(x->name, y->name, n);

	if (c != 0)
		return c;
	return (x->namelen > y->namelen) - (x->namelen < y->namelen);
}

typedef struct fentry *fentryp;
#define SORT_NAME	sort_byname
#define SORT_TYPE	fentryp
#define SORT_LESS(a, b)	(namecmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

static int
all_zero(const struct fentry *fe)
{
	uint32_t i, j;

	for (i = 0; i < fe->nrecs; i++) {
		for (j = 0; j < fe->recs[i].ncounts; j++)
			if (fe->recs[i].counts[j])
				return 0;
		for (j = 0; j < fe->recs[i].nbitmap; j++)
			if (fe->recs[i].bitmap[j])
				return 0;
	}
	return 1;
}

struct fentry **
store_sorted(const struct store *s, int sparse, size_t *np)
{
	struct fentry **v = xreallocarray(NULL, s->n + 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < s->cap; i++)
		if (s->tab[i] != NULL && s->tab[i]->nrecs > 0 &&
		    !(sparse && all_zero(s->tab[i])))
			v[n++] = s->tab[i];
	sort_byname(v, n);
	*np = n;
	return v;
}

static int
bidcmp(const void *a, const void *b)
{
	const struct binid *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->p, y->p, n);

	if (c != 0)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

#define SORT_NAME	sort_binids
#define SORT_TYPE	struct binid
#define SORT_LESS(a, b)	(bidcmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

/* binary ids are unique already; llvm-profdata writes them sorted */
void
store_sort_ids(struct store *s)
{
	if (s->nids > 1)
		sort_binids(s->ids, s->nids);
}

#define RESERVOIR	100		/* llvm-profdata's default */
#define MAXTRACELEN	10000

static uint64_t
rnd(struct store *s, uint64_t bound)
{
	/* splitmix64; llvm-profdata's mt19937 draws are not reproduced */
	uint64_t z = (s->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return bound == UINT64_MAX ? z : z % (bound + 1);
}

static void
trace_add(struct store *s, struct trace *t)
{
	if (s->streamsize < RESERVOIR) {
		xgrow(&s->traces, &s->captraces, s->ntraces + 1,
		    sizeof(*s->traces));
		s->traces[s->ntraces++] = *t;
	} else {
		uint64_t i = rnd(s, s->streamsize);

		if (i < s->ntraces) {
			free(s->traces[i].refs);
			s->traces[i] = *t;
		} else
			free(t->refs);
	}
	t->refs = NULL;
	s->streamsize++;
}

/*
 * InstrProfWriter::addTemporalProfileTraces: a stream not yet sampled
 * (100 traces or fewer) simply appends, which is all that is exact.
 */
void
store_traces(struct store *s, struct trace *t, size_t n, uint64_t srcstream)
{
	size_t i;

	if (s->ntraces > RESERVOIR) {
		for (i = RESERVOIR; i < s->ntraces; i++)
			free(s->traces[i].refs);
		s->ntraces = RESERVOIR;
	}
	for (i = 0; i < n; i++) {
		if (t[i].n > MAXTRACELEN)
			t[i].n = MAXTRACELEN;
		if (t[i].n == 0) {
			free(t[i].refs);
			t[i].refs = NULL;
			continue;
		}
		if (srcstream > RESERVOIR) {
			/* a sampled source: keep each with its odds */
			if (rnd(s, s->streamsize + srcstream) <
			    (uint64_t)RESERVOIR || s->ntraces < RESERVOIR)
				trace_add(s, &t[i]);
			else {
				free(t[i].refs);
				t[i].refs = NULL;
			}
			continue;
		}
		trace_add(s, &t[i]);
	}
	if (srcstream > n)
		s->streamsize += srcstream - n;
}
