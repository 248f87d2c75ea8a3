/* See COPYING file for copyright and license details. */
/*
 * yamlwrite.h: the YAML profile as yamlwrite builds it, one function at a
 * time, and the emitter that writes it with libyaml
 * (YAMLProfileWriter.cpp and ProfileYAMLMapping.h in LLVM 19's bolt/;
 * yamlwrite(1)).
 *
 * Files (the map of the tool):
 *   main.c   options, input, the functions' profiles from the control-flow
 *            graph of libbolt/cfg/cfgdis.c (any binary)
 *   hash.c   BOLT's function and block hashes of a function on that
 *            graph, from the release's MC layer (libbolt/llvm/llvmbr.h)
 *   graph.c  a function's profile on its cfgdis graph and its blocks as
 *            YAMLProfileWriter::convert writes them: main.c's functions
 *            and bat.c's functions without tables
 *   bat.c    the functions' profiles of a profile collected on a BOLTed
 *            binary, with hashes, block counts and indices from its BAT
 *            section (libbolt/bat/bat.c), as perf2bolt-19's writeBATYAML;
 *            its functions without tables on the BOLTed binary's graphs
 *   emit.c   the writer: header, then functions as they come (directly,
 *            or through libyaml's emitter for names that need it)
 *
 * The model is plain data: a producer fills a yw_func (arrays it owns and
 * may reuse for the next function) and hands it to yw_emit_func; the
 * emitter keeps nothing of it, so memory stays that of one function.
 */
#ifndef PROFPIPE_YAMLWRITE_H
#define PROFPIPE_YAMLWRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "llvmrel.h"

/* a successor edge of a block: succ: [ { bid, cnt, mis } ] */
struct yw_succ {
	uint32_t	bid;
	uint64_t	cnt;
	uint64_t	mis;		/* written only when non-zero */
};

/* a call site of a block: calls: [ { off, fid, disc, cnt, mis } ] */
struct yw_call {
	uint32_t	off;		/* from the block's (input) start */
	uint32_t	fid;		/* the callee's fid */
	uint32_t	disc;		/* secondary entry id (0: main entry;
					 * written only when non-zero) */
	uint64_t	cnt;
	uint64_t	mis;		/* written only when non-zero */
};

struct yw_block {
	uint32_t	bid;
	uint32_t	insns;
	uint64_t	hash;		/* written only when non-zero */
	uint64_t	exec;		/* written only when non-zero */
	uint64_t	events;		/* a sample profile's count (written
					 * only when non-zero) */
	struct yw_call	*calls;
	size_t		 ncalls;
	struct yw_succ	*succ;
	size_t		 nsucc;
};

struct yw_func {
	const char	*name;		/* as BOLT names it (functab) */
	uint32_t	 fid;
	uint64_t	 hash;		/* 0 where it cannot be computed */
	uint64_t	 exec;
	uint32_t	 nblocks;	/* BOLT's block count of the function */
	struct yw_block	*blocks;	/* the blocks written (may be fewer
					 * than nblocks), in bid order */
	size_t		 nblk;
};

struct yw_header {
	const char	*binary_name;	/* the binary's path as given */
	const char	*build_id;	/* hex, or NULL: not written */
	int		 sample;	/* profile-flags: [ sample ] instead of
					 * [ lbr ]; negative: [ ] (no
					 * function with blocks has a profile,
					 * as perf2bolt writes it then) */
	const char	*events;	/* profile-events ("" as perf2bolt) */
	int		 dfs_order;	/* dfs-order (perf2bolt-19: false) */
	const char	*hash_func;	/* hash-func ("xxh3") */
	int		 plain;		/* every function's name written is
					 * yw_plain: written directly, not
					 * through libyaml's events */
};

/* is s printable ASCII (what the direct writer writes) */
int	 yw_plain(const char *s);

struct yw;

/* start a document on f: "---", the header, "functions:"; NULL with a
 * message in err on failure */
struct yw *yw_open(FILE *f, const struct yw_header *h, char *err,
	    size_t errlen);
/* one function; 0 or -1 with the message in yw_error */
int	 yw_emit_func(struct yw *, const struct yw_func *);
/* end the document ("..." ) and free; 0 or -1 (message in err) */
int	 yw_close(struct yw *, char *err, size_t errlen);
const char *yw_error(const struct yw *);

/* main.c: the same around the -o output, dying with the message on
 * failure (exit 1, no output file): open the output and start the
 * document; one function; end the document and commit the output */
struct output;
struct yw *yw_start(struct output *, const char *outpath,
	    const struct yw_header *);
void	 yw_func_out(struct yw *, const struct yw_func *);
void	 yw_finish(struct yw *, struct output *);

/* graph.c: a function's profile on its graph (counts per block and per
 * edge, an edge being an index into cfg.succs) */
