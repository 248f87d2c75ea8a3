/* See COPYING file for copyright and license details. */
/* entries.c: the table of pre-aggregated entries, --merge, and the output. */
#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktab.h"
#include "preagg.h"

/* event names and (--merge) build-ids, interned by a reader's tables */
static struct pa_reader names;


/* ---- the entry table ---- */

static uint64_t
ehash(const struct entry *e)
{
	uint64_t h = (uint64_t)e->type | (uint64_t)e->obj[0] << 8 |
	    (uint64_t)e->obj[1] << 24 | (uint64_t)e->obj[2] << 40 |
	    (uint64_t)e->ev << 52;

	h ^= e->a[0] * 0x9e3779b97f4a7c15ULL;
	h ^= e->a[1] * 0xc2b2ae3d27d4eb4fULL;
	h ^= e->a[2] * 0x165667b19e3779f9ULL;
	return h ^ h >> 29 ^ h >> 41;
}

static uint64_t
ehash_rec(const void *e)
{
	return ehash(e);
}

/* the entries, summed by key (ktab.h): dense, in order of first
 * appearance */
struct ktab entries = {
	.recsz = sizeof(struct entry), .mincap = 8192, .hash = ehash_rec
};

static int
ekeyeq(const void *p, const void *q)
{
	const struct entry *x = p, *y = q;

	return x->type == y->type && x->a[0] == y->a[0] &&
	    x->a[1] == y->a[1] && x->a[2] == y->a[2] &&
	    x->obj[0] == y->obj[0] && x->obj[1] == y->obj[1] &&
	    x->obj[2] == y->obj[2] && x->ev == y->ev;
}

/* add count (and mis) to k's entry, h being ehash(k); -1 on overflow */
static int
add_entry_h(const struct entry *k, uint64_t h, uint64_t count, uint64_t mis)
{
	struct entry *e;
	int added;

	e = ktab_get(&entries, k, h, ekeyeq, &added);
	if (added) {
		*e = *k;
		e->count = e->mis = 0;
		e->has_mis = 0;
	}
	e->has_mis |= k->has_mis;
	if (e->count > UINT64_MAX - count || e->mis > UINT64_MAX - mis)
		return -1;
	e->count += count;
	e->mis += mis;
	return 0;
}

/*
 * Entries added in bulk (resolving raw tables, --merge) go through a short
 * queue, so that their index slot and then their entry are being loaded
 * while earlier ones are added: with a million distinct entries nearly
 * every addition misses the cache twice.  An overflow is reported with
 * the line it came from (0: none), after everything before it.
 */
#define PQ	16
static struct pend {
	struct entry	k;
	uint64_t	h, count, mis, lineno;
} pq[PQ];
static unsigned pqhead, pqn;

static void
pq_one(struct lineio *lr)
{
	struct pend *p = &pq[pqhead];

	if (add_entry_h(&p->k, p->h, p->count, p->mis) == -1) {
		if (lr != NULL && p->lineno != 0) {
			lr->lineno = p->lineno;
			lr_errx(lr, "count overflows");
		}
		errx(1, "count overflows");
	}
	pqhead = (pqhead + 1) % PQ;
	pqn--;
}

void
add_queued(const struct entry *k, uint64_t count, uint64_t mis,
    struct lineio *lr)
{
	struct pend *p;

	if (pqn == PQ)
		pq_one(lr);
	p = &pq[(pqhead + pqn++) % PQ];
	p->k = *k;
	p->h = ehash(k);
	p->count = count;
	p->mis = mis;
	p->lineno = lr != NULL ? lr->lineno : 0;
	ktab_prefetch(&entries, p->h);
	/* halfway through the queue its index slot has arrived: start
	 * loading the entry it names, when the fingerprint agrees */
	if (pqn > PQ / 2)
		ktab_prefetch_rec(&entries,
		    pq[(pqhead + pqn - 1 - PQ / 2) % PQ].h);
}

/* add everything queued */
void
pq_drain(struct lineio *lr)
{
	while (pqn > 0)
		pq_one(lr);
}

uint32_t
event_index(const char *name, size_t len)
{
	return pa_intern_event(&names, name, len);
}

