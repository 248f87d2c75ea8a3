/* See COPYING file for copyright and license details. */
/*
 * raw.c: the raw profile (.profraw) reader, versions 8, 9 and 10, 64-
 * and 32-bit, either byte order, several profiles back to back.  Every
 * size, count and offset is checked against the buffer before use.
 * Decoded name tables are cached across inputs, keyed by the bytes of
 * the names section, since a fleet's raw files mostly come from one
 * binary and decoding the names is most of llvm-profdata's time.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util.h"
#include "md5.h"
#include "prfraw2idx.h"

#define MAGIC64		0xff6c70726f667281ULL
#define MAGIC32		0xff6c70726f665281ULL
#define MAXNAMES	(1U << 28)	/* cap on a decoded names chunk */
#define MAXCACHE	64		/* name tables kept */
#define MAXCOUNTER	(1ULL << 56)

struct sym {
	uint64_t	md5;
	uint32_t	off, len;
};

struct symtab {
	uint64_t	 khash;		/* hash of the section bytes */
	uint8_t		*key;		/* the section bytes */
	size_t		 keylen;
	char		*strs;
	size_t		 nstrs, capstrs;
	struct sym	*syms;
	size_t		 nsyms, capsyms;
	uint32_t	*tab;		/* open addressing md5 -> sym + 1 */
	size_t		 tabcap;
	struct fentry	***fe;		/* per store id: sym -> entry */
	unsigned	 nfe;
};

struct namecache {
	struct symtab	**v;
	size_t		  n, cap;
};

/* one raw profile being read */
struct raw {
	const uint8_t	*buf;
	size_t		 len;
	int		 swap, is64;
	unsigned	 version;	/* 8, 9, 10 */
	uint64_t	 variant;
	size_t		 dsize;		/* sizeof(ProfileData) */
	unsigned	 nkinds;
	size_t		 data, cnts, bmap, names, vtab, vnames, vdata;
	uint64_t	 ndata, ncnts, cntsize, nbmap, namesize, nvtab, vnamesize;
	uint64_t	 cdelta, bdelta;
	/* address maps for value targets, built on first need */
	struct { uint64_t a, m; } *fmap;
	size_t		 nfmap;
	int		 fmapped;
	struct vmrange { uint64_t lo, hi, m; } *vmap;
	size_t		 nvmap;
	int		 vmapped;
	/* scratch for one record's value sites */
	struct site	*vs[NKINDS];
	size_t		 capvs[NKINDS];
	struct vpair	*vals;
	size_t		 capvals;
	/* temporal profiles: (timestamp, name ref) of the file */
	struct tsref { uint64_t ts, ref; } *ts;
	size_t		 nts, capts;
	struct { size_t off, len; } *bids;	/* binary ids in the file */
	size_t		 nbids, capbids;
};

static int	read_profile(struct store *, struct namecache *, struct raw *,
		    size_t, size_t *, uint64_t, struct perr *);
static struct symtab *get_symtab(struct namecache *, const uint8_t *, size_t,
		    size_t, struct perr *);
static int	decode_names(struct symtab *, const uint8_t *, size_t, size_t,
		    struct perr *);
static int	read_values(struct raw *, const uint16_t *, uint64_t,
		    size_t *, struct rec *, struct perr *);

static uint64_t
ldp(const struct raw *r, const uint8_t *p)
{
	return r->is64 ? ld64(p, r->swap) : ld32(p, r->swap);
}

int
raw_is_raw(const uint8_t *p, size_t len)
{
	uint64_t m;

	if (len < 8)
		return 0;
	m = ld64(p, 0);
	return m == MAGIC64 || m == MAGIC32 || m == __builtin_bswap64(MAGIC64)
	    || m == __builtin_bswap64(MAGIC32);
}

struct namecache *
namecache_new(void)
{
	return xcalloc(1, sizeof(struct namecache));
}

static void
symtab_free(struct symtab *st)
{
	unsigned i;

	if (st == NULL)
		return;
	free(st->key);
	free(st->strs);
	free(st->syms);
	free(st->tab);
	for (i = 0; i < st->nfe; i++)
		free(st->fe[i]);
	free(st->fe);
	free(st);
}

void
namecache_free(struct namecache *nc)
{
	size_t i;

	if (nc == NULL)
		return;
	for (i = 0; i < nc->n; i++)
		symtab_free(nc->v[i]);
	free(nc->v);
	free(nc);
}

static int
tscmp(const void *a, const void *b)
{
	const struct tsref *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->ref > y->ref) - (x->ref < y->ref);
}

#define SORT_NAME	sort_tsrefs
#define SORT_TYPE	struct tsref
#define SORT_LESS(a, b)	(tscmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

