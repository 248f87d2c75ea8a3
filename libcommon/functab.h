/* See COPYING file for copyright and license details. */
/*
 * functab.h: the functions of an ELF binary as BOLT 19 sees them
 * (../shared/reference/boltcfg.md section 2, bolt.md fdata section):
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

#include "common.h"

#define BF_LOCAL	0x01u	/* its name is a local symbol's (name/N) */
#define BF_FRAGMENT	0x02u	/* a .cold fragment; parent says of what */
#define BF_FDE		0x04u	/* known only from .eh_frame */
#define BF_PLT		0x08u	/* a PLT entry (name@PLT) */
#define BF_ZEROSIZE	0x10u	/* symbol size 0: Size was set to MaxSize */

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
};

/* a symbol inside a function other than its first name (an alias at the
 * same address, or a label further in: a secondary entry point) */
struct fsym {
	uint64_t	addr;
	uint32_t	func;		/* index into functab.f */
	const char	*name;
};

struct functab {
	struct bfunc	*f;		/* sorted by address, no overlaps */
	size_t		 n;
	struct fsym	*syms;		/* sorted by address */
	size_t		 nsyms;
	int		 has_relocs;	/* .rela.text present: BOLT's
					 * relocation mode */
	/* private: name index, string storage */
	uint32_t	*nameidx;
	size_t		 nameidxcap;
	char		*strs;
	size_t		 strslen, strscap;
};

/* read the function table of eo (whose symbols need not be loaded yet);
 * -1 with a message in err */
int	 functab_load(struct functab *, struct elfobj *eo, char *err,
	    size_t errlen);
void	 functab_free(struct functab *);
/* the function whose [addr, addr + maxsize) holds a, or NULL */
const struct bfunc *functab_find(const struct functab *, uint64_t a);
/* by fdata name (either form), or NULL */
const struct bfunc *functab_by_name(const struct functab *, const char *);
/* fdata's escaping of a name (space and backslash get a backslash) */
void	 functab_put_name(struct wbuf *, const char *name);

#endif
