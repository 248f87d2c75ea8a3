/* See COPYING file for copyright and license details. */
/*
 * main.c: perf2bolt's command line, read as LLVM's cl reads it (bolt/
 * tools/driver/llvm-bolt.cpp's perf2boltMode over the options of
 * DataAggregator.cpp and of the output category, LLVM 19 and main):
 *
 *   - an option is one or two dashes and its name, its value after '='
 *     or, for an option that takes one, in the next argument (-o x,
 *     -o=x, --o x, --o=x); a flag takes a value after '=' only (-nl=0,
 *     --pa=true); no value is glued to a name (-ofile is refused, as
 *     LLVM refuses it);
 *   - an option given twice keeps its last value, but -p, which main
 *     accumulates (several recordings), as a comma list too;
 *   - "--" ends the options; @file reads arguments from file;
 *   - the other arguments are the binaries.
 *
 * An option perf2bolt has and we do not honour is refused by name with
 * exit 2, never ignored.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "p2b.h"

enum { K_FLAG, K_VALUE, K_REFUSED };
enum {
	O_P = 1, O_O, O_W, O_FORMAT, O_NL, O_PA, O_IGNBID, O_PID, O_V, O_Q,
	O_HELP, O_VERSION, O_AGGONLY, O_IGNINT, O_PARSEMEM, O_BATINPUT,
	O_DATA, O_FILTERMEM
};

struct opt {
	const char	*name;
	int		 kind, id;
	const char	*why;		/* K_REFUSED: why, for the message */
};

static const struct opt opts[] = {
	{ "p",			K_VALUE, O_P, NULL },
	{ "perfdata",		K_VALUE, O_P, NULL },
	{ "o",			K_VALUE, O_O, NULL },
	{ "output",		K_VALUE, O_O, NULL },	/* profpipe's */
	{ "w",			K_VALUE, O_W, NULL },
	{ "profile-format",	K_VALUE, O_FORMAT, NULL },
	{ "nl",			K_FLAG,	 O_NL, NULL },
	{ "ba",			K_FLAG,	 O_NL, NULL },	/* LLVM main's */
	{ "basic-events",	K_FLAG,	 O_NL, NULL },
	{ "pa",			K_FLAG,	 O_PA, NULL },
	{ "ignore-build-id",	K_FLAG,	 O_IGNBID, NULL },
	{ "pid",		K_VALUE, O_PID, NULL },
	{ "v",			K_FLAG,	 O_V, NULL },
	{ "q",			K_FLAG,	 O_Q, NULL },
	{ "quiet",		K_FLAG,	 O_Q, NULL },
	{ "h",			K_FLAG,	 O_HELP, NULL },
	{ "help",		K_FLAG,	 O_HELP, NULL },
	{ "help-hidden",	K_FLAG,	 O_HELP, NULL },
	{ "help-list",		K_FLAG,	 O_HELP, NULL },
	{ "help-list-hidden",	K_FLAG,	 O_HELP, NULL },
	{ "version",		K_FLAG,	 O_VERSION, NULL },
	{ "aggregate-only",	K_FLAG,	 O_AGGONLY, NULL },
	{ "ignore-interrupt-lbr", K_FLAG, O_IGNINT, NULL },
	{ "parse-mem-profile",	K_FLAG,	 O_PARSEMEM, NULL },
	{ "bat-input",		K_VALUE, O_BATINPUT, NULL },
	{ "data",		K_VALUE, O_DATA, NULL },
	{ "itrace",		K_REFUSED, 0, "trace decoding (Intel PT, Arm "
	    "ETM) is not supported: 'perf inject --itrace=... -o out.data' "
	    "writes branch stacks this tool reads" },
	{ "spe",		K_REFUSED, 0, "Arm SPE branch records are not "
	    "supported" },
	{ "use-event-pc",	K_REFUSED, 0, "the sample's own ip is not "
	    "combined with its branch stack" },
	{ "autofdo",		K_REFUSED, 0, "AutoFDO output is not written" },
	{ "max-samples",	K_REFUSED, 0, "every sample is read" },
	{ "time-aggr",		K_REFUSED, 0, "the stages are not timed (-v "
	    "prints them; time them one by one)" },
	{ "impute-trace-fall-through", K_REFUSED, 0, "fall-throughs are not "
	    "imputed" },
	{ "perfdata-jobs",	K_REFUSED, 0, "recordings are decoded one at a "
	    "time, and aggregated in parallel threads" },
	{ "pj",			K_REFUSED, 0, "recordings are decoded one at a "
	    "time, and aggregated in parallel threads" },
	{ "filter-mem-profile",	K_FLAG,	 O_FILTERMEM, NULL },
	{ "generate-perf-script", K_REFUSED, 0, "perf script text is never "
	    "made" },
	{ "perf-script-events",	K_REFUSED, 0, "perf script text is not read" },
	{ "heatmap",		K_REFUSED, 0, "heat maps are not drawn" },
	{ "bolt-info",		K_REFUSED, 0, "no binary is written" },
	{ "log-file",		K_REFUSED, 0, "there is no log but the "
	    "stages' messages on the standard error" },
	{ "print-options",	K_REFUSED, 0, "-v prints the pipeline" },
	{ "print-all-options",	K_REFUSED, 0, "-v prints the pipeline" },
};

