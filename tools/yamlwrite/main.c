/* See COPYING file for copyright and license details. */
/*
 * yamlwrite: a pre-aggregated profile (llvm-bolt --pa) and the binary it
 * was collected on, to the YAML profile perf2bolt-19 --profile-format=yaml
 * writes for the same samples, but for the hashes (0: BOLT computes them
 * over LLVM's internal opcode numbers).
 *
 * perf2bolt-19 in this mode (DataAggregator with the CFG built, then
 * YAMLProfileWriter::convert before any pass): doBranch records a taken
 * intra-function branch on its CFG edge (DataReader::recordBranch), an
 * inter-function branch as a call from its source (convertBranchData:
 * the "Count" of a direct call, the CallProfile of an indirect one) and
 * an entry of its target (recordEntry: the function's exec and the
 * entry block's); doTrace adds each fall-through step to its edge.
 * Block counts are nothing more: no inference runs before the writer.
 * The graph is libcommon/cfgdis.c's, the one fdatawrite uses.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "functab.h"
#include "cfg.h"
#include "pa.h"
#include "pawalk.h"
#include "yamlwrite.h"

static void
usage(void)
{
	printf("usage: %s [-v] [-o out.yaml] [--bat bolted] binary [preagg]\n"
	    "Write the YAML profile perf2bolt-19 --profile-format=yaml writes "
	    "for a\npre-aggregated profile of binary (hashes 0: llvm-bolt "
	    "needs --profile-ignore-hash).\n"
	    "  -b, --bat=BOLTED   the profile was collected on BOLTED, a binary "
	    "llvm-bolt\n"
	    "                     --enable-bat made of binary, and translated by "
	    "batmap:\n"
	    "                     write what perf2bolt-19 writes on BOLTED, "
	    "hashes from BAT\n"
	    "  -o, --output=FILE  write to FILE (default: standard output)\n"
	    "  -v, --verbose      counts of entries, traces and functions on "
	    "standard error\n"
	    "  -h, --help         this help\n"
	    "      --version      the version\n", progname);
	xclose_stdout();
	exit(0);
}

/* the profile of one function, made when it first gets one */
struct fprof {
	uint64_t	 exec;		/* BinaryFunction::ExecutionCount */
	uint64_t	*bexec;		/* per block */
	uint64_t	*ecnt, *emis;	/* per edge: cfg.succs index */
};

/* a call: a branch from function ff at offset off to another function
 * (tf = its index + 1) or to no function (tf 0, to: the address) */
struct call {
	uint64_t	off, to;
	uint32_t	ff, tf;
	uint64_t	cnt, mis;
	int		used;
};

struct calltab {
	struct call	*v;
	size_t		 cap, n;
};

struct ctx {
	struct elfobj	 eo;
	struct functab	 ft;
	struct cfgdis	*cd;
	struct pa_reader r;
	struct pawalk	 w;
	char		 bid[129];
	struct fprof	**fp;		/* per function, NULL: no profile */
	int		 *sampled;	/* -nl: per function */
	struct calltab	 calls;
	const char	**events;
	size_t		 nevents, capevents;
	uint64_t	 nbranches, nreturns, ntraces, ninvalid, noutrange,
			 nnonsimple, nmismatch;
};

/* ------------------------------------------------------------------ */

static size_t
call_slot(const struct calltab *t, uint32_t ff, uint64_t off, uint32_t tf,
    uint64_t to)
{
	return (hash_mix64(off * 31 + ff) ^
	    hash_mix64(to * 131 + tf + 0x9e3779b97f4a7c15ull)) &
	    (t->cap - 1);
}

