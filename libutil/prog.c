/* See COPYING file for copyright and license details. */
/* prog.c: program name, locale and the messages every tool shares. */
#include <errno.h>
#include <sched.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "util.h"
#include "bigmem.h"

const char *progname = "profpipe";

void
prog_init(int argc, char **argv)
{
	const char *p;

	(void)argc;
	if (argv != NULL && argv[0] != NULL) {
		p = strrchr(argv[0], '/');
		progname = p ? p + 1 : argv[0];
	}
	/* numbers are parsed and printed the C way whatever the user's locale */
	setlocale(LC_ALL, "C");
	big_heap();
}

void
prog_child_of(pid_t parent)
{
#ifdef __linux__
	(void)prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
	/* the parent ended before the request: nobody reads what we do */
	if (getppid() != parent)
		_exit(1);
}

void
prog_version(void)
{
	printf("%s (profpipe) %s\n", progname, PROFPIPE_VERSION);
	xclose_stdout();
	exit(0);
}

void
prog_usage_error(const char *fmt, ...)
{
	va_list ap;

	if (fmt != NULL) {
		fprintf(stderr, "%s: ", progname);
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	fprintf(stderr, "Try '%s --help' for more information.\n", progname);
	exit(2);
}

/*
 * After getopt_long returned ':' (an option without its argument: the
 * optstring must start with ':') or '?'.  The option as the user wrote
 * it is argv[optind - 1] when it ended its argument (always so for a long
 * option), else -optopt.
 */
void
prog_option_error(int ch, const struct option *longopts, char *const argv[])
{
	const char *a = optind > 0 ? argv[optind - 1] : "";
	int n = (int)strcspn(a, "=");
	const struct option *o;

	if (strncmp(a, "--", 2) != 0)
		n = 0;
	if (ch == ':') {
		if (n > 0)
			prog_usage_error("option '%.*s' needs an argument",
			    n, a);
		prog_usage_error("option '-%c' needs an argument", optopt);
	}
	if (n > 0 && a[n] == '=')
		for (o = longopts; o->name != NULL; o++)
			if (o->has_arg == no_argument && o->val == optopt &&
			    strlen(o->name) == (size_t)n - 2 &&
			    strncmp(o->name, a + 2, (size_t)n - 2) == 0)
				prog_usage_error("option '%.*s' takes no "
				    "argument", n, a);
	if (optopt != 0)
		prog_usage_error("unknown option '-%c'", optopt);
	prog_usage_error("unknown option '%.*s'", n > 0 ? n : (int)strlen(a), a);
}

int
prog_getopt(int argc, char *const argv[], const char *optstring,
    const struct option *longopts, void (*usage)(void))
{
	int ch;

	ch = getopt_long(argc, argv, optstring, longopts, NULL);
	switch (ch) {
	case 'h':
		usage();
		/* a usage() that returns: its help is out, exit 0 all the same */
		xclose_stdout();
		exit(0);
	case 'V':
		prog_version();
	case ':':
	case '?':
		prog_option_error(ch, longopts, argv);
	default:
		return ch;
	}
}

void
prog_help(const struct prog_usage *u)
{
	static const struct prog_opt std[] = {
		{ "help", no_argument, 'h', NULL, "this help" },
		{ "version", no_argument, 256, NULL, "print the version" },
		{ NULL, 0, 0, NULL, NULL }
	};
	const struct prog_opt *tabs[2] = { u->opts, std }, *o;
	const char *p, *q;
	char left[64];
	int width = 0, n, t;

	/* usage: tool form, each further form under the first; a line
	 * starting with a space goes on with the form before */
	printf("usage: %s ", progname);
	for (p = u->synopsis; (q = strchr(p, '\n')) != NULL; p = q + 1) {
		printf("%.*s\n", (int)(q - p), p);
		if (q[1] == ' ') {
			printf("%*s", (int)strlen(progname) + 8, "");
			q++;
		} else
			printf("       %s ", progname);
	}
	printf("%s\n%s\n", p, u->about);
	for (t = 0; t < 2; t++)
		for (o = tabs[t]; o->name != NULL; o++) {
			if (o->help == NULL)
				continue;
			n = snprintf(left, sizeof(left), "  %c%c%s--%s%s%s",
			    o->val < 256 ? '-' : ' ',
			    o->val < 256 ? o->val : ' ',
			    o->val < 256 ? ", " : "  ", o->name,
			    o->arg ? "=" : "", o->arg ? o->arg : "");
			if (n > width)
				width = n;
		}
	for (t = 0; t < 2; t++)
		for (o = tabs[t]; o->name != NULL; o++) {
			if (o->help == NULL)
				continue;
			snprintf(left, sizeof(left), "  %c%c%s--%s%s%s",
			    o->val < 256 ? '-' : ' ',
			    o->val < 256 ? o->val : ' ',
			    o->val < 256 ? ", " : "  ", o->name,
			    o->arg ? "=" : "", o->arg ? o->arg : "");
			printf("%-*s  ", width, left);
			for (p = o->help; (q = strchr(p, '\n')) != NULL;
			    p = q + 1)
				printf("%.*s\n%*s", (int)(q - p), p,
				    width + 2, "");
			printf("%s\n", p);
		}
	xclose_stdout();
	exit(0);
}

int
prog_opts(int argc, char *const argv[], const struct prog_usage *u)
{
	/* getopt_long's tables, made once */
	static const struct prog_usage *made;
	static struct option *lo;
	static char *so;
	const struct prog_opt *o;
	size_t n, k, j;
	int ch;

	if (made != u) {
		for (n = 0; u->opts[n].name != NULL; n++)
			;
		free(lo);
		free(so);
		lo = xcalloc(n + 3, sizeof(*lo));
		so = xcalloc(2 * n + 4, 1);
		j = 0;
		so[j++] = ':';
		for (k = 0; k < n; k++) {
			o = &u->opts[k];
			lo[k] = (struct option){ o->name, o->has_arg, NULL,
			    o->val };
			if (o->val < 256 && strchr(so, o->val) == NULL) {
				so[j++] = (char)o->val;
				if (o->has_arg == required_argument)
					so[j++] = ':';
			}
		}
		so[j++] = 'h';
		lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
		lo[n++] = (struct option){ "version", no_argument, NULL, 256 };
		made = u;
	}
	ch = getopt_long(argc, argv, so, lo, NULL);
	switch (ch) {
	case 'h':
		prog_help(u);
	case 256:
		prog_version();
	case ':':
	case '?':
		prog_option_error(ch, lo, argv);
	default:
		return ch;
	}
}

void
prog_open_error(const char *path)
{
	fprintf(stderr, "%s: %s: %s\n", progname,
	    path == NULL || strcmp(path, "-") == 0 ? "<stdin>" : path,
	    strerror(errno));
	exit(1);
}

int
vfailf(char *err, size_t errlen, const char *fmt, va_list ap)
{
	if (errlen > 0)
		vsnprintf(err, errlen, fmt, ap);
	return -1;
}

int
failf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfailf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

int
prog_ncpus(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}
