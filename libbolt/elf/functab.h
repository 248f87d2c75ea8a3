/* See COPYING file for copyright and license details. */
/*
 * functab.h: the functions of an ELF binary as BOLT 19 sees them
 * (RewriteInstance::discoverFileObjects and adjustFunctionBoundaries in
 * LLVM 19's bolt/lib/Rewrite/RewriteInstance.cpp; the fdata names of
 * fdatawrite(1)):
 * symbol-table functions with BOLT's sizes (Size and MaxSize), PLT
 * entries, aliases folded into one function, .cold fragments as
 * functions of their own, code known only from .eh_frame
 * (__BOLT_FDE_FUNCat<hex>), and the names BOLT writes in fdata.
 * Lookup by address uses MaxSize, as DataAggregator does.
 */
#ifndef PROFPIPE_FUNCTAB_H
#define PROFPIPE_FUNCTAB_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"
#include "strtab.h"
#include "elfobj.h"
#include "addrix.h"

#define BF_LOCAL	0x01u	/* its name is a local symbol's (name/N) */
#define BF_FRAGMENT	0x02u	/* a .cold fragment; parent says of what */
#define BF_FDE		0x04u	/* known only from .eh_frame */
#define BF_PLT		0x08u	/* a PLT entry (name@PLT) */
#define BF_ZEROSIZE	0x10u	/* symbol size 0: Size was set to MaxSize */
#define BF_PSEUDO	0x20u	/* __BOLT_PSEUDO_.plt*: a PLT section's head */
#define BF_NONSIMPLE	0x40u	/* discovery already made it non-simple (an
				 * FDE conflict, a symbol inside it) */

struct bfunc {
	uint64_t	addr;		/* link-time address */
	uint64_t	size;		/* BOLT's Size: max(symbol, FDE) size */
	uint64_t	maxsize;	/* to the next function or section end */
	const char	*name;		/* as non-BAT fdata writes it: global
					 * name, local "name/N", unescaped */
	const char	*filename;	/* locals: "name/file/N" (BAT output
					 * prefers it); else == name */
	const char	*symname;	/* the symbol's own name, no suffix */
	uint32_t	flags;		/* BF_* */
	uint32_t	parent;		/* fragments: the parent's index;
					 * others: their own index */
	uint16_t	shndx;		/* section of the code */
	uint32_t	num;		/* BOLT's function number (YAML fid):
					 * the order discoverFileObjects
					 * creates functions in, from 1 */
};

/* a secondary entry point of a function: a symbol inside it that BOLT
 * takes as another entry (RewriteInstance::discoverFileObjects and
 * adjustFunctionBoundaries); sorted by address */
struct fsym {
	uint64_t	addr;
	uint32_t	func;		/* index into functab.f */
	const char	*name;		/* the symbol's unique name */
};

/* an FDE of .eh_frame, as BOLT's CFIReaderWriter keeps them: one per start
 * address (the first with a non-zero range), sorted by start */
struct fde {
	uint64_t	start, range;
	uint64_t	lsda;		/* 0: none */
};

/* a data object as BOLT 19 registers it while it discovers the binary
 * (BinaryContext::registerNameAtAddress; name NULL: setBinaryDataSize),
 * in its order: every symbol, functions and data alike, the PLT entries
 * and their GOT slots, the functions known from .eh_frame.  datatab.c
 * replays them. */
struct freg {
	uint64_t	addr, size;
	const char	*name;
};

/* an allocatable section */
struct fsec {
	uint64_t	addr, size, offset;
	uint64_t	flags;		/* SHF_* */
	uint32_t	type;		/* SHT_* */
	const char	*name;
};

/* an AArch64 mapping symbol as BOLT keeps it (discoverFileObjects):
 * code ($x) or data ($d) from addr on; sorted by address, one per
 * address */
struct fmark {
	uint64_t	addr;
	uint8_t		data;
};

/* strings freed together: chunks, the last one filling (functab.c) */
struct ftarena {
	char		**chunks;
	size_t		 n, cap;
	char		*next;		/* the free end */
	size_t		 left;
};

struct functab {
	struct bfunc	*f;		/* sorted by address, no overlaps */
	size_t		 n;
	uint16_t	 machine;	/* ELF e_machine */
	struct fmark	*marks;		/* AArch64: the mapping symbols */
	size_t		 nmarks;
	struct fsym	*syms;		/* sorted by address */
	size_t		 nsyms;
	int		 has_relocs;	/* .rela.text present: BOLT's
					 * relocation mode */
	struct fde	*fdes;
	size_t		 nfdes;
	struct fsec	*secs;		/* allocatable sections by address */
	size_t		 nsecs;
	struct freg	*regs;		/* data objects, in registration order */
	size_t		 nregs, capregs;
	/* private: the other names of each function (aliases: f[i].name
	 * is the first), fnames[fnoff[i]] to fnames[fnoff[i + 1] - 1] in
	 * BOLT's order; the index by name (strtab.h, holding the names
	 * where they are) and the function of each, which functab_by_name
	 * makes of them the first time it is asked (named); the names made
	 * here live in an arena, the others are libelf's */
	const char	**fnames;
	uint32_t	*fnoff;
	int		 named;
	struct strtab	 names;
	uint32_t	*nameidx;	/* by name number */
	size_t		 nameidxcap;
	struct ftarena	 arena;
	int		 bounds;	/* loaded with FT_BOUNDS */
	/* functab_find's index of the functions' starts (addrix.h; its
	 * starts are f[i].addr, dense) */
	struct addrix	 aix;
};

/* read the function table of eo (whose symbols need not be loaded yet);
 * -1 with a message in err.  eo stays open while the table is used: the
 * symbols' names are in its string table */
int	 functab_load(struct functab *, struct elfobj *eo, char *err,
	    size_t errlen);
/* the same; with FT_ALLOW_STRIPPED a binary without .symtab is no error
 * (its functions come from .eh_frame and the PLT) */
#define FT_ALLOW_STRIPPED	0x1u
/* with FT_BOUNDS only the functions' bounds and kinds are BOLT's (addr,
 * size, maxsize, flags, num, and the entries): their names are not
 * formed (a symbol's own name, or ""), no data objects are registered
 * (regs) and fragments have no parents: what preagg needs, at less
 * cost */
#define FT_BOUNDS		0x2u
int	 functab_load_flags(struct functab *, struct elfobj *eo,
	    unsigned flags, char *err, size_t errlen);
void	 functab_free(struct functab *);
/* the function whose [addr, addr + maxsize) holds a, or NULL */
const struct bfunc *functab_find(const struct functab *, uint64_t a);
/* by fdata name (either form), or NULL; the first call makes the index
 * of the names (not to be made by two threads at once) */
const struct bfunc *functab_by_name(const struct functab *, const char *);
/* the allocatable section holding a, or NULL */
const struct fsec *functab_section(const struct functab *, uint64_t a);
/* the FDE starting at a, or NULL */
const struct fde *functab_fde(const struct functab *, uint64_t a);
/* the first secondary entry point of function i at or after a: index
 * into syms, or nsyms */
size_t	 functab_entries_from(const struct functab *, uint64_t a);
/* the first mapping symbol at or after a: index into marks, or nmarks */
size_t	 functab_marks_from(const struct functab *, uint64_t a);
/* fdata's escaping of a name (space and backslash get a backslash) */
void	 functab_put_name(struct wbuf *, const char *name);

#endif
