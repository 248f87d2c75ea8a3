/* See COPYING file for copyright and license details. */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>
#include <stdarg.h>

#include "bigmem.h"
#include "preagg.h"

/* ---- parsing samples, in parallel ----
 *
 * The main thread reads the stream and keeps its state (mappings,
 * contexts, events); of a sample line it parses the head (pid, tid, time,
 * event) and leaves the rest (ip and branch stack) as a job.  The jobs of
 * a block of input are shared out among the parsing threads (the main
 * thread being one), each of which counts into its own raw table; before
 * any other record, and before the block is refilled, the main thread
 * waits for all of them.  The contexts only change while they wait.
 */
struct parser {
	struct rawtab	 t;
	struct lbr	*br;
	size_t		 brcap;
	struct job	*jobs;		/* this thread's share */
	size_t		 njobs;
	uint64_t	 nnolbr, nbranches, nkernel;
	uint64_t	 errline;	/* 0: no error */
	char		 errmsg[160];
	pthread_t	 th;
};

int skylake_check, skylake_fix;

static struct parser *parsers;
static int nparsers;
static pthread_barrier_t bar_go, bar_done;
static int quitting;
static struct job *jobs;
static size_t njobs, capjobs;

static void
job_error(struct parser *ps, const struct job *j, const char *fmt, ...)
	PRINTFLIKE(3, 4);

static void
job_error(struct parser *ps, const struct job *j, const char *fmt, ...)
{
	va_list ap;

	ps->errline = j->lineno;
	va_start(ap, fmt);
	vsnprintf(ps->errmsg, sizeof(ps->errmsg), fmt, ap);
	va_end(ap);
}

/* a sample's ip field at p, "-" for none (0); its length in *len */
int
parse_ip(const char *p, uint64_t *ip, size_t *len)
{
	const char *end;

	*len = strcspn(p, " ");
	if (*len == 1 && *p == '-') {
		*ip = 0;
		return 0;
	}
	return parse_hex64_field(p, &end, ip);
}

/* the ip and branch stack of one sample; 0, or -1 after job_error */
static int
parse_job(struct parser *ps, const struct job *j)
{
	char *p = j->rest, *tok = NULL;
	const char *end;
	size_t n = 0, len;
	uint64_t ip;

	if (parse_ip(p, &ip, &len) == -1) {
		char q[80];

		job_error(ps, j, "bad ip '%s'", vis_str(q, sizeof(q), p, len));
		return -1;
	}
	p += len;
	if (*p == ' ')
		p++;
	/* version 2: the data address, '-' when the event samples none; a
	 * memory event's sample goes to -M's stream, whatever else it is */
	if (ev_version == 2) {
		uint64_t addr;

		len = strcspn(p, " ");
		if (len == 1 && *p == '-')
			;
		else if (len == 0 || parse_hex64_field(p, &end, &addr) == -1 ||
		    end != p + len) {
			char q[80];

			job_error(ps, j, "bad data address '%s'",
			    vis_str(q, sizeof(q), p, len));
			return -1;
		} else if (j->mem && ip != 0)
			raw_count(&ps->t, ip, addr, 0, j->ctx << 4 | RAW_MEM);
		p += len;
		if (*p == ' ')
			p++;
	}
	/* perf2bolt -nl: the sample's ip, whatever its branch stack */
	if (basic_only) {
		if (ip != 0)
			raw_count(&ps->t, ip, j->ev, 0, j->ctx << 4 | RAW_S);
		return 0;
	}
	while (*p != '\0') {
		const char *q = p, *s0;
		uint64_t from, to;
		unsigned nd;
		uint32_t flags;
		char flag;

		/* lineio pads the line: hexscan may load past its end */
		tok = p;
		if ((nd = hexscan(q, &from)) == 0 || q[nd] != '/')
			goto badbranch;
		q += nd + 1;
		if ((nd = hexscan(q, &to)) == 0 || q[nd] != '/')
			goto badbranch;
		q += nd + 1;
		if ((flag = *q) != 'M' && flag != 'P' && flag != '-')
			goto badbranch;
		flags = flag == 'M' ? RAW_MIS : 0;
		q++;
		if (*q == '/') {
			s0 = q;
			while (*q != ' ' && *q != '\0')
				q++;
			/* only the current format tells returns apart */
			if (!lflag && q - s0 == 4 && memcmp(s0, "/RET", 4) == 0)
				flags |= RAW_RET;
		} else if (*q != ' ' && *q != '\0')
			goto badbranch;
		p = (char *)(*q == ' ' ? q + 1 : q);
		if (!kflag && (from >= KERNEL_BASE || to >= KERNEL_BASE)) {
			ps->nkernel++;
			continue;	/* --ignore-interrupt-lbr */
		}
		if (n == ps->brcap)
			xgrow(&ps->br, &ps->brcap, n + 1, sizeof(*ps->br));
		ps->br[n].from = from;
		ps->br[n].to = to;
		ps->br[n].flags = flags;
		n++;
		continue;
badbranch:
		{
			char vis[80];

			job_error(ps, j, "bad branch '%s'", vis_str(vis,
			    sizeof(vis), tok, strcspn(tok, " ")));
		}
		return -1;
	}
	/* --heatmap: the ends of the stack no fall-through covers, the
	 * newest entry's target and the oldest one's source, as S entries
	 * without an event (llvm-bolt-heatmap's parseLBRSample counts them
	 * as basic samples, before the Skylake workaround drops entries) */
	if (hflag && n > 0) {
		raw_count(&ps->t, ps->br[0].to, PA_NO_EVENT, 0,
		    j->ctx << 4 | RAW_S);
		raw_count(&ps->t, ps->br[n - 1].from, PA_NO_EVENT, 0,
		    j->ctx << 4 | RAW_S);
	}
	/* perf2bolt's Skylake workaround (DataAggregator::parseBranchEvents,
	 * for a binary with BAT on x86): once a stack of exactly 32 entries
	 * was seen, the two newest entries of every stack are dropped, that
	 * one included.  There is then one parsing thread, so "once" is in
	 * input order. */
	if (skylake_check && n > 0) {
		if (n == 32)
			skylake_fix = 1;
		if (skylake_fix) {
			size_t k = n < 2 ? n : 2;

			memmove(ps->br, ps->br + k, (n - k) * sizeof(*ps->br));
			n -= k;
			if (n == 0)
				return 0;
		}
	}
	if (n > 0) {
		ps->nbranches += n;
		raw_sample(&ps->t, j->ctx, ps->br, n);
		return 0;
	}
	/* a stack whose every entry has a kernel end counts for nothing,
	 * as in perf2bolt; only a sample without one is an S */
	if (tok != NULL)
		return 0;
	ps->nnolbr++;
	if (lflag || branches_only || ip == 0)
		return 0;
	raw_count(&ps->t, ip, j->ev, 0, j->ctx << 4 | RAW_S);
	return 0;
}

