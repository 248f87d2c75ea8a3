/* See COPYING file for copyright and license details. */
/*
 * pawalk.c: a pre-aggregated entry cut into DataAggregator's branch and
 * trace, and each on the functions and graphs of the binary (pawalk.h).
 * The rules are those fdatawrite was checked with against perf2bolt-19;
 * fdatawrite and yamlwrite both walk entries here.
 */
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"
#include "pool.h"
#include "boltbin.h"
#include "pawalk.h"
#include "cfg.h"

/* the stream is one perf2bolt-19 --pa reads (known at its end) */
#define LEGACY(w)	((w)->ended && !(w)->current)

/* a location as an address of the binary, or 0 if it is elsewhere: in
 * the current form (struct pawalk), X: and other binaries' build-ids lie
 * elsewhere; perf2bolt-19 --pa takes every location for its address
 * (parseLocationOrOffset keeps the offset, processPreAggregated looks it
 * up whatever came before the colon) */
static int
loc_addr(const struct pawalk *w, const struct pa_loc *l, uint64_t *a)
{
	if (l->obj != PA_OBJ_SELF && !LEGACY(w)) {
		const char *b;

		if (l->obj == PA_OBJ_X)
			return 0;
		b = pa_buildid(w->r, l->obj);
		if (b == NULL || w->bin->bid[0] == '\0' ||
		    strcmp(b, w->bin->bid) != 0)
			return 0;
	}
	*a = l->addr + w->bin->base;
	return 1;
}

/* does this process walk the parts of f (NULL: none) */
static int
ours(const struct pawalk *w, const struct bfunc *f)
{
	return w->own == NULL ||
	    w->own[f != NULL ? (size_t)(f - w->bin->ft.f) : w->bin->ft.n] ==
	    w->me;
}

/* the first walk of pawalk_run: f's graph will be asked for */
static void
mark(struct pawalk *w, const struct bfunc *f)
{
	if (f != NULL) {
		cfgdis_need(w->cd, (size_t)(f - w->bin->ft.f));
		if (w->last != NULL)
			w->last[f - w->bin->ft.f] = (uint32_t)w->cur + 1;
	}
}

/* a branch from offset fo of f (to offset to of t) that batmap wrote
 * from an instruction that is no branch, in the ordinary form: from the
 * input branch llvm-bolt reads as it reads the boltedcollection line
 * (cfgord.c); fo if there is none */
static uint64_t
ordinary_source(struct pawalk *w, const struct bfunc *f, uint64_t fo,
    const struct bfunc *t, uint64_t to)
{
	const struct cfg *g;
	uint64_t src;

	if (f == t ? to == 0 && !w->entry_pairs : t == NULL || to != 0)
		return fo;
	g = cfgdis_get(w->cd, (size_t)(f - w->bin->ft.f));
	src = f == t ? cfg_pair_source(g, f->addr, fo, to) :
	    cfg_tail_source(g, fo, t->addr);
	return src != UINT64_MAX ? src : fo;
}

/* DataAggregator::doBranch (19); kfrom/kto: whether from/to are
 * addresses of the binary */
static void
do_branch(struct pawalk *w, int kfrom, uint64_t from, int kto, uint64_t to,
    uint64_t count, uint64_t mis)
{
	const struct bfunc *ff = kfrom ? functab_find(&w->bin->ft, from) :
	    NULL;
	const struct bfunc *tf = kto ? functab_find(&w->bin->ft, to) : NULL;
	uint64_t fo, to_;

	if (w->marking) {
		mark(w, ff);
		mark(w, tf);
		/* is_return and ordinary_source may ask for ff's graph */
		w->mayget |= ff != NULL && w->mode != PAWALK_BOLTED;
		return;
	}
	if (!ours(w, ff))
		return;
	w->n.branches++;
	if (ff == NULL && tf == NULL)
		return;
	/* --bolted: batmap dropped the returns of the BOLTed binary, where
	 * perf2bolt looks; a branch BOLT added after a return (a jump to a
	 * cold block) translates to the input's return, and is kept */
	if (ff != NULL && w->mode != PAWALK_BOLTED &&
	    cfgdis_is_return(w->cd, from)) {
		w->n.returns++;
		return;
	}
	fo = ff ? from - ff->addr : (kfrom ? from : 0);
	to_ = tf ? to - tf->addr : (kto ? to : 0);
	if (ff != NULL && w->mode == PAWALK_ORDINARY)
		fo = ordinary_source(w, ff, fo, tf, to_);
	w->ops->branch(w->arg, ff, fo, tf, to_, count, mis);
}

