/* See COPYING file for copyright and license details. */
/* bbmap.h: what the parts of bbmap share. */
#ifndef BBMAP_H
#define BBMAP_H

#include <stdint.h>
#include <stdio.h>

#include "util.h"
#include "elfobj.h"
#include "bbaddrmap.h"

/* the binary: its ELF file, its decoded map and the function names */
struct bin {
	const char	*path;
	struct elfobj	 eo;
	struct bam_map	 map;
	size_t		 nsec;		/* map sections */
	struct bsym	*syms;		/* STT_FUNC by (addr, symtab index) */
	size_t		 nsyms;
	char		**errs;		/* keepgoing: the sections left out,
					 * each error as a message line */
	size_t		 nerrs, caperrs;
};

struct bsym {
	uint64_t	 addr;
	uint32_t	 index;		/* in .symtab: LLVM picks the first */
	uint32_t	 shndx;
	const char	*name;
};

/* open path, decode its maps, load its symbols; dies (exit 1) on error,
 * but with keepgoing (--dump) only on a fault of the file itself: a map
 * section that fails to decode is left out, its error in errs */
void	 bin_open(struct bin *, const char *path, int keepgoing);
void	 bin_close(struct bin *);
/* the first .symtab STT_FUNC symbol at addr (in section text for a
 * relocatable object, as llvm-readobj matches them), NULL if none */
const char *bin_name(const struct bin *, uint64_t addr, uint32_t text);

/* map.c: what became of the profile's weight */
struct mapstat {
	uint64_t	br, br_edges, br_midblock, br_unmapped;
	uint64_t	br_checked;	/* branch edges inside a function
					 * whose graph knows all successors */
	uint64_t	br_notsucc;	/* ... to a block not among them */
	uint64_t	ft, ft_edges, ft_inblock, ft_noft, ft_unmapped;
	uint64_t	samples, samples_mapped;
	uint64_t	loose;		/* weight dropped with an end in a
					 * block: flow that enters or leaves a
					 * block without an edge */
};
/* read the pre-aggregated profile at path (NULL: stdin) onto b's blocks */
void	 map_profile(const struct bin *, const char *path, struct mapstat *,
	    char ***events, size_t *nevents);
/* the profpipe-bb stream; pgo: the compiler's frequencies beside */
void	 map_write(const struct bin *, FILE *, int pgo, char **events,
	    size_t nevents);
void	 map_free(void);

/* dump.c */
void	 dump_map(const struct bin *, FILE *);

#endif
