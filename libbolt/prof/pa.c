/* See COPYING file for copyright and license details. */
/*
 * pa.c: BOLT's pre-aggregated profile, read and written one entry at a
 * time (pa.h has the grammar).  Build-ids and event names are interned
 * in hash tables, so a fleet merge may carry any number of them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pa.h"

const char pa_letter[PA_NTYPES] = { 'E', 'S', 'T', 'R', 'B', 'F', 'f', 'r' };

int
pa_nloc(enum pa_type t)
{
	switch (t) {
	case PA_E:
		return 0;
	case PA_S:
		return 1;
	case PA_T:
	case PA_R:
		return 3;
	default:
		return 2;
	}
}

int
pa_open(struct pa_reader *r, const char *path)
{
	memset(r, 0, sizeof(*r));
	r->curev = PA_NO_EVENT;
	if (lr_open(&r->lr, path) == -1)
		return -1;
	r->open = 1;
	return 0;
}

uint32_t
pa_intern_buildid(struct pa_reader *r, const char *s, size_t len)
{
	return strtab_intern(&r->bids, s, len);
}

uint32_t
pa_intern_event(struct pa_reader *r, const char *s, size_t len)
{
	return strtab_intern(&r->events, s, len);
}

const char *
pa_buildid(const struct pa_reader *r, uint32_t obj)
{
	if (obj < 2 || PA_OBJ_BUILDID_INDEX(obj) >= r->bids.n)
		return NULL;
	return r->bids.s[PA_OBJ_BUILDID_INDEX(obj)];
}

const char *
pa_event(const struct pa_reader *r, uint32_t ev)
{
	return ev < r->events.n ? r->events.s[ev] : NULL;
}

void
pa_close(struct pa_reader *r)
{
	if (r->open)
		lr_close(&r->lr);
	strtab_free(&r->bids);
	strtab_free(&r->events);
	memset(r, 0, sizeof(*r));
}


/* the next space-separated field: its start and length; NULL at the end */
static char *
next_field(char **p, size_t *len)
{
	char *s = *p, *e;

	while (*s == ' ')
		s++;
	if (*s == '\0')
		return NULL;
	for (e = s; *e != ' ' && *e != '\0'; e++)
		;
	*len = (size_t)(e - s);
	*p = e;
	return s;
}

int
pa_parse_loc(struct pa_reader *r, const char *s, size_t len, struct pa_loc *l,
    int nonconst)
{
	const char *c = memchr(s, ':', len);
	const char *h = s, *end;
	uint64_t v;

	l->obj = PA_OBJ_SELF;
	if (len == 2 && s[0] == '-' && s[1] >= '1' && s[1] <= '3') {
		if (nonconst)
			return -1;
		l->addr = UINT64_MAX - (uint64_t)(s[1] - '1');
		return 0;
	}
	if (c != NULL) {
		if (c == s || (size_t)(c - s) == len - 1)
			return -1;
		if (c - s == 1 && (s[0] == 'X' || s[0] == 'x'))
			l->obj = PA_OBJ_X;
		else {
			const char *q;

			/* a build-id is hex; anything else is not a location */
			for (q = s; q < c; q++)
				if (!((*q >= '0' && *q <= '9') ||
				    (*q >= 'a' && *q <= 'f') ||
				    (*q >= 'A' && *q <= 'F')))
					return -1;
			l->obj = PA_OBJ_BUILDID(pa_intern_buildid(r, s,
			    (size_t)(c - s)));
		}
		h = c + 1;
	}
	if (parse_hex64_field(h, &end, &v) == -1 || end != s + len)
		return -1;
	l->addr = v;
	return 0;
}

/* a count: decimal, 20 digits at most, within 64 bits */
static int
parse_count(const char *s, size_t len, uint64_t *v)
{
	const char *end;

	if (len > 20 || parse_dec64_field(s, &end, v) == -1)
		return -1;
	return end == s + len ? 0 : -1;
}

