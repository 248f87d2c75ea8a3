/* See COPYING file for copyright and license details. */
/*
 * records.c: the perf record stream.  Splits a byte stream into records
 * (carrying a record that straddles two reads or two compressed chunks),
 * decodes samples and side-band records with every length checked
 * against the record end, and writes profpipe-events(5) lines with
 * hand-made number formatting into the wbuf.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "util.h"
#include "perfdecode.h"
#include "pdint.h"
#include "perfabi.h"

#define ZOUT		(1u << 20)

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles"
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches"
};
/* "/TYPE" as written after the flag, and its length */
static const struct {
	char		s[12];
	unsigned char	n;
} br_types[16] = {
	{ "", 0 }, { "/COND", 5 }, { "/UNCOND", 7 }, { "/IND", 4 },
	{ "/CALL", 5 }, { "/IND_CALL", 9 }, { "/RET", 4 }, { "/SYSCALL", 8 },
	{ "/SYSRET", 7 }, { "/COND_CALL", 10 }, { "/COND_RET", 9 },
	{ "/ERET", 5 }, { "/IRQ", 4 }, { "/SERROR", 7 }, { "/NO_TX", 6 },
	{ "/EXTEND_ABI", 11 }
};

static int	 record(struct pd *, struct pd_rs *, const uint8_t *, size_t,
		    uint64_t);
static int	 record1(struct pd *, struct pd_rs *, const uint8_t *, size_t,
		    uint64_t);

/* where lines without a time go: straight out, also with --ordered */
static inline struct wbuf *
outw(struct pd *d)
{
	return d->ow != NULL ? d->ow : d->w;
}

static inline char *
put_sdec(char *dst, int32_t v)
{
	if (v < 0) {
		*dst++ = '-';
		return put_dec(dst, (uint64_t)-(int64_t)v);
	}
	return put_dec(dst, (uint64_t)v);
}

static inline char *
put_str(char *dst, const char *s)
{
	size_t n = strlen(s);

	memcpy(dst, s, n);
	return dst + n;
}

/* a free-text field: up to the NUL or n bytes, no newlines */
static void
wb_text(struct wbuf *w, const uint8_t *s, size_t n)
{
	size_t i;
	char *q;

	n = strnlen((const char *)s, n);
	wb_reserve(w, n);
	q = w->buf + w->len;
	for (i = 0; i < n; i++)
		q[i] = s[i] == '\n' || s[i] == '\r' ? '?' : (char)s[i];
	w->len += n;
}

void
pd_warn(struct pd *d, const char *fmt, ...)
{
	va_list ap;

	if (d->w != NULL && d->w->fp == stdout)
		fflush(stdout);
	fprintf(stderr, "%s: %s: ", progname, d->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* an error inside decompressed data names both offsets */
static int
rs_error(struct pd *d, struct pd_rs *s, uint64_t off, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s->inner)
		return pd_error(d, d->zoff, "compressed record, decompressed "
		    "offset 0x%llx: %s", (unsigned long long)off, msg);
	return pd_error(d, off, "%s", msg);
}

void
pd_header(struct pd *d)
{
	struct wbuf *w = outw(d);
	size_t i;

	wb_puts(w, "# profpipe-events 2\n# source=");
	wb_text(w, (const uint8_t *)d->name, strlen(d->name));
	wb_puts(w, d->swap ? "\n# byte-order=big\n" :
	    "\n# byte-order=little\n");
	for (i = 0; i < d->nattrs; i++) {
		wb_puts(w, "# event=");
		wb_puts(w, d->attrs[i].name);
		wb_putc(w, '\n');
	}
	d->hdr_done = 1;
}

/* perf's evsel__add_modifiers */
static void
add_modifiers(struct pd_attr *a, char *bf, size_t sz)
{
	size_t r = strlen(bf), colon = 0;
	int ex_guest_default = 0;
	unsigned precise = (unsigned)(a->flags >> 15) & 3;

#define FL(n)	((a->flags >> (n)) & 1)
#define MOD(ex, c) do {							\
	if (!(ex) && r + 2 < sz) {					\
		if (!colon)						\
			colon = ++r;					\
		bf[r++] = (c);						\
	}								\
} while (0)
	if (FL(4) || FL(5) || FL(6)) {
		MOD(FL(5), 'k');
		MOD(FL(4), 'u');
		MOD(FL(6), 'h');
		ex_guest_default = 1;
	}
	if (precise && r + 5 < sz) {
		if (!colon)
			colon = ++r;
		while (precise--)
			bf[r++] = 'p';
		ex_guest_default = 1;
	}
	if (FL(19) || (int)FL(20) == ex_guest_default) {
		MOD(FL(19), 'H');
		MOD(FL(20), 'G');
	}
#undef MOD
#undef FL
	bf[r] = '\0';
	if (colon)
		bf[colon - 1] = ':';
}

void
pd_default_name(struct pd_attr *a)
{
	if (a->type == 0 && a->config < NELEM(hw_names))
		snprintf(a->name, sizeof(a->name), "%s", hw_names[a->config]);
	else if (a->type == 1 && a->config < NELEM(sw_names))
		snprintf(a->name, sizeof(a->name), "%s", sw_names[a->config]);
	else
		snprintf(a->name, sizeof(a->name), "raw_0x%llx",
		    (unsigned long long)a->config);
	if (a->type <= 1)
		add_modifiers(a, a->name, sizeof(a->name));
	a->namelen = strlen(a->name);
}

static void
set_name(struct pd *d, struct pd_attr *a, const uint8_t *s, size_t n)
{
	size_t i;

	n = strnlen((const char *)s, n);
	if (n >= sizeof(a->name))
		n = sizeof(a->name) - 1;
	for (i = 0; i < n; i++)
		a->name[i] = s[i] <= ' ' || s[i] >= 0x7f ? '_' : (char)s[i];
	a->name[n] = '\0';
	a->namelen = n;
	a->named = 1;
	a->drop = d->event != NULL && strcmp(a->name, d->event) != 0;
}

