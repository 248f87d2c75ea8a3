/* See COPYING file for copyright and license details. */
/*
 * run.c: a pipeline of profpipe's filters, as processes joined by pipes.
 *
 * Nothing is written between the stages: a stage's output goes to the
 * stage that reads it through a pipe, or to several of them through a
 * thread of ours that copies it to each (a profile and a YAML profile
 * from one stream, the profiles of several binaries).  Recordings read
 * in turn by one preagg are /dev/fd/N arguments, and the decoder of the
 * next one starts when the one before has exited, so one decoder runs at
 * a time and shows its progress alone.  Each output is out.c's: a file
 * beside it named when every stage has succeeded and removed otherwise:
 * a writer that reached the end of a stream its producer broke off would
 * otherwise leave a plausible, partial profile.  The stages end with the
 * driver, whatever ends it.
 * The filters are taken from the driver's own directory, so that a
 * build runs its own tools, else from PATH.
 */
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "p2b.h"

/* ---- outputs, signals ---- */

/* the outputs (out.c): named when every stage has succeeded, removed
 * otherwise, at any exit and by on_signal */
static struct output *outs;
static size_t nouts, capouts;

/* the stages running, for on_signal and an exit before they end */
static pid_t *volatile kids;
static volatile size_t nkids;

static void
kill_kids(void)
{
	size_t i;

	for (i = 0; i < nkids; i++)
		if (kids[i] > 0)
			kill(kids[i], SIGTERM);
}

