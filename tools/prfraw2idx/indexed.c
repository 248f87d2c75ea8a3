/* See COPYING file for copyright and license details. */
/*
 * indexed.c: the indexed profile writer (.profdata, versions 7 to 12),
 * byte for byte what llvm-profdata 19 writes.  Every offset and the
 * summary are computed before the first byte goes out, so the output
 * is written in one sequential pass and may go to a pipe.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "prfraw2idx.h"

#define INDEXED_MAGIC	0x8169666f72706cffULL
#define NCUTOFFS	16

static const uint64_t cutoffs[NCUTOFFS] = {
	10000, 100000, 200000, 300000, 400000, 500000, 600000, 700000,
	800000, 900000, 950000, 990000, 999000, 999900, 999990, 999999
};

struct summ {
	uint64_t	*counts;
	size_t		 n, cap;
	uint64_t	 total, maxcount, maxfunc, maxinternal;
	uint32_t	 nfuncs, ncounts;
	uint64_t	 ent[NCUTOFFS][3];
};

/* OnDiskChainedHashTableGenerator's bucket lists, emulated */
struct chain {
	uint32_t	*head, *len;	/* per bucket; head is item + 1 */
	uint32_t	*next;		/* per item, item + 1 */
	size_t		 nb;
};

static void
put64(struct wbuf *w, uint64_t v)
{
	wb_reserve(w, 8);
	st64le(w->buf + w->len, v);
	w->len += 8;
}

static void
summ_add(struct summ *sm, const struct rec *r)
{
	uint32_t i;

	if (r->counts[0] == UINT64_MAX || r->counts[0] == UINT64_MAX - 1)
		return;		/* pseudo counts */
	xgrow(&sm->counts, &sm->cap, sm->n + r->ncounts, sizeof(uint64_t));
	for (i = 0; i < r->ncounts; i++) {
		uint64_t c = r->counts[i];

		sm->counts[sm->n++] = c;
		sm->total += c;
		if (c > sm->maxcount)
			sm->maxcount = c;
		sm->ncounts++;
		if (i == 0) {
			sm->nfuncs++;
			if (c > sm->maxfunc)
				sm->maxfunc = c;
		} else if (c > sm->maxinternal)
			sm->maxinternal = c;
	}
}

static int
desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y) - (x > y);
}

#define SORT_NAME	sort_desc
#define SORT_TYPE	uint64_t
#define SORT_LESS(a, b)	(desc((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

/* ProfileSummaryBuilder::computeDetailedSummary */
static void
summ_finish(struct summ *sm)
{
	size_t i = 0, c;
	uint64_t cursum = 0, count = 0;
	uint32_t seen = 0;

	if (sm->n > 1)
		sort_desc(sm->counts, sm->n);
	for (c = 0; c < NCUTOFFS; c++) {
		uint64_t want = (uint64_t)((unsigned __int128)sm->total *
		    cutoffs[c] / 1000000);

		while (cursum < want && i < sm->n) {
			uint32_t freq = 0;

			count = sm->counts[i];
			while (i < sm->n && sm->counts[i] == count) {
				freq++;
				i++;
			}
			cursum += count * freq;
			seen += freq;
		}
		sm->ent[c][0] = cutoffs[c];
		sm->ent[c][1] = count;
		sm->ent[c][2] = seen;
	}
}

static void
summ_write(struct wbuf *w, const struct summ *sm)
{
	int c;

	put64(w, 6);
	put64(w, NCUTOFFS);
	put64(w, sm->nfuncs);
	put64(w, sm->ncounts);
	put64(w, sm->maxfunc);
	put64(w, sm->maxcount);
	put64(w, sm->maxinternal);
	put64(w, sm->total);
	for (c = 0; c < NCUTOFFS; c++) {
		put64(w, sm->ent[c][0]);
		put64(w, sm->ent[c][1]);
		put64(w, sm->ent[c][2]);
	}
}