static void
call_add(struct calltab *t, uint32_t ff, uint64_t off, uint32_t tf,
    uint64_t to, uint64_t cnt, uint64_t mis)
{
	struct call *c;
	size_t j, i;

	if ((t->n + 1) * 2 > t->cap) {
		struct calltab n;

		n.cap = t->cap ? t->cap * 2 : 1024;
		n.v = xcalloc(n.cap, sizeof(*n.v));
		n.n = t->n;
		for (i = 0; i < t->cap; i++) {
			if (!t->v[i].used)
				continue;
			for (j = call_slot(&n, t->v[i].ff, t->v[i].off,
			    t->v[i].tf, t->v[i].to); n.v[j].used;
			    j = (j + 1) & (n.cap - 1))
				;
			n.v[j] = t->v[i];
		}
		free(t->v);
		*t = n;
	}
	for (j = call_slot(t, ff, off, tf, to); t->v[j].used;
	    j = (j + 1) & (t->cap - 1)) {
		c = &t->v[j];
		if (c->ff == ff && c->off == off && c->tf == tf && c->to == to) {
			c->cnt += cnt;
			c->mis += mis;
			return;
		}
	}
	c = &t->v[j];
	c->used = 1;
	c->ff = ff;
	c->off = off;
	c->tf = tf;
	c->to = to;
	c->cnt = cnt;
	c->mis = mis;
	t->n++;
}

/* ------------------------------------------------------------------ */

static size_t
fidx(const struct ctx *c, const struct bfunc *f)
{
	return (size_t)(f - c->ft.f);
}

/* the graph BOLT profiles: none for functions without a CFG; a
 * non-simple function may have one (traces are not recorded in it) */
static const struct cfg *
graph(struct ctx *c, size_t fi)
{
	const struct cfg *g = cfgdis_get(c->cd, fi);

	return g->ignored || g->nocfg || g->nblocks == 0 ? NULL : g;
}

static struct fprof *
prof(struct ctx *c, size_t fi)
{
	struct fprof *p = c->fp[fi];
	const struct cfg *g;

	if (p != NULL)
		return p;
	p = c->fp[fi] = xcalloc(1, sizeof(*p));
	if ((g = graph(c, fi)) != NULL) {
		p->bexec = xcalloc(g->nblocks, sizeof(*p->bexec));
		p->ecnt = xcalloc(g->nsuccs + 1, sizeof(*p->ecnt));
		p->emis = xcalloc(g->nsuccs + 1, sizeof(*p->emis));
	}
	return p;
}

/* the index of edge i -> j in g->succs, or -1 */
static long
edge(const struct cfg *g, size_t i, size_t j)
{
	uint32_t k;

	for (k = 0; k < g->blocks[i].nsucc; k++)
		if (g->succs[g->blocks[i].succ + k] == j)
			return (long)(g->blocks[i].succ + k);
	return -1;
}

/* DataReader::recordBranch (19) on the graph of function fi */
static int
record_branch(struct ctx *c, size_t fi, uint64_t from, uint64_t to,
    uint64_t count, uint64_t mis)
{
	const struct cfg *g = graph(c, fi);
	struct fprof *p = prof(c, fi);
	const struct cfg_site *s;
	long fb, tb, e;
	const struct cfg_block *b;

	if (g == NULL || (fb = cfg_block_at(g, from)) < 0 ||
	    (tb = cfg_block_at(g, to)) < 0)
		return 0;
	if (from == to || g->blocks[fb].nsucc == 0)
		return 1;
	b = &g->blocks[tb];
	if (to != b->start) {
		/* into the NOPs past a block's last instruction: the next
		 * block; the "jcc; jmp" of old fdata: nothing */
		s = cfg_site_at(g, b->last);
		if (to == b->last && s != NULL && s->kind == CFG_SITE_JMP &&
		    !s->tail)
			return 1;
		if (to <= b->last || (size_t)tb + 1 >= g->nblocks)
			return 0;
		tb++;
	}
	/* BOLT keeps the offsets of branches, calls and returns only */
	if ((s = cfg_site_at(g, from)) == NULL)
		return 0;
	if ((e = edge(g, (size_t)fb, (size_t)tb)) < 0) {
		const struct cfg_block *fbb = &g->blocks[fb];
		long ft, e2;

		/* a recursive call or a return from one */
		if ((g->blocks[tb].flags & CFG_ENTRY) &&
		    (s->kind == CFG_SITE_CALL || s->kind == CFG_SITE_ICALL ||
		    (s->kind == CFG_SITE_JMP && s->tail) ||
		    (s->kind == CFG_SITE_JCC && s->tail) ||
		    s->kind == CFG_SITE_IJMP))
			return 1;
		/* through the fall-through successor of a conditional
		 * block that only jumps on */
		if (fbb->nsucc != 2)
			return 0;
		ft = g->succs[fbb->succ + 1];
		if (g->blocks[ft].nsucc != 1 ||
		    (e2 = edge(g, (size_t)ft, (size_t)tb)) < 0)
			return 0;
		p->ecnt[e2] += count;
		if (count)
			p->emis[e2] += mis;
		tb = ft;
		e = edge(g, (size_t)fb, (size_t)tb);
	}
	p->ecnt[e] += count;
	if (count)
		p->emis[e] += mis;
	return 1;
}

