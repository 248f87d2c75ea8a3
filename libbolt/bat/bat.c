/* See COPYING file for copyright and license details. */
/*
 * bat.c: decoder of BOLT's address translation tables (.note.bolt_bat)
 * and BOLT's lookups over them.  BAT has no version field: the layout is
 * LLVM 19's and main's (bolt.md 1.2), judged by its own consistency, so
 * every field is checked against what that writer can produce.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "bat.h"

/* smallest encodings, to bound counts by the bytes left */
#define MIN_HOT_FUNC	13	/* address, hash(8), blocks, sec, entries, equal */
#define MIN_COLD_FUNC	5	/* address, index, skew, entries, equal */

struct dec {
	const uint8_t	*base;		/* section start */
	const uint8_t	*p, *end;	/* cursor, payload end */
	struct bat_err	*e;
	uint64_t	 prev;		/* running output address */
	/* growable arrays (pointers fixed up at the end) */
	struct bat_frag	*frag;
	size_t		 nfrag, capfrag;
	struct bat_entry *ent;
	size_t		 nent, capent;
	uint32_t	*sec;
	size_t		 nsec, capsec;
	size_t		*entstart, *secstart;	/* per fragment */
	size_t		 capes, capss;
	uint64_t	*coldidx;	/* cumulative cold index, per cold */
	size_t		 capci;
	size_t		*idxoff;	/* where each cold index field was */
	size_t		 capio;
};

