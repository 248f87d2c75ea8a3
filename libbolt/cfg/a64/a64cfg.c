/* See COPYING file for copyright and license details. */
/*
 * a64cfg.c: AArch64 for the graph builder (cfgint.h: cfg_arch_aarch64),
 * BOLT 19's rules for that target as perf2bolt-19 applies them
 * (bolt/lib/Target/AArch64/AArch64MCPlusBuilder.cpp and the AArch64 paths
 * of BinaryFunction::disassemble, processIndirectBranch,
 * postProcessIndirectBranches, BinaryContext::handleAddressRef,
 * handleAArch64Veneer, RewriteInstance::handleRelocation and
 * Relocation.cpp; each rule below checked with perf2bolt-19 --print-all
 * on the programs of tests/52-aarch64.bats and tests/data/a64):
 *
 *  - every instruction is a 4-byte word that LLVM's disassembler with
 *    every feature decodes (a64dec.c's a64d_valid, else the release's
 *    own: llvmbr.h, loaded the first time a64dec cannot tell, which
 *    real code seldom makes it); a word it cannot decode makes
 *    the function ignored, unless every byte from there to the end of the
 *    code is zero; its kind is a64dec.c's (brk and udf end blocks, hlt
 *    does not; the only NOP is hint #0); words are read from the bytes
 *    up to MaxSize, so the last may end past Size (a size no multiple
 *    of 4);
 *  - data in code: at an offset a $d mark (functab's marks) names, the
 *    bytes up to the next $x mark, or MaxSize, are skipped
 *    (getSizeOfDataInCodeAt); they lie in the block before them;
 *  - a br is never a jump through a table: processIndirectBranch answers
 *    UNKNOWN on AArch64 ("full jump table processing" is off), so
 *    postProcessIndirectBranches makes it a tail call in a one-block
 *    function or, with relocations, in a function no data references;
 *    else, with relocations, its successors are the referenced blocks,
 *    and without, the function is not simple.  (isEpilogue is false.)
 *    A switch's table dispatch, adr of its own first case, is therefore
 *    a reference to its own code: the function is not simple;
 *  - a PC-relative operand (adr, the literal loads, autiasppc,
 *    retaasppc's label) of an instruction whose word no relocation
 *    symbolizes, is an address (handleAddressRef): in a constant island,
 *    of its function or another, nothing; in its own code up to
 *    MaxSize, an entry and a reference to its own code (not simple);
 *    in another function, an entry of it;
 *  - relocations (handleRelocation, Relocation.cpp): the supported
 *    types but none, LD_PREL_LO19 and the TLS ones that are no GOT
 *    access, read even where a dynamic relocation applies and in
 *    padding; one the linker relaxed (at a NOP, an adr that was an adrp
 *    or a GOT load; TLS sequences rewritten) is not; a GOT load made an
 *    add is an ordinary one.  GOT accesses name nothing.  Another's
 *    address S+A in a function (MaxSize, or just past its end; the
 *    symbol's function if the symbol is no section's), not its start
 *    and not in an island: from data a label and a referenced offset,
 *    from another function's code an entry, from its own code a label;
 *  - a branch to a function's end lands on a veneer (adrp x16, add x16,
 *    br x16 there, in no function) is no jump past the end;
 *  - no padding check (hasValidCodePadding is x86's).
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "cfgint.h"
#include "hashsym.h"
#include "a64dec.h"
#include "a64rel.h"
#include "llvmbr.h"

#define SAMEKIND(x)	((int)A64K_##x == (int)IK_##x)
_Static_assert(SAMEKIND(OTHER) && SAMEKIND(NOP) && SAMEKIND(JCC) &&
    SAMEKIND(JMP) && SAMEKIND(IJMP) && SAMEKIND(RET) && SAMEKIND(CALL) &&
    SAMEKIND(ICALL) && SAMEKIND(TRAP), "a64dec.h's kinds are the graph "
    "builder's");

/* isGOTAArch64 */
static int
got(uint32_t t)
{
	struct a64rel r;

	a64rel_of(t, &r);
	return r.got;
}

/* readRelocations drops: the unsupported types (analyzeRelocation
 * fails), none and LD_PREL_LO19 (skipRelocationType), and TLS that is no
 * GOT access (isTLS && !isGOT: the local-exec adds) */
static int
a64_reloc_skip(uint32_t t)
{
	struct a64rel r;

	a64rel_of(t, &r);
	return !r.supported || t == R_AARCH64_TLSLE_ADD_TPREL_HI12 ||
	    t == R_AARCH64_TLSLE_ADD_TPREL_LO12_NC;
}

static int
a64_none(uint32_t t)
{
	(void)t;
	return 0;
}

static int
a64_reloc_branch(struct cfgdis *d, const struct reloc *r, uint64_t *to)
{
	(void)d;
	(void)r;
	(void)to;
	return 0;
}

