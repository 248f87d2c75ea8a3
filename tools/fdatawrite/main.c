/* See COPYING file for copyright and license details. */
/*
 * fdatawrite: a pre-aggregated profile (llvm-bolt --pa) and the binary it
 * was collected on, to the fdata perf2bolt-19 writes for the same samples.
 *
 * The rules are DataAggregator's in LLVM 19 (bolt/lib/Profile/
 * DataAggregator.cpp: doBranch, doTrace, getFallthroughsInTrace): doBranch for taken branches (returns
 * dropped, intra-function branches and calls, [unknown] ends), doTrace for
 * fall-through ranges on the control-flow graph libbolt/cfg/cfgdis.c builds
 * as BOLT does (call continuation for external origins, every step to a
 * successor), the lines keyed and summed by (from, to), and basic samples
 * as perf2bolt -nl writes them.  The entries are cut into branches and
 * fall-throughs by libbolt/prof/pawalk.c (as yamlwrite cuts them), names come
 * from libbolt/elf/functab.c.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "brsum.h"
#include "boltbin.h"
#include "cfg.h"
#include "datatab.h"
#include "fdline.h"
#include "pa.h"
#include "pawalk.h"
#include "binlist.h"
#include "llvmrel.h"

/* options (fdatawrite(1)); the long-only ones above 255 */
enum { O_BOLTED = 257, O_TRANSLATED, O_LITERAL, O_PASTEND };
static const struct prog_opt opts[] = {
	{ "output", required_argument, 'o', "FILE",
	    "write to FILE (default: standard output)" },
	{ "directory", required_argument, 'd', "DIR",
	    "one profile per binary (a directory: its ELF files),\n"
	    "DIR/BINARY.fdata, from one pass over the standard input" },
	{ "mem", required_argument, 'M', "FILE",
	    "the samples of memory events (preagg -M, a\n"
	    "profpipe-mem stream): memory lines (repeatable)" },
	{ "bolted", no_argument, O_BOLTED, NULL,
	    "the profile was collected on a BOLTed binary (batmap's\n"
	    "output): write the boltedcollection form, each\n"
	    "fall-through as given" },
	{ "past-end", required_argument, O_PASTEND, "FILE",
	    "with --bolted: also the lines of FILE (batmap\n"
	    "--past-end), branches the stream cannot name" },
	{ "literal", no_argument, O_LITERAL, NULL,
	    "write a branch from an instruction that is no branch\n"
	    "as given, as perf2bolt --pa does (by default, batmap's\n"
	    "pairs of blocks become the input's edges)" },
	{ "translated", no_argument, O_TRANSLATED, NULL,
	    "the default (batmap's pairs of blocks as the input's\n"
	    "edges), accepted for scripts that name it" },
	LLVMREL_OPT,
	{ "jobs", required_argument, 'j', "N",
	    "walk the profile in N processes once it is read\n"
	    "(default: the CPUs, up to 4, for a profile that\n"
	    "needs graphs of 4 MiB of code or more; 1: one)" },
	{ "quiet", no_argument, 'q', NULL, "no warnings" },
	{ "verbose", no_argument, 'v', NULL,
	    "counts of entries, traces and functions on standard\n"
	    "error" },
	{ NULL, 0, 0, NULL, NULL }
};
static const struct prog_usage usage = {
	"[-qv] [--bolted [--past-end file] | --literal] [--llvm=release] "
	"[-j n]\n [-M mem]... [-o fdata] binary [preagg]\n"
	"[-qv] [--bolted | --literal] [--llvm=release] [-j n] [-M mem]... "
	"-d dir\n binary|dir... < preagg",
	"Write the fdata perf2bolt-19 writes for a pre-aggregated profile "
	"of binary.",
	opts
};

/* a line of fdata is a struct brsum: from and to, each a function
 * (index + 1, 0 for [unknown]) and an offset (the address itself for
 * [unknown]), kept in order of first appearance */

struct ctx {
	struct boltbin	 bin;
	struct cfgdis	*cd;
	struct ktab	 lines;		/* LBR lines */
	struct ktab	 samples;	/* no_lbr: (func, off) */
	struct ktab	 mem;		/* (func, off, data object, off) */
	struct datatab	 dt;
	int		 dtloaded;
	uint64_t	 nmem, nmemfunc, nmemobj, nmemother;
	int		 bolted;
	int		 withmem;	/* -M given: the branch mode's form */
	struct pawalk	 w;		/* the entries cut into branches and
					 * fall-throughs; its counts for -v */
	char		**fnames;	/* put_func's, by function */
	/* fall-through counts, by function, of each block to the next in
	 * layout order: a trace's steps are counted next to its graph, and
	 * become lines once, at the end */
	uint64_t	**ftc;
	/* the same once the graph is dropped (on_done): the count of
	 * lines, then (from, to, count) of each */
	uint64_t	**ftd;
	/* the walk split among processes (pawalk_run_par): where each line
	 * and sample first came in the walk (pawalk.pos; ft_lines' after
	 * all), the order they are written in; NULL: the tables' order */
	uint64_t	*lpos, *spos;
	size_t		 caplpos, capspos;
};