int
raw_read(struct store *s, struct namecache *nc, const uint8_t *buf,
    size_t len, uint64_t weight, struct perr *e)
{
	struct raw r;
	size_t pos = 0, next;
	uint64_t m;
	int first = 1, rc = 0;

	memset(&r, 0, sizeof(r));
	r.buf = buf;
	r.len = len;
	for (;;) {
		if (!first) {
			while (pos < len && buf[pos] == 0)
				pos++;
			if (pos == len)
				break;
			if (len - pos < 8 + 8 * 11) {
				perr_set(e, pos, 1, "not enough space for "
				    "another header");
				goto fail;
			}
			if (pos % 8 != 0) {
				perr_set(e, pos, 1, "next profile header is "
				    "not 8-byte aligned");
				goto fail;
			}
		}
		if (len - pos < 16) {
			perr_set(e, pos, 1, "file too short for a raw profile "
			    "header");
			goto fail;
		}
		m = ld64(buf + pos, 0);
		if (first) {
			if (m == MAGIC64 || m == MAGIC32)
				r.swap = 0;
			else if (m == __builtin_bswap64(MAGIC64) ||
			    m == __builtin_bswap64(MAGIC32))
				r.swap = 1;
			else {
				perr_set(e, pos, 1, "bad raw profile magic");
				goto fail;
			}
			r.is64 = ld64(buf + pos, r.swap) == MAGIC64;
		} else if (ld64(buf + pos, r.swap) !=
		    (r.is64 ? MAGIC64 : MAGIC32)) {
			perr_set(e, pos, 1, "next profile has a different "
			    "magic or byte order");
			goto fail;
		}
		free(r.fmap);
		free(r.vmap);
		r.fmap = NULL;
		r.vmap = NULL;
		r.fmapped = r.vmapped = 0;
		if ((rc = read_profile(s, nc, &r, pos, &next, weight, e)) != 0)
			break;
		pos = next;
		first = 0;
	}
	for (pos = 0; rc == 0 && pos < r.nbids; pos++)
		store_binid(s, buf + r.bids[pos].off, r.bids[pos].len);
	if (rc == 0 && r.nts > 0) {
		struct trace t;

		if (r.nts > 1)
			sort_tsrefs(r.ts, r.nts);
		t.weight = weight;
		t.n = r.nts;
		t.refs = xreallocarray(NULL, r.nts, sizeof(*t.refs));
		for (pos = 0; pos < r.nts; pos++)
			t.refs[pos] = r.ts[pos].ref;
		store_traces(s, &t, 1, 1);
	}
	if (0) {
fail:
		rc = -1;
	}
	free(r.ts);
	free(r.bids);
	free(r.fmap);
	free(r.vmap);
	for (pos = 0; pos < NKINDS; pos++)
		free(r.vs[pos]);
	free(r.vals);
	return rc;
}

/* a + b + c <= lim without overflow; sets *out = a + b + c */
static int
addfits(uint64_t a, uint64_t b, uint64_t lim, uint64_t *out)
{
	uint64_t t;

	if (__builtin_add_overflow(a, b, &t) || t > lim)
		return 0;
	*out = t;
	return 1;
}

static uint64_t
pad8(uint64_t n)
{
	return 7 & (8 - n % 8);
}

/*
 * The header of the raw profile at pos: its version and variant, and its
 * sections laid out in r, every sum checked against the buffer; *hsize
 * the header's size and *idsize the binary ids' (they follow it).
 */
static int
read_header(struct raw *r, size_t pos, size_t *hsize, uint64_t *idsize,
    struct perr *e)
{
	const uint8_t *h = r->buf + pos;
	uint64_t f[16], ver, end, o, padb, pada, padbm, kindlast;
	size_t nf, i;