static void
parse_share(struct parser *ps)
{
	size_t i;

	for (i = 0; i < ps->njobs; i++)
		if (parse_job(ps, &ps->jobs[i]) == -1)
			break;
}

static void *
parser_main(void *arg)
{
	struct parser *ps = arg;

	for (;;) {
		pthread_barrier_wait(&bar_go);
		if (quitting)
			return NULL;
		parse_share(ps);
		pthread_barrier_wait(&bar_done);
	}
}

/* parse the pending jobs; dies with the first error, by line */
void
run_jobs(struct lineio *lr)
{
	size_t per, off = 0;
	int i, k = 1;

	if (njobs == 0)
		return;
	/* small batches are not worth waking the others for */
	if (nparsers > 1 && njobs >= 64)
		k = nparsers;
	per = (njobs + (size_t)k - 1) / (size_t)k;
	for (i = 0; i < nparsers; i++) {
		size_t m = i < k && off < njobs ?
		    (njobs - off < per ? njobs - off : per) : 0;

		parsers[i].jobs = jobs + off;
		parsers[i].njobs = m;
		off += m;
	}
	if (k > 1) {
		pthread_barrier_wait(&bar_go);
		parse_share(&parsers[0]);
		pthread_barrier_wait(&bar_done);
	} else
		parse_share(&parsers[0]);
	njobs = 0;
	/* a raw table that has grown large is resolved into the entries
	 * early, so that memory follows the distinct entries written (for
	 * --legacy: pairs) rather than the distinct triples (the first
	 * flush waits for the functions: functions_wait) */
	for (i = 0; i < nparsers; i++)
		if (parsers[i].t.n > RAW_FLUSH_AT)
			raw_flush(&parsers[i].t);
	for (i = 0, k = -1; i < nparsers; i++)
		if (parsers[i].errline &&
		    (k == -1 || parsers[i].errline < parsers[k].errline))
			k = i;
	if (k >= 0) {
		lr->lineno = parsers[k].errline;
		lr_errx(lr, "%s", parsers[k].errmsg);
	}
}

void
parsers_start(int n)
{
	int i, e;

	nparsers = n;
	parsers = xcalloc((size_t)n, sizeof(*parsers));
	if (n == 1)
		return;
	if ((e = pthread_barrier_init(&bar_go, NULL, (unsigned)n)) != 0 ||
	    (e = pthread_barrier_init(&bar_done, NULL, (unsigned)n)) != 0) {
		errno = e;
		err(1, "pthread_barrier_init");
	}
	for (i = 1; i < n; i++)
		if ((e = pthread_create(&parsers[i].th, NULL, parser_main,
		    &parsers[i])) != 0) {
			errno = e;
			err(1, "pthread_create");
		}
}

void
parsers_stop(void)
{
	int i;

	if (nparsers > 1) {
		quitting = 1;
		pthread_barrier_wait(&bar_go);
		for (i = 1; i < nparsers; i++)
			pthread_join(parsers[i].th, NULL);
		pthread_barrier_destroy(&bar_go);
		pthread_barrier_destroy(&bar_done);
	}
	for (i = 0; i < nparsers; i++) {
		nnolbr += parsers[i].nnolbr;
		nbranches += parsers[i].nbranches;
		nkernel += parsers[i].nkernel;
		big_free(parsers[i].t.slot, parsers[i].t.cap,
		    sizeof(*parsers[i].t.slot));
		free(parsers[i].t.ovf);
		free(parsers[i].br);
	}
	free(parsers);
	parsers = NULL;
	nparsers = 0;
}

/* a new job for the pending block */
struct job *
job_new(void)
{
	xgrow(&jobs, &capjobs, njobs + 1, sizeof(*jobs));
	return &jobs[njobs++];
}

/* resolve every parser's raw table (they are idle) */
void
flush_parsers(void)
{
	int k;

	for (k = 0; k < nparsers; k++)
		raw_flush(&parsers[k].t);
}
