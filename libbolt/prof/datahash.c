/* See COPYING file for copyright and license details. */
/*
 * datahash.c: generateSymbolHashes, the names BOLT 19 gives the data
 * objects it made (SYMBOLat, DATAat, HOLEat) from a hash of their size,
 * section, bytes and the objects their relocations name, with
 * llvm/ADT/Hashing.h as LLVM 19 computes it (datatab.c).
 */
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "elfobj.h"
#include "functab.h"
#include "datatab.h"
#include "dtint.h"

/* ---- llvm/ADT/Hashing.h (LLVM 19): CityHash-based, fixed seed ---- */

#define K0	0xc3a5c85c97cb3127ULL
#define K1	0xb492b66fbe98f273ULL
#define K2	0x9ae16a3b2f90404fULL
#define K3	0xc949d7c7509e6557ULL
#define SEED	0xff51afd7ed558ccdULL	/* without ABI-breaking checks */

static uint64_t
f64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t
f32(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	    (uint64_t)p[3] << 24;
}

static uint64_t
rotr(uint64_t v, unsigned n)
{
	return n == 0 ? v : v >> n | v << (64 - n);
}

static uint64_t
smix(uint64_t v)
{
	return v ^ (v >> 47);
}

static uint64_t
h16(uint64_t lo, uint64_t hi)
{
	const uint64_t m = 0x9ddfea08eb382d69ULL;
	uint64_t a = (lo ^ hi) * m, b;

	a ^= a >> 47;
	b = (hi ^ a) * m;
	b ^= b >> 47;
	return b * m;
}

static uint64_t
hshort(const uint8_t *s, size_t n, uint64_t seed)
{
	uint64_t a, b, c, d, z, vf, vs, wf, ws, r;

	if (n >= 4 && n <= 8)
		return h16(n + (f32(s) << 3), seed ^ f32(s + n - 4));
	if (n > 8 && n <= 16) {
		a = f64(s);
		b = f64(s + n - 8);
		return h16(seed ^ a, rotr(b + n, (unsigned)n)) ^ b;
	}
	if (n > 16 && n <= 32) {
		a = f64(s) * K1;
		b = f64(s + 8);
		c = f64(s + n - 8) * K2;
		d = f64(s + n - 16) * K0;
		return h16(rotr(a - b, 43) + rotr(c ^ seed, 30) + d,
		    a + rotr(b ^ K3, 20) - c + n + seed);
	}
	if (n > 32) {
		z = f64(s + 24);
		a = f64(s) + (n + f64(s + n - 16)) * K0;
		b = rotr(a + z, 52);
		c = rotr(a, 37);
		a += f64(s + 8);
		c += rotr(a, 7);
		a += f64(s + 16);
		vf = a + z;
		vs = b + rotr(a, 31) + c;
		a = f64(s + 16) + f64(s + n - 32);
		z = f64(s + n - 8);
		b = rotr(a + z, 52);
		c = rotr(a, 37);
		a += f64(s + n - 24);
		c += rotr(a, 7);
		a += f64(s + n - 16);
		wf = a + z;
		ws = b + rotr(a, 31) + c;
		r = smix((vf + ws) * K2 + (wf + vs) * K0);
		return smix((seed ^ (r * K0)) + vs) * K2;
	}
	if (n != 0) {
		uint32_t y = (uint32_t)s[0] + ((uint32_t)s[n >> 1] << 8);
		uint32_t zz = (uint32_t)n + ((uint32_t)s[n - 1] << 2);

		return smix((uint64_t)y * K2 ^ (uint64_t)zz * K3 ^ seed) * K2;
	}
	return K2 ^ seed;
}

struct hstate {
	uint64_t	h0, h1, h2, h3, h4, h5, h6;
};

static void
mix32(const uint8_t *s, uint64_t *a, uint64_t *b)
{
	uint64_t c, d;

	*a += f64(s);
	c = f64(s + 24);
	*b = rotr(*b + *a + c, 21);
	d = *a;
	*a += f64(s + 8) + f64(s + 16);
	*b += rotr(*a, 44) + d;
	*a += c;
}