	ver = ld64(h + 8, r->swap);
	r->version = (unsigned)(ver & 0xffffffff);
	r->variant = ver & 0xffffffff00000000ULL;
	switch (r->version) {
	case 8:
		nf = 11;
		break;
	case 9:
		nf = 14;
		break;
	case 10:
		nf = 16;
		break;
	default:
		perr_set(e, pos + 8, 1, "unsupported raw profile version %u "
		    "(8, 9 and 10 are known)", r->version);
		return -1;
	}
	*hsize = nf * 8;
	if (r->len - pos < *hsize) {
		perr_set(e, pos, 1, "truncated raw profile header: %zu bytes "
		    "left, %zu needed", r->len - pos, *hsize);
		return -1;
	}
	for (i = 0; i < nf; i++)
		f[i] = ld64(h + 8 * i, r->swap);
	/* name the fields whatever the version */
	*idsize = f[2];
	r->ndata = f[3];
	padb = f[4];
	r->ncnts = f[5];
	pada = f[6];
	if (r->version == 8) {
		r->nbmap = 0;
		padbm = 0;
		r->namesize = f[7];
		r->cdelta = f[8];
		r->bdelta = 0;
		r->nvtab = r->vnamesize = 0;
		kindlast = f[10];
	} else {
		r->nbmap = f[7];
		padbm = f[8];
		r->namesize = f[9];
		r->cdelta = f[10];
		r->bdelta = f[11];
		if (r->version == 10) {
			r->nvtab = f[13];
			r->vnamesize = f[14];
			kindlast = f[15];
		} else {
			r->nvtab = r->vnamesize = 0;
			kindlast = f[13];
		}
	}
	r->nkinds = r->version >= 10 ? 3 : 2;
	if (kindlast >= r->nkinds) {
		perr_set(e, pos + (nf - 1) * 8, 1, "value kind last %llu is "
		    "not a known kind", (unsigned long long)kindlast);
		return -1;
	}
	if (r->variant & (VAR_DBG_CORRELATE | VAR_MEMPROF)) {
		perr_set(e, pos + 8, 1, "%s", (r->variant & VAR_MEMPROF) ?
		    "memory profiles are not supported" : "profile needs "
		    "debug-info correlation, which is not supported");
		return -1;
	}
	if (*idsize % 8 != 0) {
		perr_set(e, pos + 16, 1, "binary ids size %llu is not a "
		    "multiple of 8", (unsigned long long)*idsize);
		return -1;
	}
	if (r->is64)
		r->dsize = r->version == 8 ? 48 : 64;
	else
		r->dsize = r->version == 8 ? 40 : 48;
	r->cntsize = (r->variant & VAR_BYTE_COVERAGE) ? 1 : 8;
	/* lay the sections out, every sum checked against the buffer */
	end = r->len;
	o = pos + *hsize;
	if (!addfits(o, *idsize, end, &o))
		goto corrupt;
	r->data = o;
	if (r->ndata > (end - o) / r->dsize)
		goto corrupt;
	o += r->ndata * r->dsize;
	if (!addfits(o, padb, end, &o))
		goto corrupt;
	r->cnts = o;
	if (r->ncnts > (end - o) / r->cntsize)
		goto corrupt;
	o += r->ncnts * r->cntsize;
	if (!addfits(o, pada, end, &o))
		goto corrupt;
	r->bmap = o;
	if (!addfits(o, r->nbmap, end, &o) || !addfits(o, padbm, end, &o))
		goto corrupt;
	r->names = o;
	if (!addfits(o, r->namesize, end, &o) ||
	    !addfits(o, pad8(r->namesize), end, &o))
		goto corrupt;
	r->vtab = o;
	if (r->nvtab > (end - o) / (r->is64 ? 24 : 16))
		goto corrupt;
	o += r->nvtab * (r->is64 ? 24 : 16);
	if (!addfits(o, pad8(r->nvtab * (r->is64 ? 24 : 16)), end, &o))
		goto corrupt;
	r->vnames = o;
	if (!addfits(o, r->vnamesize, end, &o) ||
	    !addfits(o, pad8(r->vnamesize), end, &o))
		goto corrupt;
	r->vdata = o;
	if (r->ndata == 0 && r->ncnts > 0) {
		perr_set(e, pos, 1, "profile has %llu counters but no data "
		    "records: a correlated profile (-profile-correlate or "
		    "-debug-info-correlate) needs its binary, which is not "
		    "supported", (unsigned long long)r->ncnts);
		return -1;
	}
	return 0;
corrupt:
	perr_set(e, pos, 1, "raw profile header is corrupt: section sizes "
	    "exceed the %llu bytes of the file",
	    (unsigned long long)r->len);
	return -1;
}

/* the binary ids in [o, end), kept in r for the end of the file: a bad
 * file adds none, as in LLVM */
static int
read_binary_ids(struct raw *r, uint64_t o, uint64_t end, struct perr *e)
{
	while (o < end) {
		uint64_t left = end - o, bl;

		if (left < 8)
			goto badid;
		bl = ld64(r->buf + o, r->swap);
		if (bl == 0) {
			perr_set(e, o, 1, "binary id length is 0");
			return -1;
		}
		if (bl > left - 8 || bl + pad8(bl) > left - 8)
			goto badid;
		xgrow(&r->bids, &r->capbids, r->nbids + 1, sizeof(*r->bids));
		r->bids[r->nbids].off = (size_t)o + 8;
		r->bids[r->nbids].len = (size_t)bl;
		r->nbids++;
		o += 8 + bl + pad8(bl);
	}
	return 0;
badid:
	perr_set(e, o, 1, "binary id overruns the binary ids section");
	return -1;
}