const char *
event_name(uint32_t ev)
{
	return pa_event(&names, ev);
}

/* ---- --merge: sum pre-aggregated streams ---- */

/* the global number of a reader's build-id or event, cached per input */
static uint32_t
remap(uint32_t **map, size_t *cap, uint32_t i, const char *s, int isev)
{
	if (i >= *cap) {
		size_t old = *cap;

		xgrow(map, cap, (size_t)i + 1, sizeof(**map));
		memset(*map + old, 0xff, (*cap - old) * sizeof(**map));
	}
	if ((*map)[i] == UINT32_MAX)
		(*map)[i] = isev ? pa_intern_event(&names, s, strlen(s)) :
		    pa_intern_buildid(&names, s, strlen(s));
	return (*map)[i];
}

void
merge(const char *path)
{
	struct pa_reader r;
	struct pa_entry pe;
	struct entry k;
	uint32_t *bmap = NULL, *emap = NULL;
	size_t bcap = 0, ecap = 0;
	int i;

	if (pa_open(&r, path) == -1)
		prog_open_error(path);
	for (;;) {
		int got = pa_next(&r, &pe);

		if (got == 0)
			break;
		if (got == -1) {
			pq_drain(&r.lr);	/* an earlier line's error first */
			lr_errx(&r.lr, "%s", r.err);
		}
		if (pe.type == PA_E)
			continue;	/* S entries carry their event */
		memset(&k, 0, sizeof(k));
		k.type = (uint8_t)pe.type;
		for (i = 0; i < pe.nloc; i++) {
			k.a[i] = pe.loc[i].addr;
			k.obj[i] = pe.loc[i].obj < 2 ? pe.loc[i].obj :
			    OBJ_BIN(remap(&bmap, &bcap,
			    PA_OBJ_BUILDID_INDEX(pe.loc[i].obj),
			    pa_buildid(&r, pe.loc[i].obj), 0));
		}
		k.ev = pe.type == PA_S && pe.event != PA_NO_EVENT ?
		    remap(&emap, &ecap, pe.event, pa_event(&r, pe.event), 1) :
		    PA_NO_EVENT;
		k.has_mis = (uint8_t)(pe.has_mis && pe.type != PA_B);
		add_queued(&k, pe.count, pe.mis, &r.lr);
	}
	pq_drain(&r.lr);
	pa_close(&r);
	free(bmap);
	free(emap);
}

/* ---- output ---- */

/* entries are written by type in this order, then by key */
static const uint8_t typerank[PA_NTYPES] = {
	[PA_B] = 0, [PA_F] = 1, [PA_f] = 2, [PA_T] = 3, [PA_R] = 4,
	[PA_S] = 5, [PA_r] = 6, [PA_E] = 7
};

/* X: first, then plain addresses, then by binary or build-id */
static uint32_t
objkey(uint32_t o)
{
	return o == OBJ_X ? 0 : o == OBJ_PLAIN ? 1 : o;
}

static int
entcmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int i;

	if (x->type != y->type)
		return typerank[x->type] < typerank[y->type] ? -1 : 1;
	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	for (i = 0; i < 3; i++) {
		if (x->obj[i] != y->obj[i])
			return objkey(x->obj[i]) < objkey(y->obj[i]) ? -1 : 1;
		if (x->a[i] != y->a[i])
			return x->a[i] < y->a[i] ? -1 : 1;
	}
	return 0;
}

/* the entries in output order, sorted where they stand (sort.h) */
#define SORT_NAME	sort_entries
#define SORT_TYPE	struct entry
#define SORT_LESS(a, b)	(entcmp(a, b) < 0)
#include "sort.h"

/* a half of the entries, sorted by a thread of its own */
struct half {
	struct entry	*v;
	size_t		 n;
};

static void *
sort_half(void *arg)
{
	struct half *h = arg;

	sort_entries(h->v, h->n);
	return NULL;
}

/*
 * The entries sorted in two halves, by two threads when there are many
 * (the input has ended: the CPU perfdecode had is free), to be merged as
 * they are written; the keys are distinct, so the merge is the order a
 * sort of the whole gives.  *na: the length of the first half.
 */