static void
calc_pos(struct pd *d)
{
	uint64_t st = d->attrs[0].sample_type;

	/* perf's __evsel__calc_id_pos and __evsel__calc_is_pos */
	if (st & S_IDENTIFIER)
		d->id_pos = 0, d->is_pos = 1;
	else if (st & S_ID) {
		d->id_pos = !!(st & S_IP) + !!(st & S_TID) + !!(st & S_TIME) +
		    !!(st & S_ADDR);
		d->is_pos = 1 + !!(st & S_CPU) + !!(st & S_STREAM_ID);
	} else
		d->id_pos = d->is_pos = -1;
}

int
pd_add_attr(struct pd *d, const struct pd_attr *a, uint64_t off)
{
	struct pd_attr *na;

	if (d->nattrs >= PD_MAXATTR)
		return pd_error(d, off, "more than %u event attrs", PD_MAXATTR);
	d->attrs = xreallocarray(d->attrs, d->nattrs + 1, sizeof(*a));
	na = &d->attrs[d->nattrs++];
	*na = *a;
	na->drop = d->event != NULL && strcmp(na->name, d->event) != 0;
	calc_pos(d);
	if (d->hdr_done) {
		wb_puts(outw(d), "# event=");
		wb_puts(outw(d), na->name);
		wb_putc(outw(d), '\n');
	}
	return 0;
}

static inline size_t
idhash(uint64_t id)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return (size_t)id;
}

void
pd_map_id(struct pd *d, uint64_t id, size_t idx)
{
	struct pd_idmap *m = &d->idmap;
	size_t i, oc;
	uint64_t *oids;
	uint32_t *oidx;

	if (2 * (m->n + 1) > m->cap) {
		oids = m->ids;
		oidx = m->idx;
		oc = m->cap;
		m->cap = oc ? 2 * oc : 64;
		m->ids = xcalloc(m->cap, sizeof(*m->ids));
		m->idx = xcalloc(m->cap, sizeof(*m->idx));
		m->n = 0;
		for (i = 0; i < oc; i++)
			if (oidx[i])
				pd_map_id(d, oids[i], oidx[i] - 1);
		free(oids);
		free(oidx);
	}
	for (i = idhash(id) & (m->cap - 1); m->idx[i];
	    i = (i + 1) & (m->cap - 1))
		if (m->ids[i] == id) {
			m->idx[i] = (uint32_t)idx + 1;
			return;
		}
	m->ids[i] = id;
	m->idx[i] = (uint32_t)idx + 1;
	m->n++;
}

static struct pd_attr *
attr_by_id(struct pd *d, uint64_t id)
{
	struct pd_idmap *m = &d->idmap;
	size_t i;

	if (m->cap == 0)
		return NULL;
	for (i = idhash(id) & (m->cap - 1); m->idx[i];
	    i = (i + 1) & (m->cap - 1))
		if (m->ids[i] == id)
			return &d->attrs[m->idx[i] - 1];
	return NULL;
}

/* --comm: pid -> latest comm */
static struct pd_comm *
comm_slot(struct pd *d, int32_t pid, int create)
{
	struct pd_comm *old;
	size_t i, oc;

	if (create && 2 * (d->ncomm + 1) > d->capcomm) {
		old = d->comms;
		oc = d->capcomm;
		d->capcomm = oc ? 2 * oc : 256;
		d->comms = xcalloc(d->capcomm, sizeof(*d->comms));
		d->ncomm = 0;
		for (i = 0; i < oc; i++)
			if (old[i].used)
				*comm_slot(d, old[i].pid, 1) = old[i];
		free(old);
	}
	if (d->capcomm == 0)
		return NULL;
	for (i = idhash((uint64_t)(uint32_t)pid) & (d->capcomm - 1);
	    d->comms[i].used; i = (i + 1) & (d->capcomm - 1))
		if (d->comms[i].pid == pid)
			return &d->comms[i];
	if (!create)
		return NULL;
	d->comms[i].used = 1;
	d->comms[i].pid = pid;
	d->comms[i].comm[0] = '\0';
	d->ncomm++;
	return &d->comms[i];
}

/* does a record of this pid pass --pid and --comm? */
static int
want_pid(struct pd *d, int havepid, int32_t pid)
{
	struct pd_comm *c;
	size_t i;

	if (d->npids) {
		if (!havepid)
			return 0;
		for (i = 0; i < d->npids; i++)
			if (d->pids[i] == pid)
				break;
		if (i == d->npids)
			return 0;
	}
	if (d->comm) {
		if (!havepid || (c = comm_slot(d, pid, 0)) == NULL)
			return 0;
		return strcmp(c->comm, d->comm) == 0;
	}
	return 1;
}

void
pd_stream_reset(struct pd *d)
{
	d->outer.clen = d->in.clen = 0;
	d->outer.skip = d->in.skip = 0;
	d->outer.off = d->in.off = 0;
	if (d->zds != NULL)
		ZSTD_initDStream(d->zds);
}

