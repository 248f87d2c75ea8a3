/* See COPYING file for copyright and license details. */
/*
 * density.c: heatmap --density, the lines perf2bolt-22 --show-density
 * prints (BinaryPasses.cpp, PrintProgramStats::runOnFunctions), from the
 * same pre-aggregated profile.
 *
 * A function's density is the bytes its traces ran through
 * (DataAggregator::doTrace adds count x (end - start) for a trace with
 * both ends in one function, before it checks the trace against the
 * graph; doBasicSample count x the size of the sample's block) over
 * its size as BOLT sees it; its sample count is its branch profile's
 * executed branches (every taken branch from it and every fall-through
 * step in it, FuncBranchData::getNumExecutedBranches) or, of a basic
 * profile, its samples.  Over the simple functions with a profile and
 * executed bytes (perf2bolt-22 leaves out a function no trace ran
 * through, branches from it or not: found by experiment, as the release
 * sources we could read do not say why), PLT entries aside, sorted by
 * density, the density reached when 99% of the
 * samples are summed is the profile's; below 60, BOLT asks for 60 /
 * density times more samples.  The branches and fall-through steps come
 * from libbolt's walk (pawalk.c), the graphs from cfgdis.c.
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heatmap.h"
#include "boltbin.h"
#include "cfg.h"
#include "pa.h"
#include "pawalk.h"

void	 density_run(const char *binpath, const char *in, FILE *fp,
	    int verbose);

#define CUTOFF_HOT	990000		/* --profile-density-cutoff-hot */
#define THRESHOLD	60.0		/* --profile-density-threshold */

struct dctx {
	struct boltbin	 bin;
	struct cfgdis	*cd;
	uint64_t	*raw;		/* executed branches (LBR) */
	uint64_t	*bytes;		/* SampleCountInBytes (LBR) */
	uint64_t	*bsamples;	/* basic samples */
	uint64_t	*bbytes;	/* their bytes */
	uint8_t		*has;		/* a branch profile */
	uint8_t		*hasb;		/* a basic profile */
};

static size_t
fidx(const struct dctx *c, const struct bfunc *f)
{
	return (size_t)(f - c->bin.ft.f);
}

static void
on_branch(void *arg, const struct bfunc *ff, uint64_t fo,
    const struct bfunc *tf, uint64_t to, uint64_t count, uint64_t mis)
{
	struct dctx *c = arg;

	(void)fo;
	(void)to;
	(void)mis;
	if (ff != NULL) {
		c->has[fidx(c, ff)] = 1;
		c->raw[fidx(c, ff)] += count;
	}
	if (tf != NULL)
		c->has[fidx(c, tf)] = 1;
}

static void
on_steps(void *arg, const struct bfunc *f, const struct cfg *g, long fb,
    long tb, uint64_t count)
{
	struct dctx *c = arg;

	(void)g;
	c->has[fidx(c, f)] = 1;
	c->raw[fidx(c, f)] += count * (uint64_t)(tb - fb);
}

static void
on_trace(void *arg, const struct bfunc *f, uint64_t s, uint64_t e,
    uint64_t count)
{
	struct dctx *c = arg;

	c->bytes[fidx(c, f)] += count * (e - s);	/* wraps as BOLT's */
}

static void
on_fallthrough(void *arg, const struct bfunc *f, uint64_t fs, uint64_t fe,
    uint64_t count)
{
	(void)arg;
	(void)f;
	(void)fs;
	(void)fe;
	(void)count;
}

/* doBasicSample: the size of the sample's block, when the function has
 * a graph (only simple ones count here) */
static void
on_sample(void *arg, const struct bfunc *f, uint64_t off, uint64_t count)
{
	struct dctx *c = arg;
	size_t i = fidx(c, f);
	const struct cfg *g = cfgdis_get(c->cd, i);
	long b = g != NULL && g->simple ? cfg_block_at(g, off) : -1;

	c->hasb[i] = 1;
	c->bsamples[i] += count;
	if (b >= 0)
		c->bbytes[i] += count *
		    (g->blocks[b].end - g->blocks[b].start);
}

static const struct pawalk_ops ops = {
	.branch = on_branch, .steps = on_steps, .trace = on_trace,
	.fallthrough = on_fallthrough, .sample = on_sample
};

struct dens {
	double		 d;
	uint64_t	 count;
};

#define SORT_NAME	sort_dens
#define SORT_TYPE	struct dens
#define SORT_LESS(a, b)	((a)->d > (b)->d || \
	((a)->d == (b)->d && (a)->count < (b)->count))
