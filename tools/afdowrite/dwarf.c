/* See COPYING file for copyright and license details. */
/*
 * dwarf.c: what llvm-profgen 19 learns from DWARF, read through libdw.
 *
 * Functions (ProfiledBinary::loadSymbolsFromDWARFUnit): every
 * DW_TAG_subprogram of every unit with a name (the linkage name, else
 * the name, each searched through DW_AT_abstract_origin and
 * DW_AT_specification) and address ranges; one BinaryFunction per name,
 * holding the ranges of every subprogram of that name; one FuncRange per
 * start address (the first subprogram wins), dropping empty ranges and
 * those below the preferred base.  A range is its function's entry when
 * the function has one range, or when a symbol of the same canonical
 * name lies in it (setIsFuncEntry).
 *
 * The symbolizer (LLVMSymbolizer::symbolizeInlinedCode through
 * DWARFContext::getInliningInfoForAddress): the unit of an address from
 * .debug_aranges and the units' own ranges (DWARFDebugAranges: where
 * units overlap, the one at the lowest offset); in the unit the deepest
 * subprogram or inlined subroutine whose range holds the address, as
 * DWARFUnit::updateAddressDieMap lays their ranges one over the other in
 * DIE order; from it the chain of inlined subroutines up to the
 * subprogram.  The innermost frame's line and discriminator come from
 * the line table (the last row at or before the address in its
 * sequence), each outer frame's from the DW_AT_call_line and
 * DW_AT_GNU_discriminator of the frame inside it; a frame's line offset
 * is its line less the DW_AT_decl_line of its function, in 16 bits.
 * ProfiledBinary::symbolize keeps the frames from the outermost in and
 * stops at the first without a name.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "afdowrite.h"

#ifndef DW_AT_GNU_dwo_name
#define DW_AT_GNU_dwo_name 0x2130
#endif
/* LLVM's number for it (llvm/BinaryFormat/Dwarf.def), which elfutils'
 * dwarf.h does not name */
#ifndef DW_AT_GNU_discriminator
#define DW_AT_GNU_discriminator 0x2136
#endif
#ifndef DW_TAG_skeleton_unit
#define DW_TAG_skeleton_unit 0x4a
#endif

/* a subprogram or inlined subroutine DIE: a frame of inline chains */
struct inode {
	Dwarf_Off	 off;		/* the DIE */
	uint32_t	 parent;	/* the nearest subroutine DIE above it,
					 * or NOPARENT */
	uint32_t	 name;		/* NONAME: none; NAMEUNSET: not read */
	uint32_t	 decl;		/* DW_AT_decl_line */
	uint32_t	 callline, calldisc;
	uint8_t		 subprogram;	/* DW_TAG_subprogram */
	uint8_t		 read;		/* name, decl, call* read */
};
#define NOPARENT	UINT32_MAX
#define NAMEUNSET	(UINT32_MAX - 1)

struct unit {
	Dwarf_Off	 off, next;	/* the unit header, the next one */
	Dwarf_Off	 dieoff;	/* the unit DIE */
	int		 iscu;		/* not a type unit */
	/* AddrDieMap, sorted by start */
	uint64_t	*mlo, *mhi;
	uint32_t	*mnode;
	size_t		 nm;
	/* the line table, read at the first lookup */
	int		 lread;
	struct ltab	 lt;
};

/* an arange after DWARFDebugAranges::construct */
struct arange {
	uint64_t	lo, hi;
	Dwarf_Off	cuoff;
};

struct frange {
	uint64_t	lo, hi;
	uint32_t	func;
	uint32_t	seq;		/* insertion order: the first wins */
	uint8_t		entry;
};

struct bfunc {
	uint32_t	 name;
	uint64_t	*lohi;		/* pairs */
	size_t		 n, cap;
};

struct dw {
	struct code	*c;
	Dwarf		*dbg;
	struct strtab	 names;
	struct unit	*units;
	size_t		 nunits;
	struct arange	*ar;
	size_t		 nar;
	struct inode	*in;
	size_t		 nin, incap;
	struct bfunc	*fn;
	size_t		 nfn, fncap;
	uint32_t	*fnbyname;	/* name -> function + 1 */
	size_t		 fnbynamecap;
	struct frange	*fr;
	size_t		 nfr, frcap;
	uint64_t	 nolinkage, nodecl;
	uint32_t	*chain;		/* dw_symbolize's */
	size_t		 chaincap;
	const uint8_t	*line;		/* .debug_line */
	uint64_t	 linesize;
	int		 failed;	/* a lookup met a damaged table */
	char		*err;
	size_t		 errlen;
};

