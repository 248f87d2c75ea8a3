/* See COPYING file for copyright and license details. */
/*
 * ftint.h: the inside of the function table (functab.h), shared by its
 * files, each a step of RewriteInstance::discoverFileObjects and what
 * follows it in LLVM 19 (bolt/lib/Rewrite/RewriteInstance.cpp):
 *
 *	functab.c	loading: sections, symbols, the table; names
 *	ftsyms.c	functions from the symbol table (discoverFileObjects)
 *	ftplt.c		PLT entries (disassemblePLT)
 *	ehframe.c	.eh_frame: FDE sizes and FDE-only functions
 *	ftbounds.c	adjustFunctionBoundaries (MaxSize, zero sizes) and
 *			registerFragments (.cold parts)
 */
#ifndef PROFPIPE_FTINT_H
#define PROFPIPE_FTINT_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"
#include "elfobj.h"
#include "functab.h"
/* a symbol as discoverFileObjects sees it */
struct rsym {
	uint64_t	addr, size;
	const char	*name;		/* the symbol's name (section's name
					 * for STT_SECTION) */
	const char	*file;		/* locals after a FILE symbol */
	uint32_t	idx;		/* .symtab index */
	unsigned char	type, bind;	/* STT_*, STB_* */
	uint16_t	shndx;
	int		rank;		/* FUNC 0, other 1, SECTION 2;
					 * AArch64's mapping symbols -1 */
	int		mark;		/* AArch64: 1 $x, 2 $d, else 0 */
	int		sec;		/* index into ft->secs or -1 (ABS) */
	int		dead;		/* removed from FileSymRefs */
};

/* a function while discovering: names in BOLT's order */
struct dfunc {
	uint64_t	addr, size, maxsize;
	const char	*name0;		/* the first name (most have one) */
	const char	**more;		/* the others: names 1, 2, ... */
	size_t		nnames, capmore;
	uint32_t	flags;
	int		sec;
	int		symname;	/* index of the first symbol's rsym, -1 */
	const char	*rawname;	/* the first symbol's own name */
	uint32_t	num;		/* creation order, from 1 */
};

struct disc {
	struct functab	*ft;
	struct rsym	*syms;		/* sorted as BOLT sorts them */
	size_t		 nsyms;
	struct dfunc	*f;
	size_t		 nf, capf;
	/* NameResolver's counters: name -> count */
	struct strtab	 cnames;	/* the names (strtab.h) */
	struct ftarena	 tmp;		/* names only they hold */
	uint64_t	*ccount;	/* the count of each */
	size_t		 ccap, cn;
	struct fsym	*ent;
	size_t		 nent, capent;
	uint32_t	 ncreated;	/* functions created so far */
	/* while batch is set (the PLT, which lies before the code), the
	 * functions created are kept apart in bf, sorted, and merged into
	 * f by ft_df_merge: inserting each into f would move every
	 * function after it */
	struct dfunc	*bf;
	size_t		 nbf, capbf;
	int		 batch;
};

struct dynrel {
	uint64_t	off, addend;
	const char	*sym;		/* NULL: none */
	uint32_t	type;
};

/* between the function table's files */
char *	 ft_str(struct functab *ft, const char *s, size_t n);
char *	 ft_astr(struct ftarena *a, const char *s, size_t n);
void	 ft_arena_free(struct ftarena *a);
char *	 ft_cat(struct functab *ft, const char *a, const char *b,
	    const char *c);
char *	 ft_keepf(struct functab *ft, const char *fmt, ...) PRINTFLIKE(2, 3);
char *	 ft_uniquify(struct disc *d, const char *name);
void	 ft_parse_ehframe(struct functab *ft, const uint8_t *buf, size_t len,
	        uint64_t addr);
size_t	 ft_fde_lower(const struct functab *ft, uint64_t a);
int	 ft_rsymcmp(const void *a, const void *b);
int	 ft_df_contains(const struct dfunc *f, uint64_t a);
int	 ft_valid_in_scope(const struct functab *ft, const struct dfunc *f,
	        const struct rsym *s);
void	 ft_df_addname(struct dfunc *f, const char *name);
/* name j of f (j < nnames) */
static inline const char *
ft_df_name(const struct dfunc *f, size_t j)
{
	return j == 0 ? f->name0 : f->more[j - 1];
}
struct dfunc * ft_df_at(struct disc *d, uint64_t a, size_t *pos);
void	 ft_df_init(struct disc *d, struct dfunc *f, uint64_t addr, uint64_t size,
	        const char *name, int sec);
struct dfunc * ft_df_create(struct disc *d, uint64_t addr, uint64_t size,
	        const char *name, int sec);
void	 ft_df_merge(struct disc *d);
void	 ft_add_entry(struct disc *d, uint64_t addr, const char *name);
const char * ft_cold_suffix(const char *name);
int	 ft_secidx_for(const struct functab *ft, uint64_t a);
int	 ft_is_plt_section(const char *n);
int	 ft_a64_mark(const char *n, int type, uint64_t size);
void	 ft_a64_marks(struct disc *d);
void	 ft_reg(struct functab *ft, const char *name, uint64_t addr, uint64_t size);
void	 ft_reg2(struct functab *ft, const char *uname, const char *alt, uint64_t addr,
	        uint64_t size);
void	 ft_discover_symbols(struct disc *d);
void	 ft_discover_plt(struct disc *d, Elf *elf, struct dynrel *rels, size_t nrels);
void	 ft_discover_plt_a64(struct disc *d, Elf *elf, struct dynrel *rels, size_t nrels);
struct dynrel * ft_read_dynrels(struct functab *ft, Elf *elf, size_t *nout);
void	 ft_discover_fde_funcs(struct disc *d);
void	 ft_adjust_boundaries(struct disc *d);
void	 ft_link_fragments(struct functab *ft, struct disc *d);

#endif
