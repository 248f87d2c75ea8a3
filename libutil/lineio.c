/* See COPYING file for copyright and license details. */
/* lineio.c: read text streams a line at a time, knowing where we are.
 * Lines are handed out in place from a big block read with read(2): the
 * streams between stages are hundreds of megabytes, and copying each line
 * out of stdio's buffer cost a tenth of preagg's time. */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#define LR_BLOCK	(1 << 20)
#define LR_MAXLINE	((size_t)16 << 20)	/* a bound for hostile input */

int
lr_open(struct lineio *lr, const char *path)
{
	memset(lr, 0, sizeof(*lr));
	if (path == NULL || strcmp(path, "-") == 0) {
		lr->fd = 0;
		lr->name = "<stdin>";
	} else {
		if ((lr->fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
			return -1;
		lr->name = path;
		lr->owned = 1;
	}
#ifdef F_SETPIPE_SZ
	/* stages read each other through pipes: fewer, bigger transfers
	 * (fails harmlessly on files and above the system's limit) */
	(void)fcntl(lr->fd, F_SETPIPE_SZ, LR_BLOCK);
#endif
	lr->cap = LR_BLOCK;
	/* zeroed, so that the padding past the data is never uninitialised */
	lr->mem = xcalloc(1, lr->cap + LR_PAD);
	lr->nulat = SIZE_MAX;
	lr->maxline = LR_MAXLINE;
	return 0;
}

/* a soft reader whose block holds p[0, n) */
static void
open_soft(struct lineio *lr, int fd, const void *p, size_t n,
    size_t maxline)
{
	memset(lr, 0, sizeof(*lr));
	lr->fd = fd;
	lr->name = "";
	lr->soft = 1;
	lr->maxline = maxline;
	lr->cap = n > LR_BLOCK ? n : LR_BLOCK;
	lr->mem = xcalloc(1, lr->cap + LR_PAD);
	if (n > 0)
		memcpy(lr->mem, p, n);
	lr->end = n;
	lr->nulat = SIZE_MAX;
}

void
lr_open_fd(struct lineio *lr, int fd, const void *pre, size_t plen,
    size_t maxline)
{
	open_soft(lr, fd, pre, plen, maxline);
}

void
lr_open_mem(struct lineio *lr, const void *buf, size_t len, size_t maxline)
{
	open_soft(lr, -1, buf, len, maxline);
	lr->eof = 1;
}

/* read more into the block; 0 at EOF */
static int
fill(struct lineio *lr)
{
	ssize_t n;
	char *z;

	if (lr->start > 0) {
		memmove(lr->mem, lr->mem + lr->start, lr->end - lr->start);
		lr->end -= lr->start;
		if (lr->nulat != SIZE_MAX)
			lr->nulat -= lr->start;
		lr->start = 0;
	}
	if (lr->fd < 0 || lr->err)
		return 0;
	if (lr->end == lr->cap) {
		if (lr->cap >= lr->maxline) {
			if (lr->soft) {
				lr->err = EFBIG;
				return 0;
			}
			lr->lineno++;
			lr_errx(lr, "line longer than %zu bytes", lr->maxline);
		}
		lr->mem = xrealloc(lr->mem, lr->cap * 2 + LR_PAD);
		memset(lr->mem + lr->cap + LR_PAD, 0, lr->cap);
		lr->cap *= 2;
	}
	do
		n = read(lr->fd, lr->mem + lr->end, lr->cap - lr->end);
	while (n == -1 && errno == EINTR);
	if (n == -1) {
		if (!lr->soft)
			err(1, "%s", lr->name);
		lr->err = errno;
		return 0;
	}
	if (n == 0)
		return 0;
	if (!lr->soft && lr->nulat == SIZE_MAX &&
	    (z = memchr(lr->mem + lr->end, '\0', (size_t)n)) != NULL)
		lr->nulat = (size_t)(z - lr->mem);
	lr->end += (size_t)n;
	return 1;
}

/* hand out the line [lr->mem + lr->start, nl) */
static int
take(struct lineio *lr, char *nl)
{
	char *line = lr->mem + lr->start;
	size_t n = (size_t)(nl - line);

	lr->start = (size_t)(nl - lr->mem) + (nl < lr->mem + lr->end);
	lr->lineno++;
	if (lr->nulat != SIZE_MAX && lr->nulat < (size_t)(nl - lr->mem))
		lr_errx(lr, "NUL byte in line");
	*nl = '\0';
	/* tolerate CRLF */
	if (n > 0 && line[n - 1] == '\r')
		line[--n] = '\0';
	lr->buf = line;
	lr->len = n;
	return 1;
}

static int
at_eof(struct lineio *lr)
{
	lr->eof = 1;
	if (lr->start == lr->end) {
		lr->buf = lr->mem + lr->end;
		*lr->buf = '\0';
		lr->len = 0;
		return 0;
	}
	/* a last line without its newline */
	return take(lr, lr->mem + lr->end);
}

int
lr_next(struct lineio *lr)
{
	char *nl;
	size_t scanned = 0;

	for (;;) {
		nl = memchr(lr->mem + lr->start + scanned, '\n',
		    lr->end - lr->start - scanned);
		if (nl != NULL)
			return take(lr, nl);
		scanned = lr->end - lr->start;
		if (lr->eof || !fill(lr))
			return lr->err ? 0 : at_eof(lr);
	}
}

int
lr_next_buffered(struct lineio *lr)
{
	char *nl = memchr(lr->mem + lr->start, '\n', lr->end - lr->start);

	if (nl != NULL)
		return take(lr, nl);
	if (lr->eof)
		return at_eof(lr);
	return -1;
}

const char *
lr_peek(struct lineio *lr, size_t want, size_t *have)
{
	while (lr->end - lr->start < want && !lr->eof && fill(lr))
		;
	*have = lr->end - lr->start;
	return lr->mem + lr->start;
}

void
lr_close(struct lineio *lr)
{
	if (lr->owned)
		close(lr->fd);
	free(lr->mem);
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
