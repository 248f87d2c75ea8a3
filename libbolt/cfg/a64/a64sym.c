/* See COPYING file for copyright and license details. */
/*
 * a64sym.c: AArch64's part of BOLT's hash strings (hashsym.h).  BOLT has
 * no symbolizer for AArch64: what BinaryFunction::disassemble makes of
 * an instruction's operands is planned here, from a64dec's reading of
 * the word and the relocations at it, and given to the bridge as the
 * answers to its questions: a direct branch's target becomes the label,
 * function or new symbol it names, or a NOP for a jump past the end
 * (replaceBranchTarget, createNoop); the relocations of a non-branch at
 * its word, each the next immediate (replaceImmWithSymbolRef,
 * UsedReloc), else its PC-relative operand (handlePCRelOperand); an
 * adrp x16 and add x16, x16 before a br x16 (a linker veneer:
 * handleAArch64IndirectCall, fixStubTarget) their immediates.  An
 * expression getTargetExprFor wraps (adr, adrp, the :lo12: and movw
 * relocations: a64rel.h) carries its specifier; the bridge's rules of
 * the release say how it hashes.  The words of constant islands are
 * left out, and zero padding ends the code.
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "boltbin.h"
#include "cfg.h"
#include "hashsym.h"
#include "a64dec.h"
#include "a64rel.h"

/* an instruction of the function: its offset and word */
struct a64i {
	uint32_t	off, word;
};

/* what the disassembly made of one instruction's operands */
struct plan {
	int		 branch, nop, pcrel;
	struct llvmbr_sym br, pc;
	unsigned	 nimm;
	struct llvmbr_sym imm[4];
};

static int
is_adr(uint32_t w)
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
addr_ref(struct hashsym *hs, uint64_t v, struct llvmbr_sym *s)
{
	const struct bfunc *f = hs->f, *rf;
	const struct hs_data *d;

	memset(s, 0, sizeof(*s));
	s->sym = 1;
	if (v >= f->addr && v - f->addr < f->maxsize &&
	    cfgdis_in_island(hs->cd, v)) {
		rf = functab_find(&hs->bin->ft, v);
		s->hasval = !(rf != NULL && rf->addr == v);
		s->value = v;
		return;
	}
	if (hashsym_is_code(hs, v)) {
		if (v >= f->addr && v - f->addr < f->maxsize)
			return;
		if ((rf = hashsym_func_of(hs, v)) != NULL) {
			s->addend = (int64_t)(v - rf->addr);
			return;
		}
	}
	if ((d = hashsym_data(hs, v)) != NULL) {
		s->hasval = 1;
		s->value = d->addr;
		s->addend = (int64_t)(v - d->addr);
		return;
	}
	s->hasval = 1;
	s->value = v;
}

/* matchLinkerVeneer: br x16 two instructions on, instruction k an adrp
 * x16 or the add x16, x16, #imm after one, the add not the function's
 * first instruction, neither relocated: 1 and the address they make in
 * *t */
static int
veneer_part(struct hashsym *hs, const struct a64i *v, size_t n, size_t k,
    const struct a64d *x, uint64_t *t)
{
	const struct bfunc *f = hs->f;
	size_t b = x->adrp ? k + 2 : k + 1;
	struct a64d ad, ap, br;
	const struct cfg_reloc *r2;

	if (!(x->adrp || x->addxi) || x->rd != 16 || b >= n || b < 2)
		return 0;
	a64d_decode(v[b].word, f->addr + v[b].off, &br);
	a64d_decode(v[b - 1].word, f->addr + v[b - 1].off, &ad);
	a64d_decode(v[b - 2].word, f->addr + v[b - 2].off, &ap);
	*t = ap.ref + ad.imm12;
	return (v[b].word & 0xfffffc1fu) == 0xd61f0000u && br.rd == 16 &&
	    ad.addxi && ad.rd == 16 && ad.rn == 16 && ap.adrp && ap.rd == 16 &&
	    cfgdis_relocs_in(hs->cd, f->addr + v[b - 1].off,
	    f->addr + v[b - 1].off + 4, &r2) == 0 &&
	    cfgdis_relocs_in(hs->cd, f->addr + v[b - 2].off,
	    f->addr + v[b - 2].off + 4, &r2) == 0;
}

/* the plan of instruction k of v (the function's instructions in order,
 * islands left out) */
static void
plan_of(struct hashsym *hs, const struct a64i *v, size_t n, size_t k,
    struct plan *p)
{
	const struct bfunc *f = hs->f;
	const struct cfg_reloc *r;
	uint64_t a = f->addr + v[k].off, t;
	size_t nr, i;
	struct a64d x;
	struct a64rel rt;

