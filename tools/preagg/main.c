/* See COPYING file for copyright and license details. */
/* main.c: preagg's options, the binaries it profiles, and usage. */
#include <sys/stat.h>

#include <gelf.h>
#include <getopt.h>
#include <pthread.h>
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "preagg.h"

struct binary bins[MAXBIN];
int nbins;
int kflag, lflag, mflag, qflag, vflag, buildid_locs;
const char *memfile;
int fmt21;		/* --llvm=21: the form LLVM 21 and 22 read */
int basic_only;		/* --basic: every sample an S at its ip */
int branches_only;	/* --branches: no S for samples without stack */
int hflag;		/* --heatmap: what llvm-bolt-heatmap counts */
int ignore_bid;		/* --ignore-build-id: binaries matched by name */
uint64_t nsamples, nused, nnolbr, nbranches, nkernel;
int64_t *pids;		/* --pid: only these (events.c) */
size_t npids;

static void	 open_binary(struct binary *);
static void	*load_functions(void *);
static int	 default_threads(const char *);
static int	 parse_args(int, char *[], const char **, int *);
static void	 check_args(const char *, int);
static void	 load_binaries(void);
static void	 report(void);

/* options (preagg(1)) */
static const struct prog_opt opts[] = {
	{ "binary", required_argument, 'b', "FILE",
	    "profile this binary (repeatable)" },
	{ "llvm", required_argument, 'L', "RELEASE",
	    "the form the BOLT of LLVM RELEASE reads: 19 or\n"
	    "20 (B, F, f), 21 or 22 (T and R with one\n"
	    "count), 23 or main (the default)" },
	{ "legacy", no_argument, 'l', NULL,
	    "only B, F and f entries (--llvm=19)" },
	{ "basic", no_argument, 'S', NULL,
	    "every sample as an S entry at its ip, branch\n"
	    "stacks ignored (perf2bolt -nl)" },
	{ "branches", no_argument, 'T', NULL,
	    "no S entries for samples without branch stack" },
	{ "heatmap", no_argument, 'H', NULL,
	    "what llvm-bolt-heatmap counts (for heatmap): the ends\n"
	    "of each branch stack as S entries, addresses in the\n"
	    "binary outside its functions kept" },
	{ "buildid-locations", no_argument, 'B', NULL,
	    "write buildid:offset locations" },
	{ "ignore-build-id", no_argument, 'I', NULL,
	    "match mappings by file name only" },
	{ "kernel-lbr", no_argument, 'k', NULL,
	    "keep branch-stack entries with a kernel end\n"
	    "(as ends outside; for afdowrite)" },
	{ "merge", no_argument, 'm', NULL, "sum pre-aggregated profiles" },
	{ "mem", required_argument, 'M', "FILE",
	    "also write the samples of memory events\n"
	    "(mem-loads) to FILE, a profpipe-mem stream\n"
	    "(fdatawrite -M)" },
	{ "pid", required_argument, 'p', "PID",
	    "only samples of PID (repeatable)" },
	{ "threads", required_argument, 'j', "N",
	    "parse in N threads (default: the CPUs, up to\n"
	    "4, less one when reading a pipe)" },
	{ "output", required_argument, 'o', "FILE",
	    "write FILE instead of the standard output" },
	{ "quiet", no_argument, 'q', NULL, "no warnings" },
	{ "verbose", no_argument, 'v', NULL,
	    "counts of samples and entries on stderr" },
	{ NULL, 0, 0, NULL, NULL }
};
static const struct prog_usage usage = {
	"-b binary [-b binary...] [-BIklqSTv] [-j n] [-L release]\n"
	" [-p pid] [-o file] [-M memfile] [file...]\n"
	"--merge [-qv] [-o file] [file...]",
	"Fold profpipe-events streams (perfdecode), one recording per file, "
	"into\nBOLT's pre-aggregated profile for llvm-bolt --pa -p, or sum\n"
	"pre-aggregated profiles.",
	opts
};

int
main(int argc, char *argv[])
{
	struct output out, mout;
	const char *ofile = NULL;
	int i, nthreads;	/* parsing threads */

	prog_init(argc, argv);
	i = parse_args(argc, argv, &ofile, &nthreads);
	argc -= i;
	argv += i;
	check_args(ofile, nthreads);
	for (i = 0; i < nbins; i++)
		out_input(bins[i].path);
	for (i = 0; i < argc; i++)
		out_input(argv[i]);
	if (argc == 0)
		out_input("-");
	out_plan(ofile);
	out_plan(memfile);
	load_binaries();
	/* the Skylake workaround depends on input order: one parser */
	if (skylake_check)
		nthreads = 1;
	out_open(&out, ofile);
	if (memfile != NULL)
		out_open(&mout, memfile);
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
	report();
	write_entries(out.fp);
	if (memfile != NULL) {
		mem_write(mout.fp);
		out_commit(&mout);
	}
	out_commit(&out);
	return 0;
}

