/* See COPYING file for copyright and license details. */
/*
 * preagg: fold the profpipe-events stream (perfdecode) into BOLT's
 * pre-aggregated profile (llvm-bolt --pa), or sum pre-aggregated
 * profiles (--merge).
 *
 * The --legacy aggregation is DataAggregator's (LLVM 19): for each LBR
 * stack, most recent entry first, a fall-through trace runs from an
 * entry's target to the next newer entry's source and is kept when one
 * function holds both ends (F when that function also holds the branch
 * source, f otherwise); a taken branch is kept when either end lies in a
 * function, the other end becoming 0.  perf2bolt --pa then derives from
 * B/F/f exactly what perf2bolt -p derives from perf.data.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <gelf.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

#define KERNEL_BASE	0xffff800000000000ULL
#define BR_ONLY		UINT64_MAX
#define MAXBIN		64
#define NOADDR		UINT64_MAX	/* an adjusted address owned by nobody */
#define X_BIN		(-3)		/* an entry's location is X:address */

enum { K_B, K_F, K_f, K_T, K_R, K_S };
static const char kindch[] = "BFfTRS";

struct func {
	uint64_t	start, end;
};

struct binary {
	char		*path;
	const char	*name;		/* basename, matched as perf2bolt does */
	char		 buildid[129];	/* hex, "" if none */
	int		 fixed;		/* ET_EXEC: addresses are not rebased */
	struct elfobj	 eo;
	struct func	*funcs;
	size_t		 nfuncs;
};

struct mapping {
	int64_t		 pid;
	int		 bin;
	int		 forked;
	uint64_t	 start, size, base;
};

/* a pre-aggregated entry: kind, up to three locations (binary index and
 * address; bin -1 = external/0), counts */
struct entry {
	uint64_t	 a[3];
	uint32_t	 ev;		/* event index, for S */
	uint8_t		 kind;
	int8_t		 bin[3];
	uint64_t	 count, mis;
};

static struct binary bins[MAXBIN];
static int nbins;
static int lflag, mflag, qflag, vflag, buildid_locs;
static int64_t *pids;
static size_t npids;

static struct mapping *maps;
static size_t nmaps, capmaps;

/* entries, dense, in order of first appearance, and an open-addressing
 * index over them: a slot holds the upper half of the key's hash and the
 * entry's number + 1, so probes stay in a small array that caches well */
static struct entry *tab;
static size_t tabcap, tabn;
static uint64_t *idx;
static size_t idxcap;

static char **events;
static size_t nevents, capevents;

/* path -> build-id from "buildid" records */
static char **bid_path, **bid_hex;
static size_t nbid, capbid, capbid2;

static uint64_t nsamples, nused, nnolbr, nbranches, nkernel;

/* the names of the first executable mappings, for a hint when no
 * mapping matches a binary (as perf2bolt lists the names it saw) */
#define NNAMES	8
static char *seen_names[NNAMES];
static int nseen;

/* hex digit values, -1 for anything else (filled by main) */