/* the fields of a data record (__llvm_profile_data) that move with the
 * version and the word size */
struct drec {
	uint64_t	 nameref, cptr, bptr;
	uint32_t	 ncnt, nbm;
	uint16_t	 nvs[NKINDS];
};

static void
data_fields(const struct raw *r, const uint8_t *d, struct drec *dr)
{
	memset(dr, 0, sizeof(*dr));
	dr->nameref = ld64(d, r->swap);
	dr->cptr = ldp(r, d + 16);
	if (r->is64) {
		if (r->version == 8) {
			dr->ncnt = ld32(d + 40, r->swap);
			dr->nvs[0] = ld16(d + 44, r->swap);
			dr->nvs[1] = ld16(d + 46, r->swap);
		} else {
			dr->bptr = ld64(d + 24, r->swap);
			dr->ncnt = ld32(d + 48, r->swap);
			dr->nvs[0] = ld16(d + 52, r->swap);
			dr->nvs[1] = ld16(d + 54, r->swap);
			if (r->version == 10) {
				dr->nvs[2] = ld16(d + 56, r->swap);
				dr->nbm = ld32(d + 60, r->swap);
			} else
				dr->nbm = ld32(d + 56, r->swap);
		}
	} else {
		if (r->version == 8) {
			dr->ncnt = ld32(d + 28, r->swap);
			dr->nvs[0] = ld16(d + 32, r->swap);
			dr->nvs[1] = ld16(d + 34, r->swap);
		} else {
			dr->bptr = ld32(d + 20, r->swap);
			dr->ncnt = ld32(d + 32, r->swap);
			dr->nvs[0] = ld16(d + 36, r->swap);
			dr->nvs[1] = ld16(d + 38, r->swap);
			if (r->version == 10) {
				dr->nvs[2] = ld16(d + 40, r->swap);
				dr->nbm = ld32(d + 44, r->swap);
			} else
				dr->nbm = ld32(d + 40, r->swap);
		}
	}
}

/* the symbol (index + 1) of a name ref, 0 if the names have none */
static uint32_t
sym_index(const struct symtab *st, uint64_t nameref)
{
	size_t si, mask = st->tabcap - 1;

	for (si = (size_t)(nameref ^ (nameref >> 32)) & mask;
	    st->tab[si] != 0; si = (si + 1) & mask)
		if (st->syms[st->tab[si] - 1].md5 == nameref)
			return st->tab[si];
	return 0;
}

/* data record i's counters into rec->counts (*counts, grown once they
 * are known to lie in the counters section), a temporal profile's
 * timestamp into r->ts; pointers are relative to the record */
static int
read_counters(struct store *s, struct raw *r, uint64_t i,
    const struct drec *dr, struct rec *rec, uint64_t **counts,
    size_t *capcounts, struct perr *e)
{
	size_t doff = r->data + i * r->dsize;
	uint64_t delta, coff;
	int64_t soff;
	uint32_t j;
	int tmp = (r->variant & VAR_TEMPORAL) != 0;

	delta = r->cdelta - i * r->dsize;
	if (r->is64)
		soff = (int64_t)(dr->cptr - delta);
	else
		soff = (int32_t)(uint32_t)(dr->cptr - delta);
	coff = (uint64_t)soff;
	if (soff < 0 || coff >= r->ncnts * r->cntsize ||
	    dr->ncnt > (r->ncnts * r->cntsize - coff) / r->cntsize) {
		perr_set(e, doff + 16, 1, "data record %llu: counters "
		    "(offset %lld, %u counters) are outside the "
		    "counters section", (unsigned long long)i,
		    (long long)soff, dr->ncnt);
		return -1;
	}
	xgrow(counts, capcounts, dr->ncnt, sizeof(**counts));
	rec->counts = *counts;
	rec->ncounts = 0;
	for (j = 0; j < dr->ncnt; j++) {
		const uint8_t *cp = r->buf + r->cnts + coff +
		    (uint64_t)j * r->cntsize;
		uint64_t c;

		if (j == 0 && tmp) {
			/* the timestamp of a temporal profile */
			uint64_t ts;

			if (dr->ncnt < 8 / r->cntsize) {
				perr_set(e, doff, 1, "data record %llu: "
				    "too few counters for a timestamp",
				    (unsigned long long)i);
				return -1;
			}
			ts = ld64(cp, r->swap);
			if (ts != 0 && ts != UINT64_MAX) {
				xgrow(&r->ts, &r->capts, r->nts + 1,
				    sizeof(*r->ts));
				r->ts[r->nts].ts = ts;
				r->ts[r->nts].ref = dr->nameref;
				r->nts++;
			}
			if (r->cntsize == 1)
				j += 7;
			continue;
		}
		if (r->cntsize == 1)
			c = *cp == 0 ? 1 : 0;
		else {
			c = ld64(cp, r->swap);
			/* once per file, as llvm-profdata */
			if (c > MAXCOUNTER && !e->suspect) {
				e->suspect = 1;
				store_warn(s, "offset 0x%llx: counter "
				    "value %llu is too large: the "
				    "profile looks corrupt",
				    (unsigned long long)(cp - r->buf),
				    (unsigned long long)c);
			}
		}
		rec->counts[rec->ncounts++] = c;
	}
	if (rec->ncounts == 0) {
		perr_set(e, doff, 1, "data record %llu: no counters "
		    "after the timestamp", (unsigned long long)i);
		return -1;
	}
	return 0;
}

