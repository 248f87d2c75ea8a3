/* See COPYING file for copyright and license details. */
/*
 * cfg.h: a function's basic blocks and their successors, whatever the
 * source: fdatawrite and yamlwrite build it by disassembly with BOLT 19's
 * rules (cfgdis.c; LLVM 19's BinaryFunction::disassemble and
 * buildCFG in bolt/lib/Core/BinaryFunction.cpp); bbmap from the
 * compiler's SHT_LLVM_BB_ADDR_MAP.  Blocks are in address order and
 * cover [0, size) of the function without gaps or overlaps, except that
 * a source may leave bytes in no block (BOLT's [Size, MaxSize) padding).
 * bbcfg.c (bbcfg.h) builds it from the map: there the compiler's padding
 * and, in a split function, the bytes between its parts are in no block,
 * addr is the lowest part's, and the entry block is the one flagged
 * CFG_ENTRY.
 */
#ifndef PROFPIPE_CFG_H
#define PROFPIPE_CFG_H

#include <stddef.h>
#include <stdint.h>

#include "llvmrel.h"

#define CFG_ENTRY	0x01u	/* an entry point (the first block, or a
				 * secondary entry) */
#define CFG_LPAD	0x02u	/* a landing pad */
#define CFG_ENDS_CALL	0x04u	/* the last instruction is a call */
#define CFG_ENDS_RET	0x08u	/* ... a return */
#define CFG_FALLS	0x10u	/* control can fall through to the next
				 * block (BOLT: a fall-through edge;
				 * bb-addr-map: CanFallThrough) */
#define CFG_ENDS_TAIL	0x20u	/* ... a tail call */
#define CFG_ENDS_INDIRECT 0x40u	/* ... an indirect branch (bb-addr-map:
				 * HasIndirectBranch) */
#define CFG_SUCCS_KNOWN	0x80u	/* the successors are all the source's
				 * (bb-addr-map: from the PGO analysis
				 * map's branch probabilities; without,
				 * only the fall-through is known) */
#define CFG_LAST_UNKNOWN 0x100u	/* the source does not know the last
				 * instruction: last is end (bb-addr-map) */

struct cfg_block {
	uint64_t	start, end;	/* offsets from the function's start */
	uint64_t	last;		/* offset of the last instruction */
	uint32_t	id;		/* the source's id: BOLT's layout index,
					 * bb-addr-map's block ID */
	uint32_t	flags;		/* CFG_* */
	uint32_t	succ, nsucc;	/* successors: cfg.succs[succ ...] */
	uint32_t	ninsns;		/* instructions (0 if the source does
					 * not know) */
};

/* a branch, call or return instruction (the instructions BOLT keeps an
 * offset for): what profile readers match branch sources and call sites
 * against.  Only cfgdis.c fills them; other sources leave sites NULL. */
#define CFG_SITE_CALL	1	/* a direct call */
#define CFG_SITE_ICALL	2	/* an indirect call */
#define CFG_SITE_JMP	3	/* a direct jump (tail: a tail call) */
#define CFG_SITE_IJMP	4	/* an indirect jump (tail: a tail call,
				 * else a jump table or unknown flow) */
#define CFG_SITE_JCC	5	/* a conditional jump (tail: a
				 * conditional tail call) */
#define CFG_SITE_RET	6
struct cfg_site {
	uint64_t	target;		/* direct ones: the target address */
	uint32_t	off;		/* from the function's start */
	uint8_t		kind;		/* CFG_SITE_* */
	uint8_t		tail;
	uint8_t		table;		/* IJMP: through a jump table (its
					 * targets are the block's taken
					 * successors); 2: a table whose
					 * pattern BOLT found again only for
					 * the function's one indirect jump
					 * and one table, the block's edges
					 * added anew after the fall-throughs
					 * (updateJumpTableSuccessors); not
					 * tail and not table: unknown control
					 * flow, whose successors BOLT adds
					 * after the fall-throughs */
};

/* a jump table a function dispatches through: its address and the
 * bytes of its entries (BOLT's JumpTable; cfgdis.c only) */
struct cfg_jt {
	uint64_t	addr, size;
};

struct cfg {
	uint64_t	 addr, size;	/* the function */
	struct cfg_block *blocks;
	size_t		 nblocks;
	uint32_t	*succs;		/* block indices */
	size_t		 nsuccs;
	int		 simple;	/* BOLT: the function has a usable CFG */
	int		 ignored;	/* BOLT does not even disassemble it
					 * (no blocks) */
	const char	*why;		/* why not simple, or NULL */
	int		 nocfg;		/* not simple, and BOLT has no graph
					 * for it either (it was made
					 * non-simple before buildCFG): BOLT's
					 * block count is 0 */
	struct cfg_site	*sites;		/* by offset; NULL if ignored */
	size_t		 nsites;
	uint64_t	*srcs;		/* by offset: the NOPs and each block's
					 * last instruction that is no NOP
					 * (cfgdis.c only; cfg_source_kept) */
	size_t		 nsrcs;
	struct cfg_jt	*jts;		/* by address (cfgdis.c only) */
	size_t		 njts;
};

