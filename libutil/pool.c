/* See COPYING file for copyright and license details. */
/* pool.c: one piece of work shared among forked processes (pool.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"
#include "pool.h"

#ifdef PROFPIPE_TESTHOOKS
/*
 * The tests' failing worker (built into the tests' build only):
 * PROFPIPE_TEST_POOL=k:kill (killed by a signal), k:exit (exit status
 * 3) or k:short (a few bytes of its results, then exit 0), worker k
 * once its share is done (fd: its pipe); k:nofork, worker k cannot be
 * started (fd -1: whether it is that one).
 */
static int
test_fail(int k, int fd)
{
	const char *s = getenv("PROFPIPE_TEST_POOL");
	char *end;
	long n;

	if (s == NULL || (n = strtol(s, &end, 10)) != k || *end != ':')
		return 0;
	if (fd == -1)
		return strcmp(end + 1, "nofork") == 0;
	if (strcmp(end + 1, "kill") == 0)
		raise(SIGKILL);
	if (strcmp(end + 1, "exit") == 0)
		_exit(3);
	if (strcmp(end + 1, "short") == 0) {
		static const char c[4];

		_exit(write(fd, c, sizeof(c)) == -1);
	}
	return 0;
}
#else
#define test_fail(k, fd)	0
#endif

/* worker k: its share, then its results to fd; never returns */
static void
worker(const struct pool_ops *ops, void *arg, int k, int fd)
{
	FILE *fp;
	int bad;

	ops->work(arg, k);
	(void)test_fail(k, fd);
	if ((fp = fdopen(fd, "w")) == NULL)
		_exit(1);
	bad = ops->put(arg, k, fp) == -1;
	bad |= fflush(fp) == EOF || ferror(fp);
	bad |= fclose(fp) == EOF;
	_exit(bad);
}

/* worker k's results, read in the parent: 0, or -1 if short or bad */
static int
collect(const struct pool_ops *ops, void *arg, int k, int fd)
{
	FILE *fp = fdopen(fd, "r");
	int ok;

	if (fp == NULL) {
		close(fd);
		return -1;
	}
	ok = ops->get(arg, k, fp) == 0 && getc(fp) == EOF;
	fclose(fp);
	return ok ? 0 : -1;
}

/* worker k (pid) ended, its results read (got): 0 if it exited 0
 * having sent them all, else -1 and why */
static int
reap(pid_t pid, int k, int jobs, int got, char *err, size_t errlen)
{
	int st;

	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return failf(err, errlen, "worker %d of %d (pid %ld): "
			    "%s", k, jobs - 1, (long)pid, strerror(errno));
	if (WIFSIGNALED(st))
		return failf(err, errlen, "worker %d of %d (pid %ld) was "
		    "killed by signal %d (%s): no output", k, jobs - 1,
		    (long)pid, WTERMSIG(st), strsignal(WTERMSIG(st)));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return failf(err, errlen, "worker %d of %d (pid %ld) failed "
		    "(exit status %d): no output", k, jobs - 1, (long)pid,
		    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	if (got == -1)
		return failf(err, errlen, "worker %d of %d (pid %ld): its "
		    "results did not all come: no output", k, jobs - 1,
		    (long)pid);
	return 0;
}

int
pool_run(int jobs, const struct pool_ops *ops, void *arg, char *err,
    size_t errlen)
{
	pid_t pid[POOL_MAXJOBS], parent = getpid();
	int fd[POOL_MAXJOBS], p[2], k, m, rc = 0;

	if (jobs < 1 || jobs > POOL_MAXJOBS)
		return failf(err, errlen, "%d processes: 1 to %d", jobs,
		    POOL_MAXJOBS);
	/* nothing buffered twice */
	fflush(stdout);
	fflush(stderr);
	for (k = 1; k < jobs; k++) {
		if (pipe(p) == -1)
			break;
		if (test_fail(k, -1) || (pid[k] = fork()) == -1) {
			close(p[0]);
			close(p[1]);
			break;
		}
		if (pid[k] == 0) {
			/* a worker ends with the process it works for */
			prog_child_of(parent);
			close(p[0]);
			for (m = 1; m < k; m++)
				close(fd[m]);
			worker(ops, arg, k, p[1]);
		}
		close(p[1]);
		fd[k] = p[0];
	}
	if (k < jobs) {
		ops->started(arg, k);
		jobs = k;
	}
	ops->work(arg, 0);
	/* every worker reaped, the first error kept */
	for (k = 1; k < jobs; k++) {
		char e[256];
		int got = collect(ops, arg, k, fd[k]);

		if (reap(pid[k], k, jobs, got, e, sizeof(e)) == -1 &&
		    rc == 0)
			rc = failf(err, errlen, "%s", e);
	}
	return rc == 0 ? jobs : -1;
}
