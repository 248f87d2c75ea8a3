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
	const char	*alias;		/* its first name not BOLT's own
					 * (SYMBOLat...): a jump table's */
	int		 jt;		/* a jump table starts there */
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
	struct djt {			/* the jump tables made */
		size_t		 fi;	/* by function fi */
		uint64_t	 addr, size;
	}		 *jts;
	size_t		  njts, capjts;
	/* per section (functab.secs): its relocations from data to code,
	 * by offset; its contents, read when hashed */
	struct drel {
		uint64_t	 off;
		uint32_t	 size;
		size_t		 seq;
		struct dobj	*to;	/* the object it names, or NULL */
	}		**drel;
	size_t		 *ndrel, *capdrel, nsecs;
	uint8_t		**secbuf;
	uint64_t	 *dyn;		/* dynamic relocations' addresses */
	size_t		  ndyn;
};

struct cfgdis;
/* the data objects of eo, whose function table (with its registrations)
 * is ft, with the jump tables of cd's disassembly (NULL: none); -1 with
 * a message in err */
int	 datatab_load(struct datatab *, struct elfobj *eo,
	    const struct functab *ft, struct cfgdis *cd, char *err,
	    size_t errlen);
/* the object holding a, as getBinaryDataContainingAddress finds it, or
 * NULL */
const struct dobj *datatab_find(const struct datatab *, uint64_t a);
void	 datatab_free(struct datatab *);

#endif
