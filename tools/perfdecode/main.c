/* See COPYING file for copyright and license details. */
/*
 * perfdecode: decode a perf.data recording (file or pipe format, either
 * byte order, zstd-compressed records, `perf record --threads`
 * directories) into the profpipe-events(5) text stream.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "perfdecode.h"

static const struct {
	const char	*name;
	unsigned	 bit;
} kinds[] = {
	{ "sample", PD_SAMPLE }, { "mmap", PD_MMAP }, { "comm", PD_COMM },
	{ "fork", PD_FORK }, { "exit", PD_EXIT }, { "buildid", PD_BUILDID },
	{ "lost", PD_LOST }
};

static void	 grow_pipe(int);
static unsigned	 parse_kinds(const char *);
static void	 add_pids(const char *, int32_t **, size_t *, size_t *);

/* options (perfdecode(1)) */
static const struct prog_opt opts[] = {
	{ "output", required_argument, 'o', "FILE",
	    "write to FILE (kept only on success)" },
	{ "pid", required_argument, 'p', "PID[,PID]",
	    "only records of these pids (repeatable)" },
	{ "comm", required_argument, 'c', "NAME",
	    "only records of pids whose comm is NAME" },
	{ "event", required_argument, 'e', "NAME",
	    "only samples of event NAME (cycles:u)" },
	{ "kinds", required_argument, 'k', "LIST",
	    "kinds to write: sample,mmap,comm,\n"
	    "fork,exit,buildid,lost or all (default)" },
	{ "samples-only", no_argument, 's', NULL,
	    "same as --kinds=sample" },
	{ "allow-truncated", no_argument, 't', NULL,
	    "a file cut short is a warning, exit 0" },
	{ "ordered", no_argument, 'O', NULL,
	    "sort by time between FINISHED_ROUNDs" },
	{ "quiet", no_argument, 'q', NULL,
	    "no warnings or lost-event totals" },
	{ "verbose", no_argument, 'v', NULL,
	    "the count of samples decoded on stderr" },
	{ NULL, 0, 0, NULL, NULL }
};
static const struct prog_usage usage = {
	"[-Oqstv] [-c comm] [-e event] [-k kinds] [-o file] [-p pid[,pid...]]\n"
	" [perf.data | perf.data-dir | -]",
	"Decode a perf.data recording into the profpipe-events stream.",
	opts
};

