/* See COPYING file for copyright and license details. */
/*
 * x86chk.c: x86dec against Capstone (x86chk.h).  The two views below
 * restate cfgdis.c's: cs_view its x86_classify (an instruction as
 * Capstone decodes it), x86d_view its x86_fast (the same instruction
 * from the table).  Where they part, cfgdis.c would build another graph
 * from the table than from Capstone.  A NOP's id is not compared: no
 * rule reads it, and x86_fast's xchg for 66 90 is Capstone 4.0.2's nop.
 */
#include <stdio.h>
#include <string.h>

#include "x86chk.h"
#include "x86dec.h"

/* cfgdis.c's kinds */
enum {
	C_OTHER, C_NOP, C_JCC, C_JMP, C_IJMP, C_RET, C_CALL, C_ICALL,
	C_TRAP, C_HLT, C_BAD
};

struct view {
	int		kind;
	unsigned	id;	/* X86_INS_INVALID: left to Capstone */
	int		riplea;
	uint64_t	target;	/* direct branches, riplea */
};

static const unsigned jcc_ids[16] = {
	X86_INS_JO, X86_INS_JNO, X86_INS_JB, X86_INS_JAE, X86_INS_JE,
	X86_INS_JNE, X86_INS_JBE, X86_INS_JA, X86_INS_JS, X86_INS_JNS,
	X86_INS_JP, X86_INS_JNP, X86_INS_JL, X86_INS_JGE, X86_INS_JLE,
	X86_INS_JG
};

