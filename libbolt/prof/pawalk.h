/* See COPYING file for copyright and license details. */
/*
 * pawalk.h: the entries of a pre-aggregated profile as perf2bolt-19's
 * DataAggregator sees them, the one walker fdatawrite and yamlwrite
 * share: each entry split into the taken branch (doBranch) and the
 * fall-through (doTrace) it stands for, with BOLT's rules for the
 * -1/-2/-3 constants, external (X:) and build-id locations, R's return
 * origin and the Intern/Extern origin of a trace (DataAggregator.cpp:
 * parsePreAggregatedLBRSample, doBranch, doTrace, getFallthroughsInTrace
 * in LLVM 19); a branch from a return dropped, the ends looked up in the
 * function table, a trace cut into the steps of its function's graph.
 * A writer supplies only what it does with each part (pawalk_ops).
 * Locations outside the binary read as the reader of the stream's form
 * reads them (struct pawalk, current).
 */
#ifndef PROFPIPE_PAWALK_H
#define PROFPIPE_PAWALK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pa.h"
#include "cfg.h"

struct boltbin;
struct bfunc;
struct cfg;
struct cfgdis;

/* what a writer does with DataAggregator's parts, on the functions of
 * the binary */
struct pawalk_ops {
	/* doBranch's branch (never from a return): from offset fo of ff to
	 * offset to of tf, in the ordinary form (PAWALK_ORDINARY: the
	 * source of one of batmap's pairs of blocks moved to the input
	 * branch, cfg_pair_source and cfg_tail_source); an end outside
	 * every function is NULL, its offset the address (in a stream
	 * perf2bolt-19 --pa reads) or 0 (the current form) */
	void	(*branch)(void *arg, const struct bfunc *ff, uint64_t fo,
		    const struct bfunc *tf, uint64_t to, uint64_t count,
		    uint64_t mis);
	/* doTrace: the fall-through steps from block fb to block tb
	 * (fb < tb) of f's graph g */
	void	(*steps)(void *arg, const struct bfunc *f,
		    const struct cfg *g, long fb, long tb, uint64_t count);
	/* PAWALK_BOLTED: a fall-through of f from offset fs to fe, as
	 * given */
	void	(*fallthrough)(void *arg, const struct bfunc *f, uint64_t fs,
		    uint64_t fe, uint64_t count);
	/* optional: doTrace's fall-through from address s to address e,
	 * both in f, before its graph is asked (the executed bytes
	 * perf2bolt's --show-density counts, e - s, in any function) */
	void	(*trace)(void *arg, const struct bfunc *f, uint64_t s,
		    uint64_t e, uint64_t count);
	/* a basic sample at offset off of f */
	void	(*sample)(void *arg, const struct bfunc *f, uint64_t off,
		    uint64_t count);
	/* optional: pawalk_run_many is done with f's graph g, and drops it
	 * (cfgdis_drop), so that the graphs in memory are those of the
	 * functions the entries still to come touch; without it every
	 * graph stays */
	void	(*done)(void *arg, const struct bfunc *f, const struct cfg *g);
	/* optional, both or neither: the walk split among processes
	 * (pawalk_run_par).  put: in a worker, once its share is walked,
	 * what the writer collected, written to fp; get: in the parent,
	 * once its own share is walked, a worker's, read back from fp
	 * (-1: short or bad).  Each process walks every entry (the
	 * counts of entries, events and the form are every process's) and
	 * the parts of the functions it owns: a branch goes with its
	 * source's function, a fall-through with its function, a sample
	 * with its function, one with none with the parent; a function's
	 * graph is built in one process only.  What the writer makes of a
	 * part is ordered by pawalk.pos, the place the part has in the walk
	 * of one process. */
	void	(*put)(void *arg, FILE *fp);
	int	(*get)(void *arg, FILE *fp);
};

enum pawalk_mode {
	PAWALK_ORDINARY,	/* batmap's pairs of blocks as the input's
				 * edges (the writers' default) */
	PAWALK_LITERAL,		/* every branch as given (--literal) */
	PAWALK_BOLTED		/* batmap's output in the boltedcollection
				 * form: fall-throughs as given (fdatawrite
				 * --bolted) */
};

/* what a walk saw of the parts it walked, for -v (summed over the
 * processes of a split walk) */
struct pawalk_counts {
	uint64_t	samples, sampout;	/* S; outside every function */
	uint64_t	branches, returns;	/* doBranch's; from a return */
	uint64_t	traces, invalid, outrange, nonsimple;	/* doTrace's */
};
void	 pawalk_counts_add(struct pawalk_counts *,
	    const struct pawalk_counts *);

