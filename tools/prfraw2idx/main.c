/* See COPYING file for copyright and license details. */
/*
 * prfraw2idx: merge LLVM raw instrumentation profiles (.profraw), our
 * text form and llvm-profdata's text form into an indexed profile
 * (.profdata) byte for byte as llvm-profdata 19 merge writes it, or into
 * either text form.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "prfraw2idx.h"

enum { FAIL_ANY, FAIL_ALL, FAIL_WARN };

struct input {
	char		*path;
	uint64_t	 weight;
};

static struct input *inputs;
static size_t	 ninputs, capinputs;
static int	 qflag;
/* file scope so that an early exit leaves them reachable, not leaked */
static struct store *stores;
static struct namecache *ncache;

static void	 add_input(const char *, uint64_t);
static void	 add_positional(const char *);
static void	 add_weighted(const char *);
static void	 add_listfile(const char *);
static int	 load(struct store *, struct namecache *, const struct input *,
		    struct perr *);
static int	 read_more(int, uint8_t **, size_t *, size_t *, size_t);
static unsigned	 ncpus(void);
static int	 load_all(unsigned, int);

/* options (prfraw2idx(1)); --num-threads is llvm-profdata's spelling,
 * --threads every tool's */
static const struct prog_opt opts[] = {
	{ "output", required_argument, 'o', "FILE",
	    "write to FILE (default stdout)" },
	{ "format-version", required_argument, 'F', "N",
	    "indexed format version 7..12 (default 12)" },
	{ "text", no_argument, 't', NULL,
	    "write the profpipe-prof text form" },
	{ "llvm-text", no_argument, 'l', NULL,
	    "write llvm-profdata's text form" },
	{ "sparse", no_argument, 's', NULL,
	    "drop functions never executed" },
	{ "failure-mode", required_argument, 'm', "MODE",
	    "any (default), all or warn" },
	{ "weighted-input", required_argument, 'w', "W,F",
	    "input F with weight W" },
	{ "input-files", required_argument, 'f', "LIST",
	    "inputs from LIST, lines [W,]path" },
	{ "threads", required_argument, 'j', "N",
	    "merge as llvm-profdata with N threads\n"
	    "(--num-threads, llvm-profdata's name, too)" },
	{ "num-threads", required_argument, 'j', "N", NULL },
	{ "quiet", no_argument, 'q', NULL, "no warnings or progress" },
	{ "verbose", no_argument, 'v', NULL,
	    "counts of inputs and functions on stderr" },
	{ NULL, 0, 0, NULL, NULL }
};
static const struct prog_usage usage = {
	"[-qstv] [-o file] [-F version] [-j n] [--text | --llvm-text]\n"
	" [-m any|all|warn] [-w weight,file]... [-f listfile]\n"
	" [file[:weight] | dir]...",
	"Merge LLVM raw instrumentation profiles (.profraw), or their text "
	"forms,\ninto the indexed .profdata clang -fprofile-use reads, as "
	"llvm-profdata merge\ndoes; or write a text form.",
	opts
};