/* DataAggregator::doTrace and getFallthroughsInTrace (19): the
 * fall-through from s to e; external: the trace's branch came from
 * outside the function (call continuation applies) */
static void
do_trace(struct pawalk *w, uint64_t s, uint64_t e, int external,
    uint64_t count)
{
	const struct bfunc *a = functab_find(&w->bin->ft, s),
	    *z = functab_find(&w->bin->ft, e);
	const struct cfg *g;
	long fb, tb;

	if (w->marking) {
		if (w->mode != PAWALK_BOLTED) {
			mark(w, a);
			mark(w, z);
			w->mayget |= a != NULL && a == z;
		}
		return;
	}
	if (!ours(w, a))
		return;
	w->n.traces++;
	if (a == NULL || z == NULL) {
		w->n.outrange++;
		return;
	}
	if (a != z) {
		w->n.invalid++;
		return;
	}
	if (w->ops->trace != NULL)
		w->ops->trace(w->arg, a, s, e, count);
	/* --bolted: batmap has cut the trace into the input's blocks */
	if (w->mode == PAWALK_BOLTED) {
		w->ops->fallthrough(w->arg, a, s - a->addr, e - a->addr, count);
		return;
	}
	g = cfgdis_get(w->cd, (size_t)(a - w->bin->ft.f));
	if (!g->simple) {
		w->n.nonsimple++;
		return;
	}
	if (pawalk_trace_blocks(g, s - a->addr, e - a->addr, external, &fb,
	    &tb) == -1) {
		w->n.invalid++;
		return;
	}
	if (fb < tb)
		w->ops->steps(w->arg, a, g, fb, tb, count);
}

static void
do_event(struct pawalk *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->nevents; i++)
		if (strcmp(w->events[i], name) == 0)
			return;
	xgrow(&w->events, &w->capevents, w->nevents + 1, sizeof(*w->events));
	w->events[w->nevents++] = name;
}

/* extorigin: 1 external (f, r), 0 internal (F), -1 from the branch
 * source kfrom/from (T, R): Intern when it lies in the function of the
 * fall-through's start, else Extern (parseLBRSample) */
static void
trace(struct pawalk *w, int kfrom, uint64_t from, int extorigin, uint64_t s,
    uint64_t e, uint64_t count)
{
	int external;

	w->pos |= 1;
	if (extorigin >= 0)
		external = extorigin;
	else if (!kfrom)
		external = 1;
	else {
		const struct bfunc *bf = functab_find(&w->bin->ft, from);
		const struct bfunc *sf = functab_find(&w->bin->ft, s);

		external = bf == NULL || bf != sf ||
		    from - bf->addr >= bf->size;
	}
	do_trace(w, s, e, external, count);
}

/* does a B, F or f entry read differently in the two forms: a location
 * with X: or a build-id, or (B) an end outside every function, whose
 * offset is its address or 0 */
static int
form_dependent(const struct pawalk *w, const struct pa_entry *e)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (e->loc[i].obj != PA_OBJ_SELF)
			return 1;
		if (e->type == PA_B && functab_find(&w->bin->ft,
		    e->loc[i].addr + w->bin->base) == NULL)
			return 1;
	}
	return 0;
}

