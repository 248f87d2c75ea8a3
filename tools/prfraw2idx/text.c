/* See COPYING file for copyright and license details. */
/*
 * text.c: the two text forms.  Ours (profpipe-prof(5)) has one line
 * per record and keeps raw MD5s for value targets, so raw -> text ->
 * indexed gives the same bytes as raw -> indexed.  llvm-profdata's own
 * text form is read and written as llvm-profdata 19 does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "md5.h"
#include "prfraw2idx.h"

#define MAXLINECOUNT	(1U << 24)	/* counters, bytes, sites per record */
#define EXTERNAL	"** External Symbol **"

static const char *kindnames[NKINDS] = {
	"IPVK_IndirectCallTarget", "IPVK_MemOPSize", "IPVK_VTableTarget"
};

static const struct {
	const char	*name;
	uint64_t	 bit;
} variants[] = {
	{ "ir", VAR_IR }, { "csir", VAR_CSIR }, { "fe", VAR_FE },
	{ "entry_first", VAR_ENTRY_FIRST },
	{ "single_byte_coverage", VAR_BYTE_COVERAGE },
	{ "function_entry_only", VAR_ENTRY_ONLY },
	{ "temporal", VAR_TEMPORAL },
	{ "loop_entries", VAR_LOOP_ENTRIES },
};

#define MAXLINE		(1U << 30)

/* scratch record being built */
struct scratch {
	struct rec	 r;
	size_t		 capc, capb, caps[NKINDS];
	struct vpair	*vals;
	size_t		 nvals, capv;
	size_t		*voff[NKINDS];	/* site i's first value in vals */
	size_t		 capo[NKINDS];
};

static int	 llvm_traces(struct lineio *, struct trace **, size_t *,
		    size_t *, uint64_t *, struct perr *);
static int	 llvm_read(struct store *, struct lineio *, uint64_t,
		    struct perr *);
static int	 ours_read(struct store *, struct lineio *, uint64_t,
		    struct perr *);

static int
lerr(struct perr *e, const struct lineio *ls, const char *what)
{
	perr_set(e, ls->lineno, 2, "%s", what);
	return -1;
}

/* an unsigned number in base 10 or 16, the whole of [s, s+n) */
static int
num(const char *s, size_t n, int base, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n == 0)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned d;
		char c = s[i];

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -1;
		if (v > (UINT64_MAX - d) / (uint64_t)base)
			return -1;
		v = v * (uint64_t)base + d;
	}
	*out = v;
	return 0;
}

/* StringRef::getAsInteger(0): 0x hex, 0b binary, 0o or leading 0 octal */
static int
num_radix0(const char *s, size_t n, uint64_t *out)
{
	int base = 10;
	uint64_t v = 0;
	size_t i;

	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		n -= 2;
	} else if (n >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
		base = 2;
		s += 2;
		n -= 2;
	} else if (n >= 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) {
		base = 8;
		s += 2;
		n -= 2;
	} else if (n >= 2 && s[0] == '0') {
		base = 8;
		s++;
		n--;
	}
	if (n == 0)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned d;
		char c = s[i];

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -1;
		if (d >= (unsigned)base)
			return -1;
		if (v > (UINT64_MAX - d) / (uint64_t)base)
			return -1;
		v = v * (uint64_t)base + d;
	}
	*out = v;
	return 0;
}

int
text_is_ours(const uint8_t *p, size_t n)
{
	return n >= 15 && memcmp(p, "# profpipe-prof", 15) == 0;
}

static void
scratch_reset(struct scratch *sc)
{
	int k;

	sc->r.ncounts = sc->r.nbitmap = 0;
	sc->nvals = 0;
	for (k = 0; k < NKINDS; k++)
		sc->r.nsites[k] = 0;
}

static void
scratch_free(struct scratch *sc)
{
	int k;

	free(sc->r.counts);
	free(sc->r.bitmap);
	free(sc->vals);
	for (k = 0; k < NKINDS; k++) {
		free(sc->r.sites[k]);
		free(sc->voff[k]);
	}
}

static void
scratch_site(struct scratch *sc, int k)
{
	uint32_t i = sc->r.nsites[k];

	xgrow(&sc->r.sites[k], &sc->caps[k], i + 1, sizeof(struct site));
	xgrow(&sc->voff[k], &sc->capo[k], i + 1, sizeof(size_t));
	sc->voff[k][i] = sc->nvals;
	sc->r.sites[k][i].n = 0;
	sc->r.nsites[k] = i + 1;
}

