/* See COPYING file for copyright and license details. */
/*
 * events.c: the profpipe-events stream: side-band records (mmap, fork,
 * comm, exit, buildid), per-process state indexed by pid, mapping
 * contexts, and the head of each sample (the rest is parse.c's).
 *
 * Each process has its own slot in a hash table by pid with its
 * mappings of the selected binaries, so that a record costs the same
 * whatever the number of processes.  A process that exits is dropped a
 * while later (after EXIT_LAG more exits): in file order a sample may
 * follow its process's exit record.
 *
 * In file order a sample may also come before the mmap (or fork) record
 * that gives its process the binary, though it is later in time: perf
 * writes each CPU's buffer in turn.  perf script (and so perf2bolt) sorts
 * by time and attributes it.  So the latest samples of processes without
 * a mapping are kept (PEND_MAX of them, PEND_BYTES of text at most), and
 * a mapping of a selected binary replays those of its process that are
 * no older than the mapping.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preagg.h"

#define PID_NONE	INT64_MIN	/* "-": no pid field */
#define EXIT_LAG	4096
#define PEND_MAX	65536		/* a power of two */
#define PEND_BYTES	((size_t)16 << 20)

extern int64_t *pids;
extern size_t npids;

/* the state of one process */
struct pidslot {
	int64_t		 pid;
	uint32_t	 ctx;	/* 0 = unknown (mappings changed), 1 = no
				 * mappings of a selected binary, c + 2 =
				 * ctxs[c] */
	uint8_t		 used, exited;
	uint16_t	 nmaps, capmaps;
	struct mapping	*maps;
	uint64_t	 pend;	/* sequence number + 1 of its newest pending
				 * sample, 0: none */
};
static struct pidslot *pidtab;
static size_t pidcap, pidn;

/* exited pids, oldest first, to be dropped EXIT_LAG exits later */
static int64_t exitq[EXIT_LAG];
static size_t exitqn, exitqhead;

static int event_mem(uint32_t);
struct ctx *ctxs;
static size_t nctx, capctx;
struct mapping *snap;
static size_t nsnap, capsnap;

/* samples waiting for their process's mapping: a ring by sequence
 * number; each links to the previous one of its process */
struct pending {
	uint64_t	 seq;		/* which sample holds the ring slot */
	uint64_t	 prev;		/* seq + 1 of its process's previous one */
	uint64_t	 need;		/* the binaries it still waits for, a
					 * bit each: all of them when its
					 * process had none mapped, else those
					 * it lacked (several binaries) */
	uint64_t	 time, lineno;
	uint32_t	 ev;
	char		*rest;		/* a copy of the ip field onward */
	size_t		 len;
};
static struct pending *pend;
static uint64_t pendseq, pendfirst;	/* next, oldest live */
static size_t pendbytes;
static char **replayed;			/* copies the queued jobs point to */
static size_t nreplayed, capreplayed;

/* path -> build-id, from "buildid" records: the paths interned, their
 * build-ids by the same number */
static struct strtab bidpaths;
static char **bidhex;
static size_t bidhexcap;

char *seen_names[NNAMES];
int nseen;

/* ---- fields ---- */

/* next space-separated field of *p; NULL at end of line */
static char *
field(char **p, size_t *len)
{
	char *s = *p, *e;

	if (s == NULL || *s == '\0')
		return NULL;
	e = strchr(s, ' ');
	if (e == NULL) {
		*len = strlen(s);
		*p = s + *len;
	} else {
		*len = (size_t)(e - s);
		*p = e + 1;
	}
	return s;
}

/* a decimal field (20 digits at most) up to max; '-' gives dash */
static int
fld_dec(char **p, uint64_t max, uint64_t dash, uint64_t *v)
{
	size_t len;
	char *s = field(p, &len);
	const char *end;
	uint64_t x;

	if (s == NULL || len == 0)
		return -1;
	if (len == 1 && *s == '-') {
		*v = dash;
		return 0;
	}
	if (len > 20 || parse_dec64_field(s, &end, &x) == -1 ||
	    end != s + len || x > max)
		return -1;
	*v = x;
	return 0;
}