static uint32_t
fnum(const struct ctx *c, const struct bfunc *f)
{
	return f ? (uint32_t)(f - c->bin.ft.f) + 1 : 0;
}

/* brsum_add, and the place of the line in the walk (pos) when the walk
 * is split: the earliest of the processes' */
static void
add_at(struct ktab *t, uint64_t **pos, size_t *cap, int track, uint64_t p,
    uint32_t ff, uint64_t fo, uint32_t tf, uint64_t to, uint64_t count,
    uint64_t mis)
{
	size_t n = t->n, i;
	const struct brsum *b = brsum_add(t, ff, fo, tf, to, count, mis);

	if (!track && *pos == NULL)
		return;
	i = (size_t)((const char *)b - (const char *)t->v) / t->recsz;
	if (t->n > n) {
		xgrow(pos, cap, t->n, sizeof(**pos));
		(*pos)[i] = p;
	} else if (p < (*pos)[i])
		(*pos)[i] = p;
}

static void
add_line(struct ctx *c, uint64_t p, uint32_t ff, uint64_t fo, uint32_t tf,
    uint64_t to, uint64_t count, uint64_t mis)
{
	add_at(&c->lines, &c->lpos, &c->caplpos, c->w.split, p, ff, fo, tf,
	    to, count, mis);
}

/* the fall-through steps from block fb to block tb of f's graph g, each
 * counted beside the graph (ft_lines makes them lines) */
static void
on_steps(void *arg, const struct bfunc *f, const struct cfg *g, long fb,
    long tb, uint64_t count)
{
	struct ctx *c = arg;
	size_t fi = (size_t)(f - c->bin.ft.f);
	long i;

	if (c->ftc[fi] == NULL)
		c->ftc[fi] = xcalloc(g->nblocks, sizeof(**c->ftc));
	for (i = fb; i < tb; i++)
		c->ftc[fi][i] += count;
}

/* the fall-through counts as lines (summed with a branch's line of the
 * same key, as perf2bolt sums them), after every line of the walk */
#define FT_POS	((uint64_t)1 << 63)
static void
ft_lines(struct ctx *c)
{
	size_t f, i;

	for (f = 0; f < c->bin.ft.n; f++) {
		const struct cfg *g;
		uint64_t *ftc = c->ftc[f], *d = c->ftd[f];

		if (d != NULL) {
			for (i = 0; i < d[0]; i++)
				add_line(c, FT_POS + c->lines.n,
				    (uint32_t)f + 1, d[1 + 3 * i],
				    (uint32_t)f + 1, d[2 + 3 * i],
				    d[3 + 3 * i], 0);
			free(d);
			c->ftd[f] = NULL;
			continue;
		}
		if (ftc == NULL)
			continue;
		g = cfgdis_get(c->cd, f);
		for (i = 0; i + 1 < g->nblocks; i++)
			if (ftc[i] != 0)
				add_line(c, FT_POS + c->lines.n,
				    (uint32_t)f + 1, g->blocks[i].last,
				    (uint32_t)f + 1, g->blocks[i + 1].start,
				    ftc[i], 0);
		free(ftc);
		c->ftc[f] = NULL;
	}
}

/* pawalk is done with f's graph g: its counts kept without it */
static void
on_done(void *arg, const struct bfunc *f, const struct cfg *g)
{
	struct ctx *c = arg;
	size_t fi = (size_t)(f - c->bin.ft.f), i, k = 0;
	uint64_t *ftc = c->ftc[fi], *d;

	if (ftc == NULL)
		return;
	for (i = 0; i + 1 < g->nblocks; i++)
		k += ftc[i] != 0;
	d = xcalloc(3 * k + 1, sizeof(*d));
	for (i = 0; i + 1 < g->nblocks; i++)
		if (ftc[i] != 0) {
			d[1 + 3 * d[0]] = g->blocks[i].last;
			d[2 + 3 * d[0]] = g->blocks[i + 1].start;
			d[3 + 3 * d[0]] = ftc[i];
			d[0]++;
		}
	free(ftc);
	c->ftc[fi] = NULL;
	c->ftd[fi] = d;
}

/* pawalk's parts of an entry, as fdata lines */
static void
on_branch(void *arg, const struct bfunc *ff, uint64_t fo,
    const struct bfunc *tf, uint64_t to, uint64_t count, uint64_t mis)
{
	struct ctx *c = arg;

	add_line(c, c->w.pos, fnum(c, ff), fo, fnum(c, tf), to, count, mis);
}

