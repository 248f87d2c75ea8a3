/* See COPYING file for copyright and license details. */
/*
 * cfgdis.c: control-flow graphs by disassembly, with BOLT 19's rules as
 * perf2bolt-19 applies them (bolt/lib/Core/BinaryFunction.cpp in LLVM
 * 19: disassemble, buildCFG, postProcessIndirectBranches): what BOLT
 * learns from the whole binary (relocations, interprocedural entry
 * points) is read once in cfgdis_open; each function's graph is built on
 * first use.  x86-64 through Capstone and x86dec's table; the
 * architecture-specific part is the instruction classifier (x86class.c)
 * and the jump-table patterns (x86_jump_table), so an AArch64 pair can
 * sit beside them.
 */
#include <capstone/capstone.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "bat.h"
#include "util.h"
#include "elfobj.h"
#include "functab.h"
#include "cfg.h"
#include "x86class.h"
#include "x86dec.h"

struct insn {
	uint32_t	off;
	uint8_t		size;
	uint8_t		kind;
	uint8_t		tail;		/* a (conditional) tail call */
	uint8_t		nopped;		/* jump past end, made a NOP */
	uint8_t		table;		/* an indirect jump through a table
					 * that keeps its edges */
	uint64_t	target;		/* direct branches and calls */
	/* what the jump-table patterns need */
	uint16_t	id;		/* X86_INS_* */
	uint16_t	dreg;		/* register written (op 0) */
	uint16_t	sreg;		/* register read (op 1), reg-reg */
	uint16_t	mbase, mindex;	/* memory operand */
	uint8_t		mscale, hasmem;
	uint8_t		detailed;	/* operands filled (x86_operands) */
	uint8_t		riplea;		/* lea of a PC-relative address:
					 * target is that address */
	uint8_t		ripref;		/* (x86dec) a non-branch with a
					 * PC-relative memory operand (lea
					 * too): target is its address */
	uint8_t		slow;		/* decoded by Capstone (ripref not
					 * known) */
	int64_t		mdisp;
};

/* a static relocation: struct cfg_reloc (cfg.h) */
#define reloc cfg_reloc

struct cfgdis {
	const struct functab *ft;
	struct elfobj	*eo;
	csh		 cs;		/* with operand details */
	csh		 csn;		/* without: the decoding pass */
	const uint8_t	**secdata;	/* contents of each ft->secs, or NULL */
	const struct fsec *lastsec;	/* sec_bytes' last section */
	/* relocation mode: static relocations, by offset */
	struct reloc	*rel;
	size_t		 nrel;
	/* per function: built graph, extra entries, referenced offsets */
	struct cfg	**g;
	uint64_t	**xent;		/* interprocedural entry addresses */
	size_t		*nxent, *capxent;
	uint64_t	**xref;		/* data-referenced offsets (labels) */
	size_t		*nxref, *capxref;
	uint8_t		*padrel;	/* relocations in the padding */
	uint8_t		*selfref;	/* code reference into itself */
	int		 scanned;	/* branches of all functions scanned */
	int		 splitpass;	/* split_tables is running */
	int		 bat;		/* a BAT section: BOLT's BAT mode */
	struct insn	*scratch;	/* scan_branches' decoding */
	size_t		 capscratch;
	/* BOLT's jump tables of the whole binary (BinaryContext::JumpTables),
	 * which bound each other: each function's tables, found on first
	 * use; in relocation mode the code's references to data by the
	 * address they name (where another function's table may begin);
	 * data symbols with a size (a BinaryData at a table bounds it) */
	uint64_t	**jt;
	uint32_t	*njt;
	uint8_t		*jtknown;
	struct cref	*cref;
	size_t		 ncref;
	int		 crefdone;
	uint64_t	*dsym;		/* address, size pairs by address */
	size_t		 ndsym;
	int		 dsymdone;
	struct cfgdis_stats stats;
};

/* a reference from code (function fi) to data at addr */
struct cref {
	uint64_t	addr;
	uint32_t	fi;
};

/* ------------------------------------------------------------------ */

static const uint8_t *
sec_bytes(struct cfgdis *d, uint64_t a, uint64_t *avail)
{
	const struct fsec *s = d->lastsec;
	size_t i;

	/* most look-ups are in the section of the one before (kept when
	 * no section after it overlaps it: functab_section's choice) */
	if (s == NULL || a < s->addr || a - s->addr >= s->size) {
		if ((s = functab_section(d->ft, a)) == NULL)
			return NULL;
		i = (size_t)(s - d->ft->secs);
		d->lastsec = i + 1 == d->ft->nsecs ||
		    d->ft->secs[i + 1].addr >= s->addr + s->size ? s : NULL;
	}
	i = (size_t)(s - d->ft->secs);
	if (d->secdata[i] == NULL)
		return NULL;
	*avail = s->size - (a - s->addr);
	return d->secdata[i] + (a - s->addr);
}

static void
push64(uint64_t **v, size_t *n, size_t *cap, uint64_t x)
{
	xgrow(v, cap, *n + 1, sizeof(**v));
	(*v)[(*n)++] = x;
}

static int
relcmp(const void *a, const void *b)
{
	const struct reloc *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* pairs of uint64_t by the first */
static int
relcmp64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* the first relocation at or after off (d->nrel if none) */
static size_t
reloc_from(const struct cfgdis *d, uint64_t off)
{
	size_t a = 0, b = d->nrel, m;

	while (a < b) {
		m = a + (b - a) / 2;
		if (d->rel[m].off < off)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

static const struct reloc *
reloc_at(const struct cfgdis *d, uint64_t off)
{
	size_t i = reloc_from(d, off);

	return i < d->nrel && d->rel[i].off == off ? &d->rel[i] : NULL;
}

/* is there a relocation at an offset in [lo, hi)? */
static int
reloc_in(const struct cfgdis *d, uint64_t lo, uint64_t hi)
{
	size_t i = reloc_from(d, lo);

	return i < d->nrel && d->rel[i].off < hi;
}

static int
x86_pcrel(uint32_t t)
{
	switch (t) {
	case R_X86_64_PC8: case R_X86_64_PC16: case R_X86_64_PC32:
	case R_X86_64_PC64: case R_X86_64_PLT32: case R_X86_64_GOTPCREL:
	case R_X86_64_GOTPC32: case R_X86_64_GOTPC64:
	case R_X86_64_GOTPCRELX: case R_X86_64_REX_GOTPCRELX:
	case R_X86_64_GOTPCREL64: case R_X86_64_GOTPLT64:
		return 1;
	}
	return 0;
}

static int
x86_skip(uint32_t t)
{
	switch (t) {
	case R_X86_64_NONE: case R_X86_64_TPOFF32: case R_X86_64_TPOFF64:
	case R_X86_64_DTPOFF32: case R_X86_64_DTPOFF64: case R_X86_64_TLSGD:
	case R_X86_64_TLSLD: case R_X86_64_GOTTPOFF: case R_X86_64_DTPMOD64:
	case R_X86_64_GOTPC32_TLSDESC: case R_X86_64_TLSDESC_CALL:
	case R_X86_64_TLSDESC:
		return 1;
	}
	return 0;
}

/* the static relocations of a relocation-mode binary (what
 * RewriteInstance::readRelocations / handleRelocation keep) */
static size_t uniq(uint64_t *, size_t);

/* the addresses dynamic relocations (.rela.dyn, .rela.plt) patch,
 * sorted: BOLT ignores a static relocation at such an address
 * (RewriteInstance::readRelocations), so the data references of a PIE's
 * .data.rel.ro are not labels */
static uint64_t *
dyn_reloc_offsets(Elf *elf, size_t *np)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	uint64_t *v = NULL;
	size_t n = 0, cap = 0, k, m;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *rd;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_RELA ||
		    !(sh.sh_flags & SHF_ALLOC) || sh.sh_entsize == 0 ||
		    (rd = elf_getdata(scn, NULL)) == NULL)
			continue;
		m = sh.sh_size / sh.sh_entsize;
		for (k = 0; k < m; k++) {
			GElf_Rela ra;

			if (gelf_getrela(rd, (int)k, &ra) == NULL)
				break;
			push64(&v, &n, &cap, ra.r_offset);
		}
	}
	*np = uniq(v, n);
	return v;
}

static void
read_relocs(struct cfgdis *d)
{
	Elf *elf = d->eo->elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh, tsh, ssh;
	size_t shstrndx, cap = 0, k, n, ndyn;
	uint64_t *dyn;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	dyn = dyn_reloc_offsets(elf, &ndyn);
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Scn *ts, *ss;
		Elf_Data *rd, *sd;
		const char *tn;
		int fromcode;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_RELA ||
		    (sh.sh_flags & SHF_ALLOC) || sh.sh_entsize == 0)
			continue;
		if ((ts = elf_getscn(elf, sh.sh_info)) == NULL ||
		    gelf_getshdr(ts, &tsh) == NULL || !(tsh.sh_flags & SHF_ALLOC))
			continue;
		tn = elf_strptr(elf, shstrndx, tsh.sh_name);
		if (tn == NULL || strcmp(tn, ".plt") == 0 ||
		    strcmp(tn, ".rela.plt") == 0 || strcmp(tn, ".got.plt") == 0 ||
		    strcmp(tn, ".eh_frame") == 0 ||
		    strcmp(tn, ".gcc_except_table") == 0)
			continue;
		fromcode = (tsh.sh_flags & SHF_EXECINSTR) != 0;
		if ((ss = elf_getscn(elf, sh.sh_link)) == NULL ||
		    gelf_getshdr(ss, &ssh) == NULL ||
		    (sd = elf_getdata(ss, NULL)) == NULL ||
		    (rd = elf_getdata(scn, NULL)) == NULL)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (k = 0; k < n; k++) {
			GElf_Rela ra;
			GElf_Sym sy;
			uint64_t s = 0;
			uint32_t t;
			size_t si;
			uint8_t secsym = 0, global = 0;

			if (gelf_getrela(rd, (int)k, &ra) == NULL)
				break;
			t = (uint32_t)GELF_R_TYPE(ra.r_info);
			if (x86_skip(t) || sorted_has(dyn, ndyn, ra.r_offset))
				continue;
			si = GELF_R_SYM(ra.r_info);
			if (si != 0) {
				if (gelf_getsym(sd, (int)si, &sy) == NULL)
					continue;
				if (sy.st_shndx == SHN_UNDEF)
					continue;
				s = sy.st_value;
				secsym = GELF_ST_TYPE(sy.st_info) == STT_SECTION;
				global = GELF_ST_BIND(sy.st_info) != STB_LOCAL;
			}
			xgrow(&d->rel, &cap, d->nrel + 1, sizeof(*d->rel));
			d->rel[d->nrel++] = (struct reloc){ ra.r_offset,
			    s + (uint64_t)ra.r_addend, s, ra.r_addend, t,
			    (uint8_t)x86_pcrel(t), (uint8_t)fromcode, secsym,
			    global };
		}
	}
	free(dyn);
	if (d->nrel > 1)
		qsort(d->rel, d->nrel, sizeof(*d->rel), relcmp);
}

