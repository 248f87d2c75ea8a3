/* See COPYING file for copyright and license details. */
/*
 * batbin.h: a BOLTed binary with its BAT tables, as batmap and
 * yamlwrite --bat load it: the .note.bolt_bat section decoded (bat.h)
 * and checked against the binary (fragments at function symbols in
 * executable sections, entries within their fragments, cold parents as
 * the symbol names say), the producer named by .note.bolt_info; and the
 * match of the BOLTed binary's functions to its input binary's (the same
 * name; a local by name and source file).
 */
#ifndef PROFPIPE_BATBIN_H
#define PROFPIPE_BATBIN_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"
#include "bat.h"
#include "boltbin.h"

struct batbin_xsec {		/* an executable section */
	uint64_t	addr, size;
};

struct batbin {
	const char	*path;
	struct boltbin	 bin;		/* its functions: boltbin_load */
	struct bat	 bat;
	uint64_t	 secoff;	/* file offset of the BAT section */
	char		 producer[128];	/* "" when no .note.bolt_info */
	struct batbin_xsec *xs;
	size_t		 nxs;
	const char	**name;		/* per fragment: its symbol, or NULL */
};

/* open path, decode and check its BAT section (the function table is
 * the caller's to load, boltbin_load(&b->bin)); -1 with the whole
 * message in err ("FILE: offset 0x.. (.note.bolt_bat+0x..): ... (written
 * by ...)", "FILE: no .note.bolt_bat section: ..."); b is then freed */
int	 batbin_open(struct batbin *b, const char *path, char *err,
	    size_t errlen);
void	 batbin_close(struct batbin *b);

/* the BOLTed binary's functions matched to the input binary's */
struct batmatch {
	const struct functab *bo, *in;
	const struct bfunc **map;	/* BOLTed function -> input, lazily */
	uint8_t		*mapped;
	const struct bfunc **locals;	/* the input's, by name and file */
	size_t		 nlocals;
};

void	 batmatch_init(struct batmatch *m, const struct functab *bo,
	    const struct functab *in);
/* the input's function for a BOLTed one (the same name, a local of the
 * same name and source file), NULL if none */
const struct bfunc *batmatch_input(struct batmatch *m, const struct bfunc *bf);
void	 batmatch_free(struct batmatch *m);

#endif