static void
walk_entry(struct pawalk *w, const struct pa_entry *e)
{
	struct pa_parts p;
	uint64_t a0 = 0, a1 = 0, s, t;
	int k0 = 0, k1;

	w->pos = 2 * w->nwalked++;
	switch (e->type) {
	case PA_E:
		do_event(w, pa_event(w->r, e->event));
		return;
	case PA_S: {
		const struct bfunc *f = NULL;

		if (loc_addr(w, &e->loc[0], &a0))
			f = functab_find(&w->bin->ft, a0);
		if (!ours(w, f))
			return;
		w->n.samples++;
		if (f == NULL) {
			w->n.sampout++;
			return;
		}
		if (w->marking)
			mark(w, f);
		else
			w->ops->sample(w->arg, f, a0 - f->addr, e->count);
		return;
	}
	default:
		break;
	}
	pa_split(e, &p);
	if (p.from != NULL) {
		k0 = loc_addr(w, p.from, &a0);
		k1 = loc_addr(w, p.to, &a1);
		if (e->type == PA_B && LEGACY(w))
			/* perf2bolt-19 --pa: an end outside every function
			 * written with its address */
			do_branch(w, k0, a0, k1, a1, e->count, p.mis);
		else if (!(p.ret && k0 && p.from->addr == 0)) {
			/* an end outside every function is 0, as perf2bolt
			 * -p writes it; a return from 0 is none */
			const struct bfunc *ff = k0 ?
			    functab_find(&w->bin->ft, a0) : NULL;
			const struct bfunc *tf = k1 ?
			    functab_find(&w->bin->ft, a1) : NULL;

			do_branch(w, ff != NULL, ff ? a0 : 0, tf != NULL,
			    tf ? a1 : 0, e->count, p.mis);
		}
	}
	if (p.fs == NULL || !loc_addr(w, p.fs, &s) ||
	    !loc_addr(w, p.fe, &t))
		return;
	if (p.origin == PA_ORIG_INTERNAL)
		trace(w, 0, 0, 0, s, t, e->count);
	else if (p.origin != PA_ORIG_BRANCH ||
	    (p.ret && p.from->addr == 0))
		trace(w, 0, 0, 1, s, t, e->count);
	else
		trace(w, k0, a0, -1, s, t, e->count);
}

void
pawalk_entry(struct pawalk *w, const struct pa_entry *e)
{
	w->nentries++;
	switch (e->type) {
	case PA_B:
	case PA_F:
	case PA_f:
		w->lbr = 1;
		if (!w->ended && form_dependent(w, e)) {
			xgrow(&w->held, &w->capheld, w->nheld + 1,
			    sizeof(*w->held));
			w->held[w->nheld++] = *e;
			return;
		}
		break;
	case PA_T:
	case PA_R:
	case PA_r:
		w->lbr = 1;
		/* FALLTHROUGH */
	default:
		w->current = 1;
		break;
	}
	walk_entry(w, e);
}

void
pawalk_end(struct pawalk *w)
{
	size_t i;

	if (w->ended)
		return;
	w->ended = 1;
	for (i = 0; i < w->nheld; i++)
		walk_entry(w, &w->held[i]);
	free(w->held);
	w->held = NULL;
	w->nheld = w->capheld = 0;
}

/* with several binaries, a bare address names none of them: the stream
 * must carry build-id locations (preagg with several -b writes them) */
static int
check_located(struct pa_reader *r, const struct pa_entry *e)
{
	int k;

	for (k = 0; k < e->nloc; k++)
		if (e->loc[k].obj == PA_OBJ_SELF &&
		    e->loc[k].addr < PA_FT_EXTERNAL_RETURN)
			return failf(r->err, sizeof(r->err), "a bare address "
			    "(%llx) with several binaries: expected build-id "
			    "locations (buildid:address, as preagg with "
			    "several -b writes them)",
			    (unsigned long long)e->loc[k].addr);
	return 0;
}