#include "sort.h"

void
density_run(const char *binpath, const char *in, FILE *fp, int verbose)
{
	struct dctx c;
	struct pa_reader r;
	struct pawalk w;
	struct pawalk *ws[1];
	struct dens *v;
	uint64_t total = 0, acc = 0, *raw, *bytes;
	uint8_t *has;
	double density = 0.0;
	size_t n, i, k = 0;
	char err[512];

	memset(&c, 0, sizeof(c));
	if (boltbin_open(&c.bin, binpath, FT_ALLOW_STRIPPED, err,
	    sizeof(err)) == -1 ||
	    (c.cd = cfgdis_open(&c.bin.eo, &c.bin.ft, err, sizeof(err))) == NULL)
		errx(1, "%s", err);
	n = c.bin.ft.n;
	c.raw = xcalloc(n + 1, sizeof(*c.raw));
	c.bytes = xcalloc(n + 1, sizeof(*c.bytes));
	c.bsamples = xcalloc(n + 1, sizeof(*c.bsamples));
	c.bbytes = xcalloc(n + 1, sizeof(*c.bbytes));
	c.has = xcalloc(n + 1, 1);
	c.hasb = xcalloc(n + 1, 1);
	memset(&r, 0, sizeof(r));
	if (pa_open(&r, in) == -1)
		prog_open_error(in);
	memset(&w, 0, sizeof(w));
	w.bin = &c.bin;
	w.cd = c.cd;
	w.r = &r;
	w.ops = &ops;
	w.arg = &c;
	w.mode = PAWALK_LITERAL;	/* as perf2bolt --pa reads branches */
	ws[0] = &w;
	if (pawalk_run_many(ws, 1, &r, err, sizeof(err)) == -1)
		errx(1, "%s", err);
	/* the profile is a branch profile when the stream has branches
	 * (perf2bolt reads S entries only in its basic mode) */
	raw = w.lbr ? c.raw : c.bsamples;
	bytes = w.lbr ? c.bytes : c.bbytes;
	has = w.lbr ? c.has : c.hasb;
	v = xreallocarray(NULL, n + 1, sizeof(*v));
	for (i = 0; i < n; i++) {
		const struct bfunc *f = &c.bin.ft.f[i];
		const struct cfg *g;

		/* a function no trace ran through is not counted, nor are its
		 * samples (perf2bolt-22 reads so, whatever its branches:
		 * tests/65-heatmap.bats, "density: no executed bytes") */
		if (!has[i] || bytes[i] == 0 || (f->flags & (BF_PLT | BF_PSEUDO)))
			continue;
		if ((f->flags & BF_NONSIMPLE) ||
		    (g = cfgdis_get(c.cd, i)) == NULL || !g->simple)
			continue;
		total += raw[i];
		if (verbose)
			fprintf(stderr, "%s %" PRIu64 " %" PRIu64 " %" PRIu64
			    "\n", f->name, f->size, bytes[i], raw[i]);
		v[k++] = (struct dens){ 1.0 * (double)bytes[i] /
		    (double)f->size, raw[i] };
	}
	sort_dens(v, k);
	/* the cut-off in integers: perf2bolt-22 stops at the function
	 * that brings the sum to total x 990000 / 1000000 rounded down
	 * (one sample of one function reaches 0 at once: "the output
	 * profile is empty"), where the float of the sources read would
	 * take it */
	for (i = 0; i < k && acc < total * CUTOFF_HOT / 1000000; i++) {
		acc += v[i].count;
		density = v[i].d;
	}
	if (density == 0.0)
		fputs("BOLT-WARNING: the output profile is empty or the "
		    "--profile-density-cutoff-hot option is set too low. "
		    "Please check your command.\n", fp);
	else if (density < THRESHOLD)
		fprintf(fp, "BOLT-WARNING: BOLT is estimated to optimize "
		    "better with %.1fx more samples. Please consider "
		    "increasing sampling rate or profiling for longer "
		    "duration to get more samples.\n", THRESHOLD / density);
	fprintf(fp, "BOLT-INFO: Functions with density >= %.1f account for "
	    "%.2f%% total sample counts.\n", density,
	    (double)CUTOFF_HOT / 10000);
	free(v);
	pawalk_free(&w);
	pa_close(&r);
	cfgdis_close(c.cd);
	boltbin_close(&c.bin);
	free(c.raw);
	free(c.bytes);
	free(c.bsamples);
	free(c.bbytes);
	free(c.has);
	free(c.hasb);
}
