/* See COPYING file for copyright and license details. */
/* brsum.c: branches summed by their ends (brsum.h). */
#include <err.h>

#include "util.h"
#include "brsum.h"

static uint64_t
keyhash(uint32_t ff, uint64_t fo, uint32_t tf, uint64_t to)
{
	return hash_mix64(fo * 31 + ff) ^
	    hash_mix64(to * 131 + tf + 0x9e3779b97f4a7c15ull);
}

static uint64_t
brsum_hash(const void *p)
{
	const struct brsum *b = p;

	return keyhash(b->fromf, b->fromoff, b->tof, b->tooff);
}

static int
brsum_eq(const void *p, const void *q)
{
	const struct brsum *b = p, *k = q;

	return b->fromf == k->fromf && b->fromoff == k->fromoff &&
	    b->tof == k->tof && b->tooff == k->tooff;
}

void
brsum_init(struct ktab *t)
{
	ktab_init(t, sizeof(struct brsum), 4096, brsum_hash);
}

struct brsum *
brsum_add(struct ktab *t, uint32_t ff, uint64_t fo, uint32_t tf, uint64_t to,
    uint64_t count, uint64_t mis)
{
	struct brsum k = { .fromoff = fo, .tooff = to, .fromf = ff, .tof = tf },
	    *b;
	int added;

	b = ktab_get(t, &k, keyhash(ff, fo, tf, to), brsum_eq, &added);
	if (added)
		*b = k;
	b->count += count;
	b->mis += mis;
	return b;
}
