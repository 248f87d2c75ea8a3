/* See COPYING file for copyright and license details. */
/*
 * datatab.h: the data objects of a binary as BOLT 19 knows them
 * (BinaryContext's BinaryData), to name a memory sample's data address
 * as perf2bolt does (DataAggregator::processMemEvents,
 * getBinaryDataContainingAddress).
 */
#ifndef PROFPIPE_DATATAB_H
#define PROFPIPE_DATATAB_H

#include <stddef.h>
#include <stdint.h>

#include "strtab.h"

#include "elfobj.h"
#include "functab.h"

struct dobj {
	uint64_t	 addr, size;
	const char	*name;		/* as BOLT names it (its first name) */
	struct dobj	*parent;	/* the top-level object holding it */
	int		 sec;		/* index into functab.secs, -1: none */
	uint32_t	 idx;		/* its index in datatab.o */
};

struct datatab {
	struct dobj	**o;		/* sorted by address, one per address */
	size_t		  n, cap;
	struct dobj	**all;		/* for freeing */
	size_t		  nall, capall;
	/* private: names to objects (GlobalSymbols) */
	struct strtab	  names;	/* GlobalSymbols' names (strtab.h) */
	struct dobj	**nmobj;	/* the object of each name */
	size_t		  capnmobj;
	char		**strs;
	size_t		  nstrs, capstrs;
	size_t		  nholes, nhashed;
};

/* the data objects of eo, whose function table (with its registrations)
 * is ft; -1 with a message in err */
int	 datatab_load(struct datatab *, struct elfobj *eo,
	    const struct functab *ft, char *err, size_t errlen);
/* the object holding a, as getBinaryDataContainingAddress finds it, or
 * NULL */
const struct dobj *datatab_find(const struct datatab *, uint64_t a);
void	 datatab_free(struct datatab *);

#endif
