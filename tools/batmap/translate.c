/* See COPYING file for copyright and license details. */
/*
 * translate.c: a pre-aggregated profile of a BOLTed binary, as the
 * input binary's profile.  Every entry is read the way perf2bolt 19's
 * DataAggregator reads it on the BOLTed binary with BAT
 * (DataAggregator::doBranch and doTrace with BoltAddressTranslation::
 * translate in LLVM 19; batmap(1)): a branch's ends go through
 * translate(), the source to its nearest preceding entry, the target
 * keeping its distance, cold fragments credited to their hot parent, a
 * branch from a return dropped; a fall-through range is split with the
 * tables into one F entry per pair of input blocks it crosses, and one
 * in a function without tables is dropped.  The result is written in
 * the input binary's addresses: each function of the BOLTed binary is
 * the input's function of the same name.  Entries are summed and written
 * sorted, B, F and S entries (what LLVM 19 reads) after E lines.
 */
#include <err.h>
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "elfobj.h"
#include "bat.h"
#include "boltbin.h"
#include "pa.h"
#include "x86dec.h"
#include "a64dec.h"
#include "ktab.h"

#include "batmap.h"

struct bin {
	const char	*path;
	struct boltbin	*bb;		/* base: PIE locations are offsets
					 * from it */
	const uint8_t	*image;		/* the file as libelf mapped it */
	size_t		 imagesz;
	const struct elf_seg *xseg;	/* its executable segments, for
					 * returns: xseg[0, nxseg) */
	size_t		 nxseg;
	struct elf_seg	*xsegv;
};

/* output entries, summed by (type, locations) in a keyed table
 * (ktab.h) */
struct okey {
	uint64_t	a[2];
	uint32_t	obj[2];
	uint32_t	type;		/* pa_type: PA_B, PA_F or PA_S */
	uint32_t	ev;		/* event for S */
};
struct oent {
	struct okey	k;
	uint64_t	count, mis;
};

static struct ktab otab;
static size_t	 nwritten;

/* --past-end: the branches with an end past the end of its input
 * function, summed by their fdata locations: obj PE_UNKNOWN for
 * "0 [unknown] a", else the input function's index + 1 and a its
 * offset */
#define PE_UNKNOWN	0u
static struct ktab ptab;
static uint64_t	 npastend;

static struct {
	uint64_t	in, branches, traces, samples;
	uint64_t	ret, unknown, longrange, invalid, nobat, nopairs;
	uint64_t	nomatch, pairs, passed, beyond, ftpairs, brpairs;
	uint64_t	unmatched, stubends, yamlrets;
} st;

static uint64_t
okhash(const struct okey *k)
{
	return hash_mix64(k->a[0] ^ hash_mix64(k->a[1] ^
	    hash_mix64(((uint64_t)k->obj[0] << 32 | k->obj[1]) ^
	    ((uint64_t)k->type << 32 | k->ev))));
}

static uint64_t
oent_hash(const void *e)
{
	return okhash(&((const struct oent *)e)->k);
}

static int
okey_eq(const void *e, const void *key)
{
	const struct okey *x = &((const struct oent *)e)->k, *k = key;

	return x->a[0] == k->a[0] && x->a[1] == k->a[1] &&
	    x->obj[0] == k->obj[0] && x->obj[1] == k->obj[1] &&
	    x->type == k->type && x->ev == k->ev;
}

static void
emit_past(const struct okey *k, uint64_t count, uint64_t mis)
{
	struct oent *e;
	int added;

	if (ptab.recsz == 0)
		ktab_init(&ptab, sizeof(struct oent), 1 << 6, oent_hash);
	e = ktab_get(&ptab, k, okhash(k), okey_eq, &added);
	if (added)
		e->k = *k;
	e->count += count;
	e->mis += mis;
}

static void
emit(const struct okey *k, uint64_t count, uint64_t mis)
{
	struct oent *e;
	int added;

	if (otab.recsz == 0)
		ktab_init(&otab, sizeof(struct oent), 1 << 14, oent_hash);
	e = ktab_get(&otab, k, okhash(k), okey_eq, &added);
	if (added)
		e->k = *k;
	e->count += count;
	e->mis += mis;
}

/* output order: type, event, then each location by object and address */
static inline int
oentcmp(const struct oent *x, const struct oent *y)
{
	int i;

	if (x->k.type != y->k.type)
		return x->k.type < y->k.type ? -1 : 1;
	if (x->k.ev != y->k.ev)
		return x->k.ev < y->k.ev ? -1 : 1;
	for (i = 0; i < 2; i++) {
		if (x->k.obj[i] != y->k.obj[i])
			return x->k.obj[i] < y->k.obj[i] ? -1 : 1;
		if (x->k.a[i] != y->k.a[i])
			return x->k.a[i] < y->k.a[i] ? -1 : 1;
	}
	return 0;
}

/* sorted where they stand (sort.h) */
#define SORT_NAME	osort
#define SORT_TYPE	struct oent
#define SORT_LESS(a, b)	(oentcmp(a, b) < 0)
#include "sort.h"