int
pd_push(struct pd *d, struct pd_rs *s, const uint8_t *p, size_t n)
{
	size_t size, k;

	while (n > 0) {
		if (s->skip) {
			k = s->skip < n ? (size_t)s->skip : n;
			s->skip -= k;
			p += k;
			n -= k;
			s->off += k;
			continue;
		}
		if (s->clen) {
			if (s->clen < 8) {
				k = 8 - s->clen < n ? 8 - s->clen : n;
				memcpy(s->carry + s->clen, p, k);
				s->clen += k;
				p += k;
				n -= k;
				continue;
			}
			size = ld16(s->carry + 6, d->swap);
			if (size < 8)
				return rs_error(d, s, s->off, "record size %zu "
				    "< 8", size);
			k = size - s->clen < n ? size - s->clen : n;
			memcpy(s->carry + s->clen, p, k);
			s->clen += k;
			p += k;
			n -= k;
			if (s->clen < size)
				continue;
			s->clen = 0;
			if (record(d, s, s->carry, size, s->off) != 0)
				return -1;
			s->off += size;
			continue;
		}
		while (n >= 8) {
			size = ld16(p + 6, d->swap);
			if (UNLIKELY(size < 8))
				return rs_error(d, s, s->off, "record size %zu "
				    "< 8", size);
			if (size > n)
				break;
			if (record(d, s, p, size, s->off) != 0)
				return -1;
			p += size;
			n -= size;
			s->off += size;
			if (s->skip)
				break;
		}
		if (s->skip)
			continue;
		if (n > 0) {
			memcpy(s->carry, p, n);
			s->clen = n;
			n = 0;
		}
	}
	return 0;
}

int
pd_stream_end(struct pd *d, struct pd_rs *s)
{
	if (!s->inner && (d->in.clen || d->in.skip)) {
		d->truncated = 1;
		return pd_error(d, d->zoff, "compressed data ends inside a "
		    "record (decompressed offset 0x%llx, %zu bytes of it "
		    "present)", (unsigned long long)d->in.off, d->in.clen);
	}
	if (s->skip) {
		d->truncated = 1;
		return rs_error(d, s, s->off, "input ends inside an AUXTRACE "
		    "payload, %llu bytes missing",
		    (unsigned long long)s->skip);
	}
	if (s->clen >= 8) {
		d->truncated = 1;
		return rs_error(d, s, s->off, "input ends inside a record of "
		    "type %u: %u bytes, only %zu present",
		    ld32(s->carry, d->swap), ld16(s->carry + 6, d->swap),
		    s->clen);
	}
	if (s->clen) {
		d->truncated = 1;
		return rs_error(d, s, s->off, "input ends inside a record "
		    "header (%zu of 8 bytes)", s->clen);
	}
	return 0;
}

/* the attr a non-sample record belongs to */
static struct pd_attr *
attr_of_record(struct pd *d, const uint8_t *r, size_t size)
{
	struct pd_attr *a;

	if (d->nattrs <= 1 || d->is_pos < 0)
		return d->nattrs ? &d->attrs[0] : NULL;
	if ((size_t)d->is_pos * 8 > size - 8)
		return &d->attrs[0];
	a = attr_by_id(d, ld64(r + size - 8 * (size_t)d->is_pos, d->swap));
	return a ? a : &d->attrs[0];
}

struct trailer {
	int		 has_tid, has_time;
	int32_t		 pid, tid;
	uint64_t	 time;
};

/* parse the sample_id_all trailer backwards; *end moves before it */
static int
trailer(struct pd *d, struct pd_rs *s, const uint8_t *r, size_t size,
    size_t body, size_t *end, struct trailer *t, uint64_t off)
{
	struct pd_attr *a;
	uint64_t st;
	size_t n, e = size;

	memset(t, 0, sizeof(*t));
	*end = size;
	a = attr_of_record(d, r, size);
	if (a == NULL || !((a->flags >> F_SAMPLE_ID_ALL) & 1))
		return 0;
	st = a->sample_type;
	n = 8 * (size_t)(!!(st & S_TID) + !!(st & S_TIME) + !!(st & S_ID) +
	    !!(st & S_STREAM_ID) + !!(st & S_CPU) + !!(st & S_IDENTIFIER));
	if (n > size - body)
		return rs_error(d, s, off, "record of type %u and %zu bytes "
		    "too short for its body and sample_id trailer",
		    ld32(r, d->swap), size);
	if (st & S_IDENTIFIER)
		e -= 8;
	if (st & S_CPU)
		e -= 8;
	if (st & S_STREAM_ID)
		e -= 8;
	if (st & S_ID)
		e -= 8;
	if (st & S_TIME) {
		e -= 8;
		t->time = ld64(r + e, d->swap);
		t->has_time = 1;
		d->cur_time = t->time;
	}
	if (st & S_TID) {
		e -= 8;
		t->pid = (int32_t)ld32(r + e, d->swap);
		t->tid = (int32_t)ld32(r + e + 4, d->swap);
		t->has_tid = 1;
	}
	*end = size - n;
	return 0;
}

static char *
put_time(char *q, const struct trailer *t)
{
	if (t->has_time)
		return put_dec(q, t->time);
	*q++ = '-';
	return q;
}

/*
 * A sample is decoded in the order of perf_event.h's fields: the fixed
 * ones, READ, CALLCHAIN and RAW, the branch stack, and the fields after
 * it.  Only the fixed fields and the branch stack are written; every
 * other field is checked against the record's end and skipped.  The
 * pieces are static and called once, so the compiler puts them back
 * into sample(): the hot loop pays nothing for them.
 */

/* what sample() writes of a sample */
struct sfields {
	uint64_t	 ip, time, addr, nr;
	int32_t		 pid, tid;
	const uint8_t	*br;		/* nr entries of 24 bytes */
};

/* a sample being decoded: its bytes from p to end, for NEED */
struct scur {
	const uint8_t	*p, *end;
	size_t		 size;
	uint64_t	 off;
};

#define NEED(n, what) do {						\
	if ((size_t)(c->end - c->p) < (size_t)(n))			\
		return rs_error(d, s, c->off, "sample of %zu bytes too "\
		    "short for its %s field", c->size, what);		\
} while (0)

/* the attr of a sample, by its id when there are several; NULL for one
 * no attr announced (counted, not an error) */
