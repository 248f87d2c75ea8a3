/* See COPYING file for copyright and license details. */
/*
 * cfgint.h: the inside of cfgdis (cfg.h), shared by its files and the
 * architectures' decoders.  The graph builder, BOLT's rules and nothing
 * of any instruction set, is
 *
 *	cfgdis.c	the binary: sections, relocations, the scan of every
 *			function's branches, cfgdis_get
 *	cfgbuild.c	one function's graph (BinaryFunction::disassemble,
 *			buildCFG, postProcessIndirectBranches)
 *	cfgjt.c		jump tables (BinaryContext::analyzeJumpTable,
 *			populateJumpTables)
 *	cfglsda.c	landing pads from .gcc_except_table
 *
 * and each architecture is a struct cfg_arch of its own file, chosen by
 * e_machine in cfgdis_open: x86cfg.c (with x86class.c and x86dec.c) and
 * a64cfg.c (AArch64, with a64dec.c and, where a64dec cannot tell
 * whether a word decodes, the release's own disassembler: llvmbr.h).
 * AArch64 differs in a few places, hooks x86-64 leaves unset: its
 * decoding leaves out the constant islands the $d/$x mapping symbols
 * mark (gaps), BOLT 19 finds no jump table on it (every br is an unknown
 * indirect jump), its relocations are read by handleRelocation's
 * AArch64 rules (scan_relocs), island addresses are no references
 * (in_island), and a branch to a function's end that lands on a veneer
 * is none past it (veneer_at).
 */
#ifndef PROFPIPE_CFGINT_H
#define PROFPIPE_CFGINT_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"
#include "elfobj.h"
#include "functab.h"
#include "cfg.h"

/* what an instruction is to the graph builder (x86class.h's X86K_* have
 * the same values) */
enum {
	IK_OTHER, IK_NOP, IK_JCC, IK_JMP, IK_IJMP, IK_RET, IK_CALL, IK_ICALL,
	IK_TRAP, IK_HLT,
	IK_BAD		/* a branch BOLT does not support */
};

struct insn {
	uint32_t	off;
	uint8_t		size;
	uint8_t		kind;
	uint8_t		tail;		/* a (conditional) tail call */
	uint8_t		nopped;		/* jump past end, made a NOP */
	uint8_t		table;		/* an indirect jump through a table
					 * that keeps its edges */
	uint64_t	target;		/* direct branches and calls */
	/* what the jump-table patterns need (cfg_arch.detail fills
	 * them; register numbers are the decoder's) */
	uint16_t	id;		/* the decoder's instruction id
					 * (x86-64: Capstone's X86_INS_*) */
	uint16_t	dreg;		/* register written (op 0) */
	uint16_t	sreg;		/* register read (op 1), reg-reg */
	uint16_t	mbase, mindex;	/* memory operand */
	uint8_t		mscale, hasmem;
	uint8_t		mseg;		/* a segment override on it */
	uint8_t		detailed;	/* operands filled (cfg_arch.detail) */
	uint8_t		riplea;		/* a PC-relative address computed
					 * (x86 lea; AArch64 adr, adrp+add):
					 * target is that address */
	uint8_t		ripref;		/* a non-branch with a PC-relative
					 * memory operand (lea too): target
					 * is its address */
	uint8_t		slow;		/* decoded the slow way: ripref not
					 * known (cfg_arch.pcref finds it) */
	int64_t		mdisp;
};

/* a reference from code (function fi) to data at addr */
struct cref {
	uint64_t	addr;
	uint32_t	fi;
};

/* the functions of a set, by 64-byte chunks of the address space their
 * interiors (past their first byte) touch: a quick no for most
 * addresses (cfgdis.c's scan_branches) */
struct cd_hitmap {
	const uint8_t	*set;
	uint64_t	 lo, hi;	/* [lo, hi) */
	uint64_t	*bits;
};

/* a static relocation: struct cfg_reloc (cfg.h) */
#define reloc cfg_reloc