/* the block holding offset off, or -1 (binary search) */
long	 cfg_block_at(const struct cfg *, uint64_t off);
/* the site at offset off, or NULL (binary search) */
const struct cfg_site *cfg_site_at(const struct cfg *, uint64_t off);
/* the first site at or after offset off (g->nsites: none): a block's
 * are those from its start to its end */
size_t	 cfg_site_from(const struct cfg *, uint64_t off);
/* does BOLT 19 take a branch from offset off as from its instruction
 * (DataReader::recordBranch: BinaryFunction::getInstructionAtOffset
 * finds it): a branch, call or return, a NOP, its block's last
 * instruction, or the last that is no NOP; a branch from any other
 * offset is dropped (cfgdis graphs only; hardware records branches
 * from branches, batmap writes some from other instructions) */
int	 cfg_source_kept(const struct cfg *, uint64_t off);
/* the ordinary form of batmap's translation (fdatawrite(1)): the input
 * instruction from which llvm-bolt reads a branch as it reads the
 * boltedcollection form's, or UINT64_MAX to take the branch as given.
 * cfg_pair_source: an intra-function branch of f (at faddr) from fo, an
 * instruction that is no branch, to the start of block "to" (a pair of
 * blocks BOLT's layout made adjacent): the first block's last
 * instruction.  cfg_tail_source: a branch from fo, no branch, to the
 * start of function taddr, where fo's block goes on to a successor that
 * only tail-calls it (a conditional tail call, or a double jump BOLT
 * removed): the jump or jcc that ends the block, else the tail call.
 * g: the function's graph, NULL or not simple: none */
uint64_t cfg_pair_source(const struct cfg *g, uint64_t faddr, uint64_t fo,
	    uint64_t to);
uint64_t cfg_tail_source(const struct cfg *g, uint64_t fo, uint64_t taddr);
/* is block j a successor of block i */
int	 cfg_is_succ(const struct cfg *, size_t i, size_t j);
void	 cfg_free(struct cfg *);

/*
 * cfgdis.c: graphs by disassembly, as perf2bolt-19 builds them.  What
 * BOLT learns from the whole binary (relocations of --emit-relocs builds,
 * entries from other functions, a BAT section: BOLT's BAT mode, where a
 * function with secondary entry points keeps its graph without
 * relocations) is read by cfgdis_open; a function's graph is built by
 * its first cfgdis_get and kept.
 */
struct elfobj;
struct functab;
struct cfgdis;
struct cfgdis_stats {
	uint64_t	simple, nonsimple, ignored;	/* graphs built */
	uint64_t	undecodable;	/* functions with bytes the
					 * decoder cannot decode (ignored) */
	uint64_t	jtcut;		/* jump tables another function's
					 * table ends where their next entry
					 * would still be read as one */
};
/* a += sign * b, field by field (sign 1 or -1) */
void	 cfgdis_stats_add(struct cfgdis_stats *a, const struct cfgdis_stats *b,
	    int sign);
struct cfgdis *cfgdis_open(struct elfobj *, const struct functab *,
	    char *err, size_t errlen);
/* ask for the graph of function i: before cfgdis_prepare, name every
 * function whose graph, entries or returns will be asked for (those a
 * profile touches), and only the facts those graphs take from the rest
 * of the binary are gathered; without relocations these are also the
 * functions BOLT's lite mode disassembles, whose code makes entry points
 * and whose jump tables end each other's.  A function asked for later
 * costs a pass over all the others, once. */
void	 cfgdis_need(struct cfgdis *, size_t i);
/* gather what the functions asked for (all, if none was) take from the
 * rest of the binary now (the first cfgdis_get does it otherwise) */
void	 cfgdis_prepare(struct cfgdis *);
/* the graph of function i of the table (never NULL for a valid i) */
const struct cfg *cfgdis_get(struct cfgdis *, size_t i);
/* ahead of the profile (a stage of a pipeline while it waits for its
 * input), in relocation mode: cfgdis_prepare_ahead gathers the facts of
 * all functions (what cfgdis_prepare does when none was asked for; the
 * graphs of relocation mode do not depend on which were), then
 * cfgdis_build_ahead builds function i's graph (NULL before).  The
 * counts of cfgdis_stats stay those of the graphs got and of the
 * functions asked for (cfgdis_need, cfgdis_get), as without them.
 * Without relocations (BOLT's lite mode: the graphs follow the profile)
 * nothing is gathered and no graph built ahead. */
void	 cfgdis_prepare_ahead(struct cfgdis *);
const struct cfg *cfgdis_build_ahead(struct cfgdis *, size_t i);
/* function i's graph for a look at it (another function's jump tables:
 * hashsym.c), built if need be with its counts kept apart, as
 * cfgdis_build_ahead's, until cfgdis_get takes it */