static void	 load_binary(struct binary *);
static void	 aggregate(const char *);
static void	 pid_dirty(int64_t);
static void	 parsers_start(int);
static int	 default_threads(const char *);
static void	 parsers_stop(void);
static void	 merge(const char *);
static void	 write_entries(FILE *);
static noreturn void usage(int);

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "binary",	required_argument, NULL, 'b' },
		{ "buildid-locations", no_argument, NULL, 'B' },
		{ "legacy",	no_argument,	   NULL, 'l' },
		{ "merge",	no_argument,	   NULL, 'm' },
		{ "output",	required_argument, NULL, 'o' },
		{ "pid",	required_argument, NULL, 'p' },
		{ "threads",	required_argument, NULL, 'j' },
		{ "quiet",	no_argument,	   NULL, 'q' },
		{ "verbose",	no_argument,	   NULL, 'v' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ "version",	no_argument,	   NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct output out;
	const char *ofile = NULL;
	uint64_t v;
	int ch, i, nthreads;	/* parsing threads */

	prog_init(argc, argv);
	nthreads = 0;	/* default_threads() */
	while ((ch = getopt_long(argc, argv, "b:Bj:lmo:p:qvh", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'b':
			if (nbins == MAXBIN)
				prog_usage_error("more than %d binaries", MAXBIN);
			bins[nbins++].path = optarg;
			break;
		case 'B':
			buildid_locs = 1;
			break;
		case 'j':
			if (parse_u64(optarg, 10, 256, &v) == -1 || v == 0)
				prog_usage_error("bad thread count '%s'", optarg);
			nthreads = (int)v;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'm':
			mflag = 1;
			break;
		case 'o':
			ofile = optarg;
			break;
		case 'p':
			if (parse_u64(optarg, 10, INT32_MAX, &v) == -1)
				prog_usage_error("bad pid '%s'", optarg);
			pids = xreallocarray(pids, npids + 1, sizeof(*pids));
			pids[npids++] = (int64_t)v;
			break;
		case 'q':
			qflag = 1;
			break;
		case 'v':
			vflag = 1;
			break;
		case 'h':
			usage(0);
		case 'V':
			prog_version();
		default:
			prog_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (mflag && nbins)
		prog_usage_error("--merge takes no --binary");
	if (!mflag && nbins == 0)
		prog_usage_error("no --binary given");
	for (i = 0; i < nbins; i++)
		load_binary(&bins[i]);
	if (nbins > 1)
		buildid_locs = 1;
	for (i = 0; i < nbins && buildid_locs; i++)
		if (bins[i].buildid[0] == '\0')
			errx(1, "%s: no build-id, needed for buildid:offset "
			    "locations", bins[i].path);

	out_open(&out, ofile);
	if (!mflag)
		parsers_start(nthreads ? nthreads :
		    default_threads(argc == 0 ? "-" : argv[0]));
	if (argc == 0) {
		if (mflag)
			merge("-");
		else
			aggregate("-");
	}
	for (i = 0; i < argc; i++) {
		if (mflag)
			merge(argv[i]);
		else
			aggregate(argv[i]);
	}
	if (!mflag)
		parsers_stop();
	if (!mflag && !qflag) {
		if (nsamples == 0)
			warnx("no samples in the input");
		else if (nused == 0) {
			char names[600] = "";
			size_t len = 0;

			for (i = 0; i < nseen && len < sizeof(names) - 1; i++)
				len += (size_t)snprintf(names + len,
				    sizeof(names) - len, "%s%s", i ? ", " : "",
				    seen_names[i]);
			if (len >= sizeof(names))
				len = sizeof(names) - 1;
			warnx("no samples of the selected binaries (%" PRIu64
			    " samples read%s%s%s)", nsamples,
			    nseen ? "; code mapped from " : "", names,
			    nseen == NNAMES ? ", ..." : "");
		}
		else if (lflag && nnolbr == nused)
			warnx("the samples have no branch stacks: --legacy "
			    "writes nothing for them");
	}
	if (vflag && !mflag)
		fprintf(stderr, "%s: %" PRIu64 " samples, %" PRIu64 " of the "
		    "selected binaries (%" PRIu64 " without branch stack), %"
		    PRIu64 " branch-stack entries kept, %" PRIu64 " with a "
		    "kernel end dropped; %zu distinct entries\n", progname,
		    nsamples, nused, nnolbr, nbranches, nkernel, tabn);
	else if (vflag)
		fprintf(stderr, "%s: %zu distinct entries\n", progname, tabn);
	write_entries(out.fp);
	out_commit(&out);
	return 0;
}

/* parsing threads: one per CPU we may run on, up to 4, leaving one to the
 * stage that writes into our pipe */
static int
default_threads(const char *first)
{
	cpu_set_t set;
	struct stat st;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		n = CPU_COUNT(&set);
	else
		n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if ((strcmp(first, "-") == 0 ? fstat(0, &st) : stat(first, &st)) == 0 &&
	    S_ISFIFO(st.st_mode))
		n--;
	return n < 1 ? 1 : n > 4 ? 4 : n;
}

static int
funccmp(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* end of the section holding symbol s, or UINT64_MAX */
static uint64_t
section_end(struct binary *b, const struct elf_sym *s)
{
	Elf_Scn *scn;
	GElf_Shdr sh;

	if (s->shndx == 0 || s->shndx >= 0xff00 ||
	    (scn = elf_getscn(b->eo.elf, s->shndx)) == NULL ||
	    gelf_getshdr(scn, &sh) == NULL)
		return UINT64_MAX;
	return sh.sh_addr + sh.sh_size;
}

/* Function ranges as BOLT sees them from the symbol table: a symbol
 * reaches the next symbol or the end of its section (BOLT's maximum
 * size); PLT sections are functions of their own. */
static void
load_binary(struct binary *b)
{
	const char *path = b->path;
	char errbuf[512];
	size_t i, j, n = 0, shstrndx;
	uint64_t end, send;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	const char *sname;

	if (elfobj_open(&b->eo, path, errbuf, sizeof(errbuf)) == -1 ||
	    elfobj_load_syms(&b->eo, errbuf, sizeof(errbuf)) == -1)
		errx(1, "%s", errbuf);
	b->name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	b->fixed = b->eo.type == 2;	/* ET_EXEC */
	hex_encode(b->buildid, b->eo.buildid, b->eo.buildid_len);
	b->funcs = xcalloc(b->eo.nsyms + 16, sizeof(*b->funcs));
	for (i = 0; i < b->eo.nsyms; i = j) {
		const struct elf_sym *s = &b->eo.syms[i];

		end = s->addr + s->size;
		for (j = i + 1; j < b->eo.nsyms &&
		    b->eo.syms[j].addr == s->addr; j++)
			if (b->eo.syms[j].addr + b->eo.syms[j].size > end)
				end = b->eo.syms[j].addr + b->eo.syms[j].size;
		/* DataAggregator looks functions up by their maximum size:
		 * up to the next symbol or the end of the section */
		send = j < b->eo.nsyms ? b->eo.syms[j].addr : UINT64_MAX;
		if (section_end(b, s) < send)
			send = section_end(b, s);
		if (send != UINT64_MAX && send > end)
			end = send;
		if (end <= s->addr)
			end = s->addr + 1;
		b->funcs[n++] = (struct func){ s->addr, end };
	}
	if (elf_getshdrstrndx(b->eo.elf, &shstrndx) == 0) {
		while ((scn = elf_nextscn(b->eo.elf, scn)) != NULL && n <
		    b->eo.nsyms + 16) {
			if (gelf_getshdr(scn, &sh) == NULL || sh.sh_size == 0 ||
			    (sname = elf_strptr(b->eo.elf, shstrndx,
			    sh.sh_name)) == NULL)
				continue;
			if (strcmp(sname, ".plt") == 0 ||
			    strcmp(sname, ".plt.sec") == 0 ||
			    strcmp(sname, ".plt.got") == 0 ||
			    strcmp(sname, ".iplt") == 0)
				b->funcs[n++] = (struct func){ sh.sh_addr,
				    sh.sh_addr + sh.sh_size };
		}
	}
	b->nfuncs = n;
	qsort(b->funcs, n, sizeof(*b->funcs), funccmp);
	if (n == 0 && !qflag)
		warnx("%s: no function symbols", path);
}

/* index + 1 of the function holding a, 0 if none; a small direct-mapped
 * cache in front of the binary search, since hot code repeats */
static size_t
func_of(const struct binary *b, uint64_t a)
{
	static struct { const struct binary *b; uint64_t a; size_t f; } cache[4096];
	size_t lo = 0, hi = b->nfuncs, mid, slot;

	slot = (size_t)((a * 0x9e3779b97f4a7c15ULL) >> 52);
	if (cache[slot].b == b && cache[slot].a == a)
		return cache[slot].f;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (b->funcs[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || a >= b->funcs[lo - 1].end)
		lo = 0;
	cache[slot].b = b;
	cache[slot].a = a;
	cache[slot].f = lo;
	return lo;
}

/* ---- the entry table ---- */

static uint64_t
ehash(const struct entry *e)
{
	uint64_t h = (uint64_t)e->kind | (uint64_t)(uint8_t)e->bin[0] << 8 |
	    (uint64_t)(uint8_t)e->bin[1] << 16 |
	    (uint64_t)(uint8_t)e->bin[2] << 24 | (uint64_t)e->ev << 32;

	h ^= e->a[0] * 0x9e3779b97f4a7c15ULL;
	h ^= e->a[1] * 0xc2b2ae3d27d4eb4fULL;
	h ^= e->a[2] * 0x165667b19e3779f9ULL;
	return h ^ h >> 29 ^ h >> 41;
}

static int
ekeyeq(const struct entry *x, const struct entry *y)
{
	return x->kind == y->kind && x->a[0] == y->a[0] && x->a[1] == y->a[1] &&
	    x->a[2] == y->a[2] && x->bin[0] == y->bin[0] &&
	    x->bin[1] == y->bin[1] && x->bin[2] == y->bin[2] && x->ev == y->ev;
}

static void
idx_grow(void)
{
	size_t i, j;

	free(idx);
	idxcap = idxcap ? idxcap * 2 : 8192;
	idx = xcalloc(idxcap, sizeof(*idx));
	for (i = 0; i < tabn; i++) {
		uint64_t h = ehash(&tab[i]);

		for (j = h & (idxcap - 1); idx[j] != 0; j = (j + 1) & (idxcap - 1))
			;
		idx[j] = (h & 0xffffffff00000000ULL) | (uint64_t)(i + 1);
	}
}

/* add count (and mis) to k's entry, h being ehash(k); -1 on overflow */
static int
add_entry_h(const struct entry *k, uint64_t h, uint64_t count, uint64_t mis)
{
	uint64_t fp;
	size_t j;
	struct entry *e;

	if ((tabn + 1) * 2 > idxcap)
		idx_grow();
	fp = h & 0xffffffff00000000ULL;
	for (j = h & (idxcap - 1); idx[j] != 0; j = (j + 1) & (idxcap - 1)) {
		if ((idx[j] & 0xffffffff00000000ULL) != fp)
			continue;
		e = &tab[(idx[j] & 0xffffffff) - 1];
		if (ekeyeq(e, k))
			goto found;
	}
	if (tabn >= 0xffffffffU)
		return -1;
	xgrow(&tab, &tabcap, tabn + 1, sizeof(*tab));
	e = &tab[tabn];
	*e = *k;
	e->count = e->mis = 0;
	idx[j] = fp | (uint64_t)(tabn + 1);
	tabn++;
found:
	if (e->count > UINT64_MAX - count || e->mis > UINT64_MAX - mis)
		return -1;
	e->count += count;
	e->mis += mis;
	return 0;
}

/*
 * Entries added in bulk (resolving raw tables, --merge) go through a short
 * queue, so that their index slot and then their entry are being loaded
 * while earlier ones are added: with a million distinct entries nearly
 * every addition misses the cache twice.  An overflow is reported with
 * the line it came from (0: none), after everything before it.
 */
#define PQ	16
static struct pend {
	struct entry	k;
	uint64_t	h, count, mis, lineno;
} pq[PQ];
static unsigned pqhead, pqn;

static void
pq_one(struct lineio *lr)
{
	struct pend *p = &pq[pqhead];

	if (add_entry_h(&p->k, p->h, p->count, p->mis) == -1) {
		if (lr != NULL && p->lineno != 0) {
			lr->lineno = p->lineno;
			lr_errx(lr, "count overflows");
		}
		errx(1, "count overflows");
	}
	pqhead = (pqhead + 1) % PQ;
	pqn--;
}

static void
add_queued(const struct entry *k, uint64_t count, uint64_t mis,
    struct lineio *lr)
{
	struct pend *p, *q;
	uint64_t slot;

	if (pqn == PQ)
		pq_one(lr);
	p = &pq[(pqhead + pqn++) % PQ];
	p->k = *k;
	p->h = ehash(k);
	p->count = count;
	p->mis = mis;
	p->lineno = lr != NULL ? lr->lineno : 0;
	if (idxcap == 0)
		return;
	__builtin_prefetch(&idx[p->h & (idxcap - 1)]);
	/* halfway through the queue its index slot has arrived: start
	 * loading the entry it names, when the fingerprint agrees */
	if (pqn > PQ / 2) {
		q = &pq[(pqhead + pqn - 1 - PQ / 2) % PQ];
		slot = idx[q->h & (idxcap - 1)];
		if (slot != 0 && ((slot ^ q->h) & 0xffffffff00000000ULL) == 0)
			__builtin_prefetch(&tab[(slot & 0xffffffff) - 1], 1);
	}
}

/* add everything queued */
static void
pq_drain(struct lineio *lr)
{
	while (pqn > 0)
		pq_one(lr);
}

static uint32_t
event_index(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < nevents; i++)
		if (strlen(events[i]) == len && memcmp(events[i], name, len) == 0)
			return (uint32_t)i;
	xgrow(&events, &capevents, nevents + 1, sizeof(*events));
	events[nevents] = xstrndup(name, len);
	return (uint32_t)nevents++;
}

/* ---- reading the event stream ---- */

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

static int
sfield_i64(char **p, int64_t *v)
{
	size_t len;
	char *s = field(p, &len), save;
	uint64_t u;
	int neg = 0, r;

	if (s == NULL)
		return -1;
	if (len == 1 && *s == '-') {
		*v = INT64_MIN;
		return 0;
	}
	if (*s == '-') {
		neg = 1;
		s++;
		len--;
	}
	save = s[len];
	s[len] = '\0';
	r = parse_u64(s, 10, INT32_MAX, &u);
	s[len] = save;
	if (r == -1)
		return -1;
	*v = neg ? -(int64_t)u : (int64_t)u;
	return 0;
}

static int
sfield_hex(char **p, uint64_t *v)
{
	const char *end;

	if (**p == '\0' || parse_hex64_field(*p, &end, v) == -1)
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
	size_t i;

	for (i = 0; i < nbid; i++)
		if (strcmp(bid_path[i], path) == 0)
			return bid_hex[i];
	return NULL;
}

/* DataAggregator::getBaseAddressForMapping: the segment whose file
 * offset, aligned down, is the mapping's page offset.  LLVM 19 takes the
 * first such segment, which for an lld-linked PIE (a read-only segment at
 * offset 0 and the code in the same page) is the wrong one: --legacy does
 * the same, to write what perf2bolt 19 derives; the current format takes
 * an executable segment first when the mapping is executable. */
static int
mapping_base(const struct binary *b, uint64_t start, uint64_t pgoff,
    int exec, uint64_t *base)
{
	size_t i;
	int pass;

	for (pass = exec ? 0 : 1; pass < 2; pass++)
		for (i = 0; i < b->eo.nsegs; i++) {
			const struct elf_seg *s = &b->eo.segs[i];
			uint64_t al = s->align ? s->align : 1;

			if (pass == 0 && !(s->flags & PF_X))
				continue;
			if ((s->offset & ~(al - 1)) == pgoff) {
				*base = start - (s->vaddr & ~(al - 1));
				return 0;
			}
		}
	return -1;
}

static int
fixed_mapping_matches(const struct binary *b, uint64_t start)
{
	size_t i;

	for (i = 0; i < b->eo.nsegs; i++) {
		const struct elf_seg *s = &b->eo.segs[i];

		if (s->vaddr >= start && s->vaddr - start < (s->align ? s->align : 1))
			return 1;
	}
	return 0;
}

static struct mapping *
find_map(int64_t pid, int bin)
{
	size_t i;

	for (i = 0; i < nmaps; i++)
		if (maps[i].pid == pid && maps[i].bin == bin)
			return &maps[i];
	return NULL;
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

static void
on_mmap(struct lineio *lr, char *p)
{
	int64_t pid, tid, t;
	uint64_t start, len, pgoff, base = 0;
	size_t n;
	char *prot, *bid, *path;
	const char *name, *known;
	int i;

	if (sfield_i64(&p, &pid) || sfield_i64(&p, &tid) ||
	    sfield_i64(&p, &t) || sfield_hex(&p, &start) ||
	    sfield_hex(&p, &len) || sfield_hex(&p, &pgoff) ||
	    (prot = field(&p, &n)) == NULL || n != 4 ||
	    (bid = field(&p, &n)) == NULL || *p == '\0')
		lr_errx(lr, "malformed mmap record");
	bid[n] = '\0';
	path = p;
	(void)t;
	if (pid == -1 || strncmp(path, "//", 2) == 0 || path[0] == '[')
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

		if (known != NULL && b->buildid[0] != '\0') {
			if (strncmp(known, b->buildid, strlen(known)) != 0)
				continue;
		} else if (strcmp(name, b->name) != 0)
			continue;
		/* perf2bolt keeps the first mapping of the binary per pid */
		if ((m = find_map(pid, i)) != NULL && !m->forked)
			continue;
		if (b->fixed) {
			if (!fixed_mapping_matches(b, start)) {
				if (!qflag)
					lr_warnx(lr, "ignoring mapping of %s at "
					    "0x%" PRIx64, b->name, start);
				continue;
			}
		} else if (mapping_base(b, start, pgoff,
		    !lflag && prot[2] == 'x', &base) == -1) {
			if (!qflag)
				lr_warnx(lr, "no segment of %s at file offset "
				    "0x%" PRIx64 ": ignoring the mapping at 0x%"
				    PRIx64, b->name, pgoff, start);
			continue;
		}
		if (m == NULL) {
			xgrow(&maps, &capmaps, nmaps + 1, sizeof(*maps));
			m = &maps[nmaps++];
		}
		*m = (struct mapping){ pid, i, 0, start, len, base };
		pid_dirty(pid);
	}
}

static void
on_fork(struct lineio *lr, char *p)
{
	int64_t pid, ppid, tid, ptid, t;
	size_t i, n = nmaps;

	if (sfield_i64(&p, &pid) || sfield_i64(&p, &ppid) ||
	    sfield_i64(&p, &tid) || sfield_i64(&p, &ptid) ||
	    sfield_i64(&p, &t))
		lr_errx(lr, "malformed fork record");
	/* as perf2bolt: a child forked during the recording inherits its
	 * parent's mappings of the binary */
	if (pid == ppid || t == 0)
		return;
	for (i = 0; i < n; i++) {
		if (maps[i].pid != ppid || find_map(pid, maps[i].bin) != NULL)
			continue;
		xgrow(&maps, &capmaps, nmaps + 1, sizeof(*maps));
		maps[nmaps] = maps[i];
		maps[nmaps].pid = pid;
		maps[nmaps].forked = 1;
		nmaps++;
		pid_dirty(pid);
	}
}

static void
on_comm(struct lineio *lr, char *p)
{
	int64_t pid, tid, t, exec;
	size_t i;

	if (sfield_i64(&p, &pid) || sfield_i64(&p, &tid) ||
	    sfield_i64(&p, &t) || sfield_i64(&p, &exec))
		lr_errx(lr, "malformed comm record");
	if (exec != 1)
		return;
	/* a forked child that runs execve loses the inherited mappings */
	for (i = 0; i < nmaps;) {
		if (maps[i].pid == pid && maps[i].forked) {
			maps[i] = maps[--nmaps];
			pid_dirty(pid);
		} else
			i++;
	}
}

static void
on_buildid(struct lineio *lr, char *p)
{
	int64_t pid;
	size_t n;
	char *bid;

	if (sfield_i64(&p, &pid) || (bid = field(&p, &n)) == NULL || *p == '\0')
		lr_errx(lr, "malformed buildid record");
	xgrow(&bid_path, &capbid, nbid + 1, sizeof(*bid_path));
	xgrow(&bid_hex, &capbid2, nbid + 1, sizeof(*bid_hex));
	bid_hex[nbid] = xstrndup(bid, n);
	bid_path[nbid] = xstrdup(p);
	nbid++;
}

/* DataAggregator::adjustAddress: into the binary's link-time addresses */
static uint64_t
adjust(const struct mapping *m, uint64_t a)
{
	if (bins[m->bin].fixed)
		return a;
	if (a >= m->start && a - m->start < m->size)
		return a - m->base;
	if (a < m->size)
		return NOADDR;
	return a;
}

/* resolve a runtime address: binary index (or -1) and its address */
static int
resolve(const struct mapping *ms, size_t nm, uint64_t a, uint64_t *out)
{
	size_t i;

	for (i = 0; i < nm; i++) {
		uint64_t x = adjust(&ms[i], a);

		if (x != NOADDR && func_of(&bins[ms[i].bin], x)) {
			*out = x;
			return ms[i].bin;
		}
	}
	*out = a;
	return -1;
}

/* ---- first-level aggregation ----
 *
 * A branch-stack entry together with the source of the next newer entry
 * (if any) determines everything either format derives from it: the
 * taken branch (B), the fall-through after it (F/f) or the trace (T/R).
 * The hot loop only counts these raw triples, per mapping context (the
 * mappings of the sample's pid at that time), in a table of 32-byte
 * slots; resolving them into binaries, adjusted addresses and functions
 * runs once per distinct triple, when the table is flushed.  A sample
 * without a branch stack counts as a raw (ip, event) pair.
 */
struct raw {
	uint64_t	from, to, next;	/* S: ip, event index, 0 */
	uint32_t	meta;	/* ctx << 4 | flags */
	uint32_t	count;	/* 0: empty slot */
};
#define RAW_S		8u	/* a sample without branch stack */
#define RAW_MIS		4u	/* mispredicted */
#define RAW_RET		2u	/* a return (current format only) */
#define RAW_NEXT	1u	/* there is a newer entry: next is its source */
#define CTX_MAX		((1u << 16) - 1)	/* then a flush; a test reaches it */
#define SNAP_MAX	((size_t)1 << 20)
#define RAW_FLUSH_AT	((size_t)1 << 16)	/* distinct triples per table */

/* one table per parsing thread */
struct rawtab {
	struct raw	*slot;
	size_t		 cap, n;
	unsigned	 shift;
	struct raw	*ovf;		/* counts that outgrew their slot */
	size_t		 novf, capovf;
};

/* mapping contexts: snapshots of one pid's mappings */
struct ctx {
	size_t		first, n;	/* in snap[] */
};
static struct ctx *ctxs;
static size_t nctx, capctx;
static struct mapping *snap;
static size_t nsnap, capsnap;

/* pid -> its current context: 0 = unknown (mappings changed), 1 = no
 * mappings of a selected binary, c + 2 = ctxs[c] */
struct pidslot {
	int64_t		pid;
	uint32_t	ctx;
	int		used;
};
static struct pidslot *pidtab;
static size_t pidcap, pidn;

static uint64_t
rawhash(uint64_t from, uint64_t to, uint64_t next, uint32_t meta)
{
	return (from * 0x9e3779b97f4a7c15ULL) ^ (to * 0xc2b2ae3d27d4eb4fULL) ^
	    ((next ^ (uint64_t)meta << 40) * 0x165667b19e3779f9ULL) ^
	    (from >> 17) ^ (to >> 23);
}

static void
add_or_die(const struct entry *k, uint64_t count, uint64_t mis)
{
	add_queued(k, count, mis, NULL);
}

/* LLVM 19's rules (see the top of the file) for one raw triple under one
 * mapping of one binary */
static void
resolve_legacy(const struct mapping *m, const struct raw *r, uint64_t count)
{
	const struct binary *b = &bins[m->bin];
	uint64_t from = adjust(m, r->from), to = adjust(m, r->to), next;
	size_t ff = from != NOADDR ? func_of(b, from) : 0;
	size_t ft = to != NOADDR ? func_of(b, to) : 0;
	struct entry k;

	memset(&k, 0, sizeof(k));
	if ((r->meta & RAW_NEXT) && ft &&
	    (next = adjust(m, r->next)) != 0 && next != NOADDR &&
	    func_of(b, next) == ft) {
		k.kind = ft == ff ? K_F : K_f;
		k.a[0] = to;
		k.a[1] = next;
		k.bin[0] = k.bin[1] = (int8_t)m->bin;
		k.bin[2] = -1;
		add_or_die(&k, count, 0);
	}
	if (!ff && !ft)
		return;
	k.kind = K_B;
	k.a[0] = ff ? from : 0;
	k.a[1] = ft ? to : 0;
	k.a[2] = 0;
	k.bin[0] = ff ? (int8_t)m->bin : -1;
	k.bin[1] = ft ? (int8_t)m->bin : -1;
	k.bin[2] = -1;
	add_or_die(&k, count, r->meta & RAW_MIS ? count : 0);
}

/* DataAggregator (main): one trace per entry: the branch, the
 * fall-through from its target to the next newer branch's source (none
 * for the newest entry: a branch only) */
static void
resolve_modern(const struct mapping *ms, size_t nm, const struct raw *r,
    uint64_t count)
{
	uint64_t fa, ta, na = 0;
	int fb = resolve(ms, nm, r->from, &fa);
	int tb = resolve(ms, nm, r->to, &ta);
	int nb = r->meta & RAW_NEXT ? resolve(ms, nm, r->next, &na) : -1;
	uint64_t mis = r->meta & RAW_MIS ? count : 0;
	struct entry k;

	/* an end outside the selected binaries is X:address (unresolved,
	 * resolve() leaves the runtime address), but an external return is
	 * R's branch 0 */
	memset(&k, 0, sizeof(k));
	k.a[0] = fa;
	k.bin[0] = fb >= 0 ? (int8_t)fb : X_BIN;
	if (tb < 0) {
		/* the branch leaves the selected binaries */
		if (fb >= 0) {
			k.kind = K_B;
			k.a[1] = ta;
			k.bin[1] = X_BIN;
			k.bin[2] = -1;
			add_or_die(&k, count, mis);
		}
	} else if (!(r->meta & RAW_NEXT) || nb != tb) {
		k.kind = K_B;
		k.a[1] = ta;
		k.bin[1] = (int8_t)tb;
		k.bin[2] = -1;
		add_or_die(&k, count, mis);
	} else {
		k.kind = r->meta & RAW_RET ? K_R : K_T;
		if (fb < 0 && k.kind == K_R) {
			k.a[0] = 0;
			k.bin[0] = -1;
		}
		k.a[1] = ta;
		k.a[2] = na;
		k.bin[1] = (int8_t)tb;
		k.bin[2] = (int8_t)nb;
		add_or_die(&k, count, 0);
	}
}

/* an ip sample: S under its event, in the current format only */
static void
resolve_ip(const struct mapping *ms, size_t nm, const struct raw *r,
    uint64_t count)
{
	struct entry k;
	uint64_t a;
	int b;

	if ((b = resolve(ms, nm, r->from, &a)) < 0)
		return;
	memset(&k, 0, sizeof(k));
	k.kind = K_S;
	k.a[0] = a;
	k.bin[0] = (int8_t)b;
	k.bin[1] = k.bin[2] = -1;
	k.ev = (uint32_t)r->to;
	add_or_die(&k, count, 0);
}

static void
resolve_raw(const struct raw *r, uint64_t count)
{
	const struct ctx *c = &ctxs[r->meta >> 4];
	size_t i;

	if (r->meta & RAW_S)
		resolve_ip(snap + c->first, c->n, r, count);
	else if (lflag) {
		for (i = 0; i < c->n; i++)
			resolve_legacy(&snap[c->first + i], r, count);
	} else
		resolve_modern(snap + c->first, c->n, r, count);
}

/* resolve every raw triple of t into the entry table and empty t */
static void
raw_flush(struct rawtab *t)
{
	size_t i;

	for (i = 0; i < t->novf; i++)
		resolve_raw(&t->ovf[i], t->ovf[i].count);
	t->novf = 0;
	for (i = 0; i < t->cap && t->n > 0; i++)
		if (t->slot[i].count != 0) {
			resolve_raw(&t->slot[i], t->slot[i].count);
			t->slot[i].count = 0;
			t->n--;
		}
	pq_drain(NULL);
}

static void
raw_grow(struct rawtab *t)
{
	struct raw *old = t->slot;
	size_t oldcap = t->cap, i, j;

	t->cap = t->cap ? t->cap * 2 : 4096;
	t->shift = 64 - (unsigned)__builtin_ctzll(t->cap);
	t->slot = xcalloc(t->cap, sizeof(*t->slot));
	for (i = 0; i < oldcap; i++) {
		const struct raw *r = &old[i];

		if (r->count == 0)
			continue;
		for (j = rawhash(r->from, r->to, r->next, r->meta) >> t->shift;
		    t->slot[j].count != 0; j = (j + 1) & (t->cap - 1))
			;
		t->slot[j] = *r;
	}
	free(old);
}

static inline void
raw_add(struct rawtab *t, size_t j, uint64_t from, uint64_t to,
    uint64_t next, uint32_t meta)
{
	struct raw *r;

	for (;; j = (j + 1) & (t->cap - 1)) {
		r = &t->slot[j];
		if (r->count == 0) {
			r->from = from;
			r->to = to;
			r->next = next;
			r->meta = meta;
			r->count = 1;
			t->n++;
			return;
		}
		if (r->from == from && r->to == to && r->next == next &&
		    r->meta == meta)
			break;
	}
	if (UNLIKELY(r->count == UINT32_MAX)) {
		/* set the full count aside, to be resolved at the flush */
		xgrow(&t->ovf, &t->capovf, t->novf + 1, sizeof(*t->ovf));
		t->ovf[t->novf++] = *r;
		r->count = 0;
	}
	r->count++;
}

struct lbr {
	uint64_t	from, to;
	uint32_t	flags;		/* RAW_MIS, RAW_RET */
};

/* count one sample's branch stack, newest entry first, under context c */
static void
raw_sample(struct rawtab *t, uint32_t c, const struct lbr *br, size_t n)
{
	enum { BATCH = 32 };
	size_t slot[BATCH], i, j, m;
	uint32_t meta[BATCH];

	for (i = 0; i < n; i += m) {
		m = n - i < BATCH ? n - i : BATCH;
		/* room for the batch at half load, so no slot moves under it */
		while ((t->n + m) * 2 > t->cap)
			raw_grow(t);
		/* hash the batch and start loading its slots, then count */
		for (j = 0; j < m; j++) {
			size_t e = i + j;

			meta[j] = c << 4 | br[e].flags | (e > 0 ? RAW_NEXT : 0);
			slot[j] = rawhash(br[e].from, br[e].to,
			    e > 0 ? br[e - 1].from : 0, meta[j]) >> t->shift;
			__builtin_prefetch(&t->slot[slot[j]], 1);
		}
		for (j = 0; j < m; j++) {
			size_t e = i + j;

			raw_add(t, slot[j], br[e].from, br[e].to,
			    e > 0 ? br[e - 1].from : 0, meta[j]);
		}
	}
}

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
struct job {
	char		*rest;		/* the ip field onward */
	uint64_t	 lineno;
	uint32_t	 ctx, ev;
};

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
static int
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
	size_t n = 0, len;
	uint64_t ip;

	if (parse_ip(p, &ip, &len) == -1) {
		job_error(ps, j, "bad ip '%.*s'", (int)len, p);
		return -1;
	}
	p += len;
	if (*p == ' ')
		p++;
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
		if (from >= KERNEL_BASE || to >= KERNEL_BASE) {
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
		job_error(ps, j, "bad branch '%.*s'", (int)strcspn(tok, " "),
		    tok);
		return -1;
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
	if (lflag || ip == 0)
		return 0;
	if ((ps->t.n + 1) * 2 > ps->t.cap)
		raw_grow(&ps->t);
	raw_add(&ps->t, rawhash(ip, j->ev, 0, j->ctx << 4 | RAW_S) >>
	    ps->t.shift, ip, j->ev, 0, j->ctx << 4 | RAW_S);
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
static void
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
	 * --legacy: pairs) rather than the distinct triples */
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

static void
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

static void
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
		free(parsers[i].t.slot);
		free(parsers[i].t.ovf);
		free(parsers[i].br);
	}
	free(parsers);
	parsers = NULL;
	nparsers = 0;
}

/* resolve everything counted so far and forget the contexts (the parsers
 * are idle) */
static void
flush_all(void)
{
	size_t i;
	int k;

	for (k = 0; k < nparsers; k++)
		raw_flush(&parsers[k].t);
	nctx = nsnap = 0;
	for (i = 0; i < pidcap; i++)
		pidtab[i].ctx = 0;
}

static struct pidslot *
pid_slot(int64_t pid)
{
	size_t j;

	if ((pidn + 1) * 2 > pidcap) {
		struct pidslot *old = pidtab;
		size_t oldcap = pidcap, i;

		pidcap = pidcap ? pidcap * 2 : 64;
		pidtab = xcalloc(pidcap, sizeof(*pidtab));
		for (i = 0; i < oldcap; i++) {
			if (!old[i].used)
				continue;
			for (j = ((uint64_t)old[i].pid * 0x9e3779b97f4a7c15ULL) &
			    (pidcap - 1); pidtab[j].used; j = (j + 1) & (pidcap - 1))
				;
			pidtab[j] = old[i];
		}
		free(old);
	}
	for (j = ((uint64_t)pid * 0x9e3779b97f4a7c15ULL) & (pidcap - 1);
	    pidtab[j].used; j = (j + 1) & (pidcap - 1))
		if (pidtab[j].pid == pid)
			return &pidtab[j];
	pidtab[j].used = 1;
	pidtab[j].pid = pid;
	pidtab[j].ctx = 0;
	pidn++;
	return &pidtab[j];
}

/* the mappings of pid changed: its next sample takes a new snapshot */
static void
pid_dirty(int64_t pid)
{
	pid_slot(pid)->ctx = 0;
}

/* the context of pid's mappings now (see struct pidslot); the pending
 * jobs must have run before a flush */
static uint32_t
pid_ctx(struct lineio *lr, int64_t pid)
{
	struct pidslot *ps = pid_slot(pid);
	size_t i, first;

	if (ps->ctx != 0)
		return ps->ctx;
	if (nctx >= CTX_MAX || nsnap >= SNAP_MAX) {
		run_jobs(lr);
		flush_all();
		ps = pid_slot(pid);
	}
	first = nsnap;
	for (i = 0; i < nmaps; i++)
		if (maps[i].pid == pid) {
			xgrow(&snap, &capsnap, nsnap + 1, sizeof(*snap));
			snap[nsnap++] = maps[i];
		}
	if (nsnap == first)
		return ps->ctx = 1;
	xgrow(&ctxs, &capctx, nctx + 1, sizeof(*ctxs));
	ctxs[nctx].first = first;
	ctxs[nctx].n = nsnap - first;
	return ps->ctx = (uint32_t)(nctx++ + 2);
}

/* the head of a sample line; the rest becomes a job */
static void
on_sample(struct lineio *lr, char *p)
{
	static const char *lastev;
	static size_t lastevlen;
	static uint32_t lastevi;
	int64_t pid, tid;
	size_t len, evlen;
	char *ev;
	uint64_t ip;
	uint32_t c;
	struct job *j;

	if (sfield_i64(&p, &pid) || sfield_i64(&p, &tid) ||
	    field(&p, &len) == NULL || (ev = field(&p, &evlen)) == NULL ||
	    *p == '\0') {
		run_jobs(lr);	/* an error on an earlier line comes first */
		lr_errx(lr, "malformed sample record");
	}
	nsamples++;
	if (!wanted_pid(pid) || (c = pid_ctx(lr, pid)) == 1) {
		if (parse_ip(p, &ip, &len) == -1) {
			run_jobs(lr);
			lr_errx(lr, "bad ip '%.*s'", (int)len, p);
		}
		return;
	}
	nused++;
	xgrow(&jobs, &capjobs, njobs + 1, sizeof(*jobs));
	j = &jobs[njobs++];
	j->rest = p;
	j->lineno = lr->lineno;
	j->ctx = c - 2;
	/* the event's index, without a search for the usual repeat */
	if (lastev == NULL || evlen != lastevlen ||
	    memcmp(ev, lastev, evlen) != 0) {
		lastevi = event_index(ev, evlen);
		lastev = events[lastevi];
		lastevlen = evlen;
	}
	j->ev = lastevi;
}

static void
aggregate(const char *path)
{
	struct lineio lr;
	char *p;
	int r;

	if (lr_open(&lr, path) == -1)
		err(1, "%s", path);
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
		if (lr.lineno == 1 && strncmp(p, "# ", 2) == 0 &&
		    strncmp(p, "# profpipe-events ", 18) != 0)
			lr_errx(&lr, "expected a 'profpipe-events' stream");
		if (*p == '#' || *p == '\0')
			continue;
		if (strncmp(p, "mmap ", 5) == 0)
			on_mmap(&lr, p + 5);
		else if (strncmp(p, "fork ", 5) == 0)
			on_fork(&lr, p + 5);
		else if (strncmp(p, "comm ", 5) == 0)
			on_comm(&lr, p + 5);
		else if (strncmp(p, "buildid ", 8) == 0)
			on_buildid(&lr, p + 8);
		else if (strncmp(p, "exit ", 5) == 0 || strncmp(p, "lost ", 5) == 0)
			continue;
		else
			lr_errx(&lr, "unknown record '%.*s'",
			    (int)strcspn(p, " "), p);
	}
	run_jobs(&lr);
	flush_all();
	lr_close(&lr);
}

/* ---- --merge: sum pre-aggregated streams ---- */

/* bins used by merged locations: build-ids seen in the input */
static char **mbuildids;
static size_t nmbuildids, capmb;

static int
buildid_index(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < nmbuildids; i++)
		if (strlen(mbuildids[i]) == len &&
		    strncmp(mbuildids[i], s, len) == 0)
			return (int)i;
	if (nmbuildids >= 120)
		return -2;
	xgrow(&mbuildids, &capmb, nmbuildids + 1, sizeof(*mbuildids));
	mbuildids[nmbuildids] = xstrndup(s, len);
	return (int)nmbuildids++;
}

