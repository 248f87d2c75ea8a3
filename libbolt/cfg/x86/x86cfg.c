/* See COPYING file for copyright and license details. */
/*
 * x86cfg.c: x86-64 for the graph builder (cfgint.h: cfg_arch_x86_64):
 * decoding by x86dec's table and Capstone, the classification of
 * x86class.c, lengths Capstone 4 lacks, the relocation types, and the
 * jump-table patterns of X86MCPlusBuilder::analyzeIndirectBranch and
 * analyzePICJumpTable (bolt/lib/Target/X86 in LLVM 19).
 */
#include <capstone/capstone.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "cfgint.h"
#include "hashsym.h"
#include "x86class.h"
#include "x86dec.h"

#define SAMEKIND(x)	((int)X86K_##x == (int)IK_##x)
_Static_assert(SAMEKIND(OTHER) && SAMEKIND(NOP) && SAMEKIND(JCC) &&
    SAMEKIND(JMP) && SAMEKIND(IJMP) && SAMEKIND(RET) && SAMEKIND(CALL) &&
    SAMEKIND(ICALL) && SAMEKIND(TRAP) && SAMEKIND(HLT) && SAMEKIND(BAD),
    "x86class.h's kinds are the graph builder's");

/* the two Capstone handles, each with the one instruction its callers
 * decode into (none of them holds it across a call of another: a
 * cs_malloc and cs_free at each decoding cost more than the decoding of
 * most instructions) */
struct x86cs {
	csh		 cs;		/* with operand details */
	csh		 csn;		/* without: the decoding pass */
	cs_insn		*ci, *cin;	/* cs's, csn's */
};
#define CS(d)	(((struct x86cs *)(d)->archd)->cs)
#define CSN(d)	(((struct x86cs *)(d)->archd)->csn)
#define CI(d)	(((struct x86cs *)(d)->archd)->ci)
#define CIN(d)	(((struct x86cs *)(d)->archd)->cin)

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

/* is the rel32 field at a that of a direct call, jmp or jcc?  A load or
 * store through a relocated PC-relative operand is symbolized from the
 * relocation (BOLT's UsedReloc) and makes no entry point: only branches
 * are read as references (their encodings: e8, e9, 0f 8x) */
