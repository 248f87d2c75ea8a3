/* See COPYING file for copyright and license details. */
/*
 * bat.c: yamlwrite --bat BOLTED INPUT: the YAML profile perf2bolt-19
 * writes for a profile collected on a BOLTed binary
 * (DataAggregator::writeBATYAML in LLVM 19), from batmap's translation
 * of that profile into the input binary's addresses.
 *
 * Every entry is read as DataAggregator reads it on the BOLTed binary:
 * a branch inside one function (its target not the entry) is an edge, any
 * other branch a call from its source and an entry into its target (the
 * function's exec counts those at the entry); a fall-through pair is an
 * edge.  Each BOLTed function is the input's function batmap credited
 * (libbolt/bat/batbin.c), so names and fids are the BOLTed binary's
 * (getLocationName; the order BOLT creates functions in, functab's num).
 * For a function with BAT tables, hash, nblocks, block indices and block
 * hashes come from them: the blocks are BAT's block entries of the hot
 * fragment and its cold ones, by input offset, the first of equal offsets
 * kept (BBHashMapTy); an edge or a call belongs to the block holding its
 * source, an edge goes to the block holding its target, an entry counts
 * in the block starting exactly there; every block with a non-zero hash
 * is written, counted or not.  LLVM 19 fills its block vector by rank
 * (the i-th block by offset) and counts into it by BAT index; the two
 * agree for tables BOLT writes, and this file does the same in both
 * cases.  Functions without tables (code BOLT left in place, PLT
 * entries) are converted as perf2bolt converts them, from their graph in
 * the BOLTed binary (libbolt/cfg/cfgdis.c, graph.c; batmap keeps their
 * offsets): blocks, counts, calls and entry ids as perf2bolt writes
 * them, hashes from LLVM 19.s MC layer (hash.c); fall-throughs in
 * them count nowhere, as in perf2bolt-19, which sends every trace to BAT.
 *
 * Basic samples (S entries, perf2bolt -nl): perf2bolt-19 writes no
 * function at all; here each sample counts in the block of a function
 * with tables that holds it, written as the block's `events`, which is
 * what llvm-bolt's YAML reader takes from a sample profile.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "elfobj.h"
#include "bat.h"
#include "batbin.h"
#include "bigmem.h"
#include "ktab.h"
#include "cfg.h"
#include "fdline.h"
#include "functab.h"
#include "pa.h"

#include "yamlwrite.h"

#define NONE	UINT32_MAX

/* what DataAggregator keeps per function: edges and calls (Data),
 * entries (EntryData), samples; keyed and summed */
enum { K_DATA, K_ENTRY, K_SAMPLE };

struct key {
	uint32_t	p;		/* BOLTed function (index in bo.ft) */
	uint32_t	kind;		/* K_* */
	uint32_t	q;		/* K_DATA: the target's function, NONE
					 * for an unknown target */
	uint32_t	pad;
	uint64_t	from;		/* offset in p (K_DATA, K_SAMPLE) */
	uint64_t	to;		/* offset in q; K_ENTRY: offset in p */
};

struct rec {
	struct key	k;
	uint64_t	cnt, mis;
};

struct bctx {
	struct batbin	 b;		/* the BOLTed binary: b.bin */
	struct boltbin	 inb;		/* the input binary */
	struct batmatch	 m;
	uint32_t	*rev;		/* input function -> BOLTed, NONE */
	const struct bat_frag **frag;	/* per BOLTed function: the
					 * fragment of the tables starting
					 * there (BOLT's isBATFunction), NULL */
	uint64_t	*exec;		/* per BOLTed function */
	uint32_t	*kids;		/* cold fragments by parent: those of
					 * hot fragment h are kids[kidx[h]..
					 * kidx[h + 1]) */
	size_t		*kidx;
	/* the records, summed by key (ktab.h); then, to be written, by
	 * function (write_yaml) */
	struct ktab	 recs;
	struct rec	*byfunc;
	size_t		 capbyfunc;
	struct pa_reader r;
	int		 lbr, samples;
	char		*events;	/* E entries' names, "a:,b:" */
	size_t		 evcap;
	/* the functions without tables: their graphs in the BOLTed
	 * binary (opened when first needed), their calls, their blocks */
	struct cfgdis	*cd;
	struct ywg_call	*gcs;
	size_t		 capgcs;
	struct ywg_buf	 gbuf;
	struct ywh	*h;		/* their hashes (LLVM's MC layer,
					 * started when first needed) */
	int		 stdhash;
	enum llvm_rel	 llvm;		/* --llvm */
	uint64_t	*bh;
	size_t		 capbh;
	/* counts for -v */
	uint64_t	 nent, nbranch, ntrace, nsample, nunknown, nnomap;
	uint64_t	 nnoblock, nmismatch, npastend;
};

static uint64_t
keyhash(const struct key *k)
{
	return hash_mix64(k->from ^ hash_mix64(k->to ^
	    hash_mix64(((uint64_t)k->p << 32 | k->q) ^
	    ((uint64_t)k->kind << 61))));
}

/* field by field, not memcmp: a key's bytes beyond its fields (pad) need
 * not be set */