/* the options into the globals, *ofile and *nthreads (0: as the input
 * allows); returns the index of the first operand */
static int
parse_args(int argc, char *argv[], const char **ofile, int *nthreads)
{
	uint64_t v;
	int ch;

	*nthreads = 0;	/* default_threads() */
	while ((ch = prog_opts(argc, argv, &usage)) != -1) {
		switch (ch) {
		case 'b':
			if (nbins == MAXBIN)
				prog_usage_error("more than %d binaries", MAXBIN);
			bins[nbins++].path = optarg;
			break;
		case 'B':
			buildid_locs = 1;
			break;
		case 'M':
			memfile = optarg;
			break;
		case 'j':
			if (parse_u64(optarg, 10, 256, &v) == -1 || v == 0)
				prog_usage_error("bad thread count '%s'", optarg);
			*nthreads = (int)v;
			break;
		case 'k':
			kflag = 1;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'L':
			/* the release whose BOLT reads the output: 19 and 20
			 * read B/F/f, 21 and 22 T/R with one count and no
			 * sentinel written as -1, 23 on (main) all of
			 * profiles.md */
			if (parse_u64(optarg, 10, 999, &v) == -1 &&
			    strcmp(optarg, "main") != 0)
				prog_usage_error("bad LLVM release '%s': 19, 20, "
				    "21, 22, 23 or later, or main", optarg);
			if (strcmp(optarg, "main") == 0 || v >= 23)
				lflag = fmt21 = 0;
			else if (v >= 21)
				fmt21 = 1, lflag = 0;
			else if (v >= 19)
				lflag = 1, fmt21 = 0;
			else
				prog_usage_error("LLVM %s reads no pre-aggregated "
				    "form preagg writes (19 and later do)", optarg);
			break;
		case 'S':
			basic_only = 1;
			break;
		case 'T':
			branches_only = 1;
			break;
		case 'H':
			hflag = 1;
			break;
		case 'I':
			ignore_bid = 1;
			break;
		case 'm':
			mflag = 1;
			break;
		case 'o':
			*ofile = optarg;
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
		}
	}
	return optind;
}

/* the combinations of options that make no sense */
static void
check_args(const char *ofile, int nthreads)
{
	if (mflag && (nbins || lflag || fmt21 || buildid_locs || nthreads ||
	    npids || basic_only || branches_only || ignore_bid || memfile ||
	    kflag))
		prog_usage_error("--merge takes none of -b, -l, -L, -B, -I, -j, "
		    "-k, -p, -S, -T, -M: it sums entries as they are");
	if (memfile != NULL && ofile != NULL && strcmp(memfile, ofile) == 0)
		prog_usage_error("--mem and --output name the same file");
	if (memfile != NULL && strcmp(memfile, "-") == 0 &&
	    (ofile == NULL || strcmp(ofile, "-") == 0))
		prog_usage_error("--mem and the entries both on the standard "
		    "output");
	if (basic_only && branches_only)
		prog_usage_error("--basic and --branches exclude each other");
	if (basic_only && lflag)
		prog_usage_error("--basic writes S entries, which LLVM 19 and "
		    "20 do not read: not with --legacy");
	if (kflag && lflag)
		prog_usage_error("--kernel-lbr is for the current form "
		    "(afdowrite): not with --legacy");
	if (hflag && (lflag || mflag || kflag))
		prog_usage_error("--heatmap writes S entries of LLVM 21 on, "
		    "as llvm-bolt-heatmap reads the recording: not with "
		    "--legacy, --merge or --kernel-lbr");
	/* llvm-bolt-heatmap without --basic-events reads branch stacks
	 * only */
	if (hflag && !basic_only)
		branches_only = 1;
	if (!mflag && nbins == 0)
		prog_usage_error("no --binary given");
}

/*
 * The functions of the binaries are only needed to resolve what the
 * input counted (rules.c), the first time a raw table is flushed: a
 * thread of their own loads them while the main thread reads the input
 * (on the bench's 50,000 functions, a tenth of preagg's time before).
 * functions_wait() joins it before anything uses them, and before any
 * message, so that its own come first, as they did.
 */
static pthread_t loader;
static int loader_started;
static char loader_err[512];	/* "" or what failed */

