/* See COPYING file for copyright and license details. */
/*
 * x86sym.c: x86-64's part of BOLT's hash strings (hashsym.h): the
 * instructions of each block, whole, through the bridge, and the
 * answers to its questions as perf2bolt answers them on x86-64
 * (bolt/lib/Target/X86/X86MCSymbolizer.cpp; BinaryContext::
 * handleAddressRef; RewriteInstance::handleRelocation and
 * X86MCPlusBuilder::shouldRecordCodeRelocation for the relocations a
 * function keeps).
 */
#include <gelf.h>
#include <string.h>

#include "util.h"
#include "boltbin.h"
#include "cfg.h"
#include "hashsym.h"
#include "llvmrel.h"

/* RewriteInstance::handleRelocation: a PC-relative relocation in code is
 * kept only against a symbol known by its name, not a section's: in 19
 * a global one; in 22 a local one too (a string's .LC label with an
 * addend, as gcc writes them: "PG.LC1/30"+20 where 19 made a new
 * DATAat symbol at the address) */
static const struct {
	int	pcrel_local;
} rel_rules[LLVMREL_N] = {
	{ 0 },		/* 19 */
	{ 1 },		/* 22 */
};

/* is the symbol of PC-relative relocation r one BOLT knows by name */
static int
pcrel_named(const struct hashsym *hs, const struct cfg_reloc *r)
{
	return !r->secsym &&
	    (r->global || rel_rules[llvmrel_index(hs->rel)].pcrel_local);
}

/* handleAddressRef: code inside a function is that function's symbol
 * or entry; a PIC jump table a PC-relative reference names in
 * relocation mode is the table's label; otherwise the BinaryData
 * holding the address, and the offset into it, or a new symbol at it */
static void
addr_ref(struct hashsym *hs, uint64_t a, struct llvmbr_sym *s)
{
	const struct hs_data *d;
	const struct bfunc *rf;

	s->addend = 0;
	if (hashsym_is_code(hs, a) && (rf = hashsym_func_of(hs, a)) != NULL) {
		/* into this function: an entry point's symbol; into
		 * another: that function's BinaryData and the offset */
		hashsym_value(hs, a, 1, s);
		if (rf != hs->f)
			s->addend = (int64_t)(a - rf->addr);
		return;
	}
	if (hs->bin->ft.has_relocs && hashsym_is_table(hs, a)) {
		hashsym_value(hs, a, 1, s);
		return;
	}
	if ((d = hashsym_data(hs, a)) != NULL) {
		hashsym_value(hs, d->addr, 0, s);
		s->addend = (int64_t)(a - d->addr);
		return;
	}
	hashsym_value(hs, a, 0, s);
}

/* the symbol and addend of a relocation in code as handleRelocation
 * makes them, for the symbolizer: 0 if it keeps none for this
 * relocation (the operand is then symbolized without it) */
