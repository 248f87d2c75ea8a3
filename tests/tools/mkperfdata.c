/* See COPYING file for copyright and license details. */
/*
 * mkperfdata: write a perf.data file from a profpipe-events stream
 * (man/profpipe-events.5).  The test machine has no hardware LBR, so every
 * test that needs branch stacks writes its perf.data with this program.
 * The layout follows perf's own reader (tools/perf/util/header.c and
 * session.c in Linux: perf_session__read_header, perf_event__process_*
 * for pipe mode): file mode
 * (header, attr table, data, feature table after the data) or pipe mode
 * (16-byte header, HEADER_ATTR and HEADER_FEATURE records), little- or
 * big-endian, optionally zstd-compressed.  The input is test-sized and is
 * held in memory; --repeat multiplies the samples on output only.  Both
 * versions of the stream are read; in version 2, an event whose samples
 * give a data address samples it (PERF_SAMPLE_ADDR, 0 for a '-'), as
 * perf record -d records every event; "mem-loads" is Intel's
 * load-latency event as perf mem names it (a raw event, 0x1cd).
 *
 * Beyond what perf record writes on this machine, the options add what
 * a reader must still get through (tests/10-perfdecode): every other
 * sample_type field around the branch stack (-X), branch counters (-K),
 * the entries' cycles (-Y), records of unknown types (-U), an AUXTRACE
 * record with its payload (-A), a compressed stream cut at any byte
 * (-S) and the newer COMPRESSED2 record (--compressed2).  It is the one
 * writer of perf.data in the tree: a test needing another layout adds
 * an option here, its input is a stream.
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "util.h"
/* the format's numbers, perfdecode's copy */
#include "../../tools/perfdecode/perfabi.h"

/* types no perf knows, for -U */
#define R_UNKNOWN_USER	1000
#define R_UNKNOWN_KERNEL 40

/* -X: every field but the branch stack and IDENTIFIER */
#define S_ALL_FIELDS	(S_ADDR | S_READ | S_CALLCHAIN | S_ID | S_CPU | \
    S_PERIOD | S_STREAM_ID | S_RAW | S_REGS_USER | S_STACK_USER | S_WEIGHT | \
    S_DATA_SRC | S_TRANSACTION | S_REGS_INTR | S_PHYS_ADDR | S_CGROUP | \
    S_DATA_PAGE | S_CODE_PAGE)
/* with -X: read_format TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID, and the
 * registers and user stack bytes each sample carries */
#define X_READ_FORMAT	(RF_ENABLED | RF_RUNNING | RF_ID)
#define X_REGS_USER	0x0fULL		/* 4 registers */
#define X_REGS_INTR	0x03ULL		/* 2 registers */
#define X_STACK_USER	64

/* feature bits (tools/perf/util/header.h) */
enum {
	F_BUILD_ID = 2, F_HOSTNAME, F_OSRELEASE, F_VERSION, F_ARCH, F_NRCPUS,
	F_CMDLINE = 11, F_EVENT_DESC = 12, F_BRANCH_STACK = 15,
	F_COMPRESSED = 27, F_MAX = 256
};

#define ATTR_SIZE	128	/* PERF_ATTR_SIZE_VER7: perf 6.1 rejects more */
#define PERFILE2	0x32454c4946524550ULL
#define MAX_BRANCHES	2600	/* keeps a sample under 65535 bytes */
#define FIRST_ID	1000

enum kind { K_SAMPLE, K_MMAP, K_COMM, K_FORK, K_EXIT, K_LOST, K_BUILDID };

struct rec {
	enum kind	 kind;
	int		 exec;		/* comm */
	int		 hasbid;
	uint32_t	 ev;		/* sample: attr index */
	uint32_t	 prot, mflags;	/* mmap */
	int64_t		 pid, tid, ppid, ptid;
	uint64_t	 time, ip, addr, start, len, pgoff, count;
	uint8_t		 bid[20];
	uint8_t		 bidlen;
	size_t		 br, nbr;	/* into the branch pool */
	char		*str;		/* path or comm */
};

struct branch {
	uint64_t	from, to;
	uint8_t		mispred, pred, type;
};

struct event {
	char		*name;
	uint32_t	 type;
	uint64_t	 config;
	int		 excl_user, excl_kernel, excl_hv, modifier;
	int		 branches;	/* some sample carries a branch field */
	int		 addrs;		/* some sample carries a data address */
	uint64_t	 sample_type, flags;
};

/* a growable byte buffer that stores scalars in the output byte order */
struct bb {
	uint8_t	*p;
	size_t	 len, cap;
};

static struct {
	int		 be, pipe, zstd, zlevel, hwidx, brtype, mmapbid;
	int		 nofeat, id, identifier, cpu_on, period_on, quiet;
	int		 allfields, counters, cycles, unknown, aux, z2;
	size_t		 zcut;		/* -S: compressed bytes a record */
	uint32_t	 cpu;
	uint64_t	 period, round_every, repeat;
	size_t		 chunk;
	uint8_t		 feat[F_MAX];
	const char	*arch;		/* the ARCH feature (uname -m) */
} opt;

static struct rec	*recs;
static size_t		 nrecs, caprecs;
static struct branch	*brs;
static size_t		 nbrs, capbrs;
static struct event	 evs[16];
static size_t		 nevs;
static uint64_t		 tmin = UINT64_MAX, tmax;
static uint64_t		 clock_ns = 1000000000;	/* time of the last record */
static int		 anybranch;
static int		 version;	/* of the input stream: 1 or 2 */

/* the output: raw bytes, or zstd chunks when compressing the data */
static struct {
	struct wbuf	 wb;
	int		 counting;	/* dry run that only counts bytes */
	uint64_t	 pos;
	int		 compressing;
	ZSTD_CCtx	*cctx;
	uint8_t		*zin, *zout;
	size_t		 zlen, zoutcap;
	uint64_t	 zraw, zcomp;
	struct bb	 zpend;		/* -S: compressed bytes not yet out */
	uint64_t	 nsamples;	/* written so far */
} out;

static void	 parse_input(const char *);
static void	 parse_line(struct lineio *);
static uint32_t	 event_index(struct lineio *, const char *, size_t);
static void	 finish_events(void);
static void	 write_all(void);
static void	 write_data(void);
static void	 emit_rec(const struct rec *, uint64_t);
static void	 emit_extra(const struct rec *, uint64_t, uint64_t);
static void	 put_sample(struct bb *, const struct rec *, uint64_t);
static void	 put_branches(struct bb *, const struct rec *);
static void	 put_fields_before(struct bb *, const struct rec *, uint64_t);
static void	 put_fields_after(struct bb *, uint64_t);
static void	 put_trailer(struct bb *, int64_t, int64_t, uint64_t);
static void	 put_attr(struct bb *, const struct event *);
static void	 put_feature(struct bb *, int);
static void	 put_buildid(struct bb *, uint32_t, const struct rec *);
static void	 raw_write(const void *, size_t);
static void	 data_write(const void *, size_t);
static void	 z_flush(void);
static void	 z_record(const uint8_t *, size_t);
static void	 bb_u16(struct bb *, uint16_t);
static void	 bb_u32(struct bb *, uint32_t);
static void	 bb_u64(struct bb *, uint64_t);
static void	 bb_bytes(struct bb *, const void *, size_t);
static void	 bb_zero(struct bb *, size_t);
static void	 bb_str(struct bb *, const char *);
static void	 bb_hdr(struct bb *, uint32_t, uint16_t);
static void	 bb_endrec(struct bb *);
static int	 parse_i64(const char *, int64_t *);
static void	 set_features(const char *);
static int	 parse_args(int, char *[], const char **);
static noreturn void usage(int);

static const char *branch_types[] = {
	"", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
	"SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX",
	"EXTEND_ABI"
};