static void
chain_insert(uint32_t *head, uint32_t *len, uint32_t *next, size_t nb,
    uint64_t h, uint32_t item)
{
	size_t b = (size_t)(h & (nb - 1));

	next[item] = head[b];
	head[b] = item + 1;
	len[b]++;
}

static void
chain_resize(struct chain *c, struct fentry **fe, size_t nb)
{
	uint32_t *head = xcalloc(nb, sizeof(*head));
	uint32_t *len = xcalloc(nb, sizeof(*len));
	size_t b;

	for (b = 0; b < c->nb; b++) {
		uint32_t e = c->head[b];

		while (e != 0) {
			uint32_t n = c->next[e - 1];

			chain_insert(head, len, c->next, nb, fe[e - 1]->key,
			    e - 1);
			e = n;
		}
	}
	free(c->head);
	free(c->len);
	c->head = head;
	c->len = len;
	c->nb = nb;
}

static uint64_t
next_pow2(uint64_t a)
{
	a |= a >> 1;
	a |= a >> 2;
	a |= a >> 4;
	a |= a >> 8;
	a |= a >> 16;
	a |= a >> 32;
	return a + 1;
}

static uint64_t
vp_size(const struct rec *r, int nk)
{
	uint64_t sz = 8;
	int k;
	uint32_t i;

	for (k = 0; k < nk; k++) {
		if (r->nsites[k] == 0)
			continue;
		sz += ((uint64_t)8 + r->nsites[k] + 7) & ~(uint64_t)7;
		for (i = 0; i < r->nsites[k]; i++)
			sz += (uint64_t)16 * r->sites[k][i].n;
	}
	return sz;
}

static uint64_t
data_size(const struct fentry *fe, unsigned ver, int nk)
{
	uint64_t m = 0;
	uint32_t i;

	for (i = 0; i < fe->nrecs; i++) {
		const struct rec *r = &fe->recs[i];

		m += 16 + (uint64_t)8 * r->ncounts;
		if (ver >= 11)
			m += 8 + (uint64_t)8 * r->nbitmap;
		m += vp_size(r, nk);
	}
	return m;
}

static void
write_rec(struct wbuf *w, const struct rec *r, unsigned ver, int nk)
{
	uint32_t i, j;
	int k, n = 0;

	put64(w, r->hash);
	put64(w, r->ncounts);
	for (i = 0; i < r->ncounts; i++)
		put64(w, r->counts[i]);
	if (ver >= 11) {
		put64(w, r->nbitmap);
		for (i = 0; i < r->nbitmap; i++)
			put64(w, r->bitmap[i]);
	}
	for (k = 0; k < nk; k++)
		n += r->nsites[k] > 0;
	wb_reserve(w, 8);
	st64le(w->buf + w->len, (uint64_t)vp_size(r, nk) |
	    ((uint64_t)n << 32));
	w->len += 8;
	for (k = 0; k < nk; k++) {
		uint8_t hdr[8];
		uint32_t ns = r->nsites[k], hsz;

		if (ns == 0)
			continue;
		st64le(hdr, (uint64_t)(uint32_t)k | ((uint64_t)ns << 32));
		wb_write(w, hdr, 8);
		for (i = 0; i < ns; i++)
			wb_putc(w, (char)r->sites[k][i].n);
		hsz = (8 + ns + 7) & ~7U;
		for (i = 8 + ns; i < hsz; i++)
			wb_putc(w, 0);
		for (i = 0; i < ns; i++)
			for (j = 0; j < r->sites[k][i].n; j++) {
				put64(w, r->sites[k][i].v[j].value);
				put64(w, r->sites[k][i].v[j].count);
			}
	}
}

/* where the sections of the file go */
struct layout {
	uint64_t	 hsize;		/* the header, summaries excluded */
	uint64_t	 dataoff;	/* the first bucket */
	uint64_t	 tableoff, idoff, vtoff, tmpoff;
	uint64_t	 idsize;
};

/* the profile summaries (CS apart) and each function's data length;
 * warns of what the version cannot hold */