/* a pid or tid: u32 decimal, -1, or '-' (PID_NONE) */
static int
fld_pid(char **p, int64_t *pid)
{
	uint64_t v;

	if (**p == '-' && (*p)[1] == '1' && ((*p)[2] == ' ' || (*p)[2] == '\0')) {
		*p += (*p)[2] == ' ' ? 3 : 2;
		*pid = -1;
		return 0;
	}
	if (fld_dec(p, UINT32_MAX, UINT64_MAX, &v) == -1)
		return -1;
	*pid = v == UINT64_MAX ? PID_NONE : (int64_t)v;
	return 0;
}

/* a time in nanoseconds (u64), or '-' (UINT64_MAX) */
static int
fld_time(char **p, uint64_t *t)
{
	return fld_dec(p, UINT64_MAX, UINT64_MAX, t);
}

static int
fld_hex(char **p, uint64_t *v)
{
	const char *end;

	if (**p == '\0' || parse_hex64_field(*p, &end, v) == -1)
		return -1;
	if (*end != ' ' && *end != '\0')
		return -1;
	*p = (char *)(*end == ' ' ? end + 1 : end);
	return 0;
}

static const char *
basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int
wanted_pid(int64_t pid)
{
	size_t i;

	if (npids == 0)
		return 1;
	for (i = 0; i < npids; i++)
		if (pids[i] == pid)
			return 1;
	return 0;
}

static const char *
buildid_for_path(const char *path)
{
	long i = strtab_find(&bidpaths, path, strlen(path));

	return i >= 0 ? bidhex[i] : NULL;
}

static void
note_name(const char *name)
{
	int i;

	for (i = 0; i < nseen; i++)
		if (strcmp(seen_names[i], name) == 0)
			return;
	if (nseen < NNAMES)
		seen_names[nseen++] = xstrdup(name);
}

/* ---- per-process state ---- */

static size_t
pid_home(int64_t pid)
{
	return (size_t)(((uint64_t)pid * 0x9e3779b97f4a7c15ULL) >> 20) &
	    (pidcap - 1);
}

/* the slot of pid, or NULL */
static struct pidslot *
pid_find(int64_t pid)
{
	size_t j;

	if (pidcap == 0)
		return NULL;
	for (j = pid_home(pid); pidtab[j].used; j = (j + 1) & (pidcap - 1))
		if (pidtab[j].pid == pid)
			return &pidtab[j];
	return NULL;
}

/* the slot of pid, made if need be */
static struct pidslot *
pid_slot(int64_t pid)
{
	struct pidslot *s;
	size_t j;

	if ((s = pid_find(pid)) != NULL)
		return s;
	if ((pidn + 1) * 2 > pidcap) {
		struct pidslot *old = pidtab;
		size_t oldcap = pidcap, i;

		pidcap = pidcap ? pidcap * 2 : 64;
		pidtab = xcalloc(pidcap, sizeof(*pidtab));
		for (i = 0; i < oldcap; i++) {
			if (!old[i].used)
				continue;
			for (j = pid_home(old[i].pid); pidtab[j].used;
			    j = (j + 1) & (pidcap - 1))
				;
			pidtab[j] = old[i];
		}
		free(old);
	}
	for (j = pid_home(pid); pidtab[j].used; j = (j + 1) & (pidcap - 1))
		;
	memset(&pidtab[j], 0, sizeof(pidtab[j]));
	pidtab[j].used = 1;
	pidtab[j].pid = pid;
	pidn++;
	return &pidtab[j];
}

/* forget pid: linear probing's deletion, moving back the slots after it
 * that would no longer be found */
static void
pid_drop(int64_t pid)
{
	struct pidslot *s = pid_find(pid);
	size_t i, j, k;

	if (s == NULL)
		return;
	free(s->maps);
	i = (size_t)(s - pidtab);
	pidtab[i].used = 0;
	pidn--;
	for (j = (i + 1) & (pidcap - 1); pidtab[j].used;
	    j = (j + 1) & (pidcap - 1)) {
		k = pid_home(pidtab[j].pid);
		/* the slot at j may move to the hole at i unless its home
		 * lies cyclically in (i, j] */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		pidtab[i] = pidtab[j];
		pidtab[j].used = 0;
		i = j;
	}
}