struct cfgdis {
	const struct functab *ft;
	struct elfobj	*eo;
	const struct cfg_arch *arch;	/* the decoder (cfgdis_open) */
	void		*archd;		/* its state */
	enum llvm_rel	 llvm;		/* cfgdis_set_llvm */
	char		 decoder[32];	/* cfgdis_decoder */
	char		*error;		/* cfgdis_error */
	const uint8_t	**secdata;	/* contents of each ft->secs, or NULL */
	const struct fsec *lastsec;	/* cd_sec_bytes' last section */
	/* relocation mode: static relocations, by offset */
	struct reloc	*rel;
	size_t		 nrel;
	/* per function: built graph, extra entries, referenced offsets */
	struct cfg	**g;
	uint64_t	**xent;		/* interprocedural entry addresses */
	size_t		*nxent, *capxent;
	uint64_t	**xref;		/* data-referenced offsets (labels) */
	size_t		*nxref, *capxref;
	uint64_t	**xlab;		/* offsets the function's own code
					 * names by a relocation: labels, no
					 * references (cfg_arch.scan_relocs) */
	size_t		*nxlab, *capxlab;
	uint8_t		*padrel;	/* relocations in the padding */
	uint8_t		*selfref;	/* code reference into itself */
	/* graphs built ahead (cfgdis_build_ahead): their counts, added to
	 * stats by their first cfgdis_get */
	struct cfgdis_stats *ahead;
	uint8_t		*isahead;
	/* gathered ahead (cfgdis_prepare_ahead), for all: per function, a
	 * decoder failure not counted yet (undec), and what the gathers of
	 * the functions asked for would have taken in by now (emdone,
	 * from the first cfgdis_get): the count is theirs */
	uint8_t		*undec, *emdone;
	int		 aheadgather;
	int		 scanned;	/* gather has run */
	/* the functions whose graphs the caller asked for (cfgdis_need),
	 * and those whose facts from the rest of the binary (entries,
	 * labels, split tables) are gathered: the work follows the
	 * profile, not the size of the binary */
	uint8_t		*need, *done;
	size_t		 nneed;
	/* without relocations: the tables of the functions gathered, by
	 * address (BOLT's lite mode disassembles only those) */
	struct cref	*ltabs;
	size_t		 nltabs, capltabs;
	uint64_t	 unreleased;	/* bytes of code the graphs built
					 * since the last elfobj_release
					 * read */
	int		 splitpass;	/* split_tables is running */
	int		 bat;		/* a BAT section: BOLT's BAT mode */
	struct insn	*scratch;	/* scan_branches' decoding */
	size_t		 capscratch;
	/* the working arrays of the last struct fbuild done, for the next
	 * (cd_fbuild_init, cd_fbuild_done): a graph's build allocates and
	 * frees no array of its own, most of the time */
	struct fbuild	*spare;
	/* BOLT's jump tables of the whole binary (BinaryContext::JumpTables),
	 * which bound each other: each function's tables, found on first
	 * use; in relocation mode the code's references to data by the
	 * address they name (where another function's table may begin);
	 * data symbols with a size (a BinaryData at a table bounds it) */
	uint64_t	**jt;
	uint32_t	*njt;
	uint8_t		*jtknown;
	struct cref	*cref;
	size_t		 ncref;
	int		 crefdone;
	uint64_t	*dsym;		/* address, size pairs by address */
	size_t		 ndsym;
	int		 dsymdone;
	struct cfgdis_stats stats;
};