static int
fail(struct dw *d, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(d->err, d->errlen, "%s: ", d->c->eo.path);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < d->errlen)
		vsnprintf(d->err + n, d->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- attributes, as DWARFDie finds them ---- */

/*
 * DWARFDie::findRecursively: the first of attrs on the DIE, else on the
 * DIEs its DW_AT_abstract_origin, DW_AT_specification and DW_AT_signature
 * refer to, depth first (the last pushed first), each DIE once.  A long
 * chain is a damaged file: 64 DIEs at most.
 */
static int
find_rec(Dwarf_Die *die, const unsigned *attrs, size_t nattrs,
    Dwarf_Attribute *out)
{
	static const unsigned refs[] = { DW_AT_abstract_origin,
	    DW_AT_specification, DW_AT_signature };
	Dwarf_Die stack[64];
	Dwarf_Off seen[64];
	size_t nstack = 0, nseen = 0, i, j, k;

	stack[nstack++] = *die;
	seen[nseen++] = dwarf_dieoffset(die);
	while (nstack > 0) {
		Dwarf_Die cur = stack[--nstack];

		for (i = 0; i < nattrs; i++)
			if (dwarf_attr(&cur, attrs[i], out) != NULL)
				return 1;
		for (i = 0; i < NELEM(refs); i++) {
			Dwarf_Attribute a;
			Dwarf_Die t;
			Dwarf_Off o;

			if (dwarf_attr(&cur, refs[i], &a) == NULL ||
			    dwarf_formref_die(&a, &t) == NULL)
				continue;
			o = dwarf_dieoffset(&t);
			for (k = 0, j = 0; j < nseen; j++)
				if (seen[j] == o)
					k = 1;
			if (k || nseen == NELEM(seen))
				continue;
			seen[nseen++] = o;
			stack[nstack++] = t;
		}
	}
	return 0;
}

/* dwarf::toUnsigned(V, 0) of DWARFFormValue::getAsUnsignedConstant:
 * constants but sdata, and flags */
static uint64_t
attr_unsigned(Dwarf_Attribute *a)
{
	Dwarf_Word v;
	bool b;

	switch (dwarf_whatform(a)) {
	case DW_FORM_data1: case DW_FORM_data2: case DW_FORM_data4:
	case DW_FORM_data8: case DW_FORM_udata: case DW_FORM_implicit_const:
		return dwarf_formudata(a, &v) == 0 ? v : 0;
	case DW_FORM_flag: case DW_FORM_flag_present:
		return dwarf_formflag(a, &b) == 0 ? b : 0;
	default:
		return 0;
	}
}

/* DWARFDie::getName(DINameKind::LinkageName) */
static const char *
die_name(Dwarf_Die *die)
{
	static const unsigned linkage[] = { DW_AT_MIPS_linkage_name,
	    DW_AT_linkage_name };
	static const unsigned name[] = { DW_AT_name };
	Dwarf_Attribute a;
	const char *s;

	if (find_rec(die, linkage, NELEM(linkage), &a) &&
	    (s = dwarf_formstring(&a)) != NULL)
		return s;
	if (find_rec(die, name, NELEM(name), &a))
		return dwarf_formstring(&a);
	return NULL;
}

static int
die_has_linkage(Dwarf_Die *die)
{
	static const unsigned linkage[] = { DW_AT_MIPS_linkage_name,
	    DW_AT_linkage_name };
	Dwarf_Attribute a;

	return find_rec(die, linkage, NELEM(linkage), &a) &&
	    dwarf_formstring(&a) != NULL;
}

static int
die_artificial(Dwarf_Die *die)
{
	static const unsigned art[] = { DW_AT_artificial };
	Dwarf_Attribute a;

	return find_rec(die, art, 1, &a) && attr_unsigned(&a) != 0;
}

/* DWARFDie::getDeclLine(); *has: the attribute was found */
static uint32_t
die_decl(Dwarf_Die *die, int *has)
{
	static const unsigned decl[] = { DW_AT_decl_line };
	Dwarf_Attribute a;

	*has = find_rec(die, decl, 1, &a);
	return *has ? (uint32_t)attr_unsigned(&a) : 0;
}

static uint32_t
die_own_unsigned(Dwarf_Die *die, unsigned at)
{
	Dwarf_Attribute a;

	return dwarf_attr(die, at, &a) != NULL ? (uint32_t)attr_unsigned(&a) :
	    0;
}

/* ---- the ordered map of DWARFUnit::updateAddressDieMap ---- */

/* a treap keyed by start address, for the map's inserts and splits in
 * DIE order; flattened into sorted arrays once the unit is read */
struct tnode {
	uint64_t	key, end;
	uint32_t	val, prio;
	uint32_t	l, r;
};
#define TNIL	UINT32_MAX

struct treap {
	struct tnode	*n;
	size_t		 nn, cap;
	uint32_t	 root;
	uint32_t	 rnd;
};

static uint32_t
treap_rand(struct treap *t)
{
	/* xorshift32: a fixed sequence, for the same tree on every run */
	t->rnd ^= t->rnd << 13;
	t->rnd ^= t->rnd >> 17;
	t->rnd ^= t->rnd << 5;
	return t->rnd;
}

/* the node with the greatest key <= k, or TNIL */
static uint32_t
treap_floor(const struct treap *t, uint64_t k)
{
	uint32_t x = t->root, best = TNIL;

	while (x != TNIL) {
		if (t->n[x].key <= k) {
			best = x;
			x = t->n[x].r;
		} else
			x = t->n[x].l;
	}
	return best;
}

/* insert key k, or overwrite its end and value (std::map's operator[]) */
static uint32_t
treap_set1(struct treap *t, uint32_t x, uint64_t k, uint64_t end,
    uint32_t val)
{
	uint32_t y;

	if (x == TNIL) {
		xgrow(&t->n, &t->cap, t->nn + 1, sizeof(*t->n));
		t->n[t->nn] = (struct tnode){ k, end, val, treap_rand(t), TNIL,
		    TNIL };
		return (uint32_t)t->nn++;
	}
	if (k == t->n[x].key) {
		t->n[x].end = end;
		t->n[x].val = val;
		return x;
	}
	if (k < t->n[x].key) {
		y = treap_set1(t, t->n[x].l, k, end, val);
		t->n[x].l = y;
		if (t->n[y].prio > t->n[x].prio) {
			t->n[x].l = t->n[y].r;
			t->n[y].r = x;
			return y;
		}
	} else {
		y = treap_set1(t, t->n[x].r, k, end, val);
		t->n[x].r = y;
		if (t->n[y].prio > t->n[x].prio) {
			t->n[x].r = t->n[y].l;
			t->n[y].l = x;
			return y;
		}
	}
	return x;
}

static void
treap_set(struct treap *t, uint64_t k, uint64_t end, uint32_t val)
{
	t->root = treap_set1(t, t->root, k, end, val);
}

/* one range of a subroutine DIE, as updateAddressDieMap adds it */
static void
map_add(struct treap *t, uint64_t lo, uint64_t hi, uint32_t node)
{
	uint32_t b;

	if (lo == hi)
		return;
	b = treap_floor(t, lo);
	if (b != TNIL && lo < t->n[b].end) {
		/* the range is inside an earlier one: split it */
		if (hi < t->n[b].end)
			treap_set(t, hi, t->n[b].end, t->n[b].val);
		if (lo > t->n[b].key)
			t->n[b].end = lo;
	}
	treap_set(t, lo, hi, node);
}

static void
treap_flatten(const struct treap *t, struct unit *u)
{
	uint32_t *stack, x = t->root;
	size_t ns = 0, i = 0;

	u->nm = t->nn;
	if (t->nn == 0)
		return;
	u->mlo = xreallocarray(NULL, t->nn, sizeof(*u->mlo));
	u->mhi = xreallocarray(NULL, t->nn, sizeof(*u->mhi));
	u->mnode = xreallocarray(NULL, t->nn, sizeof(*u->mnode));
	stack = xreallocarray(NULL, t->nn, sizeof(*stack));
	while (x != TNIL || ns > 0) {
		while (x != TNIL) {
			stack[ns++] = x;
			x = t->n[x].l;
		}
		x = stack[--ns];
		u->mlo[i] = t->n[x].key;
		u->mhi[i] = t->n[x].end;
		u->mnode[i] = t->n[x].val;
		i++;
		x = t->n[x].r;
	}
	free(stack);
}

/* ---- units, functions ---- */

static uint32_t
intern(struct dw *d, const char *s)
{
	return strtab_intern(&d->names, s, strlen(s));
}

/* FunctionSamples::getCanonicalFnName(Name, "selected") with
 * HasUniqSuffix true (as llvm-profgen leaves it): ".llvm." and then
 * ".part." are cut when the suffix's last dot is the name's last */
static size_t
canonical_len(const char *s, size_t n)
{
	static const char *const suf[] = { ".llvm.", ".part." };
	size_t i, k, sl, it, dit;

	for (i = 0; i < NELEM(suf); i++) {
		sl = strlen(suf[i]);
		it = SIZE_MAX;
		for (k = n >= sl ? n - sl + 1 : 0; k-- > 0;)
			if (memcmp(s + k, suf[i], sl) == 0) {
				it = k;
				break;
			}
		if (it == SIZE_MAX)
			continue;
		dit = SIZE_MAX;
		for (k = n; k-- > 0;)
			if (s[k] == '.') {
				dit = k;
				break;
			}
		if (dit == it + sl - 1)
			n = it;
	}
	return n;
}

static void
add_range(struct dw *d, uint32_t name, uint64_t lo, uint64_t hi)
{
	struct bfunc *f;
	uint32_t fi;

	if (name >= d->fnbynamecap) {
		size_t old = d->fnbynamecap;

		xgrow(&d->fnbyname, &d->fnbynamecap, (size_t)name + 1,
		    sizeof(*d->fnbyname));
		memset(d->fnbyname + old, 0, (d->fnbynamecap - old) *
		    sizeof(*d->fnbyname));
	}
	if (d->fnbyname[name] == 0) {
		xgrow(&d->fn, &d->fncap, d->nfn + 1, sizeof(*d->fn));
		d->fn[d->nfn] = (struct bfunc){ name, NULL, 0, 0 };
		d->fnbyname[name] = (uint32_t)++d->nfn;
	}
	fi = d->fnbyname[name] - 1;
	if (hi <= lo || lo < d->c->prefbase)
		return;
	f = &d->fn[fi];
	xgrow(&f->lohi, &f->cap, 2 * f->n + 2, sizeof(*f->lohi));
	f->lohi[2 * f->n] = lo;
	f->lohi[2 * f->n + 1] = hi;
	f->n++;
	xgrow(&d->fr, &d->frcap, d->nfr + 1, sizeof(*d->fr));
	d->fr[d->nfr] = (struct frange){ lo, hi, fi, (uint32_t)d->nfr, 0 };
	d->nfr++;
}

/* what clang needs of a function: a C++ function's profile is found by
 * its linkage name (missing, the symbol's name differs from the DWARF
 * name), its lines by their offset from DW_AT_decl_line.  The
 * compiler's own functions (initializers) are no one's source. */
static void
check_clang_needs(struct dw *d, Dwarf_Die *die, const char *name, uint64_t lo)
{
	const char *s;
	int has;

	if (die_artificial(die))
		return;
	if (!die_has_linkage(die) && (s = code_symbol_at(d->c, lo)) != NULL &&
	    strcmp(s, name) != 0)
		d->nolinkage++;
	(void)die_decl(die, &has);
	if (!has)
		d->nodecl++;
}

/* a subprogram: a function of the binary (loadSymbolsFromDWARFUnit) */
static int
subprogram(struct dw *d, Dwarf_Die *die)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	const char *name;
	uint32_t nid = NONAME;
	int first = 1;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (first) {
			first = 0;
			if ((name = die_name(die)) == NULL)
				return 0;
			nid = intern(d, name);
			check_clang_needs(d, die, name, lo);
		}
		add_range(d, nid, lo, hi);
	}
	if (off < 0)
		return fail(d, "DWARF: DIE at 0x%llx: bad address ranges: %s",
		    (unsigned long long)dwarf_dieoffset(die), dwarf_errmsg(-1));
	return 0;
}