/* data record i's bitmap bytes (MC/DC), in place in the buffer */
static int
read_bitmap(const struct raw *r, uint64_t i, const struct drec *dr,
    struct rec *rec, struct perr *e)
{
	size_t doff = r->data + i * r->dsize;
	uint64_t delta, boff;
	int64_t soff;

	rec->nbitmap = dr->nbm;
	rec->bitmap = NULL;
	if (dr->nbm == 0)
		return 0;
	delta = r->bdelta - i * r->dsize;
	if (r->is64)
		soff = (int64_t)(dr->bptr - delta);
	else
		soff = (int32_t)(uint32_t)(dr->bptr - delta);
	boff = (uint64_t)soff;
	if (soff < 0 || boff >= r->nbmap || dr->nbm > r->nbmap - boff) {
		perr_set(e, doff + 24, 1, "data record %llu: "
		    "bitmap (offset %lld, %u bytes) is outside "
		    "the bitmap section", (unsigned long long)i,
		    (long long)soff, dr->nbm);
		return -1;
	}
	rec->bitmap = (uint8_t *)(uintptr_t)(r->buf + r->bmap + boff);
	return 0;
}

/* the vtable names of a version 10 profile, validated (a throwaway
 * table: llvm-profdata reads them, and nothing of them is written) */
static int
check_vnames(struct raw *r, struct perr *e)
{
	struct symtab vt;
	int vr;

	if (r->nvtab == 0 && r->vnamesize == 0)
		return 0;
	memset(&vt, 0, sizeof(vt));
	vr = decode_names(&vt, r->buf, r->vnames, r->vnamesize, e);
	free(vt.strs);
	free(vt.syms);
	free(vt.tab);
	return vr;
}

/* store s's cache of entries for the names of st, made on first need */
static struct fentry **
fe_cache(struct store *s, struct symtab *st)
{
	if (s->id >= st->nfe) {
		st->fe = xreallocarray(st->fe, s->id + 1, sizeof(*st->fe));
		memset(st->fe + st->nfe, 0, (s->id + 1 - st->nfe) *
		    sizeof(*st->fe));
		st->nfe = s->id + 1;
	}
	if (st->fe[s->id] == NULL)
		st->fe[s->id] = xcalloc(st->nsyms + 1, sizeof(**st->fe));
	return st->fe[s->id];
}

