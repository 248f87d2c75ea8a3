/* See COPYING file for copyright and license details. */
/*
 * ktab.h: the one keyed table of the stages that sum counts by key
 * (preagg's entries, fdatawrite's lines, yamlwrite's calls and records,
 * batmap's output).  Records of a fixed size lie dense, in the order
 * their keys first came, under an open-addressing index whose 8-byte
 * slots hold the upper half of the key's hash and the record's number
 * + 1 (0: empty): a probe touches a record only on a likely match, and
 * growing moves only the index.  Both live in bigmem.h's memory.
 *
 * The caller hashes (64 well-mixed bits, hash_mix64) and compares keys;
 * ktab_get is inline so that the comparison inlines too.  The order of
 * the records never depends on the hash.
 */
#ifndef PROFPIPE_KTAB_H
#define PROFPIPE_KTAB_H

#include <stddef.h>
#include <stdint.h>

struct ktab {
	void		*v;		/* the records */
	size_t		 n, capv;
	size_t		 recsz;
	uint64_t	*idx;		/* the index, cap slots */
	size_t		 cap;		/* a power of two, or 0 */
	size_t		 mincap;	/* the index's first size */
	uint64_t	(*hash)(const void *rec); /* to rebuild the index */
};

#define KTAB_FP(h)	((h) & 0xffffffff00000000ull)
#define KTAB_MAX	((size_t)0xffffffffu)	/* records at most */

/* records of recsz bytes; an index of mincap slots (a power of two) at
 * first; hash: a record's key hash, as the caller computes it */
void	 ktab_init(struct ktab *, size_t recsz, size_t mincap,
	    uint64_t (*hash)(const void *rec));
/* double the index (ktab_get does it when it is half full) */
void	 ktab_grow(struct ktab *);
/* a new zeroed record of hash h at free slot j; past KTAB_MAX records
 * the process ends, as when memory runs out (xmalloc) */
void	*ktab_append(struct ktab *, size_t j, uint64_t h);
/* the index freed (the records stay, in order: to be sorted, say) */
void	 ktab_drop_index(struct ktab *);
void	 ktab_free(struct ktab *);

static inline void *
ktab_at(const struct ktab *t, size_t i)
{
	return (char *)t->v + i * t->recsz;
}

/*
 * The record of key (hash h; eq(record, key) says whether a record holds
 * the key): found, *added = 0; else a new one, zeroed, *added = 1, whose
 * key the caller fills in (ktab_append: never NULL).
 */
static inline void *
ktab_get(struct ktab *t, const void *key, uint64_t h,
    int (*eq)(const void *rec, const void *key), int *added)
{
	size_t j, mask;
	uint64_t s;
	void *r;

	if ((t->n + 1) * 2 > t->cap)
		ktab_grow(t);
	mask = t->cap - 1;
	for (j = h & mask; (s = t->idx[j]) != 0; j = (j + 1) & mask) {
		if (KTAB_FP(s) != KTAB_FP(h))
			continue;
		r = ktab_at(t, (size_t)(s & 0xffffffffu) - 1);
		if (eq(r, key)) {
			*added = 0;
			return r;
		}
	}
	*added = 1;
	return ktab_append(t, j, h);
}

/* for a caller that queues keys: load the slot of hash h early */
static inline void
ktab_prefetch(const struct ktab *t, uint64_t h)
{
	if (t->cap != 0)
		__builtin_prefetch(&t->idx[h & (t->cap - 1)]);
}

/* ... and, once that slot has come, the record it names when its
 * fingerprint agrees */
static inline void
ktab_prefetch_rec(const struct ktab *t, uint64_t h)
{
	uint64_t s;

	if (t->cap == 0)
		return;
	s = t->idx[h & (t->cap - 1)];
	if (s != 0 && KTAB_FP(s ^ h) == 0)
		__builtin_prefetch(ktab_at(t, (size_t)(s & 0xffffffffu) - 1), 1);
}

#endif