static int
a64_data_ref(const struct reloc *r, uint64_t *a)
{
	(void)r;
	(void)a;
	return 0;
}

/* ---- constant islands ---- */

/* is a in data in code of function f (BinaryFunction::isInConstantIsland:
 * the last mark at or before it, of those of f's [addr, addr + MaxSize],
 * is a $d) */
static int
island_of(const struct functab *ft, const struct bfunc *f, uint64_t a)
{
	size_t k = functab_marks_from(ft, a + 1);

	if (a < f->addr || a - f->addr >= f->maxsize)
		return 0;
	/* the mark just before: one per address, so the last at or
	 * before a decides */
	if (k == 0 || ft->marks[k - 1].addr < f->addr)
		return 0;
	return ft->marks[k - 1].data;
}

static int
a64_in_island(struct cfgdis *d, uint64_t a)
{
	const struct bfunc *f = functab_find(d->ft, a);

	return f != NULL && island_of(d->ft, f, a);
}

/* ---- decoding ---- */

/* the state of the decoder: the release's bridge, once a64dec could
 * not tell whether a word decodes */
struct a64st {
	struct llvmbr	*br;
	int		 failed;
};

/* do the 4 bytes at p decode (a64dec.h: a64d_valid, else the release's
 * disassembler); a bridge that cannot be loaded is the graphs' error
 * (cfgdis_error), and the word taken as no instruction meanwhile */
static int
decodes(struct cfgdis *d, const uint8_t *p)
{
	struct a64st *st = d->archd;
	char err[512];
	int v = a64d_valid(a64d_word(p));

	if (v >= 0)
		return v;
	if (st->br == NULL && !st->failed &&
	    (st->br = llvmbr_open(d->llvm, EM_AARCH64, err, sizeof(err))) ==
	    NULL) {
		st->failed = 1;
		d->error = xstrdup(err);
	}
	/* the address does not change whether a word decodes */
	return st->br != NULL && llvmbr_decode(st->br, p, 4, 0x10000) == 4;
}

/* isZeroPaddingAt: every byte from off to the end of the code (the next
 * data mark of the function, or Size) zero; avail bytes at code */
static int
zero_to_end(const struct functab *ft, const struct bfunc *f,
    const uint8_t *code, uint64_t avail, uint64_t off)
{
	uint64_t end = f->size, k;
	size_t m = functab_marks_from(ft, f->addr + off + 1);

	for (; m < ft->nmarks && ft->marks[m].addr - f->addr <= f->maxsize; m++)
		if (ft->marks[m].data) {
			end = ft->marks[m].addr - f->addr;
			break;
		}
	for (k = off; k < end && k < avail; k++)
		if (code[k] != 0)
			return 0;
	return 1;
}

static int
a64_decode(struct cfgdis *d, size_t fi, struct insn **out, size_t *capout,
    size_t *nout, int count)
{
	const struct functab *ft = d->ft;
	const struct bfunc *f = &ft->f[fi];
	const uint8_t *code;
	uint64_t avail, lim, off = 0;
	size_t cap = *capout, nin = 0, m;
	struct insn *v = *out;
	int ret = 0;

	*nout = 0;
	if ((code = cd_sec_bytes(d, f->addr, &avail)) == NULL || avail < f->size)
		return -1;
	/* the first mark past the function's start: data marks name where
	 * islands begin (a mark at its start, $x, is its code) */
	m = functab_marks_from(ft, f->addr);
	lim = f->maxsize < avail ? f->maxsize : avail;
	if (lim < f->size)
		lim = f->size;
	while (off < f->size) {
		struct insn in;
		struct a64d a;
		uint32_t w;

		/* a data mark at off: skip to the next code mark */
		while (m < ft->nmarks && ft->marks[m].addr < f->addr + off)
			m++;
		if (m < ft->nmarks && ft->marks[m].addr == f->addr + off &&
		    ft->marks[m].data) {
			uint64_t next = f->maxsize;
			size_t k;

			for (k = m + 1; k < ft->nmarks &&
			    ft->marks[k].addr - f->addr < f->maxsize; k++)
				if (!ft->marks[k].data) {
					next = ft->marks[k].addr - f->addr;
					break;
				}
			off = next;
			continue;
		}
		/* the decoder reads up to MaxSize (getData): a last
		 * instruction may end past Size */
		if (lim - off < 4 || !decodes(d, code + off)) {
			if (zero_to_end(ft, f, code, avail, off))
				break;
			d->stats.undecodable += count != 0;
			ret = -1;
			break;
		}
		w = a64d_word(code + off);
		a64d_decode(w, f->addr + off, &a);
		memset(&in, 0, sizeof(in));
		in.off = (uint32_t)off;
		in.size = 4;
		in.kind = a.kind;
		in.detailed = 1;
		if (a.kind == A64K_JCC || a.kind == A64K_JMP || a.kind == A64K_CALL)
			in.target = a.target;
		if (a.pcref) {
			in.ripref = 1;
			in.target = a.ref;
		}
		if (nin == cap)
			xgrow(&v, &cap, nin + 1, sizeof(*v));
		v[nin++] = in;
		off += 4;
	}
	*out = v;
	*capout = cap;
	*nout = nin;
	return ret;
}