/*
 * The entries pawalk_run_many holds between its walks, packed: a byte
 * of type and flags, then LEB128 numbers (each location's object and
 * its address + 3, so that the constants -1 -2 -3 take a byte; the
 * count; the mispredictions; the event), in chunks of a fixed size, so
 * that holding them costs about a fifth of struct pa_entry and no
 * doubling copy.  Read back in order only.
 */
#define PK_CHUNK	(1u << 20)
#define PK_MAX		(1 + 3 * 20 + 3 * 10)	/* an entry at most */

struct pkstore {
	uint8_t		**chunk;
	size_t		*used;
	size_t		 nchunk, capchunk, capused;
	size_t		 n;		/* entries */
};

struct pkiter {
	const struct pkstore *s;
	size_t		 c, off;
};

static void
pk_put(struct pkstore *s, const struct pa_entry *e)
{
	uint8_t *p;
	size_t o;
	int k;

	if (s->nchunk == 0 || s->used[s->nchunk - 1] + PK_MAX > PK_CHUNK) {
		xgrow(&s->chunk, &s->capchunk, s->nchunk + 1,
		    sizeof(*s->chunk));
		xgrow(&s->used, &s->capused, s->nchunk + 1, sizeof(*s->used));
		s->chunk[s->nchunk] = xmalloc(PK_CHUNK);
		s->used[s->nchunk++] = 0;
	}
	p = s->chunk[s->nchunk - 1];
	o = s->used[s->nchunk - 1];
	p[o++] = (uint8_t)(e->type | (e->has_mis ? 0x10 : 0));
	for (k = 0; k < e->nloc; k++) {
		o += uleb128_encode(p + o, e->loc[k].obj);
		o += uleb128_encode(p + o, e->loc[k].addr + 3);
	}
	o += uleb128_encode(p + o, e->count);
	o += uleb128_encode(p + o, e->mis);
	o += uleb128_encode(p + o, (uint64_t)e->event + 1);
	s->used[s->nchunk - 1] = o;
	s->n++;
}

static void
pk_get(struct pkiter *it, struct pa_entry *e)
{
	const uint8_t *p, *end;
	uint64_t x;
	int k;

	if (it->off >= it->s->used[it->c]) {
		it->c++;
		it->off = 0;
	}
	p = it->s->chunk[it->c] + it->off;
	end = it->s->chunk[it->c] + it->s->used[it->c];
	memset(e, 0, sizeof(*e));
	e->type = (enum pa_type)(*p & 0x0f);
	e->has_mis = (*p++ & 0x10) != 0;
	e->nloc = pa_nloc(e->type);
	for (k = 0; k < e->nloc; k++) {
		p += uleb128_decode(p, end, &x);
		e->loc[k].obj = (uint32_t)x;
		p += uleb128_decode(p, end, &x);
		e->loc[k].addr = x - 3;
	}
	p += uleb128_decode(p, end, &e->count);
	p += uleb128_decode(p, end, &e->mis);
	p += uleb128_decode(p, end, &x);
	e->event = (uint32_t)(x - 1);
	it->off = (size_t)(p - it->s->chunk[it->c]);
}

static void
pk_free(struct pkstore *s)
{
	size_t i;

	for (i = 0; i < s->nchunk; i++)
		free(s->chunk[i]);
	free(s->chunk);
	free(s->used);
}

/* the functions a walker is done with after each entry (pawalk_ops
 * done), in lists by entry: head[i], then next[] */
struct donelist {
	uint32_t	*head, *next;
};

/* w's first walk over the n entries of v: the functions they touch are
 * asked of w->cd (cfgdis_need), so that cfgdis reads of the binary what
 * their graphs need, not all of it; with a done callback, the lists of
 * the functions w is done with after each entry; with marked, which
 * functions the entries touch (marked[i] != 0).  w is left as it was.
 * Returns whether the walk may ask for a graph. */