	memset(p, 0, sizeof(*p));
	a64d_decode(v[k].word, a, &x);
	if (x.kind == A64K_JCC || x.kind == A64K_JMP || x.kind == A64K_CALL) {
		t = x.target;
		p->br.sym = 1;
		if (t >= f->addr && t - f->addr < f->size)
			p->branch = 1;		/* a label: nothing */
		else if (t == f->addr + f->size && f->size < f->maxsize &&
		    !cfgdis_veneer_at(hs->cd, t))
			p->nop = 1;
		else {
			p->branch = 1;
			p->br.hasval = hashsym_func_of(hs, t) == NULL;
			p->br.value = t;
		}
		return;
	}
	if (x.kind == A64K_IJMP || x.kind == A64K_ICALL ||
	    x.kind == A64K_RET) {
		if (x.pcref && hs->g->simple) {
			p->pcrel = 1;
			addr_ref(hs, x.ref, &p->pc);
		}
		return;
	}
	nr = cfgdis_relocs_in(hs->cd, a, a + 4, &r);
	for (i = 0; i < nr && p->nimm < NELEM(p->imm); i++, r++) {
		struct llvmbr_sym *s = &p->imm[p->nimm++];

		a64rel_of(r->type, &rt);
		s->sym = 1;
		s->target = x.adrp ? A64S_ABS_PAGE : is_adr(v[k].word) ?
		    A64S_ABS : rt.spec;
		s->hasval = hashsym_func_of(hs, r->target) == NULL;
		s->value = r->target;
	}
	if (nr > 0)
		return;
	if (x.pcref) {
		p->pcrel = 1;
		addr_ref(hs, x.ref, &p->pc);
		if (is_adr(v[k].word))
			p->pc.target = A64S_ABS;
		return;
	}
	/* BinaryContext::addAdrpAddRelocAArch64: the veneer's target as
	 * handleAddressRef makes it, as if relocated by an
	 * ADR_PREL_PG_HI21 and an ADD_ABS_LO12_NC */
	if (veneer_part(hs, v, n, k, &x, &t)) {
		p->nimm = 1;
		addr_ref(hs, t, &p->imm[0]);
		p->imm[0].target = x.adrp ? A64S_ABS_PAGE : A64S_LO12;
	}
}

/* the bridge's questions about the instruction planned */
static void
resolve(void *arg, const struct llvmbr_ref *r, struct llvmbr_sym *s)
{
	const struct plan *p = arg;

	switch (r->kind) {
	case LLVMBR_REF_TARGET:
		if (p->nop)
			s->nop = 1;
		else if (p->branch)
			*s = p->br;
		return;
	case LLVMBR_REF_IMM:
		if (r->index < p->nimm)
			*s = p->imm[r->index];
		return;
	case LLVMBR_REF_MEM:
		if (p->pcrel)
			*s = p->pc;
		return;
	}
}

/* does word w decode: a64dec's answer, else the release's */
static int
decodes(struct hashsym *hs, const uint8_t *q)
{
	int v = a64d_valid(a64d_word(q));

	if (v >= 0)
		return v;
	return llvmbr_decode(hs->br, q, 4, 0x10000) == 4;
}

/* the function's instructions, in order: their number, in *vp */
static size_t
words(struct hashsym *hs, struct a64i **vp)
{
	const struct bfunc *f = hs->f;
	const struct cfg *g = hs->g;
	struct a64i *v = NULL;
	size_t n = 0, cap = 0, b;

	for (b = 0; b < g->nblocks; b++) {
		const struct cfg_block *bb = &g->blocks[b];
		uint64_t off, avail = 0;
		const uint8_t *q = cfgdis_bytes(hs->cd, f->addr + bb->start,
		    &avail);

		/* the last word may end past the block (and Size) */
		for (off = bb->start; q != NULL && off < bb->end &&
		    off - bb->start + 4 <= avail; off += 4) {
			if (cfgdis_in_island(hs->cd, f->addr + off))
				continue;
			/* zero padding ends the code (isZeroPaddingAt) */
			if (!decodes(hs, q + (off - bb->start)))
				break;
			xgrow(&v, &cap, n + 1, sizeof(*v));
			v[n].off = (uint32_t)off;
			v[n++].word = a64d_word(q + (off - bb->start));
		}
	}
	*vp = v;
	return n;
}

uint64_t
hashsym_a64(struct hashsym *hs, struct llvmbr_block *out)
{
	const struct bfunc *f = hs->f;
	const struct cfg *g = hs->g;
	struct a64i *v;
	size_t n = words(hs, &v), k, b;
	struct plan p;

	for (b = 0, k = 0; b < g->nblocks; b++) {
		const struct cfg_block *bb = &g->blocks[b];

		llvmbr_block_begin(hs->br);
		for (; k < n && v[k].off < bb->end; k++) {
			const struct cfg_site *st = cfg_site_at(g, v[k].off);
			unsigned fl = st != NULL && st->tail &&
			    (st->kind == CFG_SITE_JMP ||
			    st->kind == CFG_SITE_IJMP) ? LLVMBR_TAIL : 0;
			uint8_t w[4];

			plan_of(hs, v, n, k, &p);
			w[0] = (uint8_t)v[k].word;
			w[1] = (uint8_t)(v[k].word >> 8);
			w[2] = (uint8_t)(v[k].word >> 16);
			w[3] = (uint8_t)(v[k].word >> 24);
			if (llvmbr_insn(hs->br, w, 4, f->addr + v[k].off, fl,
			    resolve, &p) == 0) {
				hs->undecoded++;
				for (; k < n && v[k].off < bb->end; k++)
					;
				break;
			}
		}
		llvmbr_block_end(hs->br, hs->stdhash, &out[b]);
	}
	free(v);
	return llvmbr_func_end(hs->br, hs->stdhash);
}