static int
sample_attr(struct pd *d, struct pd_rs *s, const struct scur *c,
    struct pd_attr **ap)
{
	if (LIKELY(d->nattrs == 1))
		*ap = &d->attrs[0];
	else if (d->nattrs == 0 || d->id_pos < 0)
		*ap = d->nattrs ? &d->attrs[0] : NULL;
	else if ((size_t)d->id_pos * 8 + 8 > c->size - 8)
		return rs_error(d, s, c->off, "sample of %zu bytes too short "
		    "for its id", c->size);
	else
		*ap = attr_by_id(d, ld64(c->p + 8 * d->id_pos, d->swap));
	return 0;
}

/* IDENTIFIER IP TID TIME ADDR ID STREAM_ID CPU PERIOD */
static int
sample_fixed(struct pd *d, struct pd_rs *s, uint64_t st, struct scur *c,
    struct sfields *f)
{
	const uint8_t *p = c->p;
	int swap = d->swap;

	NEED(8 * (!!(st & S_IDENTIFIER) + !!(st & S_IP) + !!(st & S_TID) +
	    !!(st & S_TIME) + !!(st & S_ADDR) + !!(st & S_ID) +
	    !!(st & S_STREAM_ID) + !!(st & S_CPU) + !!(st & S_PERIOD)),
	    "fixed");
	if (st & S_IDENTIFIER)
		p += 8;
	if (st & S_IP) {
		f->ip = ld64(p, swap);
		p += 8;
	}
	if (st & S_TID) {
		f->pid = (int32_t)ld32(p, swap);
		f->tid = (int32_t)ld32(p + 4, swap);
		p += 8;
	}
	if (st & S_TIME) {
		f->time = ld64(p, swap);
		d->cur_time = f->time;
		p += 8;
	}
	if (st & S_ADDR) {
		f->addr = ld64(p, swap);
		p += 8;
	}
	c->p = p + 8 * (!!(st & S_ID) + !!(st & S_STREAM_ID) +
	    !!(st & S_CPU) + !!(st & S_PERIOD));
	return 0;
}

/* READ (one value or a group, as read_format says) */
static int
skip_read(struct pd *d, struct pd_rs *s, uint64_t rf, struct scur *c)
{
	uint64_t v, per;

	if (!(rf & RF_GROUP)) {
		per = 8 * (1u + !!(rf & RF_ENABLED) + !!(rf & RF_RUNNING) +
		    !!(rf & RF_ID) + !!(rf & RF_LOST));
		NEED(per, "read");
		c->p += per;
		return 0;
	}
	NEED(8, "read");
	v = ld64(c->p, d->swap);
	c->p += 8;
	per = 8 + (rf & RF_ID ? 8 : 0) + (rf & RF_LOST ? 8 : 0);
	NEED(8 * (!!(rf & RF_ENABLED) + !!(rf & RF_RUNNING)), "read");
	c->p += 8 * (!!(rf & RF_ENABLED) + !!(rf & RF_RUNNING));
	if (v > (uint64_t)(c->end - c->p) / per)
		return rs_error(d, s, c->off, "read group of %llu values "
		    "does not fit the sample", (unsigned long long)v);
	c->p += v * per;
	return 0;
}

/* CALLCHAIN and RAW */
static int
skip_callchain_raw(struct pd *d, struct pd_rs *s, uint64_t st,
    struct scur *c)
{
	uint64_t v;

	if (st & S_CALLCHAIN) {
		NEED(8, "callchain");
		v = ld64(c->p, d->swap);
		c->p += 8;
		if (v > (uint64_t)(c->end - c->p) / 8)
			return rs_error(d, s, c->off, "callchain of %llu "
			    "entries does not fit the sample",
			    (unsigned long long)v);
		c->p += 8 * v;
	}
	if (st & S_RAW) {
		NEED(4, "raw");
		v = ld32(c->p, d->swap);
		c->p += 4;
		NEED(v, "raw");
		c->p += v;
	}
	return 0;
}

/* BRANCH_STACK: nr, hw_idx if recorded, the entries, their counters */
static int
branch_stack(struct pd *d, struct pd_rs *s, uint64_t bst, struct scur *c,
    struct sfields *f)
{
	NEED(8, "branch stack");
	f->nr = ld64(c->p, d->swap);
	c->p += 8;
	if (bst & BR_HW_INDEX) {
		NEED(8, "branch hw_idx");
		c->p += 8;
	}
	if (f->nr > (uint64_t)(c->end - c->p) / 24)
		return rs_error(d, s, c->off, "branch stack of %llu entries "
		    "does not fit the sample", (unsigned long long)f->nr);
	f->br = c->p;
	c->p += 24 * f->nr;
	if (bst & BR_COUNTERS) {
		NEED(8 * f->nr, "branch counters");
		c->p += 8 * f->nr;
	}
	return 0;
}

/* REGS_USER or REGS_INTR: the ABI word, the registers unless it is 0 */
static int
skip_regs(struct pd *d, struct pd_rs *s, unsigned nregs, const char *what,
    struct scur *c)
{
	NEED(8, what);
	if (ld64(c->p, d->swap) != 0) {
		c->p += 8;
		NEED(8 * (size_t)nregs, what);
		c->p += 8 * (size_t)nregs;
	} else
		c->p += 8;
	return 0;
}

/* REGS_USER to AUX, after the branch stack */
static int
skip_after_branches(struct pd *d, struct pd_rs *s, const struct pd_attr *a,
    struct scur *c)
{
	uint64_t st = a->sample_type, v;
	size_t n;