static int
keyeq(const struct key *x, const struct key *y)
{
	return x->p == y->p && x->kind == y->kind && x->q == y->q &&
	    x->from == y->from && x->to == y->to;
}

static uint64_t
rec_hash(const void *r)
{
	return keyhash(&((const struct rec *)r)->k);
}

static int
rec_eq(const void *r, const void *k)
{
	return keyeq(&((const struct rec *)r)->k, k);
}

static void
add(struct bctx *c, const struct key *k, uint64_t cnt, uint64_t mis)
{
	struct rec *r;
	int added;

	if (c->recs.n >= UINT32_MAX - 1) {
		errx(1, "more than %u distinct entries", UINT32_MAX - 2);
	}
	r = ktab_get(&c->recs, k, keyhash(k), rec_eq, &added);
	if (added)
		r->k = *k;
	r->cnt += cnt;
	r->mis += mis;
}

/* a location of the stream as (BOLTed function, offset in the input's
 * function); 0 when it lies in no function of the input binary that a
 * BOLTed function was matched to */
static int
resolve(struct bctx *c, const struct pa_loc *l, uint32_t *p, uint64_t *off)
{
	const struct bfunc *f;
	const char *bid;

	if (l->obj == PA_OBJ_X)
		return 0;
	if (l->obj != PA_OBJ_SELF && ((bid = pa_buildid(&c->r, l->obj)) ==
	    NULL || c->inb.bid[0] == '\0' || strcmp(bid, c->inb.bid) != 0))
		return 0;
	if ((f = functab_find(&c->inb.ft, l->addr + c->inb.base)) == NULL)
		return 0;
	if ((*p = c->rev[f - c->inb.ft.f]) == NONE) {
		c->nnomap++;
		return 0;
	}
	*off = l->addr + c->inb.base - f->addr;
	return 1;
}

static void	 branch_ends(struct bctx *, int, uint32_t, uint64_t, int,
		    uint32_t, uint64_t, uint64_t, uint64_t, uint64_t);

/* DataAggregator::doBranch after translation: an edge inside one
 * function, else a call out of the source and an entry into the target */
static void
branch(struct bctx *c, const struct pa_loc *from, const struct pa_loc *to,
    uint64_t cnt, uint64_t mis)
{
	uint32_t pf = NONE, pt = NONE;
	uint64_t of = 0, ot = 0;
	int kf, kt;

	c->nbranch++;
	kf = resolve(c, from, &pf, &of);
	kt = resolve(c, to, &pt, &ot);
	branch_ends(c, kf, pf, of, kt, pt, ot, to->addr, cnt, mis);
}

/* a branch, its ends resolved (kf, kt: known) */
static void
branch_ends(struct bctx *c, int kf, uint32_t pf, uint64_t of, int kt,
    uint32_t pt, uint64_t ot, uint64_t toaddr, uint64_t cnt, uint64_t mis)
{
	struct key k;

	if (!kf && !kt) {
		c->nunknown++;
		return;
	}
	memset(&k, 0, sizeof(k));
	if (kf && kt && pf == pt && ot != 0) {
		k.p = pf;
		k.kind = K_DATA;
		k.q = pf;
		k.from = of;
		k.to = ot;
		add(c, &k, cnt, mis);
		return;
	}
	if (kf) {
		k.p = pf;
		k.kind = K_DATA;
		k.q = kt ? pt : NONE;
		k.from = of;
		/* an unknown target keeps its address (its own call) */
		k.to = kt ? ot : toaddr;
		add(c, &k, cnt, mis);
	}
	if (kt) {
		memset(&k, 0, sizeof(k));
		k.p = pt;
		k.kind = K_ENTRY;
		k.to = ot;
		add(c, &k, cnt, 0);
		if (ot == 0)
			c->exec[pt] += cnt;
	}
}

/* a fall-through pair batmap wrote: doTrace's doIntraBranch */
static void
trace(struct bctx *c, const struct pa_loc *from, const struct pa_loc *to,
    uint64_t cnt)
{
	struct key k;
	uint32_t pf, pt;
	uint64_t of, ot;

	c->ntrace++;
	if (!resolve(c, from, &pf, &of) || !resolve(c, to, &pt, &ot) ||
	    pf != pt) {
		c->nunknown++;
		return;
	}
	/* perf2bolt-19 sends every trace to BAT: one in a function
	 * without tables is invalid (batmap drops them already) */
	if (c->frag[pf] == NULL) {
		c->nunknown++;
		return;
	}
	memset(&k, 0, sizeof(k));
	k.p = pf;
	k.kind = K_DATA;
	k.q = pf;
	k.from = of;
	k.to = ot;
	add(c, &k, cnt, 0);
}

static void
sample(struct bctx *c, const struct pa_loc *at, uint64_t cnt)
{
	struct key k;
	uint32_t p;
	uint64_t off;

	c->nsample++;
	if (!resolve(c, at, &p, &off)) {
		c->nunknown++;
		return;
	}
	memset(&k, 0, sizeof(k));
	k.p = p;
	k.kind = K_SAMPLE;
	k.from = off;
	add(c, &k, cnt, 0);
}