static const char *feat_names[] = {
	[F_BUILD_ID] = "BUILD_ID", [F_HOSTNAME] = "HOSTNAME",
	[F_OSRELEASE] = "OSRELEASE", [F_VERSION] = "VERSION",
	[F_ARCH] = "ARCH", [F_NRCPUS] = "NRCPUS", [F_CMDLINE] = "CMDLINE",
	[F_EVENT_DESC] = "EVENT_DESC", [F_BRANCH_STACK] = "BRANCH_STACK",
};

enum { OPT_Z2 = 256 };

static const struct option longopts[] = {
	{ "output",	required_argument,	NULL, 'o' },
	{ "big-endian",	no_argument,		NULL, 'B' },
	{ "pipe",	no_argument,		NULL, 'p' },
	{ "zstd",	optional_argument,	NULL, 'z' },
	{ "chunk-size",	required_argument,	NULL, 'C' },
	{ "hw-index",	no_argument,		NULL, 'H' },
	{ "branch-type", no_argument,		NULL, 'T' },
	{ "mmap-buildid", no_argument,		NULL, 'M' },
	{ "no-features", no_argument,		NULL, 'n' },
	{ "features",	required_argument,	NULL, 'F' },
	{ "round-every", required_argument,	NULL, 'r' },
	{ "period",	optional_argument,	NULL, 'P' },
	{ "cpu",	optional_argument,	NULL, 'c' },
	{ "id",		no_argument,		NULL, 'I' },
	{ "identifier",	no_argument,		NULL, 'i' },
	{ "repeat",	required_argument,	NULL, 'R' },
	{ "quiet",	no_argument,		NULL, 'q' },
	{ "arch",	required_argument,	NULL, 'a' },
	{ "all-fields",	no_argument,		NULL, 'X' },
	{ "branch-counters", no_argument,	NULL, 'K' },
	{ "cycles",	no_argument,		NULL, 'Y' },
	{ "unknown-records", no_argument,	NULL, 'U' },
	{ "auxtrace",	no_argument,		NULL, 'A' },
	{ "zstd-cut",	required_argument,	NULL, 'S' },
	{ "compressed2", no_argument,		NULL, OPT_Z2 },
	{ "help",	no_argument,		NULL, 'h' },
	{ "version",	no_argument,		NULL, 'V' },
	{ NULL,		0,			NULL, 0 }
};

int
main(int argc, char *argv[])
{
	struct output o;
	const char *outpath = NULL;
	int i;

	prog_init(argc, argv);
	i = parse_args(argc, argv, &outpath);
	argc -= i;
	argv += i;
	if (argc > 1)
		prog_usage_error("too many arguments");
	if ((opt.zcut || opt.z2) && !opt.zstd)
		prog_usage_error("--zstd-cut and --compressed2 need --zstd");
	if (opt.nofeat)
		memset(opt.feat, 0, sizeof(opt.feat));
	if (opt.zstd)
		/* perf sizes its decompression buffer from it */
		opt.feat[F_COMPRESSED] = 1;
	if (opt.be && memchr(opt.feat, 1, sizeof(opt.feat)) != NULL)
		/* perf finds a swapped feature bitmap by this bit */
		opt.feat[F_HOSTNAME] = 1;

	parse_input(argc == 1 ? argv[0] : NULL);
	finish_events();

	out_open(&o, outpath);
	wb_init(&out.wb, o.fp, 1 << 22);
	if (opt.zstd) {
		out.cctx = ZSTD_createCCtx();
		if (out.cctx == NULL)
			errx(1, "zstd: out of memory");
		out.zin = xmalloc(opt.chunk);
		out.zoutcap = ZSTD_compressBound(opt.chunk) + 64;
		out.zout = xmalloc(out.zoutcap);
	}
	write_all();
	wb_free(&out.wb);
	out_commit(&o);
	if (opt.zstd)
		ZSTD_freeCCtx(out.cctx);
	for (i = 0; (size_t)i < nrecs; i++)
		free(recs[i].str);
	free(recs);
	free(brs);
	for (i = 0; (size_t)i < nevs; i++)
		free(evs[i].name);
	free(out.zin);
	free(out.zout);
	free(out.zpend.p);
	return 0;
}

/* the options into opt and *outpath; returns the index of the first
 * operand */