/* a location: hex offset, buildid:offset, or X:addr (external).
 * Stored as bin -1 plain, -3 external X:, >= 0 build-id index */
static int
parse_loc(char **p, uint64_t *a, int8_t *bin)
{
	size_t len;
	char *s = field(p, &len), *c, save;
	int r, bi;

	if (s == NULL)
		return -1;
	save = s[len];
	s[len] = '\0';
	if ((c = memchr(s, ':', len)) != NULL) {
		if (c - s == 1 && (*s == 'X' || *s == 'x'))
			bi = X_BIN;
		else if ((bi = buildid_index(s, (size_t)(c - s))) < 0) {
			s[len] = save;
			return -1;
		}
		r = parse_hex64(c + 1, a);
	} else {
		bi = -1;
		r = parse_hex64(s, a);
	}
	s[len] = save;
	*bin = (int8_t)bi;
	return r;
}

/* an error on an earlier line, still queued, comes first */
#define MERGE_ERRX(...) do {						\
	pq_drain(&lr);							\
	lr_errx(&lr, __VA_ARGS__);					\
} while (0)

static void
merge(const char *path)
{
	struct lineio lr;
	struct entry k;
	uint32_t ev = UINT32_MAX;
	uint64_t count, mis;
	char *p, *t;
	size_t len, nloc, i;
	int kind;

	if (lr_open(&lr, path) == -1)
		err(1, "%s", path);
	while (lr_next(&lr)) {
		p = lr.buf;
		while (*p == ' ')
			p++;
		if (*p == '#' || *p == '\0')
			continue;
		if ((t = field(&p, &len)) == NULL || len != 1 ||
		    strchr("EBFfTRrS", *t) == NULL)
			MERGE_ERRX("unknown entry type '%.*s'",
			    (int)strcspn(lr.buf, " "), lr.buf);
		if (*t == 'E') {
			if (*p == '\0' || strchr(p, ' ') != NULL)
				MERGE_ERRX("bad event line");
			ev = event_index(p, strlen(p));
			continue;
		}
		memset(&k, 0, sizeof(k));
		k.bin[0] = k.bin[1] = k.bin[2] = -1;
		kind = *t;
		nloc = kind == 'S' ? 1 : kind == 'T' || kind == 'R' ? 3 : 2;
		k.kind = kind == 'B' ? K_B : kind == 'F' ? K_F :
		    kind == 'f' ? K_f : kind == 'T' ? K_T : kind == 'R' ? K_R :
		    kind == 'S' ? K_S : 6;	/* r */
		for (i = 0; i < nloc; i++)
			if (parse_loc(&p, &k.a[i], &k.bin[i]) == -1)
				MERGE_ERRX("bad location in '%s'", lr.buf);
		if (kind == 'S')
			k.ev = ev;
		t = field(&p, &len);
		if (t == NULL)
			MERGE_ERRX("missing count");
		t[len] = '\0';
		if (parse_u64(t, 10, UINT64_MAX, &count) == -1)
			MERGE_ERRX("bad count '%s'", t);
		mis = 0;
		if ((t = field(&p, &len)) != NULL) {
			if (kind != 'B' && kind != 'T' && kind != 'R')
				MERGE_ERRX("extra field '%.*s'", (int)len, t);
			t[len] = '\0';
			if (parse_u64(t, 10, UINT64_MAX, &mis) == -1)
				MERGE_ERRX("bad mispredict count '%s'", t);
		}
		if (kind == 'B' && mis == 0 && t == NULL)
			MERGE_ERRX("missing mispredict count");
		if (field(&p, &len) != NULL)
			MERGE_ERRX("trailing fields");
		add_queued(&k, count, mis, &lr);
	}
	pq_drain(&lr);
	lr_close(&lr);
}