static int
a64_pcref(struct cfgdis *d, uint64_t addr, size_t size, uint64_t *t)
{
	(void)d;
	(void)addr;
	(void)size;
	(void)t;
	return 0;
}

static void
a64_detail(struct fbuild *b, long k)
{
	b->in[k].detailed = 1;
}

/* processIndirectBranch on AArch64: UNKNOWN, always */
static int
a64_jump_table(struct fbuild *b, long k, uint64_t *tab, int *pic)
{
	(void)b;
	(void)k;
	*tab = 0;
	*pic = 0;
	return IB_UNKNOWN;
}

static int
a64_table_local(struct fbuild *b, const struct cfg *g, long k)
{
	(void)b;
	(void)g;
	(void)k;
	return 1;
}

static int
a64_restores_frame(const struct insn *in)
{
	(void)in;
	return 0;
}

static int
a64_valid_padding(struct fbuild *b)
{
	(void)b;
	return 1;
}

static int
a64_bytes_return(struct cfgdis *d, uint64_t a)
{
	const uint8_t *p;
	uint64_t avail;
	struct a64d x;

	if ((p = cd_sec_bytes(d, a, &avail)) == NULL || avail < 4)
		return 0;
	a64d_decode(a64d_word(p), a, &x);
	return x.kind == A64K_RET;
}

/* handleAArch64Veneer(MatchOnly): the code at a, in no function and in a
 * code section, decodes up to its first branch, which is br x16 after
 * add x16, x16, #imm after adrp x16 (matchLinkerVeneer), the add not
 * the first instruction read */
static int
a64_veneer_at(struct cfgdis *d, uint64_t a)
{
	const struct fsec *s = functab_section(d->ft, a);
	const struct bfunc *f = functab_find(d->ft, a);
	const uint8_t *p;
	uint64_t avail, k;
	uint32_t prev1 = 0, prev2 = 0;
	unsigned n = 0;

	if ((f != NULL && a - f->addr < f->size) || s == NULL ||
	    !(s->flags & SHF_EXECINSTR) ||
	    (p = cd_sec_bytes(d, a, &avail)) == NULL)
		return 0;
	for (k = 0; k + 4 <= avail; k += 4) {
		uint32_t w = a64d_word(p + k);
		struct a64d x, y;

		if (!decodes(d, p + k))
			return 0;
		a64d_decode(w, a + k, &x);
		if (x.kind == A64K_JCC || x.kind == A64K_JMP ||
		    x.kind == A64K_IJMP) {
			if ((w & 0xfffffc1fu) != 0xd61f0000u || x.rd != 16 || n < 2)
				return 0;
			a64d_decode(prev1, a + k - 4, &y);
			if (!y.addxi || y.rd != 16 || y.rn != 16)
				return 0;
			a64d_decode(prev2, a + k - 8, &y);
			return y.adrp && y.rd == 16;
		}
		prev2 = prev1;
		prev1 = w;
		n++;
	}
	return 0;
}

/* ---- relocations ---- */

/* the relocated bytes, for Relocation::skipRelocationProcess */
static int
contents(struct cfgdis *d, const struct reloc *r, uint64_t *v)
{
	const uint8_t *p;
	uint64_t avail;
	struct a64rel rt;
	size_t n, k;

	a64rel_of(r->type, &rt);
	n = rt.size;
	if ((p = cd_sec_bytes(d, r->off, &avail)) == NULL || avail < n)
		return -1;
	for (*v = 0, k = 0; k < n; k++)
		*v |= (uint64_t)p[k] << (8 * k);
	return 0;
}

/* skipRelocationProcessAArch64: a relocation whose instruction the
 * linker rewrote is not read (1); a GOT load made an add is an add's
 * (its type changed) */
