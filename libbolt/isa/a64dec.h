/* See COPYING file for copyright and license details. */
/*
 * a64dec.h: an AArch64 instruction word as BOLT 19's rules read it, from
 * its bits.  Every instruction is one 32-bit word, and the few kinds
 * BOLT tells apart (bolt/lib/Target/AArch64/AArch64MCPlusBuilder.cpp and
 * the MCInstrDesc flags of LLVM 19's AArch64 tables: isBranch,
 * isConditionalBranch, isIndirectBranch, isCall, isReturn, isTrap,
 * AArch64MCPlusBuilder::isNoop, hasPCRelOperand) have fixed encodings:
 *
 *   conditional branches  b.cond, bc.cond, cbz, cbnz, tbz, tbnz
 *   jump                  b
 *   indirect jumps        br, braa, brab, braaz, brabz
 *   calls                 bl; blr, blraa, blrab, blraaz, blrabz
 *   returns               ret, retaa, retab, retaasppc, retabsppc (label
 *                         and register forms), eret, eretaa, eretab, drps
 *   traps                 brk, udf (terminators under --terminal-trap)
 *   NOP                   hint #0 (no other hint)
 *
 * hlt, svc and the other exception-generating instructions are none of
 * these.  Whether a word decodes is a64d_valid's answer where it gives
 * one, else the release's disassembler's (llvmbr.h): a64d_decode
 * classifies any word as if it did.  Checked against LLVM 19's and 22's
 * MCDisassembler and MCInstrDesc over every 32-bit word
 * (tests/tools/a64dectest does so on real code and random words through
 * the bridge, a64chk.h; fuzz/fuzz_a64dec.c too).
 */
#ifndef PROFPIPE_A64DEC_H
#define PROFPIPE_A64DEC_H

#include <stdint.h>

enum {
	A64K_OTHER, A64K_NOP, A64K_JCC, A64K_JMP, A64K_IJMP, A64K_RET,
	A64K_CALL, A64K_ICALL, A64K_TRAP
};

struct a64d {
	uint8_t		kind;	/* A64K_* */
	uint8_t		pcref;	/* hasPCRelOperand outside the branches and
				 * calls: adr, a literal load (ldr, ldrsw,
				 * prfm, ldr of s, d, q), autiasppc and
				 * autibsppc, and the label forms of
				 * retaasppc and retabsppc: ref is the
				 * address BOLT evaluates (not adrp) */
	uint8_t		adrp;	/* adrp: ref is the page */
	uint8_t		rd;	/* adr, adrp, add (immediate): the register
				 * written; br, blr: the register read */
	uint8_t		addxi;	/* add xd, xn, #imm (ADDXri): rn is read,
				 * imm12 the immediate's low 12 bits */
	uint8_t		rn;
	uint16_t	imm12;
	uint64_t	target;	/* A64K_JCC, A64K_JMP, A64K_CALL: the
				 * target; else 0 */
	uint64_t	ref;	/* pcref, adrp: the address */
};

/* the word w at address pc */
void	 a64d_decode(uint32_t w, uint64_t pc, struct a64d *d);

/* does w decode (BinaryFunction::disassemble: LLVM's disassembler with
 * every feature, any status but Fail): 1 where every release's answer
 * is yes (a64valid.c: the classes compilers emit), -1 where a64dec
 * cannot tell: the release's disassembler must be asked (llvmbr_decode);
 * 0 (no release decodes it) is never answered today */
int	 a64d_valid(uint32_t w);

/* a little-endian word at p */
static inline uint32_t
a64d_word(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

#endif