/* --bolted: each fall-through written as given, from its start to its
 * end, when one function holds both (even backwards: a BOLTed layout
 * falls through to blocks at lower input offsets, and perf2bolt writes
 * those pairs as BAT gives them) */
static void
on_fallthrough(void *arg, const struct bfunc *f, uint64_t fs, uint64_t fe,
    uint64_t count)
{
	struct ctx *c = arg;

	add_line(c, c->w.pos, fnum(c, f), fs, fnum(c, f), fe, count, 0);
}

static void
on_sample(void *arg, const struct bfunc *f, uint64_t off, uint64_t count)
{
	struct ctx *c = arg;

	add_at(&c->samples, &c->spos, &c->capspos, c->w.split, c->w.pos,
	    fnum(c, f), off, 0, 0, count, 0);
}

/*
 * A worker's share of a split walk (pawalk_run_par), sent to the parent:
 * its lines and samples, each with where it first came in the walk, and
 * the fall-through counts of the functions it owns (from, to, count of
 * each line).  The parent sums them into its own: a line keeps its
 * earliest place, and the tables are written in the order of those
 * places, the order of one process's walk.
 */
struct wline {
	struct brsum	b;
	uint64_t	pos;
};
#define WCHUNK	4096

static void
put_table(FILE *fp, const struct ktab *t, const uint64_t *pos)
{
	struct wline *buf = xcalloc(WCHUNK, sizeof(*buf));
	uint64_t n = t->n;
	size_t i, k = 0;

	fwrite(&n, sizeof(n), 1, fp);
	for (i = 0; i < t->n; i++) {
		buf[k].b = *(const struct brsum *)ktab_at(t, i);
		buf[k++].pos = pos != NULL ? pos[i] : i;
		if (k == WCHUNK || i + 1 == t->n) {
			fwrite(buf, sizeof(*buf), k, fp);
			k = 0;
		}
	}
	free(buf);
}

static int
get_table(FILE *fp, struct ktab *t, uint64_t **pos, size_t *cap)
{
	struct wline *buf;
	uint64_t n;
	size_t i, k;
	int ok = 1;

	if (fread(&n, sizeof(n), 1, fp) != 1 || n > KTAB_MAX)
		return -1;
	buf = xcalloc(WCHUNK, sizeof(*buf));
	while (ok && n > 0) {
		k = n < WCHUNK ? (size_t)n : WCHUNK;
		if (fread(buf, sizeof(*buf), k, fp) != k) {
			ok = 0;
			break;
		}
		for (i = 0; i < k; i++) {
			const struct brsum *b = &buf[i].b;

			add_at(t, pos, cap, 1, buf[i].pos, b->fromf,
			    b->fromoff, b->tof, b->tooff, b->count, b->mis);
		}
		n -= k;
	}
	free(buf);
	return ok ? 0 : -1;
}

static void
on_put(void *arg, FILE *fp)
{
	struct ctx *c = arg;
	uint64_t nf = 0, f;

	put_table(fp, &c->lines, c->lpos);
	put_table(fp, &c->samples, c->spos);
	/* every graph was dropped at its last entry (on_done): the counts
	 * of the functions this worker owns are in ftd */
	for (f = 0; f < c->bin.ft.n; f++) {
		if (c->ftc[f] != NULL)
			on_done(c, &c->bin.ft.f[f], cfgdis_get(c->cd, f));
		nf += c->ftd[f] != NULL;
	}
	fwrite(&nf, sizeof(nf), 1, fp);
	for (f = 0; f < c->bin.ft.n; f++)
		if (c->ftd[f] != NULL) {
			fwrite(&f, sizeof(f), 1, fp);
			fwrite(c->ftd[f], sizeof(*c->ftd[f]),
			    1 + 3 * c->ftd[f][0], fp);
		}
}

static int
on_get(void *arg, FILE *fp)
{
	struct ctx *c = arg;
	uint64_t nf, f, k;

	if (get_table(fp, &c->lines, &c->lpos, &c->caplpos) == -1 ||
	    get_table(fp, &c->samples, &c->spos, &c->capspos) == -1 ||
	    fread(&nf, sizeof(nf), 1, fp) != 1)
		return -1;
	while (nf-- > 0) {
		/* a function's steps are counted by its owner only */
		if (fread(&f, sizeof(f), 1, fp) != 1 || f >= c->bin.ft.n ||
		    c->ftc[f] != NULL || c->ftd[f] != NULL ||
		    fread(&k, sizeof(k), 1, fp) != 1 || k > UINT32_MAX)
			return -1;
		c->ftd[f] = xcalloc(1 + 3 * k, sizeof(*c->ftd[f]));
		c->ftd[f][0] = k;
		if (fread(c->ftd[f] + 1, sizeof(*c->ftd[f]), 3 * k, fp) !=
		    3 * k)
			return -1;
	}
	return 0;
}

