/* See COPYING file for copyright and license details. */
/*
 * emit.c: BOLT's YAML profile through libyaml's emitter (yamlwrite.h).
 * The keys, their order and which are left out at their default are
 * those of LLVM 19's ProfileYAMLMapping.h as yaml::Output writes them
 * (mapOptional fields equal to their default are not written); numbers
 * that LLVM maps as Hex32/Hex64 are written as 0x and upper-case hex, as
 * it does.
 *
 * Two writers of the same bytes.  When every string of the document is
 * printable ASCII (yw_plain: the names of C and C++ functions), it is
 * written directly: such a string is what libyaml writes for it, the
 * single-quoted style with ' doubled, and the rest is numbers and keys;
 * libyaml's events cost a fifth of the whole run on a large program.
 * Otherwise (yw_header.plain 0: a name with a control character, a line
 * break or non-ASCII text) every scalar goes through a libyaml event:
 * such names are quoted by libyaml, never by hand.  tests/60-yamlwrite
 * compares the YAML of both with perf2bolt-19's (names.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "util.h"
#include "yamlwrite.h"

struct yw {
	yaml_emitter_t	 em;
	char		 err[256];
	char		*fix;		/* a name made valid UTF-8 */
	size_t		 fixcap;
	/* the direct writer: one function's text in buf, then to f */
	int		 direct;
	FILE		*f;
	char		*buf;
	size_t		 len, cap;
	size_t		 nfunc;
};

int
yw_plain(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return 0;
	return 1;
}

/* ------------------------------------------------------------------ */
/* the direct writer */

