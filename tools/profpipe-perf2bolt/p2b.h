/* See COPYING file for copyright and license details. */
/*
 * profpipe-perf2bolt: perf2bolt's command line over profpipe's filters.
 *
 * The files:
 *   main.c      the command line as LLVM's cl reads perf2bolt's (every
 *               spelling it accepts; options we cannot honour refused by
 *               name), what it asks for, usage
 *   binaries.c  the binaries profiled: directories, BOLTed binaries and
 *               the input binary their tables translate to
 *   plan.c      the pipeline for a request: which filters, with which
 *               arguments, joined how
 *   run.c       running a pipeline: processes joined by pipes, no file
 *               between them; the outputs through temporary files renamed
 *               when every stage succeeded; the pipeline printed as a
 *               shell command (-v)
 */
#ifndef P2B_H
#define P2B_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util.h"

enum format { FMT_FDATA, FMT_YAML, FMT_PREAGG };

/* a binary to profile */
struct bin {
	char		*path;
	char		 buildid[129];	/* hex, "" if none */
	int		 bat;		/* .note.bolt_bat: BOLTed with tables */
	int		 aarch64;	/* EM_AARCH64 */
	char		*input;		/* bat: the binary BOLT optimized */
	char		*opath, *wpath;	/* its -o and -w outputs (multi) */
};

/* what the command line asks for */
struct request {
	char		**perfdata;	/* -p, every occurrence, lists split */
	size_t		  nperfdata;
	const char	 *out;		/* -o */
	const char	 *save;		/* -w: YAML as well */
	enum format	  format;	/* --profile-format */
	int		  basic;	/* -nl, --ba */
	int		  pa;		/* --pa */
	int		  ignore_bid;	/* --ignore-build-id */
	int		  nomem;	/* --parse-mem-profile=false */
	uint64_t	  pid;		/* --pid, 0: all */
	int		  verbose, quiet;
	const char	 *bat_input;	/* --bat-input */
	struct bin	 *bins;
	size_t		  nbins;
	int		  multi;	/* -o and -w name directories */
};

/* binaries.c */
void	 bins_add(struct request *, const char *path);
void	 bins_load(struct request *);
void	 bins_files(const struct request *);

/* plan.c + run.c: one pipeline of stages */
struct stage {
	char		**argv;		/* argv[0]: the tool, a bare name */
	int		  argc, cap;
	int		  in;		/* the stage whose stdout is its stdin,
					 * or -1 (/dev/null) */
	const char	 *outpath;	/* its stdout goes to this file (through
					 * a temporary one), or to the stages
					 * reading it */
	/* inputs given as /dev/fd/N arguments, each the stdout of a stage,
	 * read in turn; argument fdarg[i] names input fdin[i] */
	int		 *fdin, *fdarg;
	int		  nfdin;
	int		  gate;		/* started when this stage has exited
					 * (a recording decoded after the one
					 * before), or -1 */
	/* a port: no process, but a second output of stage port_of, the
	 * file its argument port_arg names (preagg -M); the driver holds
	 * what it writes until it ends (its reader, fdatawrite -M, reads
	 * it only after the other output), then hands it on.  pname: the
	 * file -v prints for it, as one would run the pipeline by hand */
	int		  port_of, port_arg;
	const char	 *pname;
	/* run.c's */
	int		  nreaders;	/* stages reading its stdout; more
					 * than one: the driver copies it */
	pid_t		  pid;
	int		  status, started, done;
};
struct pipeline {
	struct stage	*st;
	size_t		 n, cap;
};
int	 stage_new(struct pipeline *, const char *tool);	/* its index */
void	 stage_arg(struct pipeline *, int, const char *);
void	 stage_fdin(struct pipeline *, int, int producer);
int	 stage_port(struct pipeline *, int parent, const char *pname);
void	 plan(const struct request *, struct pipeline *);
void	 pipeline_print(const struct pipeline *);
int	 pipeline_run(struct pipeline *);	/* 0: every stage succeeded */
void	 run_signals(void);	/* first: signals end the stages, remove
				 * the temporary files */
/* boltopts.c: whether perf2bolt-19 parses an option of that name */
int	 bolt19_has(const char *name);

#endif