static void
load_bin(struct bin *b, struct boltbin *bb, const char *path, int code)
{
	const struct elfobj *eo = &bb->eo;
	char err[512];
	size_t i;
	char *img;

	memset(b, 0, sizeof(*b));
	b->path = path;
	b->bb = bb;
	if (boltbin_load(bb, 0, err, sizeof(err)) == -1) {
		errx(1, "%s", err);
	}
	if (!code)
		return;
	/* the executable segments, read where the returns are in the file
	 * libelf mapped (ELF_C_READ_MMAP): only the pages of the branches
	 * the profile has are ever read */
	if ((img = elf_rawfile(eo->elf, &b->imagesz)) == NULL)
		errx(1, "%s: %s", path, elf_errmsg(-1));
	b->image = (const uint8_t *)img;
	b->xsegv = xcalloc(eo->nsegs ? eo->nsegs : 1, sizeof(*b->xsegv));
	for (i = 0; i < eo->nsegs; i++) {
		if (!(eo->segs[i].flags & PF_X))
			continue;
		if (eo->segs[i].offset > b->imagesz ||
		    eo->segs[i].filesz > b->imagesz - eo->segs[i].offset)
			errx(1, "%s: executable segment past the end of the "
			    "file", path);
		b->xsegv[b->nxseg++] = eo->segs[i];
	}
	b->xseg = b->xsegv;
}

/* the bytes of the executable segments from a, and how many (0: none) */
static const uint8_t *
code_at(const struct bin *b, uint64_t a, size_t *n)
{
	size_t i;

	for (i = 0; i < b->nxseg; i++)
		if (a >= b->xseg[i].vaddr && a - b->xseg[i].vaddr <
		    b->xseg[i].filesz) {
			*n = (size_t)(b->xseg[i].filesz - (a - b->xseg[i].vaddr));
			return b->image + b->xseg[i].offset +
			    (a - b->xseg[i].vaddr);
		}
	*n = 0;
	return NULL;
}

/* what translating an address of a BOLTed function needs, worked out
 * once per function */
struct fn {
	const struct bat_frag *frag;	/* its tables (the fragment at its
					 * address), NULL if none */
	const struct bfunc *cred;	/* the function DataAggregator
					 * credits it to: itself, or the hot
					 * parent of a cold fragment */
	const struct bat_frag *credfrag; /* cred's tables */
	const struct bfunc *in;		/* cred's function in the input */
	/* without tables, decoded from its start when a source in it reads
	 * as a return (is_return): the offsets of its returns, and where
	 * decoding stopped (an instruction x86dec's table does not know,
	 * or the end) */
	int		 decoded;
	uint64_t	*rets;
	size_t		 nrets;
	uint64_t	 stop;
	/* --yaml on AArch64: perf2bolt finds no instruction here, so no
	 * return (no_insns) */
	int		 noinsns;
};

/* decode p[0, n), a function's bytes, into x's returns */
static void
decode_rets(struct fn *x, const uint8_t *p, size_t n)
{
	size_t cap = 0;
	uint64_t off = 0;
	struct x86d d;

	while (off < n && x86d_decode(p + off, n - off, &d)) {
		if (x86d_ret_bytes(p + off, d.len)) {
			xgrow(&x->rets, &cap, x->nrets + 1, sizeof(*x->rets));
			x->rets[x->nrets++] = off;
		}
		off += d.len;
	}
	x->stop = off;
}

/* input locations in the table until write_out knows their form */
#define OBJ_INPUT	UINT32_MAX
/* the unknown location 0 until write_out knows its form: 0, or X:0 in a
 * stream that names binaries by build-id (there a bare 0 would read as
 * an address of a binary) */
#define OBJ_ZERO	(UINT32_MAX - 1)

struct ctx {
	struct batbin	*b;
	struct bin	 bo, in;
	struct pa_reader r;
	uint32_t	 inobj;		/* obj for input locations: OBJ_INPUT
					 * while translating, then bare or the
					 * input's build-id (write_out) */
	int		 bidseen;	/* the stream named the BOLTed binary
					 * by its build-id */
	/* the stream's form (as libbolt/prof/pawalk.h describes it): B, F and f
	 * alone, which perf2bolt-19 --pa reads, taking every location for
	 * its bare address, or the current form (T R r S E), where X: and
	 * other binaries' locations lie outside and perf2bolt-19 -p writes
	 * an end outside every function as 0; the entries whose reading
	 * depends on it wait for the end (held) */
	int		 current, ended;
	struct pa_entry	*held;
	size_t		 nheld, capheld;
	uint32_t	 *pairs;
	size_t		 paircap;
	struct batmatch	 m;		/* BOLTed function -> input */
	struct fn	*fn;		/* per BOLTed function (bo.bb->ft.f) */
	const uint64_t	*fstart;	/* bo.bb->ft.f[i].addr, dense (the
					 * function table's index's) */
	/* per hot fragment, the input offsets of its function's blocks
	 * (from all its fragments), sorted: blkoff[blkidx[h]..blkidx[h+1]) */
	uint32_t	*blkoff;
	size_t		*blkidx;
};

