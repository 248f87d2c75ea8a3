/* See COPYING file for copyright and license details. */
/*
 * preagg: fold the profpipe-events stream (perfdecode) into BOLT's
 * pre-aggregated profile (llvm-bolt --pa), or sum pre-aggregated
 * profiles (--merge).
 *
 * The files:
 *   main.c     options, the binaries profiled (their function ranges come
 *              from libbolt's function table), usage
 *   events.c   the event stream: mmap, fork, comm, exit and buildid
 *              records, per-process state indexed by pid (dropped when the
 *              process exits), mapping contexts, the head of each sample
 *   parse.c    the parsing threads: ip and branch stack of each sample
 *   raw.c      the raw tables: (source, target, next source) triples
 *              counted per mapping context
 *   rules.c    BOLT's rules, to hold against DataAggregator.cpp: address
 *              adjustment, function membership, the B/F/f (LLVM 19) and
 *              T/R/S (main) derivations
 *   entries.c  the table of pre-aggregated entries, --merge (through
 *              libbolt's pre-aggregated reader) and the output (its
 *              writer)
 *
 * The --legacy aggregation is DataAggregator's (LLVM 19): for each LBR
 * stack, most recent entry first, a fall-through trace runs from an
 * entry's target to the next newer entry's source and is kept when one
 * function holds both ends (F when that function also holds the branch
 * source, f otherwise); a taken branch is kept when either end lies in a
 * function, the other end becoming 0.  perf2bolt --pa then derives from
 * B/F/f exactly what perf2bolt -p derives from perf.data.
 */
#ifndef PREAGG_H
#define PREAGG_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"
#include "boltbin.h"
#include "ktab.h"
#include "addrix.h"
#include "pa.h"

#define KERNEL_BASE	0xffff800000000000ULL
#define MAXBIN		64
#define NOADDR		UINT64_MAX	/* an adjusted address owned by nobody */

/* an entry location's object, as pa.h numbers them: plain (no prefix),
 * X: (external), or binary i (aggregation) / build-id i (--merge) */
#define OBJ_PLAIN	PA_OBJ_SELF
#define OBJ_X		PA_OBJ_X
#define OBJ_BIN(i)	PA_OBJ_BUILDID(i)
#define OBJ_INDEX(o)	PA_OBJ_BUILDID_INDEX(o)

struct func {
	uint64_t	start, end;
};

struct binary {
	char		*path;
	const char	*name;		/* basename, matched as perf2bolt does */
	int		 fixed;		/* ET_EXEC: addresses are not rebased */
	int		 bat;		/* BOLTed with BAT (.note.bolt_bat) */
	struct boltbin	 bb;		/* its function table freed once
					 * funcs are made of it */
	uint64_t	 nmapped;	/* mappings of it taken */
	char		 otherbid[129];	/* a build-id of a file of its name */
	struct func	*funcs;
	size_t		 nfuncs;
	uint64_t	 imglo, imghi;	/* its PT_LOAD segments' span */
	struct addrix	 aix;		/* func_of's: the funcs' starts */
};

struct mapping {
	int		 bin;
	int		 forked;
	uint64_t	 start, size, base;
};

/* a pre-aggregated entry: type, up to three locations, counts */
struct entry {
	uint64_t	 a[3];
	uint32_t	 obj[3];
	uint32_t	 ev;		/* S: event index */
	uint8_t		 type;		/* enum pa_type */
	uint8_t		 has_mis;	/* T/R: write the mispredict count */
	uint64_t	 count, mis;
};

/* main.c */
extern struct binary bins[MAXBIN];
extern int nbins;
extern int kflag, lflag, mflag, qflag, vflag, buildid_locs;
extern const char *memfile;	/* -M: the memory samples' stream */
extern int fmt21, basic_only, branches_only, ignore_bid, hflag;
extern uint64_t nsamples, nused, nnolbr, nbranches, nkernel;

/* main.c: the binaries' functions, loaded by a thread of their own */
void	 functions_wait(void);

/* entries.c */
extern struct ktab entries;	/* the entries, summed */
uint32_t event_index(const char *name, size_t len);
const char *event_name(uint32_t);
/* add an entry (queued, so that many additions overlap their cache
 * misses); an overflowing count is an error of line lineno of lr, if
 * given */
void	 add_queued(const struct entry *, uint64_t count, uint64_t mis,
	    struct lineio *lr);
void	 pq_drain(struct lineio *lr);
void	 merge(const char *path);
void	 write_entries(FILE *);

/* events.c */
extern int ev_version;		/* of the event stream: 1 or 2 */
void	 aggregate(const char *path);
void	 flush_all(void);
extern char *seen_names[];
extern int nseen;
#define NNAMES	8

/* rules.c */
size_t	 func_of(const struct binary *, uint64_t a);
int	 mapping_base(const struct binary *, uint64_t start, uint64_t pgoff,
	    int exec, uint64_t *base);
int	 fixed_mapping_matches(const struct binary *, uint64_t start);

/* raw.c: the first-level table, counting raw branch triples */
struct raw {
	uint64_t	from, to, next;	/* S: ip, event index, 0 */
	uint32_t	meta;	/* ctx << 4 | flags */
	uint32_t	count;	/* 0: empty slot */
};
#define RAW_S		8u	/* a sample without branch stack */
#define RAW_MEM		(RAW_S | RAW_RET)	/* a memory sample: ip, data
						 * address, 0 */
#define RAW_MIS		4u	/* mispredicted */
#define RAW_RET		2u	/* a return (current format only) */
#define RAW_NEXT	1u	/* there is a newer entry: next is its source */
#define CTX_MAX		((1u << 16) - 1)	/* then a flush; a test reaches it */
#define SNAP_MAX	((size_t)1 << 20)
#define RAW_FLUSH_AT	((size_t)1 << 16)	/* distinct triples per table */

struct rawtab {
	struct raw	*slot;
	size_t		 cap, n;
	unsigned	 shift;
	struct raw	*ovf;		/* counts that outgrew their slot */
	size_t		 novf, capovf;
};

struct lbr {
	uint64_t	from, to;
	uint32_t	flags;		/* RAW_MIS, RAW_RET */
};

/* mapping contexts: snapshots of one pid's mappings */
struct ctx {
	size_t		first, n;	/* in snap[] */
};
extern struct ctx *ctxs;
extern struct mapping *snap;

uint64_t rawhash(uint64_t from, uint64_t to, uint64_t next, uint32_t meta);
void	 raw_grow(struct rawtab *);
void	 raw_count(struct rawtab *, uint64_t from, uint64_t to, uint64_t next,
	    uint32_t meta);
void	 raw_sample(struct rawtab *, uint32_t ctx, const struct lbr *, size_t);
void	 raw_flush(struct rawtab *);
void	 resolve_raw(const struct raw *, uint64_t count);	/* rules.c */

/* parse.c */
extern int skylake_check, skylake_fix;	/* perf2bolt's Skylake workaround */
struct job {
	char		*rest;		/* the ip field onward */
	uint64_t	 lineno;
	uint32_t	 ctx, ev;
	int		 mem;		/* a memory event's sample, wanted */
};
void	 parsers_start(int n);
void	 parsers_stop(void);
struct job *job_new(void);
void	 run_jobs(struct lineio *);
void	 flush_parsers(void);
int	 parse_ip(const char *p, uint64_t *ip, size_t *len);

/* mem.c: the memory samples (-M), summed per (ip, data address) */
extern size_t memn;
void	 mem_add(uint64_t ip, uint32_t ipobj, uint64_t addr, uint32_t addrobj,
	    uint64_t count);
void	 mem_write(FILE *);

#endif