static void
summarize(struct store *s, struct fentry **fe, size_t n, unsigned ver,
    int nk, struct summ *sm, struct summ *cs, uint64_t *dlen)
{
	int dropped_vt = 0, dropped_bm = 0;
	size_t i;
	uint32_t j;

	memset(sm, 0, sizeof(*sm));
	memset(cs, 0, sizeof(*cs));
	for (i = 0; i < n; i++) {
		for (j = 0; j < fe[i]->nrecs; j++) {
			const struct rec *r = &fe[i]->recs[j];

			summ_add((r->hash & CS_HASH_BIT) ? cs : sm, r);
			if (nk < 3 && r->nsites[2] > 0)
				dropped_vt = 1;
			if (ver < 11 && r->nbitmap > 0)
				dropped_bm = 1;
		}
		dlen[i] = data_size(fe[i], ver, nk);
	}
	summ_finish(sm);
	summ_finish(cs);
	if (dropped_vt)
		store_warn(s, "format version %u cannot hold vtable value "
		    "profiles: dropped", ver);
	if (dropped_bm)
		store_warn(s, "format version %u cannot hold MC/DC bitmaps: "
		    "dropped", ver);
}

/* the chained hash table: sorted insertion, LLVM's resizes */
static void
chain_build(struct chain *ch, struct fentry **fe, size_t n)
{
	uint64_t target = n <= 2 ? 1 : next_pow2((uint64_t)n * 4 / 3);
	size_t i;

	memset(ch, 0, sizeof(*ch));
	ch->nb = 64;
	ch->head = xcalloc(ch->nb, sizeof(*ch->head));
	ch->len = xcalloc(ch->nb, sizeof(*ch->len));
	ch->next = xcalloc(n + 1, sizeof(*ch->next));
	for (i = 0; i < n; i++) {
		if (4 * (uint64_t)(i + 1) >= 3 * (uint64_t)ch->nb)
			chain_resize(ch, fe, ch->nb * 2);
		chain_insert(ch->head, ch->len, ch->next, ch->nb, fe[i]->key,
		    (uint32_t)i);
	}
	if (target != ch->nb)
		chain_resize(ch, fe, (size_t)target);
}

static void
layout(struct layout *l, struct store *s, const struct chain *ch,
    struct fentry **fe, const uint64_t *dlen, unsigned ver)
{
	uint64_t off;
	size_t b, i;
	uint32_t e;

	memset(l, 0, sizeof(*l));
	l->hsize = ver >= 12 ? 72 : ver >= 10 ? 64 : ver >= 9 ? 56 :
	    ver >= 8 ? 48 : 40;
	l->dataoff = l->hsize + (8 * (2 + 6 + 3 * NCUTOFFS)) *
	    ((s->kind & VAR_CSIR) ? 2 : 1);
	off = l->dataoff;
	for (b = 0; b < ch->nb; b++) {
		if (ch->head[b] == 0)
			continue;
		off += 2;
		for (e = ch->head[b]; e != 0; e = ch->next[e - 1])
			off += 24 + fe[e - 1]->namelen + dlen[e - 1];
	}
	l->tableoff = (off + 7) & ~(uint64_t)7;
	off = l->tableoff + 16 + 8 * (uint64_t)ch->nb;
	store_sort_ids(s);
	for (i = 0; i < s->nids; i++)
		l->idsize += 8 + ((s->ids[i].len + 7) & ~(size_t)7);
	if (ver >= 9) {
		l->idoff = off;
		off += 8 + l->idsize;
	}
	if (ver >= 12) {
		l->vtoff = off;
		off += 8;
	}
	if ((s->kind & VAR_TEMPORAL) && ver >= 10)
		l->tmpoff = off;
}

static void
write_header(struct wbuf *w, const struct store *s, const struct layout *l,
    unsigned ver)
{
	uint64_t vword = ver;

	vword |= s->kind & (VAR_IR | VAR_CSIR | VAR_ENTRY_FIRST |
	    VAR_BYTE_COVERAGE | VAR_ENTRY_ONLY);
	if (ver >= 10)
		vword |= s->kind & VAR_TEMPORAL;
	put64(w, INDEXED_MAGIC);
	put64(w, vword);
	put64(w, 0);
	put64(w, 0);
	put64(w, l->tableoff);
	if (ver >= 8)
		put64(w, 0);
	if (ver >= 9)
		put64(w, l->idoff);
	if (ver >= 10)
		put64(w, l->tmpoff);
	if (ver >= 12)
		put64(w, l->vtoff);
}