	if ((st & S_REGS_USER) &&
	    skip_regs(d, s, a->nregs_user, "user regs", c) == -1)
		return -1;
	if (st & S_STACK_USER) {
		NEED(8, "user stack");
		v = ld64(c->p, d->swap);
		c->p += 8;
		if (v) {
			if (v > (uint64_t)(c->end - c->p))
				return rs_error(d, s, c->off, "user stack of "
				    "%llu bytes does not fit the sample",
				    (unsigned long long)v);
			c->p += v;
			NEED(8, "user stack dyn_size");
			c->p += 8;
		}
	}
	n = 8 * (size_t)(!!(st & (S_WEIGHT | S_WEIGHT_STRUCT)) +
	    !!(st & S_DATA_SRC) + !!(st & S_TRANSACTION));
	NEED(n, "weight");
	c->p += n;
	if ((st & S_REGS_INTR) &&
	    skip_regs(d, s, a->nregs_intr, "intr regs", c) == -1)
		return -1;
	n = 8 * (size_t)(!!(st & S_PHYS_ADDR) + !!(st & S_CGROUP) +
	    !!(st & S_DATA_PAGE) + !!(st & S_CODE_PAGE));
	NEED(n, "address");
	c->p += n;
	if (st & S_AUX) {
		NEED(8, "aux");
		v = ld64(c->p, d->swap);
		c->p += 8;
		if (v > (uint64_t)(c->end - c->p))
			return rs_error(d, s, c->off, "aux data of %llu bytes "
			    "does not fit the sample", (unsigned long long)v);
	}
	return 0;
}

/* "sample PID TID TIME EVENT IP ADDR" */
static void
write_sample_head(struct wbuf *w, const struct pd_attr *a, uint64_t st,
    const struct sfields *f)
{
	char *q;

	wb_reserve(w, 116 + PD_NAMELEN);
	q = w->buf + w->len;
	memcpy(q, "sample ", 7);
	q += 7;
	if (st & S_TID) {
		q = put_sdec(q, f->pid);
		*q++ = ' ';
		q = put_sdec(q, f->tid);
	} else {
		memcpy(q, "- -", 3);
		q += 3;
	}
	*q++ = ' ';
	if (st & S_TIME)
		q = put_dec(q, f->time);
	else
		*q++ = '-';
	*q++ = ' ';
	memcpy(q, a->name, PD_NAMELEN);
	q += a->namelen;
	*q++ = ' ';
	if (st & S_IP)
		q = put_hex(q, f->ip);
	else
		*q++ = '-';
	/* the data address (version 2): only an event that samples it
	 * has one, 0 included (perf script -F addr prints it so) */
	*q++ = ' ';
	if (st & S_ADDR)
		q = put_hex(q, f->addr);
	else
		*q++ = '-';
	w->len = (size_t)(q - w->buf);
}

/* " FROM/TO/F[/TYPE]" for each entry */
static void
write_branches(struct wbuf *w, const uint8_t *br, uint64_t nr, int swap)
{
	const uint8_t *e;
	uint64_t f;
	unsigned type;
	char *q, fl;

	if (nr == 0)
		return;		/* br is NULL without a branch stack */
	for (e = br + 24 * nr; br < e; br += 24) {
		wb_reserve(w, 48);
		q = w->buf + w->len;
		*q++ = ' ';
		q = put_hex(q, ld64(br, swap));
		*q++ = '/';
		q = put_hex(q, ld64(br + 8, swap));
		*q++ = '/';
		f = ld64(br + 16, swap);
		if (!swap) {
			fl = f & 1 ? 'M' : f & 2 ? 'P' : '-';
			type = (unsigned)(f >> 20) & 15;
		} else {
			/* a big-endian bitfield, from the top bit down */
			fl = f >> 63 ? 'M' : (f >> 62) & 1 ? 'P' : '-';
			type = (unsigned)(f >> 40) & 15;
		}
		*q++ = fl;
		/* a fixed 12-byte copy, then keep only the name's length */
		memcpy(q, br_types[type].s, sizeof(br_types[type].s));
		q += br_types[type].n;
		w->len = (size_t)(q - w->buf);
	}
}

static int
sample(struct pd *d, struct pd_rs *s, const uint8_t *r, size_t size,
    uint64_t off)
{
	struct scur c = { r + 8, r + size, size, off };
	struct sfields f = { 0 };
	struct pd_attr *a = NULL;
	uint64_t st;

	if (sample_attr(d, s, &c, &a) == -1)
		return -1;
	if (a == NULL) {
		d->noattr++;
		return 0;
	}
	st = a->sample_type;
	if (sample_fixed(d, s, st, &c, &f) == -1 ||
	    ((st & S_READ) && skip_read(d, s, a->read_format, &c) == -1) ||
	    skip_callchain_raw(d, s, st, &c) == -1 ||
	    ((st & S_BRANCH_STACK) &&
	    branch_stack(d, s, a->branch_sample_type, &c, &f) == -1) ||
	    skip_after_branches(d, s, a, &c) == -1)
		return -1;
	d->nsamples++;
	if (!(d->emit & PD_SAMPLE) || a->drop ||
	    ((d->npids || d->comm) && !want_pid(d, !!(st & S_TID), f.pid)))
		return 0;
	write_sample_head(d->w, a, st, &f);
	write_branches(d->w, f.br, f.nr, d->swap);
	wb_putc(d->w, '\n');
	return 0;
}