static int
rel32_branch(struct cfgdis *d, uint64_t a)
{
	const uint8_t *p;
	uint64_t avail;

	if (a < 2 || (p = cd_sec_bytes(d, a - 2, &avail)) == NULL || avail < 2)
		return 0;
	return p[1] == 0xe8 || p[1] == 0xe9 ||
	    (p[0] == 0x0f && (p[1] & 0xf0) == 0x80);
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
			in->mseg = x->operands[k].mem.segment !=
			    X86_REG_INVALID;
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

static void detail(struct fbuild *, long);

/* does instruction j write reg or a part of it, explicitly or not
 * (MCInstrDesc::hasDefOfPhysReg: a def of a sub-register counts), as
 * Capstone's cs_regs_access tells.  x86dec's table answers for most
 * instructions (x86d_writes, checked against Capstone by x86chk): whether
 * any part of reg's 64-bit register is written, all the question is for
 * a 64-bit reg; Capstone decodes the others, and the instructions where
 * a smaller reg's own part is written. */
static int
writes_reg(struct fbuild *b, long j, unsigned reg)
{
	const struct insn *in = &b->in[j];
	const uint8_t *p;
	uint64_t avail, addr = b->f->addr + in->off;
	size_t left;
	cs_insn *ci;
	cs_regs rr, ww;
	uint8_t nr = 0, nw = 0, i;
	unsigned r64 = x86k_gpr64(reg);
	int w = 0, g;
	struct x86d x;
	struct x86k k;
	uint16_t mask;

	if ((p = cd_sec_bytes(b->d, addr, &avail)) == NULL)
		return 0;
	left = in->size <= avail ? in->size : (size_t)avail;
	/* (what x86chk checks: the instructions x86_fast takes) */
	if (!in->slow && (g = x86k_gpr(reg)) >= 0 && *p != 0xf0 &&
	    x86d_decode(p, left, &x) && x.len == in->size &&
	    x86k_table(&x, p, addr, &k) && x86d_writes(p, &x, &mask)) {
		if (!(mask & (1u << g)))
			return 0;
		if (reg == r64)
			return 1;
	}
	ci = CI(b->d);
	if (cs_disasm_iter(CS(b->d), &p, &left, &addr, ci) &&
	    cs_regs_access(CS(b->d), ci, rr, &nr, ww, &nw) == CS_ERR_OK)
		for (i = 0; i < nw && !w; i++)
			w = ww[i] == reg || (r64 != 0 && reg == r64 &&
			    x86k_gpr64(ww[i]) == r64);
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

/* processIndirectBranch for the jmp at index k: finds the table, adds
 * its targets to the taken edges */
static int
x86_jump_table(struct fbuild *b, long k, uint64_t *tabaddr, int *pic)
{
	const struct insn *j = &b->in[k], *w, *w2, *w3;
	long wi;

	*pic = 0;
	detail(b, k);
	/* a segment on the memory operand (notrack's 3e prefix reads as
	 * %ds): X86MCPlusBuilder::analyzeIndirectBranch knows no table */
	if (j->hasmem && j->mseg)
		return IB_UNKNOWN;
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

			if (!cd_data_section(b->d, slot, &s))
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
	if (w->hasmem && w->mseg)
		return IB_UNKNOWN;
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
			    !w2->mseg && !w3->mseg &&
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
	if ((code = cd_sec_bytes(d, f->addr, &avail)) == NULL || avail < f->size)
		return -1;
	ci = CIN(d);
	p = code;
	left = (size_t)f->size;
	addr = f->addr;
	while (left > 0) {
		struct insn in, *fin;
		struct x86k k;
		uint64_t o = off;
		size_t xl = 0;

		/* the table's instructions straight into the array */
		if (nin == cap)
			xgrow(&v, &cap, nin + 1, sizeof(*v));
		fin = &v[nin];
		memset(fin, 0, sizeof(*fin));
		fin->off = (uint32_t)o;
		if (*p != 0xf0 && x86_fast(p, left, addr, fin)) {
			p += fin->size;
			left -= fin->size;
			addr += fin->size;
			off += fin->size;
			nin++;
			continue;
		}
		memset(&in, 0, sizeof(in));
		in.off = (uint32_t)o;
		if (*p == 0xf0 && left > 1) {
			/* LLVM decodes a lock prefix as an instruction of its
			 * own (glibc jumps over it) */
			xl = 1;
		} else if (!cs_disasm_iter(CSN(d), &p, &left, &addr, ci)) {
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
	if ((p = cd_sec_bytes(b->d, addr, &avail)) == NULL)
		return;
	left = in->size <= avail ? in->size : (size_t)avail;
	ci = CI(b->d);
	if (cs_disasm_iter(CS(b->d), &p, &left, &addr, ci)) {
		in->id = (uint16_t)ci->id;
		x86_operands(ci, in);
	}
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
	if ((code = cd_sec_bytes(b->d, f->addr + f->size, &avail)) == NULL)
		return 1;
	left = (size_t)(f->maxsize - f->size);
	if (left > avail)
		left = (size_t)avail;
	p = code;
	while (left > 0 && (*p == 0 || *p == 0xcc)) {
		p++;
		left--;
	}
	ci = CI(b->d);
	addr = f->addr + f->size + (uint64_t)(p - code);
	while (left > 0) {
		if (*p == 0 || *p == 0xcc) {
			p++;
			left--;
			addr++;
			continue;
		}
		if (!cs_disasm_iter(CS(b->d), &p, &left, &addr, ci)) {
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

	if ((p = cd_sec_bytes(d, addr, &avail)) == NULL || avail < size)
		return 0;
	left = size;
	ci = CI(d);
	if (cs_disasm_iter(CS(d), &p, &left, &a, ci))
		for (i = 0; i < ci->detail->x86.op_count; i++) {
			const cs_x86_op *o = &ci->detail->x86.operands[i];

			if (o->type == X86_OP_MEM && o->mem.base == X86_REG_RIP) {
				*t = addr + ci->size + (uint64_t)o->mem.disp;
				ok = 1;
				break;
			}
		}
	return ok;
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

	if (fb < 0 || (lo = cd_insn_at(b, g->blocks[fb].start)) < 0)
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

/* the bytes at a decode as a return */
static int
bytes_return(struct cfgdis *d, uint64_t a)
{
	const uint8_t *p;
	uint64_t avail, addr = a;
	size_t left;
	cs_insn *ci;
	int r = 0;

	if ((p = cd_sec_bytes(d, a, &avail)) == NULL)
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
	ci = CIN(d);
	if (cs_disasm_iter(CSN(d), &p, &left, &addr, ci))
		r = ci->id == X86_INS_RET || ci->id == X86_INS_RETF ||
		    ci->id == X86_INS_RETFQ;
	return r;
}

/* R_X86_64_64, _32, _32S: an address data (or an absolute operand) holds */
static int
x86_abs(uint32_t t)
{
	return t == R_X86_64_64 || t == R_X86_64_32 || t == R_X86_64_32S;
}

/* a rel32 at the end of its instruction points at S + A + 4 */
static int
x86_reloc_branch(struct cfgdis *d, const struct reloc *r, uint64_t *to)
{
	if (!rel32_branch(d, r->off))
		return 0;
	*to = r->target + 4;
	return 1;
}

/* a PC-relative lea or load (R_X86_64_PC32, its displacement the
 * instruction's last field) names S + A + 4, an absolute table operand
 * (R_X86_64_32S, _32) S + A */
static int
x86_data_ref(const struct reloc *r, uint64_t *a)
{
	if (r->type != R_X86_64_PC32 && r->type != R_X86_64_32S &&
	    r->type != R_X86_64_32)
		return 0;
	*a = r->target + (r->type == R_X86_64_PC32 ? 4 : 0);
	return 1;
}

/* pop and leave: an epilogue */
static int
x86_restores_frame(const struct insn *in)
{
	return in->id == X86_INS_POP || in->id == X86_INS_LEAVE;
}

static int
x86_open(struct cfgdis *d, char *err, size_t errlen)
{
	struct x86cs *x = xcalloc(1, sizeof(*x));

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &x->cs) != CS_ERR_OK) {
		snprintf(err, errlen, "capstone: cannot open x86-64");
		free(x);
		return -1;
	}
	cs_option(x->cs, CS_OPT_DETAIL, CS_OPT_ON);
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &x->csn) != CS_ERR_OK) {
		snprintf(err, errlen, "capstone: cannot open x86-64");
		cs_close(&x->cs);
		free(x);
		return -1;
	}
	if ((x->ci = cs_malloc(x->cs)) == NULL ||
	    (x->cin = cs_malloc(x->csn)) == NULL) {
		snprintf(err, errlen, "capstone: out of memory");
		if (x->ci != NULL)
			cs_free(x->ci, 1);
		cs_close(&x->cs);
		cs_close(&x->csn);
		free(x);
		return -1;
	}
	d->archd = x;
	return 0;
}

static void
x86_close(struct cfgdis *d)
{
	struct x86cs *x = d->archd;

	cs_free(x->ci, 1);
	cs_free(x->cin, 1);
	cs_close(&x->cs);
	cs_close(&x->csn);
	free(x);
	d->archd = NULL;
}

/* could the code of f refer to the inside of a function of m's set?
 * Every byte is read as the start of a direct call, jmp or jcc (rel8,
 * rel16, rel32) and as a ModRM byte of a PC-relative operand (with an
 * immediate of 0, 1, 2 or 4 bytes after it): what decoding finds is
 * among these */
static int
x86_may_refer(struct cfgdis *d, const struct bfunc *f,
    const struct cd_hitmap *m)
{
	/* what each byte may start: 1 rel32 call/jmp, 2 0f (jcc rel32),
	 * 4 rel8 branch, 8 66 (rel16 forms), 16 a PC-relative ModRM */
	static uint8_t cls[256];
	const struct functab *ft = d->ft;
	const uint8_t *p;
	uint64_t avail, a;
	size_t i, n;

	if (cls[0xe8] == 0) {
		unsigned c;

		for (c = 0; c < 256; c++)
			cls[c] = (uint8_t)((c == 0xe8 || c == 0xe9 ? 1 : 0) |
			    (c == 0x0f ? 2 : 0) |
			    (c == 0xeb || (c & 0xf0) == 0x70 ||
			    (c >= 0xe0 && c <= 0xe3) ? 4 : 0) |
			    (c == 0x66 ? 8 : 0) | ((c & 0xc7) == 0x05 ? 16 : 0));
	}
	if (m->bits == NULL || (p = cd_sec_bytes(d, f->addr, &avail)) == NULL)
		return 0;
	n = (size_t)(f->size < avail ? f->size : avail);
	for (i = 0; i < n; i++) {
		uint8_t k = cls[p[i]];

		if (k == 0)
			continue;
		a = f->addr + i;
		if ((k & 1) && i + 5 <= n && cd_hitmap_has(m, ft, a + 5 +
		    (uint64_t)(int64_t)(int32_t)ld32(p + i + 1, 0)))
			return 1;
		if ((k & 2) && i + 6 <= n && (p[i + 1] & 0xf0) == 0x80 &&
		    cd_hitmap_has(m, ft, a + 6 + (uint64_t)(int64_t)(int32_t)
		    ld32(p + i + 2, 0)))
			return 1;
		if ((k & 4) && i + 2 <= n && cd_hitmap_has(m, ft, a + 2 +
		    (uint64_t)(int64_t)(int8_t)p[i + 1]))
			return 1;
		if ((k & 8) && i + 4 <= n && (p[i + 1] == 0xe8 ||
		    p[i + 1] == 0xe9) && cd_hitmap_has(m, ft, a + 4 +
		    (uint64_t)(int64_t)(int16_t)ld16(p + i + 2, 0)))
			return 1;
		if ((k & 8) && i + 5 <= n && p[i + 1] == 0x0f &&
		    (p[i + 2] & 0xf0) == 0x80 && cd_hitmap_has(m, ft, a + 5 +
		    (uint64_t)(int64_t)(int16_t)ld16(p + i + 3, 0)))
			return 1;
		if ((k & 16) && i + 5 <= n) {
			/* an immediate of 0, 1, 2 or 4 bytes may follow */
			uint64_t t = a + 5 +
			    (uint64_t)(int64_t)(int32_t)ld32(p + i + 1, 0);

			if (cd_hitmap_near(m, t) && (cd_hitmap_has(m, ft, t) ||
			    cd_hitmap_has(m, ft, t + 1) ||
			    cd_hitmap_has(m, ft, t + 2) ||
			    cd_hitmap_has(m, ft, t + 4)))
				return 1;
		}
	}
	return 0;
}

/* cfgdis_insn_ref: by x86dec's table, else Capstone's operands */
static int
x86_insn_ref(struct cfgdis *d, const uint8_t *p, size_t left, uint64_t pc,
    struct cfg_iref *r)
{
	struct x86d x;
	uint64_t addr = pc;
	cs_x86 *cx;
	uint8_t j;

	if (x86d_decode(p, left, &x)) {
		if (x.mrip)
			r->mem = pc + x.len + (uint64_t)x.mdisp;
		if (x.kind == X86D_JCC || x.kind == X86D_JMP ||
		    x.kind == X86D_CALL) {
			r->isbranch = 1;
			r->branch = pc + x.len + (uint64_t)x.disp;
		}
		return x.len;
	}
	if (!cs_disasm_iter(CS(d), &p, &left, &addr, CI(d)))
		return 0;
	cx = &CI(d)->detail->x86;
	for (j = 0; j < cx->op_count; j++)
		if (cx->operands[j].type == X86_OP_MEM &&
		    cx->operands[j].mem.base == X86_REG_RIP)
			r->mem = pc + CI(d)->size +
			    (uint64_t)cx->operands[j].mem.disp;
	/* a direct branch or call */
	if ((cs_insn_group(CS(d), CI(d), CS_GRP_JUMP) ||
	    cs_insn_group(CS(d), CI(d), CS_GRP_CALL)) && cx->op_count == 1 &&
	    cx->operands[0].type == X86_OP_IMM) {
		r->isbranch = 1;
		r->branch = (uint64_t)cx->operands[0].imm;
	}
	return CI(d)->size;
}

const struct cfg_arch cfg_arch_x86_64 = {
	.name = "x86-64",
	.decoder = "Capstone",
	.hash_strings = hashsym_x86,
	.machine = EM_X86_64,
	.open = x86_open,
	.close = x86_close,
	.reloc_skip = x86_skip,
	.reloc_pcrel = x86_pcrel,
	.reloc_abs = x86_abs,
	.reloc_branch = x86_reloc_branch,
	.reloc_data_ref = x86_data_ref,
	.decode = decode,
	.pcref = slow_ripref,
	.detail = detail,
	.jump_table = x86_jump_table,
	.table_local = jt_local_ok,
	.restores_frame = x86_restores_frame,
	.valid_padding = valid_padding,
	.bytes_return = bytes_return,
	.may_refer = x86_may_refer,
	.insn_ref = x86_insn_ref,
};