/* the graph of one function being built */
struct fbuild {
	struct cfgdis	*d;
	const struct bfunc *f;
	long		 fi;
	struct insn	*in;
	size_t		 nin, capin;
	uint64_t	*labels;	/* offsets */
	size_t		 nlabels, caplabels;
	uint64_t	*entries;	/* offsets of secondary entries */
	size_t		 nentries, capentries;
	uint64_t	*lps;		/* landing pads */
	size_t		 nlps, caplps;
	/* taken edges: (from insn offset, to offset) */
	uint64_t	*edges;		/* pairs */
	size_t		 nedges, capedges;
	uint64_t	*tables;	/* jump table addresses in this function */
	size_t		 ntables, captables;
	uint64_t	*ltab;		/* those only a lea names */
	size_t		 nltab, capltab;
	uint64_t	 cut;		/* tables another function's ended
					 * (cfgdis_stats.jtcut) */
	uint64_t	*unknown;	/* offsets of unknown indirect jumps */
	size_t		 nunknown, capunknown;
	int		 ignored, nonsimple;
	/* in_fragment's decoding of a fragment (or parent) */
	struct insn	*frag;
	size_t		 nfrag, capfrag;
	long		 fragi;
	int		 fragok;
	/* jumps through a table: instruction index * 2 + pic; the
	 * targets of all tables (strict mode registers them as
	 * referenced offsets); writer_of looks no lower than scanlo */
	uint64_t	*jts, *reftg;
	size_t		 njts, capjts, nreftg, capreftg;
	long		 scanlo;
	/* the tables analyze_table accepted, with their sizes */
	struct cfg_jt	*jtv;
	size_t		 njtv, capjtv;
	/* cd_analyze_table's last table: its entries, as BOLT counts them
	 * (EntriesAsAddress, trimmed); with wantfrag, its entries in
	 * another fragment are added to fragent */
	size_t		 jtent;
	int		 wantfrag;
	uint64_t	*fragent;
	size_t		 nfragent, capfragent;
	/* successors (cfgbuild.c): each block's list, head and tail (sh:
	 * pairs, UINT32_MAX for none), of pairs in sl (target, next) */
	uint32_t	*sh, *sl;
	size_t		 capsh, nsl, capsl;
	uint64_t	*tmp;		/* keep_sources' offsets */
	size_t		 captmp;
};

enum { IB_UNKNOWN, IB_TAIL, IB_TABLE };	/* jump_table's answers */

/* an architecture's decoder: what the graph builder asks of the
 * instruction set */
struct hashsym;
struct llvmbr_block;
struct cfg_arch {
	const char	*name;
	const char	*decoder;	/* cfgdis_decoder (%s: the LLVM
					 * release) */
	/* BOLT's hash strings of a function (hashsym.h), NULL: none */
	uint64_t (*hash_strings)(struct hashsym *, struct llvmbr_block *);
	uint16_t	 machine;	/* EM_* */
	/* its state in d->archd; -1 with a message in err */
	int	(*open)(struct cfgdis *d, char *err, size_t errlen);
	void	(*close)(struct cfgdis *d);
	/* relocation types: those readRelocations skips, the PC-relative
	 * ones, the absolute pointers data holds to code */
	int	(*reloc_skip)(uint32_t type);
	int	(*reloc_pcrel)(uint32_t type);
	int	(*reloc_abs)(uint32_t type);
	/* a PC-relative relocation in code: 1 if it is a direct branch's
	 * or call's, with the address it reaches in *to */
	int	(*reloc_branch)(struct cfgdis *d, const struct reloc *r,
		    uint64_t *to);
	/* a relocation in code that names data: 1 and the address */
	int	(*reloc_data_ref)(const struct reloc *r, uint64_t *a);
	/* function fi's instructions into *out (of *capout, grown), *nout
	 * of them; 0, or -1 if BOLT would ignore the function (count: add
	 * an undecodable one to the statistics) */
	int	(*decode)(struct cfgdis *d, size_t fi, struct insn **out,
		    size_t *capout, size_t *nout, int count);
	/* the address a PC-relative memory operand of a slowly decoded
	 * instruction (size bytes at addr) refers to: 1 and *t, or 0 */
	int	(*pcref)(struct cfgdis *d, uint64_t addr, size_t size,
		    uint64_t *t);
	/* fill the operands of instruction k (insn.detailed) */
	void	(*detail)(struct fbuild *b, long k);
	/* processIndirectBranch for the indirect jump at k: IB_TABLE and
	 * the table's address (pic: entries relative to the table),
	 * IB_TAIL (a fixed branch), IB_UNKNOWN */
	int	(*jump_table)(struct fbuild *b, long k, uint64_t *tab,
		    int *pic);
	/* for a table only an address computation names: does the jump at
	 * k load its target within its block (else BOLT ignores it) */
	int	(*table_local)(struct fbuild *b, const struct cfg *g, long k);
	/* an instruction of a frame's epilogue (an unknown indirect jump
	 * after one is a tail call) */
	int	(*restores_frame)(const struct insn *in);
	/* hasValidCodePadding over [Size, MaxSize) */
	int	(*valid_padding)(struct fbuild *b);
	/* the bytes at a decode as a return */
	int	(*bytes_return)(struct cfgdis *d, uint64_t a);
	/* where AArch64 differs (NULL or 0 for x86-64): */
	/* read the static relocations at addresses a dynamic one patches
	 * too (RewriteInstance::handleRelocation skips those on x86 only) */
	int	 keep_dynrel;
	/* a relocation of type t against an undefined symbol is read (its
	 * S is 0): AArch64's GOT accesses, which handleRelocation keeps
	 * (ForceRelocation) */
	int	(*reloc_keep_undef)(uint32_t t);
	/* what the relocations tell each function (handleRelocation), in
	 * place of the reading of x86-64's types: entries, data-referenced
	 * offsets, labels its own code names (xlab) */
	void	(*scan_relocs)(struct cfgdis *d);
	/* is a in data in code (a constant island, of any function) */
	int	(*in_island)(struct cfgdis *d, uint64_t a);
	/* cfgdis_insn_ref (NULL: none) */
	int	(*insn_ref)(struct cfgdis *d, const uint8_t *p, size_t left,
		    uint64_t pc, struct cfg_iref *r);
	/* a PC-relative reference into its own code counts up to MaxSize
	 * (handleAddressRef's containsAddress(UseMaxSize)), not Size */
	int	 self_maxsize;
	/* does the code at a, a function's end, read as a linker's veneer
	 * (handleAArch64Veneer): a branch there is no jump past the end */
	int	(*veneer_at)(struct cfgdis *d, uint64_t a);
	/* the decoding leaves data in code out: a block ends where the next
	 * begins (the data before a block is its predecessor's), the last
	 * at Size, as BOLT sets each block's end offset */
	int	 gaps;
	/* could the code of f refer to the inside of a function of m's
	 * set (a direct branch or a PC-relative operand, read at every
	 * byte)?  0 lets scan_branches skip decoding f; NULL: decode all */
	int	(*may_refer)(struct cfgdis *d, const struct bfunc *f,
		    const struct cd_hitmap *m);
};