static struct mapping *
find_map(struct pidslot *s, int bin)
{
	uint16_t i;

	for (i = 0; i < s->nmaps; i++)
		if (s->maps[i].bin == bin)
			return &s->maps[i];
	return NULL;
}

static struct mapping *
add_map(struct pidslot *s)
{
	if (s->nmaps == s->capmaps) {
		size_t cap = s->capmaps;

		xgrow(&s->maps, &cap, (size_t)s->nmaps + 1, sizeof(*s->maps));
		s->capmaps = cap > UINT16_MAX ? UINT16_MAX : (uint16_t)cap;
	}
	return &s->maps[s->nmaps++];
}

/* a record about pid: it lives (again, if its pid was reused) */
static struct pidslot *
pid_alive(int64_t pid)
{
	struct pidslot *s = pid_slot(pid);

	s->exited = 0;
	return s;
}

/* ---- samples before their mapping ---- */

static void
pend_evict(void)
{
	struct pending *p = &pend[pendfirst & (PEND_MAX - 1)];

	pendbytes -= p->len;
	free(p->rest);
	p->rest = NULL;
	pendfirst++;
}

/* the selected binaries, a bit each */
static uint64_t
all_bins(void)
{
	return nbins >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << nbins) - 1;
}

/* the binaries pid's mappings hold */
static uint64_t
maps_mask(const struct pidslot *s)
{
	uint64_t m = 0;
	uint16_t i;

	for (i = 0; i < s->nmaps; i++)
		m |= (uint64_t)1 << s->maps[i].bin;
	return m;
}

/* keep a sample of pid at time t, which waits for the binaries need */
static void
pend_add(int64_t pid, uint64_t t, uint32_t ev, uint64_t lineno,
    const char *rest, uint64_t need)
{
	struct pidslot *s = pid_slot(pid);
	struct pending *p;
	size_t len = strlen(rest);

	if (pend == NULL)
		pend = xcalloc(PEND_MAX, sizeof(*pend));
	while (pendseq - pendfirst == PEND_MAX ||
	    (pendfirst < pendseq && pendbytes + len > PEND_BYTES))
		pend_evict();
	p = &pend[pendseq & (PEND_MAX - 1)];
	p->seq = pendseq;
	p->prev = s->pend;
	p->need = need;
	p->time = t;
	p->lineno = lineno;
	p->ev = ev;
	/* parse.c reads a line with hexscan, which may load LR_PAD bytes
	 * past any position: the copy has them, as lineio's lines do */
	p->rest = xmalloc(len + 1 + LR_PAD);
	memcpy(p->rest, rest, len);
	memset(p->rest + len, 0, 1 + LR_PAD);
	p->len = len;
	pendbytes += len;
	s->pend = ++pendseq;
}

static struct pending *
pend_get(uint64_t ref)
{
	struct pending *p;

	if (ref == 0 || ref - 1 < pendfirst)
		return NULL;
	p = &pend[(ref - 1) & (PEND_MAX - 1)];
	return p->seq == ref - 1 && p->rest != NULL ? p : NULL;
}

static uint32_t	 pid_ctx(struct lineio *, int64_t);
static uint32_t	 ctx_subset(struct lineio *, struct pidslot *, uint64_t);

/*
 * pid got a mapping at time t: its pending samples from t on are counted
 * for the binaries it now maps and they waited for.  With one binary,
 * that is every sample taken when the process mapped nothing.  With
 * several, a sample counted with the mappings its process had (a program
 * before the library it loads, in file order) is counted again for the
 * binaries it lacked, under those alone: each binary's entries are then
 * what they would have been with every mapping in place (a branch from
 * the program into the library is one entry for the program with its
 * target outside, and one for the library with its source outside),
 * and nothing is counted twice for one binary.  A sample still waiting
 * for a binary stays, until the ring drops it.
 */