/* DataAggregator::recordEntry */
static void
record_entry(struct ctx *c, size_t fi, uint64_t to, uint64_t count)
{
	const struct cfg *g = graph(c, fi);
	struct fprof *p = prof(c, fi);
	long b;

	if (to > c->ft.f[fi].size)
		return;
	if (to == 0) {
		p->exec += count;
		if (g != NULL)
			p->bexec[0] += count;
	} else if (g != NULL && (b = cfg_block_at(g, to)) >= 0 &&
	    g->blocks[b].start == to && (g->blocks[b].flags & CFG_ENTRY))
		p->bexec[b] += count;
}

/* DataAggregator::doBranch (19) */
static void
on_branch(void *arg, int kfrom, uint64_t from, int kto, uint64_t to,
    uint64_t count, uint64_t mis)
{
	struct ctx *c = arg;
	const struct bfunc *ff = kfrom ? functab_find(&c->ft, from) : NULL;
	const struct bfunc *tf = kto ? functab_find(&c->ft, to) : NULL;
	uint64_t fo, to_;

	c->nbranches++;
	if (ff != NULL && cfgdis_is_return(c->cd, from)) {
		c->nreturns++;
		return;
	}
	if (ff == NULL && tf == NULL)
		return;
	fo = ff ? from - ff->addr : (kfrom ? from : 0);
	to_ = tf ? to - tf->addr : (kto ? to : 0);
	if (ff == tf && to_ != 0) {
		if (!record_branch(c, fidx(c, ff), fo, to_, count, mis))
			c->nmismatch++;
		prof(c, fidx(c, ff));
		return;
	}
	if (ff != NULL) {
		prof(c, fidx(c, ff));
		call_add(&c->calls, (uint32_t)fidx(c, ff), fo,
		    tf ? (uint32_t)fidx(c, tf) + 1 : 0, to_, count, mis);
	}
	if (tf != NULL)
		record_entry(c, fidx(c, tf), to_, count);
}

/* DataAggregator::doTrace and getFallthroughsInTrace (19) */
static void
on_trace(void *arg, uint64_t start, uint64_t end, int external,
    uint64_t count)
{
	struct ctx *c = arg;
	const struct bfunc *a = functab_find(&c->ft, start);
	const struct bfunc *z = functab_find(&c->ft, end);
	const struct cfg *g;
	struct fprof *p;
	long fb, tb, i;
	uint64_t fs, fe;

	c->ntraces++;
	if (a == NULL || z == NULL) {
		c->noutrange++;
		return;
	}
	if (a != z) {
		c->ninvalid++;
		return;
	}
	if ((g = graph(c, fidx(c, a))) == NULL || !g->simple) {
		c->nnonsimple++;
		return;
	}
	fs = start - a->addr;
	fe = end - a->addr;
	if (pawalk_trace_blocks(g, fs, fe, external, &fb, &tb) == -1) {
		c->ninvalid++;
		return;
	}
	if (fb == tb)
		return;
	p = prof(c, fidx(c, a));
	for (i = fb; i < tb; i++)
		p->ecnt[edge(g, (size_t)i, (size_t)i + 1)] += count;
}

static void
on_sample(void *arg, uint64_t addr, uint64_t count, uint32_t event)
{
	struct ctx *c = arg;
	const struct bfunc *f = functab_find(&c->ft, addr);

	(void)count;
	(void)event;
	if (f == NULL)
		c->w.nsampout++;
	else
		c->sampled[fidx(c, f)] = 1;
}