static void
hmix(struct hstate *h, const uint8_t *s)
{
	uint64_t t;

	h->h0 = rotr(h->h0 + h->h1 + h->h3 + f64(s + 8), 37) * K1;
	h->h1 = rotr(h->h1 + h->h4 + f64(s + 48), 42) * K1;
	h->h0 ^= h->h6;
	h->h1 += h->h3 + f64(s + 40);
	h->h2 = rotr(h->h2 + h->h5, 33) * K1;
	h->h3 = h->h4 * K1;
	h->h4 = h->h0 + h->h5;
	mix32(s, &h->h3, &h->h4);
	h->h5 = h->h2 + h->h6;
	h->h6 = h->h1 + f64(s + 16);
	mix32(s + 32, &h->h5, &h->h6);
	t = h->h2;
	h->h2 = h->h0;
	h->h0 = t;
}

static void
hcreate(struct hstate *h, const uint8_t *s, uint64_t seed)
{
	h->h0 = 0;
	h->h1 = seed;
	h->h2 = h16(seed, K1);
	h->h3 = rotr(seed ^ K1, 49);
	h->h4 = seed * K1;
	h->h5 = smix(seed);
	h->h6 = h16(h->h4, h->h5);
	hmix(h, s);
}

static uint64_t
hfinal(const struct hstate *h, uint64_t n)
{
	return h16(h16(h->h3, h->h5) + smix(h->h1) * K1 + h->h2,
	    h16(h->h4, h->h6) + smix(n) * K1 + h->h0);
}

/* hash_value(StringRef): hash_combine_range over contiguous bytes */
static uint64_t
hash_bytes(const uint8_t *s, size_t n)
{
	struct hstate h;
	const uint8_t *p = s, *aend = s + (n & ~(size_t)63);

	if (n <= 64)
		return hshort(s, n, SEED);
	hcreate(&h, p, SEED);
	for (p += 64; p != aend; p += 64)
		hmix(&h, p);
	if (n & 63)
		hmix(&h, s + n - 64);
	return hfinal(&h, n);
}

/* hash_value of an integer */
static uint64_t
hash_int(uint64_t v)
{
	return h16(SEED + ((v & 0xffffffffu) << 3), v >> 32);
}

/* hash_combine of two hash codes: their 16 bytes, hashed short */
static uint64_t
hash_combine2(uint64_t a, uint64_t b)
{
	uint8_t buf[16];
	int i;

	for (i = 0; i < 8; i++) {
		buf[i] = (uint8_t)(a >> (8 * i));
		buf[8 + i] = (uint8_t)(b >> (8 * i));
	}
	return hshort(buf, 16, SEED);
}

/* BinarySection::hash for an object without relocations in it: its size
 * and section name, then its bytes (none for a NOBITS section) */
/* BinarySection::hash of object o by section s (its own for the
 * object hashed, and the same for the objects its relocations name, as
 * BOLT calls itself), with its cache of hashes (an object reached again
 * through a relocation is its hash so far) */
struct hctx {
	struct datatab	 *t;
	struct elfobj	 *eo;
	const struct functab *ft;
	const struct dobj **co;
	uint64_t	 *ch;
	size_t		  n, capo, caph;
};

static const uint8_t *
sec_contents(struct hctx *h, int s, uint64_t *len)
{
	struct datatab *t = h->t;
	const struct fsec *sec = &h->ft->secs[s];

	*len = sec->type == SHT_NOBITS ? 0 : sec->size;
	if (*len == 0)
		return NULL;
	if (t->secbuf[s] == NULL) {
		t->secbuf[s] = xmalloc((size_t)*len);
		if (elfobj_read(h->eo, sec->offset, t->secbuf[s],
		    (size_t)*len) == -1)
			memset(t->secbuf[s], 0, (size_t)*len);
	}
	return t->secbuf[s];
}