static void
pend_replay(struct lineio *lr, int64_t pid, uint64_t t)
{
	struct pidslot *s = pid_find(pid);
	struct pending *p, *last = NULL;
	uint64_t ref, head = 0, have, all = all_bins();
	uint32_t c;

	if (s == NULL || s->pend == 0 || (have = maps_mask(s)) == 0)
		return;
	ref = s->pend;
	for (; (p = pend_get(ref)) != NULL; ref = p->prev) {
		uint64_t take = p->need & have;

		if (p->time >= t && take != 0) {
			struct job *j;

			c = take == have ? pid_ctx(lr, pid) :
			    ctx_subset(lr, s, take);
			if (p->need == all)
				nused++;
			j = job_new();
			j->rest = p->rest;	/* kept until the jobs ran */
			j->lineno = p->lineno;
			j->ctx = c - 2;
			j->ev = p->ev;
			j->mem = event_mem(p->ev);
			p->need &= ~take;
		}
		if (p->need == 0) {
			/* freed once the jobs have run */
			xgrow(&replayed, &capreplayed, nreplayed + 1,
			    sizeof(*replayed));
			replayed[nreplayed++] = p->rest;
			pendbytes -= p->len;
			p->rest = NULL;
			continue;
		}
		/* still waiting: the process's list holds it */
		if (last == NULL)
			head = ref;
		else
			last->prev = ref;
		last = p;
	}
	if (last != NULL)
		last->prev = 0;
	s->pend = head;
	run_jobs(lr);
	while (nreplayed > 0)
		free(replayed[--nreplayed]);
}

/* ---- records ---- */

static void
on_mmap(struct lineio *lr, char *p)
{
	int64_t pid, tid;
	uint64_t t, start, len, pgoff, base = 0;
	size_t n;
	char *prot, *bid, *path;
	const char *name, *known;
	struct pidslot *s = NULL;
	int i;

	if (fld_pid(&p, &pid) || fld_pid(&p, &tid) || fld_time(&p, &t) ||
	    fld_hex(&p, &start) || fld_hex(&p, &len) || fld_hex(&p, &pgoff) ||
	    (prot = field(&p, &n)) == NULL || n != 4 ||
	    (bid = field(&p, &n)) == NULL || *p == '\0')
		lr_errx(lr, "malformed mmap record");
	bid[n] = '\0';
	path = p;
	if (pid == -1 || pid == PID_NONE || strncmp(path, "//", 2) == 0 ||
	    path[0] == '[')
		return;
	name = basename_of(path);
	if (strcmp(name, "(deleted)") == 0)
		return;
	known = strcmp(bid, "-") != 0 ? bid : buildid_for_path(path);
	if (prot[2] == 'x')
		note_name(name);
	for (i = 0; i < nbins; i++) {
		struct binary *b = &bins[i];
		struct mapping *m;

		if (known != NULL && b->bb.bid[0] != '\0' && !ignore_bid) {
			if (strncmp(known, b->bb.bid, strlen(known)) != 0) {
				/* perf2bolt stops there, unless it is told
				 * to --ignore-build-id (see main.c) */
				if (strcmp(name, b->name) == 0 &&
				    b->otherbid[0] == '\0')
					snprintf(b->otherbid,
					    sizeof(b->otherbid), "%s", known);
				continue;
			}
		} else if (strcmp(name, b->name) != 0)
			continue;
		if (s == NULL)
			s = pid_alive(pid);
		/* perf2bolt keeps the first mapping of the binary per pid */
		if ((m = find_map(s, i)) != NULL && !m->forked)
			continue;
		if (b->fixed) {
			if (!fixed_mapping_matches(b, start)) {
				functions_wait();	/* their messages first */
				if (!qflag)
					lr_warnx(lr, "ignoring mapping of %s at "
					    "0x%" PRIx64, b->name, start);
				continue;
			}
		} else if (mapping_base(b, start, pgoff,
		    !lflag && prot[2] == 'x', &base) == -1) {
			functions_wait();	/* their messages first */
			if (!qflag)
				lr_warnx(lr, "no segment of %s at file offset "
				    "0x%" PRIx64 ": ignoring the mapping at 0x%"
				    PRIx64, b->name, pgoff, start);
			continue;
		}
		if (m == NULL)
			m = add_map(s);
		*m = (struct mapping){ i, 0, start, len, base };
		b->nmapped++;
		s->ctx = 0;
	}
	if (s != NULL && s->nmaps > 0)
		pend_replay(lr, pid, t == UINT64_MAX ? 0 : t);
}

