/* See COPYING file for copyright and license details. */
/*
 * yamlwrite: a pre-aggregated profile (llvm-bolt --pa) and the binary it
 * was collected on, to the YAML profile perf2bolt-19 --profile-format=yaml
 * writes for the same samples, hashes included (hash.c, from LLVM 19's MC
 * layer through libbolt/llvm/mcx86.cc, made only for the functions written).
 *
 * perf2bolt-19 in this mode (DataAggregator with the CFG built, then
 * YAMLProfileWriter::convert before any pass): doBranch records a taken
 * intra-function branch on its CFG edge (DataReader::recordBranch), an
 * inter-function branch as a call from its source (convertBranchData:
 * the "Count" of a direct call, the CallProfile of an indirect one) and
 * an entry of its target (recordEntry: the function's exec and the
 * entry block's); doTrace adds each fall-through step to its edge.
 * Block counts are nothing more: no inference runs before the writer.
 * The graph is libbolt/cfg/cfgdis.c's, the one fdatawrite uses; the profile
 * on it and its conversion are graph.c's, shared with the BAT path.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"
#include "boltbin.h"
#include "brsum.h"
#include "cfg.h"
#include "pa.h"
#include "pawalk.h"
#include "yamlwrite.h"
#include "binlist.h"
#include "llvmrel.h"

/* options (yamlwrite(1)); the long-only one above 255 */
enum { O_LITERAL = 257, O_HASHFUNC, O_PASTEND };
static const struct prog_opt opts[] = {
	{ "bat", required_argument, 'b', "BOLTED",
	    "the profile was collected on BOLTED, a binary llvm-bolt\n"
	    "--enable-bat made of binary, and translated by batmap:\n"
	    "write what perf2bolt-19 writes on BOLTED, hashes from BAT" },
	{ "past-end", required_argument, O_PASTEND, "FILE",
	    "with --bat: also the lines of FILE (batmap --past-end),\n"
	    "branches the stream cannot name" },
	{ "hash-func", required_argument, O_HASHFUNC, "F",
	    "xxh3 (the default, as perf2bolt-19) or std-hash" },
	LLVMREL_OPT,
	{ "literal", no_argument, O_LITERAL, NULL,
	    "drop a branch from an instruction that is no branch as\n"
	    "perf2bolt --pa does (by default, batmap's pairs of blocks\n"
	    "become the input's edges, as in fdatawrite)" },
	{ "output", required_argument, 'o', "FILE",
	    "write to FILE (default: standard output)" },
	{ "directory", required_argument, 'd', "DIR",
	    "one profile per binary (a directory: its ELF files),\n"
	    "DIR/BINARY.yaml, from one pass over the standard input" },
	{ "quiet", no_argument, 'q', NULL, "no warnings" },
	{ "verbose", no_argument, 'v', NULL,
	    "counts of entries, traces and functions on standard\n"
	    "error" },
	{ NULL, 0, 0, NULL, NULL }
};
static const struct prog_usage usage = {
	"[-qv] [--literal] [--hash-func=f] [--llvm=release] [-o out.yaml]\n"
	" [--bat bolted [--past-end file]] binary [preagg]\n"
	"[-qv] [--literal] [--hash-func=f] [--llvm=release] -d dir "
	"binary|dir... < preagg",
	"Write the YAML profile perf2bolt-19 --profile-format=yaml writes for "
	"a\npre-aggregated profile of binary, BOLT's function and block "
	"hashes included\n(made by the LLVM release's own MC layer).",
	opts
};

struct ctx {
	struct boltbin	 bin;
	struct cfgdis	*cd;
	struct pa_reader r;
	struct pawalk	 w;
	struct ywg_prof	**fp;		/* per function, NULL: no profile */
	int		 *sampled;	/* -nl: per function */
	struct ktab	 calls;
	uint64_t	 nmismatch;	/* branches not on the graph */
	struct ywh	*h;		/* hashes, once a function has them */
	int		 stdhash;	/* --hash-func=std-hash */
	enum llvm_rel	 llvm;		/* --llvm */
};

/* ------------------------------------------------------------------ */


/* ------------------------------------------------------------------ */

static size_t
fidx(const struct ctx *c, const struct bfunc *f)
{
	return (size_t)(f - c->bin.ft.f);
}