static void
scratch_value(struct scratch *sc, int k, uint64_t v, uint64_t c)
{
	xgrow(&sc->vals, &sc->capv, sc->nvals + 1, sizeof(*sc->vals));
	sc->vals[sc->nvals].value = v;
	sc->vals[sc->nvals].count = c;
	sc->nvals++;
	sc->r.sites[k][sc->r.nsites[k] - 1].n++;
}

/* point the sites at the (now final) value array, then store */
static void
scratch_commit(struct store *s, struct scratch *sc, const char *name,
    size_t nlen, uint64_t weight)
{
	struct fentry *fe;
	uint32_t i;
	int k;

	for (k = 0; k < NKINDS; k++)
		for (i = 0; i < sc->r.nsites[k]; i++) {
			/* no values at all: vals is NULL, and NULL + 0 is
			 * undefined */
			sc->r.sites[k][i].v = sc->vals != NULL ?
			    sc->vals + sc->voff[k][i] : NULL;
			sc->r.sites[k][i].cap = sc->r.sites[k][i].n;
		}
	fe = store_entry(s, name, nlen, md5_low64(name, nlen));
	store_add(s, fe, &sc->r, weight);
}

static int
text_run(struct store *s, struct lineio *ls, uint64_t weight, struct perr *e)
{
	int rc, ours;

	const char *p;
	size_t n;

	/* the first line decides the form */
	p = lr_peek(ls, 15, &n);
	ours = text_is_ours((const uint8_t *)p, n);
	rc = ours ? ours_read(s, ls, weight, e) : llvm_read(s, ls, weight, e);
	if (ls->err) {
		perr_set(e, ls->lineno, 2, "%s", strerror(ls->err));
		rc = -1;
	}
	lr_close(ls);
	return rc;
}

int
text_read(struct store *s, const uint8_t *buf, size_t len, uint64_t weight,
    struct perr *e)
{
	struct lineio ls;

	lr_open_mem(&ls, buf, len, MAXLINE);
	return text_run(s, &ls, weight, e);
}

int
text_read_fd(struct store *s, int fd, const uint8_t *pre, size_t plen,
    uint64_t weight, struct perr *e)
{
	struct lineio ls;

	lr_open_fd(&ls, fd, pre, plen, MAXLINE);
	return text_run(s, &ls, weight, e);
}

static void
traces_free(struct trace *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(t[i].refs);
	free(t);
}

/* "W:ref,ref,..." of a # trace= line */
static int
parse_trace(const char *p, const char *end, struct trace **tv,
    size_t *nt, size_t *cap)
{
	const char *f;
	struct trace t;
	size_t tc = 0;
	uint64_t v;

	for (f = p; f < end && *f != ':'; f++)
		continue;
	if (f == end || num(p, (size_t)(f - p), 10, &t.weight) != 0)
		return -1;
	t.refs = NULL;
	t.n = 0;
	for (p = f + 1; p < end; p = f + 1) {
		for (f = p; f < end && *f != ','; f++)
			continue;
		if (num(p, (size_t)(f - p), 16, &v) != 0 || t.n >= MAXLINECOUNT) {
			free(t.refs);
			return -1;
		}
		xgrow(&t.refs, &tc, t.n + 1, sizeof(*t.refs));
		t.refs[t.n++] = v;
		if (f == end)
			break;
	}
	xgrow(tv, cap, *nt + 1, sizeof(**tv));
	(*tv)[(*nt)++] = t;
	return 0;
}

/* the header state of a profpipe-prof text being read */
struct ours {
	uint64_t	 kind, stream;
	int		 seenrec;
	struct trace	*tv;
	size_t		 nt, capt;
};

/* a '#' line of p[0..end): a variant, binary id, temporal stream size
 * or trace; other comments are skipped.  NULL, or what is wrong */