int
main(int argc, char *argv[])
{
	const char *ofile = NULL, *comm = NULL, *event = NULL, *in, *name;
	int32_t *pids = NULL;
	size_t npids = 0, cappids = 0;
	unsigned emit = PD_ALL;
	int ch, qflag = 0, vflag = 0, tflag = 0, oflag = 0, fd, rc, werr = 0;
	struct output out;
	FILE *afp;
	struct wbuf w;
	struct stat st;
	struct pd d;

	prog_init(argc, argv);
	while ((ch = prog_opts(argc, argv, &usage)) != -1) {
		switch (ch) {
		case 'o':
			ofile = optarg;
			break;
		case 'p':
			add_pids(optarg, &pids, &npids, &cappids);
			break;
		case 'c':
			comm = optarg;
			break;
		case 'e':
			event = optarg;
			break;
		case 'k':
			emit = parse_kinds(optarg);
			break;
		case 's':
			emit = PD_SAMPLE;
			break;
		case 't':
			tflag = 1;
			break;
		case 'O':
			oflag = 1;
			break;
		case 'q':
			qflag = 1;
			break;
		case 'v':
			vflag = 1;
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		prog_usage_error("more than one input");
	in = argc == 1 ? argv[0] : "-";
	name = strcmp(in, "-") == 0 ? "<stdin>" : in;

	out_input(in);
	if (strcmp(in, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(in, O_RDONLY)) < 0)
		prog_open_error(in);
	out_open(&out, ofile);
	grow_pipe(fileno(out.fp));
	/* the kernel's copy of our output overlaps decoding */
	fflush(out.fp);
	afp = pd_aout_open(fileno(out.fp));
	wb_init(&w, afp != NULL ? afp : out.fp, 1 << 20);
	pd_init(&d, &w, name);
	d.emit = emit;
	d.pids = pids;
	d.npids = npids;
	d.comm = comm;
	d.event = event;
	d.quiet = qflag;
	d.progress = !qflag && isatty(STDERR_FILENO);
	if (oflag)
		pd_set_ordered(&d);
	if (fd != STDIN_FILENO && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		fd = -1;
		rc = pd_decode_dir(&d, in);
	} else
		rc = pd_decode_fd(&d, fd);
	if (fd > STDIN_FILENO)
		close(fd);
	/* all the records out before any message about them */
	pd_finish(&d);
	wb_flush(&w);
	if (afp != NULL && fclose(afp) != 0)
		werr = errno;
	w.fp = out.fp;
	fflush(out.fp);
	if (werr != 0) {
		fprintf(stderr, "%s: %s: %s\n", progname,
		    ofile != NULL ? ofile : "<stdout>", strerror(werr));
		if (ofile != NULL)
			out_abort(&out);
		exit(1);
	}
	if (vflag)
		fprintf(stderr, "%s: %s: %llu samples decoded\n", progname,
		    name, (unsigned long long)d.nsamples);
	if (!qflag && d.lost > 0)
		fprintf(stderr, "%s: %s: %llu events lost\n", progname, name,
		    (unsigned long long)d.lost);
	if (!qflag && d.noattr > 0)
		fprintf(stderr, "%s: %s: %llu samples of unknown event ids "
		    "skipped\n", progname, name,
		    (unsigned long long)d.noattr);
	if (rc != 0) {
		if (d.truncated && tflag) {
			if (!qflag)
				fprintf(stderr, "%s: %s: warning: %s\n",
				    progname, name, d.err);
		} else {
			fprintf(stderr, "%s: %s: %s\n", progname, name, d.err);
			if (ofile != NULL)
				out_abort(&out);
			else
				fflush(stdout);
			pd_free(&d);
			free(pids);
			exit(1);
		}
	}
	wb_free(&w);
	pd_free(&d);
	free(pids);
	if (ofile != NULL)
		out_commit(&out);
	else
		xclose_stdout();
	return 0;
}

/*
 * A pipe of 64 KiB makes writer and reader switch every 64 KiB; 1 MiB,
 * the size of our writes, halves the time of `perfdecode | consumer`.
 */
static void
grow_pipe(int fd)
{
#ifdef F_SETPIPE_SZ
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#else
	(void)fd;
#endif
}

static unsigned
parse_kinds(const char *s)
{
	unsigned m = 0;
	size_t i, n;

	while (*s) {
		n = strcspn(s, ",");
		for (i = 0; i < NELEM(kinds); i++)
			if (strlen(kinds[i].name) == n &&
			    strncmp(s, kinds[i].name, n) == 0)
				break;
		if (n == 3 && strncmp(s, "all", 3) == 0)
			m |= PD_ALL;
		else if (i == NELEM(kinds))
			prog_usage_error("record kind '%.*s' is not sample, "
			    "mmap, comm, fork, exit, buildid, lost or all",
			    (int)n, s);
		else
			m |= kinds[i].bit;
		s += n;
		if (*s == ',')
			s++;
	}
	if (m == 0)
		prog_usage_error("no record kinds given");
	return m;
}

static void
add_pids(const char *s, int32_t **pids, size_t *n, size_t *cap)
{
	char buf[32];
	uint64_t v;
	size_t k;
	int neg;

	while (*s) {
		k = strcspn(s, ",");
		if (k == 0 || k >= sizeof(buf))
			prog_usage_error("pid '%.*s' is not a number", (int)k,
			    s);
		memcpy(buf, s, k);
		buf[k] = '\0';
		neg = buf[0] == '-';
		if (parse_u64(buf + neg, 10, neg ? 1 : 0x7fffffff, &v) != 0)
			prog_usage_error("pid '%s' is not a number", buf);
		xgrow(pids, cap, *n + 1, sizeof(**pids));
		(*pids)[(*n)++] = neg ? -(int32_t)v : (int32_t)v;
		s += k;
		if (*s == ',')
			s++;
	}
}

