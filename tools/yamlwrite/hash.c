/* See COPYING file for copyright and license details. */
/*
 * hash.c: the function and block hashes perf2bolt-19 writes into YAML
 * (YAMLProfileWriter::convert: BinaryFunction::computeHash in layout
 * order without operands, computeBlockHashes with them), for the
 * functions yamlwrite writes, one at a time when they are written.
 *
 * The strings come from LLVM 19's MC layer (libbolt/llvm/mcx86.cc); what
 * BOLT's disassembly knows of the rest of the binary is answered here,
 * as perf2bolt-19 answers it (bolt/lib/Core/BinaryContext.cpp:
 * handleAddressRef, getBinaryDataContainingAddress; bolt/lib/Target/
 * X86/X86MCSymbolizer.cpp; bolt/lib/Rewrite/RewriteInstance.cpp:
 * discoverFileObjects, handleRelocation): an operand that names an
 * address becomes a symbol and an addend, and the hash takes the
 * symbol's value unless it is a function's or inside a jump table.
 * The symbols are BOLT's BinaryData: every symbol of the symbol table
 * in memory, an object holding the addresses inside it, nested as
 * BinaryContext::updateObjectNesting nests them.
 *
 * AArch64 (mca64.h) has no symbolizer in BOLT 19: the operands a
 * relocation, a PC-relative reference or a linker veneer made
 * expressions are planned here, as BinaryFunction::disassemble makes
 * them (a64_plan).
 *
 * The block hash blends (StaleProfileMatching.cpp, BlendedBlockHash):
 * the block's offset, its loose opcode hash, its instruction hash and
 * the opcode hashes of its predecessors and successors, in the order
 * BOLT adds the edges (buildCFG: taken branches sorted by source and
 * target, then the fall-throughs).
 */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "boltbin.h"
#include "cfg.h"
#include "mcx86.h"
#include "mca64.h"
#include "a64dec.h"
#include "a64llvm.h"
#include "yamlwrite.h"

/* a BinaryData of a data section (or an absolute symbol) */
struct bd {
	uint64_t	addr, size;
	long		parent;		/* index of the root holding it, -1 */
	int		sec;		/* index into ft->secs, -1: absolute */
};

struct ywh {
	struct boltbin	*bin;
	struct cfgdis	*cd;
	struct mcx86	*mc;		/* x86-64 */
	struct mca64	*ma;		/* AArch64 */
	int		 stdhash;
	struct bd	*bd;		/* by address, one per address */
	size_t		 nbd;
	int		 bdread;
	/* the function being hashed */
	size_t		 fi;
	const struct bfunc *f;
	const struct cfg *g;
	struct cfg_jt	*jt;		/* its tables and its fragments' */
	size_t		 njt, capjt;
	/* per block */
	struct mcx86_block *bh;
	size_t		 capbh;
	uint32_t	*order, *cnt;	/* successors in BOLT's order */
	size_t		 caporder, capcnt;
	uint64_t	*ph;		/* per block: predecessors' hash */
	size_t		 capph;
	uint8_t		*late;		/* per block: late() */
	size_t		 caplate;
	uint64_t	 undecoded;	/* instructions LLVM could not decode */
	/* the fragments of each function: frag[fragat[i] .. fragat[i+1]) */
	uint32_t	*fragat, *frag;
	/* hashes made ahead (ywh_ahead), per function until ywh_func
	 * takes them; inahead: the graphs it reads are built ahead too */
	struct ywh_ahead *ah;
	int		 inahead;
};

struct ywh_ahead {
	uint64_t	 fh;
	uint64_t	*bh;		/* NULL: none made */
	size_t		 nb;
	uint64_t	 undecoded;	/* what it added to ywh.undecoded */
};

/* ------------------------------------------------------------------ */
/* BinaryData */

static int
bd_contains(const struct bd *d, uint64_t a)
{
	return (d->addr <= a && a < d->addr + d->size) ||
	    (d->addr == a && d->size == 0);
}

/* the symbols BOLT registers as BinaryData outside code
 * (discoverFileObjects: every symbol in memory but files, address 0
 * and the hot-text markers), the first registered at an address giving
 * the size: functions first, section symbols last, else symbol order */
struct rs {
	uint64_t	addr, size;
	size_t		idx;
	int		rank, sec;
};