static long
fidx(const struct cfgdis *d, const struct bfunc *f)
{
	return f ? (long)(f - d->ft->f) : -1;
}

/* the function whose [addr, addr + size] holds a (CheckPastEnd) */
static const struct bfunc *
func_past_end(const struct functab *ft, uint64_t a)
{
	const struct bfunc *f = functab_find(ft, a);

	if (f != NULL)
		return a - f->addr <= f->size ? f : NULL;
	if (a > 0 && (f = functab_find(ft, a - 1)) != NULL &&
	    a - f->addr == f->size)
		return f;
	return NULL;
}

/* is the rel32 field at a that of a direct call, jmp or jcc?  A load or
 * store through a relocated PC-relative operand is symbolized from the
 * relocation (BOLT's UsedReloc) and makes no entry point: only branches
 * are read as references (their encodings: e8, e9, 0f 8x) */
static int
rel32_branch(struct cfgdis *d, uint64_t a)
{
	const uint8_t *p;
	uint64_t avail;

	if (a < 2 || (p = sec_bytes(d, a - 2, &avail)) == NULL || avail < 2)
		return 0;
	return p[1] == 0xe8 || p[1] == 0xe9 ||
	    (p[0] == 0x0f && (p[1] & 0xf0) == 0x80);
}

/* what the relocations tell about each function: entries from other
 * functions, labels referenced from data, relocations in padding,
 * references into itself */
static void
scan_relocs(struct cfgdis *d)
{
	const struct functab *ft = d->ft;
	size_t i;

	for (i = 0; i < d->nrel; i++) {
		const struct reloc *r = &d->rel[i];
		const struct bfunc *from = NULL, *to;
		long ti;
		uint64_t a;

		if (r->fromcode) {
			from = functab_find(ft, r->off);
			if (from == NULL)
				continue;
			if (r->off - from->addr >= from->size) {
				d->padrel[fidx(d, from)] = 1;
				continue;
			}
		}
		if (r->pcrel) {
			/* code to code, PC-relative: the disassembly finds
			 * these as branch and address references; a rel32
			 * at the end of its instruction points at S + A + 4 */
			if (!r->fromcode || !rel32_branch(d, r->off))
				continue;
			a = r->target + 4;
			to = functab_find(ft, a);
			if (to == NULL || to == from || a == to->addr ||
			    a - to->addr >= to->size)
				continue;
			ti = fidx(d, to);
			push64(&d->xent[ti], &d->nxent[ti], &d->capxent[ti], a);
			continue;
		}
		if (r->type != R_X86_64_64 && r->type != R_X86_64_32 &&
		    r->type != R_X86_64_32S)
			continue;
		a = r->target;
		to = func_past_end(ft, a);
		if (to == NULL || a == to->addr || a - to->addr >= to->maxsize)
			continue;
		ti = fidx(d, to);
		if (from != NULL && from != to)
			push64(&d->xent[ti], &d->nxent[ti], &d->capxent[ti], a);
		else {
			push64(&d->xref[ti], &d->nxref[ti], &d->capxref[ti],
			    a - to->addr);
			if (from == to)
				d->selfref[ti] = 1;
		}
	}
}

struct cfgdis *
cfgdis_open(struct elfobj *eo, const struct functab *ft, char *err,
    size_t errlen)
{
	struct cfgdis *d;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t i;

	if (eo->machine != EM_X86_64) {
		snprintf(err, errlen, "%s: machine %u: only x86-64 is "
		    "supported", eo->path, (unsigned)eo->machine);
		return NULL;
	}
	d = xcalloc(1, sizeof(*d));
	d->ft = ft;
	d->eo = eo;
	/* HasBATSection: a BOLTed binary that llvm-bolt --enable-bat wrote */
	d->bat = elfobj_section(eo, BAT_SECTION, NULL, NULL, NULL, NULL) == 1;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &d->cs) != CS_ERR_OK) {
		snprintf(err, errlen, "capstone: cannot open x86-64");
		free(d);
		return NULL;
	}
	cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &d->csn) != CS_ERR_OK) {
		snprintf(err, errlen, "capstone: cannot open x86-64");
		cs_close(&d->cs);
		free(d);
		return NULL;
	}
	d->secdata = xcalloc(ft->nsecs + 1, sizeof(*d->secdata));
	while ((scn = elf_nextscn(eo->elf, scn)) != NULL) {
		Elf_Data *dd;

		if (gelf_getshdr(scn, &sh) == NULL || !(sh.sh_flags & SHF_ALLOC) ||
		    sh.sh_type == SHT_NOBITS)
			continue;
		for (i = 0; i < ft->nsecs; i++)
			if (ft->secs[i].addr == sh.sh_addr &&
			    ft->secs[i].size == sh.sh_size &&
			    ft->secs[i].offset == sh.sh_offset)
				break;
		if (i == ft->nsecs || d->secdata[i] != NULL)
			continue;
		dd = elf_getdata(scn, NULL);
		if (dd != NULL && dd->d_buf != NULL && dd->d_size == sh.sh_size)
			d->secdata[i] = dd->d_buf;
	}
	d->g = xcalloc(ft->n + 1, sizeof(*d->g));
	d->xent = xcalloc(ft->n + 1, sizeof(*d->xent));
	d->nxent = xcalloc(ft->n + 1, sizeof(*d->nxent));
	d->capxent = xcalloc(ft->n + 1, sizeof(*d->capxent));
	d->xref = xcalloc(ft->n + 1, sizeof(*d->xref));
	d->nxref = xcalloc(ft->n + 1, sizeof(*d->nxref));
	d->capxref = xcalloc(ft->n + 1, sizeof(*d->capxref));
	d->jt = xcalloc(ft->n + 1, sizeof(*d->jt));
	d->njt = xcalloc(ft->n + 1, sizeof(*d->njt));
	d->jtknown = xcalloc(ft->n + 1, 1);
	d->padrel = xcalloc(ft->n + 1, 1);
	d->selfref = xcalloc(ft->n + 1, 1);
	if (ft->has_relocs) {
		read_relocs(d);
		scan_relocs(d);
	}
	return d;
}

void
cfgdis_close(struct cfgdis *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->ft->n; i++) {
		if (d->g[i] != NULL) {
			cfg_free(d->g[i]);
			free(d->g[i]);
		}
		free(d->xent[i]);
		free(d->xref[i]);
		free(d->jt[i]);
	}
	free(d->jt);
	free(d->njt);
	free(d->jtknown);
	free(d->cref);
	free(d->dsym);
	free(d->scratch);
	free(d->g);
	free(d->xent);
	free(d->nxent);
	free(d->capxent);
	free(d->xref);
	free(d->nxref);
	free(d->capxref);
	free(d->padrel);
	free(d->selfref);
	free(d->rel);
	free(d->secdata);
	cs_close(&d->cs);
	cs_close(&d->csn);
	free(d);
}

const uint8_t *
cfgdis_bytes(struct cfgdis *d, uint64_t a, uint64_t *avail)
{
	return sec_bytes(d, a, avail);
}

const struct cfg_reloc *
cfgdis_reloc_at(const struct cfgdis *d, uint64_t off)
{
	return reloc_at(d, off);
}

const struct cfg_reloc *
cfgdis_reloc_in(const struct cfgdis *d, uint64_t lo, uint64_t hi)
{
	size_t i = reloc_from(d, lo);

	return i < d->nrel && d->rel[i].off < hi ? &d->rel[i] : NULL;
}

const struct cfgdis_stats *
cfgdis_stats(const struct cfgdis *d)
{
	return &d->stats;
}

/* ------------------------------------------------------------------ */
/* x86-64 */

/* the operands the jump-table patterns read, from a detailed decoding */
static void
x86_operands(const cs_insn *ci, struct insn *in)
{
	const cs_x86 *x = &ci->detail->x86;
	int k;

	in->detailed = 1;
	if (x->op_count >= 1 && x->operands[0].type == X86_OP_REG)
		in->dreg = (uint16_t)x->operands[0].reg;
	if (x->op_count >= 2 && x->operands[1].type == X86_OP_REG)
		in->sreg = (uint16_t)x->operands[1].reg;
	for (k = 0; k < x->op_count; k++)
		if (x->operands[k].type == X86_OP_MEM) {
			in->hasmem = 1;
			in->mbase = (uint16_t)x->operands[k].mem.base;
			in->mindex = (uint16_t)x->operands[k].mem.index;
			in->mscale = (uint8_t)x->operands[k].mem.scale;
			in->mdisp = x->operands[k].mem.disp;
			break;
		}
}

/* an instruction's class (x86class.h) into in */
static void
x86_set(struct insn *in, const struct x86k *k)
{
	in->kind = k->kind;
	in->id = k->id;
	in->riplea = k->riplea;
	in->target = k->target;
}

