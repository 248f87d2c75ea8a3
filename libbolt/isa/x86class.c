/* See COPYING file for copyright and license details. */
/*
 * x86class.c: an instruction as cfgdis.c's rules read it, from Capstone or
 * from x86dec's table, and the check that the two agree (x86class.h).
 * A NOP's id is not compared: no rule reads it, and the table's xchg for
 * 66 90 is Capstone 4.0.2's nop.
 */
#include <stdio.h>
#include <string.h>

#include "util.h"
#include "x86class.h"
#include "x86dec.h"

static const uint16_t jcc_ids[16] = {
	X86_INS_JO, X86_INS_JNO, X86_INS_JB, X86_INS_JAE, X86_INS_JE,
	X86_INS_JNE, X86_INS_JBE, X86_INS_JA, X86_INS_JS, X86_INS_JNS,
	X86_INS_JP, X86_INS_JNP, X86_INS_JL, X86_INS_JGE, X86_INS_JLE,
	X86_INS_JG
};

static int64_t
le32s(const uint8_t *p)
{
	return (int32_t)ld32(p, 0);
}

/* a direct branch's or call's displacement from its encoding: 1 and *disp
 * for e8/e9/eb/7x/0f 8x after prefixes, else 0 */
static int
rel(const uint8_t *q, size_t n, int64_t *disp)
{
	size_t k;

	for (k = 0; k < n && (q[k] == 0x66 || q[k] == 0xf2 || q[k] == 0xf3 ||
	    q[k] == 0x2e || q[k] == 0x3e); k++)
		;
	if (k + 5 == n && (q[k] == 0xe8 || q[k] == 0xe9))
		*disp = le32s(q + k + 1);
	else if (k + 6 == n && q[k] == 0x0f && (q[k + 1] & 0xf0) == 0x80)
		*disp = le32s(q + k + 2);
	else if (k + 2 == n && (q[k] == 0xeb || (q[k] & 0xf0) == 0x70))
		*disp = (int8_t)q[k + 1];
	else
		return 0;
	return 1;
}

static int
is_jcc(unsigned id)
{
	int k;

	for (k = 0; k < 16; k++)
		if (id == jcc_ids[k])
			return 1;
	return 0;
}

void
x86k_capstone(const cs_insn *ci, struct x86k *v)
{
	const uint8_t *q = ci->bytes;
	size_t n = ci->size, k = 0;
	uint64_t next = ci->address + ci->size;
	int64_t disp = 0;
	int r = rel(q, n, &disp);

	memset(v, 0, sizeof(*v));
	v->id = (uint16_t)ci->id;
	v->kind = X86K_OTHER;
	if (ci->id == X86_INS_LEA) {
		/* [prefixes] [REX] 8d modrm(00 reg 101) disp32 */
		while (k < n && (q[k] == 0x66 || q[k] == 0x67))
			k++;
		if (k < n && (q[k] & 0xf0) == 0x40)
			k++;
		if (k + 6 == n && q[k] == 0x8d && (q[k + 1] & 0xc7) == 0x05) {
			v->riplea = 1;
			v->target = next + (uint64_t)le32s(q + k + 2);
		}
		return;
	}
	/* 66 90 is LLVM's NOOPW, Capstone's xchg %ax,%ax */
	if (ci->id == X86_INS_NOP || (n == 2 && q[0] == 0x66 && q[1] == 0x90)) {
		v->kind = X86K_NOP;
		return;
	}
	switch (ci->id) {
	case X86_INS_JCXZ: case X86_INS_JECXZ: case X86_INS_JRCXZ:
	case X86_INS_LOOP: case X86_INS_LOOPE: case X86_INS_LOOPNE:
		v->kind = X86K_BAD;	/* isUnsupportedBranch */
		return;
	case X86_INS_RET: case X86_INS_RETF: case X86_INS_RETFQ:
	case X86_INS_IRET: case X86_INS_IRETD: case X86_INS_IRETQ:
		v->kind = X86K_RET;
		return;
	case X86_INS_UD2:
		v->kind = X86K_TRAP;
		return;
	case X86_INS_XBEGIN:
		/* LLVM: a conditional branch to the abort handler */
		if (n == 6 && q[0] == 0xc7 && q[1] == 0xf8) {
			v->kind = X86K_JCC;
			v->target = next + (uint64_t)le32s(q + 2);
		}
		return;
	case X86_INS_HLT:
		v->kind = X86K_HLT;
		return;
	case X86_INS_JMP:
		v->kind = r ? X86K_JMP : X86K_IJMP;
		break;
	case X86_INS_CALL:
		v->kind = r ? X86K_CALL : X86K_ICALL;
		break;
	default:
		if (is_jcc(ci->id) && r)
			v->kind = X86K_JCC;
		else
			return;
	}
	if (r)
		v->target = next + (uint64_t)disp;
}