static int
rscmp(const void *a, const void *b)
{
	const struct rs *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void
bd_read(struct ywh *h)
{
	Elf *elf = h->bin->eo.elf;
	const struct functab *ft = &h->bin->ft;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	struct rs *v = NULL;
	size_t n = 0, cap = 0, i, k, m;

	h->bdread = 1;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *data;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_SYMTAB ||
		    sh.sh_entsize == 0 || (data = elf_getdata(scn, NULL)) == NULL)
			continue;
		m = sh.sh_size / sh.sh_entsize;
		for (k = 1; k < m; k++) {
			GElf_Sym sy;
			GElf_Shdr ss;
			Elf_Scn *sc;
			const struct fsec *fs;
			const char *nm;
			int type;

			if (gelf_getsym(data, (int)k, &sy) == NULL)
				break;
			type = GELF_ST_TYPE(sy.st_info);
			if (type == STT_FILE || sy.st_value == 0 ||
			    sy.st_shndx == SHN_UNDEF)
				continue;
			nm = elf_strptr(elf, sh.sh_link, sy.st_name);
			if (nm != NULL && (strcmp(nm, "__hot_start") == 0 ||
			    strcmp(nm, "__hot_end") == 0))
				continue;
			if (sy.st_shndx == SHN_ABS)
				fs = NULL;
			else {
				if (sy.st_shndx >= SHN_LORESERVE ||
				    (sc = elf_getscn(elf, sy.st_shndx)) == NULL ||
				    gelf_getshdr(sc, &ss) == NULL ||
				    !(ss.sh_flags & SHF_ALLOC))
					continue;
				/* code is looked up as functions */
				if (ss.sh_flags & SHF_EXECINSTR)
					continue;
				fs = functab_section(ft, sy.st_value);
			}
			xgrow(&v, &cap, n + 1, sizeof(*v));
			v[n].addr = sy.st_value;
			v[n].size = sy.st_size;
			v[n].idx = k;
			v[n].rank = type == STT_FUNC ? 0 : type == STT_SECTION ?
			    2 : 1;
			v[n].sec = fs ? (int)(fs - ft->secs) : -1;
			n++;
		}
		break;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), rscmp);
	h->bd = xcalloc(n + 1, sizeof(*h->bd));
	for (i = 0; i < n; i++) {
		struct bd *d;

		if (h->nbd > 0 && h->bd[h->nbd - 1].addr == v[i].addr)
			continue;
		d = &h->bd[h->nbd];
		d->addr = v[i].addr;
		d->size = v[i].size;
		d->sec = v[i].sec;
		d->parent = -1;
		/* updateObjectNesting: the root of the one before holds it */
		if (h->nbd > 0) {
			long r = (long)h->nbd - 1;
			const struct bd *p;

			if (h->bd[r].parent >= 0)
				r = h->bd[r].parent;
			p = &h->bd[r];
			if (p->sec == d->sec && bd_contains(p, d->addr) &&
			    d->addr + d->size <= p->addr + p->size)
				d->parent = r;
		}
		h->nbd++;
	}
	free(v);
}

/* getBinaryDataContainingAddress: the one at or before a if it holds
 * a, else its root if that does; -1 */