/* the graph BOLT profiles, or NULL */
static const struct cfg *
graph(struct ctx *c, size_t fi)
{
	return ywg_graph(c->cd, fi);
}

/* the profile of function fi, made when it first gets one */
static struct ywg_prof *
prof(struct ctx *c, size_t fi)
{
	if (c->fp[fi] == NULL)
		c->fp[fi] = ywg_prof_new(graph(c, fi));
	return c->fp[fi];
}

/* DataAggregator::doBranch (19), on the graph: an intra-function
 * branch on its edge (DataReader::recordBranch), another as a call from
 * its source (convertBranchData) and an entry of its target
 * (recordEntry) */
static void
on_branch(void *arg, const struct bfunc *ff, uint64_t fo,
    const struct bfunc *tf, uint64_t to, uint64_t count, uint64_t mis)
{
	struct ctx *c = arg;

	if (ff == tf && to != 0) {
		if (!ywg_branch(graph(c, fidx(c, ff)), prof(c, fidx(c, ff)),
		    fo, to, count, mis))
			c->nmismatch++;
		return;
	}
	if (ff != NULL) {
		prof(c, fidx(c, ff));
		brsum_add(&c->calls, (uint32_t)fidx(c, ff), fo,
		    tf ? (uint32_t)fidx(c, tf) + 1 : 0, to, count, mis);
	}
	if (tf != NULL)
		ywg_entry(graph(c, fidx(c, tf)), prof(c, fidx(c, tf)), tf->size,
		    to, count);
}

/* doTrace: each fall-through step on its edge */
static void
on_steps(void *arg, const struct bfunc *f, const struct cfg *g, long fb,
    long tb, uint64_t count)
{
	struct ctx *c = arg;
	struct ywg_prof *p = prof(c, fidx(c, f));
	long i;

	for (i = fb; i < tb; i++)
		p->ecnt[ywg_edge(g, (size_t)i, (size_t)i + 1)] += count;
}

static void
on_sample(void *arg, const struct bfunc *f, uint64_t off, uint64_t count)
{
	struct ctx *c = arg;

	(void)off;
	(void)count;
	c->sampled[fidx(c, f)] = 1;
}

/* ------------------------------------------------------------------ */