/* "1 name " of function f (index + 1) as fdata writes it (names escaped
 * by functab_put_name's rule), made once per function */
static void
put_func(struct wbuf *w, struct ctx *c, uint32_t f)
{
	const struct bfunc *b = &c->bin.ft.f[f - 1];
	const char *n = c->bolted ? b->filename : b->name, *q;
	char *e;
	size_t len;

	if (c->fnames == NULL)
		c->fnames = xcalloc(c->bin.ft.n + 1, sizeof(*c->fnames));
	if ((e = c->fnames[f - 1]) == NULL) {
		len = strlen(n);
		for (q = n; *q; q++)
			len += *q == ' ' || *q == '\\';
		e = c->fnames[f - 1] = xmalloc(len + 4);
		*e++ = '1';
		*e++ = ' ';
		for (q = n; *q; q++) {
			if (*q == ' ' || *q == '\\')
				*e++ = '\\';
			*e++ = *q;
		}
		*e++ = ' ';
		*e = '\0';
		e = c->fnames[f - 1];
	}
	wb_puts(w, e);
}

static void
put_loc(struct wbuf *w, struct ctx *c, uint32_t f, uint64_t off)
{
	if (f == 0)
		wb_puts(w, "0 [unknown] ");
	else
		put_func(w, c, f);
	wb_hex(w, off);
}

/* "4 name " of a memory line's function or data object: the name as
 * fdata escapes it */
static void
put_mname(struct wbuf *w, const char *n)
{
	wb_puts(w, "4 ");
	functab_put_name(w, n);
	wb_putc(w, ' ');
}

/* the memory lines (DataAggregator::writeAggregatedFile), after the
 * branches: the function by its name as fdata without BAT names it
 * (processMemEvents takes getOneName, BOLTed binary or not) */
static void
write_mem(struct ctx *c, struct wbuf *w)
{
	size_t i;

	for (i = 0; i < c->mem.n; i++) {
		const struct brsum *l = ktab_at(&c->mem, i);

		put_mname(w, c->bin.ft.f[l->fromf - 1].name);
		wb_hex(w, l->fromoff);
		wb_putc(w, ' ');
		put_mname(w, c->dt.o[l->tof - 1]->name);
		wb_hex(w, l->tooff);
		wb_putc(w, ' ');
		wb_dec(w, l->count);
		wb_putc(w, '\n');
	}
}

/* a location of a memory stream, as the pre-aggregated format writes
 * one: bare (the stream's one binary), buildid:hex or X:hex; checked,
 * then *a and *bid (its build-id, NULL for a bare one, "" for X:) */
static void
mem_loc(struct lineio *lr, char *s, size_t n, uint64_t *a, const char **bid)
{
	char *colon = memchr(s, ':', n), *h = colon ? colon + 1 : s, q[80];
	const char *end;
	size_t k, bl;

	if (colon == s || parse_hex64_field(h, &end, a) == -1 || end != s + n)
		lr_errx(lr, "bad location '%s'", vis_str(q, sizeof(q), s, n));
	*bid = NULL;
	if (colon == NULL)
		return;
	bl = (size_t)(colon - s);
	if (bl == 1 && (*s == 'X' || *s == 'x')) {
		*bid = "";
		return;
	}
	for (k = 0; k < bl; k++)
		if (!((s[k] >= '0' && s[k] <= '9') ||
		    (s[k] >= 'a' && s[k] <= 'f') ||
		    (s[k] >= 'A' && s[k] <= 'F')))
			lr_errx(lr, "bad location '%s'",
			    vis_str(q, sizeof(q), s, n));
	*colon = '\0';		/* the build-id, cut in place */
	*bid = s;
}

/* whether a location of build-id bid (NULL: bare, the stream's binary,
 * of build-id sbid if it named one) is in c's binary; its address then
 * made absolute */
static int
mem_ours(const struct ctx *c, const char *bid, const char *sbid, int multi,
    uint64_t *a)
{
	int ours;

	if (bid == NULL)
		/* one binary: its own; several: the one the stream names */
		ours = !multi || (sbid != NULL && strcasecmp(sbid,
		    c->bin.bid) == 0);
	else
		ours = *bid != '\0' && c->bin.bid[0] != '\0' &&
		    strcasecmp(bid, c->bin.bid) == 0;
	if (ours)
		*a += c->bin.base;
	return ours;
}

static void
load_dt(struct ctx *c)
{
	char err[512];

	if (c->dtloaded)
		return;
	if (datatab_load(&c->dt, &c->bin.eo, &c->bin.ft, c->cd, err,
	    sizeof(err)) == -1)
		errx(1, "%s", err);
	c->dtloaded = 1;
}

