/* See COPYING file for copyright and license details. */
/* prog.c: program name, locale and the messages every tool shares. */
#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

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

void
prog_open_error(const char *path)
{
	fprintf(stderr, "%s: %s: %s\n", progname,
	    path == NULL || strcmp(path, "-") == 0 ? "<stdin>" : path,
	    strerror(errno));
	exit(1);
}