static int
read_profile(struct store *s, struct namecache *nc, struct raw *r,
    size_t pos, size_t *next, uint64_t weight, struct perr *e)
{
	uint64_t idsize, nd, i, vpos, kind;
	size_t hsize;
	struct symtab *st;
	struct fentry **fecache;
	struct rec rec;
	uint64_t *counts = NULL;
	size_t capcounts = 0;
	int rc = -1;

	if (read_header(r, pos, &hsize, &idsize, e) != 0 ||
	    read_binary_ids(r, pos + hsize, pos + hsize + idsize, e) != 0)
		return -1;
	kind = r->variant & (VAR_IR | VAR_CSIR | VAR_ENTRY_FIRST |
	    VAR_BYTE_COVERAGE | VAR_ENTRY_ONLY | VAR_TEMPORAL |
	    VAR_LOOP_ENTRIES);
	if (!(kind & VAR_IR))
		kind |= VAR_FE;
	if (store_kind(s, kind, e) != 0) {
		e->off = pos + 8;
		e->has_off = 1;
		return -1;
	}
	if (check_vnames(r, e) != 0)
		return -1;
	if (r->ndata == 0) {
		*next = r->vdata;
		return 0;
	}
	if ((st = get_symtab(nc, r->buf, r->names, r->namesize, e)) == NULL)
		return -1;
	fecache = fe_cache(s, st);

	vpos = r->vdata;
	memset(&rec, 0, sizeof(rec));
	nd = r->ndata;
	for (i = 0; i < nd; i++) {
		const uint8_t *d = r->buf + r->data + i * r->dsize;
		size_t doff = r->data + i * r->dsize;
		struct drec dr;
		uint32_t idx;
		unsigned k;

		data_fields(r, d, &dr);
		rec.hash = ld64(d + 8, r->swap);
		if ((idx = sym_index(st, dr.nameref)) == 0) {
			perr_set(e, doff, 1, "data record %llu: name ref "
			    "%016llx is not in the names section",
			    (unsigned long long)i,
			    (unsigned long long)dr.nameref);
			goto out;
		}
		if (dr.ncnt == 0) {
			perr_set(e, doff, 1, "data record %llu: number of "
			    "counters is zero", (unsigned long long)i);
			goto out;
		}
		if (read_counters(s, r, i, &dr, &rec, &counts, &capcounts,
		    e) != 0 ||
		    read_bitmap(r, i, &dr, &rec, e) != 0)
			goto out;
		/* value profile data */
		for (k = 0; k < NKINDS; k++)
			rec.nsites[k] = 0;
		for (k = 0; k < r->nkinds; k++)
			if (dr.nvs[k] != 0)
				break;
		if (k < r->nkinds) {
			size_t vp = (size_t)vpos;

			if (read_values(r, dr.nvs, i, &vp, &rec, e) != 0)
				goto out;
			vpos = vp;
		}
		if (fecache[idx - 1] == NULL) {
			const struct sym *sy = &st->syms[idx - 1];

			fecache[idx - 1] = store_entry(s, st->strs + sy->off,
			    sy->len, sy->md5);
		}
		store_add(s, fecache[idx - 1], &rec, weight);
	}
	*next = (size_t)vpos;
	rc = 0;
out:
	free(counts);
	return rc;
}

/*
 * Function addresses to name refs, from the data records: an open
 * addressing table; of two records at one address the smaller name ref
 * wins, as after LLVM's sort.
 */
static void
build_fmap(struct raw *r)
{
	uint64_t i;
	size_t fpo = r->is64 ? (r->version == 8 ? 24 : 32) :
	    (r->version == 8 ? 20 : 24), cap, mask, k;

	r->fmapped = 1;
	for (cap = 16; cap < r->ndata * 2; cap *= 2)
		continue;
	r->fmap = xcalloc(cap, sizeof(*r->fmap));
	r->nfmap = cap;
	mask = cap - 1;
	for (i = 0; i < r->ndata; i++) {
		const uint8_t *d = r->buf + r->data + i * r->dsize;
		uint64_t fp = ldp(r, d + fpo), m = ld64(d, r->swap);

		if (fp == 0)
			continue;
		for (k = (size_t)((fp >> 4) ^ (fp >> 17)) & mask;
		    r->fmap[k].a != 0 && r->fmap[k].a != fp; k = (k + 1) & mask)
			continue;
		if (r->fmap[k].a == 0 || m < r->fmap[k].m) {
			r->fmap[k].a = fp;
			r->fmap[k].m = m;
		}
	}
}

static int
vmcmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

#define SORT_NAME	sort_vmranges
#define SORT_TYPE	struct vmrange
#define SORT_LESS(a, b)	(vmcmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

/* vtable address ranges [ptr, ptr + size) to vtable name hashes */
static void
build_vmap(struct raw *r)
{
	uint64_t i;
	size_t vs = r->is64 ? 24 : 16, n = 0;

	r->vmapped = 1;
	r->vmap = xreallocarray(NULL, r->nvtab + 1, sizeof(*r->vmap));
	for (i = 0; i < r->nvtab; i++) {
		const uint8_t *v = r->buf + r->vtab + i * vs;
		uint64_t p = ldp(r, v + 8);
		uint32_t sz = ld32(v + (r->is64 ? 16 : 12), r->swap);

		if (sz == 0)
			continue;
		r->vmap[n].lo = p;
		r->vmap[n].hi = p + sz;
		r->vmap[n].m = ld64(v, r->swap);
		n++;
	}
	sort_vmranges(r->vmap, n);
	r->nvmap = n;
}

static uint64_t
map_value(struct raw *r, unsigned kind, uint64_t v)
{
	size_t lo, hi;

	if (kind == 0) {
		size_t k, mask;

		if (v == 0)
			return 0;
		if (!r->fmapped)
			build_fmap(r);
		mask = r->nfmap - 1;
		for (k = (size_t)((v >> 4) ^ (v >> 17)) & mask;
		    r->fmap[k].a != 0; k = (k + 1) & mask)
			if (r->fmap[k].a == v)
				return r->fmap[k].m;
		return 0;
	}
	if (kind == 2) {
		if (!r->vmapped)
			build_vmap(r);
		/* the last range starting at or below v */
		lo = 0;
		hi = r->nvmap;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (r->vmap[mid].lo <= v)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo > 0 && v < r->vmap[lo - 1].hi ? r->vmap[lo - 1].m : 0;
	}
	return v;
}