static void
on_fork(struct lineio *lr, char *p)
{
	int64_t pid, ppid, tid, ptid;
	uint64_t t;
	struct pidslot *parent, *child;
	uint16_t i, n;

	if (fld_pid(&p, &pid) || fld_pid(&p, &ppid) || fld_pid(&p, &tid) ||
	    fld_pid(&p, &ptid) || fld_time(&p, &t) || *p != '\0')
		lr_errx(lr, "malformed fork record");
	/* as perf2bolt: a child forked during the recording inherits its
	 * parent's mappings of the binary */
	if (pid == ppid || t == 0 || (parent = pid_find(ppid)) == NULL ||
	    parent->nmaps == 0)
		return;
	child = pid_alive(pid);
	parent = pid_find(ppid);	/* the table may have grown */
	n = parent->nmaps;
	for (i = 0; i < n; i++) {
		struct mapping *m;

		if (find_map(child, parent->maps[i].bin) != NULL)
			continue;
		m = add_map(child);
		*m = parent->maps[i];
		m->forked = 1;
		child->ctx = 0;
	}
	if (child->nmaps > 0)
		pend_replay(lr, pid, t == UINT64_MAX ? 0 : t);
}

static void
on_comm(struct lineio *lr, char *p)
{
	int64_t pid, tid;
	uint64_t t, exec;
	struct pidslot *s;
	uint16_t i;

	if (fld_pid(&p, &pid) || fld_pid(&p, &tid) || fld_time(&p, &t) ||
	    fld_dec(&p, 1, UINT64_MAX, &exec) || exec == UINT64_MAX)
		lr_errx(lr, "malformed comm record");
	if (exec != 1 || (s = pid_find(pid)) == NULL)
		return;
	s->exited = 0;
	/* a forked child that runs execve loses the inherited mappings */
	for (i = 0; i < s->nmaps;) {
		if (s->maps[i].forked) {
			s->maps[i] = s->maps[--s->nmaps];
			s->ctx = 0;
		} else
			i++;
	}
}

static void
on_exit_rec(struct lineio *lr, char *p)
{
	int64_t pid, ppid, tid, ptid, old;
	uint64_t t;
	struct pidslot *s;

	if (fld_pid(&p, &pid) || fld_pid(&p, &ppid) || fld_pid(&p, &tid) ||
	    fld_pid(&p, &ptid) || fld_time(&p, &t) || *p != '\0')
		lr_errx(lr, "malformed exit record");
	/* a thread's exit is not its process's */
	if (pid != tid)
		return;
	if ((s = pid_find(pid)) != NULL) {
		if (s->exited)
			return;
		s->exited = 1;
	}
	if (exitqn == EXIT_LAG) {
		old = exitq[exitqhead];
		exitqhead = (exitqhead + 1) % EXIT_LAG;
		exitqn--;
		if ((s = pid_find(old)) != NULL && s->exited)
			pid_drop(old);
	}
	exitq[(exitqhead + exitqn++) % EXIT_LAG] = pid;
}

static void
on_buildid(struct lineio *lr, char *p)
{
	int64_t pid;
	size_t n;
	uint32_t i;
	char *bid;

	if (fld_pid(&p, &pid) || (bid = field(&p, &n)) == NULL || *p == '\0')
		lr_errx(lr, "malformed buildid record");
	if (strtab_find(&bidpaths, p, strlen(p)) >= 0)
		return;		/* the first record of a path holds */
	i = strtab_intern(&bidpaths, p, strlen(p));
	xgrow(&bidhex, &bidhexcap, (size_t)i + 1, sizeof(*bidhex));
	bidhex[i] = xstrndup(bid, n);
}

/* ---- contexts ---- */

/* resolve everything counted so far and forget the contexts (the parsers
 * are idle) */
void
flush_all(void)
{
	size_t i;

	flush_parsers();
	nctx = nsnap = 0;
	for (i = 0; i < pidcap; i++)
		pidtab[i].ctx = 0;
}

