/* See COPYING file for copyright and license details. */
/*
 * plan.c: the pipeline perf2bolt's request stands for.
 *
 *   perfdecode perf.data | preagg -b bin | fdatawrite bin > out
 *
 * Several recordings are decoded one after the other into one preagg,
 * which reads each as a recording of its own (/dev/fd/N, no file
 * between them); pre-aggregated input (--pa) goes to the writer as it
 * is, or summed by preagg --merge when there are several.  A BOLTed
 * binary's entries go through batmap to its input binary, whose profile
 * is written as perf2bolt writes it for the BOLTed one (fdatawrite
 * --bolted, yamlwrite --bat).  Each output has its own writer; two or
 * more writers read one stream, which the driver copies to each.
 * Several binaries share the decoding and the aggregation: one preagg
 * with build-id locations, one writer per binary.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2b.h"

int
stage_new(struct pipeline *pl, const char *tool)
{
	struct stage *s;

	xgrow(&pl->st, &pl->cap, pl->n + 1, sizeof(*pl->st));
	s = &pl->st[pl->n];
	memset(s, 0, sizeof(*s));
	s->in = -1;
	s->gate = -1;
	s->port_of = -1;
	stage_arg(pl, (int)pl->n, tool);
	return (int)pl->n++;
}

void
stage_arg(struct pipeline *pl, int i, const char *a)
{
	struct stage *s = &pl->st[i];
	size_t cap = (size_t)s->cap;

	xgrow(&s->argv, &cap, (size_t)s->argc + 2, sizeof(*s->argv));
	s->cap = (int)cap;
	s->argv[s->argc++] = xstrdup(a);
	s->argv[s->argc] = NULL;
}

/* the stdout of producer is an input of stage i, as a /dev/fd/N argument
 * (run.c fills N in) */
void
stage_fdin(struct pipeline *pl, int i, int producer)
{
	struct stage *s = &pl->st[i];

	s->fdin = xreallocarray(s->fdin, (size_t)s->nfdin + 1, sizeof(int));
	s->fdarg = xreallocarray(s->fdarg, (size_t)s->nfdin + 1, sizeof(int));
	s->fdin[s->nfdin] = producer;
	s->fdarg[s->nfdin] = s->argc;
	s->nfdin++;
	stage_arg(pl, i, "/dev/fd/-");
}

static int memport = -1;	/* preagg's memory samples, or -1 */

/* a second output of stage parent, the file of its next argument */
int
stage_port(struct pipeline *pl, int parent, const char *pname)
{
	int i = stage_new(pl, "port");

	pl->st[i].port_of = parent;
	pl->st[i].port_arg = pl->st[parent].argc;
	pl->st[i].pname = pname;
	stage_arg(pl, parent, pname);
	return i;
}

/* the pre-aggregated stream of the request: the stage writing it, or -1
 * when it is the one --pa file, whose name is then *file */
static int
source(const struct request *rq, struct pipeline *pl, const char **file)
{
	char num[32];
	size_t i;
	int p, d, prev = -1;

	*file = NULL;
	if (rq->pa) {
		if (rq->nperfdata == 1) {
			*file = rq->perfdata[0];
			return -1;
		}
		p = stage_new(pl, "preagg");
		stage_arg(pl, p, "--merge");
		for (i = 0; i < rq->nperfdata; i++)
			stage_arg(pl, p, rq->perfdata[i]);
		return p;
	}
	p = stage_new(pl, "preagg");
	for (i = 0; i < rq->nbins; i++) {
		stage_arg(pl, p, "-b");
		stage_arg(pl, p, rq->bins[i].path);
	}
	/* perf2bolt -nl takes every sample's ip; without, branch stacks
	 * only (a sample without one is not a basic sample to it) */
	stage_arg(pl, p, rq->basic ? "--basic" : "--branches");
	if (rq->ignore_bid)
		stage_arg(pl, p, "--ignore-build-id");
	if (rq->pid != 0) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)rq->pid);
		stage_arg(pl, p, "-p");
		stage_arg(pl, p, num);
	}
	if (rq->quiet)
		stage_arg(pl, p, "-q");
	/* perf2bolt-19 writes the memory lines of mem-loads samples into
	 * its fdata, in its branch mode, for the binaries it does not read
	 * through BAT: preagg -M beside the profile, for fdatawrite -M */
	if (!rq->basic && rq->format == FMT_FDATA && !rq->nomem) {
		for (i = 0; i < rq->nbins && rq->bins[i].bat; i++)
			;
		if (i < rq->nbins) {
			char *pn;

			if (asprintf(&pn, rq->multi ? "%s/profpipe.mem" :
			    "%s.mem", rq->out) == -1)
				err(1, NULL);
			stage_arg(pl, p, "-M");
			memport = stage_port(pl, p, pn);
		}
	}
	for (i = 0; i < rq->nperfdata; i++) {
		d = stage_new(pl, "perfdecode");
		if (rq->quiet)
			stage_arg(pl, d, "-q");
		stage_arg(pl, d, rq->perfdata[i]);
		if (strcmp(rq->perfdata[i], "-") == 0)
			pl->st[d].in = -2;	/* the driver's stdin */
		if (rq->nperfdata == 1)
			pl->st[p].in = d;
		else {
			stage_fdin(pl, p, d);
			pl->st[d].gate = prev;
		}
		prev = d;
	}
	return p;
}