struct pawalk {
	const struct boltbin *bin;
	struct cfgdis	*cd;
	struct pa_reader *r;		/* for build-id locations */
	const struct pawalk_ops *ops;
	void		*arg;
	enum pawalk_mode mode;
	int		 entry_pairs;	/* PAWALK_ORDINARY: a pair of blocks
					 * into its function's first block
					 * too (fdata; the YAML writer takes
					 * it for a recursive call) */
	/* what was seen, for -v */
	uint64_t	 nentries;
	struct pawalk_counts n;
	int		 lbr;		/* an entry with a branch was seen */
	const char	**events;	/* E entries' names, each once, in
					 * order */
	size_t		 nevents, capevents;
	/*
	 * The form of the stream decides how a location outside the binary
	 * reads.  A stream of B, F and f entries alone is one perf2bolt-19
	 * --pa reads, and it takes every location for its bare address
	 * (the X: or build-id before it ignored) and writes an end outside
	 * every function with that address.  An entry of the current form
	 * (T R r S E) makes it a stream perf2bolt-19 cannot read, written
	 * as perf2bolt-19 -p writes the same samples (and LLVM main reads
	 * the form): X: and other binaries' locations lie outside, and an
	 * end outside every function is 0.  The B, F and f entries whose
	 * reading depends on it wait for the end of the stream (held).
	 */
	int		 current;	/* a T R r S or E entry was seen */
	int		 ended;		/* pawalk_end: the form is known */
	struct pa_entry	*held;
	size_t		 nheld, capheld;
	int		 marking;	/* private: pawalk_run_many's first
					 * walk, */
	int		 mayget;	/* which may ask for a graph, */
	size_t		 cur;		/* at this entry, */
	uint32_t	*last;		/* the last entry each function's
					 * graph is asked for in + 1 */
	/* the part being walked: 2 x the entries walked before its own
	 * (the held ones last, as pawalk_end walks them), + 1 for the
	 * fall-through of an entry: what a writer orders its output by
	 * when the walk is split (pawalk_ops put, get) */
	uint64_t	 pos;
	uint64_t	 nwalked;
	int		 split;		/* the walk is split (this process
					 * walks a share) */
	const uint8_t	*own;		/* private: by function (the last:
					 * none), the process that walks its
					 * parts; NULL: this one, */
	uint8_t		 me;		/* this process's number (0: the
					 * parent) */
	struct cfgdis_stats wstats;	/* the workers' graphs */
};

/* every entry of w->r, then pawalk_end: pawalk_run_many of one; 0, or
 * -1 with the message in err ("file:line: message" for a bad entry) */
int	 pawalk_run(struct pawalk *, char *err, size_t errlen);
/* one pass over r for several walkers (one per binary): each entry to
 * every walker, each keeping what is in its binary, then pawalk_end on
 * each; with more than one, a bare address is an error on its line.
 * The entries are read first and the functions they touch asked of each
 * walker's cd (cfgdis_need), so that each binary's code is read for what
 * the profile touches; memory: the entries (distinct, as preagg writes
 * them) */
int	 pawalk_run_many(struct pawalk *const *, size_t, struct pa_reader *,
	    char *err, size_t errlen);
/* pawalk_run_many in jobs processes (0: as many as the CPUs this one
 * may run on, up to PAWALK_MAXJOBS, when the profile needs graphs of
 * PAWALK_PARCODE bytes of code or more; 1: in this process), when the
 * walkers' ops have put and get: after the entries are read and the
 * functions they need gathered, the parent forks jobs - 1 workers
 * and walks a share itself; each process owns functions of about the
 * same size of code (in address order) and builds their graphs.  The
 * output is that of one process, whatever the jobs (libutil's pool);
 * a worker that fails is an error (no output).  Returns the number of
 * processes used, or -1 with the message in err */
#define PAWALK_MAXJOBS	4
#define PAWALK_PARCODE	((uint64_t)4 << 20)
int	 pawalk_run_par(struct pawalk *const *, size_t, struct pa_reader *,
	    int jobs, char *err, size_t errlen);
/* the counts of the graphs built in the walk, this process's and its
 * workers' (cfgdis_stats with the workers') */
void	 pawalk_stats(const struct pawalk *, struct cfgdis_stats *);
/* one entry (a held one later, at pawalk_end) */
void	 pawalk_entry(struct pawalk *, const struct pa_entry *);
/* the end of the stream: the held entries, read in its form */
void	 pawalk_end(struct pawalk *);
void	 pawalk_free(struct pawalk *);

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
