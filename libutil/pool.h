/* See COPYING file for copyright and license details. */
/*
 * pool.h: one piece of work shared among processes.  The parent forks
 * jobs - 1 workers; every process does its own share (work(k), k from 0,
 * the parent, to jobs - 1); each worker then writes what it made to a
 * pipe (put) and exits, and the parent, its own share done, reads the
 * workers' in order (get).  Forked, not threaded: each process owns what
 * it builds, and only the results cross.  A worker that cannot be
 * started (a limit on processes, memory) leaves its share to the parent
 * (started), so the result is the same; one that fails, is killed or
 * sends short is an error, and no result.
 */
#ifndef PROFPIPE_POOL_H
#define PROFPIPE_POOL_H

#include <stddef.h>
#include <stdio.h>

struct pool_ops {
	/* in each process: share k; with n, the processes started */
	void	(*work)(void *arg, int k);
	/* before the parent's work: only n of the jobs were started (n <
	 * jobs): shares n and up are the parent's */
	void	(*started)(void *arg, int n);
	/* in worker k, its share done: its results to fp; 0, or -1 */
	int	(*put)(void *arg, int k, FILE *fp);
	/* in the parent: worker k's results from fp, then nothing more;
	 * 0, or -1 if they are short or bad */
	int	(*get)(void *arg, int k, FILE *fp);
};

#define POOL_MAXJOBS	16

/* the work in jobs processes (1 to POOL_MAXJOBS): the number that did
 * it, or -1 with the message in err */
int	 pool_run(int jobs, const struct pool_ops *, void *arg, char *err,
	    size_t errlen);

#endif
