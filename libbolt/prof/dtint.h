/* See COPYING file for copyright and license details. */
/* dtint.h: between datatab.c and datahash.c (inside the data objects). */
#ifndef PROFPIPE_DTINT_H
#define PROFPIPE_DTINT_H

#include "datatab.h"

struct elfobj;
struct functab;

/* s (malloc'd) kept until datatab_free; s returned */
const char *dt_keep(struct datatab *t, char *s);
/* the object of that name, or NULL */
struct dobj *dt_by_name(const struct datatab *t, const char *name);
/* name is o's (in the index of names) */
void	 dt_set_name(struct datatab *t, const char *name, struct dobj *o);
/* a name BOLT made (SYMBOLat0x..., DATAat0x..., HOLEat0x...) */
int	 dt_internal_name(const char *n);
/* generateSymbolHashes (datahash.c) */
void	 dt_hash_names(struct datatab *t, struct elfobj *eo,
	    const struct functab *ft);

#endif