static int
mmap_rec(struct pd *d, struct pd_rs *s, const uint8_t *r, size_t size,
    uint64_t off, int v2)
{
	struct trailer t;
	size_t end, body = v2 ? 72 : 40, fn = body;
	uint16_t misc = ld16(r + 4, d->swap);
	int32_t pid;
	uint32_t prot = 0, flags = 0;
	char *q;

	if (size < body)
		return rs_error(d, s, off, "MMAP%s record of %zu bytes too "
		    "short", v2 ? "2" : "", size);
	if (trailer(d, s, r, size, body, &end, &t, off) != 0)
		return -1;
	pid = (int32_t)ld32(r + 8, d->swap);
	if (!(d->emit & PD_MMAP) || !want_pid(d, 1, pid))
		return 0;
	wb_reserve(d->w, 200);
	q = d->w->buf + d->w->len;
	q = put_str(q, "mmap ");
	q = put_sdec(q, pid);
	*q++ = ' ';
	q = put_sdec(q, (int32_t)ld32(r + 12, d->swap));
	*q++ = ' ';
	q = put_time(q, &t);
	*q++ = ' ';
	q = put_hex(q, ld64(r + 16, d->swap));
	*q++ = ' ';
	q = put_hex(q, ld64(r + 24, d->swap));
	*q++ = ' ';
	q = put_hex(q, ld64(r + 32, d->swap));
	*q++ = ' ';
	if (v2) {
		prot = ld32(r + 64, d->swap);
		flags = ld32(r + 68, d->swap);
		*q++ = prot & 1 ? 'r' : '-';
		*q++ = prot & 2 ? 'w' : '-';
		*q++ = prot & 4 ? 'x' : '-';
		*q++ = flags & 1 ? 's' : 'p';
	} else
		q = put_str(q, misc & MISC_MMAP_DATA ? "r---" : "--x-");
	*q++ = ' ';
	if (v2 && (misc & MISC_MMAP_BUILD_ID) && r[40] > 0) {
		unsigned i, n = r[40] > 20 ? 20 : r[40];

		for (i = 0; i < n; i++) {
			memcpy(q, fmt_hex2 + 2 * r[44 + i], 2);
			q += 2;
		}
	} else
		*q++ = '-';
	*q++ = ' ';
	d->w->len = (size_t)(q - d->w->buf);
	wb_text(d->w, r + fn, end - fn);
	wb_putc(d->w, '\n');
	return 0;
}

static int
comm_rec(struct pd *d, struct pd_rs *s, const uint8_t *r, size_t size,
    uint64_t off)
{
	struct trailer t;
	struct pd_comm *c;
	size_t end, n;
	int32_t pid;
	char *q;

	if (size < 16)
		return rs_error(d, s, off, "COMM record of %zu bytes too "
		    "short", size);
	if (trailer(d, s, r, size, 16, &end, &t, off) != 0)
		return -1;
	pid = (int32_t)ld32(r + 8, d->swap);
	if (d->comm != NULL) {
		c = comm_slot(d, pid, 1);
		n = strnlen((const char *)r + 16, end - 16);
		if (n >= sizeof(c->comm))
			n = sizeof(c->comm) - 1;
		memcpy(c->comm, r + 16, n);
		c->comm[n] = '\0';
	}
	if (!(d->emit & PD_COMM) || !want_pid(d, 1, pid))
		return 0;
	wb_reserve(d->w, 80);
	q = d->w->buf + d->w->len;
	q = put_str(q, "comm ");
	q = put_sdec(q, pid);
	*q++ = ' ';
	q = put_sdec(q, (int32_t)ld32(r + 12, d->swap));
	*q++ = ' ';
	q = put_time(q, &t);
	*q++ = ' ';
	*q++ = ld16(r + 4, d->swap) & MISC_COMM_EXEC ? '1' : '0';
	*q++ = ' ';
	d->w->len = (size_t)(q - d->w->buf);
	wb_text(d->w, r + 16, end - 16);
	wb_putc(d->w, '\n');
	return 0;
}

static int
task_rec(struct pd *d, struct pd_rs *s, const uint8_t *r, size_t size,
    uint64_t off, int fork)
{
	struct trailer t;
	struct pd_comm *pc, *cc;
	size_t end, i;
	int32_t pid;
	char *q;

	if (size < 32)
		return rs_error(d, s, off, "%s record of %zu bytes too short",
		    fork ? "FORK" : "EXIT", size);
	if (trailer(d, s, r, size, 32, &end, &t, off) != 0)
		return -1;
	pid = (int32_t)ld32(r + 8, d->swap);
	if (fork && d->comm != NULL &&
	    (pc = comm_slot(d, (int32_t)ld32(r + 12, d->swap), 0)) != NULL) {
		char tmp[sizeof(pc->comm)];

		/* the child starts with its parent's comm */
		memcpy(tmp, pc->comm, sizeof(tmp));
		cc = comm_slot(d, pid, 1);
		memcpy(cc->comm, tmp, sizeof(tmp));
	}
	if (!(d->emit & (fork ? PD_FORK : PD_EXIT)) || !want_pid(d, 1, pid))
		return 0;
	wb_reserve(d->w, 100);
	q = d->w->buf + d->w->len;
	q = put_str(q, fork ? "fork" : "exit");
	for (i = 0; i < 4; i++) {
		*q++ = ' ';
		q = put_sdec(q, (int32_t)ld32(r + 8 + 4 * i, d->swap));
	}
	*q++ = ' ';
	/* the sample_id time, as perf script shows it; else the body's */
	d->cur_time = t.has_time ? t.time : ld64(r + 24, d->swap);
	q = put_dec(q, d->cur_time);
	*q++ = '\n';
	d->w->len = (size_t)(q - d->w->buf);
	return 0;
}

static void
lost(struct pd *d, uint64_t n)
{
	char *q;

	d->lost += n;
	if (!(d->emit & PD_LOST))
		return;
	wb_reserve(d->w, 32);
	q = d->w->buf + d->w->len;
	q = put_str(q, "lost ");
	q = put_dec(q, n);
	*q++ = '\n';
	d->w->len = (size_t)(q - d->w->buf);
}

