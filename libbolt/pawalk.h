/* See COPYING file for copyright and license details. */
/*
 * pawalk.h: the entries of a pre-aggregated profile as perf2bolt-19's
 * DataAggregator sees them: each entry split into the taken branch
 * (doBranch) and the fall-through (doTrace) it stands for, with BOLT's
 * rules for the -1/-2/-3 constants, external (X:) and build-id
 * locations, R's return origin and the Intern/Extern origin of a trace
 * (../shared/reference/bolt.md sections 2.4 and 2.6).  A writer of
 * BOLT profiles (fdatawrite's and yamlwrite's rules) supplies what is
 * done with each part.
 */
#ifndef PROFPIPE_PAWALK_H
#define PROFPIPE_PAWALK_H

#include <stddef.h>
#include <stdint.h>

#include "pa.h"

struct functab;

struct pawalk_ops {
	/* a taken branch; kfrom/kto: the end is an address of the binary
	 * (else from/to is 0 and means outside it) */
	void	(*branch)(void *arg, int kfrom, uint64_t from, int kto,
		    uint64_t to, uint64_t count, uint64_t mis);
	/* a fall-through from start to end (addresses of the binary);
	 * external: its branch came from outside the function of start */
	void	(*trace)(void *arg, uint64_t start, uint64_t end, int external,
		    uint64_t count);
	/* a basic sample at an address of the binary */
	void	(*sample)(void *arg, uint64_t addr, uint64_t count,
		    uint32_t event);
	/* an E entry: the event of the S entries that follow */
	void	(*event)(void *arg, const char *name);
};

struct pawalk {
	const struct functab *ft;
	struct pa_reader *r;		/* for build-id locations */
	const char	*bid;		/* the binary's build-id in hex, or
					 * "" */
	uint64_t	 base;		/* added to offsets of a PIE */
	const struct pawalk_ops *ops;
	void		*arg;
	uint64_t	 nentries, nsamples, nsampout;
	int		 lbr;		/* an entry with a branch was seen */
};

/* one entry */
void	 pawalk_entry(struct pawalk *, const struct pa_entry *);

/*
 * doTrace on a function's graph: the blocks a fall-through from offset
 * fs to offset fe of the function passes, [*fb, *tb] (fb == tb: within
 * one block, nothing to count), with BOLT 19's rule for a trace whose
 * branch came from outside the function (external): one that starts a
 * block after a call (or a tail call, which BOLT counts as one) begins
 * at the call's block, the return's continuation.  -1 when BOLT finds
 * the trace invalid (an end in no block, fs past fe, two consecutive
 * blocks that are not successors).
 */
struct cfg;
int	 pawalk_trace_blocks(const struct cfg *g, uint64_t fs, uint64_t fe,
	    int external, long *fb, long *tb);

#endif