static int
mark_all(struct pawalk *w, const struct pkstore *v, struct donelist *dl,
    uint8_t *marked)
{
	struct pawalk w0 = *w;
	struct pkiter it = { v, 0, 0 };
	struct pa_entry e;
	size_t i, n = v->n, nf = w->bin->ft.n;
	uint32_t *last = NULL;
	int mayget;

	memset(dl, 0, sizeof(*dl));
	w->marking = 1;
	if ((w->ops->done != NULL || marked != NULL) && n < UINT32_MAX - 1)
		w->last = last = xcalloc(nf + 1, sizeof(*last));
	for (i = 0; i < n; i++) {
		w->cur = i;
		pk_get(&it, &e);
		pawalk_entry(w, &e);
	}
	/* the entries held until the form of the stream is known are
	 * walked after the others, as one entry n */
	w->cur = n;
	pawalk_end(w);
	pawalk_free(w);
	mayget = w->mayget;
	*w = w0;
	if (last == NULL)
		return mayget;
	if (marked != NULL)
		for (i = 0; i < nf; i++)
			marked[i] = last[i] != 0;
	if (w->ops->done != NULL) {
		dl->head = xcalloc(n + 1, sizeof(*dl->head));
		dl->next = xcalloc(nf + 1, sizeof(*dl->next));
		for (i = 0; i < nf; i++)
			if (last[i] != 0) {
				dl->next[i] = dl->head[last[i] - 1];
				dl->head[last[i] - 1] = (uint32_t)i + 1;
			}
	}
	free(last);
	return mayget;
}

/* w is done with the graphs of the functions of entry i's list */
static void
release(struct pawalk *w, const struct donelist *dl, size_t i)
{
	uint32_t k;

	if (dl->head == NULL)
		return;
	for (k = dl->head[i]; k != 0; k = dl->next[k - 1]) {
		const struct cfg *g = cfgdis_built(w->cd, k - 1);

		if (g != NULL) {
			w->ops->done(w->arg, &w->bin->ft.f[k - 1], g);
			cfgdis_drop(w->cd, k - 1);
		}
	}
}

/* the entries of v read first, checked (a bare address with several
 * binaries): 0, or -1 with the message in r->err (on r's line) */
static int
read_all(struct pkstore *v, size_t nw, struct pa_reader *r)
{
	struct pa_entry e;
	int k;

	memset(v, 0, sizeof(*v));
	while ((k = pa_next(r, &e)) == 1) {
		if (nw > 1 && check_located(r, &e) == -1)
			return -1;
		pk_put(v, &e);
	}
	return k;
}

/* each entry of v to every binary's walker, each keeping what is in its
 * binary (as separate runs would); the entries whose reading waits for
 * the stream's form at the end (entry n).  A graph is asked of cfgdis
 * when first needed: cfgdis_get gathers then what the functions asked
 * for take from the rest of the binary (unless cfgdis_prepare did). */
static void
walk_all(struct pawalk *const *ws, size_t nw, const struct pkstore *v,
    const struct donelist *dl)
{
	struct pkiter it = { v, 0, 0 };
	struct pa_entry e;
	size_t i, j;

	for (i = 0; i <= v->n; i++) {
		if (i < v->n)
			pk_get(&it, &e);
		for (j = 0; j < nw; j++) {
			if (i < v->n)
				pawalk_entry(ws[j], &e);
			else
				pawalk_end(ws[j]);
			release(ws[j], &dl[j], i);
		}
	}
}

/* the functions of w's binary shared among jobs processes: the code of
 * the functions the entries touch (marked), in address order, cut in
 * PAWALK_SLICES slices per process, dealt in turn, so that each has
 * about the same code (a graph costs about its function's size to build)
 * and the parts of the binary whose code costs more are spread.  own[i]:
 * function i's process, own[n] (no function): the parent. */