static int
callcmp(const void *a, const void *b)
{
	const struct ywg_call *x = a, *y = b;

	if (x->ff != y->ff)
		return x->ff < y->ff ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	if (x->tf != y->tf)
		return x->tf < y->tf ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

#define SORT_NAME	sort_calls
#define SORT_TYPE	struct ywg_call
#define SORT_LESS(a, b)	(callcmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

/* a call site's callee as YAMLProfileWriter::setCSIDestination finds it
 * from the instruction's target: fid and entry discriminator */
static void
direct_callee(void *arg, uint64_t target, struct yw_call *yc,
    const char **nm)
{
	struct ctx *c = arg;
	const struct bfunc *f = functab_find(&c->bin.ft, target);
	uint32_t id;

	yc->fid = 0;
	yc->disc = 0;
	*nm = "";
	if (f == NULL)
		return;
	if (target == f->addr) {
		yc->fid = c->bin.ft.f[fidx(c, f)].num;
		*nm = f->name;
		return;
	}
	/* a secondary entry point: BOLT's number for it */
	if ((id = cfgdis_entry_id(c->cd, fidx(c, f), target - f->addr)) > 0) {
		yc->fid = c->bin.ft.f[fidx(c, f)].num;
		yc->disc = id;
		*nm = f->name;
	}
}

/* an indirect call's target: the function */
static void
indirect_callee(void *arg, uint32_t fi, struct yw_call *yc, const char **nm)
{
	struct ctx *c = arg;

	yc->fid = c->bin.ft.f[fi].num;
	yc->disc = 0;
	*nm = c->bin.ft.f[fi].name;
}

/* ------------------------------------------------------------------ */

/* the output and the document's header; the BAT path uses it too */
struct yw *
yw_start(struct output *out, const char *outpath, const struct yw_header *h)
{
	char err[512];
	struct yw *w;

	out_open(out, outpath);
	if ((w = yw_open(out->fp, h, err, sizeof(err))) == NULL) {
		errx(1, "%s", err);
	}
	return w;
}

void
yw_func_out(struct yw *w, const struct yw_func *f)
{
	if (yw_emit_func(w, f) == -1) {
		errx(1, "%s", yw_error(w));
	}
}

void
yw_finish(struct yw *w, struct output *out)
{
	char err[512];

	if (yw_close(w, err, sizeof(err)) == -1) {
		errx(1, "%s", err);
	}
	out_commit(out);
}

/* the hashes of function i on its graph g (bh: its blocks'), LLVM's
 * MC layer started on the first */
static uint64_t
hashes(struct ctx *c, size_t i, const struct cfg *g, uint64_t **bh,
    size_t *capbh)
{
	char err[512];

	if (g == NULL)
		return 0;
	if (c->h == NULL &&
	    (c->h = ywh_open(&c->bin, c->cd, c->llvm, c->stdhash, err,
	    sizeof(err))) == NULL) {
		fprintf(stderr, "%s: %s\n", progname, err);
		exit(1);
	}
	xgrow(bh, capbh, g->nblocks, sizeof(**bh));
	return ywh_func(c->h, i, g, *bh);
}

static void
write_yaml(struct ctx *c, const char *outpath, const char *binpath)
{
	struct yw_header h;
	struct output out;
	struct yw *w;
	struct ywg_call *cs;
	struct ywg_buf bu;
	struct ywg_callees ce;
	size_t i, n = 0, ci = 0, capbh = 0;
	int lbr = c->w.lbr || c->w.n.samples == 0;
	uint64_t *bh = NULL;
	char *evs = NULL;
	size_t evlen = 0;

	memset(&h, 0, sizeof(h));
	memset(&bu, 0, sizeof(bu));
	ce.arg = c;
	ce.direct = direct_callee;
	ce.indirect = indirect_callee;
	h.binary_name = binpath;
	h.build_id = c->bin.bid[0] ? c->bin.bid : "<unknown>";
	h.dfs_order = 0;
	h.hash_func = c->stdhash ? "std-hash" : "xxh3";
	/* profile-flags: those of the functions with a profile and
	 * blocks; none if there is no such function */
	h.sample = -1;
	for (i = 0; i < c->bin.ft.n; i++)
		if ((lbr ? c->fp[i] != NULL : c->sampled[i]) &&
		    graph(c, i) != NULL) {
			h.sample = !lbr;
			break;
		}
	/* profile-events: the events of the profile, comma-separated, as
	 * perf script prints the event field, which perf2bolt copies: the
	 * name and a colon */
	if (!lbr)
		for (i = 0; i < c->w.nevents; i++) {
			size_t l = strlen(c->w.events[i]);

			xgrow(&evs, &evlen, (evs ? strlen(evs) : 0) + l + 3, 1);
			if (i == 0)
				evs[0] = '\0';
			else
				strcat(evs, ",");
			strcat(evs, c->w.events[i]);
			if (l == 0 || c->w.events[i][l - 1] != ':')
				strcat(evs, ":");
		}
	h.events = evs ? evs : "";
	/* the direct writer unless a name written needs libyaml */
	h.plain = 1;
	for (i = 0; i < c->bin.ft.n && h.plain; i++)
		if ((lbr ? c->fp[i] != NULL : c->sampled[i]) &&
		    !yw_plain(c->bin.ft.f[i].name))
			h.plain = 0;
	/* the calls, by function and offset */
	cs = xcalloc(c->calls.n + 1, sizeof(*cs));
	for (i = 0; i < c->calls.n; i++) {
		const struct brsum *b = ktab_at(&c->calls, i);

		cs[n++] = (struct ywg_call){ b->fromoff, b->tooff, b->fromf,
		    b->tof, b->count, b->mis };
	}
	sort_calls(cs, n);
	w = yw_start(&out, outpath, &h);
	for (i = 0; i < c->bin.ft.n; i++) {
		struct yw_func f;
		const struct cfg *g;
		size_t c0;

		if (lbr ? c->fp[i] == NULL : !c->sampled[i])
			continue;
		g = graph(c, i);
		memset(&f, 0, sizeof(f));
		f.name = c->bin.ft.f[i].name;
		f.fid = c->bin.ft.f[i].num;
		f.hash = hashes(c, i, g, &bh, &capbh);
		f.nblocks = g ? (uint32_t)g->nblocks : 0;
		while (ci < n && cs[ci].ff < i)
			ci++;
		c0 = ci;
		while (ci < n && cs[ci].ff == i)
			ci++;
		if (lbr) {
			f.exec = c->fp[i]->exec;
			ywg_convert(g, c->fp[i], cs + c0, ci - c0, &ce,
			    g ? bh : NULL, &bu, &f);
		}
		yw_func_out(w, &f);
	}
	/* a graph made without the release's disassembler is not BOLT's */
	if (cfgdis_error(c->cd) != NULL)
		errx(1, "%s", cfgdis_error(c->cd));
	yw_finish(w, &out);
	free(cs);
	free(evs);
	free(bh);
	ywg_buf_free(&bu);
}

/* ------------------------------------------------------------------ */

struct opts {
	const char	*outpath;
	const char	*dir;		/* -d: one profile per binary */
	struct binlist	 bins;
	const char	*in;
	const char	*bat;		/* --bat: the BOLTed binary */
	const char	*pastend;	/* --past-end */
	int		 stdhash;	/* --hash-func=std-hash */
	enum llvm_rel	 llvm;		/* --llvm */
	int		 verbose, quiet;
	int		 literal;	/* --literal */
};

static void
ctx_open(struct ctx *c, const struct opts *o, const char *path,
    struct pa_reader *r)
{
	static const struct pawalk_ops ops = {
		.branch = on_branch, .steps = on_steps, .sample = on_sample
	};
	char err[512];

	memset(c, 0, sizeof(*c));
	c->stdhash = o->stdhash;
	c->llvm = o->llvm;
	brsum_init(&c->calls);
	if (boltbin_open(&c->bin, path, 0, err, sizeof(err)) == -1 ||
	    (c->cd = cfgdis_open(&c->bin.eo, &c->bin.ft, err,
	    sizeof(err))) == NULL)
		errx(1, "%s", err);
	cfgdis_set_llvm(c->cd, c->llvm);
	c->fp = xcalloc(c->bin.ft.n + 1, sizeof(*c->fp));
	c->sampled = xcalloc(c->bin.ft.n + 1, sizeof(*c->sampled));
	c->w.bin = &c->bin;
	c->w.cd = c->cd;
	c->w.r = r;
	c->w.ops = &ops;
	c->w.arg = c;
	/* batmap's pairs of blocks as the input's edges, as fdatawrite
	 * writes them by default; a pair into a function's first block
	 * stays as given (a recursive call) */
	c->w.mode = o->literal ? PAWALK_LITERAL : PAWALK_ORDINARY;
}

/* the warnings and -v's counts of one binary (named when there are
 * several), then its tables freed */
static void
ctx_close(struct ctx *c, int verbose, int quiet, int multi)
{
	const struct cfgdis_stats *st = cfgdis_stats(c->cd);
	char who[600];
	size_t i;

	if (multi)
		snprintf(who, sizeof(who), "%s: %s", progname, c->bin.eo.path);
	else
		snprintf(who, sizeof(who), "%s", progname);
	if (st->undecodable > 0 && !quiet)
		fprintf(stderr, "%s: %llu functions with instructions %s "
		    "cannot decode: no blocks for them\n", who,
		    (unsigned long long)st->undecodable, cfgdis_decoder(c->cd));
	if (c->h != NULL && ywh_undecoded(c->h) > 0)
		fprintf(stderr, "%s: %llu instructions LLVM cannot decode: "
		    "hashes of their blocks end before them\n", who,
		    (unsigned long long)ywh_undecoded(c->h));
	if (verbose)
		fprintf(stderr, "%s: %llu entries, %llu branches (%llu from "
		    "returns, dropped; %llu not on the graph), %llu traces: "
		    "%llu invalid, %llu out of range, %llu in functions without "
		    "a CFG; %zu calls; %llu samples, %llu outside every "
		    "function\n", who,
		    (unsigned long long)c->w.nentries,
		    (unsigned long long)c->w.n.branches,
		    (unsigned long long)c->w.n.returns,
		    (unsigned long long)c->nmismatch,
		    (unsigned long long)c->w.n.traces,
		    (unsigned long long)c->w.n.invalid,
		    (unsigned long long)c->w.n.outrange,
		    (unsigned long long)c->w.n.nonsimple, c->calls.n,
		    (unsigned long long)c->w.n.samples,
		    (unsigned long long)c->w.n.sampout);
	for (i = 0; i < c->bin.ft.n; i++)
		ywg_prof_free(c->fp[i]);
	free(c->fp);
	free(c->sampled);
	ktab_free(&c->calls);
	ywh_close(c->h);
	pawalk_free(&c->w);
	cfgdis_close(c->cd);
	boltbin_close(&c->bin);
}

/* a binary of at most this much code is read ahead of its profile,
 * whole (tests/large/build-large.sh's program, 1.6 MB of code: about
 * 0.15 s of CPU and 4 MB of peak memory, spent while the stages before
 * this one work); a larger one is read for what the profile touches
 * only, as without a pipe */
#define AHEAD_CODE	((uint64_t)4 << 20)

/*
 * What needs no profile, done while the profile is not there: in
 * relocation mode, each function's graph and hashes, in table order, as
 * long as the standard input is a pipe with nothing to read yet.  In a
 * pipeline (perfdecode | preagg | yamlwrite) the stages before this one
 * work for most of the run and preagg writes only at its end: the graphs
 * and hashes of the functions the profile then names are ready, and the
 * others are dropped unused.  cfgdis and hash.c count what is used, not
 * what is made ahead: warnings and -v say the same.  A file, a pipe with
 * data waiting, a binary without relocations (BOLT's lite mode: its
 * graphs follow the profile) or one over AHEAD_CODE: no work ahead.
 */
static void
ahead(struct ctx *cs, size_t n, const char *in)
{
	struct pollfd p;
	struct stat st;
	uint64_t code;
	size_t k, i;
	char err[512];

	if (strcmp(in, "-") != 0 || fstat(0, &st) == -1 ||
	    !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return;
	p.fd = 0;
	p.events = POLLIN;
	for (k = 0; k < n; k++) {
		struct ctx *c = &cs[k];

		for (i = 0, code = 0; i < c->bin.ft.n; i++)
			code += c->bin.ft.f[i].size;
		if (!c->bin.ft.has_relocs || code > AHEAD_CODE ||
		    poll(&p, 1, 0) != 0)
			continue;
		cfgdis_prepare_ahead(c->cd);
		for (i = 0; i < c->bin.ft.n; i++) {
			const struct cfg *g;

			if (poll(&p, 1, 0) != 0)
				return;
			g = cfgdis_build_ahead(c->cd, i);
			if (g == NULL || g->ignored || g->nocfg ||
			    g->nblocks == 0)
				continue;
			/* LLVM's start-up too; a failure is reported when
			 * a hash is needed */
			if (c->h == NULL && (c->h = ywh_open(&c->bin, c->cd,
			    c->llvm, c->stdhash, err, sizeof(err))) == NULL)
				return;
			ywh_ahead(c->h, i, g);
		}
	}
}

/* any binaries: the profiles on the graphs of cfgdis, from one pass
 * over the input, each entry to every binary's walker, each keeping
 * what is in its binary (as separate runs would) */
static int
run_graph(struct opts *o)
{
	struct ctx *cs;
	struct pa_reader r;
	struct pawalk **ws;
	size_t i, n = o->bins.n;
	int multi = n > 1;
	char err[512];

	cs = xcalloc(n, sizeof(*cs));
	memset(&r, 0, sizeof(r));
	for (i = 0; i < n; i++)
		ctx_open(&cs[i], o, o->bins.path[i], &r);
	ahead(cs, n, o->in);
	if (pa_open(&r, o->in) == -1) {
		prog_open_error(o->in);
	}
	ws = xcalloc(n, sizeof(*ws));
	for (i = 0; i < n; i++)
		ws[i] = &cs[i].w;
	if (pawalk_run_many(ws, n, &r, err, sizeof(err)) == -1)
		errx(1, "%s", err);
	free(ws);
	if (o->dir != NULL && binlist_mkdir(o->dir, err, sizeof(err)) == -1)
		errx(1, "%s", err);
	for (i = 0; i < n; i++) {
		char *p = NULL;

		if (o->dir != NULL && (p = binlist_outpath(&o->bins, i,
		    o->dir, "yaml", err, sizeof(err))) == NULL)
			errx(1, "%s", err);
		write_yaml(&cs[i], p ? p : o->outpath, o->bins.path[i]);
		free(p);
	}
	for (i = 0; i < n; i++)
		ctx_close(&cs[i], o->verbose, o->quiet, multi);
	pa_close(&r);
	free(cs);
	return 0;
}

/* the files read and written: none written over another (out.c) */
static void
files_check(const struct opts *o)
{
	char err[512];
	size_t i;

	for (i = 0; i < o->bins.n; i++)
		out_input(o->bins.path[i]);
	out_input(o->in);
	if (o->bat != NULL)
		out_input(o->bat);
	if (o->pastend != NULL)
		out_input(o->pastend);
	for (i = 0; i < o->bins.n; i++) {
		char *p = NULL;

		if (o->dir != NULL && (p = binlist_outpath(&o->bins, i, o->dir,
		    "yaml", err, sizeof(err))) == NULL)
			errx(1, "%s", err);
		out_plan(o->dir != NULL ? p : o->outpath);
		free(p);
	}
}

int
main(int argc, char **argv)
{
	struct opts o;
	const char *llvm = NULL;
	char err[512];
	int ch;

	prog_init(argc, argv);
	memset(&o, 0, sizeof(o));
	while ((ch = prog_opts(argc, argv, &usage)) != -1) {
		switch (ch) {
		case 'b':
			o.bat = optarg;
			break;
		case 'o':
			o.outpath = optarg;
			break;
		case 'd':
			o.dir = optarg;
			break;
		case 'v':
			o.verbose = 1;
			break;
		case O_LITERAL:
			o.literal = 1;
			break;
		case O_PASTEND:
			o.pastend = optarg;
			break;
		case O_HASHFUNC:
			if (strcmp(optarg, "std-hash") == 0)
				o.stdhash = 1;
			else if (strcmp(optarg, "xxh3") != 0)
				prog_usage_error("--hash-func: \"%s\": expected "
				    "xxh3 or std-hash", optarg);
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'L':
			llvm = optarg;
			break;
		}
	}
	if (llvmrel_get(llvm, &o.llvm, err, sizeof(err)) == -1)
		prog_usage_error("%s", err);
	argc -= optind;
	argv += optind;
	if (o.dir != NULL && o.outpath != NULL)
		prog_usage_error("-o and -d exclude each other: -d writes "
		    "DIR/BINARY.yaml");
	if (o.dir != NULL && *o.dir == '\0')
		prog_usage_error("empty -d");
	if (o.dir != NULL && o.bat != NULL)
		prog_usage_error("--bat profiles one BOLTed binary: not with "
		    "-d");
	if (o.dir == NULL && (argc < 1 || argc > 2))
		prog_usage_error("expected a binary and at most one input");
	if (o.dir != NULL && argc < 1)
		prog_usage_error("expected binaries (or directories of them)");
	if (o.pastend != NULL && o.bat == NULL)
		prog_usage_error("--past-end needs --bat");
	if (o.bat != NULL && o.literal)
		prog_usage_error("--literal is for a profile of binary itself, "
		    "not with --bat");
	if (o.dir != NULL) {
		/* -d: every operand a binary, the stream on stdin */
		for (int i = 0; i < argc; i++)
			if (binlist_add(&o.bins, argv[i], err,
			    sizeof(err)) == -1)
				errx(1, "%s", err);
		o.in = "-";
	} else {
		if (binlist_add(&o.bins, argv[0], err, sizeof(err)) == -1)
			errx(1, "%s", err);
		if (o.bins.dirs)
			prog_usage_error("%s: a directory: give -d for one "
			    "profile per binary", argv[0]);
		o.in = argc == 2 ? argv[1] : "-";
	}
	files_check(&o);
	if (o.bat != NULL) {
		/* bat.c: hashes and blocks from the BOLTed binary's tables */
		yw_bat(o.outpath, o.bat, o.bins.path[0], o.in, o.pastend,
		    o.stdhash, o.llvm, o.verbose);
		binlist_free(&o.bins);
		return 0;
	}
	ch = run_graph(&o);
	binlist_free(&o.bins);
	return ch;
}