static int
reloc_ref(struct hashsym *hs, const struct cfg_reloc *r, uint64_t iaddr,
    uint32_t isize, struct llvmbr_sym *s)
{
	const struct hs_data *d;
	const struct bfunc *rf;
	uint64_t sa, addr;
	int64_t add;

	if (r->pcrel) {
		/* only against a symbol known by its name; its BinaryData
		 * is the one at its address */
		if (!pcrel_named(hs, r))
			return 0;
		add = r->type == R_X86_64_GOTPCREL ||
		    r->type == R_X86_64_GOTPCRELX ||
		    r->type == R_X86_64_REX_GOTPCRELX ||
		    r->type == R_X86_64_GOTPCREL64 ? 0 : r->a;
		/* the addend from the end of the instruction */
		add += (int64_t)(iaddr + isize - r->off);
		rf = functab_find(&hs->bin->ft, r->s);
		hashsym_value(hs, r->s, rf != NULL && rf->addr == r->s, s);
		if (s->hasval && hashsym_is_code(hs, r->s))
			s->hasval = hashsym_func_of(hs, r->s) == NULL;
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
	rf = functab_find(&hs->bin->ft, addr);
	if (rf == NULL && addr > 0)
		rf = functab_find(&hs->bin->ft, addr - 1);
	if (rf != NULL && !(addr - rf->addr <= rf->size))
		rf = NULL;
	if (!r->secsym && hashsym_func_of(hs, sa) != NULL)
		rf = hashsym_func_of(hs, sa);
	if (rf != NULL) {
		hashsym_value(hs, addr, 1, s);
		s->addend = addr - rf->addr < rf->maxsize ? 0 : add;
		return 1;
	}
	if ((d = hashsym_data(hs, sa)) != NULL) {
		hashsym_value(hs, d->addr, 0, s);
		s->addend = add + (int64_t)(sa - d->addr);
		return 1;
	}
	hashsym_value(hs, sa, 0, s);
	s->addend = add;
	return 1;
}

/* the relocations BOLT keeps in a function (BinaryFunction::
 * addRelocation through X86MCPlusBuilder::shouldRecordCodeRelocation:
 * R_X86_64_PLT32 and R_X86_64_GOTPCREL are dropped, TLS ones never get
 * there; handleRelocation registers a PC-relative one only against a
 * symbol it knows by name: pcrel_named) */
static int
recorded(const struct hashsym *hs, const struct cfg_reloc *r)
{
	switch (r->type) {
	case R_X86_64_8: case R_X86_64_16: case R_X86_64_32:
	case R_X86_64_32S: case R_X86_64_64:
		return 1;
	case R_X86_64_PC8: case R_X86_64_PC32: case R_X86_64_PC64:
	case R_X86_64_GOTPC64: case R_X86_64_GOTPCRELX:
	case R_X86_64_REX_GOTPCRELX:
		return pcrel_named(hs, r);
	}
	return 0;
}

/* getRelocationInRange over the ones BOLT keeps: the first in [lo, hi) */
static const struct cfg_reloc *
kept_reloc_in(const struct hashsym *hs, uint64_t lo, uint64_t hi)
{
	const struct cfg_reloc *rl;
	size_t n, i;

	/* the relocations in [lo, hi) by offset, one lookup: the first
	 * at each offset is the one BOLT's map of them holds */
	n = cfgdis_relocs_in(hs->cd, lo, hi, &rl);
	for (i = 0; i < n; i++)
		if ((i == 0 || rl[i].off != rl[i - 1].off) && rl[i].fromcode &&
		    recorded(hs, &rl[i]))
			return &rl[i];
	return NULL;
}

/* X86MCSymbolizer's operand (LLVMBR_REF_OPERAND) */
static void
operand(struct hashsym *hs, const struct llvmbr_ref *r, struct llvmbr_sym *s)
{
	const struct cfg_reloc *rl;

	/* the displacement a jump table's pattern loads through is the
	 * table's label */
	if (r->disp && !r->ripdisp && hashsym_is_table(hs, r->value)) {
		hashsym_value(hs, r->value, 1, s);
		return;
	}
	if (hs->bin->ft.has_relocs) {
		rl = kept_reloc_in(hs, r->addr, r->addr + r->size);
		if (rl != NULL &&
		    (rl->type == R_X86_64_GOTPCRELX ||
		    rl->type == R_X86_64_REX_GOTPCRELX)) {
			/* the linker may have rewritten the instruction:
			 * symbolized from the address alone */
			if (r->ripdisp)
				addr_ref(hs, r->value, s);
			else
				hashsym_value(hs, r->value,
				    hashsym_func_of(hs, r->value) != NULL, s);
			return;
		}
		rl = cfgdis_reloc_at(hs->cd, r->addr + r->immoff);
		if (rl != NULL && rl->fromcode && recorded(hs, rl) &&
		    reloc_ref(hs, rl, r->addr, r->size, s))
			return;
	}
	if (r->ripdisp)
		addr_ref(hs, r->value, s);
}

static void
resolve(void *arg, const struct llvmbr_ref *r, struct llvmbr_sym *s)
{
	struct hashsym *hs = arg;
	const struct bfunc *f = hs->f;

	switch (r->kind) {
	case LLVMBR_REF_TARGET:
		/* a label of the function, or a function's symbol; a jump
		 * past the end is a NOP; else a new symbol at the target */
		if (r->value >= f->addr && r->value - f->addr < f->size) {
			hashsym_value(hs, r->value, 1, s);
			return;
		}
		if (r->value == f->addr + f->size && f->size < f->maxsize) {
			s->nop = 1;
			return;
		}
		hashsym_value(hs, r->value,
		    hashsym_func_of(hs, r->value) != NULL, s);
		return;
	case LLVMBR_REF_MEM:
		addr_ref(hs, r->value, s);
		return;
	case LLVMBR_REF_DISP:
		if (hashsym_is_table(hs, r->value))
			hashsym_value(hs, r->value, 1, s);
		return;
	case LLVMBR_REF_OPERAND:
		operand(hs, r, s);
		return;
	}
}

/* each block's instructions, whole, from its start; a tail call as
 * such (the graph's sites say which) */
uint64_t
hashsym_x86(struct hashsym *hs, struct llvmbr_block *out)
{
	const struct bfunc *f = hs->f;
	const struct cfg *g = hs->g;
	size_t b;

	for (b = 0; b < g->nblocks; b++) {
		const struct cfg_block *bb = &g->blocks[b];
		uint64_t off = bb->start, avail = 0;
		const uint8_t *p = cfgdis_bytes(hs->cd, f->addr + off, &avail);
		size_t sk = cfg_site_from(g, off), sz;

		llvmbr_block_begin(hs->br);
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
			    st->kind == CFG_SITE_IJMP) ? LLVMBR_TAIL : 0;
			sz = llvmbr_insn(hs->br, p, (size_t)(bb->end - off <
			    avail ? bb->end - off : avail), f->addr + off, fl,
			    resolve, hs);
			if (sz == 0) {
				hs->undecoded++;
				break;
			}
			off += sz;
			p += sz;
			avail -= sz;
		}
		llvmbr_block_end(hs->br, hs->stdhash, &out[b]);
	}
	return llvmbr_func_end(hs->br, hs->stdhash);
}