static void
on_signal(int sig)
{
	kill_kids();
	out_remove_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int stopsigs[] = { SIGINT, SIGTERM, SIGHUP };

/* before anything is made: a signal that ends the driver ends its stages
 * and removes its temporary files (one ignored, as under nohup, stays
 * ignored, in the stages too) */
void
run_signals(void)
{
	struct sigaction sa;
	size_t i;

	for (i = 0; i < NELEM(stopsigs); i++)
		if (sigaction(stopsigs[i], NULL, &sa) == 0 &&
		    sa.sa_handler != SIG_IGN)
			signal(stopsigs[i], on_signal);
	atexit(kill_kids);
}

static int
out_file(const char *path)
{
	xgrow(&outs, &capouts, nouts + 1, sizeof(*outs));
	out_open(&outs[nouts], path);
	return (int)nouts++;
}

static int
out_fd(int k)
{
	return fileno(outs[k].fp);
}

/* every output named (a failure: exit 1, the others removed), or every
 * one removed; a signal then waits for the end */
static void
outs_finish(int ok)
{
	sigset_t mask, old;
	size_t i;

	sigemptyset(&mask);
	for (i = 0; i < NELEM(stopsigs); i++)
		sigaddset(&mask, stopsigs[i]);
	sigprocmask(SIG_BLOCK, &mask, &old);
	for (i = 0; i < nouts; i++)
		if (ok)
			out_commit(&outs[i]);
		else
			out_abort(&outs[i]);
	nouts = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* ---- the copying threads ---- */

struct tee {
	int		 in;
	int		*out;		/* -1: that reader is gone */
	int		 nout;
	int		 sponge;	/* a port: everything read, then written
					 * (its readers read it last) */
	int		 isfile[64];	/* out[i] is an output file */
	int		 failed;	/* an output file could not be written */
	pthread_t	 th;
};

static int
write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void *
tee_main(void *arg)
{
	struct tee *t = arg;
	static const size_t bufsz = 1 << 18;
	char *buf = xmalloc(bufsz);
	int i, live = t->nout;

	if (t->sponge) {
		size_t len = 0, cap = bufsz;

		for (;;) {
			ssize_t r;

			xgrow(&buf, &cap, len + bufsz, 1);
			r = read(t->in, buf + len, bufsz);
			if (r == -1 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			len += (size_t)r;
		}
		/* a reader that died says so itself */
		for (i = 0; i < t->nout; i++) {
			(void)write_all(t->out[i], buf, len);
			close(t->out[i]);
		}
		close(t->in);
		free(buf);
		return NULL;
	}
	for (;;) {
		ssize_t r = read(t->in, buf, bufsz);

		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		for (i = 0; i < t->nout; i++) {
			if (t->out[i] == -1)
				continue;
			if (write_all(t->out[i], buf, (size_t)r) == -1) {
				/* a reader that died says so itself; a
				 * file that cannot be written is ours */
				if (t->isfile[i]) {
					warn("writing an output");
					t->failed = 1;
				}
				close(t->out[i]);
				t->out[i] = -1;
				live--;
			}
		}
		if (live == 0)
			break;	/* the producer gets its SIGPIPE */
	}
	for (i = 0; i < t->nout; i++)
		if (t->out[i] != -1 && !t->isfile[i])
			close(t->out[i]);
	close(t->in);
	free(buf);
	return NULL;
}

/* ---- spawning ---- */

static char tooldir[PATH_MAX];

static void
find_tooldir(void)
{
	ssize_t n = readlink("/proc/self/exe", tooldir, sizeof(tooldir) - 1);
	char *s;

	if (n <= 0) {
		tooldir[0] = '\0';
		return;
	}
	tooldir[n] = '\0';
	if ((s = strrchr(tooldir, '/')) != NULL)
		s[1] = '\0';
	else
		tooldir[0] = '\0';
}

/* per stage: its stdin and stdout in the child, and the fds it keeps
 * at their numbers (its /dev/fd/N inputs) */
struct wiring {
	int	 in, out;
	int	*keep;
	int	 nkeep;
};

/* a stage, forked with the signals that stop the driver blocked (the
 * handler must know its pid first); in the child, the driver's handler
 * goes, the signal mask is the driver's own (old) again, and the stage
 * ends when the driver does, however it ends */
static void
spawn(struct stage *s, const struct wiring *w, const sigset_t *old)
{
	char path[PATH_MAX + 64];
	struct sigaction sa;
	pid_t pid, parent = getpid();
	size_t k;
	int i;

	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid > 0) {
		s->pid = pid;
		s->started = 1;
		return;
	}
	prog_child_of(parent);
	for (k = 0; k < NELEM(stopsigs); k++)
		if (sigaction(stopsigs[k], NULL, &sa) == 0 &&
		    sa.sa_handler == on_signal)
			signal(stopsigs[k], SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigprocmask(SIG_SETMASK, old, NULL);
	if (w->in != 0 && dup2(w->in, 0) == -1)
		_exit(127);
	if (dup2(w->out, 1) == -1)
		_exit(127);
	for (i = 0; i < w->nkeep; i++)
		if (fcntl(w->keep[i], F_SETFD, 0) == -1)
			_exit(127);
	if (tooldir[0] != '\0') {
		snprintf(path, sizeof(path), "%s%s", tooldir, s->argv[0]);
		if (access(path, X_OK) == 0)
			execv(path, s->argv);
	}
	execvp(s->argv[0], s->argv);
	fprintf(stderr, "%s: %s: %s\n", progname, s->argv[0], strerror(errno));
	_exit(127);
}

/* make sure 0, 1 and 2 are open, so that no pipe is made on them */
static void
std_fds(void)
{
	int fd;

	while ((fd = open("/dev/null", O_RDWR)) >= 0 && fd <= 2)
		;
	if (fd > 2)
		close(fd);
}

/* a write end that takes anything (a port nobody reads) */
static int
devnull_dup(void)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (fd == -1)
		err(1, "/dev/null");
	return fd;
}

static int
xpipe(int p[2])
{
	if (pipe2(p, O_CLOEXEC) == -1)
		err(1, "pipe");
	return 0;
}

int
pipeline_run(struct pipeline *pl)
{
	size_t n = pl->n, i, j;
	struct wiring *w = xcalloc(n, sizeof(*w));
	struct tee *tees = xcalloc(n, sizeof(*tees));
	/* per stage, the fds the driver closes once the stage is started */
	int **closeafter = xcalloc(n, sizeof(*closeafter));
	int *nclose = xcalloc(n, sizeof(*nclose));
	int devnull, running = 0, failed = 0, k;
	sigset_t mask, old;

	std_fds();
	find_tooldir();
	signal(SIGPIPE, SIG_IGN);
	if ((devnull = open("/dev/null", O_RDWR | O_CLOEXEC)) == -1)
		err(1, "/dev/null");
	for (i = 0; i < n; i++) {
		w[i].in = pl->st[i].in == -2 ? 0 : devnull;
		w[i].out = devnull;
	}
#define CLOSE_AFTER(st, fd) do { \
	closeafter[st] = xreallocarray(closeafter[st], \
	    (size_t)nclose[st] + 1, sizeof(int)); \
	closeafter[st][nclose[st]++] = (fd); \
} while (0)
	for (i = 0; i < n; i++) {
		struct stage *s = &pl->st[i];
		int nd = s->outpath != NULL, p[2], fo = -1;

		/* who reads stage i's output */
		for (j = 0; j < n; j++) {
			if (pl->st[j].in == (int)i)
				nd++;
			for (k = 0; k < pl->st[j].nfdin; k++)
				nd += pl->st[j].fdin[k] == (int)i;
		}
		if (s->port_of >= 0) {
			/* the parent writes the port's file, /dev/fd/N; the
			 * driver holds it all, then hands it to each reader */
			int par = s->port_of;

			xpipe(p);
			w[par].keep = xreallocarray(w[par].keep,
			    (size_t)w[par].nkeep + 1, sizeof(int));
			w[par].keep[w[par].nkeep++] = p[1];
			CLOSE_AFTER(par, p[1]);
			free(pl->st[par].argv[s->port_arg]);
			if (asprintf(&pl->st[par].argv[s->port_arg], "/dev/fd/%d",
			    p[1]) == -1)
				err(1, NULL);
			tees[i].in = p[0];
			tees[i].sponge = 1;
			tees[i].out = xcalloc((size_t)nd + 1, sizeof(int));
			for (j = 0; j < n; j++)
				for (k = 0; k < pl->st[j].nfdin; k++) {
					if (pl->st[j].fdin[k] != (int)i)
						continue;
					xpipe(p);
					w[j].keep = xreallocarray(w[j].keep,
					    (size_t)w[j].nkeep + 1, sizeof(int));
					w[j].keep[w[j].nkeep++] = p[0];
					CLOSE_AFTER(j, p[0]);
					free(pl->st[j].argv[pl->st[j].fdarg[k]]);
					if (asprintf(&pl->st[j].argv[pl->st[j].fdarg[k]],
					    "/dev/fd/%d", p[0]) == -1)
						err(1, NULL);
					tees[i].out[tees[i].nout++] = p[1];
				}
			if (tees[i].nout == 0)
				tees[i].out[tees[i].nout++] = devnull_dup();
			continue;
		}
		if (s->outpath != NULL)
			fo = out_file(s->outpath);
		if (nd == 1 && fo >= 0) {
			w[i].out = out_fd(fo);
			continue;
		}
		if (nd == 1) {
			xpipe(p);
			w[i].out = p[1];
			CLOSE_AFTER(i, p[1]);
			for (j = 0; j < n; j++) {
				if (pl->st[j].in == (int)i) {
					w[j].in = p[0];
					CLOSE_AFTER(j, p[0]);
				}
				for (k = 0; k < pl->st[j].nfdin; k++)
					if (pl->st[j].fdin[k] == (int)i)
						goto fdarg;
				continue;
fdarg:
				w[j].keep = xreallocarray(w[j].keep,
				    (size_t)w[j].nkeep + 1, sizeof(int));
				w[j].keep[w[j].nkeep++] = p[0];
				CLOSE_AFTER(j, p[0]);
				free(pl->st[j].argv[pl->st[j].fdarg[k]]);
				if (asprintf(&pl->st[j].argv[pl->st[j].fdarg[k]],
				    "/dev/fd/%d", p[0]) == -1)
					err(1, NULL);
			}
			continue;
		}
		if (nd == 0)
			continue;
		/* several readers: a copying thread */
		if (nd > (int)NELEM(tees[i].isfile))
			errx(1, "more than %zu readers of one stream",
			    NELEM(tees[i].isfile));
		xpipe(p);
		w[i].out = p[1];
		CLOSE_AFTER(i, p[1]);
		tees[i].in = p[0];
		tees[i].out = xcalloc((size_t)nd, sizeof(int));
		if (fo >= 0) {
			tees[i].isfile[tees[i].nout] = 1;
			tees[i].out[tees[i].nout++] = out_fd(fo);
		}
		for (j = 0; j < n; j++) {
			if (pl->st[j].in != (int)i)
				continue;
			xpipe(p);
			w[j].in = p[0];
			CLOSE_AFTER(j, p[0]);
			tees[i].out[tees[i].nout++] = p[1];
		}
	}
	/* the outputs stay open here until they are renamed (out.c) */
	kids = xcalloc(n, sizeof(pid_t));
	nkids = n;
	for (i = 0; i < n; i++)
		if (tees[i].nout > 0 &&
		    (errno = pthread_create(&tees[i].th, NULL, tee_main,
		    &tees[i])) != 0)
			err(1, "pthread_create");
	/* the handler must see each pid before the child can be killed by
	 * anything else */
	sigemptyset(&mask);
	for (k = 0; k < (int)NELEM(stopsigs); k++)
		sigaddset(&mask, stopsigs[k]);
	for (;;) {
		pid_t pid;
		int st;

		/* start what may start: ungated stages, and those whose
		 * gate has exited well */
		for (i = 0; i < n && !failed; i++) {
			struct stage *s = &pl->st[i];

			if (s->port_of >= 0 && !s->started) {
				s->started = s->done = 1;	/* no process */
				continue;
			}
			if (s->started || (s->gate >= 0 &&
			    !(pl->st[s->gate].done && pl->st[s->gate].status == 0)))
				continue;
			sigprocmask(SIG_BLOCK, &mask, &old);
			spawn(s, &w[i], &old);
			kids[i] = s->pid;
			sigprocmask(SIG_SETMASK, &old, NULL);
			running++;
			for (k = 0; k < nclose[i]; k++)
				close(closeafter[i][k]);
			nclose[i] = 0;
		}
		if (running == 0)
			break;
		if ((pid = waitpid(-1, &st, 0)) == -1) {
			if (errno == EINTR)
				continue;
			err(1, "waitpid");
		}
		for (i = 0; i < n && pl->st[i].pid != pid; i++)
			;
		if (i == n)
			continue;
		pl->st[i].done = 1;
		pl->st[i].status = st;
		kids[i] = 0;
		running--;
		if (st == 0)
			continue;
		/* a stage we stopped, or one whose reader died first (it
		 * said why), says nothing more */
		if (WIFSIGNALED(st) && WTERMSIG(st) != SIGPIPE && !failed)
			warnx("%s: killed by signal %d", pl->st[i].argv[0],
			    WTERMSIG(st));
		if (!failed) {
			failed = 1;
			for (j = 0; j < n; j++)
				if (pl->st[j].started && !pl->st[j].done)
					kill(pl->st[j].pid, SIGTERM);
		}
	}
	for (i = 0; i < n; i++) {
		if (tees[i].nout > 0) {
			pthread_join(tees[i].th, NULL);
			failed |= tees[i].failed;
		}
		/* fds of stages never started */
		for (k = 0; k < nclose[i]; k++)
			close(closeafter[i][k]);
	}
	outs_finish(!failed);
	close(devnull);
	for (i = 0; i < n; i++) {
		free(w[i].keep);
		free(tees[i].out);
		free(closeafter[i]);
	}
	free(w);
	free(tees);
	free(closeafter);
	free(nclose);
	return failed ? -1 : 0;
}

/* ---- -v: the pipeline as a shell command ---- */

static void
put_arg(FILE *fp, const char *a)
{
	const char *p;

	for (p = a; *p != '\0'; p++)
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789_@%+=:,./-", *p) == NULL)
			break;
	if (*p == '\0' && *a != '\0') {
		fputs(a, fp);
		return;
	}
	fputc('\'', fp);
	for (p = a; *p != '\0'; p++)
		if (*p == '\'')
			fputs("'\\''", fp);
		else
			fputc(*p, fp);
	fputc('\'', fp);
}

static void print_stage(FILE *, const struct pipeline *, size_t);

/* what follows stage i's command: where its output goes */
static void
print_out(FILE *fp, const struct pipeline *pl, size_t i)
{
	size_t j, nr = 0, last = 0;

	/* the first reader last, at the end of the line: the main
	 * output's writer; the others in tee's process substitutions */
	for (j = pl->n; j-- > 0;)
		if (pl->st[j].in == (int)i) {
			nr++;
			last = j;
		}
	if (nr == 0) {
		if (pl->st[i].outpath != NULL) {
			fputs(" > ", fp);
			put_arg(fp, pl->st[i].outpath);
		}
		return;
	}
	if (nr > 1 || pl->st[i].outpath != NULL) {
		fputs(" | tee", fp);
		if (pl->st[i].outpath != NULL) {
			fputc(' ', fp);
			put_arg(fp, pl->st[i].outpath);
		}
		for (j = 0; j < pl->n; j++)
			if (pl->st[j].in == (int)i && j != last) {
				fputs(" >(", fp);
				print_stage(fp, pl, j);
				fputc(')', fp);
			}
	}
	fputs(" | ", fp);
	print_stage(fp, pl, last);
}

static void
print_stage(FILE *fp, const struct pipeline *pl, size_t i)
{
	const struct stage *s = &pl->st[i];
	int a, k;

	for (a = 0; a < s->argc; a++) {
		if (a > 0)
			fputc(' ', fp);
		for (k = 0; k < s->nfdin && s->fdarg[k] != a; k++)
			;
		if (k < s->nfdin && pl->st[s->fdin[k]].port_of >= 0)
			put_arg(fp, pl->st[s->fdin[k]].pname);
		else if (k < s->nfdin) {
			fputs("<(", fp);
			print_stage(fp, pl, (size_t)s->fdin[k]);
			fputc(')', fp);
		} else
			put_arg(fp, s->argv[a]);
	}
	if (s->in == -2)
		fputs(" < /dev/stdin", fp);
	print_out(fp, pl, i);
}

void
pipeline_print(const struct pipeline *pl)
{
	size_t i, j;
	int k, fed;

	/* one line per stage that nothing feeds: the pipelines' heads */
	for (i = 0; i < pl->n; i++) {
		if (pl->st[i].in >= 0)
			continue;
		for (j = 0, fed = 0; j < pl->n && !fed; j++)
			for (k = 0; k < pl->st[j].nfdin; k++)
				fed |= pl->st[j].fdin[k] == (int)i;
		if (fed)
			continue;
		fprintf(stderr, "%s: ", progname);
		print_stage(stderr, pl, i);
		fputc('\n', stderr);
	}
}