/* build-id entries, from the feature section or HEADER_BUILD_ID records */
static int
buildids(struct pd *d, const uint8_t *p, size_t n, uint64_t off)
{
	size_t size, len, i;
	uint16_t misc;
	char *q;

	while (n > 0) {
		if (n < 36 || (size = ld16(p + 6, d->swap)) < 36 || size > n)
			return pd_error(d, off, "build-id entry of %zu bytes "
			    "does not fit (%zu left, 36 at least)",
			    n < 8 ? 0 : (size_t)ld16(p + 6, d->swap), n);
		misc = ld16(p + 4, d->swap);
		len = misc & MISC_BUILD_ID_SIZE ? p[32] : 20;
		if (len > 20)
			len = 20;
		if (d->emit & PD_BUILDID) {
			wb_reserve(outw(d), 64);
			q = outw(d)->buf + outw(d)->len;
			q = put_str(q, "buildid ");
			q = put_sdec(q, (int32_t)ld32(p + 8, d->swap));
			*q++ = ' ';
			for (i = 0; i < len; i++) {
				memcpy(q, fmt_hex2 + 2 * p[12 + i], 2);
				q += 2;
			}
			if (len == 0)
				*q++ = '-';
			*q++ = ' ';
			outw(d)->len = (size_t)(q - outw(d)->buf);
			wb_text(outw(d), p + 36, size - 36);
			wb_putc(outw(d), '\n');
		}
		p += size;
		n -= size;
		off += size;
	}
	return 0;
}

static int
event_desc(struct pd *d, const uint8_t *p, uint64_t n, uint64_t off)
{
	uint32_t nr, asz, i, nids, slen;
	uint64_t pos = 8;
	struct pd_attr *a;

	if (n < 8)
		return pd_error(d, off, "EVENT_DESC section too short");
	nr = ld32(p, d->swap);
	asz = ld32(p + 4, d->swap);
	if (asz < 64 || asz > 4096 || nr > n / asz)
		return pd_error(d, off, "EVENT_DESC with %u attrs of %u bytes "
		    "does not fit %llu bytes", nr, asz, (unsigned long long)n);
	for (i = 0; i < nr; i++) {
		if (n - pos < (uint64_t)asz + 8)
			return pd_error(d, off + pos, "EVENT_DESC entry cut");
		pos += asz;
		nids = ld32(p + pos, d->swap);
		slen = ld32(p + pos + 4, d->swap);
		pos += 8;
		if (slen > n - pos || nids > (n - pos - slen) / 8)
			return pd_error(d, off + pos, "EVENT_DESC name of %u "
			    "bytes or %u ids do not fit", slen, nids);
		a = NULL;
		if (nids > 0)
			a = attr_by_id(d, ld64(p + pos + slen, d->swap));
		if (a == NULL && i < d->nattrs)
			a = &d->attrs[i];
		if (a != NULL)
			set_name(d, a, p + pos, slen);
		pos += slen + 8ULL * nids;
	}
	return 0;
}

int
pd_feature(struct pd *d, uint64_t feat, const uint8_t *p, uint64_t n,
    uint64_t off)
{
	if (feat == PD_FEAT_BUILD_ID)
		return buildids(d, p, (size_t)n, off);
	if (feat == PD_FEAT_EVENT_DESC)
		return event_desc(d, p, n, off);
	return 0;
}

static int
decompress(struct pd *d, struct pd_rs *s, const uint8_t *p, size_t n,
    uint64_t off)
{
	ZSTD_inBuffer ib;
	ZSTD_outBuffer ob;
	size_t rc, before;

	if (s->inner)
		return rs_error(d, s, off, "compressed record inside "
		    "compressed data");
	if (d->zds == NULL) {
		if ((d->zds = ZSTD_createDStream()) == NULL)
			return pd_error(d, off, "cannot create a zstd stream");
		ZSTD_initDStream(d->zds);
		d->zout = xmalloc(ZOUT);
	}
	d->zoff = off;
	ib.src = p;
	ib.size = n;
	ib.pos = 0;
	do {
		ob.dst = d->zout;
		ob.size = ZOUT;
		ob.pos = 0;
		before = ib.pos;
		rc = ZSTD_decompressStream(d->zds, &ob, &ib);
		if (ZSTD_isError(rc))
			return pd_error(d, off, "zstd: %s",
			    ZSTD_getErrorName(rc));
		if (ob.pos > 0 && pd_push(d, &d->in, d->zout, ob.pos) != 0)
			return -1;
		if (ob.pos == 0 && ib.pos == before)
			break;
	} while (ib.pos < ib.size || ob.pos == ob.size);
	return 0;
}

