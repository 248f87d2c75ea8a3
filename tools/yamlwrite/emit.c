/* See COPYING file for copyright and license details. */
/*
 * emit.c: BOLT's YAML profile through libyaml's emitter (yamlwrite.h).
 * The keys, their order and which are left out at their default are
 * those of LLVM 19's ProfileYAMLMapping.h as yaml::Output writes them
 * (mapOptional fields equal to their default are not written); numbers
 * that LLVM maps as Hex32/Hex64 are written as 0x and upper-case hex, as
 * it does.  Every scalar goes through a libyaml event: names are quoted
 * by libyaml, never by hand.
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
};

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