static const char *
ours_comment(struct store *s, struct ours *o, const char *p, const char *end)
{
	size_t len = (size_t)(end - p);
	const char *f;
	uint64_t v;

	if (len > 10 && memcmp(p, "# variant=", 10) == 0) {
		if (o->seenrec)
			return "variant line after records";
		p += 10;
		while (p < end) {
			size_t i, n;

			for (f = p; f < end && *f != ','; f++)
				continue;
			n = (size_t)(f - p);
			for (i = 0; i < NELEM(variants); i++)
				if (strlen(variants[i].name) == n &&
				    memcmp(variants[i].name, p, n) == 0)
					break;
			if (i == NELEM(variants))
				return "unknown variant";
			o->kind |= variants[i].bit;
			p = f < end ? f + 1 : f;
		}
	} else if (len > 12 && memcmp(p, "# binary-id=", 12) == 0) {
		uint8_t id[64];
		size_t n = 0;

		for (p += 12; p + 1 < end && n < sizeof(id); p += 2) {
			if (num(p, 2, 16, &v) != 0)
				break;
			id[n++] = (uint8_t)v;
		}
		if (p != end || n == 0)
			return "bad binary id";
		store_binid(s, id, n);
	} else if (len > 23 && memcmp(p, "# temporal-stream-size=", 23) == 0) {
		if (num(p + 23, len - 23, 10, &o->stream) != 0)
			return "bad temporal stream size";
	} else if (len > 8 && memcmp(p, "# trace=", 8) == 0) {
		if (parse_trace(p + 8, end, &o->tv, &o->nt, &o->capt) != 0)
			return "bad temporal trace";
	}
	return NULL;
}

/* a record's value profiles in p[0..ve), K=site/site;K=..., a site
 * v:c,v:c, into sc.  NULL, or what is wrong */
static const char *
ours_values(struct scratch *sc, const char *p, const char *ve)
{
	uint64_t v;
	int k;

	while (p < ve) {
		if (ve - p < 2 || *p < '0' || *p > '2' || p[1] != '=')
			return "bad value kind";
		k = *p - '0';
		if (sc->r.nsites[k] != 0)
			return "value kind repeated";
		p += 2;
		scratch_site(sc, k);
		for (;;) {
			const char *c;
			uint64_t cnt;

			if (p == ve || *p == ';')
				break;
			if (*p == '/') {
				if (sc->r.nsites[k] >= 65535)
					return "too many sites";
				scratch_site(sc, k);
				p++;
				continue;
			}
			if (*p == ',')
				p++;
			for (c = p; c < ve && *c != ':'; c++)
				continue;
			if (c == ve || num(p, (size_t)(c - p), 16, &v) != 0)
				return "bad value";
			for (p = ++c; p < ve && *p != ',' && *p != '/' &&
			    *p != ';'; p++)
				continue;
			if (num(c, (size_t)(p - c), 10, &cnt) != 0 ||
			    sc->r.sites[k][sc->r.nsites[k] - 1].n >= MAXVALS)
				return "bad value count";
			scratch_value(sc, k, v, cnt);
		}
		if (p < ve)
			p++;
	}
	return NULL;
}

/* the fields of a record line p[0..end) after its 'f ': hash, counts,
 * bitmap and values into sc, *name where the name starts.  NULL, or
 * what is wrong */
static const char *
ours_record(struct scratch *sc, const char *p, const char *end,
    const char **name)
{
	const char *f, *msg;
	uint64_t v;

	/* hash */
	for (f = p; f < end && *f != ' '; f++)
		continue;
	if (num(p, (size_t)(f - p), 16, &sc->r.hash) != 0 || f == end)
		return "bad function hash";
	/* counts */
	for (p = f + 1; ; p++) {
		for (f = p; f < end && *f != ',' && *f != ' '; f++)
			continue;
		if (num(p, (size_t)(f - p), 10, &v) != 0 ||
		    sc->r.ncounts >= MAXLINECOUNT)
			return "bad counter value";
		xgrow(&sc->r.counts, &sc->capc, sc->r.ncounts + 1, 8);
		sc->r.counts[sc->r.ncounts++] = v;
		p = f;
		if (f == end || *f == ' ')
			break;
	}
	if (p == end)
		return "missing bitmap field";
	/* bitmap */
	p++;
	for (f = p; f < end && *f != ' '; f++)
		continue;
	if (!(f - p == 1 && *p == '-')) {
		if ((f - p) % 2 != 0)
			return "bad bitmap field";
		for (; p < f; p += 2) {
			if (num(p, 2, 16, &v) != 0)
				return "bad bitmap field";
			xgrow(&sc->r.bitmap, &sc->capb, sc->r.nbitmap + 1, 1);
			sc->r.bitmap[sc->r.nbitmap++] = (uint8_t)v;
		}
	}
	if (f == end)
		return "missing values field";
	/* values */
	p = f + 1;
	for (f = p; f < end && *f != ' '; f++)
		continue;
	if (f == end)
		return "missing name";
	if (!(f - p == 1 && *p == '-') && (msg = ours_values(sc, p, f)) != NULL)
		return msg;
	p = f + 1;
	if (p == end)
		return "empty function name";
	*name = p;
	return NULL;
}