/* EventNames: each event once, as perf script prints the event field
 * (the name and a colon), comma-separated */
static void
add_event(struct bctx *c, const char *name)
{
	size_t n = strlen(name), have = c->events ? strlen(c->events) : 0;
	int colon = n == 0 || name[n - 1] != ':';
	const char *p;

	for (p = c->events; p != NULL && *p != '\0'; p += strcspn(p, ",")) {
		if (*p == ',')
			p++;
		if (strncmp(p, name, n) == 0 && (colon ? p[n] == ':' &&
		    (p[n + 1] == ',' || p[n + 1] == '\0') : (p[n] == ',' ||
		    p[n] == '\0')))
			return;
	}
	xgrow(&c->events, &c->evcap, have + n + 3, 1);
	if (have > 0)
		c->events[have++] = ',';
	memcpy(c->events + have, name, n);
	have += n;
	if (colon)
		c->events[have++] = ':';
	c->events[have] = '\0';
}

/* --past-end: batmap's fdata lines of the branches whose end lies past
 * the end of its input function (BOLT-added blocks without BAT entries:
 * long-jump stubs, jumps to cold blocks after returns), which the stream
 * cannot name.  perf2bolt-19 keeps them as they are; writeBATYAML's
 * getBlock (the last block starting at or below an offset) then puts an
 * end past the last block's start in the function's last block: an edge
 * to it, or a call from it; an entry there matches no block and is
 * dropped.  Read once the stream has ended (batmap writes the file
 * before its stream). */

/* the input's functions by the name batmap writes (filename), for
 * bsearch */
static const struct bfunc *pe_ft;

static int
pe_cmp(const void *a, const void *b)
{
	return strcmp(pe_ft[*(const uint32_t *)a].filename,
	    pe_ft[*(const uint32_t *)b].filename);
}

#define SORT_NAME	sort_pe
#define SORT_TYPE	uint32_t
#define SORT_LESS(a, b)	(pe_cmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

static int
pe_find(const void *key, const void *b)
{
	return strcmp(key, pe_ft[*(const uint32_t *)b].filename);
}

/* location l of a --past-end line (fdline_parse) into (known, BOLTed
 * function, offset) as resolve() gives them */
static void
pe_loc(struct bctx *c, const struct lineio *lr, const uint32_t *idx,
    const struct fdloc *l, int *known, uint32_t *p, uint64_t *off)
{
	const uint32_t *hit;

	*known = 0;
	*off = l->off;
	if (!l->known)
		return;
	hit = bsearch(l->name, idx, c->inb.ft.n, sizeof(*idx), pe_find);
	if (hit == NULL)
		lr_errx(lr, "no function %s in the input binary", l->name);
	if ((*p = c->rev[*hit]) == NONE)
		c->nnomap++;
	else
		*known = 1;
}

static void
read_pastend(struct bctx *c, const char *path)
{
	struct lineio lr;
	uint32_t *idx, pf = NONE, pt = NONE;
	uint64_t of, ot, mis, cnt;
	char *name = NULL;
	const char *why;
	struct fdloc l[2];
	size_t i, cap = 0;
	int kf, kt;

	idx = xcalloc(c->inb.ft.n + 1, sizeof(*idx));
	for (i = 0; i < c->inb.ft.n; i++)
		idx[i] = (uint32_t)i;
	pe_ft = c->inb.ft.f;
	sort_pe(idx, c->inb.ft.n);
	if (lr_open(&lr, path) == -1)
		prog_open_error(path);
	while (lr_next(&lr)) {
		xgrow(&name, &cap, strlen(lr.buf) + 1, 1);
		if ((why = fdline_parse(lr.buf, name, l, &mis, &cnt)) != NULL)
			lr_errx(&lr, "%s", why);
		pe_loc(c, &lr, idx, &l[0], &kf, &pf, &of);
		pe_loc(c, &lr, idx, &l[1], &kt, &pt, &ot);
		c->npastend++;
		branch_ends(c, kf, pf, of, kt, pt, ot, ot, cnt, mis);
	}
	lr_close(&lr);
	free(name);
	free(idx);
}

static void
entry(struct bctx *c, const struct pa_entry *e)
{
	c->nent++;
	switch (e->type) {
	case PA_E:
		add_event(c, pa_event(&c->r, e->event));
		break;
	case PA_S:
		c->samples = 1;
		sample(c, &e->loc[0], e->count);
		break;
	default: {
		/* batmap writes B and F; T and R are read as LLVM main's
		 * profiles.md defines them, R's branch (a return) as none */
		struct pa_parts p;

		c->lbr = 1;
		pa_split(e, &p);
		if (p.from != NULL && !p.ret)
			branch(c, p.from, p.to, e->count, p.mis);
		if (p.fs != NULL)
			trace(c, p.fs, p.fe, e->count);
		break;
	}
	}
}

/* ------------------------------------------------------------------ */
/* writing */

/* BBHashMapTy: a block of the function's tables */
struct bblk {
	uint32_t	in, index;
	uint64_t	hash;
	size_t		seq;		/* parse order, for the first of equals */
};