/* hash_value(Contents.substr(pos, n)) */
static uint64_t
hash_sub(const uint8_t *c, uint64_t len, uint64_t pos, uint64_t n)
{
	if (pos > len)
		pos = len;
	if (n > len - pos)
		n = len - pos;
	return hash_bytes(c != NULL ? c + pos : (const uint8_t *)"",
	    (size_t)n);
}

static uint64_t
obj_hash(struct hctx *h, int s, const struct dobj *o)
{
	const struct fsec *sec, *own;
	const struct drel *r;
	const uint8_t *c;
	uint64_t hv, off, end, len, nx;
	size_t i, me, b, e, nr, lo;

	for (i = 0; i < h->n; i++)
		if (h->co[i] == o)
			return h->ch[i];
	sec = &h->ft->secs[s];
	own = o->sec >= 0 ? &h->ft->secs[o->sec] : NULL;
	hv = hash_combine2(hash_int(o->size), own != NULL ?
	    hash_bytes((const uint8_t *)own->name, strlen(own->name)) :
	    hash_bytes((const uint8_t *)"<absolute>", 10));
	xgrow(&h->co, &h->capo, h->n + 1, sizeof(*h->co));
	xgrow(&h->ch, &h->caph, h->n + 1, sizeof(*h->ch));
	me = h->n++;
	h->co[me] = o;
	h->ch[me] = hv;
	/* containsRange */
	if (o->addr < sec->addr ||
	    o->addr - sec->addr >= sec->size ||
	    o->size > sec->size - (o->addr - sec->addr))
		return hv;
	c = sec_contents(h, s, &len);
	off = o->addr - sec->addr;
	end = off + o->size;
	r = h->t->drel[s];
	nr = h->t->ndrel[s];
	SEARCH_FIRST(lo, nr, m, r[m].off < off);	/* lower_bound(off) */
	b = lo;
	SEARCH_FIRST(lo, nr, m,		/* upper_bound(end) */
	    r[m].off <= end);
	e = lo;
	while (b != e) {
		const struct drel *rel = &r[b++];

		/* BOLT 19 reads the next relocation's offset, here as there:
		 * past the last one, the end node's field, which is where
		 * libstdc++ keeps the set's size */
		nx = b < nr ? r[b].off : (uint64_t)nr;
		hv = hash_combine2(hv, hash_sub(c, len, off, nx - off));
		if (rel->to != NULL)
			hv = hash_combine2(hv, obj_hash(h, s, rel->to));
		off = rel->off + rel->size;
	}
	hv = hash_combine2(hv, hash_sub(c, len, off, end - off));
	for (i = 0; i < h->n; i++)
		if (h->co[i] == o)
			h->ch[i] = hv;
	return hv;
}

/* generateSymbolHashes */
void
dt_hash_names(struct datatab *t, struct elfobj *eo, const struct functab *ft)
{
	struct hctx h;
	size_t i;

	memset(&h, 0, sizeof(h));
	h.t = t;
	h.eo = eo;
	h.ft = ft;

	for (i = 0; i < t->n; i++) {
		struct dobj *o = t->o[i];
		const char *x;
		char nm[64];
		size_t pre;

		if (!dt_internal_name(o->name))
			continue;
		/* a name of its own (a jump table's) goes first */
		if (o->alias != NULL) {
			o->name = o->alias;
			continue;
		}
		if (o->size == 0 || o->sec < 0)
			continue;
		x = strstr(o->name, "0x");
		pre = x != NULL ? (size_t)(x - o->name) : strlen(o->name);
		h.n = 0;
		snprintf(nm, sizeof(nm), "%.*s_%llx", (int)pre, o->name,
		    (unsigned long long)obj_hash(&h, o->sec, o));
		if (dt_by_name(t, nm) != NULL)
			continue;	/* a collision: the name stays */
		o->name = dt_keep(t, xstrdup(nm));
		dt_set_name(t, o->name, o);
		t->nhashed++;
	}
	free(h.co);
	free(h.ch);
}