/* does a location name the BOLTed binary */
static int
is_self(struct ctx *c, const struct pa_loc *l)
{
	const char *bid;

	if (l->obj == PA_OBJ_SELF)
		return 1;
	if (l->obj == PA_OBJ_X)
		return 0;
	bid = pa_buildid(&c->r, l->obj);
	return bid != NULL && c->bo.bb->bid[0] != '\0' &&
	    strcmp(bid, c->bo.bb->bid) == 0;
}

/* does a location read as an address of the BOLTed binary: in a
 * stream perf2bolt-19 --pa reads, every one does */
static int
reads_self(struct ctx *c, const struct pa_loc *l)
{
	return (c->ended && !c->current) || is_self(c, l);
}

static const struct bfunc *
input_func(struct ctx *c, const struct bfunc *bf)
{
	return batmatch_input(&c->m, bf);
}

static int
u32cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* the input offsets of every function's blocks, over all its fragments
 * (BAT lists each input block once, a block BOLT deleted at the end of
 * its fragment) */
static void
index_blocks(struct ctx *c)
{
	const struct bat *t = &c->b->bat;
	size_t i, j, n, *fill;

	c->blkidx = xcalloc(t->nhot + 1, sizeof(*c->blkidx));
	for (i = 0; i < t->nfrag; i++)
		for (j = 0; j < t->frag[i].nent; j++)
			if (!t->frag[i].ent[j].branch)
				c->blkidx[t->frag[i].parent + 1]++;
	for (i = 0; i < t->nhot; i++)
		c->blkidx[i + 1] += c->blkidx[i];
	c->blkoff = xcalloc(c->blkidx[t->nhot] ? c->blkidx[t->nhot] : 1,
	    sizeof(*c->blkoff));
	fill = xcalloc(t->nhot ? t->nhot : 1, sizeof(*fill));
	for (i = 0; i < t->nfrag; i++)
		for (j = 0; j < t->frag[i].nent; j++)
			if (!t->frag[i].ent[j].branch) {
				n = t->frag[i].parent;
				c->blkoff[c->blkidx[n] + fill[n]++] =
				    t->frag[i].ent[j].in;
			}
	for (i = 0; i < t->nhot; i++)
		if (c->blkidx[i + 1] - c->blkidx[i] > 1)
			qsort(c->blkoff + c->blkidx[i], c->blkidx[i + 1] -
			    c->blkidx[i], sizeof(*c->blkoff), u32cmp);
	free(fill);
}

/* does the input block at offset to follow the one at from in the input
 * function of hot fragment h (no block of the function between them) */
static int
next_block(const struct ctx *c, size_t h, uint64_t from, uint64_t to)
{
	const uint32_t *v = c->blkoff + c->blkidx[h];
	size_t lo = 0, hi = c->blkidx[h + 1] - c->blkidx[h], mid;

	if (from >= to)
		return 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid] <= from)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* v[lo] is the first block above from */
	return lo > 0 && v[lo - 1] == from &&
	    lo < c->blkidx[h + 1] - c->blkidx[h] && v[lo] == to;
}

/* is the input binary the one BOLT optimized: the functions with tables
 * have functions of their names in the input, and every input offset in
 * their tables (their blocks' and branches', their cold fragments' too)
 * lies within that function.  Dies naming what does not. */
static void
check_input(struct ctx *c, const char *inpath)
{
	const struct bat *t = &c->b->bat;
	const struct bat_frag *f;
	const struct bfunc *bf, *in;
	size_t i, j, nfound = 0, nnamed = 0;

	for (i = 0; i < t->nfrag; i++) {
		f = &t->frag[i];
		if ((bf = functab_find(&c->bo.bb->ft,
		    t->frag[f->parent].addr)) == NULL ||
		    bf->addr != t->frag[f->parent].addr)
			continue;
		nnamed++;
		if ((in = input_func(c, bf)) == NULL)
			continue;
		nfound++;
		for (j = 0; j < f->nent; j++)
			if (f->ent[j].in >= in->maxsize)
				errx(1, "%s: not the input of %s: its function "
				    "%s has %llu bytes, the tables of %s map "
				    "0x%llx to offset 0x%x of it", inpath,
				    c->b->path, bf->filename,
				    (unsigned long long)in->maxsize,
				    c->b->path, (unsigned long long)
				    bat_entry_addr(f, &f->ent[j]), f->ent[j].in);
	}
	/* fragments, so a function with cold parts counts more than once;
	 * an input that lacks most of them is another program (one that
	 * lacks a few may be a rebuild: their entries are dropped, -v
	 * counts them) */
	if (nnamed > 0 && (nnamed - nfound) * 2 > nnamed)
		errx(1, "%s: not the input of %s: %zu of its %zu fragments "
		    "with tables belong to functions of names it lacks",
		    inpath, c->b->path, nnamed - nfound, nnamed);
	st.unmatched = nnamed - nfound;
}

/* the function DataAggregator credits an address of the BOLTed binary
 * to: the containing function, or its BAT parent */
