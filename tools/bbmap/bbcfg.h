/* See COPYING file for copyright and license details. */
/*
 * bbcfg.h: the control-flow graph (cfg.h) of a function of a decoded
 * basic-block address map (bbaddrmap.h): the compiler's own blocks, as
 * bbmap sees a function where fdatawrite and yamlwrite see BOLT's.
 *
 * What the map tells and the graph keeps:
 *  - blocks: every decoded block of every range, in address order (a
 *    split function's ranges sorted by base address; within a range the
 *    layout order, which is the address order), their IDs, and the bytes
 *    between ranges and the padding between blocks in no block;
 *  - flags from the metadata: HasReturn without HasTailCall is
 *    CFG_ENDS_RET, HasTailCall CFG_ENDS_TAIL, IsEHPad CFG_LPAD,
 *    CanFallThrough CFG_FALLS, HasIndirectBranch CFG_ENDS_INDIRECT; the
 *    first block of the first range is the entry (CFG_ENTRY); with
 *    callsite end offsets (version 3 on), a block whose last callsite
 *    ends at its end ends in a call (CFG_ENDS_CALL);
 *  - successors: with branch probabilities (the PGO analysis map's BrProb
 *    feature) the successor IDs it lists, which are all the compiler's
 *    (CFG_SUCCS_KNOWN); the next block of the same range when the block
 *    can fall through, with or without them.  Without BrProb a block's
 *    other successors are unknown.
 * The map does not know instructions: ninsns is 0, and last is the
 * block's end (CFG_LAST_UNKNOWN).
 */
#ifndef PROFPIPE_BBCFG_H
#define PROFPIPE_BBCFG_H

#include <stddef.h>
#include <stdint.h>

#include "bbaddrmap.h"
#include "cfg.h"

struct bbcfg_stats {
	uint64_t	badsucc;	/* successor IDs no block of the
					 * function has (dropped) */
};

/*
 * The graph of function fi of m into *g (cfg_free releases it).  If bb
 * is not NULL, bb[k] is set to the index in m->bbs of the graph's block k
 * (g->nblocks entries; the caller gives m->funcs[fi].nbb of room).  A
 * function with no decoded block (OmitBBEntries, or a count of 0) has
 * none and is not simple (why says so).  st, if not NULL, is added to.
 * bbcfg_free or cfg_free releases the graph.
 */
void	 bbcfg_build(const struct bam_map *m, size_t fi, struct cfg *g,
	    uint32_t *bb, struct bbcfg_stats *st);
/* cfg_free's work: cfg_free lives with the disassembler's graphs in
 * cfgdis.c, and a program that calls it links Capstone, whose load-time
 * relocations cost more than bbmap --dump's whole decoding */
void	 bbcfg_free(struct cfg *g);

#endif