int
pa_parse_line(struct pa_reader *r, char *line, struct pa_entry *e,
    char *err, size_t errlen)
{
	char *p = line, *t, q[80];
	size_t len = 0;
	int i, n;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '#' || *p == '\0')
		return 0;
	memset(e, 0, sizeof(*e));
	if ((t = next_field(&p, &len)) == NULL || len != 1 || (t = memchr(pa_letter, *t, PA_NTYPES)) == NULL)
		return failf(err, errlen, "unknown entry type '%s'",
		    vis_str(q, sizeof(q), line, strcspn(line, " ")));
	e->type = (enum pa_type)(t - pa_letter);
	if (e->type == PA_E) {
		while (*p == ' ')
			p++;
		if (*p == '\0' || strchr(p, ' ') != NULL)
			return failf(err, errlen, "bad event line: an E "
			    "entry takes one event name");
		r->curev = e->event = pa_intern_event(r, p, strlen(p));
		r->nentries++;
		return 1;
	}
	n = e->nloc = pa_nloc(e->type);
	for (i = 0; i < n; i++) {
		if ((t = next_field(&p, &len)) == NULL)
			return failf(err, errlen, "%c entry: missing location "
			    "%d of %d", pa_letter[e->type], i + 1, n);
		if (pa_parse_loc(r, t, len, &e->loc[i], 0) == -1)
			return failf(err, errlen, "%c entry: bad location '%s'",
			    pa_letter[e->type], vis_str(q, sizeof(q), t, len));
	}
	if ((t = next_field(&p, &len)) == NULL)
		return failf(err, errlen, "%c entry: missing count",
		    pa_letter[e->type]);
	if (parse_count(t, len, &e->count) == -1)
		return failf(err, errlen, "%c entry: bad count '%s'",
		    pa_letter[e->type], vis_str(q, sizeof(q), t, len));
	if ((t = next_field(&p, &len)) != NULL) {
		if (e->type != PA_B && e->type != PA_T && e->type != PA_R)
			return failf(err, errlen, "%c entry: extra field '%s'",
			    pa_letter[e->type], vis_str(q, sizeof(q), t, len));
		if (parse_count(t, len, &e->mis) == -1)
			return failf(err, errlen, "%c entry: bad mispredict "
			    "count '%s'", pa_letter[e->type],
			    vis_str(q, sizeof(q), t, len));
		e->has_mis = 1;
		if ((t = next_field(&p, &len)) != NULL)
			return failf(err, errlen, "%c entry: extra field '%s'",
			    pa_letter[e->type], vis_str(q, sizeof(q), t, len));
	} else if (e->type == PA_B)
		return failf(err, errlen, "B entry: missing mispredict count");
	if (e->type == PA_S)
		e->event = r->curev;
	else
		e->event = PA_NO_EVENT;
	r->nentries++;
	return 1;
}

/* decimal digits at p: how many (at most 19: no overflow), 0 if none or
 * more */
static inline unsigned
dec19(const char *p, uint64_t *v)
{
	unsigned n, d;
	uint64_t x = 0;

	for (n = 0; (d = (unsigned)(p[n] - '0')) < 10; n++) {
		if (n == 19)
			return 0;
		x = x * 10 + d;
	}
	*v = x;
	return n;
}

int
pa_parse_fast(struct pa_reader *r, const char *s, struct pa_entry *e)
{
	enum pa_type t;
	const char *p = s + 2;
	unsigned nd;
	uint64_t v;
	int i, n;

	switch (s[0]) {
	case 'B': t = PA_B; break;
	case 'F': t = PA_F; break;
	case 'f': t = PA_f; break;
	case 'r': t = PA_r; break;
	case 'T': t = PA_T; break;
	case 'R': t = PA_R; break;
	case 'S': t = PA_S; break;
	default: return 0;
	}
	if (s[1] != ' ')
		return 0;
	memset(e, 0, sizeof(*e));
	e->type = t;
	e->nloc = n = pa_nloc(t);
	for (i = 0; i < n; i++) {
		/* the line is padded (LR_PAD): hexscan may load past its
		 * end; at most 16 digits, and a 17th is no space */
		if ((nd = hexscan(p, &v)) == 0 || p[nd] != ' ')
			return 0;
		e->loc[i].addr = v;
		p += nd + 1;
	}
	if ((nd = dec19(p, &e->count)) == 0)
		return 0;
	p += nd;
	if (*p == ' ') {
		if ((t != PA_B && t != PA_T && t != PA_R) ||
		    (nd = dec19(p + 1, &e->mis)) == 0 || p[1 + nd] != '\0')
			return 0;
		e->has_mis = 1;
	} else if (*p != '\0' || t == PA_B)
		return 0;
	e->event = t == PA_S ? r->curev : PA_NO_EVENT;
	r->nentries++;
	return 1;
}