static int
read_values(struct raw *r, const uint16_t *nvs, uint64_t recno,
    size_t *vposp, struct rec *rec, struct perr *e)
{
	size_t vpos = *vposp, left = r->len - vpos, o, nvals = 0, vi;
	const uint8_t *p = r->buf + vpos;
	uint32_t total, nk, kk, kind, ns, j, seen = 0;

	if (left < 8) {
		perr_set(e, vpos, 1, "value profile data of record %llu is "
		    "truncated", (unsigned long long)recno);
		return -1;
	}
	total = ld32(p, r->swap);
	nk = ld32(p + 4, r->swap);
	if (total < 8 || total % 8 != 0 || total > left) {
		perr_set(e, vpos, 1, "value profile data of record %llu: "
		    "total size %u is invalid (%zu bytes left)",
		    (unsigned long long)recno, total, left);
		return -1;
	}
	if (nk > r->nkinds) {
		perr_set(e, vpos + 4, 1, "value profile data of record %llu: "
		    "%u value kinds", (unsigned long long)recno, nk);
		return -1;
	}
	/* check everything and count the values before storing any */
	for (kk = 0, o = 8; kk < nk; kk++) {
		size_t hsz, nv = 0;

		if (total - o < 8)
			goto trunc;
		kind = ld32(p + o, r->swap);
		ns = ld32(p + o + 4, r->swap);
		if (kind >= r->nkinds || (seen & (1U << kind))) {
			perr_set(e, vpos + o, 1, "value profile data of "
			    "record %llu: value kind %u is invalid or repeated",
			    (unsigned long long)recno, kind);
			return -1;
		}
		seen |= 1U << kind;
		if (ns != nvs[kind]) {
			perr_set(e, vpos + o + 4, 1, "value profile data of "
			    "record %llu: %u sites of kind %u, the data record "
			    "says %u", (unsigned long long)recno, ns, kind,
			    (unsigned)nvs[kind]);
			return -1;
		}
		hsz = ((size_t)8 + ns + 7) & ~(size_t)7;
		if (hsz > total - o)
			goto trunc;
		for (j = 0; j < ns; j++)
			nv += p[o + 8 + j];
		if (nv > (total - o - hsz) / 16)
			goto trunc;
		o += hsz + nv * 16;
		nvals += nv;
	}
	xgrow(&r->vals, &r->capvals, nvals + 1, sizeof(*r->vals));
	for (kk = 0, o = 8, vi = 0; kk < nk; kk++) {
		size_t hsz, vo;
		struct site *sites;

		kind = ld32(p + o, r->swap);
		ns = ld32(p + o + 4, r->swap);
		hsz = ((size_t)8 + ns + 7) & ~(size_t)7;
		xgrow(&r->vs[kind], &r->capvs[kind], ns, sizeof(struct site));
		sites = r->vs[kind];
		vo = o + hsz;
		for (j = 0; j < ns; j++) {
			uint32_t c = p[o + 8 + j], x;

			sites[j].n = sites[j].cap = c;
			sites[j].v = r->vals + vi;
			for (x = 0; x < c; x++, vi++, vo += 16) {
				r->vals[vi].value = map_value(r, kind,
				    ld64(p + vo, r->swap));
				r->vals[vi].count = ld64(p + vo + 8, r->swap);
			}
		}
		rec->sites[kind] = sites;
		rec->nsites[kind] = ns;
		o = vo;
	}
	*vposp = vpos + total;
	return 0;
trunc:
	perr_set(e, vpos + o, 1, "value profile data of record %llu overruns "
	    "its total size %u", (unsigned long long)recno, total);
	return -1;
}