static const struct bfunc *
credited(struct ctx *c, const struct bfunc *bf)
{
	uint64_t pa = bat_parent_addr(&c->b->bat, bf->addr);
	const struct bfunc *p;

	if (pa != 0 && (p = functab_find(&c->bo.bb->ft, pa)) != NULL)
		return p;
	return bf;
}

/* is the source a, in function fi of the BOLTed binary, a return.
 * perf2bolt 19 asks the function it disassembled for its instruction at
 * the offset, so bytes inside an instruction that read as a return are
 * none.  In a function with tables, every return BOLT emitted keeps its
 * input offset and has an entry of its own (checked on all 3561 returns
 * of the large program's BOLTed functions): a return is one where an
 * entry is.  Elsewhere the function is decoded once from its start with
 * x86dec's table (batmap does without Capstone, which costs 7 ms to
 * load); past an instruction the table does not know, the bytes decide.
 * An AArch64 word is read as itself. */
static int
source_is_return(struct ctx *c, long fi, uint64_t a)
{
	struct fn *x = &c->fn[fi];
	const struct bat_entry *e;
	const uint8_t *p;
	size_t n;
	uint64_t off = a - c->fstart[fi];

	if ((p = code_at(&c->bo, a, &n)) == NULL)
		return 0;
	/* AArch64: a word is a return or not (disassembleInstructionAtOffset
	 * of a BOLTed function perf2bolt does not disassemble), and no
	 * branch's bytes read as one */
	if (c->bo.bb->eo.machine == EM_AARCH64) {
		struct a64d w;

		if (n < 4)
			return 0;
		a64d_decode(a64d_word(p), a, &w);
		return w.kind == A64K_RET;
	}
	if (!x86d_ret_bytes(p, n))
		return 0;
	if (x->frag != NULL)
		return (e = bat_entry_at(x->frag, off)) != NULL &&
		    bat_entry_addr(x->frag, e) == a;
	if (!x->decoded) {
		x->decoded = 1;
		if ((p = code_at(&c->bo, c->fstart[fi], &n)) != NULL)
			decode_rets(x, p, n < c->bo.bb->ft.f[fi].size ? n :
			    (size_t)c->bo.bb->ft.f[fi].size);
	}
	return off >= x->stop || sorted_has(x->rets, x->nrets, off);
}

/* the hot fragments that have cold ones: split[h] for hot fragment h */
static uint8_t *
split_frags(const struct bat *t)
{
	uint8_t *split = xcalloc(t->nhot ? t->nhot : 1, 1);
	size_t i;

	for (i = 0; i < t->nfrag; i++)
		if (t->frag[i].cold && t->frag[i].parent < t->nhot)
			split[t->frag[i].parent] = 1;
	return split;
}

/* is all of function f data to BOLT (AArch64): a data mark at its start
 * (functab's marks, as discoverFileObjects applies them) and no code
 * mark before its end, so that BinaryFunction::disassemble finds no
 * instruction (libbolt/cfg/a64/a64cfg.c decodes so) */
static int
all_data(const struct functab *ft, const struct bfunc *f)
{
	size_t m = functab_marks_from(ft, f->addr);

	if (m >= ft->nmarks || ft->marks[m].addr != f->addr ||
	    !ft->marks[m].data)
		return 0;
	for (m++; m < ft->nmarks && ft->marks[m].addr - f->addr < f->size; m++)
		if (!ft->marks[m].data)
			return 0;
	return 1;
}

/*
 * --yaml, AArch64: does perf2bolt 19 find no instruction in the BOLTed
 * function fi, and so no return.  Writing YAML (-w, --profile-format=
 * yaml) on an AArch64 BOLTed binary, it disassembles every function
 * whose tables have no cold fragment (it leaves the split ones: "split
 * function detected on input"); one its mapping symbols make all data
 * (in a BOLTed binary, every function from the start of its code up to
 * the first $d there: after a $d of a data section, each symbol at a new
 * address is a data mark) comes out disassembled with no instruction
 * (--print-disasm: state disassembled, nothing listed).
 * DataAggregator::doBranch asks such a function for its instruction at
 * the source (getInstructionAtOffset), gets none, and keeps a branch
 * from a return, in its fdata as in its YAML.  Without YAML it
 * disassembles none of them and decodes the word
 * (disassembleInstructionAtOffset): a return.  On x86-64 it disassembles
 * none in either mode.  Seen on the programs of tests/53-aarch64-cfg.bats
 * (every function with tables: instructions listed or not as this says)
 * and on the large program's 2348 functions with tables: the 1056
 * without cold fragments disassembled, the 1292 with them not.
 */
static int
no_insns(const struct ctx *c, long fi, const struct fn *x,
    const uint8_t *split)
{
	size_t h;

	if (!yflag || c->bo.bb->eo.machine != EM_AARCH64 || x->frag == NULL ||
	    x->frag->cold)
		return 0;
	h = (size_t)(x->frag - c->b->bat.frag);
	return h < c->b->bat.nhot && !split[h] &&
	    all_data(&c->bo.bb->ft, &c->bo.bb->ft.f[fi]);
}