static void
sort_halves(struct entry *v, size_t n, size_t *na)
{
	struct half h = { v, n / 2 };
	pthread_t th;

	if (n < 65536 || pthread_create(&th, NULL, sort_half, &h) != 0) {
		sort_entries(v, n);
		*na = n;
		return;
	}
	sort_entries(v + h.n, n - h.n);
	pthread_join(th, NULL);
	*na = h.n;
}

static int
strpcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* rank[i]: the position of name i among the names sorted */
static uint32_t *
ranks(char **v, uint32_t n, char ***sorted)
{
	uint32_t *rank = xcalloc((size_t)n + 1, sizeof(*rank)), i;
	char **s = xcalloc((size_t)n + 1, sizeof(*s));

	if (n > 0)
		memcpy(s, v, (size_t)n * sizeof(*s));
	qsort(s, n, sizeof(*s), strpcmp);
	/* the names are distinct: find each one's place by bisection */
	for (i = 0; i < n; i++) {
		uint32_t lo = 0, hi = n;

		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (strcmp(s[mid], v[i]) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		rank[i] = lo;
	}
	*sorted = s;
	return rank;
}

void
write_entries(FILE *fp)
{
	struct entry *v;
	size_t na, ia, ib;
	struct wbuf w;
	struct pa_reader out;	/* the name tables of the output */
	char **evsorted, **bidsorted = NULL;
	uint32_t *evrank, *bidrank = NULL, lastev = PA_NO_EVENT;
	size_t i, j;

	/* events are numbered in order of appearance, build-ids too: renumber
	 * them by name, so that the output does not depend on input order */
	evrank = ranks(names.events.s, names.events.n, &evsorted);
	if (mflag)
		bidrank = ranks(names.bids.s, names.bids.n, &bidsorted);
	/* the table is sorted where it stands: this is the end of it */
	v = entries.v;
	for (i = 0; i < entries.n; i++) {
		if (v[i].ev != PA_NO_EVENT && v[i].type == PA_S)
			v[i].ev = evrank[v[i].ev];
		for (j = 0; mflag && j < 3; j++)
			if (v[i].obj[j] >= 2)
				v[i].obj[j] = OBJ_BIN(bidrank[OBJ_INDEX(v[i].obj[j])]);
	}
	ktab_drop_index(&entries);
	sort_halves(v, entries.n, &na);
	/* the writer names a build-id object from its table: in --merge the
	 * sorted build-ids; aggregating, the binaries' build-ids when the
	 * locations carry them, else none (plain addresses) */
	memset(&out, 0, sizeof(out));
	if (mflag) {
		out.bids.s = bidsorted;
		out.bids.n = names.bids.n;
	} else if (buildid_locs) {
		out.bids.s = xcalloc((size_t)nbins + 1, sizeof(*out.bids.s));
		for (i = 0; i < (size_t)nbins; i++)
			out.bids.s[i] = bins[i].bb.bid;
		out.bids.n = (uint32_t)nbins;
	}
	wb_init(&w, fp, 1 << 16);
	for (i = ia = 0, ib = na; i < entries.n; i++) {
		const struct entry *e;
		struct pa_entry pe;

		/* the next of the two sorted halves */
		if (ib == entries.n || (ia < na && entcmp(&v[ia], &v[ib]) < 0))
			e = &v[ia++];
		else
			e = &v[ib++];

		if (e->type == PA_S && e->ev != lastev && e->ev != PA_NO_EVENT) {
			pa_put_event(&w, evsorted[e->ev]);
			lastev = e->ev;
		}
		memset(&pe, 0, sizeof(pe));
		pe.type = (enum pa_type)e->type;
		pe.nloc = pa_nloc(pe.type);
		for (j = 0; j < (size_t)pe.nloc; j++) {
			pe.loc[j].addr = e->a[j];
			pe.loc[j].obj = e->obj[j];
		}
		pe.count = e->count;
		pe.mis = e->mis;
		/* T and R carry a mispredict count when there is one */
		pe.has_mis = pe.type == PA_B || e->mis != 0;
		pa_put_entry(&w, &pe, &out);
	}
	wb_free(&w);
	free(evrank);
	free(evsorted);
	free(bidrank);
	free(bidsorted);
	if (!mflag && buildid_locs)
		free(out.bids.s);
}