/* the stream a writer of binary b reads: a BOLTed binary's translated
 * to its input by batmap (one batmap for all its writers); yaml: YAML
 * is among them, which changes what perf2bolt reads on AArch64, in its
 * fdata too (batmap --yaml, which changes nothing on x86-64: not given
 * there) */
static int
translated(struct pipeline *pl, const struct bin *b, int src,
    const char **file, int yaml)
{
	int t;

	if (!b->bat)
		return src;
	t = stage_new(pl, "batmap");
	if (yaml && b->aarch64)
		stage_arg(pl, t, "--yaml");
	stage_arg(pl, t, b->path);
	stage_arg(pl, t, b->input);
	if (*file != NULL)
		stage_arg(pl, t, *file);
	else
		pl->st[t].in = src;
	*file = NULL;
	return t;
}

/* the branches batmap (stage src) translates past the end of an input
 * function, which its stream cannot name, as fdata lines beside it
 * (batmap --past-end): one port of src, read by each of its writers
 * (fdatawrite and yamlwrite --past-end); AArch64 only, where x86-64's
 * output stays as it was */
static int
pastend_port(struct pipeline *pl, int src, const char *path)
{
	char *pn;
	size_t i;

	for (i = 0; i < pl->n; i++)
		if (pl->st[i].port_of == src && pl->st[i].pname != NULL &&
		    strstr(pl->st[i].pname, ".pastend") != NULL)
			return (int)i;
	if (asprintf(&pn, "%s.pastend", path != NULL &&
	    strcmp(path, "-") != 0 ? path : "profpipe") == -1)
		err(1, NULL);
	stage_arg(pl, src, "--past-end");
	return stage_port(pl, src, pn);
}

/* a writer of one profile of binary b from the stream of stage src (or
 * the file), to path, in format f */
static void
writer(struct pipeline *pl, const struct bin *b, int src, const char *file,
    enum format f, const char *path)
{
	int w;

	if (f == FMT_PREAGG) {
		/* the stream itself, as LLVM main's --profile-format=preagg
		 * writes it (summed and sorted once more when it is a file) */
		if (src >= 0 && pl->st[src].outpath == NULL) {
			pl->st[src].outpath = path;
			return;
		}
		w = stage_new(pl, "preagg");
		stage_arg(pl, w, "--merge");
		if (file != NULL)
			stage_arg(pl, w, file);
		else
			pl->st[w].in = src;
		pl->st[w].outpath = path;
		return;
	}
	if (f == FMT_FDATA) {
		w = stage_new(pl, "fdatawrite");
		if (b->bat)
			stage_arg(pl, w, "--bolted");
		if (b->bat && b->aarch64 && src >= 0) {
			stage_arg(pl, w, "--past-end");
			stage_fdin(pl, w, pastend_port(pl, src, path));
		} else if (memport >= 0) {
			stage_arg(pl, w, "-M");
			stage_fdin(pl, w, memport);
		}
		stage_arg(pl, w, b->bat ? b->input : b->path);
	} else {
		w = stage_new(pl, "yamlwrite");
		if (b->bat) {
			stage_arg(pl, w, "--bat");
			stage_arg(pl, w, b->path);
		}
		if (b->bat && b->aarch64 && src >= 0) {
			stage_arg(pl, w, "--past-end");
			stage_fdin(pl, w, pastend_port(pl, src, path));
		}
		stage_arg(pl, w, b->bat ? b->input : b->path);
	}
	if (file != NULL)
		stage_arg(pl, w, file);
	else
		pl->st[w].in = src;
	pl->st[w].outpath = path;
}

void
plan(const struct request *rq, struct pipeline *pl)
{
	const char *file;
	int src = source(rq, pl, &file);
	size_t i;

	/* the stream of several binaries, with build-id locations: -o is
	 * the stream itself, -w a directory */
	if (rq->multi && rq->format == FMT_PREAGG) {
		writer(pl, &rq->bins[0], src, file, FMT_PREAGG, rq->out);
		for (i = 0; i < rq->nbins && rq->save != NULL; i++) {
			const struct bin *b = &rq->bins[i];
			const char *f = file;
			int t = translated(pl, b, src, &f, 1);

			writer(pl, b, t, f, FMT_YAML, b->wpath);
		}
		return;
	}
	for (i = 0; i < rq->nbins; i++) {
		const struct bin *b = &rq->bins[i];
		const char *f = file;
		int t = rq->format == FMT_PREAGG && rq->save == NULL ? src :
		    translated(pl, b, src, &f, rq->save != NULL ||
		    rq->format == FMT_YAML);

		/* --profile-format=preagg writes the untranslated stream,
		 * as LLVM main writes its traces */
		if (rq->format == FMT_PREAGG)
			writer(pl, b, src, file, FMT_PREAGG,
			    rq->multi ? b->opath : rq->out);
		else
			writer(pl, b, t, f, rq->format,
			    rq->multi ? b->opath : rq->out);
		if (rq->save != NULL)
			writer(pl, b, t, f, FMT_YAML,
			    rq->multi ? b->wpath : rq->save);
	}
}