/* c->fn for every function of the BOLTed binary */
static void
index_funcs(struct ctx *c)
{
	const struct functab *ft = &c->bo.bb->ft;
	struct fn *x;
	size_t i;
	uint8_t *split = split_frags(&c->b->bat);

	c->fn = xcalloc(ft->n ? ft->n : 1, sizeof(*c->fn));
	c->fstart = ft->aix.start;
	for (i = 0; i < ft->n; i++) {
		x = &c->fn[i];
		x->frag = bat_find(&c->b->bat, ft->f[i].addr);
		x->cred = credited(c, &ft->f[i]);
		x->credfrag = x->cred == &ft->f[i] ? x->frag :
		    bat_find(&c->b->bat, x->cred->addr);
		x->in = input_func(c, x->cred);
		x->noinsns = no_insns(c, (long)i, x, split);
	}
	free(split);
}

/* the BOLTed function holding a (functab_find): its index, -1 if none */
static long
func_at(const struct ctx *c, uint64_t a)
{
	const struct bfunc *f = functab_find(&c->bo.bb->ft, a);

	return f != NULL ? (long)(f - c->bo.bb->ft.f) : -1;
}

/* an end of a branch, at the address a of the BOLTed binary in its
 * function fi (-1: none; the location is l): 1 and *out set when it is
 * in a function (the input's address for it), 0 when unknown (*out is
 * the location as given), 2 when its function has no counterpart in the
 * input (*out is the unknown location 0), -2 when the translated offset
 * lies past the input function (a BOLTed function can be longer than
 * its input: there the input has no such offset).
 *
 * A function the input lacks is, nearly always, code llvm-bolt left at a
 * moved function's old address in .bolt.org.text: the jump it patched
 * over the old entry (foo.org.0), or an old body too small to patch
 * (perf2bolt names it __BOLT_FDE_FUNCat<addr>), reached by code BOLT
 * could not rewrite.  perf2bolt 19 writes such an end under that name,
 * which llvm-bolt, reading the profile on the input, finds in no
 * function: an unknown location, as 0 is in a pre-aggregated profile
 * (preagg --legacy writes an unknown end so).  A branch from the stub to
 * foo is then an entry into foo, which llvm-bolt credits to foo's
 * execution count and entry block; a call into the stub, the caller's
 * call site. */
static int
branch_end(struct ctx *c, const struct pa_loc *l, long fi, uint64_t a,
    int isfrom, struct pa_loc *out, uint32_t *pf, uint64_t *poff)
{
	const struct fn *x;
	uint64_t off;

	*out = *l;
	*pf = PE_UNKNOWN;
	*poff = l->addr;
	if (fi < 0)
		return 0;
	x = &c->fn[fi];
	if (x->in == NULL) {
		*out = (struct pa_loc){ 0, OBJ_ZERO };
		*poff = 0;
		return 2;
	}
	off = bat_translate_frag(x->frag, a - c->fstart[fi], isfrom);
	*pf = (uint32_t)(x->in - c->in.bb->ft.f) + 1;
	*poff = off;
	if (off >= x->in->maxsize)
		return -2;
	out->addr = x->in->addr + off - c->in.bb->base;
	out->obj = c->inobj;
	return 1;
}

static void
do_branch(struct ctx *c, const struct pa_loc *from, const struct pa_loc *to,
    uint64_t count, uint64_t mis)
{
	struct pa_loc f, t;
	struct okey k;
	uint32_t pf[2];
	uint64_t po[2];
	int kf, kt, sf = reads_self(c, from), st_ = reads_self(c, to);
	uint64_t af = from->addr + c->bo.bb->base,
	    at = to->addr + c->bo.bb->base;
	long ff = sf ? func_at(c, af) : -1, ft = st_ ? func_at(c, at) : -1;

	st.branches++;
	/* perf2bolt 19 ignores branches from returns, those it finds */
	if (ff >= 0 && source_is_return(c, ff, af)) {
		if (!c->fn[ff].noinsns) {
			st.ret++;
			return;
		}
		st.yamlrets++;
	}
	kf = branch_end(c, from, ff, af, 1, &f, &pf[0], &po[0]);
	kt = branch_end(c, to, ft, at, 0, &t, &pf[1], &po[1]);
	if (kf == -2 || kt == -2) {
		/* --past-end: as perf2bolt writes it, an end outside every
		 * function 0 in the current form */
		st.beyond++;
		if (pefile == NULL)
			return;
		memset(&k, 0, sizeof(k));
		k.type = PA_B;
		for (int i = 0; i < 2; i++) {
			if (pf[i] == PE_UNKNOWN && c->current)
				po[i] = 0;
			k.a[i] = po[i];
			k.obj[i] = pf[i];
		}
		emit_past(&k, count, mis);
		return;
	}
	/* an end in a function the input lacks: kept when the other end is
	 * in one it has, else it says nothing of the input */
	if (kf == 2 || kt == 2) {
		if (kf != 1 && kt != 1) {
			st.nomatch++;
			return;
		}
		st.stubends++;
	}
	if (kf == 0 && kt == 0 && sf && st_) {
		st.unknown++;
		return;
	}
	/* the current form: an end outside every function is 0
	 * (EXTERNAL), as perf2bolt-19 -p writes it and preagg gives it */
	if (c->current) {
		if (kf == 0)
			f = (struct pa_loc){ 0, OBJ_ZERO };
		if (kt == 0)
			t = (struct pa_loc){ 0, OBJ_ZERO };
	}
	memset(&k, 0, sizeof(k));
	k.type = PA_B;
	k.a[0] = f.addr;
	k.obj[0] = f.obj;
	k.a[1] = t.addr;
	k.obj[1] = t.obj;
	emit(&k, count, mis);
}

