/* See COPYING file for copyright and license details. */
/*
 * brsum.h: branches summed by their two ends, each a function (a number
 * the caller chooses, 0 for none) and an offset: fdatawrite's fdata lines
 * and yamlwrite's calls, in one keyed table (ktab.h) each, in order of
 * first appearance.
 */
#ifndef PROFPIPE_BRSUM_H
#define PROFPIPE_BRSUM_H

#include <stdint.h>

#include "ktab.h"

struct brsum {
	uint64_t	fromoff, tooff;
	uint32_t	fromf, tof;
	uint64_t	mis, count;
};

/* an empty table of them */
void	 brsum_init(struct ktab *);
/* add count and mis to the branch (ff, fo) -> (tf, to), and return its
 * record; a table of 2^32 branches is a fatal error */
struct brsum *brsum_add(struct ktab *, uint32_t ff, uint64_t fo,
	    uint32_t tf, uint64_t to, uint64_t count, uint64_t mis);

#endif