static int
bblkcmp(const void *a, const void *b)
{
	const struct bblk *x = a, *y = b;

	if (x->in != y->in)
		return x->in < y->in ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

#define SORT_NAME	sort_bblks
#define SORT_TYPE	struct bblk
#define SORT_LESS(a, b)	(bblkcmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

static const char *
sortname(const struct bctx *c, const struct rec *r)
{
	/* DataAggregator's names: an edge's target is the function's own
	 * name (getOneName), a call's the callee's location name */
	if (r->k.q == NONE)
		return "";
	return r->k.q == r->k.p ? c->b.bin.ft.f[r->k.p].name :
	    c->b.bin.ft.f[r->k.q].filename;
}

static const struct bctx *sortctx;

/* within a function: by kind, then as processProfile sorts
 * FuncBranchData.Data: by source offset, then target (unknown first,
 * name, offset) */
static int
reccmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	int r;

	if (x->k.kind != y->k.kind)
		return x->k.kind < y->k.kind ? -1 : 1;
	if (x->k.from != y->k.from)
		return x->k.from < y->k.from ? -1 : 1;
	if ((x->k.q == NONE) != (y->k.q == NONE))
		return x->k.q == NONE ? -1 : 1;
	if ((r = strcmp(sortname(sortctx, x), sortname(sortctx, y))) != 0)
		return r;
	if (x->k.to != y->k.to)
		return x->k.to < y->k.to ? -1 : 1;
	return 0;
}

#define SORT_NAME	sort_recs
#define SORT_TYPE	struct rec
#define SORT_LESS(a, b)	(reccmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

struct fbuf {
	struct bblk	*bb;
	size_t		 nbb, capbb;
	struct yw_block	*blk;
	size_t		 capblk;
	/* per block, its calls and edges before they are laid out */
	struct yw_call	*calls;
	size_t		 ncalls, capcalls;
	uint32_t	*callblk;
	size_t		 capcallblk;
	struct yw_succ	*succ;
	size_t		 nsucc, capsucc;
	uint32_t	*succblk;
	size_t		 capsuccblk;
	struct yw_call	*bcalls;
	size_t		 capbcalls;
	struct yw_succ	*bsucc;
	size_t		 capbsucc;
};

/* the block holding off (getBlock: the last block starting at or below
 * it); its position in fb->bb or -1 */