/* ---- output ---- */

static int
entcmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int i;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	for (i = 0; i < 3; i++) {
		if (x->bin[i] != y->bin[i])
			return x->bin[i] < y->bin[i] ? -1 : 1;
		if (x->a[i] != y->a[i])
			return x->a[i] < y->a[i] ? -1 : 1;
	}
	return 0;
}

static void
put_loc(struct wbuf *w, int bin, uint64_t a)
{
	if (bin == X_BIN)
		wb_puts(w, "X:");
	else if (mflag) {
		if (bin >= 0) {
			wb_puts(w, mbuildids[bin]);
			wb_putc(w, ':');
		}
	} else if (bin >= 0 && buildid_locs) {
		wb_puts(w, bins[bin].buildid);
		wb_putc(w, ':');
	}
	wb_hex(w, a);
}

static int
evcmp_idx(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return strcmp(events[x], events[y]);
}

static void
write_entries(FILE *fp)
{
	struct entry *v;
	struct wbuf w;
	uint32_t *rank = NULL, *order;
	size_t i, n = 0, j, nloc;
	uint32_t lastev = UINT32_MAX;

	/* events are numbered in order of appearance: renumber them by name
	 * so that the output does not depend on the input order */
	if (nevents) {
		order = xcalloc(nevents, sizeof(*order));
		rank = xcalloc(nevents, sizeof(*rank));
		for (i = 0; i < nevents; i++)
			order[i] = (uint32_t)i;
		qsort(order, nevents, sizeof(*order), evcmp_idx);
		for (i = 0; i < nevents; i++)
			rank[order[i]] = (uint32_t)i;
		free(order);
	}
	/* build-ids likewise, by their text */
	v = xcalloc(tabn + 1, sizeof(*v));
	for (i = 0; i < tabn; i++) {
		v[n] = tab[i];
		if (v[n].kind == K_S && rank != NULL && v[n].ev != UINT32_MAX)
			v[n].ev = rank[v[n].ev];
		n++;
	}
	if (mflag && nmbuildids > 1) {
		/* sort build-id table and remap */
		uint32_t *ord = xcalloc(nmbuildids, sizeof(*ord));
		int8_t map[128];
		char **sorted = xcalloc(nmbuildids, sizeof(*sorted));

		for (i = 0; i < nmbuildids; i++)
			ord[i] = (uint32_t)i;
		for (i = 1; i < nmbuildids; i++)
			for (j = i; j > 0 && strcmp(mbuildids[ord[j - 1]],
			    mbuildids[ord[j]]) > 0; j--) {
				uint32_t t = ord[j];

				ord[j] = ord[j - 1];
				ord[j - 1] = t;
			}
		for (i = 0; i < nmbuildids; i++) {
			map[ord[i]] = (int8_t)i;
			sorted[i] = mbuildids[ord[i]];
		}
		for (i = 0; i < n; i++)
			for (j = 0; j < 3; j++)
				if (v[i].bin[j] >= 0)
					v[i].bin[j] = map[(int)v[i].bin[j]];
		free(mbuildids);
		mbuildids = sorted;
		free(ord);
	}
	qsort(v, n, sizeof(*v), entcmp);
	wb_init(&w, fp, 1 << 16);
	for (i = 0; i < n; i++) {
		const struct entry *e = &v[i];
		char kc = e->kind < 6 ? kindch[e->kind] : 'r';

		if (e->kind == K_S && e->ev != lastev && e->ev != UINT32_MAX) {
			/* ranks are positions in the sorted event list */
			size_t r;

			for (r = 0; r < nevents; r++)
				if (rank[r] == e->ev)
					break;
			wb_puts(&w, "E ");
			wb_puts(&w, events[r]);
			wb_putc(&w, '\n');
			lastev = e->ev;
		}
		wb_putc(&w, kc);
		nloc = e->kind == K_S ? 1 : e->kind == K_T || e->kind == K_R ? 3 : 2;
		for (j = 0; j < nloc; j++) {
			wb_putc(&w, ' ');
			put_loc(&w, e->bin[j], e->a[j]);
		}
		wb_putc(&w, ' ');
		wb_dec(&w, e->count);
		if (e->kind == K_B) {
			wb_putc(&w, ' ');
			wb_dec(&w, e->mis);
		} else if ((e->kind == K_T || e->kind == K_R) && e->mis) {
			wb_putc(&w, ' ');
			wb_dec(&w, e->mis);
		}
		wb_putc(&w, '\n');
	}
	wb_free(&w);
	free(v);
	free(rank);
}

