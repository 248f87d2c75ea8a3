/* See COPYING file for copyright and license details. */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "preagg.h"

/*
 * raw.c: the first-level aggregation.
 *
 *
 * A branch-stack entry together with the source of the next newer entry
 * (if any) determines everything either format derives from it: the
 * taken branch (B), the fall-through after it (F/f) or the trace (T/R).
 * The hot loop only counts these raw triples, per mapping context (the
 * mappings of the sample's pid at that time), in a table of 32-byte
 * slots; resolving them into binaries, adjusted addresses and functions
 * runs once per distinct triple, when the table is flushed.  A sample
 * without a branch stack counts as a raw (ip, event) pair.
 */
uint64_t
rawhash(uint64_t from, uint64_t to, uint64_t next, uint32_t meta)
{
	return (from * 0x9e3779b97f4a7c15ULL) ^ (to * 0xc2b2ae3d27d4eb4fULL) ^
	    ((next ^ (uint64_t)meta << 40) * 0x165667b19e3779f9ULL) ^
	    (from >> 17) ^ (to >> 23);
}


/* resolve every raw triple of t into the entry table and empty t */
void
raw_flush(struct rawtab *t)
{
	size_t i;

	functions_wait();
	for (i = 0; i < t->novf; i++)
		resolve_raw(&t->ovf[i], t->ovf[i].count);
	t->novf = 0;
	for (i = 0; i < t->cap && t->n > 0; i++)
		if (t->slot[i].count != 0) {
			resolve_raw(&t->slot[i], t->slot[i].count);
			t->slot[i].count = 0;
			t->n--;
		}
	pq_drain(NULL);
}

void
raw_grow(struct rawtab *t)
{
	struct raw *old = t->slot;
	size_t oldcap = t->cap, i, j;

	t->cap = t->cap ? t->cap * 2 : 4096;
	t->shift = 64 - (unsigned)__builtin_ctzll(t->cap);
	t->slot = big_zalloc(t->cap, sizeof(*t->slot));
	for (i = 0; i < oldcap; i++) {
		const struct raw *r = &old[i];

		if (r->count == 0)
			continue;
		for (j = rawhash(r->from, r->to, r->next, r->meta) >> t->shift;
		    t->slot[j].count != 0; j = (j + 1) & (t->cap - 1))
			;
		t->slot[j] = *r;
	}
	big_free(old, oldcap, sizeof(*old));
}

static inline void
raw_add(struct rawtab *t, size_t j, uint64_t from, uint64_t to,
    uint64_t next, uint32_t meta)
{
	struct raw *r;

	for (;; j = (j + 1) & (t->cap - 1)) {
		r = &t->slot[j];
		if (r->count == 0) {
			r->from = from;
			r->to = to;
			r->next = next;
			r->meta = meta;
			r->count = 1;
			t->n++;
			return;
		}
		if (r->from == from && r->to == to && r->next == next &&
		    r->meta == meta)
			break;
	}
	if (UNLIKELY(r->count == UINT32_MAX)) {
		/* set the full count aside, to be resolved at the flush */
		xgrow(&t->ovf, &t->capovf, t->novf + 1, sizeof(*t->ovf));
		t->ovf[t->novf++] = *r;
		r->count = 0;
	}
	r->count++;
}

/* count one raw triple (a sample without branch stack: ip, event) */
void
raw_count(struct rawtab *t, uint64_t from, uint64_t to, uint64_t next,
    uint32_t meta)
{
	if ((t->n + 1) * 2 > t->cap)
		raw_grow(t);
	raw_add(t, rawhash(from, to, next, meta) >> t->shift, from, to, next,
	    meta);
}

/* count one sample's branch stack, newest entry first, under context c */
void
raw_sample(struct rawtab *t, uint32_t c, const struct lbr *br, size_t n)
{
	enum { BATCH = 32 };
	size_t slot[BATCH], i, j, m;
	uint32_t meta[BATCH];

	for (i = 0; i < n; i += m) {
		m = n - i < BATCH ? n - i : BATCH;
		/* room for the batch at half load, so no slot moves under it */
		while ((t->n + m) * 2 > t->cap)
			raw_grow(t);
		/* hash the batch and start loading its slots, then count */
		for (j = 0; j < m; j++) {
			size_t e = i + j;

			meta[j] = c << 4 | br[e].flags | (e > 0 ? RAW_NEXT : 0);
			slot[j] = rawhash(br[e].from, br[e].to,
			    e > 0 ? br[e - 1].from : 0, meta[j]) >> t->shift;
			__builtin_prefetch(&t->slot[slot[j]], 1);
		}
		for (j = 0; j < m; j++) {
			size_t e = i + j;

			raw_add(t, slot[j], br[e].from, br[e].to,
			    e > 0 ? br[e - 1].from : 0, meta[j]);
		}
	}
}