/* the context of pid's mappings now (see struct pidslot); the pending
 * jobs must have run before a flush */
static uint32_t
pid_ctx(struct lineio *lr, int64_t pid)
{
	struct pidslot *s = pid_find(pid);
	uint16_t i;
	size_t first;

	if (s == NULL || s->nmaps == 0)
		return 1;
	if (s->ctx != 0)
		return s->ctx;
	if (nctx >= CTX_MAX || nsnap >= SNAP_MAX) {
		run_jobs(lr);
		flush_all();
	}
	first = nsnap;
	xgrow(&snap, &capsnap, nsnap + s->nmaps, sizeof(*snap));
	for (i = 0; i < s->nmaps; i++)
		snap[nsnap++] = s->maps[i];
	xgrow(&ctxs, &capctx, nctx + 1, sizeof(*ctxs));
	ctxs[nctx].first = first;
	ctxs[nctx].n = nsnap - first;
	return s->ctx = (uint32_t)(nctx++ + 2);
}

/* a context of pid's mappings of the binaries mask only (not cached:
 * see pend_replay) */
static uint32_t
ctx_subset(struct lineio *lr, struct pidslot *s, uint64_t mask)
{
	int64_t pid = s->pid;
	size_t first;
	uint16_t i;

	if (nctx >= CTX_MAX || nsnap + s->nmaps > SNAP_MAX) {
		run_jobs(lr);
		flush_all();
		s = pid_find(pid);
	}
	first = nsnap;
	xgrow(&snap, &capsnap, nsnap + s->nmaps, sizeof(*snap));
	for (i = 0; i < s->nmaps; i++)
		if (mask & (uint64_t)1 << s->maps[i].bin)
			snap[nsnap++] = s->maps[i];
	xgrow(&ctxs, &capctx, nctx + 1, sizeof(*ctxs));
	ctxs[nctx].first = first;
	ctxs[nctx].n = nsnap - first;
	return (uint32_t)(nctx++ + 2);
}

/* the event's index, without a search for the usual repeat */
static uint32_t
sample_event(const char *ev, size_t evlen)
{
	static const char *lastev;
	static size_t lastevlen;
	static uint32_t lastevi;

	if (lastev == NULL || evlen != lastevlen ||
	    memcmp(ev, lastev, evlen) != 0) {
		lastevi = event_index(ev, evlen);
		lastev = event_name(lastevi);
		lastevlen = evlen;
	}
	return lastevi;
}

int ev_version = 1;

/* is event ev a memory event whose samples -M writes: perf2bolt takes
 * the samples of an event whose name has "mem-loads" in it
 * (DataAggregator::parseMemSample), as perf mem and cpu/mem-loads/
 * record them; answered once per event */
static int
event_mem(uint32_t ev)
{
	static uint8_t *known;		/* 0 not asked, 1 no, 2 yes */
	static size_t cap;

	if (memfile == NULL)
		return 0;
	if (ev >= cap) {
		size_t old = cap;

		xgrow(&known, &cap, (size_t)ev + 1, sizeof(*known));
		memset(known + old, 0, cap - old);
	}
	if (known[ev] == 0)
		known[ev] = strstr(event_name(ev), "mem-loads") != NULL ? 2 : 1;
	return known[ev] == 2;
}