static void
usage(int status)
{
	printf("usage: %s -b binary [-b binary...] [-lBqv] [-j n] [-p pid] [-o file]\n"
	    "              [file...]\n"
	    "       %s --merge [-v] [-o file] [file...]\n"
	    "Fold a profpipe-events stream (perfdecode) into BOLT's pre-aggregated\n"
	    "profile for llvm-bolt --pa -p, or sum pre-aggregated profiles.\n"
	    "  -b, --binary=FILE          profile this binary (repeatable)\n"
	    "  -l, --legacy               only B, F and f entries (LLVM 19 and 20)\n"
	    "  -B, --buildid-locations    write buildid:offset locations\n"
	    "  -m, --merge                sum pre-aggregated profiles\n"
	    "  -p, --pid=PID              only samples of PID (repeatable)\n"
	    "  -j, --threads=N            parse in N threads (default: the CPUs, up to\n"
	    "                             4, less one when reading a pipe)\n"
	    "  -o, --output=FILE          write FILE instead of the standard output\n"
	    "  -q, --quiet                no warnings\n"
	    "  -v, --verbose              counts of samples and entries on stderr\n"
	    "  -h, --help                 this help\n"
	    "      --version              print the version\n",
	    progname, progname);
	xclose_stdout();
	exit(status);
}