static int
ours_read(struct store *s, struct lineio *ls, uint64_t weight, struct perr *e)
{
	struct scratch sc;
	struct ours o;
	int rc = -1;

	memset(&sc, 0, sizeof(sc));
	memset(&o, 0, sizeof(o));
	lr_next(ls);
	if (ls->len != 17 || memcmp(ls->buf, "# profpipe-prof 1", 17) != 0)
		return lerr(e, ls, "unsupported profpipe-prof version");
	while (lr_next(ls)) {
		const char *p = ls->buf, *end = ls->buf + ls->len, *name, *msg;

		if (ls->len == 0)
			continue;
		if (p[0] == '#') {
			if ((msg = ours_comment(s, &o, p, end)) != NULL) {
				lerr(e, ls, msg);
				goto out;
			}
			continue;
		}
		if (ls->len < 2 || p[0] != 'f' || p[1] != ' ') {
			lerr(e, ls, "expected a record line 'f hash counts "
			    "bitmap values name'");
			goto out;
		}
		if (!o.seenrec) {
			if (((o.kind & VAR_FE) != 0) == ((o.kind & VAR_IR) != 0)) {
				lerr(e, ls, "missing or bad '# variant=' line");
				goto out;
			}
			if (store_kind(s, o.kind, e) != 0) {
				e->has_off = 2;
				e->off = ls->lineno;
				goto out;
			}
			o.seenrec = 1;
		}
		scratch_reset(&sc);
		if ((msg = ours_record(&sc, p + 2, end, &name)) != NULL) {
			lerr(e, ls, msg);
			goto out;
		}
		scratch_commit(s, &sc, name, (size_t)(end - name), weight);
	}
	if (o.nt > 0) {
		if (!o.seenrec && store_kind(s, o.kind, e) != 0)
			goto out;
		store_traces(s, o.tv, o.nt, o.stream > o.nt ? o.stream : o.nt);
	}
	rc = 0;
out:
	traces_free(o.tv, o.nt);
	scratch_free(&sc);
	return rc;
}

/* the next line that is neither blank nor a # comment */
static int
next_data(struct lineio *ls)
{
	while (lr_next(ls))
		if (ls->len > 0 && ls->buf[0] != '#')
			return 1;
	return 0;
}

static int
data_num(struct lineio *ls, int radix0, uint64_t *v)
{
	if (!next_data(ls))
		return -1;
	return radix0 ? num_radix0(ls->buf, ls->len, v) :
	    num(ls->buf, ls->len, 10, v);
}

/* the traces after :temporal_prof_traces */
static int
llvm_traces(struct lineio *ls, struct trace **tv, size_t *nt,
    size_t *capt, uint64_t *stream, struct perr *e)
{
	uint64_t n, i, w;

	if (data_num(ls, 0, &n) != 0 || n > MAXLINECOUNT)
		return lerr(e, ls, "bad number of temporal traces");
	if (data_num(ls, 0, stream) != 0)
		return lerr(e, ls, "bad temporal trace stream size");
	for (i = 0; i < n; i++) {
		struct trace t;
		size_t tc = 0;
		const char *p, *end, *f;

		if (data_num(ls, 0, &w) != 0)
			return lerr(e, ls, "bad temporal trace weight");
		if (!next_data(ls))
			return lerr(e, ls, "missing temporal trace");
		t.weight = w;	/* llvm-profdata keeps it, whatever the input's */
		t.refs = NULL;
		t.n = 0;
		end = ls->buf + ls->len;
		for (p = ls->buf; p < end; p = f + 1) {
			const char *a, *z;

			for (f = p; f < end && *f != ','; f++)
				continue;
			for (a = p; a < f && (*a == ' ' || *a == '\t'); a++)
				continue;
			for (z = f; z > a && (z[-1] == ' ' || z[-1] == '\t');
			    z--)
				continue;
			if (z > a) {
				xgrow(&t.refs, &tc, t.n + 1, sizeof(*t.refs));
				t.refs[t.n++] = md5_low64(a, (size_t)(z - a));
			}
			if (f == end)
				break;
		}
		xgrow(tv, capt, *nt + 1, sizeof(**tv));
		(*tv)[(*nt)++] = t;
	}
	return 0;
}