#define PAWALK_SLICES	32
static uint8_t *
share(const struct pawalk *w, const uint8_t *marked, int jobs)
{
	const struct functab *ft = &w->bin->ft;
	uint8_t *own = xcalloc(ft->n + 1, 1);
	uint64_t total = 0, cum = 0, slice;
	size_t i;

	for (i = 0; i < ft->n; i++)
		if (marked[i])
			total += ft->f[i].size;
	slice = total / ((unsigned)jobs * PAWALK_SLICES) + 1;
	for (i = 0; i < ft->n; i++) {
		/* the function's midpoint decides its slice */
		own[i] = (uint8_t)(((marked[i] ? cum + ft->f[i].size / 2 :
		    cum) / slice) % (unsigned)jobs);
		if (marked[i])
			cum += ft->f[i].size;
	}
	return own;
}

/* the graphs built, by the counts of cfgdis_stats */
static uint64_t
built(const struct cfgdis_stats *s)
{
	return s->simple + s->nonsimple + s->ignored;
}

/* the walk split among processes (pawalk_run_par, through pool_run):
 * the entries v read and marked, own[j] each walker's shares */
struct split {
	struct pawalk *const *ws;
	size_t		 nw;
	const struct pkstore *v;
	const struct donelist *dl;
	uint8_t		**own;
	struct cfgdis_stats *base;	/* each walker's graphs at the fork */
	uint64_t	*u;		/* the undecodable functions a
					 * worker's first graph counted, */
	int		*gotg;		/* if it built one (run_split) */
};

/* process k's share */
static void
split_work(void *arg, int k)
{
	struct split *sp = arg;
	size_t j;

	for (j = 0; j < sp->nw; j++)
		sp->ws[j]->me = (uint8_t)k;
	walk_all(sp->ws, sp->nw, sp->v, sp->dl);
}

/* only n processes started: the parent walks the shares of those it
 * could not start, and the output is the same */
static void
split_started(void *arg, int n)
{
	struct split *sp = arg;
	size_t i, j;

	for (j = 0; j < sp->nw; j++)
		for (i = 0; i <= sp->ws[j]->bin->ft.n; i++)
			if (sp->own[j][i] >= n)
				sp->own[j][i] = 0;
}

/* a worker's end: its counts, the graphs it built (those from before
 * the fork are the parent's), then what its writer collected, for each
 * walker */
static int
split_put(void *arg, int k, FILE *fp)
{
	struct split *sp = arg;
	size_t j;

	(void)k;
	/* a graph that could not be made as BOLT makes it (cfgdis_error):
	 * the worker fails, and the parent with it */
	for (j = 0; j < sp->nw; j++)
		if (cfgdis_error(sp->ws[j]->cd) != NULL) {
			fprintf(stderr, "%s: %s\n", progname,
			    cfgdis_error(sp->ws[j]->cd));
			return -1;
		}
	for (j = 0; j < sp->nw; j++) {
		struct pawalk *w = sp->ws[j];
		struct cfgdis_stats st = *cfgdis_stats(w->cd);

		cfgdis_stats_add(&st, &sp->base[j], -1);
		if (fwrite(&w->n, sizeof(w->n), 1, fp) != 1 ||
		    fwrite(&st, sizeof(st), 1, fp) != 1)
			return -1;
		w->ops->put(w->arg, fp);
	}
	return 0;
}

/* the parent: worker k's counts and writers' collections, added to its
 * own; if it built a graph of walker j, its count of undecodable
 * functions in u[j] (see run_split) */
static int
split_get(void *arg, int k, FILE *fp)
{
	struct split *sp = arg;
	size_t j;

	(void)k;
	for (j = 0; j < sp->nw; j++) {
		struct pawalk *w = sp->ws[j];
		struct pawalk_counts n;
		struct cfgdis_stats st;

		if (fread(&n, sizeof(n), 1, fp) != 1 ||
		    fread(&st, sizeof(st), 1, fp) != 1)
			return -1;
		pawalk_counts_add(&w->n, &n);
		if (built(&st) > 0) {
			sp->gotg[j] = 1;
			sp->u[j] = st.undecodable;
		}
		st.undecodable = 0;	/* counted once: run_split */
		cfgdis_stats_add(&w->wstats, &st, 1);
		if (w->ops->get(w->arg, fp) == -1)
			return -1;
	}
	return 0;
}