/* a fall-through range start..end of the BOLTed binary (addresses as in
 * the stream), split into input blocks with the tables.  As LLVM 19's
 * doTrace: the range as given, also after a return (LLVM main starts the
 * walk one byte before a return's target, in BAT mode too: the block of
 * the call) */
static void
do_trace(struct ctx *c, const struct pa_loc *start, const struct pa_loc *end,
    uint64_t count)
{
	const struct fn *x;
	const struct bfunc *in;
	const struct bat_frag *fr;
	uint64_t s, e, from, to, fa;
	struct okey k;
	long n, i, ff, tf;

	st.traces++;
	if (!reads_self(c, start) || !reads_self(c, end)) {
		st.passed++;
		return;
	}
	s = start->addr + c->bo.bb->base;
	e = end->addr + c->bo.bb->base;
	ff = func_at(c, s);
	tf = func_at(c, e);
	if (ff < 0 || tf < 0) {
		st.longrange++;
		return;
	}
	if (ff != tf) {
		st.invalid++;
		return;
	}
	x = &c->fn[ff];
	fr = x->frag;
	fa = c->fstart[ff];
	if (s >= e)
		n = 0;
	else if (fr == NULL) {
		/* perf2bolt 19 sends every trace to BAT: one in a function
		 * without tables is an invalid trace */
		st.nobat++;
		return;
	} else
		n = bat_fallthroughs_frag(fr, s - fa, e - fa, &c->pairs,
		    &c->paircap);
	if (n == 0)
		st.nopairs++;
	if ((in = x->in) == NULL) {
		st.nomatch++;
		return;
	}
	memset(&k, 0, sizeof(k));
	k.obj[0] = k.obj[1] = c->inobj;
	for (i = 0; i < n; i++) {
		/* LLVM 19: the pair's output offsets through translate() */
		from = bat_translate_frag(fr, fr->ent[c->pairs[2 * i]].out, 1);
		to = bat_translate_frag(fr, fr->ent[c->pairs[2 * i + 1]].out,
		    0);
		if (from >= in->maxsize || to >= in->maxsize) {
			/* --past-end: a fall-through of the function, as
			 * perf2bolt writes it (doIntraBranch) */
			st.beyond++;
			if (pefile != NULL) {
				struct okey pk;

				memset(&pk, 0, sizeof(pk));
				pk.type = PA_B;
				pk.obj[0] = pk.obj[1] =
				    (uint32_t)(in - c->in.bb->ft.f) + 1;
				pk.a[0] = from;
				pk.a[1] = to;
				emit_past(&pk, count, 0);
			}
			continue;
		}
		/* blocks that follow each other in the input too: a
		 * fall-through there; others (BOLT's layout made them
		 * adjacent) a jump of the input's, from the block's start as
		 * BAT gives it: the same fdata line for fdatawrite --bolted
		 * and perf2bolt on the BOLTed binary, and an edge of the
		 * input's graph, not a walk over the blocks between, for
		 * everything that reads an ordinary profile of the input */
		if (next_block(c, fr->parent, from, to)) {
			k.type = PA_F;
			st.ftpairs++;
		} else {
			k.type = PA_B;
			st.brpairs++;
		}
		k.a[0] = in->addr + from - c->in.bb->base;
		k.a[1] = in->addr + to - c->in.bb->base;
		emit(&k, count, 0);
		st.pairs++;
	}
}

static void
do_sample(struct ctx *c, const struct pa_entry *en)
{
	const struct fn *x;
	uint64_t a, off;
	struct okey k;
	long fi;

	st.samples++;
	memset(&k, 0, sizeof(k));
	k.type = PA_S;
	k.ev = en->event;
	if (!reads_self(c, &en->loc[0])) {
		k.a[0] = en->loc[0].addr;
		k.obj[0] = en->loc[0].obj;
		emit(&k, en->count, 0);
		st.passed++;
		return;
	}
	a = en->loc[0].addr + c->bo.bb->base;
	if ((fi = func_at(c, a)) < 0) {
		st.unknown++;
		return;
	}
	/* doSample: the offset from the credited function, translated in
	 * its table */
	x = &c->fn[fi];
	off = bat_translate_frag(x->credfrag, a - x->cred->addr, 0);
	if (x->in == NULL) {
		st.nomatch++;
		return;
	}
	if (off >= x->in->maxsize) {
		st.beyond++;
		return;
	}
	k.a[0] = x->in->addr + off - c->in.bb->base;
	k.obj[0] = c->inobj;
	emit(&k, en->count, 0);
}