/* the header lines (":ir", ":temporal_prof_traces" and its traces, ...)
 * into *kind and the traces; *have: whether a line follows them */
static int
llvm_header(struct lineio *ls, uint64_t *kind, int *have, struct trace **tv,
    size_t *nt, size_t *capt, uint64_t *stream, struct perr *e)
{
	static const struct {
		const char *s;
		uint64_t bit;
	} hdr[] = {
		{ "ir", VAR_IR }, { "fe", 0 },
		{ "csir", VAR_IR | VAR_CSIR },
		{ "entry_first", VAR_ENTRY_FIRST },
		{ "not_entry_first", 0 },
		{ "single_byte_coverage", VAR_BYTE_COVERAGE },
		{ "instrument_loop_entries", VAR_LOOP_ENTRIES },
	};
	size_t h;

	*have = next_data(ls);
	while (*have && ls->buf[0] == ':') {
		for (h = 0; h < NELEM(hdr); h++)
			if (strlen(hdr[h].s) == ls->len - 1 &&
			    strncasecmp(hdr[h].s, ls->buf + 1, ls->len - 1) == 0)
				break;
		if (h == NELEM(hdr) && ls->len == 21 &&
		    strncasecmp(ls->buf + 1, "temporal_prof_traces", 20) == 0) {
			if (llvm_traces(ls, tv, nt, capt, stream, e) != 0)
				return -1;
			*kind |= VAR_TEMPORAL;
		} else if (h == NELEM(hdr))
			return lerr(e, ls, "unknown header line");
		else
			*kind |= hdr[h].bit;
		*have = next_data(ls);
	}
	if (!(*kind & VAR_IR))
		*kind |= VAR_FE;
	return 0;
}

/* a function's hash, number of counters and counters */
static int
llvm_counters(struct lineio *ls, struct scratch *sc, struct perr *e)
{
	uint64_t n, i, v;

	if (data_num(ls, 1, &sc->r.hash) != 0)
		return lerr(e, ls, "function hash is not a valid integer");
	if (data_num(ls, 1, &n) != 0 || n == 0 || n > MAXLINECOUNT)
		return lerr(e, ls, "number of counters is not a valid "
		    "positive integer");
	for (i = 0; i < n; i++) {
		if (data_num(ls, 0, &v) != 0)
			return lerr(e, ls, "counter is not a valid integer");
		/* grown as lines come, never by the claimed count */
		xgrow(&sc->r.counts, &sc->capc, sc->r.ncounts + 1, 8);
		sc->r.counts[sc->r.ncounts++] = v;
	}
	return 0;
}

/* the line "$N" (in ls) and the N bitmap bytes after it */
static int
llvm_bitmap(struct lineio *ls, struct scratch *sc, struct perr *e)
{
	uint64_t n, i, v;

	if (num(ls->buf + 1, ls->len - 1, 10, &n) != 0 || n > MAXLINECOUNT)
		return lerr(e, ls, "number of bitmap bytes is not a valid "
		    "integer");
	for (i = 0; i < n; i++) {
		if (data_num(ls, 1, &v) != 0 || v > 255)
			return lerr(e, ls, "bitmap byte is not a valid integer");
		xgrow(&sc->r.bitmap, &sc->capb, sc->r.nbitmap + 1, 1);
		sc->r.bitmap[sc->r.nbitmap++] = (uint8_t)v;
	}
	return 0;
}

/* a value data line "VALUE:COUNT" of kind k: a number for kind 1 (memop
 * sizes), else a name, kept as its MD5 (** External Symbol ** as 0) */
static int
llvm_value_data(struct lineio *ls, struct scratch *sc, int k,
    struct perr *e)
{
	const char *c;
	uint64_t cnt, v;
	size_t nlen;