/* the walk split among jobs processes (pawalk_run_par), the entries v
 * read and marked, own[j] each walker's shares, code[j] the code of the
 * functions it touches: 0, or -1 with the message in err */
static int
run_split(struct pawalk *const *ws, size_t nw, const struct pkstore *v,
    const struct donelist *dl, uint8_t **own, const uint64_t *code,
    int jobs, char *err, size_t errlen)
{
	static const struct pool_ops ops = {
		split_work, split_started, split_put, split_get
	};
	struct cfgdis_stats *pre = xcalloc(nw + 1, sizeof(*pre));
	struct split sp = { ws, nw, v, dl, own, NULL, NULL, NULL };
	size_t j;
	int rc;

	sp.base = xcalloc(nw + 1, sizeof(*sp.base));
	sp.u = xcalloc(nw + 1, sizeof(*sp.u));
	sp.gotg = xcalloc(nw + 1, sizeof(*sp.gotg));
	/* what the graphs take from the rest of the binary, once, before
	 * the fork: the workers share it.  Not for a binary the profile
	 * does not touch, which would gather it all. */
	for (j = 0; j < nw; j++) {
		pre[j] = *cfgdis_stats(ws[j]->cd);
		if (code[j] > 0)
			cfgdis_prepare(ws[j]->cd);
		sp.base[j] = *cfgdis_stats(ws[j]->cd);
		ws[j]->own = own[j];
		ws[j]->split = 1;
	}
	rc = pool_run(jobs, &ops, &sp, err, errlen);
	for (j = 0; j < nw; j++) {
		struct pawalk *w = ws[j];
		const struct cfgdis_stats *now = cfgdis_stats(w->cd);

		if (built(now) != built(&sp.base[j])) {
			sp.gotg[j] = 1;
			sp.u[j] = now->undecodable - sp.base[j].undecodable;
		}
		/*
		 * One process counts the functions it cannot decode when it
		 * gathers, at its first graph (cfgdis_get): what the gather
		 * before the fork counted, and what the first graph of each
		 * process counts after a gather made while the input was
		 * not there (cfgdis_prepare_ahead: the same in each, the
		 * functions asked for being the same), count once, and only
		 * if some process got a graph.
		 */
		w->wstats.undecodable = (sp.gotg[j] ? sp.base[j].undecodable -
		    pre[j].undecodable + sp.u[j] : 0) -
		    (now->undecodable - pre[j].undecodable);
		w->own = NULL;
		w->split = 0;
	}
	free(pre);
	free(sp.base);
	free(sp.u);
	free(sp.gotg);
	return rc == -1 ? -1 : 0;
}