/* a profpipe-mem stream into each binary's c->mem: each sample's
 * function and data object, as DataAggregator::processMemEvents finds
 * them (a data address in no object of the binary is dropped:
 * --filter-mem-profile).  Read once, whatever the number of binaries
 * (it may be a pipe). */
static void
read_mem(struct ctx *cs, size_t ncs, int multi, const char *path)
{
	struct lineio lr;
	char q[80], *sbid = NULL;
	int first = 1;
	size_t i;

	for (i = 0; i < ncs; i++)
		load_dt(&cs[i]);
	if (lr_open(&lr, path) == -1)
		prog_open_error(path);
	while (lr_next(&lr)) {
		char *p = lr.buf, *f[4];
		size_t len[4];
		uint64_t ip0, addr0, count;
		const char *end, *ibid, *abid;
		int k;

		if (first) {
			first = 0;
			if (strncmp(p, "# profpipe-mem ", 15) != 0)
				lr_errx(&lr, "expected a 'profpipe-mem' stream "
				    "(preagg -M)");
			if (strcmp(p + 15, "1") != 0)
				lr_errx(&lr, "profpipe-mem version '%s': this "
				    "fdatawrite reads version 1",
				    vis_str(q, sizeof(q), p + 15,
				    strlen(p + 15)));
			continue;
		}
		if (strncmp(p, "# buildid=", 10) == 0) {
			/* the binary of the bare locations: with one binary,
			 * it must be that one */
			if (!multi && cs[0].bin.bid[0] != '\0' &&
			    strcasecmp(p + 10, cs[0].bin.bid) != 0)
				lr_errx(&lr, "memory samples of another binary "
				    "(build-id %s; %s has %s)",
				    vis_str(q, sizeof(q), p + 10,
				    strlen(p + 10)), cs[0].bin.eo.path,
				    cs[0].bin.bid);
			free(sbid);
			sbid = xstrdup(p + 10);
			continue;
		}
		if (*p == '#' || *p == '\0')
			continue;
		for (k = 0; k < 4; k++) {
			while (*p == ' ')
				p++;
			f[k] = p;
			while (*p != ' ' && *p != '\0')
				p++;
			len[k] = (size_t)(p - f[k]);
			if (len[k] == 0)
				lr_errx(&lr, "%s", k == 0 ? "empty record" :
				    "memory record: expected 'mem ip address "
				    "count'");
		}
		while (*p == ' ')
			p++;
		if (len[0] != 3 || strncmp(f[0], "mem", 3) != 0)
			lr_errx(&lr, "unknown record '%s'",
			    vis_str(q, sizeof(q), f[0], len[0]));
		if (*p != '\0')
			lr_errx(&lr, "memory record: trailing '%s'",
			    vis_str(q, sizeof(q), p, strlen(p)));
		if (parse_dec64_field(f[3], &end, &count) == -1 ||
		    end != f[3] + len[3] || count == 0)
			lr_errx(&lr, "bad count '%s'",
			    vis_str(q, sizeof(q), f[3], len[3]));
		mem_loc(&lr, f[1], len[1], &ip0, &ibid);
		mem_loc(&lr, f[2], len[2], &addr0, &abid);
		for (i = 0; i < ncs; i++) {
			struct ctx *c = &cs[i];
			const struct bfunc *bf;
			const struct dobj *d;
			uint64_t ip = ip0, addr = addr0;
			int ki, ka;

			ki = mem_ours(c, ibid, sbid, multi, &ip);
			ka = mem_ours(c, abid, sbid, multi, &addr);
			c->nmem += count;
			if (!ki || !ka) {
				c->nmemother += count;
				continue;
			}
			if ((bf = functab_find(&c->bin.ft, ip)) == NULL) {
				c->nmemfunc += count;
				continue;
			}
			if ((d = datatab_find(&c->dt, addr)) == NULL) {
				c->nmemobj += count;
				continue;
			}
			brsum_add(&c->mem, fnum(c, bf), ip - bf->addr,
			    d->idx + 1, addr - d->addr, count, 0);
		}
	}
	free(sbid);
	lr_close(&lr);
}

/* --past-end: batmap's lines of the branches with an end past the end
 * of an input function, read once the stream has ended (batmap writes
 * them before its stream), each checked to be an fdata branch line
 * ("0 [unknown] hex" or "1 name hex", twice, then two decimal counts) */
static char	*pastend;
static size_t	 lpastend;

