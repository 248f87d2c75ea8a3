/* See COPYING file for copyright and license details. */
/*
 * yamlwrite.h: the YAML profile as yamlwrite builds it, one function at a
 * time, and the emitter that writes it with libyaml
 * (../shared/reference/bolt.md section 3; LLVM's ProfileYAMLMapping.h).
 *
 * Files (the map of the tool):
 *   main.c   options, input, the functions' profiles from the control-flow
 *            graph of libcommon/cfgdis.c (any binary; hashes 0)
 *   bat.c    the functions' profiles of a profile collected on a BOLTed
 *            binary, with hashes, block counts and indices from its BAT
 *            section (libcommon/bat.c), as perf2bolt-19's writeBATYAML
 *   emit.c   the libyaml emitter: header, then functions as they come
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
};

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

/* bat.c: yamlwrite --bat BOLTED INPUT, the profile prof (NULL or "-":
 * stdin) that batmap translated, written to outpath (NULL: stdout);
 * dies with the message on failure (exit 1, no output file) */
void	 yw_bat(const char *outpath, const char *bolted, const char *input,
	    const char *prof, int verbose);

#endif