static void
put(struct yw *w, const char *s, size_t n)
{
	if (w->len + n > w->cap)
		xgrow(&w->buf, &w->cap, w->len + n, 1);
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

static void
puts_(struct yw *w, const char *s)
{
	put(w, s, strlen(s));
}

/* a printable ASCII string, single-quoted (libyaml's
 * yaml_emitter_write_single_quoted: ' doubled, nothing else changed) */
static void
put_quoted(struct yw *w, const char *s)
{
	const char *q;

	put(w, "'", 1);
	while ((q = strchr(s, '\'')) != NULL) {
		put(w, s, (size_t)(q - s) + 1);
		put(w, "'", 1);
		s = q + 1;
	}
	puts_(w, s);
	put(w, "'", 1);
}

static char *digits(char *b, uint64_t v, int hex);

/* "KEY: NUMBER" after pre (indent or "{" or ", ") */
static void
put_num(struct yw *w, const char *pre, const char *k, uint64_t v, int hex)
{
	char b[24], *p = digits(b, v, hex);

	puts_(w, pre);
	puts_(w, k);
	put(w, ": ", 2);
	put(w, p, (size_t)(b + sizeof(b) - p));
}

/* the buffer to the file; -1 on a write error */
static int
flush_direct(struct yw *w)
{
	if (w->len > 0 && fwrite(w->buf, 1, w->len, w->f) != w->len) {
		snprintf(w->err, sizeof(w->err), "write error");
		w->len = 0;
		return -1;
	}
	w->len = 0;
	return 0;
}

static void
direct_header(struct yw *w, const struct yw_header *h)
{
	puts_(w, "---\nheader:\n  profile-version: 1\n  binary-name: ");
	put_quoted(w, h->binary_name);
	if (h->build_id != NULL) {
		puts_(w, "\n  binary-build-id: ");
		put_quoted(w, h->build_id);
	}
	puts_(w, "\n  profile-flags: [");
	if (h->sample >= 0)
		puts_(w, h->sample ? "sample" : "lbr");
	puts_(w, "]\n  profile-origin: 'perf data aggregator'\n"
	    "  profile-events: ");
	put_quoted(w, h->events ? h->events : "");
	puts_(w, "\n  dfs-order: ");
	puts_(w, h->dfs_order ? "true" : "false");
	puts_(w, "\n  hash-func: ");
	puts_(w, h->hash_func ? h->hash_func : "xxh3");
	puts_(w, "\nfunctions:");
}

static void
direct_func(struct yw *w, const struct yw_func *f)
{
	size_t i, j;

	puts_(w, "\n- name: ");
	put_quoted(w, f->name);
	put_num(w, "\n  ", "fid", f->fid, 0);
	put_num(w, "\n  ", "hash", f->hash, 1);
	put_num(w, "\n  ", "exec", f->exec, 0);
	put_num(w, "\n  ", "nblocks", f->nblocks, 0);
	if (f->nblk > 0)
		puts_(w, "\n  blocks:");
	for (i = 0; i < f->nblk; i++) {
		const struct yw_block *b = &f->blocks[i];

		put_num(w, "\n  - ", "bid", b->bid, 0);
		put_num(w, "\n    ", "insns", b->insns, 0);
		if (b->hash != 0)
			put_num(w, "\n    ", "hash", b->hash, 1);
		if (b->exec != 0)
			put_num(w, "\n    ", "exec", b->exec, 0);
		if (b->events != 0)
			put_num(w, "\n    ", "events", b->events, 0);
		if (b->ncalls > 0) {
			puts_(w, "\n    calls: [");
			for (j = 0; j < b->ncalls; j++) {
				const struct yw_call *c = &b->calls[j];

				put_num(w, j ? ", {" : "{", "off", c->off, 1);
				put_num(w, ", ", "fid", c->fid, 0);
				if (c->disc != 0)
					put_num(w, ", ", "disc", c->disc, 0);
				put_num(w, ", ", "cnt", c->cnt, 0);
				if (c->mis != 0)
					put_num(w, ", ", "mis", c->mis, 0);
				put(w, "}", 1);
			}
			put(w, "]", 1);
		}
		if (b->nsucc > 0) {
			puts_(w, "\n    succ: [");
			for (j = 0; j < b->nsucc; j++) {
				const struct yw_succ *s = &b->succ[j];

				put_num(w, j ? ", {" : "{", "bid", s->bid, 0);
				put_num(w, ", ", "cnt", s->cnt, 0);
				if (s->mis != 0)
					put_num(w, ", ", "mis", s->mis, 0);
				put(w, "}", 1);
			}
			put(w, "]", 1);
		}
	}
}

/* ------------------------------------------------------------------ */
/* libyaml */

static int
fail(struct yw *w, const char *what)
{
	snprintf(w->err, sizeof(w->err), "libyaml: %s: %s", what,
	    w->em.problem ? w->em.problem : "emitter error");
	return -1;
}

static int
emit(struct yw *w, yaml_event_t *ev, const char *what)
{
	if (!yaml_emitter_emit(&w->em, ev))
		return fail(w, what);
	return 0;
}

/* a scalar; style YAML_PLAIN_SCALAR_STYLE for numbers and keys */
static int
scalar(struct yw *w, const char *s, size_t n, yaml_scalar_style_t style)
{
	yaml_event_t ev;

	if (!yaml_scalar_event_initialize(&ev, NULL, NULL,
	    (yaml_char_t *)(uintptr_t)s, (int)n, 1, 1, style))
		return fail(w, "scalar");
	return emit(w, &ev, "scalar");
}

static int
key(struct yw *w, const char *k)
{
	return scalar(w, k, strlen(k), YAML_PLAIN_SCALAR_STYLE);
}

/* v in base 10 or 16 (upper case, after "0x") at the end of b[0..24):
 * its first character; snprintf took an eighth of the whole run */
static char *
digits(char *b, uint64_t v, int hex)
{
	char *p = b + 24;

	if (hex) {
		do {
			*--p = "0123456789ABCDEF"[v & 15];
			v >>= 4;
		} while (v != 0);
		*--p = 'x';
		*--p = '0';
	} else
		do {
			*--p = (char)('0' + v % 10);
			v /= 10;
		} while (v != 0);
	return p;
}

static int
kv_num(struct yw *w, const char *k, uint64_t v, int hex)
{
	char b[24], *p = digits(b, v, hex);

	if (key(w, k) == -1)
		return -1;
	return scalar(w, p, (size_t)(b + sizeof(b) - p),
	    YAML_PLAIN_SCALAR_STYLE);
}

static int
kv_dec(struct yw *w, const char *k, uint64_t v)
{
	return kv_num(w, k, v, 0);
}

static int
kv_hex(struct yw *w, const char *k, uint64_t v)
{
	return kv_num(w, k, v, 1);
}

static int
kv_str(struct yw *w, const char *k, const char *v, yaml_scalar_style_t style)
{
	if (key(w, k) == -1)
		return -1;
	return scalar(w, v, strlen(v), style);
}

static int
map_start(struct yw *w, int flow)
{
	yaml_event_t ev;

	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
	    flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
	return emit(w, &ev, "mapping");
}

static int
map_end(struct yw *w)
{
	yaml_event_t ev;

	yaml_mapping_end_event_initialize(&ev);
	return emit(w, &ev, "mapping end");
}

static int
seq_start(struct yw *w, int flow)
{
	yaml_event_t ev;

	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
	    flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
	return emit(w, &ev, "sequence");
}

static int
seq_end(struct yw *w)
{
	yaml_event_t ev;

	yaml_sequence_end_event_initialize(&ev);
	return emit(w, &ev, "sequence end");
}

/* the length of the valid UTF-8 sequence at s (n bytes left), or 0 */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		c = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		c = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		c = s[0] & 0x07;
	} else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) ||
	    (len == 4 && c < 0x10000) || c > 0x10ffff ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return len;
}