const struct cfg *cfgdis_peek(struct cfgdis *, size_t i);
/* cfgdis_prepare_ahead while a profile read from in ("-": the standard
 * input) is not there yet: in relocation mode, when in is a pipe or a
 * socket with nothing to read (the stage before is still at work: preagg
 * writes only at its end), the facts of all functions are gathered now
 * rather than those of the functions the profile touches once it comes;
 * 1 if they were */
int	 cfgdis_gather_waiting(struct cfgdis *, const char *in);
/* the number BOLT gives the secondary entry point at offset off of
 * function i (getEntryIDForSymbol: 1, 2, ... in address order among its
 * secondary entries, with or without a graph), or 0 if there is none */
uint32_t cfgdis_entry_id(struct cfgdis *, size_t i, uint64_t off);
/* a jump table BOLT creates: its address, the offset of the instruction
 * it is created at, PIC (4-byte entries) or not, and the size its data
 * object is given (0: none) */
struct cfgdis_jt {
	uint64_t	addr, site, size;
	int		pic;
};
/* the jump tables BOLT creates while it disassembles function i, in the
 * order it creates them: their number, the array in *v; in *frag the
 * entries of the sized ones in another fragment (secondary entry points
 * of that fragment: postProcessJumpTables); both malloc'd */
size_t	 cfgdis_tables(struct cfgdis *, size_t i, struct cfgdis_jt **v,
	    uint64_t **frag, size_t *nfrag);
/* does the instruction at address a decode as a return */
int	 cfgdis_is_return(struct cfgdis *, uint64_t a);
/* function i's graph if it is built, else NULL */
const struct cfg *cfgdis_built(const struct cfgdis *, size_t i);
/* free function i's graph (built again if asked for) */
void	 cfgdis_drop(struct cfgdis *, size_t i);
const struct cfgdis_stats *cfgdis_stats(const struct cfgdis *);
/* the bytes of the binary at address a and how many follow in its
 * section (*avail), or NULL if a is in no section with contents */
const uint8_t *cfgdis_bytes(struct cfgdis *, uint64_t a, uint64_t *avail);
/* a static relocation of a relocation-mode binary as BOLT reads it
 * (RewriteInstance::readRelocations: dynamic-relocated places, TLS and
 * undefined symbols left out) */
struct cfg_reloc {
	uint64_t	off;		/* where */
	uint64_t	target;		/* S + A */
	uint64_t	s;		/* the symbol's value (0: none) */
	int64_t		a;		/* the addend */
	uint32_t	type;
	uint8_t		pcrel, fromcode;
	uint8_t		secsym;		/* against a section symbol */
	uint8_t		global;		/* against a global or weak one */
};
/* the relocation at address off, or the first in [lo, hi); NULL if none */
const struct cfg_reloc *cfgdis_reloc_at(const struct cfgdis *, uint64_t off);
const struct cfg_reloc *cfgdis_reloc_in(const struct cfgdis *, uint64_t lo,
	    uint64_t hi);
/* the relocations in [lo, hi): how many, the first in *first */
size_t	 cfgdis_relocs_in(const struct cfgdis *, uint64_t lo, uint64_t hi,
	    const struct cfg_reloc **first);
/* AArch64: is a in a constant island (data in code, $d) of its
 * function; is there a linker veneer at a, in no function
 * (handleAArch64Veneer); 0 on other targets */
int	 cfgdis_in_island(struct cfgdis *, uint64_t a);
int	 cfgdis_veneer_at(struct cfgdis *, uint64_t a);
/* what an instruction refers to, as BinaryContext::handleAddressRef
 * and handleExternalReference see it (datatab.c) */
struct cfg_iref {
	uint64_t	mem;		/* a PC-relative memory operand's
					 * address, or 0 */
	uint64_t	branch;		/* a direct branch's or call's
					 * target, if isbranch */
	int		isbranch;
};
/* the instruction at p (left bytes, at address pc) of a function of d's
 * binary: its size and *r; 0 if it does not decode (or left is 0); -1
 * if the architecture has no such reading (its memory events are not
 * named) */
int	 cfgdis_insn_ref(struct cfgdis *, const uint8_t *p, size_t left,
	    uint64_t pc, struct cfg_iref *r);
/* "x86-64", "AArch64" */
const char *cfgdis_arch_name(const struct cfgdis *);
/* the decoder that says what an instruction is: "Capstone" (x86-64),
 * "LLVM 19" or "LLVM 22" (AArch64: the release's) */
const char *cfgdis_decoder(const struct cfgdis *);
/* the LLVM release the graphs are made for (llvmrel.h; 19 until set):
 * on AArch64, which words decode is its disassembler's answer where
 * a64dec cannot tell (a64cfg.c loads the release's bridge, llvmbr.h,
 * the first time) */
void	 cfgdis_set_llvm(struct cfgdis *, enum llvm_rel);
/* why a graph could not be made as BOLT makes it (the release's bridge
 * cannot be loaded), or NULL; the tool fails with it */
const char *cfgdis_error(const struct cfgdis *);
void	 cfgdis_close(struct cfgdis *);

#endif