struct cfg;
struct cfgdis;
struct ywg_prof {
	uint64_t	 exec;		/* BinaryFunction::ExecutionCount */
	uint64_t	*bexec;		/* per block (NULL without a graph) */
	uint64_t	*ecnt, *emis;	/* per edge */
};

/* a call: a branch from function ff at offset off to function tf - 1
 * of the table (tf 0: no function; to is then the address), summed */
struct ywg_call {
	uint64_t	off, to;
	uint32_t	ff, tf;
	uint64_t	cnt, mis;
};

/* the callee a call site names (YAMLProfileWriter::setCSIDestination):
 * direct() for a direct call or tail call to address target, indirect()
 * for a target of an indirect one, function fi of the table; each sets
 * fid and disc and the name BOLT sorts a site's targets by (getOneName;
 * "" for none), leaving them 0 and "" when there is no callee */
struct ywg_callees {
	void	 *arg;
	void	(*direct)(void *arg, uint64_t target, struct yw_call *,
		    const char **name);
	void	(*indirect)(void *arg, uint32_t fi, struct yw_call *,
		    const char **name);
};

struct ywg_sortcall {
	const char	*name;
	struct yw_call	 c;
};

/* the arrays of a function's blocks, reused from function to function */
struct ywg_buf {
	struct yw_block	*blocks;
	size_t		 capblocks;
	struct yw_call	*calls;
	size_t		 capcalls, ncalls;
	struct yw_succ	*succ;
	size_t		 capsucc, nsucc;
	uint64_t	*in;		/* per block: counts of edges into it */
	size_t		 capin;
	struct ywg_sortcall *sc;
	size_t		 capsc;
};

/* the graph BOLT profiles function fi on: NULL for a function without a
 * CFG (not disassembled, or made non-simple before buildCFG) */
const struct cfg *ywg_graph(struct cfgdis *, size_t fi);
/* a zeroed profile for graph g (NULL: only exec) */
struct ywg_prof *ywg_prof_new(const struct cfg *g);
void	 ywg_prof_free(struct ywg_prof *);
/* the index of edge i -> j in g->succs, or -1 */
long	 ywg_edge(const struct cfg *g, size_t i, size_t j);
/* DataReader::recordBranch (19): a taken branch inside the function, by
 * offsets; 0 if it matches no edge of the graph */
int	 ywg_branch(const struct cfg *g, struct ywg_prof *, uint64_t from,
	    uint64_t to, uint64_t count, uint64_t mis);
/* DataAggregator::recordEntry: a branch from elsewhere to offset to of
 * a function of BOLT's size size */
void	 ywg_entry(const struct cfg *g, struct ywg_prof *, uint64_t size,
	    uint64_t to, uint64_t count);
/* YAMLProfileWriter::convert (19) of an LBR profile: yf's blocks (into
 * bu) from the graph g (NULL: none), the profile and the calls of the
 * function, ncs of them sorted by offset; bhash: the blocks' hashes
 * (NULL: 0) */
void	 ywg_convert(const struct cfg *g, const struct ywg_prof *,
	    const struct ywg_call *cs, size_t ncs, const struct ywg_callees *,
	    const uint64_t *bhash, struct ywg_buf *bu, struct yw_func *yf);
void	 ywg_buf_free(struct ywg_buf *);

/* hash.c: the function and block hashes perf2bolt of release rel
 * writes, from that release's MC layer (libbolt/llvm/llvmbr.h);
 * stdhash: std::hash instead of xxh3 (hash-func: std-hash).  ywh_open
 * loads the release's bridge for bin's architecture (NULL with the
 * message in err); ywh_func hashes function fi of bin's table on its
 * graph g (cfgdis's): the function's hash, and each block's into
 * bhash[g->nblocks]; 0 for no graph */
struct boltbin;
struct ywh;
struct ywh *ywh_open(struct boltbin *, struct cfgdis *, enum llvm_rel rel,
	    int stdhash, char *err, size_t errlen);
uint64_t ywh_func(struct ywh *, size_t fi, const struct cfg *g,
	    uint64_t *bhash);
/* the same made ahead, before it is known that function fi is written
 * (a stage of a pipeline while it waits for its input), graphs built by
 * cfgdis_build_ahead: ywh_func then takes them, and only then do they
 * count in ywh_undecoded */
void	 ywh_ahead(struct ywh *, size_t fi, const struct cfg *g);
/* instructions LLVM could not decode in the blocks hashed */
uint64_t ywh_undecoded(const struct ywh *);
void	 ywh_close(struct ywh *);

/* bat.c: yamlwrite --bat BOLTED INPUT, the profile prof (NULL or "-":
 * stdin) that batmap translated, with pastend (NULL: none) the fdata
 * lines of batmap --past-end, written to outpath (NULL: stdout); dies
 * with the message on failure (exit 1, no output file) */
void	 yw_bat(const char *outpath, const char *bolted, const char *input,
	    const char *prof, const char *pastend, int stdhash,
	    enum llvm_rel rel, int verbose);

#endif
