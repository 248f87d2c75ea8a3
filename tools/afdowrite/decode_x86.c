/* See COPYING file for copyright and license details. */
/*
 * decode_x86.c: an x86-64 instruction's size and kind as llvm-profgen
 * reads them (ProfiledBinary::dissassembleSymbol: MCDisassembler for the
 * size, MCInstrDesc isCall, isReturn, isBranch, isUnconditionalBranch).
 * The table decoder x86dec takes the instructions compilers emit most;
 * Capstone the rest.  LLVM's X86 tables (X86InstrControl.td, X86InstrTSX.td):
 * isCall: call, lcall; isReturn: ret, lret, iret; isBranch: jmp, ljmp,
 * jcc, jcxz/jecxz/jrcxz, loop/loope/loopne, xbegin; isUnconditionalBranch:
 * a branch that is a barrier and not indirect, a direct jmp.
 */
#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

#include "afdowrite.h"
#include "x86dec.h"

struct x86dis {
	csh		 cs;
	cs_insn		*ci;
};

void *
x86dis_open(void)
{
	struct x86dis *d = xcalloc(1, sizeof(*d));

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &d->cs) != CS_ERR_OK) {
		free(d);
		return NULL;
	}
	d->ci = cs_malloc(d->cs);
	return d;
}

void
x86dis_close(void *arg)
{
	struct x86dis *d = arg;

	if (d == NULL)
		return;
	cs_free(d->ci, 1);
	cs_close(&d->cs);
	free(d);
}

/* a direct jmp: e9 or eb after prefixes */
static int
direct_jmp(const uint8_t *q, size_t n)
{
	size_t k;

	for (k = 0; k < n && (q[k] == 0x66 || q[k] == 0xf2 || q[k] == 0xf3 ||
	    q[k] == 0x2e || q[k] == 0x3e || (q[k] & 0xf0) == 0x40); k++)
		;
	return k < n && (q[k] == 0xe9 || q[k] == 0xeb);
}

static unsigned
capstone_kind(const cs_insn *ci)
{
	switch (ci->id) {
	case X86_INS_CALL: case X86_INS_LCALL:
		return CI_CALL | CI_UNCOND;
	case X86_INS_RET: case X86_INS_RETF: case X86_INS_RETFQ:
	case X86_INS_IRET: case X86_INS_IRETD: case X86_INS_IRETQ:
		return CI_RET | CI_UNCOND;
	case X86_INS_JMP:
		return CI_BRANCH | (direct_jmp(ci->bytes, ci->size) ?
		    CI_UNCOND : 0);
	case X86_INS_LJMP:
	case X86_INS_JCXZ: case X86_INS_JECXZ: case X86_INS_JRCXZ:
	case X86_INS_LOOP: case X86_INS_LOOPE: case X86_INS_LOOPNE:
	case X86_INS_XBEGIN:
	case X86_INS_JO: case X86_INS_JNO: case X86_INS_JB: case X86_INS_JAE:
	case X86_INS_JE: case X86_INS_JNE: case X86_INS_JBE: case X86_INS_JA:
	case X86_INS_JS: case X86_INS_JNS: case X86_INS_JP: case X86_INS_JNP:
	case X86_INS_JL: case X86_INS_JGE: case X86_INS_JLE: case X86_INS_JG:
		return CI_BRANCH;
	default:
		return 0;
	}
}

unsigned
x86dis_decode(void *arg, const uint8_t *p, size_t n, uint64_t a)
{
	struct x86dis *d = arg;
	struct x86d x;
	const uint8_t *q = p;
	size_t left = n;
	uint64_t addr = a;

	if (x86d_decode(p, n, &x)) {
		switch (x.kind) {
		case X86D_JCC:
			return x.len | CI_BRANCH;
		case X86D_JMP:
			return x.len | CI_BRANCH | CI_UNCOND;
		case X86D_CALL: case X86D_ICALL:
			return x.len | CI_CALL | CI_UNCOND;
		case X86D_RET:
			return x.len | CI_RET | CI_UNCOND;
		case X86D_IJMP:
			return x.len | CI_BRANCH;
		default:
			return x.len;
		}
	}
	if (!cs_disasm_iter(d->cs, &q, &left, &addr, d->ci))
		return 0;
	return (d->ci->size & CI_SIZE) | capstone_kind(d->ci);
}