static void
read_pastend(const char *path)
{
	struct lineio lr;
	struct fdloc l[2];
	uint64_t mis, count;
	char *scratch = NULL;
	const char *why;
	size_t n, cap = 0, capscratch = 0;

	if (lr_open(&lr, path) == -1)
		prog_open_error(path);
	while (lr_next(&lr)) {
		n = strlen(lr.buf);
		xgrow(&scratch, &capscratch, n + 1, 1);
		if ((why = fdline_parse(lr.buf, scratch, l, &mis, &count)) !=
		    NULL)
			lr_errx(&lr, "%s", why);
		xgrow(&pastend, &cap, lpastend + n + 1, 1);
		memcpy(pastend + lpastend, lr.buf, n);
		pastend[lpastend + n] = '\n';
		lpastend += n + 1;
	}
	free(scratch);
	lr_close(&lr);
}

/* the order of a table's records: by their place in the walk */
struct ord {
	uint64_t	pos;
	size_t		i;
};
#define SORT_NAME	sort_ord
#define SORT_TYPE	struct ord
#define SORT_LESS(a, b)	((a)->pos < (b)->pos)
#include "sort.h"

/* the records of t in the order of pos (every place distinct), or NULL
 * (pos NULL: the table's order is the walk's) */
static struct ord *
order(const struct ktab *t, const uint64_t *pos)
{
	struct ord *o;
	size_t i;

	if (pos == NULL)
		return NULL;
	o = xcalloc(t->n + 1, sizeof(*o));
	for (i = 0; i < t->n; i++) {
		o[i].pos = pos[i];
		o[i].i = i;
	}
	sort_ord(o, t->n);
	return o;
}

static void
write_fdata(struct ctx *c, FILE *fp)
{
	struct wbuf w;
	struct ord *o;
	size_t i;

	wb_init(&w, fp, 1 << 16);
	if (c->bolted)
		wb_puts(&w, "boltedcollection\n");
	/* perf2bolt writes memory lines in its LBR mode only; with them,
	 * the profile is that mode's (samples without a branch stack count
	 * for nothing there) */
	if (!c->w.lbr && c->w.n.samples > 0 && !c->withmem) {
		wb_puts(&w, "no_lbr");
		/* as perf script prints the event field, which perf2bolt
		 * copies: the name and a colon */
		for (i = 0; i < c->w.nevents; i++) {
			size_t n = strlen(c->w.events[i]);

			wb_putc(&w, ' ');
			wb_puts(&w, c->w.events[i]);
			if (n == 0 || c->w.events[i][n - 1] != ':')
				wb_putc(&w, ':');
		}
		wb_putc(&w, '\n');
		o = order(&c->samples, c->spos);
		for (i = 0; i < c->samples.n; i++) {
			const struct brsum *l = ktab_at(&c->samples,
			    o != NULL ? o[i].i : i);

			put_loc(&w, c, l->fromf, l->fromoff);
			wb_putc(&w, ' ');
			wb_dec(&w, l->count);
			wb_putc(&w, '\n');
		}
		free(o);
	} else {
		o = order(&c->lines, c->lpos);
		for (i = 0; i < c->lines.n; i++) {
			const struct brsum *l = ktab_at(&c->lines,
			    o != NULL ? o[i].i : i);

			put_loc(&w, c, l->fromf, l->fromoff);
			wb_putc(&w, ' ');
			put_loc(&w, c, l->tof, l->tooff);
			wb_putc(&w, ' ');
			wb_dec(&w, l->mis);
			wb_putc(&w, ' ');
			wb_dec(&w, l->count);
			wb_putc(&w, '\n');
		}
		free(o);
		for (i = 0; i < lpastend; i++)
			wb_putc(&w, pastend[i]);
		write_mem(c, &w);
	}
	wb_free(&w);
}

static const struct pawalk_ops ops = {
	.branch = on_branch, .steps = on_steps, .fallthrough = on_fallthrough,
	.sample = on_sample, .done = on_done, .put = on_put, .get = on_get
};

/* binary path, its functions and graphs, and its walker on reader r */
static void
ctx_open(struct ctx *c, const char *path, struct pa_reader *r, int bolted,
    int literal, enum llvm_rel rel)
{
	char err[512];

	memset(c, 0, sizeof(*c));
	c->bolted = bolted;
	brsum_init(&c->lines);
	brsum_init(&c->samples);
	brsum_init(&c->mem);
	if (boltbin_open(&c->bin, path, 0, err, sizeof(err)) == -1 ||
	    (c->cd = cfgdis_open(&c->bin.eo, &c->bin.ft, err,
	    sizeof(err))) == NULL)
		errx(1, "%s", err);
	cfgdis_set_llvm(c->cd, rel);
	c->ftc = xcalloc(c->bin.ft.n + 1, sizeof(*c->ftc));
	c->ftd = xcalloc(c->bin.ft.n + 1, sizeof(*c->ftd));
	c->w.bin = &c->bin;
	c->w.cd = c->cd;
	c->w.r = r;
	c->w.ops = &ops;
	c->w.arg = c;
	/* the ordinary form repairs batmap's block pairs unless told not
	 * to; fdata takes a pair into a function's first block too */
	c->w.mode = bolted ? PAWALK_BOLTED : literal ? PAWALK_LITERAL :
	    PAWALK_ORDINARY;
	c->w.entry_pairs = 1;
}