static int64_t
le32(const uint8_t *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
	    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/* x86_rel: a direct branch's displacement, read from its encoding */
static int
rel(const uint8_t *q, size_t n, int64_t *disp)
{
	size_t k;

	for (k = 0; k < n && (q[k] == 0x66 || q[k] == 0xf2 || q[k] == 0xf3 ||
	    q[k] == 0x2e || q[k] == 0x3e); k++)
		;
	if (k + 5 == n && (q[k] == 0xe8 || q[k] == 0xe9))
		*disp = le32(q + k + 1);
	else if (k + 6 == n && q[k] == 0x0f && (q[k + 1] & 0xf0) == 0x80)
		*disp = le32(q + k + 2);
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

/* x86_classify */
static void
cs_view(const cs_insn *ci, struct view *v)
{
	const uint8_t *q = ci->bytes;
	size_t n = ci->size, k = 0;
	uint64_t next = ci->address + ci->size;
	int64_t disp = 0;
	int r = rel(q, n, &disp);

	memset(v, 0, sizeof(*v));
	v->id = ci->id;
	v->kind = C_OTHER;
	if (ci->id == X86_INS_LEA) {
		while (k < n && (q[k] == 0x66 || q[k] == 0x67))
			k++;
		if (k < n && (q[k] & 0xf0) == 0x40)
			k++;
		if (k + 6 == n && q[k] == 0x8d && (q[k + 1] & 0xc7) == 0x05) {
			v->riplea = 1;
			v->target = next + (uint64_t)le32(q + k + 2);
		}
		return;
	}
	if (ci->id == X86_INS_NOP || (n == 2 && q[0] == 0x66 && q[1] == 0x90)) {
		v->kind = C_NOP;
		return;
	}
	switch (ci->id) {
	case X86_INS_JCXZ: case X86_INS_JECXZ: case X86_INS_JRCXZ:
	case X86_INS_LOOP: case X86_INS_LOOPE: case X86_INS_LOOPNE:
		v->kind = C_BAD;
		return;
	case X86_INS_RET: case X86_INS_RETF: case X86_INS_RETFQ:
	case X86_INS_IRET: case X86_INS_IRETD: case X86_INS_IRETQ:
		v->kind = C_RET;
		return;
	case X86_INS_UD2:
		v->kind = C_TRAP;
		return;
	case X86_INS_XBEGIN:
		if (n == 6 && q[0] == 0xc7 && q[1] == 0xf8) {
			v->kind = C_JCC;
			v->target = next + (uint64_t)le32(q + 2);
		}
		return;
	case X86_INS_HLT:
		v->kind = C_HLT;
		return;
	case X86_INS_JMP:
		v->kind = r ? C_JMP : C_IJMP;
		break;
	case X86_INS_CALL:
		v->kind = r ? C_CALL : C_ICALL;
		break;
	default:
		if (is_jcc(ci->id) && r)
			v->kind = C_JCC;
		else
			return;
	}
	if (r)
		v->target = next + (uint64_t)disp;
}

/* x86_fast */
static void
x86d_view(const struct x86d *x, const uint8_t *p, uint64_t addr,
    struct view *v)
{
	uint64_t next = addr + x->len;

	memset(v, 0, sizeof(*v));
	v->kind = C_OTHER;
	v->id = X86_INS_INVALID;
	switch (x->kind) {
	case X86D_OTHER:
		break;
	case X86D_NOP:
		v->kind = C_NOP;
		v->id = x->len == 2 && p[0] == 0x66 ? X86_INS_XCHG : X86_INS_NOP;
		break;
	case X86D_JCC:
		v->kind = C_JCC;
		v->id = jcc_ids[x->cc & 15];
		v->target = next + (uint64_t)x->disp;
		break;
	case X86D_JMP:
		v->kind = C_JMP;
		v->id = X86_INS_JMP;
		v->target = next + (uint64_t)x->disp;
		break;
	case X86D_CALL:
		v->kind = C_CALL;
		v->id = X86_INS_CALL;
		v->target = next + (uint64_t)x->disp;
		break;
	case X86D_RET:
		v->kind = C_RET;
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
		v->kind = C_ICALL;
		v->id = X86_INS_CALL;
		break;
	case X86D_IJMP:
		v->kind = C_IJMP;
		v->id = X86_INS_JMP;
		break;
	default:
		v->kind = -1;
	}
}

/* Capstone's own operands agree with the encoding cfgdis reads (a check
 * of the views above as much as of the table) */
static int
cs_operands_agree(const cs_insn *ci, const struct view *v)
{
	const cs_x86 *x = &ci->detail->x86;

	if (v->kind == C_JCC || v->kind == C_JMP || v->kind == C_CALL)
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

int
x86chk(csh cs, cs_insn *ci, const uint8_t *p, size_t n, uint64_t addr,
    size_t *cslen, char *why, size_t whylen)
{
	struct x86d x;
	struct view a, b;
	const uint8_t *q = p;
	size_t left = n;
	uint64_t a0 = addr;
	int known = x86d_decode(p, n, &x), ok;
	const char *what = NULL;

	ok = cs_disasm_iter(cs, &q, &left, &a0, ci);
	*cslen = ok ? ci->size : 0;
	if (!known)
		return 0;
	if (!ok) {
		snprintf(why, whylen, "length %u, Capstone cannot decode it",
		    x.len);
		return -1;
	}
	x86d_view(&x, p, addr, &a);
	cs_view(ci, &b);
	if (x.len != ci->size)
		what = "length";
	else if (a.kind != b.kind)
		what = "kind";
	else if (a.id != X86_INS_INVALID && a.id != b.id && a.kind != C_NOP)
		what = "Capstone id";
	else if (a.riplea != b.riplea)
		what = "PC-relative lea";
	else if ((a.riplea || a.kind == C_JCC || a.kind == C_JMP ||
	    a.kind == C_CALL) && a.target != b.target)
		what = "target";
	else if (!cs_operands_agree(ci, &b))
		what = "Capstone's operands";
	if (what == NULL)
		return 1;
	snprintf(why, whylen, "%s: length %u kind %d id %u target 0x%llx, "
	    "Capstone %u %d %u 0x%llx (%s %s)", what, x.len, a.kind, a.id,
	    (unsigned long long)a.target, ci->size, b.kind, b.id,
	    (unsigned long long)b.target, ci->mnemonic, ci->op_str);
	return -1;
}