static int
relaxed(struct cfgdis *d, struct reloc *r)
{
	uint64_t c;

	if (contents(d, r, &c) == -1)
		return 0;
	if (c == 0xd503201fu)			/* a NOP */
		return 1;
	if (r->type == R_AARCH64_LD64_GOT_LO12_NC &&
	    (c & 0x7f800000u) == 0x11000000u) {	/* add (immediate) */
		r->type = R_AARCH64_ADD_ABS_LO12_NC;
		return 0;
	}
	switch (r->type) {
	case R_AARCH64_TLSDESC_LD64_LO12: case R_AARCH64_TLSDESC_ADR_PAGE21:
	case R_AARCH64_TLSIE_LD64_GOTTPREL_LO12_NC:
	case R_AARCH64_TLSIE_ADR_GOTTPREL_PAGE21:
		if ((c & 0x1f800000u) == 0x12800000u)	/* a mov */
			return 1;
		break;
	}
	switch (r->type) {
	case R_AARCH64_LD64_GOT_LO12_NC:
	case R_AARCH64_TLSIE_LD64_GOTTPREL_LO12_NC:
	case R_AARCH64_TLSDESC_LD64_LO12:
		if ((c & 0xfc000000u) == 0x14000000u)	/* erratum veneer: b */
			return 1;
		break;
	}
	switch (r->type) {
	case R_AARCH64_ADR_PREL_PG_HI21: case R_AARCH64_ADD_ABS_LO12_NC:
	case R_AARCH64_ADR_GOT_PAGE: case R_AARCH64_LD64_GOT_LO12_NC:
		if ((c & 0x9f000000u) == 0x10000000u)	/* an adr */
			return 1;
		break;
	}
	return 0;
}

static void
push(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
	cd_push64(v, n, cap, x);
}

/* handleRelocation: what each relocation makes of the function it
 * names, and the relocations that stay (those the disassembly reads an
 * operand from, UsedReloc) */
static void
a64_scan_relocs(struct cfgdis *d)
{
	const struct functab *ft = d->ft;
	size_t i, j;

	for (i = j = 0; i < d->nrel; i++) {
		struct reloc *r = &d->rel[i];
		const struct bfunc *from = NULL, *to, *sf;
		uint64_t a = r->target, o;
		size_t ti;

		if (relaxed(d, r))
			continue;
		d->rel[j++] = *r;
		r = &d->rel[j - 1];
		if (got(r->type))
			continue;	/* ForceRelocation: __BOLT_got_zero */
		if (r->fromcode && (from = functab_find(ft, r->off)) == NULL)
			continue;
		/* getBinaryFunctionContainingAddress(CheckPastEnd, MaxSize) */
		to = functab_find(ft, a);
		if (to == NULL && a > 0 && (to = functab_find(ft, a - 1)) != NULL &&
		    a - to->addr != to->maxsize)
			to = NULL;
		/* a symbol's own function wins over where S + A lies; a
		 * section symbol's function must be in that section */
		if (!r->secsym) {
			sf = functab_find(ft, r->s);
			if (sf != NULL && r->s - sf->addr < sf->size &&
			    sf != to)
				to = sf;
		} else if (to != NULL &&
		    functab_section(ft, to->addr) != functab_section(ft, r->s))
			to = NULL;
		if (to == NULL || a < to->addr || a - to->addr >= to->maxsize ||
		    (o = a - to->addr) == 0)
			continue;
		ti = (size_t)(to - ft->f);
		/* an island's address is no label (getOrCreateLocalLabel
		 * gives the island's symbol), but data that names it still
		 * references the function */
		if (from == NULL)
			push(&d->xref[ti], &d->nxref[ti], &d->capxref[ti], o);
		else if (island_of(ft, to, a))
			continue;
		else if (from != to)
			push(&d->xent[ti], &d->nxent[ti], &d->capxent[ti], a);
		else
			push(&d->xlab[ti], &d->nxlab[ti], &d->capxlab[ti], o);
	}
	d->nrel = j;
}

static int
a64_open(struct cfgdis *d, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	d->archd = xcalloc(1, sizeof(struct a64st));
	return 0;
}

static void
a64_close(struct cfgdis *d)
{
	struct a64st *st = d->archd;

	if (st != NULL)
		llvmbr_close(st->br);
	free(st);
	d->archd = NULL;
}

const struct cfg_arch cfg_arch_aarch64 = {
	.name = "AArch64",
	.decoder = "LLVM %s",
	.hash_strings = hashsym_a64,
	.machine = EM_AARCH64,
	.open = a64_open,
	.close = a64_close,
	.reloc_skip = a64_reloc_skip,
	.reloc_pcrel = a64_none,
	.reloc_abs = a64_none,
	.reloc_branch = a64_reloc_branch,
	.reloc_data_ref = a64_data_ref,
	.decode = a64_decode,
	.pcref = a64_pcref,
	.detail = a64_detail,
	.jump_table = a64_jump_table,
	.table_local = a64_table_local,
	.restores_frame = a64_restores_frame,
	.valid_padding = a64_valid_padding,
	.bytes_return = a64_bytes_return,
	.keep_dynrel = 1,
	.reloc_keep_undef = got,
	.scan_relocs = a64_scan_relocs,
	.in_island = a64_in_island,
	.self_maxsize = 1,
	.veneer_at = a64_veneer_at,
	.gaps = 1,
};