/* the head of a sample line; the rest becomes a job */
static void
on_sample(struct lineio *lr, char *p)
{
	int64_t pid, tid;
	uint64_t t, ip;
	size_t len, evlen;
	char *ev;
	uint32_t c;
	struct job *j;

	if (fld_pid(&p, &pid) || fld_pid(&p, &tid) || fld_time(&p, &t) ||
	    (ev = field(&p, &evlen)) == NULL || *p == '\0') {
		run_jobs(lr);	/* an error on an earlier line comes first */
		lr_errx(lr, "malformed sample record");
	}
	nsamples++;
	if (!wanted_pid(pid) || (c = pid_ctx(lr, pid)) == 1) {
		if (parse_ip(p, &ip, &len) == -1) {
			char q[80];

			run_jobs(lr);
			lr_errx(lr, "bad ip '%s'", vis_str(q, sizeof(q), p, len));
		}
		/* its mapping may come later in the file, earlier in time */
		if (wanted_pid(pid) && pid != PID_NONE && pid != -1 &&
		    t != UINT64_MAX)
			pend_add(pid, t, sample_event(ev, evlen), lr->lineno, p,
			    all_bins());
		return;
	}
	nused++;
	j = job_new();
	j->rest = p;
	j->lineno = lr->lineno;
	j->ctx = c - 2;
	j->ev = sample_event(ev, evlen);
	j->mem = event_mem(j->ev);
	/* with several binaries, a process may map one later in file
	 * order, earlier in time: the sample waits for those it lacks */
	if (nbins > 1 && pid != PID_NONE && pid != -1 && t != UINT64_MAX) {
		struct pidslot *s = pid_find(pid);
		uint64_t lack = all_bins() & ~maps_mask(s);

		if (lack != 0)
			pend_add(pid, t, j->ev, lr->lineno, p, lack);
	}
}

/* a new recording: what was known of processes, mappings and build-ids
 * belongs to the one before (everything counted so far is resolved) */
static void
new_recording(void)
{
	size_t i;

	for (i = 0; i < pidcap; i++)
		if (pidtab[i].used)
			free(pidtab[i].maps);
	if (pidcap > 0)
		memset(pidtab, 0, pidcap * sizeof(*pidtab));
	pidn = 0;
	exitqn = exitqhead = 0;
	while (pendfirst < pendseq)
		pend_evict();
	for (i = 0; i < bidpaths.n; i++)
		free(bidhex[i]);
	strtab_free(&bidpaths);
	memset(&bidpaths, 0, sizeof(bidpaths));
}

void
aggregate(const char *path)
{
	static int nrec;
	struct lineio lr;
	char *p, q[80];
	int r;

	/* each file is a recording of its own (perf2bolt -p a -p b) */
	if (nrec++ > 0)
		new_recording();
	if (lr_open(&lr, path) == -1)
		prog_open_error(path);
	ev_version = 1;		/* a stream without its header line */
	for (;;) {
		/* the jobs point into the block: they run before it moves */
		if ((r = lr_next_buffered(&lr)) == -1) {
			run_jobs(&lr);
			r = lr_next(&lr);
		}
		if (r == 0)
			break;
		p = lr.buf;
		if (strncmp(p, "sample ", 7) == 0) {
			on_sample(&lr, p + 7);
			continue;
		}
		run_jobs(&lr);
		if (lr.lineno == 1 && strncmp(p, "# ", 2) == 0) {
			if (strncmp(p, "# profpipe-events ", 18) != 0)
				lr_errx(&lr, "expected a 'profpipe-events' "
				    "stream");
			/* version 2 adds the data address to samples */
			if (strcmp(p + 18, "1") == 0)
				ev_version = 1;
			else if (strcmp(p + 18, "2") == 0)
				ev_version = 2;
			else
				lr_errx(&lr, "profpipe-events version '%s': "
				    "this preagg reads versions 1 and 2",
				    vis_str(q, sizeof(q), p + 18,
				    strlen(p + 18)));
		}
		if (*p == '#' || *p == '\0')
			continue;
		if (strncmp(p, "mmap ", 5) == 0)
			on_mmap(&lr, p + 5);
		else if (strncmp(p, "fork ", 5) == 0)
			on_fork(&lr, p + 5);
		else if (strncmp(p, "comm ", 5) == 0)
			on_comm(&lr, p + 5);
		else if (strncmp(p, "exit ", 5) == 0)
			on_exit_rec(&lr, p + 5);
		else if (strncmp(p, "buildid ", 8) == 0)
			on_buildid(&lr, p + 8);
		else if (strncmp(p, "lost ", 5) == 0)
			continue;
		else
			lr_errx(&lr, "unknown record '%s'",
			    vis_str(q, sizeof(q), p, strcspn(p, " ")));
	}
	run_jobs(&lr);
	flush_all();
	if (memfile != NULL && ev_version == 1 && !qflag)
		warnx("%s: a profpipe-events 1 stream has no data addresses: "
		    "no memory samples for --mem", path);
	lr_close(&lr);
}