static void
ctx_close(struct ctx *c)
{
	if (c->fnames != NULL)
		for (size_t i = 0; i < c->bin.ft.n; i++)
			free(c->fnames[i]);
	free(c->fnames);
	cfgdis_close(c->cd);
	boltbin_close(&c->bin);
	ktab_free(&c->lines);
	ktab_free(&c->samples);
	ktab_free(&c->mem);
	if (c->dtloaded)
		datatab_free(&c->dt);
	pawalk_free(&c->w);
	free(c->ftc);
	free(c->ftd);
	free(c->lpos);
	free(c->spos);
}

/* -v's counts and the warnings of one binary (named when there are
 * several) */
static void
report(struct ctx *c, int verbose, int quiet, int multi)
{
	struct cfgdis_stats sts, *st = &sts;
	char who[600];

	pawalk_stats(&c->w, st);
	if (multi)
		snprintf(who, sizeof(who), "%s: %s", progname, c->bin.eo.path);
	else
		snprintf(who, sizeof(who), "%s", progname);
	if (st->undecodable > 0 && !quiet)
		fprintf(stderr, "%s: %llu functions with instructions %s "
		    "cannot decode: no fall-throughs in them\n", who,
		    (unsigned long long)st->undecodable, cfgdis_decoder(c->cd));
	if (!verbose)
		return;
	fprintf(stderr, "%s: %llu entries, %llu branches (%llu from "
	    "returns, dropped), %llu traces: %llu invalid, %llu out of "
	    "range, %llu in functions without a CFG; %llu lines\n",
	    who, (unsigned long long)c->w.nentries,
	    (unsigned long long)c->w.n.branches,
	    (unsigned long long)c->w.n.returns,
	    (unsigned long long)c->w.n.traces,
	    (unsigned long long)c->w.n.invalid,
	    (unsigned long long)c->w.n.outrange,
	    (unsigned long long)c->w.n.nonsimple,
	    (unsigned long long)(c->w.lbr ? c->lines.n : c->samples.n));
	fprintf(stderr, "%s: %zu functions, relocation mode %s; graphs "
	    "built: %llu simple, %llu non-simple, %llu ignored\n",
	    who, c->bin.ft.n, c->bin.ft.has_relocs ? "on" : "off",
	    (unsigned long long)st->simple,
	    (unsigned long long)st->nonsimple,
	    (unsigned long long)st->ignored);
	if (st->jtcut > 0)
		fprintf(stderr, "%s: %llu jump tables end where another "
		    "function's table begins, though the next entry "
		    "reads as one of theirs\n", who,
		    (unsigned long long)st->jtcut);
	if (c->w.n.samples > 0)
		fprintf(stderr, "%s: %llu samples, %llu outside every "
		    "function\n", who,
		    (unsigned long long)c->w.n.samples,
		    (unsigned long long)c->w.n.sampout);
	if (c->withmem)
		fprintf(stderr, "%s: %llu memory samples: %llu of "
		    "other binaries, %llu outside every function, "
		    "%llu at an address in no data object (dropped); "
		    "%zu memory lines; %zu data objects (%zu holes, "
		    "%zu names hashed)\n", who,
		    (unsigned long long)c->nmem,
		    (unsigned long long)c->nmemother,
		    (unsigned long long)c->nmemfunc,
		    (unsigned long long)c->nmemobj, c->mem.n, c->dt.n,
		    c->dt.nholes, c->dt.nhashed);
}