static void
write_out(FILE *fp, struct ctx *c)
{
	struct wbuf w;
	struct pa_entry e;
	size_t i, n = 0;
	uint32_t ev = PA_NO_EVENT;

	size_t j, k;
	uint32_t inobj = PA_OBJ_SELF;
	struct oent *tab;

	/* input locations bare, or with the input's build-id when the
	 * stream named the BOLTed binary by its build-id anywhere */
	if (c->bidseen && c->in.bb->bid[0] != '\0')
		inobj = PA_OBJ_BUILDID(pa_intern_buildid(&c->r, c->in.bb->bid,
		    strlen(c->in.bb->bid)));
	ktab_drop_index(&otab);
	tab = otab.v;
	n = otab.n;
	for (i = 0; i < n; i++)
		for (k = 0; k < 2; k++)
			if (tab[i].k.obj[k] == OBJ_INPUT)
				tab[i].k.obj[k] = inobj;
			else if (tab[i].k.obj[k] == OBJ_ZERO)
				tab[i].k.obj[k] = c->bidseen ?
				    PA_OBJ_X : PA_OBJ_SELF;
	osort(tab, n);
	/* an input location and a bare one passed through can now be equal */
	for (i = j = 0; i < n; i++) {
		if (j > 0 && oentcmp(&tab[j - 1], &tab[i]) == 0) {
			tab[j - 1].count += tab[i].count;
			tab[j - 1].mis += tab[i].mis;
		} else
			tab[j++] = tab[i];
	}
	n = nwritten = j;
	wb_init(&w, fp, 1 << 16);
	for (i = 0; i < n; i++) {
		memset(&e, 0, sizeof(e));
		e.type = (enum pa_type)tab[i].k.type;
		e.nloc = pa_nloc(e.type);
		e.loc[0] = (struct pa_loc){ tab[i].k.a[0], tab[i].k.obj[0] };
		e.loc[1] = (struct pa_loc){ tab[i].k.a[1], tab[i].k.obj[1] };
		e.count = tab[i].count;
		e.mis = tab[i].mis;
		e.has_mis = e.type == PA_B;
		if (e.type == PA_S && tab[i].k.ev != ev &&
		    tab[i].k.ev != PA_NO_EVENT) {
			ev = tab[i].k.ev;
			pa_put_event(&w, pa_event(&c->r, ev));
		}
		pa_put_entry(&w, &e, &c->r);
	}
	wb_free(&w);
}

/* --past-end: the branches write_out cannot name, as fdata lines, each
 * function named as in the fdata of a BOLTed binary (fdatawrite
 * --bolted): a global one by its name, a local one "name/file/N"; for
 * fdatawrite --bolted and yamlwrite --bat, sorted */
static void
write_past(struct ctx *c)
{
	struct output o;
	struct wbuf w;
	struct oent *tab;
	size_t i, n;
	int j;

	out_open(&o, pefile);
	wb_init(&w, o.fp, 1 << 12);
	ktab_drop_index(&ptab);
	tab = ptab.v;
	n = ptab.n;
	if (n > 0)
		osort(tab, n);
	for (i = 0; i < n; i++) {
		for (j = 0; j < 2; j++) {
			if (tab[i].k.obj[j] == PE_UNKNOWN)
				wb_puts(&w, "0 [unknown] ");
			else {
				wb_puts(&w, "1 ");
				functab_put_name(&w, c->in.bb->ft.f[
				    tab[i].k.obj[j] - 1].filename);
				wb_putc(&w, ' ');
			}
			wb_hex(&w, tab[i].k.a[j]);
			wb_putc(&w, ' ');
		}
		wb_dec(&w, tab[i].mis);
		wb_putc(&w, ' ');
		wb_dec(&w, tab[i].count);
		wb_putc(&w, '\n');
	}
	wb_free(&w);
	out_commit(&o);
	npastend = n;
}

/* one entry, in the form of the stream */
static void
entry(struct ctx *c, const struct pa_entry *e)
{
	struct pa_parts p;

	switch (e->type) {
	case PA_E:
		break;
	case PA_S:
		do_sample(c, e);
		break;
	default:
		/* R's branch is a return, which perf2bolt ignores as a
		 * branch (do_branch drops a T entry's return too) */
		pa_split(e, &p);
		if (p.from != NULL && !p.ret)
			do_branch(c, p.from, p.to, e->count, p.mis);
		if (p.fs != NULL)
			do_trace(c, p.fs, p.fe, e->count);
		break;
	}
}

/* does a B, F or f entry read differently in the two forms: a location
 * with X: or a build-id, or (B) an end outside every function of the
 * BOLTed binary */
static int
form_dependent(const struct ctx *c, const struct pa_entry *e)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (e->loc[i].obj != PA_OBJ_SELF)
			return 1;
		if (e->type == PA_B &&
		    func_at(c, e->loc[i].addr + c->bo.bb->base) < 0)
			return 1;
	}
	return 0;
}