static long
block_at(const struct fbuf *fb, uint64_t off)
{
	size_t lo = 0, hi = fb->nbb, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (fb->bb[mid].in <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == 0 ? -1 : (long)lo - 1;
}

static long
block_exact(const struct fbuf *fb, uint64_t off)
{
	long i = block_at(fb, off);

	return i >= 0 && fb->bb[i].in == off ? i : -1;
}

/* each hot fragment's cold fragments, in table order */
static void
index_kids(struct bctx *c)
{
	const struct bat *t = &c->b.bat;
	size_t i, *fill;

	c->kidx = xcalloc(t->nhot + 2, sizeof(*c->kidx));
	c->kids = xcalloc(t->nfrag - t->nhot + 1, sizeof(*c->kids));
	for (i = t->nhot; i < t->nfrag; i++)
		c->kidx[t->frag[i].parent + 1]++;
	for (i = 0; i < t->nhot; i++)
		c->kidx[i + 1] += c->kidx[i];
	fill = xcalloc(t->nhot + 1, sizeof(*fill));
	for (i = t->nhot; i < t->nfrag; i++) {
		uint32_t h = t->frag[i].parent;

		c->kids[c->kidx[h] + fill[h]++] = (uint32_t)i;
	}
	free(fill);
}

static void
frag_blocks(struct fbuf *fb, const struct bat_frag *g)
{
	size_t j;

	for (j = 0; j < g->nent; j++) {
		if (g->ent[j].branch)
			continue;
		xgrow(&fb->bb, &fb->capbb, fb->nbb + 1, sizeof(*fb->bb));
		fb->bb[fb->nbb] = (struct bblk){ g->ent[j].in, g->ent[j].index,
		    g->ent[j].hash, fb->nbb };
		fb->nbb++;
	}
}

/* the blocks of the hot fragment f and its cold fragments, in the order
 * LLVM parses them (the hot table, then the cold one): by input offset,
 * the first of equal ones kept */
static void
load_blocks(struct bctx *c, struct fbuf *fb, const struct bat_frag *f)
{
	const struct bat *t = &c->b.bat;
	size_t h = (size_t)(f - t->frag), i, k;

	fb->nbb = 0;
	frag_blocks(fb, f);
	for (i = c->kidx[h]; i < c->kidx[h + 1]; i++)
		frag_blocks(fb, &t->frag[c->kids[i]]);
	if (fb->nbb > 1)
		sort_bblks(fb->bb, fb->nbb);
	for (i = k = 0; i < fb->nbb; i++)
		if (k == 0 || fb->bb[k - 1].in != fb->bb[i].in)
			fb->bb[k++] = fb->bb[i];
	fb->nbb = k;
}

/* the secondary entry id of input offset off of the hot fragment f
 * (getSecondaryEntryPointId: 1 + its position, 0 if none) */
static uint32_t
entry_id(const struct bat_frag *f, uint64_t off)
{
	size_t i;

	for (i = 0; i < f->nsec; i++)
		if (f->sec[i] == off)
			return (uint32_t)i + 1;
	return 0;
}

/* the graphs of the BOLTed binary, for its functions without tables */
static struct cfgdis *
dis(struct bctx *c)
{
	char err[512];

	if (c->cd == NULL) {
		if ((c->cd = cfgdis_open(&c->b.bin.eo, &c->b.bin.ft, err,
		    sizeof(err))) == NULL)
			errx(1, "%s", err);
		cfgdis_set_llvm(c->cd, c->llvm);
	}
	return c->cd;
}

/* the graph perf2bolt-19 profiles function fi of the BOLTed binary on,
 * or NULL (cfgdis knows BOLT's BAT mode: a function with secondary entry
 * points has its graph there without relocations) */
static const struct cfg *
bat_graph(struct bctx *c, size_t fi)
{
	const struct cfg *g = cfgdis_get(dis(c), fi);

	if (g->ignored || g->nblocks == 0 || g->nocfg)
		return NULL;
	return g;
}

/* BAT's translate(FuncAddr, Offset, false) on the fragment f itself */
static uint64_t
ftranslate(const struct bat_frag *f, uint64_t off)
{
	const struct bat_entry *x = bat_entry_at(f, off);

	return x == NULL ? off : off - x->out + x->in;
}

/* BoltAddressTranslation::translateSymbol: the callee of a symbol at
 * output offset outoff of bf, a fragment with tables, and off bytes
 * past it: the hot fragment's function and the secondary entry id of
 * the input offset */
static void
translate_symbol(struct bctx *c, const struct bfunc *bf, uint64_t outoff,
    uint64_t off, struct yw_call *yc, const char **nm)
{
	const struct bat *t = &c->b.bat;
	const struct bat_frag *f = c->frag[bf - c->b.bin.ft.f], *hot;
	const struct bfunc *pf;
	uint64_t in;

	yc->fid = 0;
	yc->disc = 0;
	*nm = "";
	if (f == NULL)
		return;
	hot = f->cold ? &t->frag[f->parent] : f;
	if ((pf = functab_find(&c->b.bin.ft, hot->addr)) == NULL ||
	    pf->addr != hot->addr)
		return;
	yc->fid = pf->num;
	*nm = pf->name;
	in = ftranslate(f, outoff) + off;
	if (in != 0)
		yc->disc = entry_id(hot, in);
}

/* setCSIDestination for a callee q without tables, entered at offset
 * off: the secondary entry id of the block of its graph holding off
 * (getBasicBlockContainingOffset, getSecondaryEntryPointSymbol); 0
 * without a graph */
static uint32_t
graph_entry_id(struct bctx *c, uint32_t q, uint64_t off)
{
	const struct cfg *g;
	long b;

	if (off == 0 || off > c->b.bin.ft.f[q].size ||
	    (g = bat_graph(c, q)) == NULL ||
	    (b = cfg_block_at(g, off)) <= 0 ||
	    !(g->blocks[b].flags & CFG_ENTRY))
		return 0;
	return cfgdis_entry_id(c->cd, q, g->blocks[b].start);
}

/* the callee of a direct call of a function without tables, by its
 * target in the BOLTed binary: a function's start or a secondary entry
 * BOLT knows (a symbol), translated when the callee has tables */
static void
bat_direct(void *arg, uint64_t target, struct yw_call *yc, const char **nm)
{
	struct bctx *c = arg;
	const struct bfunc *f = functab_find(&c->b.bin.ft, target);
	uint32_t id = 0;

	yc->fid = 0;
	yc->disc = 0;
	*nm = "";
	if (f == NULL || (target != f->addr && (id = cfgdis_entry_id(dis(c),
	    (size_t)(f - c->b.bin.ft.f), target - f->addr)) == 0))
		return;
	if (c->frag[f - c->b.bin.ft.f] != NULL) {
		translate_symbol(c, f, target - f->addr, 0, yc, nm);
		return;
	}
	yc->fid = f->num;
	yc->disc = id;
	*nm = f->name;
}

/* an indirect call's target function q (its symbol: offset 0) */
static void
bat_indirect(void *arg, uint32_t q, struct yw_call *yc, const char **nm)
{
	struct bctx *c = arg;
	const struct bfunc *f = &c->b.bin.ft.f[q];

	if (c->frag[q] != NULL) {
		translate_symbol(c, f, 0, 0, yc, nm);
		return;
	}
	yc->fid = f->num;
	yc->disc = 0;
	*nm = f->name;
}

/* a function without tables, as writeBATYAML writes it: the profile on
 * its graph in the BOLTed binary (branches of batmap's output keep their
 * offsets there), YAMLProfileWriter::convert with BAT */
static void
put_graph(struct bctx *c, struct yw *y, uint32_t p, const struct rec *r,
    size_t nr, struct yw_func *yf)
{
	const struct bfunc *bf = &c->b.bin.ft.f[p];
	const struct cfg *g = bat_graph(c, p);
	struct ywg_prof *pr = ywg_prof_new(g);
	struct ywg_callees ce;
	size_t i, nc = 0;

	for (i = 0; i < nr; i++) {
		const struct rec *x = &r[i];
		struct ywg_call *k;

		if (x->k.kind == K_ENTRY) {
			ywg_entry(g, pr, bf->size, x->k.to, x->cnt);
			continue;
		}
		if (x->k.kind != K_DATA)
			continue;
		if (x->k.q == p && x->k.to != 0) {
			if (!ywg_branch(g, pr, x->k.from, x->k.to, x->cnt,
			    x->mis))
				c->nmismatch++;
			continue;
		}
		xgrow(&c->gcs, &c->capgcs, nc + 1, sizeof(*c->gcs));
		k = &c->gcs[nc++];
		memset(k, 0, sizeof(*k));
		k->off = x->k.from;
		k->to = x->k.to;
		k->ff = p;
		k->tf = x->k.q == NONE ? 0 : x->k.q + 1;
		k->cnt = x->cnt;
		k->mis = x->mis;
	}
	yf->hash = 0;
	if (g != NULL) {
		char err[512];

		if (c->h == NULL && (c->h = ywh_open(&c->b.bin, dis(c),
		    c->llvm, c->stdhash, err, sizeof(err))) == NULL) {
			fprintf(stderr, "%s: %s\n", progname, err);
			exit(1);
		}
		xgrow(&c->bh, &c->capbh, g->nblocks, sizeof(*c->bh));
		yf->hash = ywh_func(c->h, p, g, c->bh);
	}
	yf->nblocks = g ? (uint32_t)g->nblocks : 0;
	yf->exec = pr->exec;
	ce.arg = c;
	ce.direct = bat_direct;
	ce.indirect = bat_indirect;
	ywg_convert(g, pr, c->gcs, nc, &ce, g ? c->bh : NULL, &c->gbuf, yf);
	yw_func_out(y, yf);
	ywg_prof_free(pr);
}

static void
put_func(struct bctx *c, struct yw *y, struct fbuf *fb, uint32_t p,
    const struct rec *r, size_t nr)
{
	const struct bfunc *bf = &c->b.bin.ft.f[p];
	const struct bat_frag *f = c->frag[p];
	struct yw_func yf;
	size_t i, j, nblk, nc, ns;
	long bi, ti;

	memset(&yf, 0, sizeof(yf));
	yf.name = bf->filename;
	yf.fid = bf->num;
	yf.exec = c->exec[p];
	if (f == NULL || f->cold) {
		/* no tables: YAMLProfileWriter::convert of the function
		 * perf2bolt-19 disassembles in the BOLTed binary (code BOLT
		 * left in place; a PLT entry has no graph: no blocks) */
		if (c->lbr)
			put_graph(c, y, p, r, nr, &yf);
		return;
	}
	yf.hash = f->hash;
	yf.nblocks = (uint32_t)f->nblocks;
	load_blocks(c, fb, f);
	/* the block vector: the first min(nblocks, blocks) get the i-th
	 * block's index and hash; counts go by BAT index */
	nblk = fb->nbb;
	if (f->nblocks < nblk)
		nblk = (size_t)f->nblocks;
	xgrow(&fb->blk, &fb->capblk, nblk + 1, sizeof(*fb->blk));
	memset(fb->blk, 0, (nblk + 1) * sizeof(*fb->blk));
	for (i = 0; i < nblk; i++) {
		fb->blk[i].bid = fb->bb[i].index;
		fb->blk[i].hash = fb->bb[i].hash;
	}
	fb->ncalls = fb->nsucc = 0;
	for (i = 0; i < nr; i++) {
		const struct rec *x = &r[i];

		switch (x->k.kind) {
		case K_ENTRY:
			if ((ti = block_exact(fb, x->k.to)) < 0 ||
			    fb->bb[ti].index >= nblk) {
				c->nnoblock++;
				continue;
			}
			fb->blk[fb->bb[ti].index].exec += x->cnt;
			continue;
		case K_SAMPLE:
			if ((bi = block_at(fb, x->k.from)) < 0 ||
			    fb->bb[bi].index >= nblk) {
				c->nnoblock++;
				continue;
			}
			fb->blk[fb->bb[bi].index].events += x->cnt;
			continue;
		default:
			break;
		}
		if ((bi = block_at(fb, x->k.from)) < 0 ||
		    fb->bb[bi].index >= nblk) {
			c->nnoblock++;
			continue;
		}
		if (x->k.q == p && x->k.to != 0) {
			if ((ti = block_at(fb, x->k.to)) < 0) {
				c->nnoblock++;
				continue;
			}
			xgrow(&fb->succ, &fb->capsucc, fb->nsucc + 1,
			    sizeof(*fb->succ));
			xgrow(&fb->succblk, &fb->capsuccblk, fb->nsucc + 1,
			    sizeof(*fb->succblk));
			fb->succ[fb->nsucc] = (struct yw_succ){
			    fb->bb[ti].index, x->cnt, x->mis };
			fb->succblk[fb->nsucc++] = fb->bb[bi].index;
			continue;
		}
		xgrow(&fb->calls, &fb->capcalls, fb->ncalls + 1,
		    sizeof(*fb->calls));
		xgrow(&fb->callblk, &fb->capcallblk, fb->ncalls + 1,
		    sizeof(*fb->callblk));
		memset(&fb->calls[fb->ncalls], 0, sizeof(*fb->calls));
		fb->calls[fb->ncalls].off = (uint32_t)(x->k.from -
		    fb->bb[bi].in);
		fb->calls[fb->ncalls].cnt = x->cnt;
		fb->calls[fb->ncalls].mis = x->mis;
		if (x->k.q != NONE) {
			const struct bfunc *q = &c->b.bin.ft.f[x->k.q];
			const struct bat_frag *qf = c->frag[x->k.q];
			uint64_t in;

			fb->calls[fb->ncalls].fid = q->num;
			/* translateSymbol: a BAT callee's entry id; the
			 * block of the graph of one without tables */
			if (qf != NULL && !qf->cold) {
				in = ftranslate(qf, 0) + x->k.to;
				if (in != 0)
					fb->calls[fb->ncalls].disc =
					    entry_id(qf, in);
			} else if (qf == NULL)
				fb->calls[fb->ncalls].disc =
				    graph_entry_id(c, x->k.q, x->k.to);
		}
		fb->callblk[fb->ncalls++] = fb->bb[bi].index;
	}
	/* each block's calls and edges, in the order of the records (a
	 * counting sort by block) */
	xgrow(&fb->bcalls, &fb->capbcalls, fb->ncalls + 1, sizeof(*fb->bcalls));
	xgrow(&fb->bsucc, &fb->capbsucc, fb->nsucc + 1, sizeof(*fb->bsucc));
	for (j = 0; j < fb->ncalls; j++)
		fb->blk[fb->callblk[j]].ncalls++;
	for (j = 0; j < fb->nsucc; j++)
		fb->blk[fb->succblk[j]].nsucc++;
	nc = ns = 0;
	for (i = 0; i < nblk; i++) {
		fb->blk[i].calls = fb->bcalls + nc;
		nc += fb->blk[i].ncalls;
		fb->blk[i].ncalls = 0;
		fb->blk[i].succ = fb->bsucc + ns;
		ns += fb->blk[i].nsucc;
		fb->blk[i].nsucc = 0;
	}
	for (j = 0; j < fb->ncalls; j++) {
		struct yw_block *k = &fb->blk[fb->callblk[j]];

		k->calls[k->ncalls++] = fb->calls[j];
	}
	for (j = 0; j < fb->nsucc; j++) {
		struct yw_block *k = &fb->blk[fb->succblk[j]];

		k->succ[k->nsucc++] = fb->succ[j];
	}
	/* blocks without a hash are dropped */
	for (i = j = 0; i < nblk; i++)
		if (fb->blk[i].hash != 0)
			fb->blk[j++] = fb->blk[i];
	yf.blocks = fb->blk;
	yf.nblk = j;
	yw_func_out(y, &yf);
}

static void
write_yaml(struct bctx *c, const char *outpath, const char *bolted)
{
	struct yw_header h;
	struct output out;
	struct yw *y;
	struct fbuf fb;
	struct rec *r;
	size_t i, n, lo, hi, *start, cap;
	uint32_t p;
	int pass;

	/* the records by function (a counting sort), then each function's
	 * by reccmp */
	ktab_drop_index(&c->recs);
	n = c->recs.n;
	start = xcalloc(c->b.bin.ft.n + 2, sizeof(*start));
	for (i = 0; i < n; i++)
		start[((struct rec *)ktab_at(&c->recs, i))->k.p + 1]++;
	for (i = 0; i < c->b.bin.ft.n; i++)
		start[i + 1] += start[i];
	r = NULL;
	cap = 0;
	big_grow(&r, &cap, n + 1, sizeof(*r));
	for (i = 0; i < n; i++) {
		const struct rec *x = ktab_at(&c->recs, i);

		r[start[x->k.p]++] = *x;
	}
	ktab_free(&c->recs);
	c->byfunc = r;
	c->capbyfunc = cap;
	free(start);
	sortctx = c;
	for (lo = 0; lo < n; lo = hi) {
		for (hi = lo; hi < n && r[hi].k.p == r[lo].k.p; hi++)
			;
		if (hi - lo > 1)
			sort_recs(r + lo, hi - lo);
	}
	memset(&h, 0, sizeof(h));
	h.binary_name = bolted;
	h.build_id = c->b.bin.bid[0] ? c->b.bin.bid : "<unknown>";
	h.sample = !c->lbr && c->samples;
	/* perf2bolt keeps the events' names of basic samples only */
	h.events = h.sample && c->events ? c->events : "";
	h.dfs_order = 0;
	h.hash_func = c->stdhash ? "std-hash" : "xxh3";
	/* the direct writer unless a name written needs libyaml */
	h.plain = 1;
	for (i = 0; i < n && h.plain; i++)
		if (!yw_plain(c->b.bin.ft.f[r[i].k.p].filename))
			h.plain = 0;
	y = yw_start(&out, outpath, &h);
	memset(&fb, 0, sizeof(fb));
	/* functions without tables first, then those with, each by address
	 * (perf2bolt: by address, then in the order of a hash table) */
	for (pass = 0; pass < 2; pass++) {
		for (lo = 0; lo < n; lo = hi) {
			p = r[lo].k.p;
			for (hi = lo; hi < n && r[hi].k.p == p; hi++)
				;
			if ((c->frag[p] != NULL) !=
			    (pass == 1))
				continue;
			put_func(c, y, &fb, p, r + lo, hi - lo);
		}
	}
	/* a graph made without the release's disassembler is not BOLT's */
	if (c->cd != NULL && cfgdis_error(c->cd) != NULL)
		errx(1, "%s", cfgdis_error(c->cd));
	yw_finish(y, &out);
	free(fb.bb);
	free(fb.blk);
	free(fb.calls);
	free(fb.callblk);
	free(fb.succ);
	free(fb.succblk);
	free(fb.bcalls);
	free(fb.bsucc);
	free(c->gcs);
	ywg_buf_free(&c->gbuf);
}

/* the input's functions credited to each BOLTed one: batmap's match,
 * turned around; functions with tables first */
static void
build_rev(struct bctx *c)
{
	const struct bfunc *bf, *in;
	const struct bat_frag *f;
	size_t i;
	int pass;

	c->rev = xcalloc(c->inb.ft.n ? c->inb.ft.n : 1, sizeof(*c->rev));
	for (i = 0; i < c->inb.ft.n; i++)
		c->rev[i] = NONE;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < c->b.bin.ft.n; i++) {
			bf = &c->b.bin.ft.f[i];
			f = c->frag[i];
			if (f != NULL && f->cold)
				continue;	/* credited to its parent */
			if ((f != NULL) != (pass == 0))
				continue;
			if ((in = batmatch_input(&c->m, bf)) == NULL)
				continue;
			if (c->rev[in - c->inb.ft.f] == NONE)
				c->rev[in - c->inb.ft.f] = (uint32_t)i;
		}
}