static struct request rq;
static struct pipeline pl;	/* static: held to the end, not leaked */

static void	 parse_args(int, char **, int);
static void	 expand_rsp(int *, char ***);
static noreturn void usage(void);

int
main(int argc, char *argv[])
{
	prog_init(argc, argv);
	run_signals();
	expand_rsp(&argc, &argv);
	parse_args(argc, argv, 1);

	/* perf2bolt's own checks, in its order (perf2boltMode) */
	if (rq.nperfdata == 0)
		prog_usage_error("expected -perfdata=<filename> option");
	if (rq.out == NULL)
		prog_usage_error("expected -o=<output file> option");
	if (rq.nbins == 0)
		prog_usage_error("expected a binary");
	if (rq.bat_input != NULL && rq.nbins > 1)
		prog_usage_error("--bat-input names the input of one BOLTed "
		    "binary: give one binary with it");
	bins_load(&rq);
	bins_files(&rq);
	plan(&rq, &pl);
	if (rq.verbose)
		pipeline_print(&pl);
	return pipeline_run(&pl) == 0 ? 0 : 1;
}

static const struct opt *
find_opt(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NELEM(opts); i++)
		if (strlen(opts[i].name) == len &&
		    strncmp(opts[i].name, name, len) == 0)
			return &opts[i];
	return NULL;
}

/* cl's bool parser: true, TRUE, True, 1 and the false forms */
static int
flag_value(const char *arg, const char *v)
{
	if (v == NULL)
		return 1;
	if (!strcmp(v, "true") || !strcmp(v, "TRUE") || !strcmp(v, "True") ||
	    !strcmp(v, "1"))
		return 1;
	if (!strcmp(v, "false") || !strcmp(v, "FALSE") ||
	    !strcmp(v, "False") || !strcmp(v, "0"))
		return 0;
	prog_usage_error("'%s': '%s' is not a value for a flag (true, false, "
	    "1, 0)", arg, v);
}

/* -p: one recording, or (as LLVM main reads -p) a comma list of them;
 * a file whose name holds a comma is taken whole */
static void
add_perfdata(const char *v)
{
	struct stat st;
	const char *s, *e;

	if (*v == '\0')
		prog_usage_error("empty -p");
	if (strchr(v, ',') == NULL || stat(v, &st) == 0) {
		rq.perfdata = xreallocarray(rq.perfdata, rq.nperfdata + 1,
		    sizeof(*rq.perfdata));
		rq.perfdata[rq.nperfdata++] = xstrdup(v);
		return;
	}
	for (s = v; *s != '\0'; s = *e ? e + 1 : e) {
		e = s + strcspn(s, ",");
		if (e == s)
			continue;
		rq.perfdata = xreallocarray(rq.perfdata, rq.nperfdata + 1,
		    sizeof(*rq.perfdata));
		rq.perfdata[rq.nperfdata++] = xstrndup(s, (size_t)(e - s));
	}
}