static int
parse_args(int argc, char *argv[], const char **outpath)
{
	uint64_t v;
	int ch;

	opt.zlevel = 3;
	opt.chunk = 32768;
	opt.repeat = 1;
	opt.period = 1;
	opt.arch = "x86_64";
	set_features("all");
	while ((ch = getopt_long(argc, argv, "o:Bpz::C:HTMnF:r:P::c::IiR:qa:XKYUAS:h",
	    longopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			*outpath = optarg;
			break;
		case 'B':
			opt.be = 1;
			break;
		case 'p':
			opt.pipe = 1;
			break;
		case 'z':
			opt.zstd = 1;
			if (optarg != NULL) {
				if (parse_u64(optarg, 10, 22, &v) == -1 || v == 0)
					prog_usage_error("bad zstd level '%s'",
					    optarg);
				opt.zlevel = (int)v;
			}
			break;
		case 'C':
			if (parse_u64(optarg, 10, 32768, &v) == -1 || v == 0)
				prog_usage_error("bad chunk size '%s' "
				    "(1 to 32768)", optarg);
			opt.chunk = (size_t)v;
			break;
		case 'H':
			opt.hwidx = 1;
			break;
		case 'T':
			opt.brtype = 1;
			break;
		case 'M':
			opt.mmapbid = 1;
			break;
		case 'n':
			opt.nofeat = 1;
			break;
		case 'F':
			set_features(optarg);
			break;
		case 'r':
			if (parse_u64(optarg, 10, UINT32_MAX, &v) == -1 ||
			    v == 0)
				prog_usage_error("bad round size '%s'", optarg);
			opt.round_every = v;
			break;
		case 'P':
			opt.period_on = 1;
			if (optarg != NULL &&
			    parse_u64(optarg, 10, UINT64_MAX, &opt.period) == -1)
				prog_usage_error("bad period '%s'", optarg);
			break;
		case 'c':
			opt.cpu_on = 1;
			if (optarg != NULL) {
				if (parse_u64(optarg, 10, 4095, &v) == -1)
					prog_usage_error("bad cpu '%s'", optarg);
				opt.cpu = (uint32_t)v;
			}
			break;
		case 'I':
			opt.id = 1;
			break;
		case 'i':
			opt.identifier = 1;
			break;
		case 'R':
			if (parse_u64(optarg, 10, 1000000000, &v) == -1 ||
			    v == 0)
				prog_usage_error("bad repeat count '%s'", optarg);
			opt.repeat = v;
			break;
		case 'q':
			opt.quiet = 1;
			break;
		case 'a':
			/* perf writes uname's machine: x86_64, aarch64 */
			if (*optarg == '\0' || strlen(optarg) > 64 ||
			    strspn(optarg, "abcdefghijklmnopqrstuvwxyz"
			    "0123456789_") != strlen(optarg))
				prog_usage_error("bad architecture '%s'", optarg);
			opt.arch = optarg;
			break;
		case 'X':
			/* ID, CPU and PERIOD as -I -c -P give them */
			opt.allfields = opt.id = opt.cpu_on = opt.period_on = 1;
			break;
		case 'K':
			opt.counters = 1;
			break;
		case 'Y':
			opt.cycles = 1;
			break;
		case 'U':
			opt.unknown = 1;
			break;
		case 'A':
			opt.aux = 1;
			break;
		case 'S':
			if (parse_u64(optarg, 10, 65000, &v) == -1 || v == 0)
				prog_usage_error("bad cut size '%s' "
				    "(1 to 65000)", optarg);
			opt.zcut = (size_t)v;
			break;
		case OPT_Z2:
			opt.z2 = 1;
			break;
		case 'h':
			usage(0);
		case 'V':
			prog_version();
		default:
			prog_usage_error(NULL);
		}
	}
	return optind;
}

/* "all" or a comma-separated list of feature names */
static void
set_features(const char *list)
{
	const char *p, *e;
	size_t n, i;

	memset(opt.feat, 0, sizeof(opt.feat));
	if (strcmp(list, "all") == 0) {
		for (i = 0; i < NELEM(feat_names); i++)
			if (feat_names[i] != NULL)
				opt.feat[i] = 1;
		return;
	}
	for (p = list; *p != '\0'; p = *e ? e + 1 : e) {
		e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		n = (size_t)(e - p);
		for (i = 0; i < NELEM(feat_names); i++)
			if (feat_names[i] != NULL &&
			    strlen(feat_names[i]) == n &&
			    strncasecmp(feat_names[i], p, n) == 0)
				break;
		if (i == NELEM(feat_names))
			prog_usage_error("unknown feature '%.*s'", (int)n, p);
		opt.feat[i] = 1;
	}
}

static void
parse_input(const char *path)
{
	struct lineio lr;

	if (lr_open(&lr, path) == -1)
		err(1, "%s", path);
	if (!lr_next(&lr) || (strcmp(lr.buf, "# profpipe-events 1") != 0 &&
	    strcmp(lr.buf, "# profpipe-events 2") != 0))
		lr_errx(&lr, "not a profpipe-events 1 or 2 stream");
	version = lr.buf[18] - '0';
	while (lr_next(&lr)) {
		if (strncmp(lr.buf, "# event=", 8) == 0) {
			event_index(&lr, lr.buf + 8, strlen(lr.buf + 8));
			continue;
		}
		if (lr.buf[0] == '#' || lr.buf[0] == '\0')
			continue;
		parse_line(&lr);
	}
	lr_close(&lr);
}

/* split off the next space-separated field; NULL at end of line */
static char *
field(char **pp)
{
	char *s = *pp, *e;

	if (s == NULL || *s == '\0')
		return NULL;
	e = strchr(s, ' ');
	if (e != NULL) {
		*e = '\0';
		*pp = e + 1;
	} else
		*pp = s + strlen(s);
	return s;
}

static char *
need(struct lineio *lr, char **pp, const char *what)
{
	char *f = field(pp);

	if (f == NULL)
		lr_errx(lr, "missing %s", what);
	return f;
}

static int
parse_i64(const char *s, int64_t *out_)
{
	uint64_t v;

	if (*s == '-') {
		if (parse_u64(s + 1, 10, (uint64_t)INT64_MAX + 1, &v) == -1)
			return -1;
		*out_ = (int64_t)(0 - v);
		return 0;
	}
	if (parse_u64(s, 10, INT64_MAX, &v) == -1)
		return -1;
	*out_ = (int64_t)v;
	return 0;
}

static int64_t
get_pid(struct lineio *lr, char **pp, const char *what)
{
	char *f = need(lr, pp, what);
	int64_t v;

	if (strcmp(f, "-") == 0)
		return INT64_MIN;	/* no value */
	if (parse_i64(f, &v) == -1 || v < INT32_MIN || v > UINT32_MAX)
		lr_errx(lr, "bad %s '%s'", what, f);
	return v;
}

static uint64_t
get_hex(struct lineio *lr, char **pp, const char *what)
{
	char *f = need(lr, pp, what);
	uint64_t v;

	if (parse_hex64(f, &v) == -1)
		lr_errx(lr, "bad %s '%s'", what, f);
	return v;
}

/* a missing time continues the clock 1 us after the previous record */
static uint64_t
get_time(struct lineio *lr, char **pp)
{
	char *f = need(lr, pp, "time");
	uint64_t v;

	if (strcmp(f, "-") == 0)
		v = clock_ns + 1000;
	else if (parse_u64(f, 10, UINT64_MAX / 2, &v) == -1)
		lr_errx(lr, "bad time '%s'", f);
	clock_ns = v;
	if (v < tmin)
		tmin = v;
	if (v > tmax)
		tmax = v;
	return v;
}

static void
get_buildid(struct lineio *lr, char **pp, struct rec *r)
{
	char *f = need(lr, pp, "build-id");
	size_t n, i;
	unsigned int b;

	if (strcmp(f, "-") == 0)
		return;
	n = strlen(f);
	if (n == 0 || n % 2 != 0 || n > 40)
		lr_errx(lr, "bad build-id '%s'", f);
	for (i = 0; i < n / 2; i++) {
		if (sscanf(f + 2 * i, "%2x", &b) != 1 ||
		    strchr("0123456789abcdefABCDEF", f[2 * i]) == NULL ||
		    strchr("0123456789abcdefABCDEF", f[2 * i + 1]) == NULL)
			lr_errx(lr, "bad build-id '%s'", f);
		r->bid[i] = (uint8_t)b;
	}
	r->bidlen = (uint8_t)(n / 2);
	r->hasbid = 1;
}

/* hex up to the next '/' or the end; returns the stop or NULL */
static char *
hex_until_slash(char *s, uint64_t *v)
{
	char *e = strchr(s, '/'), save;
	int rc;

	if (e == NULL)
		e = s + strlen(s);
	save = *e;
	*e = '\0';
	rc = *s == '\0' ? -1 : parse_hex64(s, v);
	*e = save;
	return rc == -1 ? NULL : e;
}

/* FROM/TO/F or FROM/TO/F/TYPE */
static void
parse_branch(struct lineio *lr, char *f)
{
	struct branch *b;
	char *p;
	size_t t;

	xgrow(&brs, &capbrs, nbrs + 1, sizeof(*brs));
	b = &brs[nbrs];
	memset(b, 0, sizeof(*b));
	if ((p = hex_until_slash(f, &b->from)) == NULL || *p != '/' ||
	    (p = hex_until_slash(p + 1, &b->to)) == NULL || *p != '/')
		lr_errx(lr, "bad branch '%s'", f);
	p++;
	if (p[0] == 'M')
		b->mispred = 1;
	else if (p[0] == 'P')
		b->pred = 1;
	else if (p[0] != '-')
		lr_errx(lr, "bad branch flag in '%s'", f);
	if (p[1] == '/') {
		for (t = 1; t < NELEM(branch_types); t++)
			if (strcmp(p + 2, branch_types[t]) == 0)
				break;
		if (t == NELEM(branch_types))
			lr_errx(lr, "unknown branch type '%s'", p + 2);
		b->type = (uint8_t)t;
	} else if (p[1] != '\0')
		lr_errx(lr, "bad branch '%s'", f);
	nbrs++;
}

static void
parse_line(struct lineio *lr)
{
	struct rec *r;
	char *p = lr->buf, *kind, *f;
	int64_t v;

	kind = need(lr, &p, "record kind");
	xgrow(&recs, &caprecs, nrecs + 1, sizeof(*recs));
	r = &recs[nrecs];
	memset(r, 0, sizeof(*r));
	if (strcmp(kind, "sample") == 0) {
		r->kind = K_SAMPLE;
		r->pid = get_pid(lr, &p, "pid");
		r->tid = get_pid(lr, &p, "tid");
		if (r->pid == INT64_MIN)
			r->pid = -1;
		if (r->tid == INT64_MIN)
			r->tid = r->pid;
		r->time = get_time(lr, &p);
		f = need(lr, &p, "event");
		r->ev = event_index(lr, f, strlen(f));
		f = need(lr, &p, "ip");
		if (strcmp(f, "-") != 0 && parse_hex64(f, &r->ip) == -1)
			lr_errx(lr, "bad ip '%s'", f);
		/* version 2: the data address; an event whose samples give
		 * one samples it (PERF_SAMPLE_ADDR), 0 for those with '-' */
		if (version == 2) {
			f = need(lr, &p, "data address");
			if (strcmp(f, "-") != 0) {
				if (parse_hex64(f, &r->addr) == -1)
					lr_errx(lr, "bad data address '%s'", f);
				evs[r->ev].addrs = 1;
			}
		}
		r->br = nbrs;
		while ((f = field(&p)) != NULL) {
			if (nbrs - r->br >= MAX_BRANCHES)
				lr_errx(lr, "more than %d branches",
				    MAX_BRANCHES);
			parse_branch(lr, f);
		}
		r->nbr = nbrs - r->br;
		if (r->nbr > 0) {
			evs[r->ev].branches = 1;
			anybranch = 1;
		}
	} else if (strcmp(kind, "mmap") == 0) {
		r->kind = K_MMAP;
		r->pid = get_pid(lr, &p, "pid");
		r->tid = get_pid(lr, &p, "tid");
		r->time = get_time(lr, &p);
		r->start = get_hex(lr, &p, "start");
		r->len = get_hex(lr, &p, "length");
		r->pgoff = get_hex(lr, &p, "page offset");
		f = need(lr, &p, "protection");
		if (strlen(f) != 4)
			lr_errx(lr, "bad protection '%s'", f);
		r->prot = (f[0] == 'r' ? 1 : 0) | (f[1] == 'w' ? 2 : 0) |
		    (f[2] == 'x' ? 4 : 0);
		r->mflags = f[3] == 's' ? 1 : 2;	/* MAP_SHARED, MAP_PRIVATE */
		get_buildid(lr, &p, r);
		if (*p == '\0')
			lr_errx(lr, "missing path");
		r->str = xstrdup(p);
	} else if (strcmp(kind, "comm") == 0) {
		r->kind = K_COMM;
		r->pid = get_pid(lr, &p, "pid");
		r->tid = get_pid(lr, &p, "tid");
		r->time = get_time(lr, &p);
		f = need(lr, &p, "exec flag");
		if (strcmp(f, "0") != 0 && strcmp(f, "1") != 0)
			lr_errx(lr, "bad exec flag '%s'", f);
		r->exec = f[0] == '1';
		if (*p == '\0')
			lr_errx(lr, "missing comm");
		r->str = xstrdup(p);
	} else if (strcmp(kind, "fork") == 0 || strcmp(kind, "exit") == 0) {
		r->kind = kind[0] == 'f' ? K_FORK : K_EXIT;
		r->pid = get_pid(lr, &p, "pid");
		r->ppid = get_pid(lr, &p, "ppid");
		r->tid = get_pid(lr, &p, "tid");
		r->ptid = get_pid(lr, &p, "ptid");
		r->time = get_time(lr, &p);
	} else if (strcmp(kind, "lost") == 0) {
		r->kind = K_LOST;
		f = need(lr, &p, "count");
		if (parse_u64(f, 10, UINT64_MAX, &r->count) == -1)
			lr_errx(lr, "bad count '%s'", f);
		r->pid = r->tid = -1;
		r->time = clock_ns;	/* LOST has no time of its own */
	} else if (strcmp(kind, "buildid") == 0) {
		r->kind = K_BUILDID;
		f = need(lr, &p, "pid");
		if (parse_i64(f, &v) == -1 || v < INT32_MIN || v > INT32_MAX)
			lr_errx(lr, "bad pid '%s'", f);
		r->pid = v;
		get_buildid(lr, &p, r);
		if (!r->hasbid)
			lr_errx(lr, "missing build-id");
		if (*p == '\0')
			lr_errx(lr, "missing path");
		r->str = xstrdup(p);
	} else
		lr_errx(lr, "unknown record kind '%s'", kind);
	if (r->kind != K_SAMPLE && r->kind != K_BUILDID && r->kind != K_LOST &&
	    *p != '\0' && r->str == NULL)
		lr_errx(lr, "trailing fields '%s'", p);
	/* absent values: pid -1, tid = pid */
	if (r->pid == INT64_MIN)
		r->pid = -1;
	if (r->tid == INT64_MIN)
		r->tid = r->pid;
	if (r->ppid == INT64_MIN)
		r->ppid = -1;
	if (r->ptid == INT64_MIN)
		r->ptid = r->ppid;
	nrecs++;
}

static const struct {
	const char	*name;
	uint32_t	 type;
	uint64_t	 config;
} known_events[] = {
	{ "cycles", 0, 0 }, { "cpu-cycles", 0, 0 }, { "instructions", 0, 1 },
	{ "cache-references", 0, 2 }, { "cache-misses", 0, 3 },
	{ "branches", 0, 4 }, { "branch-instructions", 0, 4 },
	{ "branch-misses", 0, 5 }, { "bus-cycles", 0, 6 },
	{ "cpu-clock", 1, 0 }, { "task-clock", 1, 1 },
	{ "page-faults", 1, 2 }, { "faults", 1, 2 },
	{ "context-switches", 1, 3 }, { "cpu-migrations", 1, 4 },
	{ "minor-faults", 1, 5 }, { "major-faults", 1, 6 },
	/* Intel's load-latency event as perf mem records it
	 * (cpu/mem-loads,ldlat=30/P: event 0xcd, umask 1, raw) */
	{ "mem-loads", 4, 0x1cd },
};

/* the attr index of an event name, adding it on first sight */
static uint32_t
event_index(struct lineio *lr, const char *name, size_t n)
{
	struct event *e;
	const char *colon, *m;
	size_t i, base;

	for (i = 0; i < nevs; i++)
		if (strlen(evs[i].name) == n && memcmp(evs[i].name, name, n) == 0)
			return (uint32_t)i;
	if (nevs == NELEM(evs))
		lr_errx(lr, "more than %zu events", NELEM(evs));
	e = &evs[nevs];
	memset(e, 0, sizeof(*e));
	e->name = xstrndup(name, n);
	colon = memchr(name, ':', n);
	base = colon ? (size_t)(colon - name) : n;
	for (i = 0; i < NELEM(known_events); i++)
		if (strlen(known_events[i].name) == base &&
		    memcmp(known_events[i].name, name, base) == 0)
			break;
	if (i == NELEM(known_events))
		lr_errx(lr, "unknown event '%s'", e->name);
	e->type = known_events[i].type;
	e->config = known_events[i].config;
	if (colon != NULL) {
		int u = 0, k = 0, h = 0;

		for (m = colon + 1; m < name + n; m++) {
			if (*m == 'u')
				u = 1;
			else if (*m == 'k')
				k = 1;
			else if (*m == 'h')
				h = 1;
			else if (*m != 'p')
				lr_errx(lr, "unsupported modifier in '%s'",
				    e->name);
		}
		if (u || k || h) {
			e->modifier = 1;
			e->excl_user = !u;
			e->excl_kernel = !k;
			e->excl_hv = !h;
		}
	}
	return (uint32_t)nevs++;
}

/* sample_type and the attr flag word, as perf record would set them */
static void
finish_events(void)
{
	struct event *e;
	size_t i;
	uint64_t common;

	if (nevs == 0) {
		/* a stream without samples still needs one attr */
		event_index(NULL, "cycles", 6);
	}
	common = S_IP | S_TID | S_TIME;
	if (opt.id)
		common |= S_ID;
	if (opt.cpu_on)
		common |= S_CPU;
	if (opt.period_on)
		common |= S_PERIOD;
	/* with several attrs perf needs the id at a fixed place */
	if (opt.identifier || nevs > 1)
		common |= S_IDENTIFIER;
	for (i = 0; i < nevs; i++) {
		e = &evs[i];
		e->sample_type = common | (e->branches ? S_BRANCH_STACK : 0) |
		    (e->addrs || opt.allfields ? S_ADDR : 0) |
		    (opt.allfields ? S_ALL_FIELDS : 0);
		/* disabled, inherit, sample_id_all, mmap2-capable */
		e->flags = 1ULL << 0 | 1ULL << 1 | 1ULL << 18;
		if (i == 0)
			/* mmap, comm, task, mmap2, comm_exec: tracking on
			 * the first event, as perf record does */
			e->flags |= 1ULL << 8 | 1ULL << 9 | 1ULL << 13 |
			    1ULL << 23 | 1ULL << 24;
		if (opt.period_on)
			e->flags |= 1ULL << 10;		/* freq */
		if (e->excl_user)
			e->flags |= 1ULL << 4;
		if (e->excl_kernel)
			e->flags |= 1ULL << 5;
		if (e->excl_hv)
			e->flags |= 1ULL << 6;
		/*
		 * perf 6.1 evsel__add_modifiers() prints H/G when
		 * exclude_guest equals its default (1 with a u/k/h
		 * modifier, else 0), so set the other value to keep the
		 * name "cycles" or "cycles:u".
		 */
		if (!e->modifier)
			e->flags |= 1ULL << 20;
		if (opt.mmapbid && i == 0)
			e->flags |= 1ULL << 34;		/* build_id */
	}
}

static void
write_all(void)
{
	struct bb b = { 0 };
	struct stat st;
	uint64_t nattr = nevs, attrs_off, data_off, data_size, feat_off;
	uint64_t bitmap[4] = { 0 };
	size_t i, nfeat = 0, f;
	int seekable;

	if (opt.pipe) {
		bb_u64(&b, PERFILE2);
		bb_u64(&b, 16);
		raw_write(b.p, b.len);
		for (i = 0; i < nevs; i++) {
			b.len = 0;
			bb_hdr(&b, R_HEADER_ATTR, 0);
			put_attr(&b, &evs[i]);
			bb_u64(&b, FIRST_ID + i);
			bb_endrec(&b);
			raw_write(b.p, b.len);
		}
		for (f = 0; f < F_MAX; f++) {
			if (!opt.feat[f] || f == F_BUILD_ID)
				continue;
			if (f == F_BRANCH_STACK && !anybranch)
				continue;
			b.len = 0;
			bb_hdr(&b, R_HEADER_FEATURE, 0);
			bb_u64(&b, f);
			put_feature(&b, (int)f);
			while (b.len % 8 != 0)
				bb_zero(&b, 1);
			bb_endrec(&b);
			raw_write(b.p, b.len);
		}
		free(b.p);
		write_data();
		return;
	}

	/* file mode: ids, attrs, data, feature table, feature payloads */
	for (f = 0; f < F_MAX; f++) {
		if (!opt.feat[f] || (f == F_BRANCH_STACK && !anybranch))
			continue;
		bitmap[f / 64] |= 1ULL << (f % 64);
		nfeat++;
	}
	attrs_off = 104 + 8 * nattr;
	data_off = attrs_off + (ATTR_SIZE + 16) * nattr;
	seekable = fstat(fileno(out.wb.fp), &st) == 0 && S_ISREG(st.st_mode);
	data_size = 0;
	if (!seekable) {
		/* a pipe cannot be patched afterwards: count first */
		out.counting = 1;
		write_data();
		data_size = out.pos;
		out.counting = 0;
		out.pos = 0;
		if (opt.zstd)
			ZSTD_CCtx_reset(out.cctx, ZSTD_reset_session_only);
	}
	bb_u64(&b, PERFILE2);
	bb_u64(&b, 104);
	bb_u64(&b, ATTR_SIZE + 16);
	bb_u64(&b, attrs_off);
	bb_u64(&b, (ATTR_SIZE + 16) * nattr);
	bb_u64(&b, data_off);
	bb_u64(&b, data_size);
	bb_u64(&b, 0);
	bb_u64(&b, 0);
	for (i = 0; i < 4; i++)
		bb_u64(&b, bitmap[i]);
	for (i = 0; i < nattr; i++)
		bb_u64(&b, FIRST_ID + i);
	for (i = 0; i < nattr; i++) {
		put_attr(&b, &evs[i]);
		bb_u64(&b, 104 + 8 * i);
		bb_u64(&b, 8);
	}
	raw_write(b.p, b.len);
	write_data();
	if (seekable) {
		data_size = out.pos - data_off;
		b.len = 0;
		bb_u64(&b, data_size);
		wb_flush(&out.wb);
		if (fseeko(out.wb.fp, 48, SEEK_SET) == -1 ||
		    fwrite(b.p, 1, 8, out.wb.fp) != 8 ||
		    fseeko(out.wb.fp, 0, SEEK_END) == -1)
			err(1, "seek to rewrite the header");
	}
	feat_off = data_off + data_size;

	/* the payloads go after the table of {offset, size} */
	{
		struct bb pay = { 0 };
		uint64_t base = feat_off + 16 * nfeat, start;

		b.len = 0;
		for (f = 0; f < F_MAX; f++) {
			if (!(bitmap[f / 64] & 1ULL << (f % 64)))
				continue;
			start = pay.len;
			put_feature(&pay, (int)f);
			bb_u64(&b, base + start);
			bb_u64(&b, pay.len - start);
		}
		raw_write(b.p, b.len);
		raw_write(pay.p, pay.len);
		free(pay.p);
	}
	free(b.p);
}

/* the record stream: everything once, then the samples again */
static void
write_data(void)
{
	struct bb b = { 0 };
	uint64_t k, span, n = 0;
	size_t i;

	out.compressing = opt.zstd;
	out.zlen = 0;
	out.zpend.len = 0;
	out.nsamples = 0;
	span = tmax >= tmin && tmin != UINT64_MAX ? tmax - tmin + 1000 : 1000;
	for (k = 0; k < opt.repeat; k++) {
		for (i = 0; i < nrecs; i++) {
			if (k > 0 && recs[i].kind != K_SAMPLE)
				continue;
			if (recs[i].kind == K_BUILDID && !opt.pipe &&
			    opt.feat[F_BUILD_ID])
				continue;	/* in the feature section */
			emit_rec(&recs[i], k * span);
			if (recs[i].kind != K_SAMPLE)
				continue;
			emit_extra(&recs[i], k * span, ++n);
			if (opt.round_every && n % opt.round_every == 0) {
				b.len = 0;
				bb_hdr(&b, R_FINISHED_ROUND, 0);
				bb_endrec(&b);
				data_write(b.p, b.len);
			}
		}
	}
	b.len = 0;
	bb_hdr(&b, R_FINISHED_ROUND, 0);
	bb_endrec(&b);
	data_write(b.p, b.len);
	if (out.compressing) {
		z_flush();
		if (out.zpend.len > 0)
			z_record(out.zpend.p, out.zpend.len);
	}
	out.compressing = 0;
	free(b.p);
}

/* after the Nth sample: -U's records of unknown types (4th), -A's
 * AUXTRACE with its payload after the record's own size (5th) */
static void
emit_extra(const struct rec *r, uint64_t shift, uint64_t n)
{
	static const uint8_t junk[24] = {
		0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
		0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
		0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee
	};
	struct bb b = { 0 };
	uint8_t pay[768];
	size_t i;

	if (n == 4 && opt.unknown) {
		bb_hdr(&b, R_UNKNOWN_USER, 0);
		bb_bytes(&b, junk, 24);
		bb_endrec(&b);
		data_write(b.p, b.len);
		/* a kernel-range type: with the sample_id_all trailer */
		b.len = 0;
		bb_hdr(&b, R_UNKNOWN_KERNEL, 0);
		bb_bytes(&b, junk, 16);
		put_trailer(&b, r->pid, r->tid, r->time + shift);
		bb_endrec(&b);
		data_write(b.p, b.len);
	}
	if (n == 5 && opt.aux) {
		for (i = 0; i < sizeof(pay); i++)
			pay[i] = (uint8_t)i;
		bb_hdr(&b, R_AUXTRACE, 0);
		bb_u64(&b, sizeof(pay));	/* size of the payload */
		bb_u64(&b, 0);			/* offset */
		bb_u64(&b, 0);			/* reference */
		bb_u32(&b, 0);			/* idx */
		bb_u32(&b, (uint32_t)r->tid);
		bb_u32(&b, 0);			/* cpu */
		bb_u32(&b, 0);
		bb_endrec(&b);
		bb_bytes(&b, pay, sizeof(pay));
		data_write(b.p, b.len);
	}
	free(b.p);
}

static void
emit_rec(const struct rec *r, uint64_t shift)
{
	static struct bb b;
	int mb;

	b.len = 0;
	switch (r->kind) {
	case K_SAMPLE:
		put_sample(&b, r, shift);
		break;
	case K_MMAP:
		mb = opt.mmapbid && r->hasbid;
		bb_hdr(&b, R_MMAP2, MISC_USER | (mb ? MISC_MMAP_BUILD_ID : 0));
		bb_u32(&b, (uint32_t)r->pid);
		bb_u32(&b, (uint32_t)r->tid);
		bb_u64(&b, r->start);
		bb_u64(&b, r->len);
		bb_u64(&b, r->pgoff);
		if (mb) {
			uint8_t id[24] = { 0 };

			id[0] = r->bidlen;
			memcpy(id + 4, r->bid, r->bidlen);
			bb_bytes(&b, id, 24);
		} else {
			/* maj, min, ino, ino_generation: not in the stream */
			bb_u32(&b, 0);
			bb_u32(&b, 0);
			bb_u64(&b, 0);
			bb_u64(&b, 0);
		}
		bb_u32(&b, r->prot);
		bb_u32(&b, r->mflags);
		bb_str(&b, r->str);
		put_trailer(&b, r->pid, r->tid, r->time);
		break;
	case K_COMM:
		bb_hdr(&b, R_COMM, r->exec ? MISC_COMM_EXEC : 0);
		bb_u32(&b, (uint32_t)r->pid);
		bb_u32(&b, (uint32_t)r->tid);
		bb_str(&b, r->str);
		put_trailer(&b, r->pid, r->tid, r->time);
		break;
	case K_FORK:
	case K_EXIT:
		bb_hdr(&b, r->kind == K_FORK ? R_FORK : R_EXIT, 0);
		bb_u32(&b, (uint32_t)r->pid);
		bb_u32(&b, (uint32_t)r->ppid);
		bb_u32(&b, (uint32_t)r->tid);
		bb_u32(&b, (uint32_t)r->ptid);
		bb_u64(&b, r->time);
		put_trailer(&b, r->pid, r->tid, r->time);
		break;
	case K_LOST:
		bb_hdr(&b, R_LOST, 0);
		bb_u64(&b, FIRST_ID);
		bb_u64(&b, r->count);
		put_trailer(&b, -1, -1, r->time);
		break;
	case K_BUILDID:
		put_buildid(&b, R_HEADER_BUILD_ID, r);
		break;
	}
	bb_endrec(&b);
	data_write(b.p, b.len);
}

/* PERF_RECORD_SAMPLE: the fields in the order of perf_event.h */
static void
put_sample(struct bb *b, const struct rec *r, uint64_t shift)
{
	const struct event *e = &evs[r->ev];
	uint64_t st = e->sample_type, id = FIRST_ID + r->ev;

	bb_hdr(b, R_SAMPLE,
	    r->ip >= 0xffff800000000000ULL ? MISC_KERNEL : MISC_USER);
	if (st & S_IDENTIFIER)
		bb_u64(b, id);
	bb_u64(b, r->ip);
	bb_u32(b, (uint32_t)r->pid);
	bb_u32(b, (uint32_t)r->tid);
	bb_u64(b, r->time + shift);
	out.nsamples++;
	if (st & S_ADDR)
		bb_u64(b, r->addr);
	if (st & S_ID)
		bb_u64(b, id);
	if (st & S_STREAM_ID)
		bb_u64(b, id);
	if (st & S_CPU) {
		bb_u32(b, opt.cpu);
		bb_u32(b, 0);
	}
	if (st & S_PERIOD)
		bb_u64(b, opt.period);
	put_fields_before(b, r, id);
	if (st & S_BRANCH_STACK)
		put_branches(b, r);
	put_fields_after(b, st);
}

/* READ, CALLCHAIN and RAW (-X), between PERIOD and the branch stack */
static void
put_fields_before(struct bb *b, const struct rec *r, uint64_t id)
{
	static const uint8_t raw[12] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	uint64_t st = evs[r->ev].sample_type;

	if (st & S_READ) {
		/* value, time enabled, time running, id (X_READ_FORMAT):
		 * perf takes the value's growth as the period and drops
		 * a sample whose period is 0 */
		bb_u64(b, 1000 + out.nsamples);
		bb_u64(b, 900);
		bb_u64(b, 800);
		bb_u64(b, id);
	}
	if (st & S_CALLCHAIN) {
		bb_u64(b, 3);
		bb_u64(b, 0xffffffffffffff80ULL);	/* PERF_CONTEXT_KERNEL */
		bb_u64(b, r->ip);
		bb_u64(b, r->ip + 0x40);
	}
	if (st & S_RAW) {
		/* u32 size and the bytes: 16 in all, a multiple of 8 */
		bb_u32(b, sizeof(raw));
		bb_bytes(b, raw, sizeof(raw));
	}
}

/* the branch stack: nr, [hw_idx], entries, [counters] */
static void
put_branches(struct bb *b, const struct rec *r)
{
	const struct branch *br;
	uint64_t fl, cyc;
	size_t i;

	bb_u64(b, r->nbr);
	if (opt.hwidx)
		bb_u64(b, r->nbr ? r->nbr - 1 : 0);
	for (i = 0; i < r->nbr; i++) {
		br = &brs[r->br + i];
		bb_u64(b, br->from);
		bb_u64(b, br->to);
		/* the cycles no tool of ours reads: 1 to 65535 */
		cyc = opt.cycles ? 1 + (br->from + br->to) % 65535 : 0;
		/* struct perf_branch_entry bitfields, §1.10: a big-endian
		 * compiler allocates them from the most significant bit */
		if (opt.be)
			fl = (uint64_t)br->mispred << 63 |
			    (uint64_t)br->pred << 62 | cyc << 44 |
			    (opt.brtype ? (uint64_t)br->type << 40 : 0);
		else
			fl = br->mispred | br->pred << 1 | cyc << 4 |
			    (opt.brtype ? (uint64_t)br->type << 20 : 0);
		bb_u64(b, fl);
	}
	if (opt.counters)
		for (i = 0; i < r->nbr; i++)
			bb_u64(b, i + 1);
}

/* REGS_USER to CODE_PAGE_SIZE (-X), after the branch stack */
static void
put_fields_after(struct bb *b, uint64_t st)
{
	uint8_t stack[X_STACK_USER];
	size_t i;

	if (st & S_REGS_USER) {
		bb_u64(b, 2);				/* PERF_SAMPLE_REGS_ABI_64 */
		for (i = 0; i < 4; i++)			/* X_REGS_USER */
			bb_u64(b, 0x1111 * (i + 1));
	}
	if (st & S_STACK_USER) {
		for (i = 0; i < sizeof(stack); i++)
			stack[i] = (uint8_t)i;
		bb_u64(b, sizeof(stack));
		bb_bytes(b, stack, sizeof(stack));
		bb_u64(b, 48);				/* dyn_size */
	}
	if (st & S_WEIGHT)
		bb_u64(b, 33);
	if (st & S_DATA_SRC)
		bb_u64(b, 0x4000);
	if (st & S_TRANSACTION)
		bb_u64(b, 0);
	if (st & S_REGS_INTR) {
		bb_u64(b, 2);
		bb_u64(b, 7);				/* X_REGS_INTR */
		bb_u64(b, 8);
	}
	if (st & S_PHYS_ADDR)
		bb_u64(b, 0x123000);
	if (st & S_CGROUP)
		bb_u64(b, 1);
	if (st & S_DATA_PAGE)
		bb_u64(b, 4096);
	if (st & S_CODE_PAGE)
		bb_u64(b, 4096);
}

/* the sample_id_all trailer, laid out as attr 0's sample_type says */
static void
put_trailer(struct bb *b, int64_t pid, int64_t tid, uint64_t time)
{
	uint64_t st = evs[0].sample_type;

	bb_u32(b, (uint32_t)pid);
	bb_u32(b, (uint32_t)tid);
	bb_u64(b, time);
	if (st & S_ID)
		bb_u64(b, FIRST_ID);
	if (st & S_STREAM_ID)
		bb_u64(b, FIRST_ID);
	if (st & S_CPU) {
		bb_u32(b, opt.cpu);
		bb_u32(b, 0);
	}
	if (st & S_IDENTIFIER)
		bb_u64(b, FIRST_ID);
}

/* struct perf_event_attr, PERF_ATTR_SIZE_VER7 */
static void
put_attr(struct bb *b, const struct event *e)
{
	size_t i;
	uint8_t byte, rev;
	int k;

	bb_u32(b, e->type);
	bb_u32(b, ATTR_SIZE);
	bb_u64(b, e->config);
	bb_u64(b, opt.period_on ? 4000 : 1);	/* sample_freq or period */
	bb_u64(b, e->sample_type);
	bb_u64(b, e->sample_type & S_READ ? X_READ_FORMAT : 0);
	/*
	 * The flag word is a bitfield.  A big-endian compiler allocates it
	 * from the most significant bit of each byte, and perf's
	 * swap_bitfield() only reverses the bits inside each byte, so
	 * write byte i of the little-endian word with its bits reversed.
	 */
	for (i = 0; i < 8; i++) {
		byte = (uint8_t)(e->flags >> (8 * i));
		if (opt.be) {
			for (rev = 0, k = 0; k < 8; k++)
				if (byte & (1u << k))
					rev |= (uint8_t)(0x80u >> k);
			byte = rev;
		}
		bb_bytes(b, &byte, 1);
	}
	bb_u32(b, 0);				/* wakeup_events */
	bb_u32(b, 0);				/* bp_type */
	bb_u64(b, 0);				/* config1 */
	bb_u64(b, 0);				/* config2 */
	bb_u64(b, e->sample_type & S_BRANCH_STACK ? BR_ANY | BR_USER |
	    (opt.hwidx ? BR_HW_INDEX : 0) | (opt.brtype ? BR_TYPE_SAVE : 0) |
	    (opt.counters ? BR_COUNTERS : 0) : 0);
	bb_u64(b, e->sample_type & S_REGS_USER ? X_REGS_USER : 0);
	bb_u32(b, e->sample_type & S_STACK_USER ? X_STACK_USER : 0);
	bb_u32(b, 0);				/* clockid */
	bb_u64(b, e->sample_type & S_REGS_INTR ? X_REGS_INTR : 0);
	bb_u32(b, 0);				/* aux_watermark */
	bb_u16(b, 0);				/* sample_max_stack */
	bb_u16(b, 0);
	bb_u32(b, 0);				/* aux_sample_size */
	bb_u32(b, 0);
	bb_u64(b, 0);				/* sig_data */
}

/* perf_header_string: u32 length (NUL included, 64-aligned), chars */
static void
put_hstring(struct bb *b, const char *s)
{
	size_t n = strlen(s) + 1, pad = (n + 63) / 64 * 64;

	bb_u32(b, (uint32_t)pad);
	bb_bytes(b, s, n - 1);
	bb_zero(b, pad - n + 1);
}

static void
put_feature(struct bb *b, int f)
{
	size_t i;

	switch (f) {
	case F_BUILD_ID:
		for (i = 0; i < nrecs; i++)
			if (recs[i].kind == K_BUILDID)
				put_buildid(b, 0, &recs[i]);
		break;
	case F_HOSTNAME:
		put_hstring(b, "mkperfdata");
		break;
	case F_OSRELEASE:
		put_hstring(b, "6.1.0-mkperfdata");
		break;
	case F_VERSION:
		put_hstring(b, "6.1");
		break;
	case F_ARCH:
		put_hstring(b, opt.arch);
		break;
	case F_NRCPUS:
		bb_u32(b, opt.cpu + 1);		/* available */
		bb_u32(b, opt.cpu + 1);		/* online */
		break;
	case F_CMDLINE:
		bb_u32(b, 1);
		put_hstring(b, "mkperfdata");
		break;
	case F_EVENT_DESC:
		bb_u32(b, (uint32_t)nevs);
		bb_u32(b, ATTR_SIZE);
		for (i = 0; i < nevs; i++) {
			put_attr(b, &evs[i]);
			bb_u32(b, 1);
			put_hstring(b, evs[i].name);
			bb_u64(b, FIRST_ID + i);
		}
		break;
	case F_BRANCH_STACK:
		break;
	case F_COMPRESSED:
		bb_u32(b, 1);			/* version */
		bb_u32(b, 1);			/* PERF_COMP_ZSTD */
		bb_u32(b, (uint32_t)opt.zlevel);
		bb_u32(b, 1);			/* ratio: informative */
		bb_u32(b, 528384);		/* mmap_len: >= any chunk */
		break;
	}
}

/* perf_record_header_build_id: 36 bytes, then the name padded to 64 */
static void
put_buildid(struct bb *b, uint32_t type, const struct rec *r)
{
	size_t start = b->len, n = strlen(r->str) + 1;
	size_t pad = (n + 63) / 64 * 64;
	uint8_t id[24] = { 0 };

	bb_u32(b, type);
	bb_u16(b, MISC_USER | MISC_BUILD_ID_SIZE);
	bb_u16(b, (uint16_t)(36 + pad));
	bb_u32(b, (uint32_t)r->pid);
	memcpy(id, r->bid, r->bidlen);
	id[20] = r->bidlen;
	bb_bytes(b, id, 24);
	bb_bytes(b, r->str, n - 1);
	bb_zero(b, pad - n + 1);
	if (36 + pad > 65535 || b->len - start != 36 + pad)
		errx(1, "build-id path too long: %s", r->str);
}

static void
raw_write(const void *p, size_t n)
{
	out.pos += n;
	if (!out.counting && n > 0)
		wb_write(&out.wb, p, n);
}

/* data records: raw, or through the zstd stream in chunks */
static void
data_write(const void *p, size_t n)
{
	const uint8_t *s = p;
	size_t k;

	if (!out.compressing) {
		raw_write(p, n);
		return;
	}
	while (n > 0) {
		k = opt.chunk - out.zlen;
		if (k > n)
			k = n;
		memcpy(out.zin + out.zlen, s, k);
		out.zlen += k;
		s += k;
		n -= k;
		if (out.zlen == opt.chunk)
			z_flush();
	}
}

/*
 * One PERF_RECORD_COMPRESSED per chunk, all chunks from one zstd
 * stream; ZSTD_e_flush makes each chunk decode on its own to the bytes
 * fed so far, so records can straddle chunks as they do in perf record.
 */
static void
z_flush(void)
{
	ZSTD_inBuffer in = { out.zin, out.zlen, 0 };
	ZSTD_outBuffer zo = { out.zout, out.zoutcap, 0 };
	size_t rc, done;

	if (out.zlen == 0)
		return;
	ZSTD_CCtx_setParameter(out.cctx, ZSTD_c_compressionLevel, opt.zlevel);
	do {
		rc = ZSTD_compressStream2(out.cctx, &zo, &in, ZSTD_e_flush);
		if (ZSTD_isError(rc))
			errx(1, "zstd: %s", ZSTD_getErrorName(rc));
		if (rc != 0 && zo.pos == zo.size)
			errx(1, "zstd: chunk does not fit");
	} while (rc != 0);
	out.zraw += out.zlen;
	out.zcomp += zo.pos;
	out.zlen = 0;
	if (opt.zcut == 0) {
		z_record(out.zout, zo.pos);
		return;
	}
	/* -S: records of zcut compressed bytes, wherever that cuts */
	bb_bytes(&out.zpend, out.zout, zo.pos);
	for (done = 0; out.zpend.len - done >= opt.zcut; done += opt.zcut)
		z_record(out.zpend.p + done, opt.zcut);
	if (done > 0) {
		memmove(out.zpend.p, out.zpend.p + done, out.zpend.len - done);
		out.zpend.len -= done;
	}
}

/* one COMPRESSED record, or COMPRESSED2: its data size, data padded to 8 */
static void
z_record(const uint8_t *p, size_t n)
{
	static const uint8_t zero[8];
	struct bb b = { 0 };
	size_t pad = opt.z2 ? (8 - n % 8) % 8 : 0;
	size_t size = (opt.z2 ? 16 : 8) + n + pad;

	if (size > 65535)
		errx(1, "zstd: compressed chunk of %zu bytes too big", n);
	bb_u32(&b, opt.z2 ? R_COMPRESSED2 : R_COMPRESSED);
	bb_u16(&b, 0);
	bb_u16(&b, (uint16_t)size);
	if (opt.z2)
		bb_u64(&b, n);
	raw_write(b.p, b.len);
	raw_write(p, n);
	raw_write(zero, pad);
	free(b.p);
}

static void
bb_reserve(struct bb *b, size_t n)
{
	if (b->cap - b->len < n)
		xgrow(&b->p, &b->cap, b->len + n, 1);
}

static void
bb_u16(struct bb *b, uint16_t v)
{
	bb_reserve(b, 2);
	if (opt.be) {
		b->p[b->len] = (uint8_t)(v >> 8);
		b->p[b->len + 1] = (uint8_t)v;
	} else {
		b->p[b->len] = (uint8_t)v;
		b->p[b->len + 1] = (uint8_t)(v >> 8);
	}
	b->len += 2;
}

static void
bb_u32(struct bb *b, uint32_t v)
{
	int i;

	bb_reserve(b, 4);
	for (i = 0; i < 4; i++)
		b->p[b->len + (size_t)i] =
		    (uint8_t)(v >> (opt.be ? 24 - 8 * i : 8 * i));
	b->len += 4;
}

static void
bb_u64(struct bb *b, uint64_t v)
{
	int i;

	bb_reserve(b, 8);
	for (i = 0; i < 8; i++)
		b->p[b->len + (size_t)i] =
		    (uint8_t)(v >> (opt.be ? 56 - 8 * i : 8 * i));
	b->len += 8;
}

static void
bb_bytes(struct bb *b, const void *p, size_t n)
{
	bb_reserve(b, n);
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void
bb_zero(struct bb *b, size_t n)
{
	bb_reserve(b, n);
	memset(b->p + b->len, 0, n);
	b->len += n;
}

/* a NUL-terminated string padded to 8 bytes, as in COMM and MMAP2 */
static void
bb_str(struct bb *b, const char *s)
{
	size_t n = strlen(s) + 1;

	bb_bytes(b, s, n - 1);
	bb_zero(b, (n + 7) / 8 * 8 - n + 1);
}

/* a record header whose size bb_endrec() fills in; b must be empty */
static void
bb_hdr(struct bb *b, uint32_t type, uint16_t misc)
{
	bb_u32(b, type);
	bb_u16(b, misc);
	bb_u16(b, 0);
}

static void
bb_endrec(struct bb *b)
{
	size_t len = b->len;

	if (len > 65535)
		errx(1, "record of %zu bytes does not fit a perf record", len);
	b->len = 6;
	bb_u16(b, (uint16_t)len);
	b->len = len;
}

static noreturn void
usage(int status)
{
	FILE *fp = status ? stderr : stdout;

	fprintf(fp,
"usage: %s [options] [EVENTS]\n"
"Write a perf.data file from a profpipe-events stream (stdin by default).\n"
"  -o, --output FILE      write FILE (default stdout, also '-')\n"
"  -B, --big-endian       write a big-endian file\n"
"  -p, --pipe             pipe mode: 16-byte header, attrs and features as records\n"
"  -z, --zstd[=LEVEL]     compress the data records with zstd (level 1-22, default 3)\n"
"  -C, --chunk-size N     uncompressed bytes per COMPRESSED record (default 32768)\n"
"  -H, --hw-index         add hw_idx to branch stacks (PERF_SAMPLE_BRANCH_HW_INDEX)\n"
"  -T, --branch-type      save branch types (PERF_SAMPLE_BRANCH_TYPE_SAVE)\n"
"  -M, --mmap-buildid     MMAP2 records carry the build-id when the stream has one\n"
"  -n, --no-features      write no feature sections (with -z: COMPRESSED, and\n"
"                         HOSTNAME if big-endian, as perf needs them)\n"
"  -F, --features LIST    features to write: all (default) or a comma list of\n"
"                         BUILD_ID,HOSTNAME,OSRELEASE,VERSION,ARCH,NRCPUS,CMDLINE,\n"
"                         EVENT_DESC,BRANCH_STACK\n"
"  -r, --round-every N    a FINISHED_ROUND record after every N samples\n"
"  -P, --period[=N]       add PERF_SAMPLE_PERIOD with value N (default 1)\n"
"  -c, --cpu[=N]          add PERF_SAMPLE_CPU with cpu N (default 0)\n"
"  -I, --id               add PERF_SAMPLE_ID\n"
"  -i, --identifier       add PERF_SAMPLE_IDENTIFIER (implied by several events)\n"
"  -R, --repeat N         write the samples N times, times shifted (benchmarks)\n"
"  -q, --quiet            no messages but errors\n"
"  -a, --arch NAME        the machine the ARCH feature names (default x86_64;\n"
"                         aarch64 for a recording of an Arm program)\n"
"What perf record does not write here, for readers' tests:\n"
"  -X, --all-fields       every other sample_type field (ADDR, READ, CALLCHAIN,\n"
"                         ID, STREAM_ID, CPU, PERIOD, RAW, REGS_USER, STACK_USER,\n"
"                         WEIGHT, DATA_SRC, TRANSACTION, REGS_INTR, PHYS_ADDR,\n"
"                         CGROUP, DATA_PAGE_SIZE, CODE_PAGE_SIZE)\n"
"  -K, --branch-counters  branch counters after the entries (BRANCH_COUNTERS)\n"
"  -Y, --cycles           fill the entries' cycles field\n"
"  -U, --unknown-records  records of unknown types after the 4th sample\n"
"  -A, --auxtrace         an AUXTRACE record and payload after the 5th sample\n"
"  -S, --zstd-cut N       with -z: COMPRESSED records of N compressed bytes,\n"
"                         cut anywhere (perf 6.1 refuses a piece that\n"
"                         decompresses to nothing)\n"
"      --compressed2      with -z: COMPRESSED2 records (perf >= 6.15)\n"
"  -h, --help             this help\n"
"      --version          print the version\n", progname);
	if (status == 0)
		xclose_stdout();
	exit(status);
}
