/* See COPYING file for copyright and license details. */
/*
 * map.c: a pre-aggregated profile onto the binary's basic blocks, with
 * Propeller's rules (google/llvm-propeller binary_address_mapper.cc and
 * program_cfg_builder.cc; bbmap(1) sums them up): blocks found by binary search with a from/to direction;
 * a branch into a function's entry is a call; a branch from a return
 * block, or into the middle of a block, a return; a return from outside
 * the function that lands on a block start came back from a call ending
 * the previous block, and is redirected there with a synthesized
 * fall-through; fall-through ranges are walked block to block along the
 * function's graph (tools/bbmap/bbcfg.c: the map's CanFallThrough and the
 * successors of its PGO analysis map), while each block falls through to
 * the next.  Branch edges inside a function whose graph knows all
 * successors are checked against them.  Block counts are Propeller's
 * node frequency.
 */
#include <err.h>
#include <gelf.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktab.h"
#include "bbcfg.h"
#include "bbmap.h"
#include "pa.h"

#define NONE	UINT32_MAX

enum { FROM, TO };

struct blk {			/* a block in the address-sorted index */
	uint64_t	start;
	uint32_t	size;
	uint32_t	bb;		/* index into map.bbs */
};

struct edge {
	uint32_t	src, dst;	/* block indices, src NONE: from outside */
	uint8_t		kind;
	uint64_t	count, mis;
};

static const char *kindname[] = { "br", "ft", "call", "ret", "jmp" };

struct mapper {
	const struct bin *b;
	struct blk	*blks;
	size_t		 nblks;
	uint32_t	*bbfunc, *bbrange;
	uint32_t	*bbnode;	/* the block's index in its function's
					 * graph */
	struct cfg	*g;		/* per function */
	uint64_t	*bbaddr;
	uint64_t	*samples;
	uint64_t	*ftw;		/* fall-through weight from block i to
					 * i + 1: the most frequent edges, kept
					 * out of the hash table */
	size_t		 nft;		/* blocks with some */
	struct ktab	 edges;		/* struct edge by (src, dst, kind) */
	struct mapstat	*st;
	char		 bidhex[129];	/* the binary's build-id, "" if none */
	uint32_t	 selfobj;	/* the reader's object number for it */
};

static struct mapper M;

static uint64_t	edge_hash(const void *);

static int
blkcmp(const void *a, const void *b)
{
	const struct blk *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->bb < y->bb ? -1 : x->bb > y->bb;
}

static void
index_blocks(const struct bin *b)
{
	const struct bam_map *m = &b->map;
	uint32_t *order;
	size_t f, r, k, n = 0;

	M.b = b;
	M.bbfunc = xcalloc(m->nbbs + 1, sizeof(*M.bbfunc));
	M.bbrange = xcalloc(m->nbbs + 1, sizeof(*M.bbrange));
	M.bbaddr = xcalloc(m->nbbs + 1, sizeof(*M.bbaddr));
	M.samples = xcalloc(m->nbbs + 1, sizeof(*M.samples));
	M.ftw = xcalloc(m->nbbs + 1, sizeof(*M.ftw));
	M.blks = xcalloc(m->nbbs + 1, sizeof(*M.blks));
	M.bbnode = xcalloc(m->nbbs + 1, sizeof(*M.bbnode));
	M.g = xcalloc(m->nfuncs + 1, sizeof(*M.g));
	order = xcalloc(m->nbbs + 1, sizeof(*order));
	for (f = 0; f < m->nfuncs; f++) {
		const struct bam_func *fn = &m->funcs[f];

		bbcfg_build(m, f, &M.g[f], order, NULL);
		for (k = 0; k < M.g[f].nblocks; k++)
			M.bbnode[order[k]] = (uint32_t)k;

		for (r = fn->range; r < fn->range + fn->nrange; r++) {
			const struct bam_range *rg = &m->ranges[r];

			for (k = rg->bb; k < rg->bb + rg->nbb; k++) {
				M.bbfunc[k] = (uint32_t)f;
				M.bbrange[k] = (uint32_t)r;
				M.bbaddr[k] = rg->base + m->bbs[k].off;
				M.blks[n].start = M.bbaddr[k];
				M.blks[n].size = m->bbs[k].size;
				M.blks[n].bb = (uint32_t)k;
				n++;
			}
		}
	}
	free(order);
	M.nblks = n;
	qsort(M.blks, n, sizeof(*M.blks), blkcmp);
	if (b->eo.buildid_len)
		hex_encode(M.bidhex, b->eo.buildid, b->eo.buildid_len);
	M.selfobj = PA_OBJ_SELF;
	ktab_init(&M.edges, sizeof(struct edge), 1024, edge_hash);
}