/* DIE nesting deeper than this is a damaged file */
#define MAXDEPTH	4096

/* one unit: its subprograms, and its AddrDieMap */
static int
read_unit(struct dw *d, struct unit *u)
{
	Dwarf_Die *stack = NULL;
	uint32_t *sub = NULL;
	size_t cap = 0, scap = 0, depth;
	struct treap t;
	int r = -1;

	memset(&t, 0, sizeof(t));
	t.root = TNIL;
	t.rnd = 0x9e3779b9u;
	xgrow(&stack, &cap, 1, sizeof(*stack));
	xgrow(&sub, &scap, 1, sizeof(*sub));
	if (dwarf_offdie(d->dbg, u->dieoff, &stack[0]) == NULL) {
		fail(d, "DWARF: unit at 0x%llx: no unit DIE: %s",
		    (unsigned long long)u->off, dwarf_errmsg(-1));
		goto out;
	}
	sub[0] = NOPARENT;
	depth = 1;
	for (;;) {
		Dwarf_Die child;
		int k;

		k = dwarf_child(&stack[depth - 1], &child);
		if (k < 0) {
			fail(d, "DWARF: DIE at 0x%llx: bad children: %s",
			    (unsigned long long)dwarf_dieoffset(
			    &stack[depth - 1]), dwarf_errmsg(-1));
			goto out;
		}
		if (k == 0) {
			if (depth == MAXDEPTH) {
				fail(d, "DWARF: DIE at 0x%llx: nested more "
				    "than %d deep", (unsigned long long)
				    dwarf_dieoffset(&child), MAXDEPTH);
				goto out;
			}
			xgrow(&stack, &cap, depth + 1, sizeof(*stack));
			xgrow(&sub, &scap, depth + 1, sizeof(*sub));
			stack[depth] = child;
			sub[depth] = sub[depth - 1];
			depth++;
		} else {
			/* the next sibling, up the tree as needed; the unit
			 * DIE has none */
			for (;;) {
				if (depth == 1)
					goto done;
				k = dwarf_siblingof(&stack[depth - 1],
				    &stack[depth - 1]);
				if (k < 0) {
					fail(d, "DWARF: DIE after 0x%llx: %s",
					    (unsigned long long)dwarf_dieoffset(
					    &stack[depth - 1]), dwarf_errmsg(-1));
					goto out;
				}
				if (k == 0)
					break;
				depth--;
			}
			sub[depth - 1] = sub[depth - 2];
		}
		/* visit stack[depth - 1] */
		{
			Dwarf_Die *die = &stack[depth - 1];
			int tag = dwarf_tag(die);
			Dwarf_Addr base, lo, hi;
			ptrdiff_t off = 0;
			uint32_t node;

			if (tag != DW_TAG_subprogram &&
			    tag != DW_TAG_inlined_subroutine)
				continue;
			if (tag == DW_TAG_subprogram && subprogram(d, die) == -1)
				goto out;
			if (d->nin >= UINT32_MAX - 2) {
				fail(d, "DWARF: too many subroutines");
				goto out;
			}
			xgrow(&d->in, &d->incap, d->nin + 1, sizeof(*d->in));
			node = (uint32_t)d->nin++;
			d->in[node] = (struct inode){ dwarf_dieoffset(die),
			    sub[depth - 1], NAMEUNSET, 0, 0, 0,
			    tag == DW_TAG_subprogram, 0 };
			/* the DIEs below see this one as their subroutine */
			sub[depth - 1] = node;
			while ((off = dwarf_ranges(die, off, &base, &lo,
			    &hi)) > 0)
				map_add(&t, lo, hi, node);
			if (off < 0) {
				fail(d, "DWARF: DIE at 0x%llx: bad address "
				    "ranges: %s", (unsigned long long)
				    dwarf_dieoffset(die), dwarf_errmsg(-1));
				goto out;
			}
		}
	}
done:
	treap_flatten(&t, u);
	r = 0;
out:
	free(t.n);
	free(stack);
	free(sub);
	return r;
}

