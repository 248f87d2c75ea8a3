/* See COPYING file for copyright and license details. */
/* lineio.c: read text streams a line at a time, knowing where we are. */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

int
lr_open(struct lineio *lr, const char *path)
{
	memset(lr, 0, sizeof(*lr));
	if (path == NULL || strcmp(path, "-") == 0) {
		lr->fp = stdin;
		lr->name = "<stdin>";
		/* stages read each other through pipes: read in big gulps */
		setvbuf(stdin, NULL, _IOFBF, 1 << 20);
		return 0;
	}
	if ((lr->fp = fopen(path, "r")) == NULL)
		return -1;
	lr->name = path;
	lr->owned = 1;
	/* big reads: text streams between stages are large */
	setvbuf(lr->fp, NULL, _IOFBF, 1 << 20);
	return 0;
}

int
lr_next(struct lineio *lr)
{
	ssize_t n;

	errno = 0;
	n = getline(&lr->buf, &lr->cap, lr->fp);
	if (n < 0) {
		if (ferror(lr->fp))
			err(1, "%s", lr->name);
		lr->len = 0;
		return 0;
	}
	lr->lineno++;
	/* tolerate a missing final newline and CRLF */
	if (n > 0 && lr->buf[n - 1] == '\n')
		lr->buf[--n] = '\0';
	if (n > 0 && lr->buf[n - 1] == '\r')
		lr->buf[--n] = '\0';
	if (memchr(lr->buf, '\0', (size_t)n) != NULL)
		lr_errx(lr, "NUL byte in line");
	lr->len = (size_t)n;
	return 1;
}

void
lr_close(struct lineio *lr)
{
	if (lr->owned && lr->fp != NULL)
		fclose(lr->fp);
	free(lr->buf);
	memset(lr, 0, sizeof(*lr));
}

static void
vlr_msg(const struct lineio *lr, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s:%llu: ", progname, lr->name,
	    (unsigned long long)lr->lineno);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
lr_errx(const struct lineio *lr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlr_msg(lr, fmt, ap);
	va_end(ap);
	exit(1);
}

void
lr_warnx(const struct lineio *lr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlr_msg(lr, fmt, ap);
	va_end(ap);
}