/* Propeller's FindBbHandleIndexUsingBinaryAddress: the last block
 * starting at or before a; inside it, or at its end for a "to" address
 * (a return after a call that ends a padded block); at a start shared
 * with empty blocks, the first of them for "to", the non-empty one for
 * "from" */
static uint32_t
find(uint64_t a, int dir)
{
	size_t lo = 0, hi = M.nblks, mid, i;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (M.blks[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NONE;
	i = lo - 1;
	if (a > M.blks[i].start) {
		if (a < M.blks[i].start + M.blks[i].size ||
		    (dir == TO && a == M.blks[i].start + M.blks[i].size))
			return M.blks[i].bb;
		return NONE;
	}
	if (dir == TO)
		while (i > 0 && M.blks[i - 1].start == a &&
		    M.bbfunc[M.blks[i - 1].bb] == M.bbfunc[M.blks[i].bb])
			i--;
	return M.blks[i].bb;
}

static uint64_t
hash3(uint32_t s, uint32_t d, uint8_t k)
{
	return hash_mix64(((uint64_t)s << 32 | d) * 0x9e3779b97f4a7c15ULL ^ k);
}

static uint64_t
edge_hash(const void *rec)
{
	const struct edge *e = rec;

	return hash3(e->src, e->dst, e->kind);
}

static int
edge_eq(const void *rec, const void *key)
{
	const struct edge *e = rec, *k = key;

	return e->src == k->src && e->dst == k->dst && e->kind == k->kind;
}

static void
add_edge(uint32_t s, uint32_t d, uint8_t kind, uint64_t w, uint64_t mis)
{
	struct edge k, *e;
	int added;

	if (kind == 1) {	/* a fall-through: always to the next block */
		if (M.ftw[s] == 0)
			M.nft++;
		M.ftw[s] += w;
		return;
	}
	memset(&k, 0, sizeof(k));
	k.src = s;
	k.dst = d;
	k.kind = kind;
	e = ktab_get(&M.edges, &k, hash3(s, d, kind), edge_eq, &added);
	if (added) {
		e->src = s;
		e->dst = d;
		e->kind = kind;
	}
	e->count += w;
	e->mis += mis;
}

/* is block j a successor of block i in g (cfg_is_succ, which lives in
 * cfgdis.c with the disassembler) */
static int
is_succ(const struct cfg *g, uint32_t i, uint32_t j)
{
	const struct cfg_block *c = &g->blocks[i];
	uint32_t k;

	for (k = 0; k < c->nsucc; k++)
		if (g->succs[c->succ + k] == j)
			return 1;
	return 0;
}

static uint64_t
funcaddr(uint32_t f)
{
	return M.b->map.ranges[M.b->map.funcs[f].range].base;
}

static uint32_t
md(uint32_t bb)
{
	return M.b->map.bbs[bb].md;
}

/* the location as an address of the binary, or 0 with *ok = 0 */
static int
in_bin(const struct pa_reader *r, const struct pa_loc *l, uint64_t *a)
{
	const char *bid;

	if (l->addr >= PA_FT_EXTERNAL_RETURN)	/* -1, -2, -3 */
		return 0;
	if (l->obj == PA_OBJ_X)
		return 0;
	if (l->obj != PA_OBJ_SELF && l->obj != M.selfobj) {
		/* build-ids are interned: one string compare per new one */
		if (M.bidhex[0] == '\0' ||
		    (bid = pa_buildid(r, l->obj)) == NULL ||
		    strcmp(M.bidhex, bid) != 0)
			return 0;
		M.selfobj = l->obj;
	}
	*a = l->addr;
	return 1;
}

static void
branch(int fromok, uint64_t from, int took, uint64_t to, uint64_t w,
    uint64_t mis, int isret)
{
	struct mapstat *st = M.st;
	uint32_t fb, tb, tf;
	uint64_t fentry, tstart;
	int srcret, redirected = 0;
	uint8_t kind;

	st->br += w;
	if (!took || (tb = find(to, TO)) == NONE) {
		st->br_unmapped += w;
		if (fromok && find(from, FROM) != NONE)
			st->loose += w;
		return;
	}
	fb = fromok ? find(from, FROM) : NONE;
	tf = M.bbfunc[tb];
	fentry = funcaddr(tf);
	tstart = M.bbaddr[tb];
	srcret = fb != NONE && (md(fb) & BAM_MD_RET);
	if ((fb == NONE || srcret || isret || M.bbfunc[fb] != tf) &&
	    to != fentry && to == tstart) {
		/* came back from a call that ended the previous block */
		if (tb > 0 && M.bbrange[tb - 1] == M.bbrange[tb]) {
			add_edge(tb - 1, tb, 1, w, 0);
			tb--;
			redirected = 1;
		}
	}
	if (fb == NONE) {
		if (to == fentry) {
			add_edge(NONE, tb, 2, w, mis);
			st->br_edges += w;
		} else {
			/* flow enters tb (or, redirected, leaves tb - 1)
			 * with no edge recorded for it */
			st->br_unmapped += w;
			st->loose += w;
		}
		return;
	}
	if (!srcret && !isret && !redirected && to != tstart)
		st->br_midblock += w;
	if (to == fentry)
		kind = 2;
	else if (redirected || isret || srcret || to != tstart)
		kind = 3;
	else if (M.bbfunc[fb] != tf)
		kind = 4;
	else
		kind = 0;
	if (kind == 0) {
		/* a branch inside the function: when the graph knows the
		 * block's successors, is it one */
		const struct cfg *g = &M.g[tf];
		uint32_t n = M.bbnode[fb];

		if (g->blocks[n].flags & CFG_SUCCS_KNOWN) {
			st->br_checked += w;
			if (!is_succ(g, n, M.bbnode[tb]))
				st->br_notsucc += w;
		}
	}
	add_edge(fb, tb, kind, w, mis);
	st->br_edges += w;
}

static void
fallthrough(int sok, uint64_t s, int eok, uint64_t e, uint64_t w)
{
	struct mapstat *st = M.st;
	const struct cfg *g;
	uint32_t a, b, i, n;

	st->ft += w;
	a = sok ? find(s, TO) : NONE;
	b = eok ? find(e, FROM) : NONE;
	if (a == NONE || b == NONE) {
		st->ft_unmapped += w;
		if (a != NONE || b != NONE)
			st->loose += w;
		return;
	}
	if (a == b) {
		st->ft_inblock += w;
		return;
	}
	/* one range, forward, and every block falls through to the next:
	 * in the graph, blocks of one range follow each other */
	if (a > b || M.bbrange[a] != M.bbrange[b]) {
		st->ft_noft += w;
		st->loose += 2 * w;
		return;
	}
	g = &M.g[M.bbfunc[a]];
	for (i = a; i < b; i++) {
		n = M.bbnode[i];
		if (!(g->blocks[n].flags & CFG_FALLS) || !is_succ(g, n, n + 1)) {
			st->ft_noft += w;
			st->loose += 2 * w;
			return;
		}
	}
	for (i = a; i < b; i++)
		add_edge(i, i + 1, 1, w, 0);
	st->ft_edges += w;
}

void
map_profile(const struct bin *b, const char *path, struct mapstat *st,
    char ***events, size_t *nevents)
{
	struct pa_reader r;
	struct pa_entry e;
	struct pa_parts p;
	uint64_t a0 = 0, a1 = 0;
	int ok0, ok1, k;
	uint32_t bb;
	size_t cap = 0;

	memset(st, 0, sizeof(*st));
	M.st = st;
	index_blocks(b);
	if (pa_open(&r, path) == -1)
		err(1, "%s", path ? path : "<stdin>");
	while ((k = pa_next(&r, &e)) == 1) {
		switch (e.type) {
		case PA_E:
			xgrow(events, &cap, *nevents + 1, sizeof(**events));
			(*events)[(*nevents)++] = xstrdup(pa_event(&r, e.event));
			break;
		case PA_S:
			st->samples += e.count;
			if (in_bin(&r, &e.loc[0], &a0) &&
			    (bb = find(a0, FROM)) != NONE) {
				M.samples[bb] += e.count;
				st->samples_mapped += e.count;
			}
			break;
		default:
			pa_split(&e, &p);
			/* the branch: none from an external origin; an
			 * external return has source -3 (p.from NULL) or, in
			 * a T or R entry, 0 */
			if (p.to != NULL && p.origin != PA_ORIG_EXTERNAL) {
				ok0 = p.from != NULL &&
				    in_bin(&r, p.from, &a0) &&
				    (e.type == PA_B || a0 != 0);
				ok1 = in_bin(&r, p.to, &a1);
				branch(ok0, a0, ok1, a1, e.count, p.mis, p.ret);
			}
			if (p.fs != NULL) {
				ok0 = in_bin(&r, p.fs, &a0);
				ok1 = in_bin(&r, p.fe, &a1);
				fallthrough(ok0, a0, ok1, a1, e.count);
			}
			break;
		}
	}
	if (k == -1)
		lr_errx(&r.lr, "%s", r.err);
	pa_close(&r);
}

/* the function an edge is printed under: its source's, or for a call
 * from outside its target's */
static uint32_t
efunc(const struct edge *e)
{
	return M.bbfunc[e->src == NONE ? e->dst : e->src];
}

/* the order of the edges: by the function printing them (the source's,
 * or the target's for calls from outside), then source (calls from
 * outside last), kind, target; as two keys computed once, so that the
 * sort compares integers only */
struct ekey {
	uint64_t	k1, k2;
	size_t		i;
};

static int
ekeycmp(const void *x, const void *y)
{
	const struct ekey *a = x, *b = y;

	if (a->k1 != b->k1)
		return a->k1 < b->k1 ? -1 : 1;
	return a->k2 < b->k2 ? -1 : a->k2 > b->k2;
}

static void
sort_edges(struct edge *es, size_t n)
{
	struct ekey *k = xcalloc(n + 1, sizeof(*k));
	struct edge *tmp = xcalloc(n + 1, sizeof(*tmp));
	size_t i;

	for (i = 0; i < n; i++) {
		k[i].k1 = (uint64_t)efunc(&es[i]) << 32 | es[i].src;	/* NONE
							 * is the largest */
		k[i].k2 = (uint64_t)es[i].kind << 32 | es[i].dst;
		k[i].i = i;
	}
	qsort(k, n, sizeof(*k), ekeycmp);
	for (i = 0; i < n; i++)
		tmp[i] = es[k[i].i];
	memcpy(es, tmp, n * sizeof(*es));
	free(tmp);
	free(k);
}

void
map_write(const struct bin *b, FILE *fp, int pgo, char **events, size_t nevents)
{
	const struct bam_map *m = &b->map;
	struct edge *es;
	uint64_t *in, *out, *callmax, *retmax, *cnt;
	size_t i, j, n = 0, f, k;
	char hex[129];
	const char *name;
	struct wbuf w;

	/* the edges, dense and sorted */
	es = xcalloc(M.edges.n + M.nft + 1, sizeof(*es));
	for (i = 0; i < M.edges.n; i++)
		es[n++] = *(const struct edge *)ktab_at(&M.edges, i);
	for (k = 0; k < m->nbbs; k++)
		if (M.ftw[k]) {
			es[n].src = (uint32_t)k;
			es[n].dst = (uint32_t)k + 1;
			es[n].kind = 1;
			es[n].count = M.ftw[k];
			es[n].mis = 0;
			n++;
		}
	sort_edges(es, n);

	/* Propeller's node frequency: max(sum in (not returns), sum out
	 * (not calls), largest call out, largest return in) */
	in = xcalloc(m->nbbs + 1, sizeof(*in));
	out = xcalloc(m->nbbs + 1, sizeof(*out));
	callmax = xcalloc(m->nbbs + 1, sizeof(*callmax));
	retmax = xcalloc(m->nbbs + 1, sizeof(*retmax));
	cnt = xcalloc(m->nbbs + 1, sizeof(*cnt));
	for (i = 0; i < n; i++) {
		if (es[i].kind == 3) {
			if (es[i].count > retmax[es[i].dst])
				retmax[es[i].dst] = es[i].count;
		} else {
			in[es[i].dst] += es[i].count;
		}
		if (es[i].src == NONE)
			continue;
		if (es[i].kind == 2) {
			if (es[i].count > callmax[es[i].src])
				callmax[es[i].src] = es[i].count;
		} else {
			out[es[i].src] += es[i].count;
		}
	}
	for (k = 0; k < m->nbbs; k++) {
		cnt[k] = in[k];
		if (out[k] > cnt[k])
			cnt[k] = out[k];
		if (callmax[k] > cnt[k])
			cnt[k] = callmax[k];
		if (retmax[k] > cnt[k])
			cnt[k] = retmax[k];
	}

	wb_init(&w, fp, 1 << 16);
	wb_printf(&w, "# profpipe-bb 1\n# binary=%s\n", b->path);
	if (b->eo.buildid_len) {
		hex_encode(hex, b->eo.buildid, b->eo.buildid_len);
		wb_printf(&w, "# buildid=%s\n", hex);
	}
	for (i = 0; i < nevents; i++)
		wb_printf(&w, "# event=%s\n", events[i]);

	j = 0;
	for (f = 0; f < m->nfuncs; f++) {
		const struct bam_func *fn = &m->funcs[f];
		size_t first = m->ranges[fn->range].bb, touched = 0;
		long double scale = 0;
		int havefreq;

		while (j < n && efunc(&es[j]) < f)	/* none: kept safe */
			j++;
		for (k = first; k < first + fn->nbb; k++)
			if (cnt[k] || M.samples[k])
				touched++;
		if (!touched && (j >= n || efunc(&es[j]) != f))
			continue;
		name = bin_name(b, funcaddr((uint32_t)f), fn->text);
		wb_puts(&w, "func ");
		wb_dec(&w, f);
		wb_putc(&w, ' ');
		wb_hex(&w, funcaddr((uint32_t)f));
		wb_putc(&w, ' ');
		wb_dec(&w, fn->nbb);
		wb_putc(&w, ' ');
		wb_puts(&w, name ? name : "-");
		wb_putc(&w, '\n');
		havefreq = pgo && (fn->feature & BAM_F_BBFREQ) && fn->npgo > 0 &&
		    m->pgo[fn->pgo].freq > 0;
		if (havefreq)
			scale = (long double)cnt[first] / m->pgo[fn->pgo].freq;
		for (k = first; k < first + fn->nbb; k++) {
			if (!cnt[k] && !M.samples[k])
				continue;
			wb_puts(&w, "block ");
			wb_dec(&w, f);
			wb_putc(&w, ' ');
			wb_dec(&w, m->bbs[k].id);
			wb_putc(&w, ' ');
			wb_hex(&w, M.bbaddr[k]);
			wb_putc(&w, ' ');
			wb_hex(&w, m->bbs[k].size);
			wb_putc(&w, ' ');
			wb_dec(&w, cnt[k]);
			wb_putc(&w, ' ');
			wb_dec(&w, M.samples[k]);
			if (pgo && havefreq)
				wb_printf(&w, " %.0Lf", scale *
				    m->pgo[fn->pgo + (k - first)].freq);
			else if (pgo)
				wb_puts(&w, " -");
			wb_putc(&w, '\n');
		}
		for (; j < n && efunc(&es[j]) == f; j++) {
			const struct edge *e = &es[j];

			wb_puts(&w, "edge ");
			wb_puts(&w, kindname[e->kind]);
			wb_putc(&w, ' ');
			if (e->src == NONE)
				wb_puts(&w, "- -");
			else {
				wb_dec(&w, M.bbfunc[e->src]);
				wb_putc(&w, ' ');
				wb_dec(&w, m->bbs[e->src].id);
			}
			wb_putc(&w, ' ');
			wb_dec(&w, M.bbfunc[e->dst]);
			wb_putc(&w, ' ');
			wb_dec(&w, m->bbs[e->dst].id);
			wb_putc(&w, ' ');
			wb_dec(&w, e->count);
			wb_putc(&w, ' ');
			wb_dec(&w, e->mis);
			wb_putc(&w, '\n');
		}
	}
	wb_free(&w);
	free(es);
	free(in);
	free(out);
	free(callmax);
	free(retmax);
	free(cnt);
}

void
map_free(void)
{
	size_t i;

	free(M.blks);
	free(M.bbfunc);
	free(M.bbrange);
	free(M.bbaddr);
	free(M.bbnode);
	for (i = 0; M.g && i < M.b->map.nfuncs; i++)
		bbcfg_free(&M.g[i]);
	free(M.g);
	free(M.samples);
	free(M.ftw);
	ktab_free(&M.edges);
	memset(&M, 0, sizeof(M));
}