static int
oentcmp(const void *a, const void *b)
{
	const struct pd_oent *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

#define SORT_NAME	sort_oents
#define SORT_TYPE	struct pd_oent
#define SORT_LESS(a, b)	(oentcmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

/* write the queued lines with time <= limit in time order, keep the rest */
static void
ord_flush(struct pd *d, uint64_t limit)
{
	struct wbuf *aw = &d->aw;
	size_t i, n, keep = 0, len = 0;
	char *nb;

	if (d->noq == 0)
		return;
	sort_oents(d->oq, d->noq);
	for (n = 0; n < d->noq && d->oq[n].time <= limit; n++)
		wb_write(d->ow, aw->buf + d->oq[n].off, d->oq[n].len);
	if (n == d->noq) {
		d->noq = 0;
		aw->len = 0;
		return;
	}
	for (i = n; i < d->noq; i++)
		len += d->oq[i].len;
	nb = xmalloc(aw->cap);
	for (i = n; i < d->noq; i++) {
		memcpy(nb + keep, aw->buf + d->oq[i].off, d->oq[i].len);
		d->oq[i - n] = d->oq[i];
		d->oq[i - n].off = keep;
		keep += d->oq[i].len;
	}
	free(aw->buf);
	aw->buf = nb;
	aw->len = len;
	d->noq -= n;
}

void
pd_set_ordered(struct pd *d)
{
	d->ordered = 1;
	d->ow = d->w;
	memset(&d->aw, 0, sizeof(d->aw));
	d->aw.fp = d->ow->fp;
	d->aw.cap = 1 << 20;
	d->aw.buf = xmalloc(d->aw.cap);
	d->w = &d->aw;
}

void
pd_finish(struct pd *d)
{
	if (d->ordered)
		ord_flush(d, UINT64_MAX);
}

/*
 * --ordered, perf's rule (ordered-events.c): records with a time are
 * queued; at each FINISHED_ROUND those up to the highest time of the
 * round before are written in time order, ties in file order.  Records
 * without a time, or with time 0 (synthesized), go out at once.
 */
static int
record(struct pd *d, struct pd_rs *s, const uint8_t *r, size_t size,
    uint64_t off)
{
	struct wbuf *aw = &d->aw;
	size_t start;
	uint32_t type;
	int rc;


	if (LIKELY(!d->ordered))
		return record1(d, s, r, size, off);
	type = ld32(r, d->swap);
	/* the records inside a compressed one are queued one by one */
	if (type == R_COMPRESSED || type == R_COMPRESSED2)
		return record1(d, s, r, size, off);
	if (type == 68) {
		ord_flush(d, d->round_limit);
		d->round_limit = d->max_time;
		return 0;
	}
	/*
	 * Without FINISHED_ROUND records the queue would hold the whole
	 * recording: as perf does, write its earlier half by time.
	 */
	if (aw->len > PD_ORDMAX && d->noq > 1) {
		sort_oents(d->oq, d->noq);
		ord_flush(d, d->oq[d->noq / 2].time);
	}
	/* a record writes at most about 140 KiB (2730 branches) */
	if (aw->cap - aw->len < (256u << 10))
		xgrow(&aw->buf, &aw->cap, aw->len + (256u << 10), 1);
	start = aw->len;
	d->cur_time = 0;
	rc = record1(d, s, r, size, off);
	if (aw->len == start)
		return rc;
	if (d->cur_time == 0) {
		wb_write(d->ow, aw->buf + start, aw->len - start);
		aw->len = start;
		return rc;
	}
	xgrow(&d->oq, &d->capoq, d->noq + 1, sizeof(*d->oq));
	d->oq[d->noq].time = d->cur_time;
	d->oq[d->noq].seq = d->oseq++;
	d->oq[d->noq].off = start;
	d->oq[d->noq].len = aw->len - start;
	d->noq++;
	if (d->cur_time > d->max_time)
		d->max_time = d->cur_time;
	return rc;
}

static int
record1(struct pd *d, struct pd_rs *s, const uint8_t *r, size_t size,
    uint64_t off)
{
	uint32_t type = ld32(r, d->swap);
	struct pd_attr a;
	uint64_t v;
	size_t i;
	int asz;

	switch (type) {
	case R_SAMPLE:
		return sample(d, s, r, size, off);
	case R_MMAP:
	case R_MMAP2:
		return mmap_rec(d, s, r, size, off, type == R_MMAP2);
	case R_COMM:
		return comm_rec(d, s, r, size, off);
	case R_FORK:
	case R_EXIT:
		return task_rec(d, s, r, size, off, type == R_FORK);
	case R_LOST:
		if (size < 24)
			return rs_error(d, s, off, "LOST record too short");
		lost(d, ld64(r + 16, d->swap));
		return 0;
	case R_LOST_SAMPLES:
		if (size < 16)
			return rs_error(d, s, off, "LOST_SAMPLES record too "
			    "short");
		lost(d, ld64(r + 8, d->swap));
		return 0;
	case R_HEADER_ATTR:
		asz = pd_parse_attr(d, &a, r + 8, size - 8, off + 8);
		if (asz < 0)
			return s->inner ? rs_error(d, s, off, "bad HEADER_ATTR")
			    : -1;
		if ((size - 8 - (size_t)asz) / 8 > PD_MAXIDS - d->idmap.n)
			return rs_error(d, s, off, "more than %u event ids",
			    PD_MAXIDS);
		if (pd_add_attr(d, &a, off) != 0)
			return -1;
		for (i = 8 + (size_t)asz; i + 8 <= size; i += 8)
			pd_map_id(d, ld64(r + i, d->swap), d->nattrs - 1);
		return 0;
	case R_HEADER_BUILD_ID:
		return buildids(d, r, size, off);
	case R_EVENT_UPDATE:
		/* type NAME (2) names the attr of an id */
		if (size > 24 && ld64(r + 8, d->swap) == 2) {
			struct pd_attr *ap = attr_by_id(d, ld64(r + 16,
			    d->swap));

			if (ap == NULL && d->nattrs == 1)
				ap = &d->attrs[0];
			if (ap != NULL)
				set_name(d, ap, r + 24, size - 24);
		}
		return 0;
	case R_HEADER_FEATURE:
		if (size < 16)
			return rs_error(d, s, off, "HEADER_FEATURE record too "
			    "short");
		return pd_feature(d, ld64(r + 8, d->swap), r + 16, size - 16,
		    off + 16);
	case R_AUXTRACE:
		if (size < 16)
			return rs_error(d, s, off, "AUXTRACE record too short");
		s->skip = ld64(r + 8, d->swap);
		return 0;
	case R_COMPRESSED:
		return decompress(d, s, r + 8, size - 8, off);
	case R_COMPRESSED2:
		if (size < 16 || (v = ld64(r + 8, d->swap)) > size - 16)
			return rs_error(d, s, off, "COMPRESSED2 data size does "
			    "not fit its record of %zu bytes", size);
		return decompress(d, s, r + 16, (size_t)v, off);
	default:
		/* FINISHED_ROUND, ID_INDEX, THREAD_MAP and all others */
		return 0;
	}
}