	if (!next_data(ls))
		return lerr(e, ls, "truncated value profile data");
	for (c = ls->buf + ls->len; c > ls->buf && c[-1] != ':'; c--)
		continue;
	if (c == ls->buf ||
	    num(c, (size_t)(ls->buf + ls->len - c), 10, &cnt) != 0)
		return lerr(e, ls, "bad value data line");
	nlen = (size_t)(c - 1 - ls->buf);
	if (k == 1) {
		if (num(ls->buf, nlen, 10, &v) != 0)
			return lerr(e, ls, "bad value");
	} else if (nlen == strlen(EXTERNAL) &&
	    memcmp(ls->buf, EXTERNAL, nlen) == 0)
		v = 0;
	else
		v = md5_low64(ls->buf, nlen);
	scratch_value(sc, k, v, cnt);
	return 0;
}

/* the value profile after the line of its nk kinds: each kind, its
 * sites, each site's data */
static int
llvm_values(struct lineio *ls, struct scratch *sc, uint64_t nk,
    struct perr *e)
{
	uint64_t kk, ns, si, nd, di, v;
	int k;

	if (nk == 0 || nk > NKINDS)
		return lerr(e, ls, "number of value kinds is invalid");
	for (kk = 0; kk < nk; kk++) {
		if (data_num(ls, 0, &v) != 0 || v >= NKINDS ||
		    sc->r.nsites[v] != 0)
			return lerr(e, ls, "value kind is invalid");
		k = (int)v;
		if (data_num(ls, 0, &ns) != 0 || ns > 65535)
			return lerr(e, ls, "number of value sites is invalid");
		for (si = 0; si < ns; si++) {
			scratch_site(sc, k);
			if (data_num(ls, 0, &nd) != 0 || nd > MAXLINECOUNT)
				return lerr(e, ls, "number of value data is "
				    "invalid");
			for (di = 0; di < nd; di++)
				if (llvm_value_data(ls, sc, k, e) != 0)
					return -1;
		}
	}
	return 0;
}

/* llvm-profdata's text form, as TextInstrProfReader reads it */
static int
llvm_read(struct store *s, struct lineio *ls, uint64_t weight, struct perr *e)
{
	struct scratch sc;
	uint64_t kind = 0, stream = 0, nk;
	int rc = -1, have;
	char *name = NULL;
	size_t namelen, capname = 0, nt = 0, capt = 0;
	struct trace *tv = NULL;

	memset(&sc, 0, sizeof(sc));
	if (llvm_header(ls, &kind, &have, &tv, &nt, &capt, &stream, e) != 0)
		goto out;
	if (!have) {
		perr_set(e, 0, 0, "unknown input format: not a raw profile or "
		    "a text profile");
		goto out;
	}
	if (store_kind(s, kind, e) != 0)
		goto out;
	if (nt > 0)
		store_traces(s, tv, nt, stream);
	while (have) {
		scratch_reset(&sc);
		/* copied: the window may move under later lines */
		xgrow(&name, &capname, ls->len + 1, 1);
		memcpy(name, ls->buf, ls->len);
		namelen = ls->len;
		if (llvm_counters(ls, &sc, e) != 0)
			goto out;
		have = next_data(ls);
		if (have && ls->buf[0] == '$') {
			if (llvm_bitmap(ls, &sc, e) != 0)
				goto out;
			have = next_data(ls);
		}
		if (have && num(ls->buf, ls->len, 10, &nk) == 0) {
			if (llvm_values(ls, &sc, nk, e) != 0)
				goto out;
			have = next_data(ls);
		}
		scratch_commit(s, &sc, name, namelen, weight);
	}
	rc = 0;
out:
	free(name);
	traces_free(tv, nt);
	scratch_free(&sc);
	return rc;
}

static void
put_rec_values(struct wbuf *w, const struct rec *r)
{
	int k, first = 1;
	uint32_t i, j;

	for (k = 0; k < NKINDS; k++) {
		if (r->nsites[k] == 0)
			continue;
		if (!first)
			wb_putc(w, ';');
		first = 0;
		wb_putc(w, (char)('0' + k));
		wb_putc(w, '=');
		for (i = 0; i < r->nsites[k]; i++) {
			if (i > 0)
				wb_putc(w, '/');
			for (j = 0; j < r->sites[k][i].n; j++) {
				if (j > 0)
					wb_putc(w, ',');
				wb_hex(w, r->sites[k][i].v[j].value);
				wb_putc(w, ':');
				wb_dec(w, r->sites[k][i].v[j].count);
			}
		}
	}
	if (first)
		wb_putc(w, '-');
}