static void *
load_functions(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < nbins; i++) {
		struct binary *b = &bins[i];
		const struct functab *ft = &b->bb.ft;
		size_t k;

		/* a stripped binary still has its samples: its functions
		 * are then those BOLT's --allow-stripped finds (.eh_frame,
		 * PLT); only their bounds are used (FT_BOUNDS: no names) */
		if (functab_load_flags(&b->bb.ft, &b->bb.eo, FT_ALLOW_STRIPPED |
		    FT_BOUNDS, loader_err, sizeof(loader_err)) == -1) {
			if (loader_err[0] == '\0')
				snprintf(loader_err, sizeof(loader_err),
				    "%s: cannot load its functions", b->path);
			break;
		}
		b->funcs = xcalloc(ft->n + 1, sizeof(*b->funcs));
		for (k = 0; k < ft->n; k++) {
			uint64_t len = ft->f[k].maxsize > ft->f[k].size ?
			    ft->f[k].maxsize : ft->f[k].size;

			b->funcs[k].start = ft->f[k].addr;
			b->funcs[k].end = ft->f[k].addr + (len ? len : 1);
		}
		b->nfuncs = ft->n;
		/* the table's address index (addrix.h) has the same starts:
		 * func_of's, kept rather than built again */
		b->aix = b->bb.ft.aix;
		memset(&b->bb.ft.aix, 0, sizeof(b->bb.ft.aix));
		functab_free(&b->bb.ft);
	}
	return NULL;
}

/* wait for the functions; their errors and warnings */
void
functions_wait(void)
{
	int i, e;

	if (!loader_started)
		return;
	loader_started = 0;
	if ((e = pthread_join(loader, NULL)) != 0) {
		errno = e;
		err(1, "pthread_join");
	}
	if (loader_err[0] != '\0')
		errx(1, "%s", loader_err);
	for (i = 0; i < nbins && !qflag; i++)
		if (bins[i].nfuncs == 0)
			warnx("%s: no function symbols", bins[i].path);
}

/* every --binary, and what they decide: build-id locations, one parser
 * for the Skylake workaround of a BOLTed x86-64 binary; their functions
 * are loaded meanwhile (load_functions) */
static void
load_binaries(void)
{
	int i, e;

	for (i = 0; i < nbins; i++)
		open_binary(&bins[i]);
	if (nbins > 0 && !mflag) {
		if ((e = pthread_create(&loader, NULL, load_functions,
		    NULL)) != 0) {
			errno = e;
			err(1, "pthread_create");
		}
		loader_started = 1;
	}
	if (nbins > 1)
		buildid_locs = 1;
	for (i = 0; i < nbins && buildid_locs; i++)
		if (bins[i].bb.bid[0] == '\0') {
			functions_wait();	/* its messages first */
			errx(1, "%s: no build-id, needed for buildid:offset "
			    "locations", bins[i].path);
		}
	for (i = 0; i < nbins; i++)
		if (bins[i].bat && bins[i].bb.eo.machine == EM_X86_64)
			skylake_check = 1;
}

/* after the input: the errors and warnings of what it held, and -v */
static void
report(void)
{
	int i;

	functions_wait();

	/* perf2bolt stops when the recording knows the binary's name only
	 * with another build-id: the binary is not the one that ran */
	for (i = 0; i < nbins; i++)
		if (!mflag && bins[i].nmapped == 0 && bins[i].otherbid[0] != '\0')
			errx(1, "%s: build-id %s is not in the recording, which "
			    "maps a file of that name with build-id %s: not the "
			    "binary that ran (--ignore-build-id matches by name)",
			    bins[i].path, bins[i].bb.bid, bins[i].otherbid);
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
		    nsamples, nused, nnolbr, nbranches, nkernel, entries.n);
	else if (vflag)
		fprintf(stderr, "%s: %zu distinct entries\n", progname, entries.n);
	if (vflag && memfile != NULL)
		fprintf(stderr, "%s: %zu distinct memory samples\n", progname,
		    memn);
}

/* parsing threads: one per CPU we may run on, up to 4, leaving one to the
 * stage that writes into our pipe */
static int
default_threads(const char *first)
{
	struct stat st;
	int n = prog_ncpus();

	if ((strcmp(first, "-") == 0 ? fstat(0, &st) : stat(first, &st)) == 0 &&
	    S_ISFIFO(st.st_mode))
		n--;
	return n < 1 ? 1 : n > 4 ? 4 : n;
}

/* a binary, without its functions' ranges (load_functions): BOLT looks
 * an address up by a function's maximum size, up to the next function
 * or the end of its section (libbolt's function table) */
static void
open_binary(struct binary *b)
{
	const char *path = b->path;
	char errbuf[512];
	size_t i;

	if (boltbin_open_elf(&b->bb, path, errbuf, sizeof(errbuf)) == -1)
		errx(1, "%s", errbuf);
	b->name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	b->fixed = b->bb.eo.type == ET_EXEC;
	b->bat = elfobj_section(&b->bb.eo, ".note.bolt_bat", NULL, NULL, NULL,
	    NULL) == 1;
	/* the loaded image, where a memory sample's data address may lie */
	b->imglo = UINT64_MAX;
	for (i = 0; i < b->bb.eo.nsegs; i++) {
		const struct elf_seg *s = &b->bb.eo.segs[i];

		if (s->vaddr < b->imglo)
			b->imglo = s->vaddr;
		if (s->vaddr + s->memsz > b->imghi)
			b->imghi = s->vaddr + s->memsz;
	}
}