int
x86k_table(const struct x86d *x, const uint8_t *p, uint64_t addr,
    struct x86k *v)
{
	uint64_t next = addr + x->len;

	memset(v, 0, sizeof(*v));
	v->kind = X86K_OTHER;
	v->id = X86_INS_INVALID;
	switch (x->kind) {
	case X86D_OTHER:
		break;
	case X86D_NOP:
		v->kind = X86K_NOP;
		v->id = x->len == 2 && p[0] == 0x66 ? X86_INS_XCHG : X86_INS_NOP;
		break;
	case X86D_JCC:
		v->kind = X86K_JCC;
		v->id = jcc_ids[x->cc & 15];
		v->target = next + (uint64_t)x->disp;
		break;
	case X86D_JMP:
		v->kind = X86K_JMP;
		v->id = X86_INS_JMP;
		v->target = next + (uint64_t)x->disp;
		break;
	case X86D_CALL:
		v->kind = X86K_CALL;
		v->id = X86_INS_CALL;
		v->target = next + (uint64_t)x->disp;
		break;
	case X86D_RET:
		v->kind = X86K_RET;
		v->id = X86_INS_RET;
		break;
	case X86D_LEA:
		v->id = X86_INS_LEA;
		if (x->mrip) {
			v->riplea = 1;
			v->target = next + (uint64_t)x->mdisp;
		}
		break;
	case X86D_POP:
		v->id = X86_INS_POP;
		break;
	case X86D_LEAVE:
		v->id = X86_INS_LEAVE;
		break;
	case X86D_ICALL:
		v->kind = X86K_ICALL;
		v->id = X86_INS_CALL;
		break;
	case X86D_IJMP:
		v->kind = X86K_IJMP;
		v->id = X86_INS_JMP;
		break;
	default:
		return 0;
	}
	return 1;
}

/* Capstone's own operands agree with the encoding cfgdis reads (a check
 * of x86k_capstone as much as of the table) */
static int
cs_operands_agree(const cs_insn *ci, const struct x86k *v)
{
	const cs_x86 *x = &ci->detail->x86;

	if (v->kind == X86K_JCC || v->kind == X86K_JMP || v->kind == X86K_CALL)
		return x->op_count == 1 && x->operands[0].type == X86_OP_IMM &&
		    (uint64_t)x->operands[0].imm == v->target;
	if (v->riplea)
		return x->op_count == 2 && x->operands[1].type == X86_OP_MEM &&
		    x->operands[1].mem.base == X86_REG_RIP &&
		    x->operands[1].mem.index == X86_REG_INVALID &&
		    ci->address + ci->size +
		    (uint64_t)x->operands[1].mem.disp == v->target;
	return 1;
}

/* the general-purpose registers by their encoding's numbers (x86d_writes):
 * the 64-bit register, then its 32-, 16- and 8-bit parts */
static const uint16_t gpr[16][5] = {
	{ X86_REG_RAX, X86_REG_EAX, X86_REG_AX, X86_REG_AL, X86_REG_AH },
	{ X86_REG_RCX, X86_REG_ECX, X86_REG_CX, X86_REG_CL, X86_REG_CH },
	{ X86_REG_RDX, X86_REG_EDX, X86_REG_DX, X86_REG_DL, X86_REG_DH },
	{ X86_REG_RBX, X86_REG_EBX, X86_REG_BX, X86_REG_BL, X86_REG_BH },
	{ X86_REG_RSP, X86_REG_ESP, X86_REG_SP, X86_REG_SPL, 0 },
	{ X86_REG_RBP, X86_REG_EBP, X86_REG_BP, X86_REG_BPL, 0 },
	{ X86_REG_RSI, X86_REG_ESI, X86_REG_SI, X86_REG_SIL, 0 },
	{ X86_REG_RDI, X86_REG_EDI, X86_REG_DI, X86_REG_DIL, 0 },
	{ X86_REG_R8, X86_REG_R8D, X86_REG_R8W, X86_REG_R8B, 0 },
	{ X86_REG_R9, X86_REG_R9D, X86_REG_R9W, X86_REG_R9B, 0 },
	{ X86_REG_R10, X86_REG_R10D, X86_REG_R10W, X86_REG_R10B, 0 },
	{ X86_REG_R11, X86_REG_R11D, X86_REG_R11W, X86_REG_R11B, 0 },
	{ X86_REG_R12, X86_REG_R12D, X86_REG_R12W, X86_REG_R12B, 0 },
	{ X86_REG_R13, X86_REG_R13D, X86_REG_R13W, X86_REG_R13B, 0 },
	{ X86_REG_R14, X86_REG_R14D, X86_REG_R14W, X86_REG_R14B, 0 },
	{ X86_REG_R15, X86_REG_R15D, X86_REG_R15W, X86_REG_R15B, 0 },
};