void
yw_bat(const char *outpath, const char *bolted, const char *input, const char *prof,
    const char *pastend, int stdhash, enum llvm_rel rel, int verbose)
{
	struct bctx c;
	struct pa_entry e;
	char err[512];
	size_t i;
	int k;

	memset(&c, 0, sizeof(c));
	c.stdhash = stdhash;
	c.llvm = rel;
	ktab_init(&c.recs, sizeof(struct rec), 4096, rec_hash);
	if (batbin_open(&c.b, bolted, err, sizeof(err)) == -1 ||
	    boltbin_load(&c.b.bin, 0, err, sizeof(err)) == -1 ||
	    boltbin_open(&c.inb, input, 0, err, sizeof(err)) == -1) {
		errx(1, "%s", err);
	}
	c.frag = xcalloc(c.b.bin.ft.n + 1, sizeof(*c.frag));
	for (i = 0; i < c.b.bin.ft.n; i++)
		c.frag[i] = bat_find(&c.b.bat, c.b.bin.ft.f[i].addr);
	batmatch_init(&c.m, &c.b.bin.ft, &c.inb.ft);
	build_rev(&c);
	index_kids(&c);
	c.exec = xcalloc(c.b.bin.ft.n ? c.b.bin.ft.n : 1, sizeof(*c.exec));
	/* the code of the BOLTed binary, for its functions without tables,
	 * is read before the input: in a pipeline, while the stages before
	 * this one still work */
	cfgdis_prepare(dis(&c));
	if (pa_open(&c.r, prof) == -1) {
		prog_open_error(prof);
	}
	while ((k = pa_next(&c.r, &e)) == 1)
		entry(&c, &e);
	if (k == -1)
		lr_errx(&c.r.lr, "%s", c.r.err);
	if (pastend != NULL)
		read_pastend(&c, pastend);
	write_yaml(&c, outpath, bolted);
	if (verbose)
		fprintf(stderr, "%s: %llu entries: %llu branches, %llu "
		    "fall-throughs, %llu samples; %llu outside the matched "
		    "functions, %llu in input functions no BOLTed function "
		    "maps to, %llu in no block of the tables, %llu branches "
		    "not on the graph of a function without tables\n",
		    progname,
		    (unsigned long long)c.nent, (unsigned long long)c.nbranch,
		    (unsigned long long)c.ntrace,
		    (unsigned long long)c.nsample,
		    (unsigned long long)c.nunknown,
		    (unsigned long long)c.nnomap,
		    (unsigned long long)c.nnoblock,
		    (unsigned long long)c.nmismatch);
	if (verbose && pastend != NULL)
		fprintf(stderr, "%s: --past-end: %llu lines read from %s\n",
		    progname, (unsigned long long)c.npastend, pastend);
	pa_close(&c.r);
	ktab_free(&c.recs);
	big_free(c.byfunc, c.capbyfunc, sizeof(*c.byfunc));
	free(c.events);
	free(c.rev);
	free(c.frag);
	free(c.kids);
	free(c.kidx);
	free(c.exec);
	ywh_close(c.h);
	free(c.bh);
	if (c.cd != NULL)
		cfgdis_close(c.cd);
	batmatch_free(&c.m);
	boltbin_close(&c.inb);
	batbin_close(&c.b);
}