static int
is_term(const struct insn *in)
{
	if (in->nopped)
		return 0;
	switch (in->kind) {
	case X86K_JCC: case X86K_JMP: case X86K_IJMP: case X86K_RET:
	case X86K_TRAP: case X86K_HLT:
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* the graph of one function */

struct fbuild {
	struct cfgdis	*d;
	const struct bfunc *f;
	long		 fi;
	struct insn	*in;
	size_t		 nin, capin;
	uint64_t	*labels;	/* offsets */
	size_t		 nlabels, caplabels;
	uint64_t	*entries;	/* offsets of secondary entries */
	size_t		 nentries, capentries;
	uint64_t	*lps;		/* landing pads */
	size_t		 nlps, caplps;
	/* taken edges: (from insn offset, to offset) */
	uint64_t	*edges;		/* pairs */
	size_t		 nedges, capedges;
	uint64_t	*tables;	/* jump table addresses in this function */
	size_t		 ntables, captables;
	uint64_t	*ltab;		/* those only a lea names */
	size_t		 nltab, capltab;
	uint64_t	 cut;		/* tables another function's ended
					 * (cfgdis_stats.jtcut) */
	uint64_t	*unknown;	/* offsets of unknown indirect jumps */
	size_t		 nunknown, capunknown;
	int		 ignored, nonsimple;
	/* in_fragment's decoding of a fragment (or parent) */
	struct insn	*frag;
	size_t		 nfrag, capfrag;
	long		 fragi;
	int		 fragok;
	/* jumps through a table: instruction index * 2 + pic; the
	 * targets of all tables (strict mode registers them as
	 * referenced offsets); writer_of looks no lower than scanlo */
	uint64_t	*jts, *reftg;
	size_t		 njts, capjts, nreftg, capreftg;
	long		 scanlo;
	/* the tables analyze_table accepted, with their sizes */
	struct cfg_jt	*jtv;
	size_t		 njtv, capjtv;
};

static long
insn_at(const struct fbuild *b, uint64_t off)
{
	size_t lo = 0, hi = b->nin, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (b->in[m].off < off)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < b->nin && b->in[lo].off == off ? (long)lo : -1;
}

/* v[0, n) in ascending order (sort.h: qsort's callbacks cost more than
 * the sorting of these short lists) */
#define SORT_NAME	sort64
#define SORT_TYPE	uint64_t
#define SORT_LESS(a, b)	(*(a) < *(b))
#include "sort.h"

static size_t
uniq(uint64_t *v, size_t n)
{
	size_t i, j;

	if (n == 0)
		return 0;
	sort64(v, n);
	for (i = j = 1; i < n; i++)
		if (v[i] != v[j - 1])
			v[j++] = v[i];
	return j;
}

/* ---- LSDA (.gcc_except_table): landing pads ---- */

/* a DW_EH_PE-encoded value at *p; base is the address of p[0] when the
 * encoding is PC-relative */
static int
rd_enc(const uint8_t **p, const uint8_t *end, uint8_t enc, uint64_t base,
    uint64_t *v)
{
	const uint8_t *q = *p;
	uint64_t u;
	int64_t s;
	size_t n;

	if (enc == 0xff) {
		*v = 0;
		return 0;
	}
	switch (enc & 0x0f) {
	case 0x00: case 0x04: case 0x0c:
		if (end - q < 8)
			return -1;
		u = ld64(q, 0);
		q += 8;
		break;
	case 0x02: case 0x0a:
		if (end - q < 2)
			return -1;
		u = ld16(q, 0);
		if (enc & 8)
			u = (uint64_t)(int64_t)(int16_t)u;
		q += 2;
		break;
	case 0x03: case 0x0b:
		if (end - q < 4)
			return -1;
		u = ld32(q, 0);
		if (enc & 8)
			u = (uint64_t)(int64_t)(int32_t)u;
		q += 4;
		break;
	case 0x01:
		if ((n = uleb128_decode(q, end, &u)) == 0)
			return -1;
		q += n;
		break;
	case 0x09:
		if ((n = sleb128_decode(q, end, &s)) == 0)
			return -1;
		u = (uint64_t)s;
		q += n;
		break;
	default:
		return -1;
	}
	if ((enc & 0x70) == 0x10)
		u += base;
	*p = q;
	*v = u;
	return 0;
}

static void
read_lsda(struct fbuild *b, uint64_t lsda)
{
	const uint8_t *p, *start0, *end, *cs, *csend;
	uint64_t avail, lpstart, v, cslen;
	uint8_t lpenc, ttenc, csenc;
	size_t n;

	if ((p = sec_bytes(b->d, lsda, &avail)) == NULL || avail == 0)
		return;
	start0 = p;
	end = p + avail;
	lpenc = *p++;
	lpstart = b->f->addr;
	if (lpenc != 0xff) {
		if (rd_enc(&p, end, lpenc, lsda + (uint64_t)(p - start0),
		    &v) == -1)
			return;
		lpstart = v;
	}
	if (p >= end)
		return;
	ttenc = *p++;
	if (ttenc != 0xff) {
		if ((n = uleb128_decode(p, end, &v)) == 0)
			return;
		p += n;
	}
	if (p >= end)
		return;
	csenc = *p++;
	if ((n = uleb128_decode(p, end, &cslen)) == 0)
		return;
	p += n;
	if (cslen > (uint64_t)(end - p))
		return;
	cs = p;
	csend = p + cslen;
	while (cs < csend) {
		uint64_t start, len, lp, action;

		if (rd_enc(&cs, csend, csenc & 0x0f, 0, &start) == -1 ||
		    rd_enc(&cs, csend, csenc & 0x0f, 0, &len) == -1 ||
		    rd_enc(&cs, csend, csenc & 0x0f, 0, &lp) == -1)
			return;
		if ((n = uleb128_decode(cs, csend, &action)) == 0)
			return;
		cs += n;
		if (lp == 0)
			continue;
		lp += lpstart;
		if (lp >= b->f->addr && lp - b->f->addr < b->f->size)
			push64(&b->lps, &b->nlps, &b->caplps, lp - b->f->addr);
	}
}

/* ---- jump tables (BinaryContext::analyzeJumpTable) ---- */

static int decode(struct cfgdis *, size_t, struct insn **, size_t *,
    size_t *, int);

static long insn_at(const struct fbuild *, uint64_t);

static int
data_section(const struct cfgdis *d, uint64_t a, const struct fsec **ps)
{
	const struct fsec *s = functab_section(d->ft, a);

	*ps = s;
	return s != NULL;
}

/* does v lie at an instruction of a fragment of the function being
 * built, or of its parent when it is a fragment (analyzeJumpTable's
 * split jump tables: an entry there counts, but gives no edge) */
static int
in_fragment(struct fbuild *b, uint64_t v)
{
	const struct functab *ft = b->d->ft;
	const struct bfunc *tf = functab_find(ft, v);
	size_t ti, lo, hi, m;

	if (tf == NULL || tf == b->f || v - tf->addr >= tf->size)
		return 0;
	ti = (size_t)(tf - ft->f);
	if (!((tf->flags & BF_FRAGMENT) && tf->parent == (size_t)b->fi) &&
	    !((b->f->flags & BF_FRAGMENT) && b->f->parent == ti))
		return 0;
	if (b->fragi != (long)ti) {
		b->fragi = (long)ti;
		b->fragok = decode(b->d, ti, &b->frag, &b->capfrag, &b->nfrag,
		    0) == 0;
	}
	if (b->d->splitpass && v != tf->addr)
		/* postProcessJumpTables: a table's target in another
		 * fragment is an entry point of that fragment */
		push64(&b->d->xent[ti], &b->d->nxent[ti], &b->d->capxent[ti],
		    v);
	if (!b->fragok)
		return 1;	/* not disassembled: BOLT checks nothing */
	for (lo = 0, hi = b->nfrag; lo < hi; ) {
		m = lo + (hi - lo) / 2;
		if (tf->addr + b->frag[m].off < v)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < b->nfrag && tf->addr + b->frag[lo].off == v;
}

static int find_tables(struct fbuild *);

/* the end of the data object a symbol with a size starts at a, or 0
 * (BinaryContext::getBinaryDataAtAddress: symbols of allocatable data
 * sections, the largest size of those at one address) */
static uint64_t
data_sym_end(struct cfgdis *d, uint64_t a)
{
	size_t lo = 0, hi, m;

	if (!d->dsymdone) {
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;
		size_t cap = 0, n = 0;

		d->dsymdone = 1;
		while ((scn = elf_nextscn(d->eo->elf, scn)) != NULL) {
			Elf_Data *sd;
			size_t k, ns;

			if (gelf_getshdr(scn, &sh) == NULL ||
			    sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0 ||
			    (sd = elf_getdata(scn, NULL)) == NULL)
				continue;
			ns = sh.sh_size / sh.sh_entsize;
			for (k = 1; k < ns; k++) {
				GElf_Sym sy;
				const struct fsec *fs;
				int ty;

				if (gelf_getsym(sd, (int)k, &sy) == NULL)
					break;
				ty = GELF_ST_TYPE(sy.st_info);
				if (sy.st_size == 0 || ty == STT_SECTION ||
				    ty == STT_FILE || sy.st_shndx == SHN_UNDEF ||
				    sy.st_shndx >= SHN_LORESERVE || sy.st_value == 0 ||
				    (fs = functab_section(d->ft, sy.st_value)) == NULL ||
				    (fs->flags & SHF_EXECINSTR))
					continue;
				push64(&d->dsym, &n, &cap, sy.st_value);
				push64(&d->dsym, &n, &cap, sy.st_size);
			}
			break;
		}
		d->ndsym = n / 2;
		if (d->ndsym > 1)
			qsort(d->dsym, d->ndsym, 2 * sizeof(*d->dsym), relcmp64);
	}
	for (hi = d->ndsym; lo < hi; ) {
		m = lo + (hi - lo) / 2;
		if (d->dsym[2 * m] < a)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo >= d->ndsym || d->dsym[2 * lo] != a)
		return 0;
	for (m = lo; m + 1 < d->ndsym && d->dsym[2 * (m + 1)] == a; m++)
		if (d->dsym[2 * (m + 1) + 1] > d->dsym[2 * lo + 1])
			d->dsym[2 * lo + 1] = d->dsym[2 * (m + 1) + 1];
	return a + d->dsym[2 * lo + 1];
}

static int
crefcmp(const void *a, const void *b)
{
	const struct cref *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->fi < y->fi ? -1 : x->fi > y->fi;
}

/* relocation mode: the references of code to data, by the address they
 * name: a PC-relative lea or load (R_X86_64_PC32, its displacement the
 * instruction's last field) names S + A + 4, an absolute table operand
 * (R_X86_64_32S, _32) S + A.  Every table of a function is named so. */
static void
read_crefs(struct cfgdis *d)
{
	const struct functab *ft = d->ft;
	size_t i, cap = 0;

	d->crefdone = 1;
	for (i = 0; i < d->nrel; i++) {
		const struct reloc *r = &d->rel[i];
		const struct bfunc *f;
		const struct fsec *s;
		uint64_t a;

		if (!r->fromcode || (r->type != R_X86_64_PC32 &&
		    r->type != R_X86_64_32S && r->type != R_X86_64_32))
			continue;
		a = r->target + (r->type == R_X86_64_PC32 ? 4 : 0);
		if ((s = functab_section(ft, a)) == NULL ||
		    (s->flags & SHF_EXECINSTR) || s->type == SHT_NOBITS ||
		    (f = functab_find(ft, r->off)) == NULL)
			continue;
		xgrow(&d->cref, &cap, d->ncref + 1, sizeof(*d->cref));
		d->cref[d->ncref++] = (struct cref){ a, (uint32_t)(f - ft->f) };
	}
	if (d->ncref > 1)
		qsort(d->cref, d->ncref, sizeof(*d->cref), crefcmp);
}

/* the tables function fi dispatches through, as BOLT creates them while
 * disassembling it (processIndirectBranch, handleAddressRef) */
static const uint64_t *
func_tables(struct cfgdis *d, size_t fi, uint32_t *n)
{
	if (!d->jtknown[fi]) {
		struct fbuild b;
		int sp = d->splitpass;

		memset(&b, 0, sizeof(b));
		b.d = d;
		b.f = &d->ft->f[fi];
		b.fi = (long)fi;
		b.fragi = -1;
		d->splitpass = 0;
		if (!(b.f->flags & (BF_PLT | BF_PSEUDO)) &&
		    decode(d, fi, &b.in, &b.capin, &b.nin, 0) == 0)
			find_tables(&b);	/* records them */
		d->splitpass = sp;
		d->jtknown[fi] = 1;
		free(b.in);
		free(b.tables);
		free(b.ltab);
		free(b.frag);
		free(b.jtv);
	}
	*n = d->njt[fi];
	return d->jt[fi];
}

/* populateJumpTables: the next jump table of the binary after t, below
 * ub, or 0.  In relocation mode every function is disassembled and the
 * tables of all of them count; without relocations (lite mode) those of
 * this function */
static uint64_t
next_table(struct fbuild *b, uint64_t t, uint64_t ub, int *other)
{
	struct cfgdis *d = b->d;
	uint64_t nx = 0;
	size_t k, lo = 0, hi, m;
	uint32_t nt;

	for (k = 0; k < b->ntables; k++)
		if (b->tables[k] > t && b->tables[k] < ub &&
		    (nx == 0 || b->tables[k] < nx))
			nx = b->tables[k];
	*other = 0;
	if (nx != 0)
		ub = nx;
	if (!d->ft->has_relocs)
		return nx;
	if (!d->crefdone)
		read_crefs(d);
	for (hi = d->ncref; lo < hi; ) {
		m = lo + (hi - lo) / 2;
		if (d->cref[m].addr <= t)
			lo = m + 1;
		else
			hi = m;
	}
	for (k = lo; k < d->ncref && d->cref[k].addr < ub; k++) {
		const uint64_t *v;

		if (d->cref[k].fi == (uint32_t)b->fi)
			continue;
		v = func_tables(d, d->cref[k].fi, &nt);
		if (sorted_has(v, nt, d->cref[k].addr)) {
			*other = 1;
			return d->cref[k].addr;
		}
	}
	return nx;
}

/* 1: a table of type pic at t, with its targets (function offsets) added
 * to out (BinaryContext::analyzeJumpTable).  Its entries end at the end
 * of its section, of the data symbol that starts at t, and, when final
 * (populateJumpTables, after every function is disassembled), at the
 * next jump table of the binary; otherwise (analyzeMemoryAt, while the
 * function is disassembled) at neither table */
static int
analyze_table(struct fbuild *b, uint64_t t, int pic, int final,
    uint64_t **out, size_t *nout, size_t *capout)
{
	const struct fsec *s;
	const uint8_t *p;
	uint64_t avail, ub, ea, v, esz = pic ? 4 : 8;
	size_t real = 0, unreach = 0, start = *nout;
	const struct bfunc *f = b->f;
	int reloc = b->d->ft->has_relocs, other = 0, cut = 0;

	if (!data_section(b->d, t, &s))
		return 0;
	ub = s->addr + s->size;
	if ((v = data_sym_end(b->d, t)) != 0 && v < ub)
		ub = v;
	if ((p = sec_bytes(b->d, t, &avail)) == NULL)
		return 0;
	if (avail < ub - t)
		ub = t + avail;
	if (final) {
		/* the entries go no further than their relocations: another
		 * table starts no later than where those end */
		uint64_t e = t;

		if (reloc)
			for (; e + esz <= ub; e += esz) {
				const struct reloc *r = reloc_at(b->d, e);

				if (r == NULL || r->pcrel != pic)
					break;
			}
		else
			e = ub;
		if ((v = next_table(b, t, e, &other)) != 0 && v < ub) {
			ub = v;
			cut = other;
		}
	}
	for (ea = t; ea + esz <= ub; ea += esz) {
		if (reloc) {
			const struct reloc *r = reloc_at(b->d, ea);

			if (pic && (r == NULL || !r->pcrel))
				break;
			if (!pic && (r == NULL || r->pcrel))
				break;
		}
		if (pic)
			v = t + (uint64_t)(int64_t)(int32_t)ld32(p + (ea - t), 0);
		else
			v = ld64(p + (ea - t), 0);
		if (v == f->addr + f->size) {
			unreach++;
			continue;
		}
		if (v > f->addr && v - f->addr < f->size) {
			if (insn_at(b, v - f->addr) < 0)
				break;
			real++;
			push64(out, nout, capout, v - f->addr);
		} else if (v != f->addr && in_fragment(b, v))
			real++;		/* a split table: no edge */
		else
			break;
	}
	if (cut && ea == ub) {
		/* would the first entry of the next function's table,
		 * read as one of this table, have been taken? */
		v = t + (uint64_t)(int64_t)(int32_t)ld32(p + (ea - t), 0);
		if (!pic)
			v = ld64(p + (ea - t), 0);
		if (v == f->addr + f->size || (v > f->addr &&
		    v - f->addr < f->size && insn_at(b, v - f->addr) >= 0))
			b->cut++;
	}
	if (real >= 2 || (real == 1 && unreach >= 1)) {
		xgrow(&b->jtv, &b->capjtv, b->njtv + 1, sizeof(*b->jtv));
		b->jtv[b->njtv].addr = t;
		b->jtv[b->njtv++].size = ea - t;
		return 1;
	}
	*nout = start;
	return 0;
}

static void detail(struct fbuild *, long);

/* the register written last before instruction k (up to 16 back, not
 * across a terminator or a call); -1 if none */
/* the 64-bit register a general-purpose register is part of, or 0 */
static unsigned
x86_gpr64(unsigned r)
{
	static const unsigned g[][5] = {
		{ X86_REG_RAX, X86_REG_EAX, X86_REG_AX, X86_REG_AL, X86_REG_AH },
		{ X86_REG_RBX, X86_REG_EBX, X86_REG_BX, X86_REG_BL, X86_REG_BH },
		{ X86_REG_RCX, X86_REG_ECX, X86_REG_CX, X86_REG_CL, X86_REG_CH },
		{ X86_REG_RDX, X86_REG_EDX, X86_REG_DX, X86_REG_DL, X86_REG_DH },
		{ X86_REG_RSI, X86_REG_ESI, X86_REG_SI, X86_REG_SIL, 0 },
		{ X86_REG_RDI, X86_REG_EDI, X86_REG_DI, X86_REG_DIL, 0 },
		{ X86_REG_RBP, X86_REG_EBP, X86_REG_BP, X86_REG_BPL, 0 },
		{ X86_REG_RSP, X86_REG_ESP, X86_REG_SP, X86_REG_SPL, 0 },
		{ X86_REG_R8, X86_REG_R8D, X86_REG_R8W, X86_REG_R8B, 0 },
		{ X86_REG_R9, X86_REG_R9D, X86_REG_R9W, X86_REG_R9B, 0 },
		{ X86_REG_R10, X86_REG_R10D, X86_REG_R10W, X86_REG_R10B, 0 },
		{ X86_REG_R11, X86_REG_R11D, X86_REG_R11W, X86_REG_R11B, 0 },
		{ X86_REG_R12, X86_REG_R12D, X86_REG_R12W, X86_REG_R12B, 0 },
		{ X86_REG_R13, X86_REG_R13D, X86_REG_R13W, X86_REG_R13B, 0 },
		{ X86_REG_R14, X86_REG_R14D, X86_REG_R14W, X86_REG_R14B, 0 },
		{ X86_REG_R15, X86_REG_R15D, X86_REG_R15W, X86_REG_R15B, 0 },
	};
	size_t i, k;

	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++)
		for (k = 0; k < 5; k++)
			if (g[i][k] != 0 && g[i][k] == r)
				return g[i][0];
	return 0;
}

/* does instruction j write reg or a part of it, explicitly or not
 * (MCInstrDesc::hasDefOfPhysReg: a def of a sub-register counts) */
static int
writes_reg(struct fbuild *b, long j, unsigned reg)
{
	const struct insn *in = &b->in[j];
	const uint8_t *p;
	uint64_t avail, addr = b->f->addr + in->off;
	size_t left;
	cs_insn *ci;
	cs_regs rr, ww;
	uint8_t nr = 0, nw = 0, k;
	unsigned r64 = x86_gpr64(reg);
	int w = 0;

	if ((p = sec_bytes(b->d, addr, &avail)) == NULL)
		return 0;
	left = in->size <= avail ? in->size : (size_t)avail;
	ci = cs_malloc(b->d->cs);
	if (cs_disasm_iter(b->d->cs, &p, &left, &addr, ci) &&
	    cs_regs_access(b->d->cs, ci, rr, &nr, ww, &nw) == CS_ERR_OK)
		for (k = 0; k < nw && !w; k++)
			w = ww[k] == reg || (r64 != 0 && reg == r64 &&
			    x86_gpr64(ww[k]) == r64);
	cs_free(ci, 1);
	return w;
}

/* the instruction before k that last writes reg, in address order over
 * the whole function before it, as X86MCPlusBuilder::analyzeIndirectBranch
 * and analyzePICJumpTable look for it (across branches and calls) */
static long
writer_of(struct fbuild *b, long k, unsigned reg)
{
	long j;

	for (j = k - 1; j >= b->scanlo; j--)
		if (writes_reg(b, j, reg)) {
			detail(b, j);
			return j;
		}
	return -1;
}

enum { IB_UNKNOWN, IB_TAIL, IB_TABLE };

/* processIndirectBranch for the jmp at index k: finds the table, adds
 * its targets to the taken edges */
static int
x86_jump_table(struct fbuild *b, long k, uint64_t *tabaddr, int *pic)
{
	const struct insn *j = &b->in[k], *w, *w2, *w3;
	long wi;

	*pic = 0;
	detail(b, k);
	if (j->hasmem) {
		/* jmp *disp(,%idx,8) */
		if ((j->mbase == X86_REG_INVALID) && j->mindex != X86_REG_INVALID &&
		    j->mscale == 8) {
			*tabaddr = (uint64_t)j->mdisp;
			return IB_TABLE;
		}
		if (j->mbase == X86_REG_RIP && j->mindex == X86_REG_INVALID) {
			/* a single slot: a fixed branch or unknown */
			const struct fsec *s;
			uint64_t slot = b->f->addr + j->off + j->size +
			    (uint64_t)j->mdisp;

			if (!data_section(b->d, slot, &s))
				return IB_TAIL;
			if (s->type == SHT_NOBITS)
				return IB_TAIL;
			return IB_UNKNOWN;
		}
		return IB_UNKNOWN;
	}
	if (j->dreg == X86_REG_INVALID)
		return IB_UNKNOWN;
	if ((wi = writer_of(b, k, j->dreg)) < 0)
		return IB_UNKNOWN;
	w = &b->in[wi];
	if (w->id == X86_INS_MOV && w->hasmem && w->mbase == X86_REG_INVALID &&
	    w->mindex != X86_REG_INVALID && w->mscale == 8) {
		*tabaddr = (uint64_t)w->mdisp;
		return IB_TABLE;
	}
	if (w->id == X86_INS_ADD && !w->hasmem && w->sreg != X86_REG_INVALID) {
		/* add %x, %y with one of them from movslq (%base,%i,4) and
		 * the other, base, from lea T(%rip) */
		long xi = writer_of(b, wi, w->sreg), yi = writer_of(b, wi, w->dreg);
		int o;

		if (xi < 0 || yi < 0)
			return IB_UNKNOWN;
		for (o = 0; o < 2; o++) {
			w2 = &b->in[o ? yi : xi];	/* the load */
			w3 = &b->in[o ? xi : yi];	/* the lea */
			if (w2->id == X86_INS_MOVSXD && w2->hasmem &&
			    w2->mbase == w3->dreg && w2->mscale == 4 &&
			    w2->mdisp == 0 && w3->id == X86_INS_LEA &&
			    w3->hasmem && w3->mbase == X86_REG_RIP &&
			    w3->mindex == X86_REG_INVALID) {
				*tabaddr = b->f->addr + w3->off + w3->size +
				    (uint64_t)w3->mdisp;
				*pic = 1;
				return IB_TABLE;
			}
		}
	}
	return IB_UNKNOWN;
}

/* the tables BOLT creates while it disassembles the function: those its
 * indirect jumps read (processIndirectBranch: the pattern, and
 * analyzeMemoryAt finds a table of that type there) and, in relocation
 * mode, any PC-relative lea of what reads as a PIC table (handleAddressRef
 * catches "jump table references outside of the basic block containing
 * the indirect jump"), those in b->ltab too; b->tables, sorted, also
 * kept as the function's in the binary's list.  0 */
static int
find_tables(struct fbuild *b)
{
	struct cfgdis *d = b->d;
	uint64_t *tg = NULL;
	size_t i, ntg = 0, captg = 0, nt0;

	for (i = 0; i < b->nin; i++) {
		uint64_t t;
		int pic;

		ntg = 0;
		if (b->in[i].kind == X86K_IJMP &&
		    x86_jump_table(b, (long)i, &t, &pic) == IB_TABLE &&
		    analyze_table(b, t, pic, 0, &tg, &ntg, &captg))
			push64(&b->tables, &b->ntables, &b->captables, t);
	}
	b->ntables = uniq(b->tables, b->ntables);
	nt0 = b->ntables;
	if (d->ft->has_relocs)
		for (i = 0; i < b->nin; i++) {
			const struct fsec *s;
			uint64_t t = b->in[i].target;

			ntg = 0;
			if (!b->in[i].riplea || !data_section(d, t, &s) ||
			    s->type == SHT_NOBITS ||
			    sorted_has(b->tables, nt0, t) ||
			    !analyze_table(b, t, 1, 0, &tg, &ntg, &captg))
				continue;
			push64(&b->tables, &b->ntables, &b->captables, t);
			push64(&b->ltab, &b->nltab, &b->capltab, t);
		}
	free(tg);
	b->ntables = uniq(b->tables, b->ntables);
	b->nltab = uniq(b->ltab, b->nltab);
	if (!d->jtknown[b->fi]) {
		d->jtknown[b->fi] = 1;
		d->njt[b->fi] = (uint32_t)b->ntables;
		if (b->ntables > 0) {
			d->jt[b->fi] = xcalloc(b->ntables, sizeof(uint64_t));
			memcpy(d->jt[b->fi], b->tables,
			    b->ntables * sizeof(uint64_t));
		}
	}
	return 0;
}

static void
add_edge(struct fbuild *b, uint64_t from, uint64_t to)
{
	xgrow(&b->edges, &b->capedges, b->nedges + 2, sizeof(*b->edges));
	b->edges[b->nedges++] = from;
	b->edges[b->nedges++] = to;
}

/* the length of an instruction Capstone 4 does not know but LLVM does,
 * none of them a branch: EVEX (AVX-512) and VEX encodings, and the CET
 * shadow-stack forms of 0f 1e and 0f ae; 0 if not one of those */
static size_t
modrm_len(const uint8_t *p, size_t n, size_t at)
{
	uint8_t m, mod, rm;
	size_t k = at;

	if (k >= n)
		return 0;
	m = p[k++];
	mod = m >> 6;
	rm = m & 7;
	if (mod != 3 && rm == 4) {
		if (k >= n)
			return 0;
		if (mod == 0 && (p[k] & 7) == 5)
			k += 4;
		k++;
	}
	if (mod == 1)
		k += 1;
	else if (mod == 2 || (mod == 0 && rm == 5))
		k += 4;
	return k <= n ? k : 0;
}

static size_t
x86_extra_len(const uint8_t *p, size_t n)
{
	size_t k = 0, l;
	unsigned map, op;

	while (k < n && k < 4 && (p[k] == 0x66 || p[k] == 0xf2 || p[k] == 0xf3 ||
	    p[k] == 0x2e || p[k] == 0x3e || p[k] == 0x26 || p[k] == 0x36 ||
	    p[k] == 0x64 || p[k] == 0x65 || p[k] == 0x67))
		k++;
	if (k + 5 <= n && p[k] == 0x62) {		/* EVEX */
		map = p[k + 1] & 3;
		op = p[k + 4];
		if ((l = modrm_len(p, n, k + 5)) == 0 || map == 0)
			return 0;
		if (map == 3 || (map == 1 && ((op >= 0x70 && op <= 0x73) ||
		    op == 0xc2 || (op >= 0xc4 && op <= 0xc6))))
			l++;
		return l <= n ? l : 0;
	}
	if (k + 3 <= n && (p[k] == 0xc4 || p[k] == 0xc5)) {	/* VEX */
		size_t o = p[k] == 0xc4 ? k + 3 : k + 2;

		map = p[k] == 0xc4 ? (p[k + 1] & 0x1f) : 1;
		if (o >= n || map < 1 || map > 3)
			return 0;
		op = p[o];
		if ((l = modrm_len(p, n, o + 1)) == 0)
			return 0;
		if (map == 3 || (map == 1 && ((op >= 0x70 && op <= 0x73) ||
		    op == 0xc2 || (op >= 0xc4 && op <= 0xc6))))
			l++;
		return l <= n ? l : 0;
	}
	if (k < n && (p[k] & 0xf0) == 0x40)	/* REX */
		k++;
	if (k + 3 <= n && p[k] == 0x0f && (p[k + 1] == 0x1e || p[k + 1] == 0xae ||
	    p[k + 1] == 0x01))
		return modrm_len(p, n, k + 2);
	return 0;
}

/* the instruction at p (address addr) by x86dec's table, as
 * x86k_capstone would see Capstone's decoding of it (x86class.h): 1, or 0
 * if the table does not know it.  Capstone's id is set where the rules
 * read it (branches, lea, pop, leave); the others get it from detail().
 * Any other PC-relative operand is ripref's. */
static int
x86_fast(const uint8_t *p, size_t n, uint64_t addr, struct insn *in)
{
	struct x86d x;
	struct x86k k;

	if (!x86d_decode(p, n, &x) || !x86k_table(&x, p, addr, &k))
		return 0;
	in->size = x.len;
	x86_set(in, &k);
	if (x.mrip && x.kind != X86D_IJMP && x.kind != X86D_ICALL) {
		in->ripref = 1;
		in->target = addr + x.len + (uint64_t)x.mdisp;
	}
	return 1;
}

/* decode function fi without operand details into *out (of *capout
 * instructions, grown as needed), *nout of them; 0, or -1 if BOLT would
 * ignore it (count: add undecodable functions to the statistics).
 * x86dec's table takes the common instructions, Capstone the others. */
static int
decode(struct cfgdis *d, size_t fi, struct insn **out, size_t *capout,
    size_t *nout, int count)
{
	const struct bfunc *f = &d->ft->f[fi];
	const uint8_t *code, *p;
	uint64_t avail, off = 0, addr;
	size_t left, cap = *capout, nin = 0;
	cs_insn *ci;
	struct insn *v = *out;
	int ret = 0;

	*nout = 0;
	if ((code = sec_bytes(d, f->addr, &avail)) == NULL || avail < f->size)
		return -1;
	ci = cs_malloc(d->csn);
	p = code;
	left = (size_t)f->size;
	addr = f->addr;
	while (left > 0) {
		struct insn in;
		struct x86k k;
		uint64_t o = off;
		size_t xl = 0;

		memset(&in, 0, sizeof(in));
		in.off = (uint32_t)o;
		if (*p != 0xf0 && x86_fast(p, left, addr, &in)) {
			p += in.size;
			left -= in.size;
			addr += in.size;
			off += in.size;
			if (nin == cap)
				xgrow(&v, &cap, nin + 1, sizeof(*v));
			v[nin++] = in;
			continue;
		}
		if (*p == 0xf0 && left > 1) {
			/* LLVM decodes a lock prefix as an instruction of its
			 * own (glibc jumps over it) */
			xl = 1;
		} else if (!cs_disasm_iter(d->csn, &p, &left, &addr, ci)) {
			/* trailing zero padding is fine */
			size_t z;

			for (z = 0; z < left && p[z] == 0; z++)
				;
			if (z == left)
				break;
			if ((xl = x86_extra_len(p, left)) == 0 || xl > 15) {
				d->stats.undecodable += count != 0;
				ret = -1;
				break;
			}
		}
		if (xl > 0) {
			in.size = (uint8_t)xl;
			in.kind = X86K_OTHER;
			in.id = X86_INS_INVALID;
			in.detailed = 1;
			p += xl;
			left -= xl;
			addr += xl;
			off += xl;
		} else {
			in.size = (uint8_t)ci->size;
			in.slow = 1;
			x86k_capstone(ci, &k);
			x86_set(&in, &k);
			off += ci->size;
			if (in.kind == X86K_BAD) {
				ret = -1;
				break;
			}
		}
		if (nin == cap)
			xgrow(&v, &cap, nin + 1, sizeof(*v));
		v[nin++] = in;
	}
	cs_free(ci, 1);
	*out = v;
	*capout = cap;
	*nout = nin;
	return ret;
}

/* the operands of instruction k of the function being built */
static void
detail(struct fbuild *b, long k)
{
	struct insn *in = &b->in[k];
	const uint8_t *p;
	uint64_t avail, addr = b->f->addr + in->off;
	size_t left;
	cs_insn *ci;

	if (in->detailed)
		return;
	in->detailed = 1;
	if ((p = sec_bytes(b->d, addr, &avail)) == NULL)
		return;
	left = in->size <= avail ? in->size : (size_t)avail;
	ci = cs_malloc(b->d->cs);
	if (cs_disasm_iter(b->d->cs, &p, &left, &addr, ci)) {
		in->id = (uint16_t)ci->id;
		x86_operands(ci, in);
	}
	cs_free(ci, 1);
}

/* hasValidCodePadding: NOPs, zeros, int3 and short forward jumps */
static int
valid_padding(struct fbuild *b)
{
	const struct bfunc *f = b->f;
	const uint8_t *code, *p;
	uint64_t avail, addr;
	size_t left;
	cs_insn *ci;
	int ok = 1;

	if (f->maxsize <= f->size)
		return 1;
	if ((code = sec_bytes(b->d, f->addr + f->size, &avail)) == NULL)
		return 1;
	left = (size_t)(f->maxsize - f->size);
	if (left > avail)
		left = (size_t)avail;
	p = code;
	while (left > 0 && (*p == 0 || *p == 0xcc)) {
		p++;
		left--;
	}
	ci = cs_malloc(b->d->cs);
	addr = f->addr + f->size + (uint64_t)(p - code);
	while (left > 0) {
		if (*p == 0 || *p == 0xcc) {
			p++;
			left--;
			addr++;
			continue;
		}
		if (!cs_disasm_iter(b->d->cs, &p, &left, &addr, ci)) {
			ok = 0;
			break;
		}
		if (ci->id == X86_INS_NOP)
			continue;
		if (ci->id == X86_INS_JMP && ci->size == 2 &&
		    ci->detail->x86.operands[0].type == X86_OP_IMM &&
		    (uint64_t)ci->detail->x86.operands[0].imm >= addr)
			continue;
		ok = 0;
		break;
	}
	cs_free(ci, 1);
	return ok;
}

/* the address a PC-relative memory operand of the instruction of size
 * bytes at addr refers to, by Capstone's operands: 1 and *t, or 0 */
static int
slow_ripref(struct cfgdis *d, uint64_t addr, size_t size, uint64_t *t)
{
	const uint8_t *p;
	uint64_t avail, a = addr;
	size_t left;
	cs_insn *ci;
	int ok = 0;
	uint8_t i;

	if ((p = sec_bytes(d, addr, &avail)) == NULL || avail < size)
		return 0;
	left = size;
	ci = cs_malloc(d->cs);
	if (cs_disasm_iter(d->cs, &p, &left, &a, ci))
		for (i = 0; i < ci->detail->x86.op_count; i++) {
			const cs_x86_op *o = &ci->detail->x86.operands[i];

			if (o->type == X86_OP_MEM && o->mem.base == X86_REG_RIP) {
				*t = addr + ci->size + (uint64_t)o->mem.disp;
				ok = 1;
				break;
			}
		}
	cs_free(ci, 1);
	return ok;
}

/* processInterproceduralReferences: a direct branch or call from one
 * function into the middle of another makes an entry point there.  Every
 * function's direct branches are read once, from their encodings. */
static void
scan_branches(struct cfgdis *d)
{
	const struct functab *ft = d->ft;
	size_t fi, k, nin;

	d->scanned = 1;
	for (fi = 0; fi < ft->n; fi++) {
		const struct bfunc *f = &ft->f[fi], *to;

		if (f->flags & (BF_PLT | BF_PSEUDO))
			continue;
		decode(d, fi, &d->scratch, &d->capscratch, &nin, 1);
		for (k = 0; k < nin; k++) {
			const struct insn *in = &d->scratch[k];
			uint64_t t = in->target;
			size_t ti;

			if (in->slow && in->kind == X86K_OTHER &&
			    slow_ripref(d, f->addr + in->off, in->size, &t))
				;
			else if (in->kind != X86K_JMP && in->kind != X86K_JCC &&
			    in->kind != X86K_CALL && !in->riplea && !in->ripref)
				continue;
			/* with relocations, a relocated operand is read from
			 * its relocation (UsedReloc), not as an address */
			if (in->kind == X86K_OTHER && ft->has_relocs &&
			    reloc_in(d, f->addr + in->off + 1,
			    f->addr + in->off + in->size))
				continue;
			/* handleAddressRef, for every PC-relative operand
			 * (handlePCRelOperand: loads and stores as well as
			 * lea): an address of its own code makes a function
			 * non-simple, and the address an entry point
			 * (addEntryPointAtOffset) */
			if (in->kind == X86K_OTHER && t > f->addr &&
			    t - f->addr < f->size) {
				d->selfref[fi] = 1;
				push64(&d->xent[fi], &d->nxent[fi], &d->capxent[fi],
				    t);
				continue;
			}
			to = functab_find(ft, t);
			if (to == NULL || to == f || t == to->addr ||
			    t - to->addr >= to->size)
				continue;
			ti = (size_t)(to - ft->f);
			push64(&d->xent[ti], &d->nxent[ti], &d->capxent[ti], t);
		}
	}
}

static void keep_sites(struct cfg *, const struct fbuild *);
static void keep_tables(struct cfg *, struct fbuild *);
static void keep_sources(struct cfg *, const struct fbuild *);

/* the block starting at offset off, or -1 */
static long
block_at_start(const struct cfg *g, uint64_t off)
{
	long k = cfg_block_at(g, off);

	return k >= 0 && g->blocks[k].start == off ? k : -1;
}

/* addUnknownControlFlow: block fb's successors are every offset the
 * function is referenced at (ExternallyReferencedOffsets: from data, and
 * in strict mode the targets of its jump tables), once each */
static void
add_refs(const struct cfgdis *d, size_t fi, const struct fbuild *b,
    const struct cfg *g, uint32_t **sv, size_t *sn, size_t *sc, long fb)
{
	size_t m, mm, n = d->nxref[fi] + b->nreftg;

	for (m = 0; m < n; m++) {
		uint64_t o = m < d->nxref[fi] ? d->xref[fi][m] :
		    b->reftg[m - d->nxref[fi]];
		long tb = block_at_start(g, o);

		if (tb < 0)
			continue;
		for (mm = 0; mm < sn[fb]; mm++)
			if (sv[fb][mm] == (uint32_t)tb)
				break;
		if (mm < sn[fb])
			continue;
		xgrow(&sv[fb], &sc[fb], sn[fb] + 1, sizeof(**sv));
		sv[fb][sn[fb]++] = (uint32_t)tb;
	}
}

/* does the jump table pattern of the jump at index ji still hold on the
 * instructions of its block alone (analyzeIndirectBranch from the
 * block's start: a table, or at least a load from memory) */
static int
jt_local_ok(struct fbuild *b, const struct cfg *g, long ji)
{
	const struct insn *j = &b->in[ji];
	long fb = cfg_block_at(g, j->off), lo, wi;
	uint64_t t;
	int pic, r;

	if (fb < 0 || (lo = insn_at(b, g->blocks[fb].start)) < 0)
		return 1;
	detail(b, ji);
	if (j->hasmem)
		return 1;
	b->scanlo = lo;
	r = x86_jump_table(b, ji, &t, &pic);
	wi = r == IB_TABLE || j->dreg == X86_REG_INVALID ? -1 :
	    writer_of(b, ji, j->dreg);
	b->scanlo = 0;
	if (r == IB_TABLE)
		return 1;
	return wi >= 0 && b->in[wi].id == X86_INS_MOV && b->in[wi].hasmem;
}

static struct cfg *
build(struct cfgdis *d, size_t fi)
{
	const struct functab *ft = d->ft;
	const struct bfunc *f = &ft->f[fi];
	struct fbuild b;
	struct cfg *g = xcalloc(1, sizeof(*g));
	size_t i, k, nb;
	int reloc = ft->has_relocs;
	const struct fde *fde;

	g->addr = f->addr;
	g->size = f->size;
	memset(&b, 0, sizeof(b));
	b.d = d;
	b.f = f;
	b.fi = (long)fi;
	b.fragi = -1;
	if (f->flags & (BF_PLT | BF_PSEUDO)) {
		g->ignored = 1;
		g->why = "PLT";
		return g;
	}
	if (!reloc && ((f->flags & BF_FRAGMENT) || f->parent != fi)) {
		g->ignored = 1;
		g->why = "a fragment without relocations";
		return g;
	}
	if (!reloc) {
		/* a parent of a fragment is ignored too */
		for (i = 0; i < ft->n; i++)
			if (ft->f[i].parent == fi && i != fi) {
				g->ignored = 1;
				g->why = "a fragment's parent without relocations";
				return g;
			}
	}
	if (decode(d, fi, &b.in, &b.capin, &b.nin, 0) == -1 || b.nin == 0) {
		g->ignored = 1;
		g->why = "undecodable or unsupported instruction";
		goto out;
	}
	if (reloc && !valid_padding(&b)) {
		g->ignored = 1;
		g->why = "invalid code padding";
		goto out;
	}
	if (f->flags & BF_NONSIMPLE) {
		b.nonsimple = 1;
		g->nocfg = 1;
		g->why = "symbol or FDE conflict";
	}
	if (d->padrel[fi]) {
		b.nonsimple = 1;
		g->nocfg = 1;
		g->why = "relocation in the padding";
	}
	/* HasInternalLabelReference fails postProcessIndirectBranches,
	 * after the graph is built; the address is also an entry point, so
	 * that without relocations, outside BAT mode, the function has no
	 * graph at all (below) */
	if (d->selfref[fi]) {
		b.nonsimple = 1;
		g->why = "reference to its own code";
	}
	/* secondary entries: symbols, interprocedural references */
	for (k = functab_entries_from(ft, f->addr); k < ft->nsyms &&
	    ft->syms[k].addr < f->addr + f->maxsize; k++)
		if (ft->syms[k].addr > f->addr)
			push64(&b.entries, &b.nentries, &b.capentries,
			    ft->syms[k].addr - f->addr);
	for (k = 0; k < d->nxent[fi]; k++)
		push64(&b.entries, &b.nentries, &b.capentries,
		    d->xent[fi][k] - f->addr);
	b.nentries = uniq(b.entries, b.nentries);
	/* postProcessEntryPoints: without relocations an entry point makes
	 * the function non-simple before its graph is built, except in BAT
	 * mode (BOLT 19 registers the known entry points for the graph) */
	if (b.nentries > 0 && !reloc && !d->bat) {
		b.nonsimple = 1;
		g->nocfg = 1;
		g->why = "secondary entry points without relocations";
	}
	/* landing pads */
	if ((fde = functab_fde(ft, f->addr)) != NULL && fde->lsda != 0)
		read_lsda(&b, fde->lsda);
	b.nlps = uniq(b.lps, b.nlps);

	/* labels: 0, entries, landing pads, data-referenced offsets */
	push64(&b.labels, &b.nlabels, &b.caplabels, 0);
	for (k = 0; k < b.nentries; k++)
		push64(&b.labels, &b.nlabels, &b.caplabels, b.entries[k]);
	for (k = 0; k < b.nlps; k++)
		push64(&b.labels, &b.nlabels, &b.caplabels, b.lps[k]);
	if (reloc)
		for (k = 0; k < d->nxref[fi]; k++)
			if (d->xref[fi][k] < f->size)
				push64(&b.labels, &b.nlabels, &b.caplabels,
				    d->xref[fi][k]);
	/* the tables BOLT creates for this function; in relocation mode
	 * the entries of those only a lea names are labels and, in strict
	 * mode, referenced offsets (populateJumpTables) */
	find_tables(&b);
	for (k = 0; k < b.nltab; k++) {
		uint64_t *tg = NULL;
		size_t ntg = 0, captg = 0, m;

		if (analyze_table(&b, b.ltab[k], 1, 1, &tg, &ntg, &captg))
			for (m = 0; m < ntg; m++) {
				push64(&b.labels, &b.nlabels, &b.caplabels, tg[m]);
				push64(&b.reftg, &b.nreftg, &b.capreftg, tg[m]);
			}
		free(tg);
	}
	/* branches */
	for (i = 0; i < b.nin; i++) {
		struct insn *in = &b.in[i];
		uint64_t a = in->target;

		switch (in->kind) {
		case X86K_JCC:
		case X86K_JMP:
			if (a >= f->addr && a - f->addr < f->size) {
				push64(&b.labels, &b.nlabels, &b.caplabels,
				    a - f->addr);
				add_edge(&b, in->off, a - f->addr);
			} else if (a == f->addr + f->size && f->size < f->maxsize)
				in->nopped = 1;		/* jump past end */
			else
				in->tail = 1;
			break;
		case X86K_CALL:
			if (a > f->addr && a - f->addr < f->size)
				push64(&b.labels, &b.nlabels, &b.caplabels,
				    a - f->addr);
			break;
		case X86K_IJMP: {
			uint64_t t = 0, *tg = NULL;
			size_t ntg = 0, captg = 0, m;
			int pic, r = x86_jump_table(&b, (long)i, &t, &pic);

			if (r == IB_TABLE) {
				if (analyze_table(&b, t, pic, 1, &tg, &ntg,
				    &captg)) {
					for (m = 0; m < ntg; m++) {
						push64(&b.labels, &b.nlabels,
						    &b.caplabels, tg[m]);
						push64(&b.reftg, &b.nreftg,
						    &b.capreftg, tg[m]);
						add_edge(&b, in->off, tg[m]);
					}
					push64(&b.jts, &b.njts, &b.capjts,
					    (uint64_t)i * 2 + (uint64_t)pic);
				} else if (pic)
					push64(&b.unknown, &b.nunknown,
					    &b.capunknown, i);
				else
					in->tail = 1;
			} else if (r == IB_TAIL)
				in->tail = 1;
			else
				push64(&b.unknown, &b.nunknown, &b.capunknown, i);
			free(tg);
			break;
		}
		default:
			break;
		}
	}
	b.nlabels = uniq(b.labels, b.nlabels);
	/* a label inside an instruction */
	for (k = 0; k < b.nlabels; k++)
		if (insn_at(&b, b.labels[k]) < 0) {
			g->why = "a label inside an instruction";
			if (reloc) {
				g->ignored = 1;
				goto out;
			}
			b.nonsimple = 1;
			g->nocfg = 1;
		}

	/* blocks */
	{
		struct cfg_block *bl = NULL;
		size_t capbl = 0, cur = SIZE_MAX;
		const struct insn *prev = NULL;
		int after_term = 0;

		for (i = 0; i < b.nin; i++) {
			const struct insn *in = &b.in[i];
			int newb = 0;

			if (sorted_has(b.labels, b.nlabels, in->off))
				newb = 1;
			else if (after_term) {
				/* the double jump: a jmp joins the block of a
				 * jcc (or other non-branch terminator) */
				if (in->kind == X86K_JMP && !in->tail &&
				    !in->nopped && prev != NULL &&
				    !(prev->kind == X86K_JMP && !prev->tail) &&
				    prev->kind != X86K_RET && !prev->tail)
					newb = 0;
				else
					newb = 1;
			}
			if (newb || cur == SIZE_MAX) {
				xgrow(&bl, &capbl, g->nblocks + 1, sizeof(*bl));
				cur = g->nblocks++;
				memset(&bl[cur], 0, sizeof(bl[cur]));
				bl[cur].start = in->off;
				bl[cur].id = (uint32_t)cur;
				if (in->off == 0 || sorted_has(b.entries, b.nentries,
				    in->off))
					bl[cur].flags |= CFG_ENTRY;
				if (sorted_has(b.lps, b.nlps, in->off))
					bl[cur].flags |= CFG_LPAD;
			}
			bl[cur].end = in->off + in->size;
			bl[cur].last = in->off;
			bl[cur].ninsns++;
			after_term = is_term(in);
			prev = in;
		}
		g->blocks = bl;
	}
	nb = g->nblocks;
	/* successors: taken edges, then the fall-through rule */
	{
		uint32_t **sv = xcalloc(nb + 1, sizeof(*sv));
		size_t *sn = xcalloc(nb + 1, sizeof(*sn)),
		    *sc = xcalloc(nb + 1, sizeof(*sc));
		size_t e, total = 0;

		/* postProcessIndirectBranches: a jump through a table is
		 * checked again on its block's instructions alone; where the
		 * pattern is not all there, strict mode (relocations) gives a
		 * PIC table's block every referenced offset as successors
		 * (addUnknownControlFlow), unless the function has one
		 * indirect jump and one table; otherwise the function is not
		 * simple */
		size_t nij = 0, nbad = 0;
		uint64_t *bad = NULL;
		size_t capbad = 0;

		b.nreftg = uniq(b.reftg, b.nreftg);
		for (i = 0; i < b.nin; i++)
			nij += b.in[i].kind == X86K_IJMP;
		for (e = 0; e < b.njts; e++) {
			long ji = (long)(b.jts[e] / 2);
			int pic = (int)(b.jts[e] & 1);

			if (jt_local_ok(&b, g, ji)) {
				b.in[ji].table = 1;
				continue;
			}
			if (!reloc || !pic) {
				b.nonsimple = 1;
				g->why = "a jump table's pattern outside its block";
				continue;
			}
			if (nij == 1 && b.ntables == 1) {
				b.in[ji].table = 1;
				continue;
			}
			push64(&bad, &nbad, &capbad, b.in[ji].off);
		}
		for (e = 0; e < b.nedges; e += 2) {
			long fb = cfg_block_at(g, b.edges[e]);

			if (nbad > 0 && sorted_has(bad, nbad, b.edges[e]))
				continue;
			long tb = -1;
			size_t lo = 0, hi = nb, m;

			while (lo < hi) {	/* block starting at the target */
				m = lo + (hi - lo) / 2;
				if (g->blocks[m].start < b.edges[e + 1])
					lo = m + 1;
				else
					hi = m;
			}
			if (lo < nb && g->blocks[lo].start == b.edges[e + 1])
				tb = (long)lo;
			if (fb < 0 || tb < 0)
				continue;
			/* the same successor once (jump tables repeat) */
			for (m = 0; m < sn[fb]; m++)
				if (sv[fb][m] == (uint32_t)tb)
					break;
			if (m < sn[fb])
				continue;
			xgrow(&sv[fb], &sc[fb], sn[fb] + 1, sizeof(**sv));
			sv[fb][sn[fb]++] = (uint32_t)tb;
		}
		for (e = 0; e < nbad; e++)
			add_refs(d, fi, &b, g, sv, sn, sc,
			    cfg_block_at(g, bad[e]));
		free(bad);
		/* unknown control flow in strict mode: the data-referenced
		 * offsets; non-strict: non-simple */
		for (e = 0; e < b.nunknown; e++) {
			const struct insn *in = &b.in[b.unknown[e]];
			long fb = cfg_block_at(g, in->off);
			size_t m;
			int epi = 0;

			if (nb == 1) {
				b.in[b.unknown[e]].tail = 1;
				continue;
			}
			for (m = 0; m < b.nin; m++)
				if (b.in[m].off >= g->blocks[fb].start &&
				    b.in[m].off < g->blocks[fb].end &&
				    (b.in[m].id == X86_INS_POP ||
				    b.in[m].id == X86_INS_LEAVE))
					epi = 1;
			if (epi) {
				b.in[b.unknown[e]].tail = 1;
				continue;
			}
			if (!reloc) {
				b.nonsimple = 1;
				g->why = "unknown indirect jump without relocations";
				continue;
			}
			if (d->nxref[fi] == 0 && b.nreftg == 0) {
				b.in[b.unknown[e]].tail = 1;
				continue;
			}
			add_refs(d, fi, &b, g, sv, sn, sc, fb);
		}
		for (i = 0; i < nb; i++) {
			struct cfg_block *bb = &g->blocks[i];
			long li = insn_at(&b, bb->last);
			const struct insn *last = &b.in[li];
			int falls = 0;
			int ctc = last->kind == X86K_JCC && last->tail;

			if (last->kind == X86K_CALL || last->kind == X86K_ICALL)
				bb->flags |= CFG_ENDS_CALL;
			if (last->kind == X86K_RET)
				bb->flags |= CFG_ENDS_RET;
			if (last->tail)
				bb->flags |= CFG_ENDS_TAIL;
			if (sn[i] == 0)
				falls = ctc ? 1 : !is_term(last);
			else if (sn[i] == 1)
				falls = !ctc && last->kind == X86K_JCC &&
				    !last->nopped;
			if (falls && i + 1 < nb) {
				bb->flags |= CFG_FALLS;
				xgrow(&sv[i], &sc[i], sn[i] + 1, sizeof(**sv));
				sv[i][sn[i]++] = (uint32_t)(i + 1);
			}
			total += sn[i];
		}
		g->succs = xcalloc(total + 1, sizeof(*g->succs));
		for (i = 0; i < nb; i++) {
			g->blocks[i].succ = (uint32_t)g->nsuccs;
			g->blocks[i].nsucc = (uint32_t)sn[i];
			if (sn[i])
				memcpy(&g->succs[g->nsuccs], sv[i],
				    sn[i] * sizeof(*sv[i]));
			g->nsuccs += sn[i];
			free(sv[i]);
		}
		free(sv);
		free(sn);
		free(sc);
	}
	g->simple = !b.nonsimple;
	d->stats.jtcut += b.cut;
	keep_tables(g, &b);
out:
	if (!g->ignored) {
		keep_sites(g, &b);
		keep_sources(g, &b);
	}
	if (g->ignored) {
		free(g->blocks);
		g->blocks = NULL;
		g->nblocks = 0;
		free(g->succs);
		g->succs = NULL;
		g->nsuccs = 0;
		g->simple = 0;
		d->stats.ignored++;
	} else if (!g->simple)
		d->stats.nonsimple++;
	else
		d->stats.simple++;
	free(b.in);
	free(b.labels);
	free(b.entries);
	free(b.lps);
	free(b.edges);
	free(b.tables);
	free(b.ltab);
	free(b.unknown);
	free(b.frag);
	free(b.jts);
	free(b.reftg);
	free(b.jtv);
	return g;
}

static int
jtcmp(const void *a, const void *b)
{
	const struct cfg_jt *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* the tables, by address, each once */
static void
keep_tables(struct cfg *g, struct fbuild *b)
{
	size_t i, n = 0;

	if (b->njtv == 0)
		return;
	qsort(b->jtv, b->njtv, sizeof(*b->jtv), jtcmp);
	for (i = 0; i < b->njtv; i++)
		if (n == 0 || b->jtv[n - 1].addr != b->jtv[i].addr)
			b->jtv[n++] = b->jtv[i];
	g->jts = b->jtv;
	g->njts = n;
	b->jtv = NULL;
	b->njtv = b->capjtv = 0;
}

/* the branches, calls and returns of a built graph (cfg.h: cfg_site) */
static void
keep_sites(struct cfg *g, const struct fbuild *b)
{
	size_t i, n = 0;

	for (i = 0; i < b->nin; i++)
		switch (b->in[i].kind) {
		case X86K_CALL: case X86K_ICALL: case X86K_JMP: case X86K_IJMP:
		case X86K_JCC: case X86K_RET:
			if (!b->in[i].nopped)
				n++;
			break;
		}
	g->sites = xcalloc(n + 1, sizeof(*g->sites));
	for (i = 0; i < b->nin; i++) {
		const struct insn *in = &b->in[i];
		struct cfg_site *s = &g->sites[g->nsites];
		static const uint8_t kinds[] = {
			[X86K_CALL] = CFG_SITE_CALL,
			[X86K_ICALL] = CFG_SITE_ICALL,
			[X86K_JMP] = CFG_SITE_JMP, [X86K_IJMP] = CFG_SITE_IJMP,
			[X86K_JCC] = CFG_SITE_JCC, [X86K_RET] = CFG_SITE_RET,
			[X86K_BAD] = 0
		};

		if (in->nopped || kinds[in->kind] == 0)
			continue;
		s->kind = kinds[in->kind];
		s->off = in->off;
		s->tail = in->tail;
		s->table = in->table;
		s->target = in->target;
		g->nsites++;
	}
}

/* the other offsets BOLT 19 takes as a branch's source
 * (DataReader::recordBranch, BinaryFunction::getInstructionAtOffset):
 * every NOP, and each block's last instruction that is no NOP (cfg.h:
 * cfg_source_kept; checked with perf2bolt-19 --pa -w on branches from
 * the first 8, the last 4 and the NOPs of every block of a
 * 3500-function program, tests/data/yamlwrite/srcgen.py) */
static void
keep_sources(struct cfg *g, const struct fbuild *b)
{
	size_t i, j = 0, n = 0;
	uint64_t *v, *lastreal;

	if (g->nblocks == 0)
		return;
	lastreal = xcalloc(g->nblocks, sizeof(*lastreal));
	for (j = 0; j < g->nblocks; j++)
		lastreal[j] = UINT64_MAX;
	v = xcalloc(b->nin + g->nblocks + 1, sizeof(*v));
	j = 0;
	for (i = 0; i < b->nin; i++) {
		const struct insn *in = &b->in[i];

		while (j < g->nblocks && g->blocks[j].end <= in->off)
			j++;
		if (in->kind == X86K_NOP || in->nopped)
			v[n++] = in->off;
		else if (j < g->nblocks && in->off >= g->blocks[j].start)
			lastreal[j] = in->off;
	}
	for (j = 0; j < g->nblocks; j++)
		if (lastreal[j] != UINT64_MAX && lastreal[j] != g->blocks[j].last)
			v[n++] = lastreal[j];
	free(lastreal);
	sort64(v, n);
	g->srcs = v;
	g->nsrcs = n;
}

/* the entries split jump tables make in other fragments of a function:
 * the graphs of the functions that have fragments or are one are built
 * once to find them (in_fragment records them), then dropped */
static void
split_tables(struct cfgdis *d)
{
	const struct functab *ft = d->ft;
	struct cfgdis_stats st = d->stats;
	uint8_t *rel;
	size_t i;

	if (!ft->has_relocs)
		return;		/* fragments and parents are ignored */
	rel = xcalloc(ft->n + 1, 1);
	for (i = 0; i < ft->n; i++)
		if ((ft->f[i].flags & BF_FRAGMENT) && ft->f[i].parent < ft->n &&
		    ft->f[i].parent != i)
			rel[i] = rel[ft->f[i].parent] = 1;
	d->splitpass = 1;
	for (i = 0; i < ft->n; i++)
		if (rel[i]) {
			struct cfg *g = build(d, i);

			cfg_free(g);
			free(g);
		}
	d->splitpass = 0;
	d->stats = st;
	free(rel);
}

static void
scan(struct cfgdis *d)
{
	scan_branches(d);
	split_tables(d);
}

void
cfgdis_prepare(struct cfgdis *d)
{
	if (!d->scanned)
		scan(d);
}

const struct cfg *
cfgdis_get(struct cfgdis *d, size_t fi)
{
	if (fi >= d->ft->n)
		return NULL;
	if (!d->scanned)
		scan(d);
	if (d->g[fi] == NULL)
		d->g[fi] = build(d, fi);
	return d->g[fi];
}

uint32_t
cfgdis_entry_id(struct cfgdis *d, size_t fi, uint64_t off)
{
	const struct functab *ft = d->ft;
	const struct bfunc *f;
	uint64_t *v = NULL;
	size_t n = 0, cap = 0, k;
	uint32_t id = 0;

	if (fi >= ft->n || off == 0)
		return 0;
	if (!d->scanned)
		scan(d);
	f = &ft->f[fi];
	for (k = functab_entries_from(ft, f->addr); k < ft->nsyms &&
	    ft->syms[k].addr < f->addr + f->maxsize; k++)
		if (ft->syms[k].addr > f->addr)
			push64(&v, &n, &cap, ft->syms[k].addr - f->addr);
	for (k = 0; k < d->nxent[fi]; k++)
		push64(&v, &n, &cap, d->xent[fi][k] - f->addr);
	n = uniq(v, n);
	for (k = 0; k < n; k++)
		if (v[k] == off) {
			id = (uint32_t)k + 1;
			break;
		}
	free(v);
	return id;
}

/* the bytes at a decode as a return */
static int
bytes_return(struct cfgdis *d, uint64_t a)
{
	const uint8_t *p;
	uint64_t avail, addr = a;
	size_t left;
	cs_insn *ci;
	int r = 0;

	if ((p = sec_bytes(d, a, &avail)) == NULL)
		return 0;
	left = avail < 16 ? (size_t)avail : 16;
	{
		struct x86d x;

		if (x86d_decode(p, left, &x))
			return x.kind == X86D_RET;
	}
	/* other bytes need no decoding */
	if (!x86d_ret_bytes(p, left))
		return 0;
	ci = cs_malloc(d->csn);
	if (cs_disasm_iter(d->csn, &p, &left, &addr, ci))
		r = ci->id == X86_INS_RET || ci->id == X86_INS_RETF ||
		    ci->id == X86_INS_RETFQ;
	cs_free(ci, 1);
	return r;
}

/* DataAggregator::doBranch (19): a function BOLT disassembled answers
 * by the instruction it has at the offset (getInstructionAtOffset: a
 * return keeps its offset), so bytes inside an instruction that read as
 * a return are none; only a function it did not disassemble is decoded
 * at the address (disassembleInstructionAtOffset) */
int
cfgdis_is_return(struct cfgdis *d, uint64_t a)
{
	const struct bfunc *f;
	const struct cfg *g;
	const struct cfg_site *s;

	if (!bytes_return(d, a))
		return 0;
	if ((f = functab_find(d->ft, a)) == NULL ||
	    (g = cfgdis_get(d, (size_t)(f - d->ft->f)))->ignored)
		return 1;
	return (s = cfg_site_at(g, a - f->addr)) != NULL &&
	    s->kind == CFG_SITE_RET;
}

/* ------------------------------------------------------------------ */
/* cfg.h's helpers */

long
cfg_block_at(const struct cfg *g, uint64_t off)
{
	size_t lo = 0, hi = g->nblocks, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (g->blocks[m].start <= off)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo == 0)
		return -1;
	return off < g->blocks[lo - 1].end ? (long)lo - 1 : -1;
}

int
cfg_is_succ(const struct cfg *g, size_t i, size_t j)
{
	uint32_t k;

	for (k = 0; k < g->blocks[i].nsucc; k++)
		if (g->succs[g->blocks[i].succ + k] == j)
			return 1;
	return 0;
}

const struct cfg_site *
cfg_site_at(const struct cfg *g, uint64_t off)
{
	size_t lo = 0, hi = g->nsites, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (g->sites[m].off < off)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < g->nsites && g->sites[lo].off == off ? &g->sites[lo] :
	    NULL;
}

int
cfg_source_kept(const struct cfg *g, uint64_t off)
{
	long b;

	if ((b = cfg_block_at(g, off)) < 0)
		return 0;
	return g->blocks[b].last == off || cfg_site_at(g, off) != NULL ||
	    sorted_has(g->srcs, g->nsrcs, off);
}

void
cfg_free(struct cfg *g)
{
	free(g->blocks);
	free(g->succs);
	free(g->sites);
	free(g->srcs);
	free(g->jts);
	g->blocks = NULL;
	g->succs = NULL;
	g->sites = NULL;
	g->srcs = NULL;
	g->jts = NULL;
	g->nblocks = g->nsuccs = g->nsites = g->nsrcs = g->njts = 0;
}