void
text_write(struct wbuf *w, struct store *s, int sparse)
{
	struct fentry **fe;
	size_t n, i;
	uint32_t j, b;
	int first = 1;

	fe = store_sorted(s, sparse, &n);
	wb_puts(w, "# profpipe-prof 1\n# variant=");
	for (i = 0; i < NELEM(variants); i++)
		if (s->kind & variants[i].bit) {
			if (!first)
				wb_putc(w, ',');
			wb_puts(w, variants[i].name);
			first = 0;
		}
	if (first)
		wb_puts(w, (s->kind & VAR_IR) ? "ir" : "fe");
	wb_putc(w, '\n');
	store_sort_ids(s);
	for (i = 0; i < s->nids; i++) {
		size_t l = s->ids[i].len > 64 ? 64 : s->ids[i].len, b2;

		wb_puts(w, "# binary-id=");
		for (b2 = 0; b2 < l; b2++)
			wb_write(w, fmt_hex2 + 2 * s->ids[i].p[b2], 2);
		wb_putc(w, '\n');
	}
	if (s->kind & VAR_TEMPORAL) {
		wb_puts(w, "# temporal-stream-size=");
		wb_dec(w, s->streamsize);
		wb_putc(w, '\n');
		for (i = 0; i < s->ntraces; i++) {
			wb_puts(w, "# trace=");
			wb_dec(w, s->traces[i].weight);
			wb_putc(w, ':');
			for (b = 0; b < s->traces[i].n; b++) {
				if (b > 0)
					wb_putc(w, ',');
				wb_hex(w, s->traces[i].refs[b]);
			}
			wb_putc(w, '\n');
		}
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < fe[i]->nrecs; j++) {
			const struct rec *r = &fe[i]->recs[j];

			wb_puts(w, "f ");
			wb_hex(w, r->hash);
			wb_putc(w, ' ');
			for (b = 0; b < r->ncounts; b++) {
				if (b > 0)
					wb_putc(w, ',');
				wb_dec(w, r->counts[b]);
			}
			wb_putc(w, ' ');
			if (r->nbitmap == 0)
				wb_putc(w, '-');
			for (b = 0; b < r->nbitmap; b++)
				wb_write(w, fmt_hex2 + 2 * r->bitmap[b], 2);
			wb_putc(w, ' ');
			put_rec_values(w, r);
			wb_putc(w, ' ');
			wb_write(w, fe[i]->name, fe[i]->namelen);
			wb_putc(w, '\n');
		}
	free(fe);
}

struct lrec {
	const struct fentry	*fe;
	const struct rec	*r;
};

static int
lrec_cmp(const void *a, const void *b)
{
	const struct lrec *x = a, *y = b;
	size_t n = x->fe->namelen < y->fe->namelen ? x->fe->namelen :
	    y->fe->namelen;
	int c = memcmp(x->fe->name, y->fe->name, n);

	if (c != 0)
		return c;
	if (x->fe->namelen != y->fe->namelen)
		return x->fe->namelen < y->fe->namelen ? -1 : 1;
	return (x->r->hash > y->r->hash) - (x->r->hash < y->r->hash);
}

#define SORT_NAME	sort_lrecs
#define SORT_TYPE	struct lrec
#define SORT_LESS(a, b)	(lrec_cmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

static int
fe_keycmp(const void *a, const void *b)
{
	uint64_t x = (*(struct fentry *const *)a)->key;
	uint64_t y = (*(struct fentry *const *)b)->key;

	return (x > y) - (x < y);
}

typedef struct fentry *fentryp;
#define SORT_NAME	sort_bykey
#define SORT_TYPE	fentryp
#define SORT_LESS(a, b)	(fe_keycmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