int
main(int argc, char **argv)
{
	struct ctx *cs;
	char msg[512];
	struct binlist bl;
	struct pa_reader r;
	struct pawalk **ws;
	struct output out;
	const char *outpath = NULL, *dir = NULL, *in, **memfiles = NULL;
	const char *pepath = NULL, *llvm = NULL;
	size_t nmemfiles = 0, i, n;
	int ch, verbose = 0, quiet = 0, literal = 0, translated = 0, bolted = 0, multi;
	int jobs = 0;
	enum llvm_rel rel;
	char err[512];

	prog_init(argc, argv);
	memset(&bl, 0, sizeof(bl));
	while ((ch = prog_opts(argc, argv, &usage)) != -1) {
		switch (ch) {
		case O_BOLTED:
			bolted = 1;
			break;
		case O_TRANSLATED:
			translated = 1;
			break;
		case O_LITERAL:
			literal = 1;
			break;
		case O_PASTEND:
			pepath = optarg;
			break;
		case 'M':
			memfiles = xreallocarray(memfiles, nmemfiles + 1,
			    sizeof(*memfiles));
			memfiles[nmemfiles++] = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'd':
			dir = optarg;
			break;
		case 'j': {
			uint64_t v;

			if (parse_u64(optarg, 10, 256, &v) == -1 || v == 0)
				prog_usage_error("bad process count '%s'",
				    optarg);
			jobs = (int)v;
			break;
		}
		case 'q':
			quiet = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'L':
			llvm = optarg;
			break;
		}
	}
	if (llvmrel_get(llvm, &rel, err, sizeof(err)) == -1)
		prog_usage_error("%s", err);
	argc -= optind;
	argv += optind;
	if (dir != NULL && outpath != NULL)
		prog_usage_error("-o and -d exclude each other: -d writes "
		    "DIR/BINARY.fdata");
	if (dir != NULL && *dir == '\0')
		prog_usage_error("empty -d");
	if (dir == NULL && (argc < 1 || argc > 2))
		prog_usage_error("expected a binary and at most one input");
	if (dir != NULL && argc < 1)
		prog_usage_error("expected binaries (or directories of them)");
	if (bolted + translated + literal > 1)
		prog_usage_error("--bolted, --translated and --literal exclude "
		    "each other");
	/* perf2bolt names a BOLTed binary's memory samples by its own
	 * functions, which batmap does not translate */
	if (pepath != NULL && (!bolted || dir != NULL))
		prog_usage_error("--past-end needs --bolted and one binary");
	if (bolted && nmemfiles > 0)
		prog_usage_error("--mem with --bolted: memory samples of a "
		    "BOLTed binary are not translated");
	if (dir != NULL) {
		/* -d: every operand a binary, the stream on stdin */
		for (i = 0; i < (size_t)argc; i++)
			if (binlist_add(&bl, argv[i], msg, sizeof(msg)) == -1)
				errx(1, "%s", msg);
		in = "-";
	} else {
		if (binlist_add(&bl, argv[0], msg, sizeof(msg)) == -1)
			errx(1, "%s", msg);
		if (bl.dirs)
			prog_usage_error("%s: a directory: give -d for one "
			    "profile per binary", argv[0]);
		in = argc == 2 ? argv[1] : "-";
	}
	n = bl.n;
	for (i = 0; i < n; i++)
		out_input(bl.path[i]);
	out_input(in);
	for (i = 0; i < nmemfiles; i++)
		out_input(memfiles[i]);
	if (pepath != NULL)
		out_input(pepath);
	for (i = 0; i < n; i++) {
		char *p = NULL;

		if (dir != NULL && (p = binlist_outpath(&bl, i, dir, "fdata",
		    msg, sizeof(msg))) == NULL)
			errx(1, "%s", msg);
		out_plan(dir ? p : outpath);
		free(p);
	}
	multi = n > 1;
	cs = xcalloc(n, sizeof(*cs));
	memset(&r, 0, sizeof(r));
	for (i = 0; i < n; i++) {
		ctx_open(&cs[i], bl.path[i], &r, bolted, literal, rel);
		cs[i].withmem = nmemfiles > 0;
	}
	for (i = 0; i < n; i++)
		cfgdis_gather_waiting(cs[i].cd, in);
	if (pa_open(&r, in) == -1) {
		prog_open_error(in);
	}
	/* one pass: each entry to every binary's walker, each keeping
	 * what is in its binary (as separate runs would) */
	ws = xcalloc(n, sizeof(*ws));
	for (i = 0; i < n; i++)
		ws[i] = &cs[i].w;
	if (pawalk_run_par(ws, n, &r, jobs, msg, sizeof(msg)) == -1)
		errx(1, "%s", msg);
	free(ws);
	/* a graph made without the release's disassembler is not BOLT's */
	for (i = 0; i < n; i++)
		if (cfgdis_error(cs[i].cd) != NULL)
			errx(1, "%s", cfgdis_error(cs[i].cd));
	for (i = 0; i < n; i++)
		ft_lines(&cs[i]);
	for (i = 0; i < nmemfiles; i++)
		read_mem(cs, n, multi, memfiles[i]);
	if (pepath != NULL)
		read_pastend(pepath);
	if (dir != NULL && binlist_mkdir(dir, msg, sizeof(msg)) == -1)
		errx(1, "%s", msg);
	for (i = 0; i < n; i++) {
		char *p = NULL;

		if (dir != NULL && (p = binlist_outpath(&bl, i, dir, "fdata",
		    msg, sizeof(msg))) == NULL)
			errx(1, "%s", msg);
		out_open(&out, dir ? p : outpath);
		write_fdata(&cs[i], out.fp);
		out_commit(&out);
		free(p);
	}
	for (i = 0; i < n; i++) {
		report(&cs[i], verbose, quiet, multi);
		ctx_close(&cs[i]);
	}
	pa_close(&r);
	free(cs);
	free(memfiles);
	free(pastend);
	binlist_free(&bl);
	return 0;
}