static void
parse_args(int argc, char **argv, int first)
{
	int i, dashdash = 0;
	uint64_t u;

	for (i = first; i < argc; i++) {
		const char *a = argv[i], *name, *eq, *v = NULL;
		const struct opt *o;
		size_t len;

		if (dashdash || a[0] != '-' || a[1] == '\0') {
			bins_add(&rq, a);
			continue;
		}
		if (strcmp(a, "--") == 0) {
			dashdash = 1;
			continue;
		}
		name = a + 1;
		if (*name == '-')
			name++;
		eq = strchr(name, '=');
		len = eq ? (size_t)(eq - name) : strlen(name);
		if ((o = find_opt(name, len)) == NULL) {
			char nm[128];

			/* perf2bolt's (llvm-bolt's) others: said so */
			snprintf(nm, sizeof(nm), "%.*s", (int)len, name);
			if (len < sizeof(nm) && bolt19_has(nm))
				prog_usage_error("option '%.*s' is not "
				    "supported: perf2bolt-19 takes it (an "
				    "llvm-bolt option), profpipe-perf2bolt "
				    "honours only the options "
				    "profpipe-perf2bolt(1) lists",
				    (int)(name - a + (ptrdiff_t)len), a);
			prog_usage_error("unknown option '%.*s'",
			    (int)(name - a + (ptrdiff_t)len), a);
		}
		if (eq != NULL)
			v = eq + 1;
		if (o->kind == K_REFUSED)
			prog_usage_error("option '%.*s' is not supported: %s",
			    (int)(name - a + (ptrdiff_t)len), a, o->why);
		if (o->kind == K_VALUE && v == NULL) {
			if (i + 1 == argc)
				prog_usage_error("option '%s' needs an argument",
				    a);
			v = argv[++i];
		}
		switch (o->id) {
		case O_P:
			add_perfdata(v);
			break;
		case O_O:
			rq.out = *v ? v : NULL;
			break;
		case O_W:
			rq.save = *v ? v : NULL;
			break;
		case O_FORMAT:
			if (strcmp(v, "fdata") == 0)
				rq.format = FMT_FDATA;
			else if (strcmp(v, "yaml") == 0)
				rq.format = FMT_YAML;
			else if (strcmp(v, "preagg") == 0)
				rq.format = FMT_PREAGG;
			else
				prog_usage_error("--profile-format: '%s' is "
				    "not fdata, yaml or preagg", v);
			break;
		case O_NL:
			rq.basic = flag_value(a, v);
			break;
		case O_PA:
			rq.pa = flag_value(a, v);
			break;
		case O_IGNBID:
			rq.ignore_bid = flag_value(a, v);
			break;
		case O_PID:
			/* cl's unsigned long long (0x for hex); 0 is
			 * perf2bolt's "all" */
			if ((strncmp(v, "0x", 2) == 0 || strncmp(v, "0X", 2) == 0 ?
			    parse_u64(v + 2, 16, UINT32_MAX, &u) :
			    parse_u64(v, 10, UINT32_MAX, &u)) == -1)
				prog_usage_error("--pid: '%s' is not a process "
				    "id", v);
			rq.pid = u;
			break;
		case O_V:
			/* perf2bolt's -v is BOLT's verbosity level (-v=1);
			 * here any level above 0 prints the pipeline, and
			 * -v alone does too */
			if (v != NULL && (parse_u64(v, 10, UINT32_MAX, &u) == -1))
				prog_usage_error("-v: '%s' is not a level", v);
			rq.verbose = v == NULL || u > 0;
			break;
		case O_Q:
			rq.quiet = flag_value(a, v);
			break;
		case O_HELP:
		case O_VERSION:
			if (v != NULL)
				prog_usage_error("option '%.*s' takes no "
				    "argument", (int)(name - a + (ptrdiff_t)len),
				    a);
			if (o->id == O_HELP)
				usage();
			prog_version();
		case O_AGGONLY:
			/* perf2bolt sets it whatever it is given */
			(void)flag_value(a, v);
			break;
		case O_IGNINT:
			if (!flag_value(a, v))
				prog_usage_error("option '%s' is not supported: "
				    "branch-stack entries with an end in the "
				    "kernel are dropped", a);
			break;
		case O_PARSEMEM:
			/* LLVM main's: memory samples or not */
			rq.nomem = !flag_value(a, v);
			break;
		case O_FILTERMEM:
			if (!flag_value(a, v))
				prog_usage_error("option '%s' is not supported: "
				    "memory samples outside the binary's image "
				    "(heap, stack) are dropped", a);
			break;
		case O_BATINPUT:
			rq.bat_input = v;
			break;
		case O_DATA:
			/* perf2boltMode's own refusal */
			prog_usage_error("unknown -data option: perf2bolt reads "
			    "recordings with -p");
		}
	}
}

/* ---- response files (cl::ExpandResponseFiles, GNU tokenization) ---- */

static void
push(char ***v, int *n, size_t *cap, char *s)
{
	xgrow(v, cap, (size_t)*n + 1, sizeof(**v));
	(*v)[(*n)++] = s;
}

#define RSP_MAX	(1 << 20)

/* the arguments of a response file, as GNU tools split them: blanks
 * separate, quotes group, a backslash takes the next character */
