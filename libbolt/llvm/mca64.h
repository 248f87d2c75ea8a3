/* See COPYING file for copyright and license details. */
/*
 * mca64.h: the strings BOLT 19 hashes for AArch64 code, made by LLVM
 * 19's own MC layer (the AArch64 part of mcx86.cc, the one bridge): its
 * disassembler decodes a word into the MCInst BOLT's disassembly holds,
 * its instruction printer names the opcode and the mnemonic, and LLVM's
 * xxh3 (or libstdc++'s std::hash) turns the strings into numbers
 * (bolt/lib/Core/HashUtilities.cpp: hashBlock, hashBlockLoose,
 * hashInstOperand, hashExpr).
 *
 * What BOLT's disassembly did to the instruction (BinaryFunction::
 * disassemble with AArch64MCPlusBuilder) comes from the caller as a
 * plan: the symbol a direct branch's target operand became
 * (replaceBranchTarget) or the NOP a jump past the end became
 * (createNoop); the immediates relocations, or a linker veneer's
 * target, made expressions of (replaceImmWithSymbolRef: the first
 * immediate operand left, each time); the symbol the PC-relative
 * operand of an adr or a literal load became (handlePCRelOperand,
 * replaceMemOperandDisp).  An expression AArch64MCPlusBuilder::
 * getTargetExprFor wraps for the target (adr, adrp, the :lo12: and
 * movw relocations) is an MCExpr::Target, which hashExpr hashes to
 * nothing; any other is the symbol's value (hashSymbol: unless a
 * function's, or unknown) and its addend.
 */
#ifndef PROFPIPE_MCA64_H
#define PROFPIPE_MCA64_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* an expression an operand became */
struct mca64_sym {
	int		 target;	/* an AArch64MCExpr: hashed as nothing */
	int		 hasval;	/* else: the symbol's value counts */
	uint64_t	 value;
	int64_t		 addend;	/* symbol + addend when non-zero */
};

#define MCA64_TAIL	0x1u	/* a tail call (convertJmpToTailCall) */
#define MCA64_NOP	0x2u	/* a jump past the end, made a NOP */
#define MCA64_BRANCH	0x4u	/* br: the direct branch's target */
#define MCA64_PCREL	0x8u	/* pcrel: the PC-relative operand */
#define MCA64_MAXIMM	4

struct mca64_plan {
	unsigned	 flags;
	struct mca64_sym br, pcrel;
	int		 nimm;		/* immediates made expressions, in
					 * order */
	struct mca64_sym imm[MCA64_MAXIMM];
};

/* the hashes of one block */
struct mca64_block {
	uint64_t	 instr;		/* of hashBlock with operands */
	uint64_t	 opcode;	/* of hashBlockLoose */
};

struct mca64;

/* LLVM's AArch64 target; NULL with the message in err */
struct mca64 *mca64_open(char *err, size_t errlen);
void	 mca64_close(struct mca64 *);

/* as mcx86.h: blocks in layout order, each begun and ended, the
 * function's hash at its end */
void	 mca64_block_begin(struct mca64 *);
/* one instruction word at addr; 0 if LLVM cannot decode it */
int	 mca64_insn(struct mca64 *, uint32_t word, uint64_t addr,
	    const struct mca64_plan *);
void	 mca64_block_end(struct mca64 *, int stdhash, struct mca64_block *);
uint64_t mca64_func_end(struct mca64 *, int stdhash);

#ifdef __cplusplus
}
#endif

#endif
