/* See COPYING file for copyright and license details. */
/*
 * boltbin.h: a binary as BOLT sees it, loaded once for every tool that
 * reads profiles of it (preagg, batmap, fdatawrite, yamlwrite): the ELF
 * file (elfobj.h), its functions as BOLT 19 discovers them (functab.h),
 * the base a PIE's profile offsets are relative to, and its build-id in
 * the hex form pre-aggregated locations carry.
 */
#ifndef PROFPIPE_BOLTBIN_H
#define PROFPIPE_BOLTBIN_H

#include <stddef.h>
#include <stdint.h>

#include "elfobj.h"
#include "functab.h"

struct boltbin {
	struct elfobj	 eo;
	struct functab	 ft;
	uint64_t	 base;		/* ET_DYN: elfobj_base (BOLT's base
					 * for a PIE's offsets); else 0 */
	char		 bid[129];	/* build-id, lowercase hex; "" if none */
};

/* open path and load its functions (functab_load_flags's flags); -1
 * with the message in err */
int	 boltbin_open(struct boltbin *, const char *path, unsigned ftflags,
	    char *err, size_t errlen);
/* open path without its functions: the ELF file, base and build-id;
 * b->ft is loaded later, if at all (functab_load_flags on b->eo, which
 * a thread may do while another uses the rest) */
int	 boltbin_open_elf(struct boltbin *, const char *path, char *err,
	    size_t errlen);
/* the same for a binary whose eo is open already */
int	 boltbin_load(struct boltbin *, unsigned ftflags, char *err,
	    size_t errlen);
void	 boltbin_close(struct boltbin *);

#endif
