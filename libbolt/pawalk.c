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
	w->nbranches++;
	if (ff == NULL && tf == NULL)
		return;
	/* --bolted: batmap dropped the returns of the BOLTed binary, where
	 * perf2bolt looks; a branch BOLT added after a return (a jump to a
	 * cold block) translates to the input's return, and is kept */
	if (ff != NULL && w->mode != PAWALK_BOLTED &&
	    cfgdis_is_return(w->cd, from)) {
		w->nreturns++;
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
	w->ntraces++;
	if (a == NULL || z == NULL) {
		w->noutrange++;
		return;
	}
	if (a != z) {
		w->ninvalid++;
		return;
	}
	/* --bolted: batmap has cut the trace into the input's blocks */
	if (w->mode == PAWALK_BOLTED) {
		w->ops->fallthrough(w->arg, a, s - a->addr, e - a->addr, count);
		return;
	}
	g = cfgdis_get(w->cd, (size_t)(a - w->bin->ft.f));
	if (!g->simple) {
		w->nnonsimple++;
		return;
	}
	if (pawalk_trace_blocks(g, s - a->addr, e - a->addr, external, &fb,
	    &tb) == -1) {
		w->ninvalid++;
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
	uint64_t a0 = 0, a1 = 0, a2 = 0;
	int k0, k1, k2;

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
		w->nsamples++;
		if (f == NULL) {
			w->nsampout++;
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
	k0 = e->nloc > 0 && loc_addr(w, &e->loc[0], &a0);
	k1 = e->nloc > 1 && loc_addr(w, &e->loc[1], &a1);
	k2 = e->nloc > 2 && loc_addr(w, &e->loc[2], &a2);
	switch (e->type) {
	case PA_B:
		if (LEGACY(w)) {
			/* perf2bolt-19 --pa: an end outside every function
			 * written with its address */
			do_branch(w, k0, a0, k1, a1, e->count, e->mis);
			break;
		}
		/* the current form: B is T's branch alone, an end outside
		 * every function 0, as perf2bolt-19 -p writes it */
		/* FALLTHROUGH */
	case PA_T:
	case PA_R: {
		uint64_t br = e->loc[0].addr;
		int special = e->type != PA_B &&
		    e->loc[0].obj == PA_OBJ_SELF &&
		    (br == PA_BR_ONLY || br == PA_FT_EXTERNAL_ORIGIN ||
		    br == PA_FT_EXTERNAL_RETURN);
		int bronly = e->type == PA_B || (e->loc[2].obj == PA_OBJ_SELF &&
		    e->loc[2].addr == PA_BR_ONLY);

		if (!special && !(e->type == PA_R && k0 && br == 0)) {
			/* the branch; an end outside every function is 0,
			 * as perf2bolt -p writes it */
			const struct bfunc *ff = k0 ?
			    functab_find(&w->bin->ft, a0) : NULL;
			const struct bfunc *tf = k1 ?
			    functab_find(&w->bin->ft, a1) : NULL;

			do_branch(w, ff != NULL, ff ? a0 : 0, tf != NULL,
			    tf ? a1 : 0, e->count, e->has_mis ? e->mis : 0);
		}
		if (bronly || !k1 || !k2)
			break;
		if (special)
			trace(w, 0, 0, br != PA_BR_ONLY, a1, a2, e->count);
		else if (e->type == PA_R && br == 0)
			trace(w, 0, 0, 1, a1, a2, e->count);
		else
			trace(w, k0, a0, -1, a1, a2, e->count);
		break;
	}
	case PA_F:
		if (k0 && k1)
			trace(w, 0, 0, 0, a0, a1, e->count);
		break;
	case PA_f:
	case PA_r:
		if (k0 && k1)
			trace(w, 0, 0, 1, a0, a1, e->count);
		break;
	default:
		break;
	}
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
static void
check_located(const struct pa_reader *r, const struct pa_entry *e)
{
	int k;

	for (k = 0; k < e->nloc; k++)
		if (e->loc[k].obj == PA_OBJ_SELF &&
		    e->loc[k].addr < PA_FT_EXTERNAL_RETURN)
			lr_errx(&r->lr, "a bare address (%llx) with several "
			    "binaries: expected build-id locations "
			    "(buildid:address, as preagg with several -b "
			    "writes them)", (unsigned long long)e->loc[k].addr);
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
 * binaries) */
static void
read_all(struct pkstore *v, size_t nw, struct pa_reader *r)
{
	struct pa_entry e;

	memset(v, 0, sizeof(*v));
	while (pa_next(r, &e)) {
		if (nw > 1)
			check_located(r, &e);
		pk_put(v, &e);
	}
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

/* a worker's end: its counts, then what its writer collected, for
 * each walker; exit 0 only if all of it was written */
static noreturn void
worker_put(struct pawalk *const *ws, size_t nw, int fd,
    const struct cfgdis_stats *base)
{
	FILE *fp = fdopen(fd, "w");
	size_t j;

	if (fp == NULL)
		_exit(1);
	/* a graph that could not be made as BOLT makes it (cfgdis_error):
	 * the parent fails with the worker */
	for (j = 0; j < nw; j++)
		if (cfgdis_error(ws[j]->cd) != NULL) {
			fprintf(stderr, "%s: %s\n", progname,
			    cfgdis_error(ws[j]->cd));
			_exit(1);
		}
	for (j = 0; j < nw; j++) {
		struct pawalk *w = ws[j];
		uint64_t c[8] = { w->nsamples, w->nsampout, w->nbranches,
		    w->nreturns, w->ntraces, w->ninvalid, w->noutrange,
		    w->nnonsimple };
		struct cfgdis_stats st = *cfgdis_stats(w->cd);

		/* the graphs built here: the counts from before the fork
		 * are the parent's */
		st.simple -= base[j].simple;
		st.nonsimple -= base[j].nonsimple;
		st.ignored -= base[j].ignored;
		st.undecodable -= base[j].undecodable;
		st.jtcut -= base[j].jtcut;
		fwrite(c, sizeof(c), 1, fp);
		fwrite(&st, sizeof(st), 1, fp);
		w->ops->put(w->arg, fp);
	}
	_exit(fflush(fp) == EOF || ferror(fp) || fclose(fp) == EOF);
}

/* the parent: worker k's counts and writers' collections, added to
 * its own; if it built a graph of walker j, its count of undecodable
 * functions in u[j] (see run_split); 0, or -1 if they did not all
 * come */
static int
worker_get(struct pawalk *const *ws, size_t nw, int fd, uint64_t *u,
    int *got)
{
	FILE *fp = fdopen(fd, "r");
	size_t j;
	int ok = fp != NULL;

	for (j = 0; ok && j < nw; j++) {
		struct pawalk *w = ws[j];
		uint64_t c[8];
		struct cfgdis_stats st;

		if (fread(c, sizeof(c), 1, fp) != 1 ||
		    fread(&st, sizeof(st), 1, fp) != 1) {
			ok = 0;
			break;
		}
		w->nsamples += c[0];
		w->nsampout += c[1];
		w->nbranches += c[2];
		w->nreturns += c[3];
		w->ntraces += c[4];
		w->ninvalid += c[5];
		w->noutrange += c[6];
		w->nnonsimple += c[7];
		w->wstats.simple += st.simple;
		w->wstats.nonsimple += st.nonsimple;
		w->wstats.ignored += st.ignored;
		w->wstats.jtcut += st.jtcut;
		if (built(&st) > 0) {
			got[j] = 1;
			u[j] = st.undecodable;
		}
		ok = w->ops->get(w->arg, fp) == 0;
	}
	/* nothing may follow */
	if (ok && getc(fp) != EOF)
		ok = 0;
	if (fp != NULL)
		fclose(fp);
	else
		close(fd);
	return ok ? 0 : -1;
}

/* worker k (pid) ended: an error unless it exited 0 having sent all */
static void
worker_wait(pid_t pid, int k, int jobs, int got)
{
	int st;

	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			err(1, "worker %d of %d (pid %ld)", k, jobs - 1,
			    (long)pid);
	if (WIFSIGNALED(st))
		errx(1, "worker %d of %d (pid %ld) was killed by signal %d "
		    "(%s): no output", k, jobs - 1, (long)pid, WTERMSIG(st),
		    strsignal(WTERMSIG(st)));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		errx(1, "worker %d of %d (pid %ld) failed (exit status %d): "
		    "no output", k, jobs - 1, (long)pid,
		    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	if (got == -1)
		errx(1, "worker %d of %d (pid %ld): its results did not all "
		    "come: no output", k, jobs - 1, (long)pid);
}

/* a test's failing worker: PAWALK_TEST_FAIL=k:kill (killed by a
 * signal), k:exit (exit status 3) or k:short (half its results, then
 * exit 0), worker k once its share is walked (fd: its pipe); k:nofork,
 * worker k cannot be started (fd -1: whether it is that one) */
static int
test_fail(int k, int fd)
{
	const char *s = getenv("PAWALK_TEST_FAIL");
	char *end;
	long n;

	if (s == NULL || (n = strtol(s, &end, 10)) != k || *end != ':')
		return 0;
	if (fd == -1)
		return strcmp(end + 1, "nofork") == 0;
	if (strcmp(end + 1, "kill") == 0)
		raise(SIGKILL);
	if (strcmp(end + 1, "exit") == 0)
		_exit(3);
	if (strcmp(end + 1, "short") == 0) {
		uint64_t c[8] = { 0 };

		if (write(fd, c, sizeof(c) / 2) == -1)
			_exit(1);
		_exit(0);
	}
	return 0;
}

/* the walk split among jobs processes (pawalk_run_par), the entries v
 * read and marked, own[j] each walker's shares, code[j] the code of the
 * functions it touches */
static void
run_split(struct pawalk *const *ws, size_t nw, const struct pkstore *v,
    const struct donelist *dl, uint8_t **own, const uint64_t *code,
    int jobs)
{
	pid_t pid[PAWALK_MAXJOBS];
	int fd[PAWALK_MAXJOBS], p[2], k, got;
	struct cfgdis_stats *pre = xcalloc(nw + 1, sizeof(*pre));
	struct cfgdis_stats *base = xcalloc(nw + 1, sizeof(*base));
	uint64_t *u = xcalloc(nw + 1, sizeof(*u));
	int *gotg = xcalloc(nw + 1, sizeof(*gotg));
	size_t i, j;

	/* what the graphs take from the rest of the binary, once, before
	 * the fork: the workers share it.  Not for a binary the profile
	 * does not touch, which would gather it all. */
	for (j = 0; j < nw; j++) {
		pre[j] = *cfgdis_stats(ws[j]->cd);
		if (code[j] > 0)
			cfgdis_prepare(ws[j]->cd);
		base[j] = *cfgdis_stats(ws[j]->cd);
		ws[j]->own = own[j];
		ws[j]->split = 1;
	}
	/* nothing buffered twice */
	fflush(stdout);
	fflush(stderr);
	for (k = 1; k < jobs; k++) {
		if (pipe(p) == -1)
			break;
		if (test_fail(k, -1) || (pid[k] = fork()) == -1) {
			close(p[0]);
			close(p[1]);
			break;
		}
		if (pid[k] == 0) {
			int m;

			close(p[0]);
			for (m = 1; m < k; m++)
				close(fd[m]);
			for (j = 0; j < nw; j++)
				ws[j]->me = (uint8_t)k;
			walk_all(ws, nw, v, dl);
			(void)test_fail(k, p[1]);
			worker_put(ws, nw, p[1], base);
		}
		close(p[1]);
		fd[k] = p[0];
	}
	if (k < jobs) {
		/* no more processes (a limit on them, memory): the parent
		 * walks the shares of those it could not start, and the
		 * output is the same */
		for (j = 0; j < nw; j++)
			for (i = 0; i <= ws[j]->bin->ft.n; i++)
				if (own[j][i] >= k)
					own[j][i] = 0;
		jobs = k;
	}
	for (j = 0; j < nw; j++)
		ws[j]->me = 0;
	walk_all(ws, nw, v, dl);
	for (k = 1; k < jobs; k++) {
		got = worker_get(ws, nw, fd[k], u, gotg);
		worker_wait(pid[k], k, jobs, got);
	}
	for (j = 0; j < nw; j++) {
		struct pawalk *w = ws[j];
		const struct cfgdis_stats *now = cfgdis_stats(w->cd);

		if (built(now) != built(&base[j])) {
			gotg[j] = 1;
			u[j] = now->undecodable - base[j].undecodable;
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
		w->wstats.undecodable = (gotg[j] ? base[j].undecodable -
		    pre[j].undecodable + u[j] : 0) -
		    (now->undecodable - pre[j].undecodable);
		w->own = NULL;
		w->split = 0;
	}
	free(pre);
	free(base);
	free(u);
	free(gotg);
}

int
pawalk_run_par(struct pawalk *const *ws, size_t nw, struct pa_reader *r,
    int jobs)
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
	read_all(&v, nw, r);
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
		run_split(ws, nw, &v, dl, own, wcode, jobs);
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

void
pawalk_run_many(struct pawalk *const *ws, size_t nw, struct pa_reader *r)
{
	pawalk_run_par(ws, nw, r, 1);
}

void
pawalk_run(struct pawalk *w)
{
	pawalk_run_many(&w, 1, w->r);
}

void
pawalk_stats(const struct pawalk *w, struct cfgdis_stats *st)
{
	const struct cfgdis_stats *s = cfgdis_stats(w->cd);

	st->simple = s->simple + w->wstats.simple;
	st->nonsimple = s->nonsimple + w->wstats.nonsimple;
	st->ignored = s->ignored + w->wstats.ignored;
	st->undecodable = s->undecodable + w->wstats.undecodable;
	st->jtcut = s->jtcut + w->wstats.jtcut;
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