/*
 * sub[] bookkeeping: sub[i] is the subroutine node the DIEs below
 * stack[i] see.  A child starts from its parent's; a DIE's own node is
 * set when it is visited.  Going to a sibling restores the parent's.
 */

/* ---- the unit of an address ---- */

struct endpoint {
	uint64_t	addr;
	Dwarf_Off	cuoff;
	int		start;
};

/* by address (LLVM sorts by that alone: build_aranges reads all the
 * endpoints of an address before it acts, so their order among
 * themselves does not matter), then by unit and kind for a total order */
#define SORT_NAME	sort_endpoints
#define SORT_TYPE	struct endpoint
#define SORT_LESS(a, b)	((a)->addr != (b)->addr ? (a)->addr < (b)->addr : \
    (a)->cuoff != (b)->cuoff ? (a)->cuoff < (b)->cuoff : (a)->start < (b)->start)
#include "sort.h"

static void
add_endpoints(struct endpoint **ep, size_t *n, size_t *cap, Dwarf_Off cu,
    uint64_t lo, uint64_t hi)
{
	if (lo >= hi)
		return;
	xgrow(ep, cap, *n + 2, sizeof(**ep));
	(*ep)[(*n)++] = (struct endpoint){ lo, cu, 1 };
	(*ep)[(*n)++] = (struct endpoint){ hi, cu, 0 };
}