static void
rsp_read(const char *path, char ***v, int *n, size_t *cap, int depth)
{
	FILE *fp;
	char *buf = NULL, *tok = NULL;
	size_t len = 0, tlen = 0, tcap = 0, i;
	int c, quote = 0, intok = 0;

	if (depth > 20)
		prog_usage_error("@%s: response files nested too deep", path);
	if ((fp = fopen(path, "r")) == NULL)
		prog_open_error(path);
	out_input(path);
	while ((c = getc(fp)) != EOF) {
		/* a command line, not a data file */
		if (len == RSP_MAX)
			prog_usage_error("@%s: longer than %d bytes", path,
			    RSP_MAX);
		xgrow(&buf, &tcap, len + 1, 1);
		buf[len++] = (char)c;
	}
	if (ferror(fp))
		prog_open_error(path);
	fclose(fp);
	tcap = 0;
	for (i = 0; i <= len; i++) {
		c = i < len ? (unsigned char)buf[i] : -1;
		if (c == -1 || (!quote && (c == ' ' || c == '\t' || c == '\n' ||
		    c == '\r'))) {
			if (intok) {
				xgrow(&tok, &tcap, tlen + 1, 1);
				tok[tlen] = '\0';
				if (tok[0] == '@')
					rsp_read(tok + 1, v, n, cap, depth + 1);
				else
					push(v, n, cap, xstrdup(tok));
				tlen = 0;
				intok = 0;
			}
			continue;
		}
		intok = 1;
		if (c == '\\' && i + 1 < len && quote != '\'') {
			c = (unsigned char)buf[++i];
		} else if ((c == '"' || c == '\'') && (!quote || quote == c)) {
			quote = quote ? 0 : c;
			continue;
		}
		xgrow(&tok, &tcap, tlen + 1, 1);
		tok[tlen++] = (char)c;
	}
	free(tok);
	free(buf);
}

/* held to the end (volatile: the store is kept), not leaked */
static char **volatile rspargv;

static void
expand_rsp(int *argcp, char ***argvp)
{
	char **v = NULL;
	size_t cap = 0;
	int n = 0, i, any = 0;

	for (i = 0; i < *argcp; i++)
		if ((*argvp)[i][0] == '@' && i > 0) {
			any = 1;
			break;
		}
	if (!any)
		return;
	for (i = 0; i < *argcp; i++) {
		if (i > 0 && (*argvp)[i][0] == '@' && strcmp((*argvp)[i - 1],
		    "--") != 0)
			rsp_read((*argvp)[i] + 1, &v, &n, &cap, 0);
		else
			push(&v, &n, &cap, (*argvp)[i]);
	}
	push(&v, &n, &cap, NULL);
	*argcp = n - 1;
	*argvp = rspargv = v;
}

static void
usage(void)
{
	printf("usage: %s -p perf.data [-p perf.data...] -o file [-w file]\n"
	    "           [--profile-format=fdata|yaml|preagg] [-nl] [--pa]\n"
	    "           [--ignore-build-id] [--pid=N] [--bat-input=file] [-v] [-q]\n"
	    "           binary|directory...\n"
	    "perf2bolt's command line over profpipe's filters: the fdata or YAML\n"
	    "profile perf2bolt-19 writes, from one pass over the recordings.\n"
	    "  -p, --perfdata=FILE        a recording (several: their sum; a comma\n"
	    "                             list too; - the standard input)\n"
	    "  -o FILE                    the profile (with several binaries: a\n"
	    "                             directory, one profile per binary)\n"
	    "  -w FILE                    a YAML profile as well\n"
	    "      --profile-format=F     -o's format: fdata (default), yaml, preagg\n"
	    "  -nl, --ba                  samples without branch stacks (their ip)\n"
	    "      --pa                   -p files are pre-aggregated profiles\n"
	    "      --ignore-build-id      match the binary by file name only\n"
	    "      --pid=N                only the samples of process N\n"
	    "      --bat-input=FILE       the input binary of a BOLTed binary (else\n"
	    "                             found from its .note.bolt_info)\n"
	    "  -v                         print the pipeline run\n"
	    "  -q                         no warnings, no progress\n"
	    "  -h, --help                 this help\n"
	    "      --version              print the version\n"
	    "Options take one or two dashes and their value after '=' or as the\n"
	    "next argument, as perf2bolt's; see profpipe-perf2bolt(1).\n",
	    progname);
	xclose_stdout();
	exit(0);
}