int
main(int argc, char *argv[])
{
	const char *ofile = NULL;
	char **weighted = NULL, **lists = NULL;
	size_t nweighted = 0, capw = 0, nlists = 0, capl = 0, i;
	uint64_t fv = 12, nthreads = 0;
	int ch, textout = 0, sparse = 0, fmode = FAIL_ANY, nbad = 0;
	int vflag = 0;
	struct output out;
	struct wbuf w;
	struct perr e;
	unsigned nst, k;

	prog_init(argc, argv);
	while ((ch = prog_opts(argc, argv, &usage)) != -1) {
		switch (ch) {
		case 'o':
			ofile = optarg;
			break;
		case 'F':
			if (parse_u64(optarg, 10, 12, &fv) != 0 || fv < 7)
				prog_usage_error("format version '%s' is not "
				    "7 to 12", optarg);
			break;
		case 't':
		case 'l':
			if (textout != 0 && textout != (ch == 't' ? 1 : 2))
				prog_usage_error("--text and --llvm-text "
				    "exclude each other");
			textout = ch == 't' ? 1 : 2;
			break;
		case 's':
			sparse = 1;
			break;
		case 'm':
			if (strcmp(optarg, "any") == 0)
				fmode = FAIL_ANY;
			else if (strcmp(optarg, "all") == 0)
				fmode = FAIL_ALL;
			else if (strcmp(optarg, "warn") == 0)
				fmode = FAIL_WARN;
			else
				prog_usage_error("failure mode '%s' is not "
				    "any, all or warn", optarg);
			break;
		case 'w':
			xgrow(&weighted, &capw, nweighted + 1, sizeof(char *));
			weighted[nweighted++] = optarg;
			break;
		case 'f':
			xgrow(&lists, &capl, nlists + 1, sizeof(char *));
			lists[nlists++] = optarg;
			break;
		case 'j':
			if (parse_u64(optarg, 10, 1024, &nthreads) != 0)
				prog_usage_error("thread count '%s' is not 0 to "
				    "1024", optarg);
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

	/* llvm-profdata's order: positional, then weighted, then lists */
	for (i = 0; i < (size_t)argc; i++)
		add_positional(argv[i]);
	for (i = 0; i < nweighted; i++)
		add_weighted(weighted[i]);
	for (i = 0; i < nlists; i++)
		add_listfile(lists[i]);
	free(weighted);
	free(lists);
	if (ninputs == 0 && argc == 0 && nlists == 0)
		add_input("-", 1);
	if (ninputs == 0)
		prog_usage_error("no input files");
	out_plan(ofile);

	/*
	 * llvm-profdata deals the inputs round-robin to min(cpus, (n+1)/2)
	 * writer contexts and merges those pairwise at the end; the order
	 * of value-site merges (and so the output) depends on it, so do
	 * the same, in one thread.
	 */
	if (nthreads > 0)
		nst = (unsigned)nthreads;
	else {
		nst = ncpus();
		if (nst > (ninputs + 1) / 2)
			nst = (unsigned)((ninputs + 1) / 2);
	}
	if (nst < 1)
		nst = 1;
	stores = xcalloc(nst, sizeof(*stores));
	for (k = 0; k < nst; k++) {
		store_init(&stores[k], k);
		stores[k].quiet = qflag;
	}
	ncache = namecache_new();
	if ((nbad = load_all(nst, fmode)) < 0)
		return 1;
	namecache_free(ncache);
	{
		unsigned mid = nst / 2, end = nst;

		while (mid > 0) {
			for (k = 0; k < mid; k++)
				store_merge(&stores[k], &stores[k + mid]);
			if (end & 1)
				store_merge(&stores[0], &stores[end - 1]);
			end = mid;
			mid /= 2;
		}
	}
	for (k = 1; k < nst; k++)
		if (stores[k].kind != 0 && store_kind(&stores[0], stores[k].kind, &e) != 0) {
			fprintf(stderr, "%s: %s\n", progname, e.msg);
			return 1;
		}

	if (vflag)
		fprintf(stderr, "%s: inputs %zu (%d failed or suspect), "
		    "functions %zu\n", progname, ninputs, nbad, stores[0].n);
	out_open(&out, ofile);
	wb_init(&w, out.fp, 1 << 20);
	if (textout == 1)
		text_write(&w, &stores[0], sparse);
	else if (textout == 2)
		llvmtext_write(&w, &stores[0], sparse);
	else
		indexed_write(&w, &stores[0], (unsigned)fv, sparse);
	wb_free(&w);
	out_commit(&out);
	for (k = 0; k < nst; k++)
		store_free(&stores[k]);
	free(stores);
	for (i = 0; i < ninputs; i++)
		free(inputs[i].path);
	free(inputs);
	return 0;
}

/* every input into the stores, dealt round-robin: the number of inputs
 * that failed or are suspect, or -1 when the failure mode says stop */
static int
load_all(unsigned nst, int fmode)
{
	struct perr e;
	size_t i;
	int nbad = 0, tty;

	tty = !qflag && ninputs >= 100 && isatty(2);
	for (i = 0; i < ninputs; i++) {
		struct store *s = &stores[i % nst];

		if (tty && i % 64 == 0)
			fprintf(stderr, "\r%s: %zu/%zu inputs", progname, i,
			    ninputs);
		s->curfile = inputs[i].path;
		memset(&e, 0, sizeof(e));
		if (load(s, ncache, &inputs[i], &e) != 0) {
			if (tty)
				fputc('\n', stderr);
			nbad++;
			if (e.has_off == 2)
				fprintf(stderr, "%s: %s:%llu: %s\n",
				    progname, inputs[i].path,
				    (unsigned long long)e.off, e.msg);
			else if (e.has_off)
				fprintf(stderr, "%s: %s: offset 0x%llx: %s\n",
				    progname, inputs[i].path,
				    (unsigned long long)e.off, e.msg);
			else
				fprintf(stderr, "%s: %s: %s\n", progname,
				    inputs[i].path, e.msg);
			if (fmode == FAIL_ANY)
				return -1;
		} else if (e.suspect) {
			/* its records stay in, as in llvm-profdata */
			nbad++;
			if (fmode == FAIL_ANY) {
				fprintf(stderr, "%s: no profile can be merged "
				    "(--failure-mode=warn keeps it)\n", progname);
				return -1;
			}
		}
		s->curfile = NULL;
	}
	if (tty)
		fprintf(stderr, "\r%s: %zu/%zu inputs\n", progname, ninputs,
		    ninputs);
	if (fmode == FAIL_ALL && nbad == (int)ninputs) {
		fprintf(stderr, "%s: no profile can be merged\n", progname);
		return -1;
	}
	return nbad;
}

static unsigned
ncpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	return 1;
}

static void
add_input(const char *path, uint64_t w)
{
	out_input(path);
	xgrow(&inputs, &capinputs, ninputs + 1, sizeof(*inputs));
	inputs[ninputs].path = xstrdup(path);
	inputs[ninputs].weight = w;
	ninputs++;
}

/* a file, or every regular file under a directory in readdir order */
static void
add_path(const char *path, uint64_t w)
{
	struct stat sb;
	struct dstack {
		DIR	*d;
		char	*path;
	} *stk = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;

	if (strcmp(path, "-") == 0 || stat(path, &sb) != 0 ||
	    !S_ISDIR(sb.st_mode)) {
		add_input(path, w);
		return;
	}
	xgrow(&stk, &cap, 1, sizeof(*stk));
	if ((stk[0].d = opendir(path)) == NULL) {
		add_input(path, w);	/* the read reports the error */
		free(stk);
		return;
	}
	stk[0].path = xstrdup(path);
	n = 1;
	while (n > 0) {
		char *p;
		size_t l;

		if ((de = readdir(stk[n - 1].d)) == NULL) {
			closedir(stk[n - 1].d);
			free(stk[n - 1].path);
			n--;
			continue;
		}
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		l = strlen(stk[n - 1].path) + strlen(de->d_name) + 2;
		p = xmalloc(l);
		snprintf(p, l, "%s/%s", stk[n - 1].path, de->d_name);
		if (lstat(p, &sb) != 0) {
			free(p);
			continue;
		}
		if (S_ISREG(sb.st_mode))
			add_input(p, w);
		else if (S_ISDIR(sb.st_mode)) {
			DIR *d = opendir(p);

			if (d != NULL) {
				xgrow(&stk, &cap, n + 1, sizeof(*stk));
				stk[n].d = d;
				stk[n].path = p;
				n++;
				continue;
			}
		}
		free(p);
	}
	free(stk);
}

/* FILE or FILE:WEIGHT (when FILE itself does not exist) */
static void
add_positional(const char *arg)
{
	const char *c = strrchr(arg, ':');
	struct stat sb;
	uint64_t w;
	char *p;

	if (c != NULL && c[1] != '\0' && stat(arg, &sb) != 0 &&
	    parse_u64(c + 1, 10, UINT64_MAX, &w) == 0) {
		if (w == 0)
			prog_usage_error("weight of '%s' must be positive", arg);
		p = xstrndup(arg, (size_t)(c - arg));
		add_path(p, w);
		free(p);
		return;
	}
	add_path(arg, 1);
}

/* W,FILE */
static void
add_weighted(const char *arg)
{
	const char *c = strchr(arg, ',');
	uint64_t w;
	char *ws;

	if (c == NULL || c[1] == '\0')
		prog_usage_error("weighted input '%s' is not W,FILE", arg);
	ws = xstrndup(arg, (size_t)(c - arg));
	if (parse_u64(ws, 10, UINT64_MAX, &w) != 0 || w == 0)
		prog_usage_error("weight '%s' is not a positive integer", ws);
	free(ws);
	add_path(c + 1, w);
}

/* lines "[W,]path"; blank lines and # comments skipped */
static void
add_listfile(const char *path)
{
	struct lineio lr;

	out_input(path);
	if (lr_open(&lr, path) != 0)
		prog_open_error(path);
	while (lr_next(&lr)) {
		char *l = lr.buf, *c;
		uint64_t w = 1;

		size_t n;

		while (*l == ' ' || *l == '\t')
			l++;
		for (n = strlen(l); n > 0 && (l[n - 1] == ' ' ||
		    l[n - 1] == '\t'); n--)
			l[n - 1] = '\0';
		if (*l == '\0' || *l == '#')
			continue;
		if ((c = strchr(l, ',')) != NULL) {
			*c = '\0';
			if (parse_u64(l, 10, UINT64_MAX, &w) != 0 || w == 0)
				lr_errx(&lr, "weight '%s' is not a positive "
				    "integer", l);
			l = c + 1;
		}
		add_path(l, w);
	}
	lr_close(&lr);
}

/* read from fd until buf holds len bytes or the file ends */
static int
read_more(int fd, uint8_t **buf, size_t *len, size_t *cap, size_t want)
{
	ssize_t r;

	while (*len < want) {
		if (*len == *cap)
			xgrow(buf, cap, *len + 65536, 1);
		r = read(fd, *buf + *len, (want < *cap ? want : *cap) - *len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		*len += (size_t)r;
	}
	return 0;
}

/*
 * Raw profiles are small and read whole; text profiles stream through
 * a window.  The first bytes tell which is which.
 */
static int
load(struct store *s, struct namecache *cache, const struct input *in,
    struct perr *e)
{
	int fd = strcmp(in->path, "-") == 0 ? 0 :
	    open(in->path, O_RDONLY | O_CLOEXEC);
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	struct stat sb;
	int rc;

	if (fd < 0) {
		perr_set(e, 0, 0, "%s", strerror(errno));
		return -1;
	}
	if (read_more(fd, &buf, &len, &cap, 4096) != 0)
		goto ioerr;
	if (len == 0) {
		store_warn(s, "empty profile: skipped");
		rc = 0;
	} else if (raw_is_raw(buf, len)) {
		if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    (uint64_t)sb.st_size > len)
			xgrow(&buf, &cap, (size_t)sb.st_size + 1, 1);
		if (read_more(fd, &buf, &len, &cap, SIZE_MAX) != 0)
			goto ioerr;
		rc = raw_read(s, cache, buf, len, in->weight, e);
	} else if (len >= 8 && ld64(buf, 0) == 0x8169666f72706cffULL) {
		perr_set(e, 0, 0, "indexed profiles are not an input format; "
		    "use llvm-profdata merge --text to convert");
		rc = -1;
	} else
		rc = text_read_fd(s, fd, buf, len, in->weight, e);
	free(buf);
	if (fd != 0)
		close(fd);
	return rc;
ioerr:
	perr_set(e, 0, 0, "%s", strerror(errno));
	free(buf);
	if (fd != 0)
		close(fd);
	return -1;
}