static uint64_t
ldn(const uint8_t *p, unsigned n, int swap)
{
	switch (n) {
	case 1: return p[0];
	case 2: return ld16(p, swap);
	case 4: return ld32(p, swap);
	default: return ld64(p, swap);
	}
}

/* the bytes of section name, uncompressed: 0, or -1 if absent */
static int
section_data(Elf *e, const char *name, const uint8_t **p, uint64_t *size)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *data;
	size_t shstrndx;
	const char *nm;

	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return -1;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL ||
		    (nm = elf_strptr(e, shstrndx, sh.sh_name)) == NULL ||
		    strcmp(nm, name) != 0 || sh.sh_type == SHT_NOBITS)
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) &&
		    elf_compress(scn, 0, 0) < 0)
			return -1;
		if ((data = elf_getdata(scn, NULL)) == NULL ||
		    data->d_buf == NULL)
			return -1;
		*p = data->d_buf;
		*size = data->d_size;
		return 0;
	}
	return -1;
}

/* DWARFDebugAranges::extract: sets up to the first bad one; *parsed
 * gets the unit offsets of the good ones */
static void
read_aranges(struct dw *d, struct endpoint **ep, size_t *n, size_t *cap,
    Dwarf_Off **parsed, size_t *nparsed)
{
	size_t pcap = 0;
	const uint8_t *p;
	uint64_t size, off = 0;
	int swap = d->c->eo.swap;

	if (section_data(d->c->eo.elf, ".debug_aranges", &p, &size) != 0)
		return;
	while (off < size) {
		uint64_t len, full, cuoff, end, o, hdr, first;
		unsigned offsz = 4, asz, tup;
		size_t start = *n;

		if (size - off < 4)
			return;
		len = ld32(p + off, swap);
		o = off + 4;
		if (len == 0xffffffff) {
			if (size - o < 8)
				return;
			len = ld64(p + o, swap);
			o += 8;
			offsz = 8;
		} else if (len >= 0xfffffff0)
			return;
		if (size - o < 2 + offsz + 2)
			return;
		o += 2;				/* version */
		cuoff = ldn(p + o, offsz, swap);
		o += offsz;
		asz = p[o];
		if (p[o + 1] != 0)		/* segment selector size */
			return;
		o += 2;
		full = (offsz == 8 ? 12 : 4) + len;
		if (full < len || full > size - off)
			return;
		if (asz != 4 && asz != 8 && asz != 2)
			return;
		tup = 2 * asz;
		if (full % tup != 0)
			return;
		hdr = o - off;
		for (first = 0; first < hdr; first += tup)
			;
		if (full <= first)
			return;
		end = off + full;
		for (o = off + first; o < end; o += tup) {
			uint64_t a = ldn(p + o, asz, swap);
			uint64_t l = ldn(p + o + asz, asz, swap);

			if (a == 0 && l == 0 && o + tup == end)
				break;
			add_endpoints(ep, n, cap, cuoff, a, a + l);
		}
		if (o >= end) {
			/* not terminated: the set and the rest are lost */
			*n = start;
			return;
		}
		xgrow(parsed, &pcap, *nparsed + 1, sizeof(**parsed));
		(*parsed)[(*nparsed)++] = cuoff;
		off = end;
	}
}

static int
offcmp(const void *a, const void *b)
{
	Dwarf_Off x = *(const Dwarf_Off *)a, y = *(const Dwarf_Off *)b;

	return x < y ? -1 : x > y;
}