static const struct fentry *
find_key(struct fentry **byk, size_t n, uint64_t key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (byk[mid]->key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && byk[lo]->key == key ? byk[lo] : NULL;
}

void
llvmtext_write(struct wbuf *w, struct store *s, int sparse)
{
	struct fentry **fe, **byk;
	struct lrec *v = NULL;
	size_t n, i, nv = 0, cap = 0;
	uint32_t j, b;
	int k;

	fe = store_sorted(s, sparse, &n);
	byk = xreallocarray(NULL, n + 1, sizeof(*byk));
	memcpy(byk, fe, n * sizeof(*byk));
	sort_bykey(byk, n);
	if (s->kind & VAR_CSIR)
		wb_puts(w, "# CSIR level Instrumentation Flag\n:csir\n");
	else if (s->kind & VAR_IR)
		wb_puts(w, "# IR level Instrumentation Flag\n:ir\n");
	if (s->kind & VAR_ENTRY_FIRST)
		wb_puts(w, "# Always instrument the function entry block\n"
		    ":entry_first\n");
	if (s->kind & VAR_BYTE_COVERAGE)
		wb_puts(w, "# Instrument block coverage\n"
		    ":single_byte_coverage\n");
	if (s->kind & VAR_TEMPORAL) {
		wb_puts(w, ":temporal_prof_traces\n# Num Temporal Profile "
		    "Traces:\n");
		wb_dec(w, s->ntraces);
		wb_puts(w, "\n# Temporal Profile Trace Stream Size:\n");
		wb_dec(w, s->streamsize);
		wb_putc(w, '\n');
		for (i = 0; i < s->ntraces; i++) {
			wb_puts(w, "# Weight:\n");
			wb_dec(w, s->traces[i].weight);
			wb_putc(w, '\n');
			for (j = 0; j < s->traces[i].n; j++) {
				const struct fentry *t = find_key(byk, n,
				    s->traces[i].refs[j]);

				if (t != NULL)
					wb_write(w, t->name, t->namelen);
				wb_putc(w, ',');
			}
			wb_putc(w, '\n');
		}
		wb_putc(w, '\n');
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < fe[i]->nrecs; j++) {
			xgrow(&v, &cap, nv + 1, sizeof(*v));
			v[nv].fe = fe[i];
			v[nv].r = &fe[i]->recs[j];
			nv++;
		}
	if (nv > 1)
		sort_lrecs(v, nv);
	for (i = 0; i < nv; i++) {
		const struct rec *r = v[i].r;
		int nk = 0;

		wb_write(w, v[i].fe->name, v[i].fe->namelen);
		wb_puts(w, "\n# Func Hash:\n");
		wb_dec(w, r->hash);
		wb_puts(w, "\n# Num Counters:\n");
		wb_dec(w, r->ncounts);
		wb_puts(w, "\n# Counter Values:\n");
		for (b = 0; b < r->ncounts; b++) {
			wb_dec(w, r->counts[b]);
			wb_putc(w, '\n');
		}
		if (r->nbitmap > 0) {
			wb_puts(w, "# Num Bitmap Bytes:\n$");
			wb_dec(w, r->nbitmap);
			wb_puts(w, "\n# Bitmap Byte Values:\n");
			for (b = 0; b < r->nbitmap; b++) {
				wb_puts(w, "0x");
				wb_hex(w, r->bitmap[b]);
				wb_putc(w, '\n');
			}
			wb_putc(w, '\n');
		}
		for (k = 0; k < NKINDS; k++)
			nk += r->nsites[k] > 0;
		if (nk == 0) {
			wb_putc(w, '\n');
			continue;
		}
		wb_puts(w, "# Num Value Kinds:\n");
		wb_dec(w, (uint64_t)nk);
		wb_putc(w, '\n');
		for (k = 0; k < NKINDS; k++) {
			if (r->nsites[k] == 0)
				continue;
			wb_puts(w, "# ValueKind = ");
			wb_puts(w, kindnames[k]);
			wb_puts(w, ":\n");
			wb_dec(w, (uint64_t)k);
			wb_puts(w, "\n# NumValueSites:\n");
			wb_dec(w, r->nsites[k]);
			wb_putc(w, '\n');
			for (j = 0; j < r->nsites[k]; j++) {
				const struct site *st = &r->sites[k][j];

				wb_dec(w, st->n);
				wb_putc(w, '\n');
				for (b = 0; b < st->n; b++) {
					if (k == 1)
						wb_dec(w, st->v[b].value);
					else {
						const struct fentry *t =
						    find_key(byk, n,
						    st->v[b].value);

						if (t != NULL)
							wb_write(w, t->name,
							    t->namelen);
						else
							wb_puts(w, EXTERNAL);
					}
					wb_putc(w, ':');
					wb_dec(w, st->v[b].count);
					wb_putc(w, '\n');
				}
			}
		}
		wb_putc(w, '\n');
	}
	free(v);
	free(byk);
	free(fe);
}
