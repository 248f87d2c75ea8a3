/* See COPYING file for copyright and license details. */
/*
 * counters.c: llvm-profgen's range and branch counters
 * (PerfScriptReader::computeCounterFromLBR) from pre-aggregated entries.
 *
 * llvm-profgen walks each branch stack, most recent first: an end that
 * is no instruction of its code map becomes ExternalAddr, an entry with
 * both ends outside is dropped, a branch is counted when its target is
 * code, and the stretch from each branch's target to the source of the
 * next newer branch kept is a range when both ends are code, the start
 * is not after the end and no call, return or direct jump lies in
 * [start, end).  A T or R entry is exactly one branch and the stretch
 * after it (preagg writes an entry's fall-through up to the next newer
 * branch's source), B a branch alone, F f r a stretch alone.  With
 * --leading-ip-only the counter is the sample addresses, [ip, ip] each:
 * S entries here.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "afdowrite.h"
#include "pa.h"

/* the pairs in libutil's one keyed table (ktab.h): dense records in the
 * order their keys came, so a walk over them is a walk over n records,
 * not over the empty slots of a hash table */
static uint64_t
pair_hash(uint64_t a, uint64_t b)
{
	return hash_mix64(a * 0x9e3779b97f4a7c15ull ^ b);
}

static uint64_t
pairent_hash(const void *rec)
{
	const struct pairent *e = rec;

	return pair_hash(e->a, e->b);
}

static int
pairent_eq(const void *rec, const void *key)
{
	const struct pairent *e = rec, *k = key;

	return e->a == k->a && e->b == k->b;
}

uint64_t *
pair_slot(struct pairtab *t, uint64_t a, uint64_t b, int create)
{
	struct pairent key = { a, b, 0 }, *e;
	uint64_t h = pair_hash(a, b);
	int added;

	if (t->kt.recsz == 0) {
		if (!create)
			return NULL;
		ktab_init(&t->kt, sizeof(struct pairent), 1024, pairent_hash);
	}
	if (!create) {
		size_t j, mask = t->kt.cap - 1;
		uint64_t s;

		if (t->kt.cap == 0)
			return NULL;
		for (j = h & mask; (s = t->kt.idx[j]) != 0;
		    j = (j + 1) & mask) {
			if (KTAB_FP(s) != KTAB_FP(h))
				continue;
			e = ktab_at(&t->kt, (size_t)(s & 0xffffffffu) - 1);
			if (pairent_eq(e, &key))
				return &e->count;
		}
		return NULL;
	}
	e = ktab_get(&t->kt, &key, h, pairent_eq, &added);
	if (added) {
		e->a = a;
		e->b = b;
	}
	return &e->count;
}

void
pair_add(struct pairtab *t, uint64_t a, uint64_t b, uint64_t count)
{
	/* RangeCounter[...] += Repeat: no saturation */
	*pair_slot(t, a, b, 1) += count;
}

void
pair_free(struct pairtab *t)
{
	if (t->kt.recsz != 0)
		ktab_free(&t->kt);
	memset(t, 0, sizeof(*t));
}