static int PRINTFLIKE(3, 4)
fail(struct dec *d, size_t off, const char *fmt, ...)
{
	va_list ap;

	d->e->off = off;
	va_start(ap, fmt);
	vsnprintf(d->e->msg, sizeof(d->e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static size_t
pos(const struct dec *d)
{
	return (size_t)(d->p - d->base);
}

static size_t
left(const struct dec *d)
{
	return (size_t)(d->end - d->p);
}

static int
uleb(struct dec *d, uint64_t *v, const char *what)
{
	size_t n = uleb128_decode(d->p, d->end, v);

	if (n == 0)
		return fail(d, pos(d), "%s: %s", what, d->p >= d->end ?
		    "past the end of the tables" :
		    "bad ULEB128 (truncated or over 64 bits)");
	d->p += n;
	return 0;
}

static int
sleb(struct dec *d, int64_t *v, const char *what)
{
	size_t n = sleb128_decode(d->p, d->end, v);

	if (n == 0)
		return fail(d, pos(d), "%s: %s", what, d->p >= d->end ?
		    "past the end of the tables" :
		    "bad SLEB128 (truncated or over 64 bits)");
	d->p += n;
	return 0;
}

static int
u64le(struct dec *d, uint64_t *v, const char *what)
{
	if (left(d) < 8)
		return fail(d, pos(d), "%s: 8 bytes past the end of the tables",
		    what);
	*v = ld64(d->p, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	d->p += 8;
	return 0;
}

/* a count of items that take at least minsz bytes each */
static int
count(struct dec *d, uint64_t *v, size_t minsz, const char *what)
{
	size_t at = pos(d);

	if (uleb(d, v, what) == -1)
		return -1;
	if (*v > UINT32_MAX || *v > left(d) / minsz)
		return fail(d, at, "%s %llu: more than the %zu bytes left can "
		    "hold", what, (unsigned long long)*v, left(d));
	return 0;
}

/* one fragment's record; cold: from the cold table */
static int
frag_decode(struct dec *d, int cold, int first, uint64_t *lastaddr)
{
	struct bat_frag *f;
	struct bat_entry *x;
	uint64_t delta, addr, v, nent, neq, nsec, skew = 0, val = 0, bbidx = 0;
	uint64_t out, outaddr;
	const uint8_t *mask = NULL;
	size_t at = pos(d), j, maskbytes = 0;
	int64_t sd;
	uint32_t bit;

	if (uleb(d, &delta, "fragment address") == -1)
		return -1;
	addr = d->prev + delta;
	/* the delta is from the previous entry, which may lie above this
	 * fragment (then it wraps around 2^64, as BOLT's writer does);
	 * fragments of one table rise */
	if (!first && addr <= *lastaddr)
		return fail(d, at, "fragment at 0x%llx not above the previous "
		    "one at 0x%llx", (unsigned long long)addr,
		    (unsigned long long)*lastaddr);
	if (addr == 0)
		return fail(d, at, "fragment at address 0");
	*lastaddr = addr;
	d->prev = addr;
	xgrow(&d->frag, &d->capfrag, d->nfrag + 1, sizeof(*d->frag));
	xgrow(&d->entstart, &d->capes, d->nfrag + 1, sizeof(*d->entstart));
	xgrow(&d->secstart, &d->capss, d->nfrag + 1, sizeof(*d->secstart));
	f = &d->frag[d->nfrag];
	memset(f, 0, sizeof(*f));
	f->addr = addr;
	f->cold = cold;
	f->secoff = at;
	f->parent = (uint32_t)d->nfrag;
	if (cold) {
		size_t ncold = d->nfrag;	/* index among all, fixed later */

		xgrow(&d->coldidx, &d->capci, ncold + 1, sizeof(*d->coldidx));
		xgrow(&d->idxoff, &d->capio, ncold + 1, sizeof(*d->idxoff));
		d->idxoff[ncold] = pos(d);
		if (uleb(d, &v, "hot index delta") == -1)
			return -1;
		/* a delta mod 2^64: cold fragments need not follow their
		 * parents' order */
		d->coldidx[ncold] = v;
		at = pos(d);
		if (uleb(d, &skew, "cold input skew") == -1)
			return -1;
		if (skew > UINT32_MAX)
			return fail(d, at, "cold input skew 0x%llx over 32 bits",
			    (unsigned long long)skew);
		f->skew = (uint32_t)skew;
	} else {
		if (u64le(d, &f->hash, "function hash") == -1)
			return -1;
		at = pos(d);
		if (uleb(d, &f->nblocks, "block count") == -1)
			return -1;
		if (f->nblocks > UINT32_MAX)
			return fail(d, at, "block count %llu over 32 bits",
			    (unsigned long long)f->nblocks);
		if (count(d, &nsec, 1, "secondary entry point count") == -1)
			return -1;
		f->nsec = (size_t)nsec;
	}
	if (count(d, &nent, 1, "entry count") == -1)
		return -1;
	at = pos(d);
	if (uleb(d, &neq, "equal-offset count") == -1)
		return -1;
	if (neq > nent)
		return fail(d, at, "equal-offset count %llu above the entry "
		    "count %llu", (unsigned long long)neq,
		    (unsigned long long)nent);
	f->nent = (size_t)nent;
	f->nequal = (size_t)neq;
	if (neq) {
		maskbytes = (size_t)(neq + 7) / 8;
		if (maskbytes > left(d))
			return fail(d, pos(d), "branch-entry bitmask of %zu "
			    "bytes past the end of the tables", maskbytes);
		mask = d->p;
		/* the writer sets no bit past the equal entries */
		if (neq % 8 && (mask[maskbytes - 1] >> (neq % 8)) != 0)
			return fail(d, pos(d) + maskbytes - 1, "branch-entry "
			    "bitmask has bits set past its %llu entries",
			    (unsigned long long)neq);
		d->p += maskbytes;
	}
	d->entstart[d->nfrag] = d->nent;
	xgrow(&d->ent, &d->capent, d->nent + (size_t)nent, sizeof(*d->ent));
	for (j = 0; j < nent; j++) {
		at = pos(d);
		if (uleb(d, &delta, "entry output delta") == -1)
			return -1;
		outaddr = d->prev + delta;
		if (outaddr < d->prev)
			return fail(d, at, "entry address overflows 64 bits");
		out = outaddr - addr;
		if (out > UINT32_MAX)
			return fail(d, at, "entry offset 0x%llx over 32 bits",
			    (unsigned long long)out);
		d->prev = outaddr;
		if (j < neq) {
			bit = (mask[j / 8] >> (j % 8)) & 1;
			if (out + skew > UINT32_MAX >> 1)
				return fail(d, at, "equal entry's input offset "
				    "0x%llx over 31 bits",
				    (unsigned long long)(out + skew));
			val = ((out + skew) << 1) | bit;
		} else {
			size_t vat = pos(d);

			if (sleb(d, &sd, "entry input delta") == -1)
				return -1;
			val += (uint64_t)sd;
			if (val > UINT32_MAX)
				return fail(d, vat, "entry input value 0x%llx "
				    "outside 32 bits", (unsigned long long)val);
			/* the writer stops the equal run at the first entry
			 * with out != in - skew (in 32 bits) */
			if (j == neq && (uint32_t)out ==
			    (uint32_t)((uint32_t)(val >> 1) - (uint32_t)skew))
				return fail(d, vat, "entry %zu maps 0x%llx to "
				    "0x%llx, which ends no equal-offset run", j,
				    (unsigned long long)out,
				    (unsigned long long)(val >> 1));
		}
		x = &d->ent[d->nent++];
		x->out = (uint32_t)out;
		x->in = (uint32_t)(val >> 1);
		x->branch = (uint32_t)(val & 1);
		x->hash = 0;
		x->index = 0;
		if (!x->branch) {
			if (u64le(d, &x->hash, "block hash") == -1)
				return -1;
			at = pos(d);
			if (uleb(d, &v, "block index delta") == -1)
				return -1;
			bbidx += v;	/* mod 2^64, as written */
			if (bbidx > UINT32_MAX)
				return fail(d, at, "block index 0x%llx over 32 "
				    "bits", (unsigned long long)bbidx);
			x->index = (uint32_t)bbidx;
			/* a block hash keeps the block's input offset in its
			 * low 16 bits (BlendedBlockHash) */
			if (x->hash != 0 && (x->hash & 0xffff) != (x->in & 0xffff))
				return fail(d, at - 8, "block hash %016llx does not "
				    "hold the block's input offset 0x%x",
				    (unsigned long long)x->hash, x->in);
			if (x->hash == 0 && x->index != 0)
				return fail(d, at, "block index %u for a block "
				    "without a hash", x->index);
			if (!cold && x->hash != 0 && x->index >= f->nblocks)
				return fail(d, at, "block index %u not below "
				    "the block count %llu", x->index,
				    (unsigned long long)f->nblocks);
		}
	}
	d->secstart[d->nfrag] = d->nsec;
	if (!cold && f->nsec) {
		uint32_t eo = 0;

		xgrow(&d->sec, &d->capsec, d->nsec + f->nsec, sizeof(*d->sec));
		for (j = 0; j < f->nsec; j++) {
			at = pos(d);
			if (uleb(d, &v, "secondary entry point delta") == -1)
				return -1;
			if (v > UINT32_MAX)
				return fail(d, at, "secondary entry point delta "
				    "0x%llx over 32 bits", (unsigned long long)v);
			eo += (uint32_t)v;	/* uint32 arithmetic, as written */
			if (eo == 0)
				return fail(d, at, "secondary entry point at "
				    "offset 0");
			d->sec[d->nsec++] = eo;
		}
	}
	d->nfrag++;
	return 0;
}

static int
table_decode(struct dec *d, int cold)
{
	uint64_t n, i, last = 0;

	if (count(d, &n, cold ? MIN_COLD_FUNC : MIN_HOT_FUNC,
	    cold ? "cold fragment count" : "hot function count") == -1)
		return -1;
	for (i = 0; i < n; i++)
		if (frag_decode(d, cold, i == 0, &last) == -1)
			return -1;
	return 0;
}

static int
addrcmp_frag(const struct bat_frag *fr, uint32_t a, uint32_t b)
{
	return fr[a].addr < fr[b].addr ? -1 : fr[a].addr > fr[b].addr;
}

/* sort byaddr (insertion into two sorted runs: a merge) */
static void
merge_byaddr(struct bat *t)
{
	size_t i = 0, j = t->nhot, k = 0;

	t->byaddr = xreallocarray(NULL, t->nfrag ? t->nfrag : 1,
	    sizeof(*t->byaddr));
	while (i < t->nhot || j < t->nfrag) {
		if (j == t->nfrag || (i < t->nhot &&
		    addrcmp_frag(t->frag, (uint32_t)i, (uint32_t)j) <= 0))
			t->byaddr[k++] = (uint32_t)i++;
		else
			t->byaddr[k++] = (uint32_t)j++;
	}
}

/* are the parents par[] consistent: a cold fragment's block indices
 * within its parent's block count */
static int
parents_ok(const struct bat *t, const uint32_t *par, size_t *bad)
{
	size_t c, j;
	const struct bat_frag *f, *p;

	for (c = t->nhot; c < t->nfrag; c++) {
		f = &t->frag[c];
		p = &t->frag[par[c - t->nhot]];
		for (j = 0; j < f->nent; j++)
			if (!f->ent[j].branch && f->ent[j].hash != 0 &&
			    f->ent[j].index >= p->nblocks) {
				*bad = c;
				return 0;
			}
	}
	return 1;
}

static void
apply_parents(struct bat *t, const uint32_t *par)
{
	size_t c;
	struct bat_frag *f, *p;

	for (c = t->nhot; c < t->nfrag; c++) {
		f = &t->frag[c];
		p = &t->frag[par[c - t->nhot]];
		f->parent = par[c - t->nhot];
		f->hash = p->hash;
		f->nblocks = p->nblocks;
	}
}

/* both readings of the cold indices (see enum bat_coldidx) */
static int
resolve_cold(struct bat *t, struct dec *d)
{
	size_t ncold = t->nfrag - t->nhot, c, bad = 0, k;
	uint64_t idx = 0;
	uint32_t *rank;		/* byaddr position -> frag index */
	int okm = 1, ok19 = 1;
	size_t badm = SIZE_MAX, bad19 = SIZE_MAX;

	if (ncold == 0) {
		t->coldidx = BAT_COLD_NONE;
		return 0;
	}
	t->par_main = xreallocarray(NULL, ncold, sizeof(*t->par_main));
	t->par_v19 = xreallocarray(NULL, ncold, sizeof(*t->par_v19));
	rank = t->byaddr;
	for (c = 0; c < ncold; c++) {
		idx += d->coldidx[t->nhot + c];
		if (okm) {
			if (idx < t->nhot)
				t->par_main[c] = (uint32_t)idx;
			else {
				okm = 0;
				badm = c;
			}
		}
		if (ok19) {
			if (idx < t->nfrag && rank[idx] < t->nhot)
				t->par_v19[c] = rank[idx];
			else {
				ok19 = 0;
				bad19 = c;
			}
		}
	}
	if (okm && !parents_ok(t, t->par_main, &bad)) {
		okm = 0;
		badm = bad - t->nhot;
	}
	if (ok19 && !parents_ok(t, t->par_v19, &bad)) {
		ok19 = 0;
		bad19 = bad - t->nhot;
	}
	if (!okm && !ok19) {
		c = badm < bad19 ? badm : bad19;
		k = t->nhot + c;
		idx = 0;
		for (bad = 0; bad <= c; bad++)
			idx += d->coldidx[t->nhot + bad];
		return fail(d, d->idxoff[k], "cold fragment at 0x%llx: hot "
		    "index %llu names no hot function whose block count "
		    "covers its blocks (%zu hot, %zu fragments)",
		    (unsigned long long)t->frag[k].addr,
		    (unsigned long long)idx, t->nhot, t->nfrag);
	}
	if (okm && ok19 && memcmp(t->par_main, t->par_v19,
	    ncold * sizeof(*t->par_main)) == 0)
		t->coldidx = BAT_COLD_SAME;
	else if (okm) {
		t->coldidx = BAT_COLD_MAIN;
		t->ambiguous = ok19;
	} else
		t->coldidx = BAT_COLD_V19;
	apply_parents(t, t->coldidx == BAT_COLD_V19 ? t->par_v19 :
	    t->par_main);
	return 0;
}

struct blk {
	uint32_t	in, index;
	size_t		secoff;
};

static int
blkcmp(const void *a, const void *b)
{
	const struct blk *x = a, *y = b;

	if (x->in != y->in)
		return x->in < y->in ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* the blocks of one input function, over all its fragments: each input
 * offset with one index, and block indices rising with the offsets
 * (BOLT numbers a function's blocks in input order).  An input block may
 * appear more than once, with its index and hash: BOLT 19 on AArch64
 * gives the block it adds for a conditional tail call (cbz x0, f becomes
 * cbz x0, .Ltmp; ...; .Ltmp: b f) the input offset of the block it came
 * from.  Grouped by hot parent with a
 * counting pass, each group sorted apart: the order, hence the first
 * error reported, is that of one sort by (parent, offset, index). */
static int
check_blocks(struct bat *t, struct dec *d)
{
	struct blk *v, *g;
	size_t *start, i, j, k, n;
	const struct bat_frag *f;
	int rc = 0;

	start = xcalloc(t->nhot + 2, sizeof(*start));
	for (i = 0; i < t->nfrag; i++) {
		f = &t->frag[i];
		for (j = 0; j < f->nent; j++)
			if (!f->ent[j].branch && f->ent[j].hash != 0)
				start[f->parent + 2]++;
	}
	for (i = 0; i < t->nhot; i++)
		start[i + 2] += start[i + 1];
	v = xreallocarray(NULL, start[t->nhot + 1] ? start[t->nhot + 1] : 1,
	    sizeof(*v));
	/* start[p + 1]: where the next block of parent p goes */
	for (i = 0; i < t->nfrag; i++) {
		f = &t->frag[i];
		for (j = 0; j < f->nent; j++)
			if (!f->ent[j].branch && f->ent[j].hash != 0)
				v[start[f->parent + 1]++] = (struct blk){
				    f->ent[j].in, f->ent[j].index, f->secoff };
	}
	/* now start[p]: the first block of parent p */
	for (k = 0; k < t->nhot && rc == 0; k++) {
		g = v + start[k];
		n = start[k + 1] - start[k];
		for (i = 1; i < n && blkcmp(&g[i - 1], &g[i]) <= 0; i++)
			;
		if (i < n)
			qsort(g, n, sizeof(*g), blkcmp);
		for (i = 1; i < n && rc == 0; i++) {
			if (g[i].in == g[i - 1].in) {
				if (g[i].index != g[i - 1].index)
					rc = fail(d, g[i].secoff, "input block "
					    "0x%x of the function at 0x%llx "
					    "mapped twice, as block %u and %u",
					    g[i].in, (unsigned long long)
					    t->frag[k].addr, g[i - 1].index,
					    g[i].index);
			} else if (g[i].index <= g[i - 1].index)
				rc = fail(d, g[i].secoff, "block index %u at input "
				    "offset 0x%x not above index %u at 0x%x "
				    "(function at 0x%llx)", g[i].index, g[i].in,
				    g[i - 1].index, g[i - 1].in,
				    (unsigned long long)t->frag[k].addr);
		}
	}
	free(start);
	free(v);
	return rc;
}

int
bat_set_coldidx(struct bat *t, enum bat_coldidx which)
{
	size_t bad;

	if (t->nfrag == t->nhot || t->coldidx == BAT_COLD_SAME)
		return 0;
	if (which == BAT_COLD_MAIN && t->coldidx != BAT_COLD_MAIN) {
		if (!t->ambiguous || !parents_ok(t, t->par_main, &bad))
			return -1;
		apply_parents(t, t->par_main);
		t->coldidx = BAT_COLD_MAIN;
	} else if (which == BAT_COLD_V19 && t->coldidx != BAT_COLD_V19) {
		if (!t->ambiguous || !parents_ok(t, t->par_v19, &bad))
			return -1;
		apply_parents(t, t->par_v19);
		t->coldidx = BAT_COLD_V19;
	}
	return 0;
}

static void
dec_free(struct dec *d)
{
	free(d->frag);
	free(d->ent);
	free(d->sec);
	free(d->entstart);
	free(d->secstart);
	free(d->coldidx);
	free(d->idxoff);
}

int
bat_decode(struct bat *t, const uint8_t *sec, size_t size, struct bat_err *e)
{
	struct dec d;
	uint32_t namesz, descsz, type;
	size_t i, k, namepad, payload;
	struct bat_frag *f, *g;
	uint64_t maxout;

	memset(t, 0, sizeof(*t));
	memset(&d, 0, sizeof(d));
	d.base = sec;
	d.e = e;
	e->off = 0;
	e->msg[0] = '\0';
	t->size = size;
	if (size < 12)
		return fail(&d, 0, "section of %zu bytes, shorter than a note "
		    "header", size);
	namesz = ld32(sec, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	descsz = ld32(sec + 4, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	type = ld32(sec + 8, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if (type != BAT_NT_BOLT_BAT)
		return fail(&d, 8, "note type %u, not NT_BOLT_BAT (1)", type);
	namepad = ((size_t)namesz + 3) & ~(size_t)3;
	if (namesz < 4 || namepad > size - 12)
		return fail(&d, 0, "note name size %u does not fit the %zu-byte "
		    "section", namesz, size);
	if (memcmp(sec + 12, "BOLT", 4) != 0)
		return fail(&d, 12, "note name does not start with \"BOLT\"");
	payload = 12 + namepad;
	if (descsz > size - payload)
		return fail(&d, 4, "note descriptor of %u bytes runs past the "
		    "section end (%zu bytes after the note header)", descsz,
		    size - payload);
	d.p = sec + payload;
	d.end = d.p + descsz;
	t->payload = payload;
	if (table_decode(&d, 0) == -1)
		goto bad;
	t->nhot = d.nfrag;
	if (table_decode(&d, 1) == -1)
		goto bad;
	if (d.p != d.end) {
		fail(&d, pos(&d), "%zu bytes left after the cold table",
		    left(&d));
		goto bad;
	}
	/* at most the padding of the note to 4 bytes may follow */
	for (i = payload + descsz; i < size; i++)
		if (sec[i] != 0 || size - (payload + descsz) > 3) {
			fail(&d, i, "%zu bytes after the note descriptor",
			    size - (payload + descsz));
			goto bad;
		}
	t->end = payload + descsz;

	/* hand the arrays over, pointers fixed up */
	t->frag = d.frag;
	t->nfrag = d.nfrag;
	t->entpool = d.ent;
	t->nentries = d.nent;
	t->secpool = d.sec;
	d.frag = NULL;
	d.ent = NULL;
	d.sec = NULL;
	for (i = 0; i < t->nfrag; i++) {
		t->frag[i].ent = t->frag[i].nent ? t->entpool + d.entstart[i] :
		    NULL;
		t->frag[i].sec = t->frag[i].nsec ? t->secpool + d.secstart[i] :
		    NULL;
	}
	merge_byaddr(t);
	/* no two fragments at one address, and no block of a fragment
	 * beyond the start of the next one (a block entry may sit at the
	 * end of its fragment: BOLT's entries for deleted blocks).  Branch
	 * entries may lie elsewhere: BOLT 19 writes the output address of
	 * a branch duplicated into a cold fragment into the hot map.  So
	 * may a block at output address 0: one of a function BOLT 19 did
	 * not emit but wrote a map for (an AArch64 linker's thunk, left in
	 * place), its key 0 - address mod 2^32; no offset of the function
	 * reaches it, so translate() leaves them all unchanged. */
	for (k = 0; k < t->nfrag; k++) {
		f = &t->frag[t->byaddr[k]];
		maxout = 0;
		for (i = f->nent; i > 0; i--)
			if (!f->ent[i - 1].branch &&
			    bat_entry_addr(f, &f->ent[i - 1]) != 0) {
				maxout = f->ent[i - 1].out;
				break;
			}
		if (f->nent && f->addr + f->ent[f->nent - 1].out < f->addr) {
			fail(&d, f->secoff, "fragment at 0x%llx ends past 2^64",
			    (unsigned long long)f->addr);
			goto bad;
		}
		if (k + 1 < t->nfrag) {
			g = &t->frag[t->byaddr[k + 1]];
			if (g->addr == f->addr) {
				fail(&d, g->secoff, "two fragments at 0x%llx",
				    (unsigned long long)g->addr);
				goto bad;
			}
			if (f->addr + maxout > g->addr) {
				fail(&d, f->secoff, "fragment at 0x%llx has a "
				    "block at 0x%llx, inside the next fragment "
				    "at 0x%llx", (unsigned long long)f->addr,
				    (unsigned long long)(f->addr + maxout),
				    (unsigned long long)g->addr);
				goto bad;
			}
		}
	}
	if (resolve_cold(t, &d) == -1 || check_blocks(t, &d) == -1)
		goto bad;
	dec_free(&d);
	return 0;
bad:
	dec_free(&d);
	bat_free(t);
	t->size = size;
	return -1;
}

void
bat_free(struct bat *t)
{
	free(t->frag);
	free(t->entpool);
	free(t->secpool);
	free(t->byaddr);
	free(t->par_main);
	free(t->par_v19);
	memset(t, 0, sizeof(*t));
}

const struct bat_frag *
bat_find_le(const struct bat *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nfrag, mid;

	/* first fragment above addr */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (t->frag[t->byaddr[mid]].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &t->frag[t->byaddr[lo - 1]] : NULL;
}

const struct bat_frag *
bat_find(const struct bat *t, uint64_t addr)
{
	const struct bat_frag *f = bat_find_le(t, addr);

	return f != NULL && f->addr == addr ? f : NULL;
}

uint64_t
bat_parent_addr(const struct bat *t, uint64_t addr)
{
	const struct bat_frag *f = bat_find(t, addr);

	return f != NULL && f->cold ? t->frag[f->parent].addr : 0;
}

/* index of the first entry with out > key (std::upper_bound) */
static size_t
upper(const struct bat_frag *f, uint32_t key)
{
	size_t lo = 0, hi = f->nent, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (f->ent[mid].out <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct bat_entry *
bat_entry_at(const struct bat_frag *f, uint64_t off)
{
	/* the map's key is uint32_t: BOLT's lookup truncates */
	size_t i = upper(f, (uint32_t)off);

	return i ? &f->ent[i - 1] : NULL;
}

uint64_t
bat_translate_frag(const struct bat_frag *f, uint64_t off, int branchsrc)
{
	const struct bat_entry *x;

	if (f == NULL || (x = bat_entry_at(f, off)) == NULL)
		return off;
	if (branchsrc)
		return x->in;
	return off - x->out + x->in;
}

uint64_t
bat_translate(const struct bat *t, uint64_t funcaddr, uint64_t off,
    int branchsrc)
{
	return bat_translate_frag(bat_find(t, funcaddr), off, branchsrc);
}

long
bat_fallthroughs(const struct bat *t, uint64_t funcaddr, uint64_t from,
    uint64_t to, uint32_t **pairs, size_t *cap)
{
	const struct bat_frag *f;

	if (from >= to)
		return 0;
	if ((f = bat_find(t, funcaddr)) == NULL)
		return -1;
	return bat_fallthroughs_frag(f, from - funcaddr, to - funcaddr, pairs,
	    cap);
}

long
bat_fallthroughs_frag(const struct bat_frag *f, uint64_t from, uint64_t to,
    uint32_t **pairs, size_t *cap)
{
	size_t fi, ti, it, src;
	long n = 0;

	if (from >= to)
		return 0;
	fi = upper(f, (uint32_t)from);
	if (fi == 0)
		return 0;
	do {
		if (fi == 0)
			return 0;
		fi--;
	} while (f->ent[fi].branch);
	ti = upper(f, (uint32_t)to);
	if (ti == 0)
		return 0;
	ti--;
	if (f->ent[fi].out >= f->ent[ti].out)
		return 0;
	for (it = fi; it != ti;) {
		src = it;
		if (f->ent[it].branch) {
			it++;
			continue;
		}
		it++;
		while (f->ent[it].branch && it != ti)
			it++;
		if (f->ent[it].branch)
			break;
		xgrow(pairs, cap, 2 * (size_t)n + 2, sizeof(**pairs));
		(*pairs)[2 * n] = (uint32_t)src;
		(*pairs)[2 * n + 1] = (uint32_t)it;
		n++;
	}
	return n;
}

void
bat_producer(const uint8_t *sec, size_t size, char *dst, size_t len)
{
	uint32_t namesz, descsz;
	size_t off, n, i;
	const char *s;

	if (len == 0)
		return;
	dst[0] = '\0';
	if (size < 12)
		return;
	namesz = ld32(sec, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	descsz = ld32(sec + 4, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	off = 12 + (((size_t)namesz + 3) & ~(size_t)3);
	if (namesz > size || off > size)
		return;
	n = descsz < size - off ? descsz : size - off;
	s = (const char *)sec + off;
	for (i = 0; i < n && s[i] != '\0' && s[i] != '\n'; i++)
		if (i + 14 <= n && memcmp(s + i, ", command line", 14) == 0)
			break;
	if (i >= len)
		i = len - 1;
	memcpy(dst, s, i);
	dst[i] = '\0';
	/* keep it printable */
	for (n = 0; n < i; n++)
		if ((unsigned char)dst[n] < 0x20 || (unsigned char)dst[n] > 0x7e)
			dst[n] = '?';
}