/*
 * A name as a YAML string.  YAML text is Unicode: bytes that are not
 * UTF-8 cannot be written.  LLVM's yaml::escape writes U+FFFD for the
 * first bad sequence and drops the rest of the name; we do the same, so
 * that the profile names the function as perf2bolt's does.  Control
 * characters and the rest are libyaml's to escape.
 */
static int
name(struct yw *w, const char *k, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, l;

	while (i < n && (l = utf8_len(p + i, n - i)) > 0)
		i += l;
	if (key(w, k) == -1)
		return -1;
	if (i == n)
		return scalar(w, s, n, YAML_SINGLE_QUOTED_SCALAR_STYLE);
	xgrow(&w->fix, &w->fixcap, i + 4, 1);
	memcpy(w->fix, s, i);
	memcpy(w->fix + i, "\xef\xbf\xbd", 3);
	return scalar(w, w->fix, i + 3, YAML_SINGLE_QUOTED_SCALAR_STYLE);
}

struct yw *
yw_open(FILE *f, const struct yw_header *h, char *err, size_t errlen)
{
	struct yw *w = xcalloc(1, sizeof(*w));
	yaml_event_t ev;
	yaml_version_directive_t *vd = NULL;

	if (h->plain && yw_plain(h->binary_name) &&
	    (h->build_id == NULL || yw_plain(h->build_id)) &&
	    (h->events == NULL || yw_plain(h->events)) &&
	    (h->hash_func == NULL || yw_plain(h->hash_func))) {
		w->direct = 1;
		w->f = f;
		direct_header(w, h);
		return w;
	}

	if (!yaml_emitter_initialize(&w->em)) {
		snprintf(err, errlen, "libyaml: cannot start an emitter");
		free(w);
		return NULL;
	}
	yaml_emitter_set_output_file(&w->em, f);
	yaml_emitter_set_unicode(&w->em, 1);
	yaml_emitter_set_width(&w->em, -1);
	yaml_emitter_set_indent(&w->em, 2);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	if (emit(w, &ev, "stream") == -1)
		goto bad;
	/* "---" first: LLVM takes a file for YAML only if it starts so */
	yaml_document_start_event_initialize(&ev, vd, NULL, NULL, 0);
	if (emit(w, &ev, "document") == -1 || map_start(w, 0) == -1 ||
	    key(w, "header") == -1 || map_start(w, 0) == -1 ||
	    kv_dec(w, "profile-version", 1) == -1 ||
	    kv_str(w, "binary-name", h->binary_name,
	    YAML_SINGLE_QUOTED_SCALAR_STYLE) == -1)
		goto bad;
	if (h->build_id != NULL && kv_str(w, "binary-build-id", h->build_id,
	    YAML_SINGLE_QUOTED_SCALAR_STYLE) == -1)
		goto bad;
	if (key(w, "profile-flags") == -1 || seq_start(w, 1) == -1)
		goto bad;
	if (h->sample >= 0 && scalar(w, h->sample ? "sample" : "lbr",
	    h->sample ? 6 : 3, YAML_PLAIN_SCALAR_STYLE) == -1)
		goto bad;
	if (seq_end(w) == -1 ||
	    kv_str(w, "profile-origin", "perf data aggregator",
	    YAML_SINGLE_QUOTED_SCALAR_STYLE) == -1 ||
	    kv_str(w, "profile-events", h->events ? h->events : "",
	    YAML_SINGLE_QUOTED_SCALAR_STYLE) == -1 ||
	    kv_str(w, "dfs-order", h->dfs_order ? "true" : "false",
	    YAML_PLAIN_SCALAR_STYLE) == -1 ||
	    kv_str(w, "hash-func", h->hash_func ? h->hash_func : "xxh3",
	    YAML_PLAIN_SCALAR_STYLE) == -1 ||
	    map_end(w) == -1 || key(w, "functions") == -1 ||
	    seq_start(w, 0) == -1)
		goto bad;
	return w;
bad:
	snprintf(err, errlen, "%s", w->err);
	yaml_emitter_delete(&w->em);
	free(w);
	return NULL;
}