static long
bd_find(const struct ywh *h, uint64_t a)
{
	size_t lo = 0, hi = h->nbd, mid;
	long i;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (h->bd[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	i = (long)lo - 1;
	if (bd_contains(&h->bd[i], a))
		return i;
	if (h->bd[i].parent >= 0 && bd_contains(&h->bd[h->bd[i].parent], a))
		return h->bd[i].parent;
	return -1;
}

/* ------------------------------------------------------------------ */
/* symbols and their values */

/* getJumpTableContainingAddress, over the tables of the function and
 * of its fragments or parent */
static int
in_table(const struct ywh *h, uint64_t a)
{
	size_t i;

	for (i = 0; i < h->njt; i++)
		if ((a >= h->jt[i].addr && a - h->jt[i].addr < h->jt[i].size) ||
		    (h->jt[i].size == 0 && a == h->jt[i].addr))
			return 1;
	return 0;
}

static int
is_table(const struct ywh *h, uint64_t a)
{
	size_t i;

	for (i = 0; i < h->njt; i++)
		if (h->jt[i].addr == a)
			return 1;
	return 0;
}

/* the function whose [addr, addr + size) holds a (not its padding) */
static const struct bfunc *
func_of(const struct ywh *h, uint64_t a)
{
	const struct bfunc *f = functab_find(&h->bin->ft, a);

	return f != NULL && a - f->addr < f->size ? f : NULL;
}

static int
is_code(const struct ywh *h, uint64_t a)
{
	const struct fsec *s = functab_section(&h->bin->ft, a);

	return s != NULL && (s->flags & SHF_EXECINSTR);
}

/* a symbol with value v: hashSymbol takes v unless a function owns the
 * symbol or a jump table holds v */
static void
sym_value(const struct ywh *h, uint64_t v, int func, struct mcx86_sym *s)
{
	s->sym = 1;
	s->hasval = !func && !in_table(h, v);
	s->value = v;
}

/* handleAddressRef (x86): code inside a function is that function's
 * symbol or entry; a PIC jump table a PC-relative reference names in
 * relocation mode is the table's label; otherwise the BinaryData
 * holding the address, and the offset into it, or a new symbol at it */
static void
addr_ref(struct ywh *h, uint64_t a, struct mcx86_sym *s)
{
	long i;

	const struct bfunc *rf;

	s->addend = 0;
	if (is_code(h, a) && (rf = func_of(h, a)) != NULL) {
		/* into this function: an entry point's symbol; into
		 * another: that function's BinaryData and the offset */
		sym_value(h, a, 1, s);
		if (rf != h->f)
			s->addend = (int64_t)(a - rf->addr);
		return;
	}
	if (h->bin->ft.has_relocs && is_table(h, a)) {
		sym_value(h, a, 1, s);
		return;
	}
	if (!h->bdread)
		bd_read(h);
	if ((i = bd_find(h, a)) >= 0) {
		sym_value(h, h->bd[i].addr, 0, s);
		s->addend = (int64_t)(a - h->bd[i].addr);
		return;
	}
	sym_value(h, a, 0, s);
}

/* the symbol and addend of a relocation in code as handleRelocation
 * makes them (x86), for the symbolizer: 0 if it keeps none for this
 * relocation (the operand is then symbolized without it) */
static int
reloc_ref(struct ywh *h, const struct cfg_reloc *r, uint64_t iaddr,
    uint32_t isize, struct mcx86_sym *s)
{
	const struct bfunc *rf;
	uint64_t sa, addr;
	int64_t add;
	long i;

	if (r->pcrel) {
		/* only against a symbol known by its name: a global; its
		 * BinaryData is the one at its address */
		if (r->secsym || !r->global)
			return 0;
		add = r->type == R_X86_64_GOTPCREL ||
		    r->type == R_X86_64_GOTPCRELX ||
		    r->type == R_X86_64_REX_GOTPCRELX ||
		    r->type == R_X86_64_GOTPCREL64 ? 0 : r->a;
		/* the addend from the end of the instruction */
		add += (int64_t)(iaddr + isize - r->off);
		rf = functab_find(&h->bin->ft, r->s);
		sym_value(h, r->s, rf != NULL && rf->addr == r->s, s);
		if (s->hasval && is_code(h, r->s))
			s->hasval = func_of(h, r->s) == NULL;
		s->addend = add;
		return 1;
	}
	/* analyzeRelocation: a section symbol's relocation becomes one
	 * against the address it names */
	if (r->secsym) {
		sa = r->target;
		add = 0;
	} else {
		sa = r->s;
		add = r->a;
	}
	addr = sa + (uint64_t)add;
	/* a reference to a function (or just past its end) is to the
	 * function: its symbol, an entry or a label, no addend inside it */
	rf = functab_find(&h->bin->ft, addr);
	if (rf == NULL && addr > 0)
		rf = functab_find(&h->bin->ft, addr - 1);
	if (rf != NULL && !(addr - rf->addr <= rf->size))
		rf = NULL;
	if (!r->secsym && func_of(h, sa) != NULL)
		rf = func_of(h, sa);
	if (rf != NULL) {
		sym_value(h, addr, 1, s);
		s->addend = addr - rf->addr < rf->maxsize ? 0 : add;
		return 1;
	}
	if (!h->bdread)
		bd_read(h);
	if ((i = bd_find(h, sa)) >= 0) {
		sym_value(h, h->bd[i].addr, 0, s);
		s->addend = add + (int64_t)(sa - h->bd[i].addr);
		return 1;
	}
	sym_value(h, sa, 0, s);
	s->addend = add;
	return 1;
}

/* the relocations BOLT keeps in a function (BinaryFunction::
 * addRelocation through X86MCPlusBuilder::shouldRecordCodeRelocation:
 * R_X86_64_PLT32 and R_X86_64_GOTPCREL are dropped, TLS ones never get
 * there; handleRelocation registers a PC-relative one only against a
 * symbol it knows by name: a global, not a section) */
static int
recorded(const struct cfg_reloc *r)
{
	switch (r->type) {
	case R_X86_64_8: case R_X86_64_16: case R_X86_64_32:
	case R_X86_64_32S: case R_X86_64_64:
		return 1;
	case R_X86_64_PC8: case R_X86_64_PC32: case R_X86_64_PC64:
	case R_X86_64_GOTPC64: case R_X86_64_GOTPCRELX:
	case R_X86_64_REX_GOTPCRELX:
		return !r->secsym && r->global;
	}
	return 0;
}

/* getRelocationInRange over the ones BOLT keeps: the first in [lo, hi) */
static const struct cfg_reloc *
kept_reloc_in(const struct ywh *h, uint64_t lo, uint64_t hi)
{
	const struct cfg_reloc *rl;
	size_t n, i;

	/* the relocations in [lo, hi) by offset, one lookup: the first
	 * at each offset is the one BOLT's map of them holds */
	n = cfgdis_relocs_in(h->cd, lo, hi, &rl);
	for (i = 0; i < n; i++)
		if ((i == 0 || rl[i].off != rl[i - 1].off) && rl[i].fromcode &&
		    recorded(&rl[i]))
			return &rl[i];
	return NULL;
}

static void
resolve(void *arg, const struct mcx86_ref *r, struct mcx86_sym *s)
{
	struct ywh *h = arg;
	const struct bfunc *f = h->f;
	const struct cfg_reloc *rl;

	switch (r->kind) {
	case MCX86_REF_TARGET:
		/* a label of the function, or a function's symbol; a jump
		 * past the end is a NOP; else a new symbol at the target */
		if (r->value >= f->addr && r->value - f->addr < f->size) {
			sym_value(h, r->value, 1, s);
			return;
		}
		if (r->value == f->addr + f->size && f->size < f->maxsize) {
			s->nop = 1;
			return;
		}
		sym_value(h, r->value, func_of(h, r->value) != NULL, s);
		return;
	case MCX86_REF_MEM:
		addr_ref(h, r->value, s);
		return;
	case MCX86_REF_DISP:
		if (is_table(h, r->value))
			sym_value(h, r->value, 1, s);
		return;
	}
	/* X86MCSymbolizer: the displacement a jump table's pattern
	 * loads through is the table's label */
	if (r->disp && !r->ripdisp && is_table(h, r->value)) {
		sym_value(h, r->value, 1, s);
		return;
	}
	if (h->bin->ft.has_relocs) {
		rl = kept_reloc_in(h, r->addr, r->addr + r->size);
		if (rl != NULL &&
		    (rl->type == R_X86_64_GOTPCRELX ||
		    rl->type == R_X86_64_REX_GOTPCRELX)) {
			/* the linker may have rewritten the instruction:
			 * symbolized from the address alone */
			if (r->ripdisp)
				addr_ref(h, r->value, s);
			else
				sym_value(h, r->value, func_of(h, r->value) !=
				    NULL, s);
			return;
		}
		rl = cfgdis_reloc_at(h->cd, r->addr + r->immoff);
		if (rl != NULL && rl->fromcode && recorded(rl) &&
		    reloc_ref(h, rl, r->addr, r->size, s))
			return;
	}
	if (r->ripdisp)
		addr_ref(h, r->value, s);
}

/* ------------------------------------------------------------------ */

struct ywh *
ywh_open(struct boltbin *bin, struct cfgdis *cd, int stdhash, char *err,
    size_t errlen)
{
	struct ywh *h;
	struct mcx86 *mc = NULL;
	struct mca64 *ma = NULL;

	/* other targets: no hashes (0) */
	if (bin->eo.machine == EM_X86_64 &&
	    (mc = mcx86_open(err, errlen)) == NULL)
		return NULL;
	if (bin->eo.machine == EM_AARCH64 &&
	    (ma = mca64_open(err, errlen)) == NULL)
		return NULL;
	h = xcalloc(1, sizeof(*h));
	h->bin = bin;
	h->cd = cd;
	h->mc = mc;
	h->ma = ma;
	h->stdhash = stdhash;
	return h;
}

void
ywh_close(struct ywh *h)
{
	if (h == NULL)
		return;
	if (h->mc != NULL)
		mcx86_close(h->mc);
	if (h->ma != NULL)
		mca64_close(h->ma);
	free(h->bd);
	free(h->jt);
	free(h->bh);
	free(h->order);
	free(h->cnt);
	free(h->ph);
	if (h->ah != NULL)
		for (size_t i = 0; i < h->bin->ft.n; i++)
			free(h->ah[i].bh);
	free(h->ah);
	free(h->late);
	free(h->fragat);
	free(h->frag);
	free(h);
}

uint64_t
ywh_undecoded(const struct ywh *h)
{
	return h->undecoded;
}

static void
add_tables(struct ywh *h, size_t fi)
{
	const struct cfg *g = h->inahead ? cfgdis_build_ahead(h->cd, fi) :
	    cfgdis_get(h->cd, fi);

	xgrow(&h->jt, &h->capjt, h->njt + g->njts + 1, sizeof(*h->jt));
	if (g->njts)
		memcpy(h->jt + h->njt, g->jts, g->njts * sizeof(*g->jts));
	h->njt += g->njts;
}

/* how block b's edges were added: 0 taken branches and the
 * fall-through (buildCFG), 1 after all of buildCFG's
 * (postProcessIndirectBranches: unknown control flow, or a jump table
 * set again, updateJumpTableSuccessors); the blocks
 * they go to in BOLT's order into order[] from n: taken branches by
 * source then target (a table's targets by offset), then the
 * fall-through; the referenced offsets in order */
/* the first site at or after offset off (sites are by offset): a
 * block's are those from its start to its end */
static size_t
site_from(const struct cfg *g, uint64_t off)
{
	size_t lo = 0, hi = g->nsites, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (g->sites[m].off < off)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

static int
late(const struct cfg *g, size_t b, int *ijmp)
{
	const struct cfg_block *bb = &g->blocks[b];
	size_t k;

	*ijmp = 0;
	for (k = site_from(g, bb->start); k < g->nsites &&
	    g->sites[k].off < bb->end; k++)
		if (g->sites[k].kind == CFG_SITE_IJMP && !g->sites[k].tail) {
			*ijmp = 1;
			return g->sites[k].table != 1;
		}
	return 0;
}

static size_t
succ_order(struct ywh *h, const struct cfg *g, size_t b, size_t n, int ijmp)
{
	const struct cfg_block *bb = &g->blocks[b];
	size_t k, m, s0 = n;
	long t;

	xgrow(&h->order, &h->caporder, n + bb->nsucc + 2, sizeof(*h->order));
	if (ijmp) {
		for (k = 0; k < bb->nsucc; k++) {
			uint32_t v = g->succs[bb->succ + k];

			if ((bb->flags & CFG_FALLS) && k + 1 == bb->nsucc)
				break;
			for (m = n; m > s0 && h->order[m - 1] > v; m--)
				h->order[m] = h->order[m - 1];
			h->order[m] = v;
			n++;
		}
	} else {
		for (k = site_from(g, bb->start); k < g->nsites &&
		    g->sites[k].off < bb->end; k++) {
			const struct cfg_site *st = &g->sites[k];

			if (st->tail || (st->kind != CFG_SITE_JCC &&
			    st->kind != CFG_SITE_JMP))
				continue;
			if (st->target < g->addr ||
			    (t = cfg_block_at(g, st->target - g->addr)) < 0 ||
			    g->blocks[t].start != st->target - g->addr)
				continue;
			xgrow(&h->order, &h->caporder, n + bb->nsucc + 2,
			    sizeof(*h->order));
			h->order[n++] = (uint32_t)t;
		}
	}
	if (bb->flags & CFG_FALLS) {
		xgrow(&h->order, &h->caporder, n + 1, sizeof(*h->order));
		h->order[n++] = (uint32_t)(b + 1);
	}
	return n;
}

/* AArch64MCPlusBuilder::getTargetExprFor: a relocation of these types
 * gives an AArch64MCExpr, which hashExpr hashes as nothing (an adr's or
 * adrp's too, whatever the type) */
static int
a64_target_type(uint32_t t)
{
	switch (t) {
	case R_AARCH64_ADR_PREL_LO21: case 560 /* TLSDESC_ADR_PREL21 */:
	case R_AARCH64_ADR_PREL_PG_HI21: case R_AARCH64_ADR_PREL_PG_HI21_NC:
	case R_AARCH64_TLSDESC_ADR_PAGE21:
	case R_AARCH64_TLSIE_ADR_GOTTPREL_PAGE21: case R_AARCH64_ADR_GOT_PAGE:
	case R_AARCH64_ADD_ABS_LO12_NC: case R_AARCH64_LD64_GOT_LO12_NC:
	case R_AARCH64_LDST8_ABS_LO12_NC: case R_AARCH64_LDST16_ABS_LO12_NC:
	case R_AARCH64_LDST32_ABS_LO12_NC: case R_AARCH64_LDST64_ABS_LO12_NC:
	case R_AARCH64_LDST128_ABS_LO12_NC: case R_AARCH64_TLSDESC_ADD_LO12:
	case R_AARCH64_TLSDESC_LD64_LO12:
	case R_AARCH64_TLSIE_LD64_GOTTPREL_LO12_NC:
	case R_AARCH64_MOVW_UABS_G0: case R_AARCH64_MOVW_UABS_G0_NC:
	case R_AARCH64_MOVW_UABS_G1: case R_AARCH64_MOVW_UABS_G1_NC:
	case R_AARCH64_MOVW_UABS_G2: case R_AARCH64_MOVW_UABS_G2_NC:
	case R_AARCH64_MOVW_UABS_G3:
		return 1;
	}
	return 0;
}

static int
a64_is_adr(uint32_t w)
{
	return (w & 0x9f000000u) == 0x10000000u;
}

/* handleAddressRef (AArch64, PC-relative) of address v from the function
 * being hashed: its own constant island is an ISLANDat symbol (the
 * BinaryData at v, or a new one: its value); code of its own is an entry
 * (a function's symbol: nothing); another function's code its symbol
 * and the offset; else the BinaryData holding v and the offset, or a new
 * symbol at v */
static void
a64_addr_ref(struct ywh *h, uint64_t v, struct mca64_sym *s)
{
	const struct bfunc *f = h->f, *rf;
	long i;

	memset(s, 0, sizeof(*s));
	if (v >= f->addr && v - f->addr < f->maxsize &&
	    cfgdis_in_island(h->cd, v)) {
		rf = functab_find(&h->bin->ft, v);
		s->hasval = !(rf != NULL && rf->addr == v);
		s->value = v;
		return;
	}
	if (is_code(h, v)) {
		if (v >= f->addr && v - f->addr < f->maxsize)
			return;
		if ((rf = func_of(h, v)) != NULL) {
			s->addend = (int64_t)(v - rf->addr);
			return;
		}
	}
	if (!h->bdread)
		bd_read(h);
	if ((i = bd_find(h, v)) >= 0) {
		s->hasval = 1;
		s->value = h->bd[i].addr;
		s->addend = (int64_t)(v - h->bd[i].addr);
		return;
	}
	s->hasval = 1;
	s->value = v;
}

/* an instruction of the function: its offset and word */
struct a64i {
	uint32_t	off, word;
};

/* what BinaryFunction::disassemble made of the operands of instruction
 * k of v (the function's instructions in order, islands left out): a
 * direct branch's target the label, function or new symbol it names, or
 * a NOP for a jump past the end (replaceBranchTarget, createNoop); the
 * relocations of a non-branch at its word, each the next immediate
 * (replaceImmWithSymbolRef, UsedReloc), else its PC-relative operand
 * (handlePCRelOperand); an adrp x16 and add x16, x16 before a br x16 (a
 * linker veneer: handleAArch64IndirectCall, fixStubTarget) their
 * immediates */
static void
a64_plan(struct ywh *h, const struct cfg *g, const struct a64i *v,
    size_t n, size_t k, struct mca64_plan *p)
{
	const struct bfunc *f = h->f;
	const struct cfg_site *st;
	const struct cfg_reloc *r;
	uint64_t a = f->addr + v[k].off;
	size_t nr, i;
	struct a64d x;

	memset(p, 0, sizeof(*p));
	a64d_decode(v[k].word, a, &x);
	st = cfg_site_at(g, v[k].off);
	if (st != NULL && st->tail && (st->kind == CFG_SITE_JMP ||
	    st->kind == CFG_SITE_IJMP))
		p->flags |= MCA64_TAIL;
	if (x.kind == A64K_JCC || x.kind == A64K_JMP || x.kind == A64K_CALL) {
		uint64_t t = x.target;

		if (t >= f->addr && t - f->addr < f->size)
			p->flags |= MCA64_BRANCH;	/* a label: nothing */
		else if (t == f->addr + f->size && f->size < f->maxsize &&
		    !cfgdis_veneer_at(h->cd, t))
			p->flags |= MCA64_NOP;
		else {
			p->flags |= MCA64_BRANCH;
			p->br.hasval = func_of(h, t) == NULL;
			p->br.value = t;
		}
		return;
	}
	if (x.kind == A64K_IJMP || x.kind == A64K_ICALL ||
	    x.kind == A64K_RET) {
		if (x.pcref && g->simple) {
			p->flags |= MCA64_PCREL;
			a64_addr_ref(h, x.ref, &p->pcrel);
		}
		return;
	}
	nr = cfgdis_relocs_in(h->cd, a, a + 4, &r);
	for (i = 0; i < nr && p->nimm < MCA64_MAXIMM; i++, r++) {
		struct mca64_sym *s = &p->imm[p->nimm++];

		s->target = a64_target_type(r->type) || x.adrp ||
		    a64_is_adr(v[k].word);
		if (!s->target) {
			s->hasval = func_of(h, r->target) == NULL;
			s->value = r->target;
		}
	}
	if (nr > 0)
		return;
	if (x.pcref) {
		p->flags |= MCA64_PCREL;
		if (a64_is_adr(v[k].word))
			p->pcrel.target = 1;
		else
			a64_addr_ref(h, x.ref, &p->pcrel);
		return;
	}
	/* matchLinkerVeneer: br x16 two instructions on, this an adrp x16
	 * or the add x16, x16, #imm after one, the add not the function's
	 * first instruction, neither relocated */
	if ((x.adrp || x.addxi) && x.rd == 16) {
		size_t b = x.adrp ? k + 2 : k + 1;
		struct a64d ad, ap, br;
		const struct cfg_reloc *r2;

		if (b >= n || b < 2)
			return;
		a64d_decode(v[b].word, f->addr + v[b].off, &br);
		a64d_decode(v[b - 1].word, f->addr + v[b - 1].off, &ad);
		a64d_decode(v[b - 2].word, f->addr + v[b - 2].off, &ap);
		if ((v[b].word & 0xfffffc1fu) != 0xd61f0000u || br.rd != 16 ||
		    !ad.addxi || ad.rd != 16 || ad.rn != 16 || !ap.adrp ||
		    ap.rd != 16 ||
		    cfgdis_relocs_in(h->cd, f->addr + v[b - 1].off,
		    f->addr + v[b - 1].off + 4, &r2) > 0 ||
		    cfgdis_relocs_in(h->cd, f->addr + v[b - 2].off,
		    f->addr + v[b - 2].off + 4, &r2) > 0)
			return;
		p->nimm = 1;
		p->imm[0].target = 1;
	}
}

/* the strings of AArch64 code, block by block in layout order, the
 * words of constant islands left out; the function's hash */
static uint64_t
a64_strings(struct ywh *h, const struct cfg *g)
{
	const struct bfunc *f = h->f;
	struct a64i *v = NULL;
	size_t n = 0, cap = 0, k, b;
	struct mca64_plan p;

	for (b = 0; b < g->nblocks; b++) {
		const struct cfg_block *bb = &g->blocks[b];
		uint64_t off, avail = 0;
		const uint8_t *q = cfgdis_bytes(h->cd, f->addr + bb->start,
		    &avail);

		/* the last word may end past the block (and Size) */
		for (off = bb->start; q != NULL && off < bb->end &&
		    off - bb->start + 4 <= avail; off += 4) {
			uint32_t w = a64d_word(q + (off - bb->start));

			if (cfgdis_in_island(h->cd, f->addr + off))
				continue;
			/* zero padding ends the code (isZeroPaddingAt) */
			if (!a64llvm_valid(w))
				break;
			xgrow(&v, &cap, n + 1, sizeof(*v));
			v[n].off = (uint32_t)off;
			v[n++].word = w;
		}
	}
	for (b = 0, k = 0; b < g->nblocks; b++) {
		const struct cfg_block *bb = &g->blocks[b];
		struct mca64_block mb;

		mca64_block_begin(h->ma);
		for (; k < n && v[k].off < bb->end; k++) {
			a64_plan(h, g, v, n, k, &p);
			if (!mca64_insn(h->ma, v[k].word, f->addr + v[k].off,
			    &p)) {
				h->undecoded++;
				for (; k < n && v[k].off < bb->end; k++)
					;
				break;
			}
		}
		mca64_block_end(h->ma, h->stdhash, &mb);
		h->bh[b].instr = mb.instr;
		h->bh[b].opcode = mb.opcode;
	}
	free(v);
	return mca64_func_end(h->ma, h->stdhash);
}

/* each function's fragments, in table order (a count per parent, then
 * the fragments placed): one pass, not one over the table per function */
static void
frag_index(struct ywh *h)
{
	const struct functab *ft = &h->bin->ft;
	size_t i;

	h->fragat = xcalloc(ft->n + 2, sizeof(*h->fragat));
	h->frag = xcalloc(ft->n + 1, sizeof(*h->frag));
	for (i = 0; i < ft->n; i++)
		if (ft->f[i].parent != i && ft->f[i].parent < ft->n &&
		    (ft->f[i].flags & BF_FRAGMENT))
			h->fragat[ft->f[i].parent + 2]++;
	for (i = 0; i < ft->n; i++)
		h->fragat[i + 2] += h->fragat[i + 1];
	for (i = 0; i < ft->n; i++)
		if (ft->f[i].parent != i && ft->f[i].parent < ft->n &&
		    (ft->f[i].flags & BF_FRAGMENT))
			h->frag[h->fragat[ft->f[i].parent + 1]++] =
			    (uint32_t)i;
}

static uint64_t hash_func(struct ywh *, size_t, const struct cfg *,
	    uint64_t *);

uint64_t
ywh_func(struct ywh *h, size_t fi, const struct cfg *g, uint64_t *out)
{
	struct ywh_ahead *a;
	uint64_t fh;

	if (g == NULL || g->nblocks == 0)
		return 0;
	if (h->mc == NULL && h->ma == NULL) {
		memset(out, 0, g->nblocks * sizeof(*out));
		return 0;
	}
	/* made ahead: taken once, as if made now */
	if (h->ah != NULL && (a = &h->ah[fi])->bh != NULL &&
	    a->nb == g->nblocks) {
		memcpy(out, a->bh, a->nb * sizeof(*out));
		h->undecoded += a->undecoded;
		fh = a->fh;
		free(a->bh);
		memset(a, 0, sizeof(*a));
		return fh;
	}
	return hash_func(h, fi, g, out);
}

void
ywh_ahead(struct ywh *h, size_t fi, const struct cfg *g)
{
	struct ywh_ahead *a;
	uint64_t u0 = h->undecoded;

	if (g == NULL || g->nblocks == 0 || (h->mc == NULL && h->ma == NULL) ||
	    fi >= h->bin->ft.n)
		return;
	if (h->ah == NULL)
		h->ah = xcalloc(h->bin->ft.n + 1, sizeof(*h->ah));
	a = &h->ah[fi];
	if (a->bh != NULL)
		return;
	a->bh = xcalloc(g->nblocks, sizeof(*a->bh));
	a->nb = g->nblocks;
	h->inahead = 1;
	a->fh = hash_func(h, fi, g, a->bh);
	h->inahead = 0;
	a->undecoded = h->undecoded - u0;
	h->undecoded = u0;
}

static uint64_t
hash_func(struct ywh *h, size_t fi, const struct cfg *g, uint64_t *out)
{
	const struct functab *ft = &h->bin->ft;
	const struct bfunc *f = &ft->f[fi];
	size_t a, b, k, n;
	uint64_t fh;

	h->fi = fi;
	h->f = f;
	h->g = g;
	h->njt = 0;
	add_tables(h, fi);
	if (f->parent != fi)
		add_tables(h, f->parent);
	if (h->fragat == NULL)
		frag_index(h);
	for (k = h->fragat[fi]; k < h->fragat[fi + 1]; k++)
		add_tables(h, h->frag[k]);
	xgrow(&h->bh, &h->capbh, g->nblocks, sizeof(*h->bh));
	/* the strings, block by block in layout order (AArch64's are
	 * a64_strings') */
	for (b = 0; h->ma == NULL && b < g->nblocks; b++) {
		const struct cfg_block *bb = &g->blocks[b];
		uint64_t off = bb->start, avail = 0;
		const uint8_t *p = cfgdis_bytes(h->cd, f->addr + off, &avail);

		size_t sk = site_from(g, off);

		mcx86_block_begin(h->mc);
		while (p != NULL && off < bb->end) {
			const struct cfg_site *st;
			unsigned fl;

			/* the site at off: the sites are by offset, so
			 * is the walk */
			while (sk < g->nsites && g->sites[sk].off < off)
				sk++;
			st = sk < g->nsites && g->sites[sk].off == off ?
			    &g->sites[sk] : NULL;
			fl = st != NULL && st->tail &&
			    (st->kind == CFG_SITE_JMP ||
			    st->kind == CFG_SITE_IJMP) ? MCX86_TAIL : 0;
			size_t sz;

			sz = mcx86_insn(h->mc, p, (size_t)(bb->end - off <
			    avail ? bb->end - off : avail), f->addr + off, fl,
			    resolve, h);
			if (sz == 0) {
				h->undecoded++;
				break;
			}
			off += sz;
			p += sz;
			avail -= sz;
		}
		mcx86_block_end(h->mc, h->stdhash, &h->bh[b]);
	}
	fh = h->ma != NULL ? a64_strings(h, g) :
	    mcx86_func_end(h->mc, h->stdhash);
	/* the edges in BOLT's order: successors, then each block's
	 * predecessors in the order the edges into it were added */
	xgrow(&h->cnt, &h->capcnt, g->nblocks + 1, sizeof(*h->cnt));
	xgrow(&h->late, &h->caplate, g->nblocks + 1, sizeof(*h->late));
	n = 0;
	for (b = 0; b < g->nblocks; b++) {
		int ij;

		h->cnt[b] = (uint32_t)n;
		h->late[b] = (uint8_t)late(g, b, &ij);
		n = succ_order(h, g, b, n, ij);
	}
	h->cnt[g->nblocks] = (uint32_t)n;
	/* predecessors' hashes in the order the edges were added: the
	 * taken ones, from the blocks in layout order, then the
	 * fall-throughs */
	xgrow(&h->ph, &h->capph, g->nblocks, sizeof(*h->ph));
	memset(h->ph, 0, g->nblocks * sizeof(*h->ph));
	for (a = 0; a < g->nblocks; a++) {
		if (h->late[a])
			continue;
		for (k = h->cnt[a]; k < h->cnt[a + 1]; k++)
			if (!((g->blocks[a].flags & CFG_FALLS) &&
			    k + 1 == h->cnt[a + 1]))
				h->ph[h->order[k]] = mcx86_hash16(
				    h->ph[h->order[k]], h->bh[a].opcode);
	}
	for (a = 0; a + 1 < g->nblocks; a++)
		if (g->blocks[a].flags & CFG_FALLS)
			h->ph[a + 1] = mcx86_hash16(h->ph[a + 1],
			    h->bh[a].opcode);
	for (a = 0; a < g->nblocks; a++) {
		if (!h->late[a])
			continue;
		for (k = h->cnt[a]; k < h->cnt[a + 1]; k++)
			h->ph[h->order[k]] = mcx86_hash16(h->ph[h->order[k]],
			    h->bh[a].opcode);
	}
	for (b = 0; b < g->nblocks; b++) {
		const struct cfg_block *bb = &g->blocks[b];
		uint64_t sh = 0, ph = h->ph[b], oh, ih, sv, pv;

		for (k = h->cnt[b]; k < h->cnt[b + 1]; k++)
			sh = mcx86_hash16(sh, h->bh[h->order[k]].opcode);
		if (h->stdhash) {
			ih = mcx86_hash_value(h->bh[b].instr);
			oh = mcx86_hash_value(h->bh[b].opcode);
			sv = mcx86_hash_value(sh);
			pv = mcx86_hash_value(ph);
		} else {
			ih = h->bh[b].instr;
			oh = h->bh[b].opcode;
			sv = sh;
			pv = ph;
		}
		out[b] = (bb->start & 0xffff) | (oh & 0xffff) << 16 |
		    (ih & 0xffff) << 32 | (pv & 0xff) << 48 | (sv & 0xff) << 56;
	}
	return fh;
}
