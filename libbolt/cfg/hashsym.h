/* See COPYING file for copyright and license details. */
/*
 * hashsym.h: BOLT's hash strings of a function's blocks, made through
 * the bridge (llvmbr.h), with what BOLT's disassembly knows of the rest
 * of the binary: an operand that names an address becomes a symbol and
 * an addend, and the hash takes the symbol's value unless it is a
 * function's or inside a jump table (bolt/lib/Core/HashUtilities.cpp:
 * hashSymbol; BinaryContext::handleAddressRef,
 * getBinaryDataContainingAddress; RewriteInstance::discoverFileObjects,
 * handleRelocation).  The symbols are BOLT's BinaryData: every symbol of
 * the symbol table in memory, an object holding the addresses inside
 * it, nested as BinaryContext::updateObjectNesting nests them.
 *
 * What an architecture's disassembly makes of its operands, and how its
 * blocks are read, is that architecture's (its struct cfg_arch's
 * hash_strings): x86/x86sym.c (X86MCSymbolizer and handleRelocation's
 * x86 rules) and a64/a64sym.c (AArch64's relocations, PC-relative
 * operands and veneers, constant islands).  The caller blends the block
 * hashes with the graph (it knows the successors).
 */
#ifndef PROFPIPE_HASHSYM_H
#define PROFPIPE_HASHSYM_H

#include <stddef.h>
#include <stdint.h>

#include "llvmbr.h"
#include "llvmrel.h"

struct boltbin;
struct cfgdis;
struct cfg;
struct cfg_jt;
struct bfunc;

/* a BinaryData of a data section (or an absolute symbol) */
struct hs_data {
	uint64_t	addr, size;
	long		parent;		/* index of the root holding it, -1 */
	int		sec;		/* index into ft->secs, -1: absolute */
};

struct hashsym {
	struct boltbin	*bin;
	struct cfgdis	*cd;
	struct llvmbr	*br;
	enum llvm_rel	 rel;		/* the release whose rules apply */
	int		 stdhash;	/* std::hash, not xxh3 */
	struct hs_data	*bd;		/* by address, one per address */
	size_t		 nbd;
	int		 bdread;
	/* the function being hashed, its graph and the jump tables of it
	 * and of its fragments or parent */
	const struct bfunc *f;
	const struct cfg *g;
	const struct cfg_jt *jt;
	size_t		 njt;
	uint64_t	 undecoded;	/* instructions LLVM could not decode */
};

/* does the binary's architecture have hashes (else they are 0) */
int	 hashsym_hashes(const struct cfgdis *);
/* the strings of hs->f's blocks on hs->g, in layout order, through the
 * bridge, into out[] (one per block); the function's hash */
uint64_t hashsym_strings(struct hashsym *, struct llvmbr_block *out);
/* the architectures' parts (their struct cfg_arch's hash_strings) */
uint64_t hashsym_x86(struct hashsym *, struct llvmbr_block *out);
uint64_t hashsym_a64(struct hashsym *, struct llvmbr_block *out);

/* release the BinaryData (the rest is the caller's) */
void	 hashsym_free(struct hashsym *);

/* a symbol with value v, into s: hashSymbol takes v unless a function
 * owns the symbol (func) or a jump table holds v (the function's, or
 * any other's of the binary) */
void	 hashsym_value(struct hashsym *, uint64_t v, int func,
	    struct llvmbr_sym *s);
/* getBinaryDataContainingAddress: the BinaryData holding a, or NULL */
const struct hs_data *hashsym_data(struct hashsym *, uint64_t a);
/* getJumpTableContainingAddress, over the function's tables (and its
 * fragments' or parent's); is a table at a */
int	 hashsym_in_table(const struct hashsym *, uint64_t a);
int	 hashsym_is_table(const struct hashsym *, uint64_t a);
/* the function whose [addr, addr + size) holds a (not its padding) */
const struct bfunc *hashsym_func_of(const struct hashsym *, uint64_t a);
/* is a in a code section */
int	 hashsym_is_code(const struct hashsym *, uint64_t a);

#endif