int
pawalk_run_par(struct pawalk *const *ws, size_t nw, struct pa_reader *r,
    int jobs, char *err, size_t errlen)
{
	struct pkstore v;
	struct donelist *dl;
	uint8_t **marked, **own;
	uint64_t code = 0, *wcode;
	size_t i, j;
	int par = jobs != 1, mayget = 0;

	for (j = 0; j < nw; j++)
		par &= ws[j]->ops->put != NULL && ws[j]->ops->get != NULL;
	/* the entries are read first (checked as they are read), so that
	 * each binary's code is read for what the profile touches */
	if (read_all(&v, nw, r) == -1) {
		pk_free(&v);
		return failf(err, errlen, "%s:%llu: %s", r->lr.name,
		    (unsigned long long)r->lr.lineno, r->err);
	}
	dl = xcalloc(nw + 1, sizeof(*dl));
	marked = xcalloc(nw + 1, sizeof(*marked));
	own = xcalloc(nw + 1, sizeof(*own));
	wcode = xcalloc(nw + 1, sizeof(*wcode));
	for (j = 0; j < nw; j++) {
		if (par)
			marked[j] = xcalloc(ws[j]->bin->ft.n + 1, 1);
		mayget |= mark_all(ws[j], &v, &dl[j], marked[j]);
		for (i = 0; par && i < ws[j]->bin->ft.n; i++)
			if (marked[j][i])
				wcode[j] += ws[j]->bin->ft.f[i].size;
		code += wcode[j];
	}
	/* by default, a profile that needs no graph or graphs of little
	 * code is walked here: forking (the pages either process writes
	 * then are copied, at a fault each) would cost more than it
	 * saves */
	if (jobs == 0)
		jobs = !mayget || code < PAWALK_PARCODE ? 1 : prog_ncpus();
	if (jobs > PAWALK_MAXJOBS)
		jobs = PAWALK_MAXJOBS;
	if (!par || code == 0)
		jobs = 1;
	if (jobs > 1) {
		for (j = 0; j < nw; j++)
			own[j] = share(ws[j], marked[j], jobs);
		if (run_split(ws, nw, &v, dl, own, wcode, jobs, err,
		    errlen) == -1)
			jobs = -1;
		for (j = 0; j < nw; j++)
			free(own[j]);
	} else
		walk_all(ws, nw, &v, dl);
	for (j = 0; j < nw; j++) {
		free(dl[j].head);
		free(dl[j].next);
		free(marked[j]);
	}
	free(dl);
	free(marked);
	free(own);
	free(wcode);
	pk_free(&v);
	return jobs;
}

int
pawalk_run_many(struct pawalk *const *ws, size_t nw, struct pa_reader *r,
    char *err, size_t errlen)
{
	return pawalk_run_par(ws, nw, r, 1, err, errlen) == -1 ? -1 : 0;
}

int
pawalk_run(struct pawalk *w, char *err, size_t errlen)
{
	return pawalk_run_many(&w, 1, w->r, err, errlen);
}

void
pawalk_counts_add(struct pawalk_counts *a, const struct pawalk_counts *b)
{
	a->samples += b->samples;
	a->sampout += b->sampout;
	a->branches += b->branches;
	a->returns += b->returns;
	a->traces += b->traces;
	a->invalid += b->invalid;
	a->outrange += b->outrange;
	a->nonsimple += b->nonsimple;
}

void
pawalk_stats(const struct pawalk *w, struct cfgdis_stats *st)
{
	*st = *cfgdis_stats(w->cd);
	cfgdis_stats_add(st, &w->wstats, 1);
}

void
pawalk_free(struct pawalk *w)
{
	free(w->events);
	w->events = NULL;
	free(w->held);
	w->held = NULL;
	w->nheld = w->capheld = 0;
	w->nevents = w->capevents = 0;
}

int
pawalk_trace_blocks(const struct cfg *g, uint64_t fs, uint64_t fe,
    int external, long *fbp, long *tbp)
{
	long fb, tb, i;

	if (fs > fe || (fb = cfg_block_at(g, fs)) < 0 ||
	    (tb = cfg_block_at(g, fe)) < 0)
		return -1;
	if (external && fs == g->blocks[fb].start && fb > 0 &&
	    !(g->blocks[fb].flags & (CFG_ENTRY | CFG_LPAD)) &&
	    cfg_is_succ(g, (size_t)fb - 1, (size_t)fb) &&
	    (g->blocks[fb - 1].flags & (CFG_ENDS_CALL | CFG_ENDS_TAIL)))
		fb--;
	for (i = fb; i < tb; i++)
		if (!cfg_is_succ(g, (size_t)i, (size_t)i + 1))
			return -1;
	*fbp = fb;
	*tbp = tb;
	return 0;
}