/* the functions bucket by bucket, then the table of the buckets */
static void
write_buckets(struct wbuf *w, const struct chain *ch, struct fentry **fe,
    size_t n, const uint64_t *dlen, const struct layout *l, unsigned ver,
    int nk)
{
	uint64_t *boff = xcalloc(ch->nb, sizeof(*boff)), off = l->dataoff;
	uint32_t *order = NULL, e, j;
	size_t capord = 0, b;
	uint8_t l2[2];

	for (b = 0; b < ch->nb; b++) {
		if (ch->head[b] == 0)
			continue;
		boff[b] = off;
		l2[0] = (uint8_t)ch->len[b];
		l2[1] = (uint8_t)(ch->len[b] >> 8);
		wb_write(w, l2, 2);
		off += 2;
		for (e = ch->head[b]; e != 0; e = ch->next[e - 1]) {
			const struct fentry *f = fe[e - 1];

			put64(w, f->key);
			put64(w, f->namelen);
			put64(w, dlen[e - 1]);
			wb_write(w, f->name, f->namelen);
			xgrow(&order, &capord, f->nrecs, sizeof(*order));
			fentry_order(f, order);
			for (j = 0; j < f->nrecs; j++)
				write_rec(w, &f->recs[order[j]], ver, nk);
			off += 24 + f->namelen + dlen[e - 1];
		}
	}
	for (; off < l->tableoff; off++)
		wb_putc(w, 0);
	put64(w, ch->nb);
	put64(w, n);
	for (b = 0; b < ch->nb; b++)
		put64(w, boff[b]);
	free(boff);
	free(order);
}

/* after the table: binary ids, vtable names, temporal traces */
static void
write_tail(struct wbuf *w, const struct store *s, const struct layout *l,
    unsigned ver)
{
	size_t i, j, p;

	if (ver >= 9) {
		put64(w, l->idsize);
		for (i = 0; i < s->nids; i++) {
			put64(w, s->ids[i].len);
			wb_write(w, s->ids[i].p, s->ids[i].len);
			for (p = s->ids[i].len; p % 8 != 0; p++)
				wb_putc(w, 0);
		}
	}
	if (ver >= 12)
		put64(w, 0);	/* vtable names: empty, as by default */
	if (l->tmpoff != 0) {
		put64(w, s->ntraces);
		put64(w, s->streamsize);
		for (i = 0; i < s->ntraces; i++) {
			put64(w, s->traces[i].weight);
			put64(w, s->traces[i].n);
			for (j = 0; j < s->traces[i].n; j++)
				put64(w, s->traces[i].refs[j]);
		}
	}
}

int
indexed_write(struct wbuf *w, struct store *s, unsigned ver, int sparse)
{
	struct fentry **fe;
	struct summ sm, cs;
	struct chain ch;
	struct layout l;
	uint64_t *dlen;
	size_t n;
	int nk = ver >= 12 ? 3 : 2;

	fe = store_sorted(s, sparse, &n);
	dlen = xreallocarray(NULL, n + 1, sizeof(*dlen));
	summarize(s, fe, n, ver, nk, &sm, &cs, dlen);
	chain_build(&ch, fe, n);
	layout(&l, s, &ch, fe, dlen, ver);
	write_header(w, s, &l, ver);
	summ_write(w, &sm);
	if (s->kind & VAR_CSIR)
		summ_write(w, &cs);
	write_buckets(w, &ch, fe, n, dlen, &l, ver, nk);
	write_tail(w, s, &l, ver);
	free(ch.head);
	free(ch.len);
	free(ch.next);
	free(dlen);
	free(sm.counts);
	free(cs.counts);
	free(fe);
	return 0;
}
