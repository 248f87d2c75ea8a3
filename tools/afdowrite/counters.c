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
#include <stdlib.h>
#include <string.h>

#include "afdowrite.h"
#include "pa.h"

#define PAIR_EMPTY	UINT64_MAX	/* a is never UINT64_MAX here */

static size_t
pair_hash(uint64_t a, uint64_t b)
{
	return (size_t)hash_mix64(a * 0x9e3779b97f4a7c15ull ^ b);
}

uint64_t *
pair_slot(struct pairtab *t, uint64_t a, uint64_t b, int create)
{
	size_t i, mask;

	if (create && (t->n + 1) * 4 > t->cap * 3) {
		struct pairent *old = t->e;
		size_t oldcap = t->cap, j;

		t->cap = t->cap ? t->cap * 2 : 1024;
		t->e = xreallocarray(NULL, t->cap, sizeof(*t->e));
		for (j = 0; j < t->cap; j++)
			t->e[j].a = PAIR_EMPTY;
		mask = t->cap - 1;
		for (j = 0; j < oldcap; j++) {
			if (old[j].a == PAIR_EMPTY)
				continue;
			for (i = pair_hash(old[j].a, old[j].b) & mask;
			    t->e[i].a != PAIR_EMPTY; i = (i + 1) & mask)
				;
			t->e[i] = old[j];
		}
		free(old);
	}
	if (t->cap == 0)
		return NULL;
	mask = t->cap - 1;
	for (i = pair_hash(a, b) & mask; t->e[i].a != PAIR_EMPTY;
	    i = (i + 1) & mask)
		if (t->e[i].a == a && t->e[i].b == b)
			return &t->e[i].count;
	if (!create)
		return NULL;
	t->e[i] = (struct pairent){ a, b, 0 };
	t->n++;
	return &t->e[i].count;
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
	free(t->e);
	memset(t, 0, sizeof(*t));
}