#define SORT_NAME	sort_offs
#define SORT_TYPE	Dwarf_Off
#define SORT_LESS(a, b)	(*(a) < *(b))
#include "sort.h"

/* DWARFDebugAranges::construct: over sorted endpoints, each stretch
 * belongs to the lowest unit offset covering it, a stretch extending the
 * previous arange while that one's unit still covers it */
static int
build_aranges(struct dw *d)
{
	struct endpoint *ep = NULL;
	size_t n = 0, cap = 0, i, nparsed = 0, arcap = 0, nofs = 0, lowest;
	Dwarf_Off *parsed = NULL, *ofs;
	uint32_t *active;		/* per distinct offset: ranges open */
	uint64_t prev = UINT64_MAX;

	read_aranges(d, &ep, &n, &cap, &parsed, &nparsed);
	if (nparsed > 1)
		sort_offs(parsed, nparsed);
	for (i = 0; i < d->nunits; i++) {
		struct unit *u = &d->units[i];
		Dwarf_Die cu;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t off = 0;

		if (nparsed > 0 && bsearch(&u->off, parsed, nparsed,
		    sizeof(*parsed), offcmp) != NULL)
			continue;
		if (dwarf_offdie(d->dbg, u->dieoff, &cu) == NULL)
			continue;
		while ((off = dwarf_ranges(&cu, off, &base, &lo, &hi)) > 0)
			add_endpoints(&ep, &n, &cap, u->off, lo, hi);
		if (off < 0) {
			free(parsed);
			free(ep);
			return fail(d, "DWARF: unit at 0x%llx: bad address "
			    "ranges: %s", (unsigned long long)u->off,
			    dwarf_errmsg(-1));
		}
	}
	free(parsed);
	/* the distinct unit offsets, in order: a multiset's minimum is the
	 * lowest index with ranges open */
	ofs = xreallocarray(NULL, n + 1, sizeof(*ofs));
	for (i = 0; i < n; i++)
		ofs[i] = ep[i].cuoff;
	if (n > 1)
		sort_offs(ofs, n);
	for (i = 0; i < n; i++)
		if (nofs == 0 || ofs[nofs - 1] != ofs[i])
			ofs[nofs++] = ofs[i];
	active = xcalloc(nofs + 1, sizeof(*active));
	if (n > 1)
		sort_endpoints(ep, n);
	lowest = SIZE_MAX;
	for (i = 0; i < n; i++) {
		struct endpoint *e = &ep[i];
		size_t ui = (size_t)((Dwarf_Off *)bsearch(&e->cuoff, ofs, nofs,
		    sizeof(*ofs), offcmp) - ofs);

		if (prev < e->addr && lowest != SIZE_MAX) {
			struct arange *last = d->nar ? &d->ar[d->nar - 1] : NULL;
			size_t li = SIZE_MAX;

			if (last != NULL)
				li = (size_t)((Dwarf_Off *)bsearch(&last->cuoff,
				    ofs, nofs, sizeof(*ofs), offcmp) - ofs);
			if (last != NULL && last->hi == prev && active[li] > 0)
				last->hi = e->addr;
			else {
				xgrow(&d->ar, &arcap, d->nar + 1, sizeof(*d->ar));
				d->ar[d->nar++] = (struct arange){ prev, e->addr,
				    ofs[lowest] };
			}
		}
		if (e->start) {
			active[ui]++;
			if (lowest == SIZE_MAX || ui < lowest)
				lowest = ui;
		} else if (active[ui] > 0 && --active[ui] == 0 && ui == lowest) {
			while (lowest < nofs && active[lowest] == 0)
				lowest++;
			if (lowest == nofs)
				lowest = SIZE_MAX;
		}
		prev = e->addr;
	}
	free(active);
	free(ofs);
	free(ep);
	return 0;
}

/* DWARFDebugAranges::findAddress, then getCompileUnitForOffset: the unit
 * index, or -1 */
static long
unit_at(const struct dw *d, uint64_t a)
{
	size_t lo = 0, hi = d->nar, m;
	Dwarf_Off cuoff;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (d->ar[m].hi <= a)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo == d->nar || d->ar[lo].lo > a)
		return -1;
	cuoff = d->ar[lo].cuoff;
	/* the unit whose [off, next) holds the offset */
	lo = 0;
	hi = d->nunits;
	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (d->units[m].next <= cuoff)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo == d->nunits || d->units[lo].off > cuoff || !d->units[lo].iscu)
		return -1;
	return (long)lo;
}

