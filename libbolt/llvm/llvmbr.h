/* See COPYING file for copyright and license details. */
/*
 * llvmbr.h: the one bridge to LLVM's MC layer, for the LLVM release a
 * pipeline is made for (llvmrel.h).  BOLT's hashes are made of its
 * release's MC opcode names, mnemonics and register numbers, and which
 * AArch64 words decode is its release's disassembler's answer, so they
 * come from that release's own MC layer: one C++ source (bridge*.cc)
 * built against every llvm-N-dev present into a shared object per
 * release (profpipe-llvmN.so, holding LLVM's MC libraries), loaded here
 * with dlopen when a tool first needs it.  Nothing else includes LLVM or
 * links it; a tool that never asks never maps it.
 *
 * A bridge is a handle the caller owns (no state outside it): opened
 * for one release and one architecture (EM_X86_64, EM_AARCH64), as
 * BOLT's BinaryContext sets up its MC layer for an ELF file of it.
 *
 * The hashes (bolt/lib/Core/HashUtilities.cpp: hashBlock, hashBlockLoose,
 * hashInstOperand, hashExpr; BinaryFunction::computeHash and
 * computeBlockHashes): a function's blocks are given in layout order,
 * each begun, its instructions given, and ended; the function's hash at
 * its end.  What BOLT's disassembly knows of the rest of the binary
 * (which operand became a symbol, the symbol's value, a jump past the
 * end) is asked of the caller's resolver, one question per operand BOLT
 * would have symbolized (LLVMBR_REF_*: the architecture's code answers
 * them, cfg/x86/x86sym.c and cfg/a64/a64sym.c).
 */
#ifndef PROFPIPE_LLVMBR_H
#define PROFPIPE_LLVMBR_H

#include <stddef.h>
#include <stdint.h>

#include "llvmrel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the questions: an operand BOLT's disassembly may make symbol + addend */
#define LLVMBR_REF_OPERAND 1	/* x86-64: an immediate or displacement of
				 * an instruction that is no branch or
				 * call (X86MCSymbolizer::
				 * tryAddingSymbolicOperand) */
#define LLVMBR_REF_TARGET 2	/* a direct branch's or call's target
				 * (replaceBranchTarget); the answer may
				 * be a NOP (a jump past the end) */
#define LLVMBR_REF_MEM	3	/* the PC-relative operand of an x86-64
				 * indirect branch or call (handlePCRel-
				 * Operand), of an AArch64 adr, adrp or
				 * literal load (replaceMemOperandDisp) */
#define LLVMBR_REF_DISP	4	/* x86-64: the absolute displacement of an
				 * indirect branch's or call's memory
				 * operand (a jump table's label) */
#define LLVMBR_REF_IMM	5	/* AArch64: the index-th immediate made an
				 * expression (replaceImmWithSymbolRef,
				 * each time the first immediate left): a
				 * relocation's, or a veneer's; asked
				 * from 0 until the answer has no symbol */
struct llvmbr_ref {
	int		 kind;		/* LLVMBR_REF_* */
	unsigned	 index;		/* IMM */
	int		 disp;		/* OPERAND: a memory operand's
					 * displacement */
	int		 ripdisp;	/* OPERAND: the displacement of a
					 * RIP-relative memory operand
					 * without index (value is the
					 * address it names) */
	uint64_t	 value;		/* x86-64: the operand's value, or
					 * the address (TARGET, MEM) */
	uint64_t	 addr;		/* the instruction's address */
	uint32_t	 size;		/* the instruction's size */
	uint32_t	 immoff;	/* OPERAND: the field's offset in the
					 * instruction and its size */
	uint32_t	 immsize;
};

/* the resolver's answer (zeroed before it is asked) */
struct llvmbr_sym {
	int		 sym;		/* 0: the operand stays as it is */
	int		 target;	/* AArch64: an expression of the
					 * target's own (getTargetExprFor)
					 * around the symbol */
	int		 hasval;	/* the symbol's value counts in the
					 * hash (hashSymbol: not a function's,
					 * not in a jump table, known) */
	uint64_t	 value;
	int64_t		 addend;	/* symbol + addend when non-zero */
	int		 nop;		/* TARGET: BOLT made the instruction
					 * a NOP (a jump past the end) */
};
typedef void (*llvmbr_resolve)(void *arg, const struct llvmbr_ref *,
	    struct llvmbr_sym *);

/* what BOLT did to an instruction besides symbolizing */
#define LLVMBR_TAIL	0x1u	/* a tail call: convertJmpToTailCall */
#define LLVMBR_FIXED	0x2u	/* x86-64: an indirect jump to a fixed
				 * target made a direct jump */

/* the hashes of one block */
struct llvmbr_block {
	uint64_t	 instr;		/* of hashBlock with operands */
	uint64_t	 opcode;	/* of hashBlockLoose */
};

struct llvmbr;

/*
 * The bridge of release rel for machine (EM_X86_64 or EM_AARCH64), or
 * NULL with the message in err: which package the release's bridge
 * needs when it is not installed.
 */
struct llvmbr *llvmbr_open(enum llvm_rel rel, unsigned machine, char *err,
	    size_t errlen);
void	 llvmbr_close(struct llvmbr *);
/* "LLVM 19.1.7": the release the bridge was built against */
const char *llvmbr_version(const struct llvmbr *);

/* does the release's disassembler decode the n bytes at p, at address
 * addr (BinaryFunction::disassemble: any status but Fail): their size,
 * or 0 */
size_t	 llvmbr_decode(struct llvmbr *, const uint8_t *p, size_t n,
	    uint64_t addr);
/* LLVM's text of that instruction (as its instruction printer writes
 * it, tabs included) in buf, or NULL when it does not decode */
const char *llvmbr_text(struct llvmbr *, const uint8_t *p, size_t n,
	    uint64_t addr, char *buf, size_t len);

void	 llvmbr_block_begin(struct llvmbr *);
/* one instruction: the bytes at p (n of them) at address addr; its
 * size, or 0 if LLVM cannot decode them (the block's hashes then cover
 * the instructions before it) */
size_t	 llvmbr_insn(struct llvmbr *, const uint8_t *p, size_t n,
	    uint64_t addr, unsigned flags, llvmbr_resolve, void *arg);
/* stdhash: std::hash instead of xxh3 (--hash-func=std-hash) */
void	 llvmbr_block_end(struct llvmbr *, int stdhash, struct llvmbr_block *);
uint64_t llvmbr_func_end(struct llvmbr *, int stdhash);

/* llvm::hashing::detail::hash_16_bytes; llvm::hash_value of a uint64_t
 * (the blend of BOLT's block hashes) */
uint64_t llvmbr_hash16(const struct llvmbr *, uint64_t low, uint64_t high);
uint64_t llvmbr_hash_value(const struct llvmbr *, uint64_t);

#ifdef __cplusplus
}
#endif

#endif