static void
on_event(void *arg, const char *name)
{
	struct ctx *c = arg;
	size_t i;

	for (i = 0; i < c->nevents; i++)
		if (strcmp(c->events[i], name) == 0)
			return;
	xgrow(&c->events, &c->capevents, c->nevents + 1, sizeof(*c->events));
	c->events[c->nevents++] = name;
}

/* ------------------------------------------------------------------ */

static int
callcmp(const void *a, const void *b)
{
	const struct call *x = a, *y = b;

	if (x->ff != y->ff)
		return x->ff < y->ff ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	if (x->tf != y->tf)
		return x->tf < y->tf ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

/* a call site's callee as YAMLProfileWriter::setCSIDestination finds it
 * from the instruction's target: fid and entry discriminator */
static void
direct_callee(struct ctx *c, uint64_t target, struct yw_call *yc,
    const char **nm)
{
	const struct bfunc *f = functab_find(&c->ft, target);
	uint32_t id;

	yc->fid = 0;
	yc->disc = 0;
	*nm = "";
	if (f == NULL)
		return;
	if (target == f->addr) {
		yc->fid = c->ft.f[fidx(c, f)].num;
		*nm = f->name;
		return;
	}
	/* a secondary entry point: BOLT's number for it */
	if ((id = cfgdis_entry_id(c->cd, fidx(c, f), target - f->addr)) > 0) {
		yc->fid = c->ft.f[fidx(c, f)].num;
		yc->disc = id;
		*nm = f->name;
	}
}

struct sortcall {
	const char	*name;
	struct yw_call	 c;
};

static int
sortcallcmp(const void *a, const void *b)
{
	const struct sortcall *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	if (r != 0)
		return r;
	return x->c.off < y->c.off ? -1 : x->c.off > y->c.off;
}

/* the model of the whole output, reused from function to function */
struct buf {
	struct yw_block	*blocks;
	size_t		 capblocks;
	struct yw_call	*calls;
	size_t		 capcalls, ncalls;
	struct yw_succ	*succ;
	size_t		 capsucc, nsucc;
	uint64_t	*in;		/* per block: counts of edges into it */
	size_t		 capin;
	struct sortcall	*sc;
	size_t		 capsc;
};

/* YAMLProfileWriter::convert (19) for an LBR profile; cs: the calls of
 * this function, ncs of them, by offset */
static void
convert(struct ctx *c, size_t fi, const struct call *cs, size_t ncs,
    struct buf *bu, struct yw_func *yf)
{
	const struct cfg *g = graph(c, fi);
	const struct fprof *p = c->fp[fi];
	size_t i, k, s, ci = 0;
	uint32_t bi;

	yf->nblk = 0;
	if (g == NULL)
		return;
	xgrow(&bu->in, &bu->capin, g->nblocks, sizeof(*bu->in));
	memset(bu->in, 0, g->nblocks * sizeof(*bu->in));
	for (i = 0; i < g->nblocks; i++)
		for (k = 0; k < g->blocks[i].nsucc; k++)
			bu->in[g->succs[g->blocks[i].succ + k]] +=
			    p->ecnt[g->blocks[i].succ + k];
	xgrow(&bu->blocks, &bu->capblocks, g->nblocks, sizeof(*bu->blocks));
	/* first pass: the calls and successors of every block go into
	 * bu->calls and bu->succ; blocks point into them afterwards */
	bu->ncalls = bu->nsucc = 0;
	for (bi = 0; bi < g->nblocks; bi++) {
		const struct cfg_block *b = &g->blocks[bi];
		struct yw_block *yb = &bu->blocks[yf->nblk];
		size_t c0 = bu->ncalls, s0 = bu->nsucc;
		uint64_t sum = 0;

		memset(yb, 0, sizeof(*yb));
		yb->bid = bi;
		yb->insns = b->ninsns;
		yb->hash = 0;
		yb->exec = p->bexec[bi];
		/* the call sites: calls, tail calls and indirect jumps */
		for (s = 0; s < g->nsites; s++) {
			const struct cfg_site *st = &g->sites[s];
			size_t nsc = 0, m;
			uint64_t cnt = 0, mis = 0;

			if (st->off < b->start || st->off >= b->end)
				continue;
			if (!(st->kind == CFG_SITE_CALL ||
			    st->kind == CFG_SITE_ICALL ||
			    st->kind == CFG_SITE_IJMP ||
			    (st->kind == CFG_SITE_JMP && st->tail) ||
			    (st->kind == CFG_SITE_JCC && st->tail)))
				continue;
			while (ci < ncs && cs[ci].off < st->off)
				ci++;
			if (st->kind == CFG_SITE_ICALL ||
			    st->kind == CFG_SITE_IJMP) {
				/* CallProfile: a target per destination */
				for (m = ci; m < ncs && cs[m].off == st->off;
				    m++) {
					struct sortcall *x;

					xgrow(&bu->sc, &bu->capsc, nsc + 1,
					    sizeof(*bu->sc));
					x = &bu->sc[nsc++];
					memset(x, 0, sizeof(*x));
					x->c.off = (uint32_t)(st->off - b->start);
					x->c.cnt = cs[m].cnt;
					x->c.mis = cs[m].mis;
					x->name = "";
					if (cs[m].tf != 0) {
						x->c.fid = c->ft.f[cs[m].tf - 1].num;
						x->name = c->ft.f[cs[m].tf - 1].name;
					}
				}
			} else {
				for (m = ci; m < ncs && cs[m].off == st->off;
				    m++) {
					cnt += cs[m].cnt;
					mis += cs[m].mis;
				}
				if (cnt == 0)
					continue;
				xgrow(&bu->sc, &bu->capsc, 1, sizeof(*bu->sc));
				memset(&bu->sc[0], 0, sizeof(bu->sc[0]));
				nsc = 1;
				direct_callee(c, st->target, &bu->sc[0].c,
				    &bu->sc[0].name);
				bu->sc[0].c.off = (uint32_t)(st->off - b->start);
				bu->sc[0].c.cnt = cnt;
				/* mispredictions only for conditional tail
				 * calls (CTCMispredCount) */
				bu->sc[0].c.mis = st->kind == CFG_SITE_JCC ?
				    mis : 0;
			}
			if (nsc > 1)
				qsort(bu->sc, nsc, sizeof(*bu->sc),
				    sortcallcmp);
			xgrow(&bu->calls, &bu->capcalls, bu->ncalls + nsc,
			    sizeof(*bu->calls));
			for (m = 0; m < nsc; m++)
				bu->calls[bu->ncalls++] = bu->sc[m].c;
		}
		yb->ncalls = bu->ncalls - c0;
		yb->calls = (struct yw_call *)(uintptr_t)c0;
		for (k = 0; k < b->nsucc; k++)
			sum += p->ecnt[b->succ + k];
		if (yb->ncalls == 0 && !(b->flags & CFG_ENTRY) &&
		    !((b->flags & CFG_LPAD) && yb->exec != 0) && sum == 0 &&
		    bu->in[bi] == 0) {
			bu->ncalls = c0;
			continue;
		}
		xgrow(&bu->succ, &bu->capsucc, bu->nsucc + b->nsucc + 1,
		    sizeof(*bu->succ));
		for (k = 0; k < b->nsucc; k++) {
			struct yw_succ *ys = &bu->succ[bu->nsucc++];

			ys->bid = g->succs[b->succ + k];
			ys->cnt = p->ecnt[b->succ + k];
			ys->mis = p->emis[b->succ + k];
		}
		yb->nsucc = bu->nsucc - s0;
		yb->succ = (struct yw_succ *)(uintptr_t)s0;
		yf->nblk++;
	}
	for (i = 0; i < yf->nblk; i++) {
		bu->blocks[i].calls = bu->calls + (uintptr_t)bu->blocks[i].calls;
		bu->blocks[i].succ = bu->succ + (uintptr_t)bu->blocks[i].succ;
	}
	yf->blocks = bu->blocks;
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
		fprintf(stderr, "%s: %s\n", progname, err);
		exit(1);
	}
	return w;
}