int
pa_next(struct pa_reader *r, struct pa_entry *e)
{
	int k;

	while (lr_next(&r->lr)) {
		if (pa_parse_fast(r, r->lr.buf, e))
			return 1;
		if ((k = pa_parse_line(r, r->lr.buf, e, r->err,
		    sizeof(r->err))) != 0)
			return k;
	}
	return 0;
}

int
pa_loc_const(const struct pa_loc *l)
{
	return l->obj == PA_OBJ_SELF && l->addr >= PA_FT_EXTERNAL_RETURN;
}

void
pa_split(const struct pa_entry *e, struct pa_parts *p)
{
	static const enum pa_origin byconst[3] = {
		PA_ORIG_INTERNAL,	/* -1 */
		PA_ORIG_EXTERNAL,	/* -2 */
		PA_ORIG_RETURN		/* -3 */
	};

	memset(p, 0, sizeof(*p));
	p->origin = PA_ORIG_BRANCH;
	switch (e->type) {
	case PA_B:
		p->from = &e->loc[0];
		p->to = &e->loc[1];
		p->mis = e->mis;
		break;
	case PA_T:
	case PA_R:
		p->to = &e->loc[1];
		p->ret = e->type == PA_R;
		p->mis = e->has_mis ? e->mis : 0;
		if (pa_loc_const(&e->loc[0]))
			p->origin = byconst[UINT64_MAX - e->loc[0].addr];
		else
			p->from = &e->loc[0];
		if (!(e->loc[2].obj == PA_OBJ_SELF &&
		    e->loc[2].addr == PA_BR_ONLY)) {
			p->fs = &e->loc[1];
			p->fe = &e->loc[2];
		}
		break;
	case PA_F:
	case PA_f:
	case PA_r:
		p->origin = e->type == PA_F ? PA_ORIG_INTERNAL :
		    e->type == PA_f ? PA_ORIG_EXTERNAL : PA_ORIG_RETURN;
		p->fs = &e->loc[0];
		p->fe = &e->loc[1];
		break;
	default:
		break;
	}
}

void
pa_put_loc(struct wbuf *w, const struct pa_loc *l, const struct pa_reader *r)
{
	if (l->obj == PA_OBJ_X)
		wb_puts(w, "X:");
	else if (l->obj != PA_OBJ_SELF) {
		const char *b = r != NULL ? pa_buildid(r, l->obj) : NULL;

		if (b != NULL) {
			wb_puts(w, b);
			wb_putc(w, ':');
		}
	}
	wb_hex(w, l->addr);
}

void
pa_put_event(struct wbuf *w, const char *name)
{
	wb_puts(w, "E ");
	wb_puts(w, name);
	wb_putc(w, '\n');
}

void
pa_put_entry(struct wbuf *w, const struct pa_entry *e,
    const struct pa_reader *r)
{
	int i;

	if (e->type == PA_E) {
		const char *name = r != NULL ? pa_event(r, e->event) : NULL;

		pa_put_event(w, name != NULL ? name : "");
		return;
	}
	wb_putc(w, pa_letter[e->type]);
	for (i = 0; i < e->nloc; i++) {
		wb_putc(w, ' ');
		pa_put_loc(w, &e->loc[i], r);
	}
	wb_putc(w, ' ');
	wb_dec(w, e->count);
	if (e->type == PA_B || ((e->type == PA_T || e->type == PA_R) &&
	    e->has_mis)) {
		wb_putc(w, ' ');
		wb_dec(w, e->mis);
	}
	wb_putc(w, '\n');
}