static uint64_t
bytes_hash(const uint8_t *p, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;

	for (; n >= 8; p += 8, n -= 8) {
		__builtin_memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	while (n-- > 0)
		h = (h ^ *p++) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
}

static struct symtab *
get_symtab(struct namecache *nc, const uint8_t *buf, size_t off, size_t size,
    struct perr *e)
{
	uint64_t kh = bytes_hash(buf + off, size);
	struct symtab *st;
	size_t i;

	for (i = nc->n; i-- > 0;) {
		st = nc->v[i];
		if (st->khash == kh && st->keylen == size &&
		    memcmp(st->key, buf + off, size) == 0)
			return st;
	}
	st = xcalloc(1, sizeof(*st));
	if (decode_names(st, buf, off, size, e) != 0) {
		symtab_free(st);
		return NULL;
	}
	st->khash = kh;
	st->keylen = size;
	st->key = xmalloc(size ? size : 1);
	memcpy(st->key, buf + off, size);
	if (nc->n == MAXCACHE) {
		symtab_free(nc->v[0]);
		memmove(nc->v, nc->v + 1, (nc->n - 1) * sizeof(*nc->v));
		nc->n--;
	}
	xgrow(&nc->v, &nc->cap, nc->n + 1, sizeof(*nc->v));
	nc->v[nc->n++] = st;
	return st;
}

static int
add_names(struct symtab *st, const char *s, size_t n, size_t at,
    struct perr *e)
{
	size_t i = 0, j;

	for (;;) {
		for (j = i; j < n && s[j] != '\x01'; j++)
			continue;
		if (j == i) {
			perr_set(e, at, 1, "function name is empty");
			return -1;
		}
		if (j - i > UINT32_MAX || st->nstrs > UINT32_MAX - (j - i)) {
			perr_set(e, at, 1, "names are too long");
			return -1;
		}
		xgrow(&st->syms, &st->capsyms, st->nsyms + 1,
		    sizeof(*st->syms));
		xgrow(&st->strs, &st->capstrs, st->nstrs + (j - i) + 1, 1);
		memcpy(st->strs + st->nstrs, s + i, j - i);
		st->syms[st->nsyms].md5 = md5_low64(s + i, j - i);
		st->syms[st->nsyms].off = (uint32_t)st->nstrs;
		st->syms[st->nsyms].len = (uint32_t)(j - i);
		st->nsyms++;
		st->nstrs += j - i;
		if (j == n)
			return 0;
		i = j + 1;
	}
}

/*
 * Chunks of "ULEB128 length, ULEB128 compressed length (0: stored),
 * bytes", names joined by \x01, zero padding between chunks.
 */
static int
decode_names(struct symtab *st, const uint8_t *buf, size_t off, size_t size,
    struct perr *e)
{
	const uint8_t *p = buf + off, *end = p + size;
	size_t i, k;

	while (p < end) {
		uint64_t ulen, clen;
		size_t n, at = (size_t)(p - buf);

		if ((n = uleb128_decode(p, end, &ulen)) == 0)
			goto bad;
		p += n;
		if ((n = uleb128_decode(p, end, &clen)) == 0)
			goto bad;
		p += n;
		if (clen == 0) {
			if (ulen > (uint64_t)(end - p))
				goto bad;
			if (add_names(st, (const char *)p, (size_t)ulen, at,
			    e) != 0)
				return -1;
			p += ulen;
		} else {
			uLongf dl;
			uint8_t *ub;
			int zr;

			if (clen > (uint64_t)(end - p))
				goto bad;
			/* zlib cannot expand more than about 1032:1 */
			if (ulen == 0 || ulen > MAXNAMES || ulen / 1032 > clen) {
				perr_set(e, at, 1, "compressed names claim %llu "
				    "bytes from %llu", (unsigned long long)ulen,
				    (unsigned long long)clen);
				return -1;
			}
			ub = xmalloc((size_t)ulen);
			dl = (uLongf)ulen;
			zr = uncompress(ub, &dl, p, (uLong)clen);
			if (zr != Z_OK || dl != ulen) {
				free(ub);
				perr_set(e, at, 1, "names do not inflate to the "
				    "%llu bytes claimed", (unsigned long long)ulen);
				return -1;
			}
			zr = add_names(st, (const char *)ub, (size_t)ulen, at, e);
			free(ub);
			if (zr != 0)
				return -1;
			p += clen;
		}
		while (p < end && *p == 0)
			p++;
	}
	for (st->tabcap = 16; st->tabcap < st->nsyms * 2; st->tabcap *= 2)
		continue;
	st->tab = xcalloc(st->tabcap, sizeof(*st->tab));
	for (i = 0; i < st->nsyms; i++) {
		uint64_t m = st->syms[i].md5;

		for (k = (size_t)(m ^ (m >> 32)) & (st->tabcap - 1);
		    st->tab[k] != 0; k = (k + 1) & (st->tabcap - 1))
			if (st->syms[st->tab[k] - 1].md5 == m)
				break;
		if (st->tab[k] == 0)
			st->tab[k] = (uint32_t)(i + 1);
	}
	return 0;
bad:
	perr_set(e, (size_t)(p - buf), 1, "names section is truncated or "
	    "malformed");
	return -1;
}