void
yw_func_out(struct yw *w, const struct yw_func *f)
{
	if (yw_emit_func(w, f) == -1) {
		fprintf(stderr, "%s: %s\n", progname, yw_error(w));
		exit(1);
	}
}

void
yw_finish(struct yw *w, struct output *out)
{
	char err[512];

	if (yw_close(w, err, sizeof(err)) == -1) {
		fprintf(stderr, "%s: %s\n", progname, err);
		exit(1);
	}
	out_commit(out);
}

static void
write_yaml(struct ctx *c, const char *outpath, const char *binpath)
{
	struct yw_header h;
	struct output out;
	struct yw *w;
	struct call *cs;
	struct buf bu;
	size_t i, n = 0, ci = 0;
	int lbr = c->w.lbr || c->w.nsamples == 0;
	char *evs = NULL;
	size_t evlen = 0;

	memset(&h, 0, sizeof(h));
	memset(&bu, 0, sizeof(bu));
	h.binary_name = binpath;
	h.build_id = c->bid[0] ? c->bid : "<unknown>";
	h.dfs_order = 0;
	h.hash_func = "xxh3";
	/* profile-flags: those of the functions with a profile and
	 * blocks; none if there is no such function */
	h.sample = -1;
	for (i = 0; i < c->ft.n; i++)
		if ((lbr ? c->fp[i] != NULL : c->sampled[i]) &&
		    graph(c, i) != NULL) {
			h.sample = !lbr;
			break;
		}
	/* profile-events: the events of the profile, comma-separated, as
	 * perf script prints the event field, which perf2bolt copies: the
	 * name and a colon */
	if (!lbr)
		for (i = 0; i < c->nevents; i++) {
			size_t l = strlen(c->events[i]);

			xgrow(&evs, &evlen, (evs ? strlen(evs) : 0) + l + 3, 1);
			if (i == 0)
				evs[0] = '\0';
			else
				strcat(evs, ",");
			strcat(evs, c->events[i]);
			if (l == 0 || c->events[i][l - 1] != ':')
				strcat(evs, ":");
		}
	h.events = evs ? evs : "";
	/* the calls, by function and offset */
	cs = xcalloc(c->calls.n + 1, sizeof(*cs));
	for (i = 0; i < c->calls.cap; i++)
		if (c->calls.v[i].used)
			cs[n++] = c->calls.v[i];
	qsort(cs, n, sizeof(*cs), callcmp);
	w = yw_start(&out, outpath, &h);
	for (i = 0; i < c->ft.n; i++) {
		struct yw_func f;
		const struct cfg *g;
		size_t c0;

		if (lbr ? c->fp[i] == NULL : !c->sampled[i])
			continue;
		g = graph(c, i);
		memset(&f, 0, sizeof(f));
		f.name = c->ft.f[i].name;
		f.fid = c->ft.f[i].num;
		f.hash = 0;
		f.nblocks = g ? (uint32_t)g->nblocks : 0;
		while (ci < n && cs[ci].ff < i)
			ci++;
		c0 = ci;
		while (ci < n && cs[ci].ff == i)
			ci++;
		if (lbr) {
			f.exec = c->fp[i]->exec;
			convert(c, i, cs + c0, ci - c0, &bu, &f);
		}
		yw_func_out(w, &f);
	}
	yw_finish(w, &out);
	free(cs);
	free(evs);
	free(bu.blocks);
	free(bu.calls);
	free(bu.succ);
	free(bu.in);
	free(bu.sc);
}