static struct ctx *cur;			/* for translate_free */
static struct boltbin *curin;

void
translate(FILE *fp, struct batbin *b, const char *inpath, const char *prof)
{
	static struct ctx c;
	static struct boltbin inbin;
	struct pa_entry e;
	char err[512];
	int k;

	memset(&c, 0, sizeof(c));
	c.b = b;
	if (elfobj_open(&inbin.eo, inpath, err, sizeof(err)) == -1) {
		errx(1, "%s", err);
	}
	if (bat_find(&b->bat, 0) != NULL)
		errx(1, "%s: a fragment at address 0", b->path);
	load_bin(&c.bo, &b->bin, b->path, 1);
	load_bin(&c.in, &inbin, inpath, 0);
	batmatch_init(&c.m, &c.bo.bb->ft, &c.in.bb->ft);
	index_blocks(&c);
	index_funcs(&c);
	check_input(&c, inpath);
	if (pa_open(&c.r, prof) == -1)
		errx(1, "%s: %s", prof ? prof : "<stdin>", strerror(errno));
	c.inobj = OBJ_INPUT;
	while ((k = pa_next(&c.r, &e)) == 1) {
		int l;

		st.in++;
		for (l = 0; l < e.nloc && !c.bidseen; l++)
			if (e.loc[l].obj != PA_OBJ_SELF &&
			    e.loc[l].obj != PA_OBJ_X && is_self(&c, &e.loc[l]))
				c.bidseen = 1;
		if (e.type != PA_B && e.type != PA_F && e.type != PA_f)
			c.current = 1;
		else if (form_dependent(&c, &e)) {
			xgrow(&c.held, &c.capheld, c.nheld + 1,
			    sizeof(*c.held));
			c.held[c.nheld++] = e;
			continue;
		}
		entry(&c, &e);
	}
	if (k == -1)
		lr_errx(&c.r.lr, "%s", c.r.err);
	/* the form is known: the held entries */
	c.ended = 1;
	for (size_t i = 0; i < c.nheld; i++)
		entry(&c, &c.held[i]);
	free(c.held);
	c.held = NULL;
	/* the past-end file complete before the first byte of the stream:
	 * a reader that takes it at the stream's end has all of it */
	if (pefile != NULL)
		write_past(&c);
	write_out(fp, &c);
	if (vflag)
		fprintf(stderr, "%s: %llu entries: %llu branches (%llu from "
		    "returns, %llu outside functions dropped), %llu "
		    "fall-throughs (%llu outside functions, %llu across "
		    "functions, %llu in functions without tables dropped; "
		    "%llu input block pairs: %llu adjacent in the input (F), "
		    "%llu not (B)), %llu samples; %llu branches with an end "
		    "in a function %s lacks, written as unknown (0); %llu "
		    "dropped with no function of that name in %s, %llu past "
		    "the end of the input's function; %llu entries "
		    "written\n",
		    progname, (unsigned long long)st.in,
		    (unsigned long long)st.branches,
		    (unsigned long long)st.ret, (unsigned long long)st.unknown,
		    (unsigned long long)st.traces,
		    (unsigned long long)st.longrange,
		    (unsigned long long)st.invalid,
		    (unsigned long long)st.nobat,
		    (unsigned long long)st.pairs,
		    (unsigned long long)st.ftpairs,
		    (unsigned long long)st.brpairs,
		    (unsigned long long)st.samples,
		    (unsigned long long)st.stubends, inpath,
		    (unsigned long long)st.nomatch, inpath,
		    (unsigned long long)st.beyond, (unsigned long long)nwritten);
	if (vflag && pefile != NULL)
		fprintf(stderr, "%s: --past-end: %llu lines written to %s\n",
		    progname, (unsigned long long)npastend, pefile);
	if (vflag && yflag)
		fprintf(stderr, "%s: --yaml: %llu branches from returns kept, "
		    "in functions perf2bolt finds no instruction in\n",
		    progname, (unsigned long long)st.yamlrets);
	if (vflag && st.unmatched)
		fprintf(stderr, "%s: %llu fragments with tables belong to "
		    "functions of names %s lacks\n", progname,
		    (unsigned long long)st.unmatched, inpath);
	cur = &c;
	curin = &inbin;
}

/* what translate kept, freed: after the output is out (a pipeline's next
 * stage need not wait for it) */
void
translate_free(void)
{
	struct ctx *c = cur;
	size_t i;

	if (c == NULL)
		return;
	pa_close(&c->r);
	if (c->fn != NULL)
		for (i = 0; i < c->bo.bb->ft.n; i++)
			free(c->fn[i].rets);
	functab_free(&c->bo.bb->ft);
	free(c->bo.xsegv);
	free(c->in.xsegv);
	free(c->fn);
	batmatch_free(&c->m);
	free(c->blkoff);
	free(c->blkidx);
	free(c->pairs);
	ktab_free(&otab);
	ktab_free(&ptab);
	boltbin_close(curin);
	cur = NULL;
}