static int
read_units(struct dw *d)
{
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0;
	Dwarf_Half version;
	uint8_t asz, osz;
	const uint8_t *info;
	uint64_t infosize = 0;
	int k;

	/* libdw reads a unit whose length runs past the section as if it
	 * ended there; LLVM stops reading units at it */
	if (section_data(d->c->eo.elf, ".debug_info", &info, &infosize) != 0)
		infosize = 0;

	while ((k = dwarf_next_unit(d->dbg, off, &next, &hsize, &version, NULL,
	    &asz, &osz, NULL, NULL)) == 0) {
		Dwarf_Die cu;
		struct unit *u;
		int tag;

		if (next <= off || next > infosize)
			return fail(d, "DWARF: unit at 0x%llx: length past the "
			    "end of .debug_info (0x%llx bytes)",
			    (unsigned long long)off, (unsigned long long)infosize);
		if (dwarf_offdie(d->dbg, off + hsize, &cu) == NULL)
			return fail(d, "DWARF: unit at 0x%llx: no unit DIE: %s",
			    (unsigned long long)off, dwarf_errmsg(-1));
		tag = dwarf_tag(&cu);
		if (tag == DW_TAG_skeleton_unit ||
		    dwarf_hasattr(&cu, DW_AT_GNU_dwo_name) ||
		    dwarf_hasattr(&cu, DW_AT_dwo_name)) {
			const char *dwo = NULL;
			Dwarf_Attribute a;

			if (dwarf_attr(&cu, DW_AT_dwo_name, &a) != NULL ||
			    dwarf_attr(&cu, DW_AT_GNU_dwo_name, &a) != NULL)
				dwo = dwarf_formstring(&a);
			return fail(d, "split DWARF (unit at 0x%llx, %s): "
			    "not supported; build without -gsplit-dwarf",
			    (unsigned long long)off, dwo ? dwo : "?");
		}
		xgrow(&d->units, &cap, d->nunits + 1, sizeof(*d->units));
		u = &d->units[d->nunits++];
		memset(u, 0, sizeof(*u));
		u->off = off;
		u->next = next;
		u->dieoff = off + hsize;
		u->iscu = tag == DW_TAG_compile_unit || tag == DW_TAG_partial_unit;
		off = next;
	}
	if (k < 0)
		return fail(d, "DWARF: unit at 0x%llx: %s",
		    (unsigned long long)off, dwarf_errmsg(-1));
	return 0;
}

/* by start, then insertion order (seq: distinct) */
#define SORT_NAME	sort_franges
#define SORT_TYPE	struct frange
#define SORT_LESS(a, b)	((a)->lo != (b)->lo ? (a)->lo < (b)->lo : \
    (a)->seq < (b)->seq)
#include "sort.h"

static long
frange_at(const struct dw *d, uint64_t a)
{
	size_t lo = 0, hi = d->nfr, m;

	/* upper_bound, then the one before */
	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (d->fr[m].lo <= a)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo == 0 || a >= d->fr[lo - 1].hi)
		return -1;
	return (long)(lo - 1);
}

/* setIsFuncEntry for every text symbol */
static void
mark_entries(struct dw *d)
{
	const struct code *c = d->c;
	size_t i;

	for (i = 0; i < c->nsyms; i++) {
		long r = frange_at(d, c->syms[i].addr);
		struct frange *f;
		const char *fname, *s = c->syms[i].name;
		size_t n;

		if (r < 0)
			continue;
		f = &d->fr[r];
		if (d->fn[f->func].n == 1) {
			f->entry = 1;
			continue;
		}
		if (f->entry)
			continue;
		fname = d->names.s[d->fn[f->func].name];
		n = canonical_len(s, strlen(s));
		if (strlen(fname) == n && memcmp(fname, s, n) == 0)
			f->entry = 1;
	}
}

/* a .debug_ section compressed with zstd (ELFCOMPRESS_ZSTD, 2), which
 * libelf before 0.189 cannot uncompress */
static int
zstd_debug(Elf *e)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Chdr ch;
	size_t shstrndx;
	const char *nm;

	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return 0;
	while ((scn = elf_nextscn(e, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL &&
		    (sh.sh_flags & SHF_COMPRESSED) &&
		    (nm = elf_strptr(e, shstrndx, sh.sh_name)) != NULL &&
		    strncmp(nm, ".debug_", 7) == 0 &&
		    gelf_getchdr(scn, &ch) != NULL && ch.ch_type == 2)
			return 1;
	return 0;
}

int
dw_open(struct dw **dp, struct code *c, char *err, size_t errlen)
{
	struct dw *d = xcalloc(1, sizeof(*d));
	size_t i, j;

	d->c = c;
	d->err = err;
	d->errlen = errlen;
	*dp = d;
	if ((d->dbg = dwarf_begin_elf(c->eo.elf, DWARF_C_READ, NULL)) == NULL) {
		if (zstd_debug(c->eo.elf))
			return fail(d, "debug sections compressed with zstd "
			    "(-gz=zstd), which this libdw does not read: "
			    "objcopy --decompress-debug-sections first");
		return fail(d, "no DWARF (%s): build with -g or "
		    "-gline-tables-only -fdebug-info-for-profiling",
		    dwarf_errmsg(-1));
	}
	if (read_units(d) == -1)
		return -1;
	if (section_data(c->eo.elf, ".debug_line", &d->line, &d->linesize) != 0)
		d->line = NULL;
	if (d->nunits == 0)
		return fail(d, "no DWARF units (.debug_info): build with -g");
	for (i = 0; i < d->nunits; i++)
		if (read_unit(d, &d->units[i]) == -1)
			return -1;
	if (build_aranges(d) == -1)
		return -1;
	/* StartAddrToFuncRangeMap: one range per start, the first */
	if (d->nfr > 1)
		sort_franges(d->fr, d->nfr);
	for (i = 0, j = 0; i < d->nfr; i++)
		if (j == 0 || d->fr[j - 1].lo != d->fr[i].lo)
			d->fr[j++] = d->fr[i];
	d->nfr = j;
	mark_entries(d);
	return 0;
}

void
dw_close(struct dw *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->nunits; i++) {
		free(d->units[i].mlo);
		free(d->units[i].mhi);
		free(d->units[i].mnode);
		ltab_free(&d->units[i].lt);
	}
	for (i = 0; i < d->nfn; i++)
		free(d->fn[i].lohi);
	free(d->units);
	free(d->ar);
	free(d->in);
	free(d->fn);
	free(d->fnbyname);
	free(d->fr);
	free(d->chain);
	strtab_free(&d->names);
	if (d->dbg != NULL)
		dwarf_end(d->dbg);
	free(d);
}