/* ------------------------------------------------------------------ */

struct opts {
	const char	*outpath;
	const char	*bin;
	const char	*in;
	const char	*bat;		/* --bat: the BOLTed binary */
	int		 verbose;
};

/* any binary: the profile on the graphs of cfgdis */
static int
run_graph(const struct opts *o)
{
	static const struct pawalk_ops ops = {
		on_branch, on_trace, on_sample, on_event
	};
	struct ctx c;
	struct pa_entry e;
	char err[512];
	size_t i;
	const struct cfgdis_stats *st;

	memset(&c, 0, sizeof(c));
	if (elfobj_open(&c.eo, o->bin, err, sizeof(err)) == -1 ||
	    functab_load(&c.ft, &c.eo, err, sizeof(err)) == -1 ||
	    (c.cd = cfgdis_open(&c.eo, &c.ft, err, sizeof(err))) == NULL) {
		fprintf(stderr, "%s: %s\n", progname, err);
		exit(1);
	}
	if (c.eo.buildid_len > 0)
		hex_encode(c.bid, c.eo.buildid, c.eo.buildid_len);
	c.fp = xcalloc(c.ft.n + 1, sizeof(*c.fp));
	c.sampled = xcalloc(c.ft.n + 1, sizeof(*c.sampled));
	c.w.ft = &c.ft;
	c.w.r = &c.r;
	c.w.bid = c.bid;
	c.w.base = c.eo.type == 3 /* ET_DYN */ ? elfobj_base(&c.eo) : 0;
	c.w.ops = &ops;
	c.w.arg = &c;
	/* the code is read before the input: in a pipeline, while the
	 * stages before this one still work */
	cfgdis_prepare(c.cd);
	if (pa_open(&c.r, o->in) == -1) {
		fprintf(stderr, "%s: %s: %s\n", progname,
		    strcmp(o->in, "-") == 0 ? "<stdin>" : o->in,
		    strerror(errno));
		exit(1);
	}
	while (pa_next(&c.r, &e))
		pawalk_entry(&c.w, &e);
	write_yaml(&c, o->outpath, o->bin);
	st = cfgdis_stats(c.cd);
	if (st->undecodable > 0)
		fprintf(stderr, "%s: %llu functions with instructions Capstone "
		    "cannot decode: no blocks for them\n", progname,
		    (unsigned long long)st->undecodable);
	if (o->verbose)
		fprintf(stderr, "%s: %llu entries, %llu branches (%llu from "
		    "returns, dropped; %llu not on the graph), %llu traces: "
		    "%llu invalid, %llu out of range, %llu in functions without "
		    "a CFG; %zu calls; %llu samples, %llu outside every "
		    "function\n", progname,
		    (unsigned long long)c.w.nentries,
		    (unsigned long long)c.nbranches,
		    (unsigned long long)c.nreturns,
		    (unsigned long long)c.nmismatch,
		    (unsigned long long)c.ntraces,
		    (unsigned long long)c.ninvalid,
		    (unsigned long long)c.noutrange,
		    (unsigned long long)c.nnonsimple, c.calls.n,
		    (unsigned long long)c.w.nsamples,
		    (unsigned long long)c.w.nsampout);
	pa_close(&c.r);
	for (i = 0; i < c.ft.n; i++)
		if (c.fp[i] != NULL) {
			free(c.fp[i]->bexec);
			free(c.fp[i]->ecnt);
			free(c.fp[i]->emis);
			free(c.fp[i]);
		}
	free(c.fp);
	free(c.sampled);
	free(c.calls.v);
	free(c.events);
	cfgdis_close(c.cd);
	functab_free(&c.ft);
	elfobj_close(&c.eo);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "bat",	required_argument, NULL, 'b' },
		{ "output",	required_argument, NULL, 'o' },
		{ "verbose",	no_argument,	   NULL, 'v' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ "version",	no_argument,	   NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct opts o;
	int ch;

	prog_init(argc, argv);
	memset(&o, 0, sizeof(o));
	while ((ch = getopt_long(argc, argv, ":b:o:vh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'b':
			o.bat = optarg;
			break;
		case 'o':
			o.outpath = optarg;
			break;
		case 'v':
			o.verbose = 1;
			break;
		case 'h':
			usage();
			break;
		case 'V':
			prog_version();
			break;
		default:
			prog_option_error(ch, longopts, argv);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || argc > 2)
		prog_usage_error("expected a binary and at most one input");
	o.bin = argv[0];
	o.in = argc == 2 ? argv[1] : "-";
	if (o.bat != NULL) {
		/* bat.c: hashes and blocks from the BOLTed binary's tables */
		yw_bat(o.outpath, o.bat, o.bin, o.in, o.verbose);
		return 0;
	}
	return run_graph(&o);
}