int
x86k_gpr(unsigned r)
{
	static int8_t map[X86_REG_ENDING];
	static int ready;
	size_t i, k;

	if (!ready) {
		for (i = 0; i < X86_REG_ENDING; i++)
			map[i] = -1;
		for (i = 0; i < 16; i++)
			for (k = 0; k < 5; k++)
				if (gpr[i][k] != 0)
					map[gpr[i][k]] = (int8_t)i;
		ready = 1;
	}
	return r < X86_REG_ENDING ? map[r] : -1;
}

unsigned
x86k_gpr64(unsigned r)
{
	int g = x86k_gpr(r);

	return g >= 0 ? gpr[g][0] : 0;
}

int
x86k_cs_writes(csh cs, const cs_insn *ci, uint16_t *mask)
{
	cs_regs rr, ww;
	uint8_t nr = 0, nw = 0, k;
	int g;

	*mask = 0;
	if (cs_regs_access(cs, ci, rr, &nr, ww, &nw) != CS_ERR_OK)
		return 0;
	for (k = 0; k < nw; k++)
		if ((g = x86k_gpr(ww[k])) >= 0)
			*mask |= (uint16_t)(1u << g);
	return 1;
}

int
x86chk(csh cs, cs_insn *ci, const uint8_t *p, size_t n, uint64_t addr,
    size_t *cslen, char *why, size_t whylen)
{
	struct x86d x;
	struct x86k a, b;
	const uint8_t *q = p;
	size_t left = n;
	uint64_t a0 = addr;
	int known, ok;
	const char *what = NULL;
	uint16_t wt = 0, wc = 0;

	known = x86d_decode(p, n, &x) && x86k_table(&x, p, addr, &a);

	ok = cs_disasm_iter(cs, &q, &left, &a0, ci);
	*cslen = ok ? ci->size : 0;
	if (!known)
		return 0;
	if (!ok) {
		snprintf(why, whylen, "length %u, Capstone cannot decode it",
		    x.len);
		return -1;
	}
	x86k_capstone(ci, &b);
	if (x.len != ci->size)
		what = "length";
	else if (a.kind != b.kind)
		what = "kind";
	else if (a.id != X86_INS_INVALID && a.id != b.id && a.kind != X86K_NOP)
		what = "Capstone id";
	else if (a.riplea != b.riplea)
		what = "PC-relative lea";
	else if ((a.riplea || a.kind == X86K_JCC || a.kind == X86K_JMP ||
	    a.kind == X86K_CALL) && a.target != b.target)
		what = "target";
	else if (!cs_operands_agree(ci, &b))
		what = "Capstone's operands";
	else if (x86d_writes(p, &x, &wt) &&
	    (!x86k_cs_writes(cs, ci, &wc) || wt != wc)) {
		snprintf(why, whylen, "registers written: 0x%04x, Capstone "
		    "0x%04x (%s %s)", wt, wc, ci->mnemonic, ci->op_str);
		return -1;
	}
	if (what == NULL)
		return 1;
	snprintf(why, whylen, "%s: length %u kind %d id %u target 0x%llx, "
	    "Capstone %u %d %u 0x%llx (%s %s)", what, x.len, a.kind, a.id,
	    (unsigned long long)a.target, ci->size, b.kind, b.id,
	    (unsigned long long)b.target, ci->mnemonic, ci->op_str);
	return -1;
}