static int
emit_block(struct yw *w, const struct yw_block *b)
{
	size_t i;

	if (map_start(w, 0) == -1 || kv_dec(w, "bid", b->bid) == -1 ||
	    kv_dec(w, "insns", b->insns) == -1)
		return -1;
	if (b->hash != 0 && kv_hex(w, "hash", b->hash) == -1)
		return -1;
	if (b->exec != 0 && kv_dec(w, "exec", b->exec) == -1)
		return -1;
	if (b->events != 0 && kv_dec(w, "events", b->events) == -1)
		return -1;
	if (b->ncalls > 0) {
		if (key(w, "calls") == -1 || seq_start(w, 1) == -1)
			return -1;
		for (i = 0; i < b->ncalls; i++) {
			const struct yw_call *c = &b->calls[i];

			if (map_start(w, 1) == -1 ||
			    kv_hex(w, "off", c->off) == -1 ||
			    kv_dec(w, "fid", c->fid) == -1 ||
			    (c->disc != 0 && kv_dec(w, "disc", c->disc) == -1) ||
			    kv_dec(w, "cnt", c->cnt) == -1 ||
			    (c->mis != 0 && kv_dec(w, "mis", c->mis) == -1) ||
			    map_end(w) == -1)
				return -1;
		}
		if (seq_end(w) == -1)
			return -1;
	}
	if (b->nsucc > 0) {
		if (key(w, "succ") == -1 || seq_start(w, 1) == -1)
			return -1;
		for (i = 0; i < b->nsucc; i++) {
			const struct yw_succ *s = &b->succ[i];

			if (map_start(w, 1) == -1 ||
			    kv_dec(w, "bid", s->bid) == -1 ||
			    kv_dec(w, "cnt", s->cnt) == -1 ||
			    (s->mis != 0 && kv_dec(w, "mis", s->mis) == -1) ||
			    map_end(w) == -1)
				return -1;
		}
		if (seq_end(w) == -1)
			return -1;
	}
	return map_end(w);
}

int
yw_emit_func(struct yw *w, const struct yw_func *f)
{
	size_t i;

	if (w->direct) {
		w->nfunc++;
		direct_func(w, f);
		return w->len >= 65536 ? flush_direct(w) : 0;
	}

	if (map_start(w, 0) == -1 || name(w, "name", f->name) == -1 ||
	    kv_dec(w, "fid", f->fid) == -1 || kv_hex(w, "hash", f->hash) == -1 ||
	    kv_dec(w, "exec", f->exec) == -1 ||
	    kv_dec(w, "nblocks", f->nblocks) == -1)
		return -1;
	if (f->nblk > 0) {
		if (key(w, "blocks") == -1 || seq_start(w, 0) == -1)
			return -1;
		for (i = 0; i < f->nblk; i++)
			if (emit_block(w, &f->blocks[i]) == -1)
				return -1;
		if (seq_end(w) == -1)
			return -1;
	}
	return map_end(w);
}

int
yw_close(struct yw *w, char *err, size_t errlen)
{
	yaml_event_t ev;
	int r = 0;

	if (w->direct) {
		/* an empty block sequence is written as libyaml writes
		 * it, in the flow style */
		if (w->nfunc == 0)
			puts_(w, " []");
		puts_(w, "\n...\n");
		r = flush_direct(w);
		if (r == -1)
			snprintf(err, errlen, "%s", w->err);
		free(w->buf);
		free(w->fix);
		free(w);
		return r;
	}
	if (seq_end(w) == -1 || map_end(w) == -1)
		r = -1;
	if (r == 0) {
		yaml_document_end_event_initialize(&ev, 0);
		r = emit(w, &ev, "document end");
	}
	if (r == 0) {
		yaml_stream_end_event_initialize(&ev);
		r = emit(w, &ev, "stream end");
	}
	if (r == 0 && !yaml_emitter_flush(&w->em))
		r = fail(w, "flush");
	if (r == -1)
		snprintf(err, errlen, "%s", w->err);
	yaml_emitter_delete(&w->em);
	free(w->fix);
	free(w);
	return r;
}

const char *
yw_error(const struct yw *w)
{
	return w->err;
}