extern const struct cfg_arch cfg_arch_x86_64;	/* x86cfg.c */
extern const struct cfg_arch cfg_arch_aarch64;	/* a64cfg.c */

/* between cfgdis's files */
/* the facts the graphs of the functions asked for and not gathered yet
 * take from the rest of the binary (cfggather.c) */
void	 cd_gather(struct cfgdis *d);
const uint8_t * cd_sec_bytes(struct cfgdis *d, uint64_t a, uint64_t *avail);
void	 cd_push64(uint64_t **v, size_t *n, size_t *cap, uint64_t x);
int	 cd_hitmap_near(const struct cd_hitmap *m, uint64_t a);
int	 cd_hitmap_has(const struct cd_hitmap *m, const struct functab *ft,
	       uint64_t a);
const struct reloc * cd_reloc_at(const struct cfgdis *d, uint64_t off);
size_t	 cd_reloc_from(const struct cfgdis *d, uint64_t off);
const struct reloc * cd_reloc_next(const struct cfgdis *d, size_t *i,
	       uint64_t off);
long	 cd_insn_at(const struct fbuild *b, uint64_t off);
size_t	 cd_uniq(uint64_t *v, size_t n);
void	 cd_read_lsda(struct fbuild *b, uint64_t lsda);
int	 cd_data_section(const struct cfgdis *d, uint64_t a, const struct fsec **ps);
int	 cd_analyze_table(struct fbuild *b, uint64_t t, int pic, int final,
	       uint64_t **out, size_t *nout, size_t *capout);
int	 cd_find_tables(struct fbuild *b);
const struct bfunc * cd_func_past_end(const struct functab *ft, uint64_t a);
void	 cd_lite_tables(struct cfgdis *d, const uint8_t *set);
/* relocation mode: the references of code to data (d->cref), read once */
void	 cd_read_crefs(struct cfgdis *d);
/* the addresses of the tables function fi dispatches through, sorted */
const uint64_t *cd_func_tables(struct cfgdis *d, size_t fi, uint32_t *n);
struct cfg * cd_build(struct cfgdis *d, size_t fi);
void	 cd_fbuild_init(struct fbuild *b, struct cfgdis *d, size_t fi);
void	 cd_fbuild_done(struct fbuild *b);
void	 cd_fbuild_free_spare(struct cfgdis *d);
void	 cd_code_read(struct cfgdis *d, uint64_t size);

#endif
