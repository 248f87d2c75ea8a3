/* See COPYING file for copyright and license details. */
/*
 * mcx86.h: the strings BOLT 19 hashes for x86-64 code, made by LLVM 19's
 * own MC layer (mcx86.cc, the one file of the project that includes
 * LLVM): its disassembler decodes an instruction into the MCInst BOLT's
 * disassembly holds (opcode, register numbers, immediates), its
 * instruction printer names the opcode and the mnemonic, and LLVM's
 * xxh3 and hash_16_bytes (and libstdc++'s std::hash) turn the strings
 * into the numbers perf2bolt-19 writes (bolt/lib/Core/HashUtilities.cpp:
 * hashBlock, hashBlockLoose, hashInstOperand; BinaryFunction::computeHash
 * and computeBlockHashes).
 *
 * What BOLT knows of the rest of the binary (which operand becomes a
 * symbol, the symbol's value, tail calls, a jump past the end) comes
 * from the caller: a resolver answers each operand BOLT's symbolizer
 * would see, flags say what else BOLT did to the instruction.
 *
 * Only the graph-independent part is here; the caller walks its blocks
 * in BOLT's layout order and blends the block hashes (it knows the
 * successors).  Nothing here keeps memory between functions but two
 * strings and a set.
 */
#ifndef PROFPIPE_MCX86_H
#define PROFPIPE_MCX86_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* an operand BOLT's disassembly may turn into symbol + addend */
#define MCX86_REF_OPERAND 1	/* an immediate or displacement of an
				 * instruction that is no branch or call
				 * (X86MCSymbolizer::tryAddingSymbolicOperand) */
#define MCX86_REF_TARGET 2	/* a direct branch's or call's target
				 * (replaceBranchTarget) */
#define MCX86_REF_MEM	3	/* the PC-relative memory operand of an
				 * indirect branch or call
				 * (handlePCRelOperand) */
#define MCX86_REF_DISP	4	/* the absolute displacement of an
				 * indirect branch's or call's memory
				 * operand (a jump table's, BOLT makes it
				 * the table's label) */
struct mcx86_ref {
	int		 kind;		/* MCX86_REF_* */
	int		 disp;		/* OPERAND: a memory operand's
					 * displacement */
	int		 ripdisp;	/* OPERAND: the displacement of a
					 * RIP-relative memory operand
					 * without index (value is the
					 * address it names) */
	uint64_t	 value;		/* the operand's value or the
					 * address */
	uint64_t	 addr;		/* the instruction's address */
	uint32_t	 size;		/* the instruction's size */
	uint32_t	 immoff;	/* OPERAND: the field's offset in the
					 * instruction and its size */
	uint32_t	 immsize;
};

/* the resolver's answer */
struct mcx86_sym {
	int		 sym;		/* 0: the operand stays a number (for
					 * TARGET and MEM: as if no symbol) */
	int		 hasval;	/* the symbol's value counts in the
					 * hash (hashSymbol: not a function's,
					 * not in a jump table, known) */
	uint64_t	 value;
	int64_t		 addend;	/* symbol + addend when non-zero */
	int		 nop;		/* TARGET: BOLT made the instruction
					 * a NOP (a jump past the end) */
};
typedef void (*mcx86_resolve)(void *arg, const struct mcx86_ref *,
	    struct mcx86_sym *);

/* what BOLT did to an instruction besides symbolizing */
#define MCX86_TAIL	0x1u	/* a tail call: convertJmpToTailCall */
#define MCX86_FIXED	0x2u	/* an indirect jump to a fixed target
				 * made a direct jump */

/* the hashes of one block */
struct mcx86_block {
	uint64_t	 instr;		/* of hashBlock with operands */
	uint64_t	 opcode;	/* of hashBlockLoose */
};

struct mcx86;

/* LLVM's x86-64 target; NULL with the message in err */
struct mcx86 *mcx86_open(char *err, size_t errlen);
void	 mcx86_close(struct mcx86 *);

/* a function's blocks are given in layout order: each block begins with
 * mcx86_block_begin, gets its instructions and ends with mcx86_block_end;
 * mcx86_func_end gives the function's hash (stdhash: std::hash, else
 * xxh3) and starts the next function */
void	 mcx86_block_begin(struct mcx86 *);
/* one instruction: the bytes at p (n of them) at address addr; its
 * size, or 0 if LLVM cannot decode them (the block's hashes then cover
 * the instructions before it) */
size_t	 mcx86_insn(struct mcx86 *, const uint8_t *p, size_t n,
	    uint64_t addr, unsigned flags, mcx86_resolve, void *arg);
void	 mcx86_block_end(struct mcx86 *, int stdhash, struct mcx86_block *);
uint64_t mcx86_func_end(struct mcx86 *, int stdhash);

/* llvm::hashing::detail::hash_16_bytes; llvm::hash_value of a uint64_t */
uint64_t mcx86_hash16(uint64_t low, uint64_t high);
uint64_t mcx86_hash_value(uint64_t);

#ifdef __cplusplus
}
#endif

#endif