struct strtab *
dw_names(struct dw *d)
{
	return &d->names;
}

uint64_t
dw_nolinkage(struct dw *d)
{
	return d->nolinkage;
}

uint64_t
dw_nodecl(struct dw *d)
{
	return d->nodecl;
}

int
dw_failed(struct dw *d)
{
	return d->failed;
}

uint64_t
dw_nfuncs(struct dw *d)
{
	return d->nfn;
}

long
dw_func_at(struct dw *d, uint64_t a)
{
	long r = frange_at(d, a);

	return r < 0 ? -1 : (long)d->fr[r].func;
}

size_t
dw_func_ranges(struct dw *d, long f, const uint64_t **lohi)
{
	*lohi = d->fn[f].lohi;
	return d->fn[f].n;
}

uint32_t
dw_callee_at(struct dw *d, uint64_t a)
{
	long r = frange_at(d, a);
	const char *s;

	if (r < 0 || d->fr[r].lo != a || !d->fr[r].entry)
		return NONAME;
	s = d->names.s[d->fn[d->fr[r].func].name];
	return strtab_intern(&d->names, s, canonical_len(s, strlen(s)));
}

/* ---- symbolization ---- */

/* the unit's line table (DWARFContext::getLineTableForUnit: the table
 * at the unit DIE's DW_AT_stmt_list; none without one) */
static void
read_lines(struct dw *d, struct unit *u)
{
	Dwarf_Die cu;
	Dwarf_Attribute a;
	Dwarf_Word off;
	char msg[512];

	u->lread = 1;
	if (d->line == NULL || dwarf_offdie(d->dbg, u->dieoff, &cu) == NULL ||
	    dwarf_attr(&cu, DW_AT_stmt_list, &a) == NULL ||
	    dwarf_formudata(&a, &off) != 0)
		return;
	if (ltab_read(&u->lt, d->line, d->linesize, off, d->c->eo.swap,
	    msg, sizeof(msg)) == -1) {
		fail(d, "%s", msg);
		d->failed = 1;
	}
}

static void
read_inode(struct dw *d, struct inode *n)
{
	Dwarf_Die die;
	const char *s;
	int has;

	n->read = 1;
	n->name = NONAME;
	if (dwarf_offdie(d->dbg, n->off, &die) == NULL)
		return;
	if ((s = die_name(&die)) != NULL && *s != '\0')
		n->name = intern(d, s);
	n->decl = die_decl(&die, &has);
	if (!n->subprogram) {
		n->callline = die_own_unsigned(&die, DW_AT_call_line);
		n->calldisc = die_own_unsigned(&die, DW_AT_GNU_discriminator);
	}
}

size_t
dw_symbolize(struct dw *d, uint64_t a, struct frame **fv, size_t *cap)
{
	long ui = unit_at(d, a);
	struct unit *u;
	size_t lo, hi, m, n, k, out;
	uint32_t x, line, disc;

	if (ui < 0)
		return 0;
	u = &d->units[ui];
	lo = 0;
	hi = u->nm;
	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (u->mlo[m] <= a)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo == 0 || a >= u->mhi[lo - 1])
		return 0;
	/* the chain, innermost first: inlined subroutines up to the
	 * subprogram (no longer than the DIE nesting) */
	n = 0;
	for (x = u->mnode[lo - 1]; x != NOPARENT; x = d->in[x].parent) {
		xgrow(&d->chain, &d->chaincap, n + 1, sizeof(*d->chain));
		d->chain[n++] = x;
		if (!d->in[x].read)
			read_inode(d, &d->in[x]);
		if (d->in[x].subprogram)
			break;
	}
	if (!u->lread)
		read_lines(d, u);
	ltab_lookup(&u->lt, a, &line, &disc);
	/* outermost first, up to the first frame without a name */
	xgrow(fv, cap, n, sizeof(**fv));
	for (out = 0, k = n; k > 0; k--, out++) {
		const struct inode *f = &d->in[d->chain[k - 1]];
		uint32_t fl = k == 1 ? line : d->in[d->chain[k - 2]].callline;
		uint32_t fd = k == 1 ? disc : d->in[d->chain[k - 2]].calldisc;

		if (f->name == NONAME)
			break;
		(*fv)[out] = (struct frame){ f->name, (fl - f->decl) & 0xffff,
		    fd };
	}
	return out;
}
