/* See COPYING file for copyright and license details. */
/*
 * out.c: output that fails loudly.  -o FILE is written to a temporary
 * file in the same directory and renamed only when everything went well,
 * so a failed or interrupted run never leaves a truncated profile behind.
 */
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* temporary files to remove if we die before committing them */
static char *pending[8];
static int handlers_set;

static void
remove_pending(void)
{
	size_t i;

	for (i = 0; i < NELEM(pending); i++)
		if (pending[i] != NULL)
			unlink(pending[i]);
}

static void
on_signal(int sig)
{
	remove_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
track(char *tmp)
{
	size_t i;

	if (!handlers_set) {
		atexit(remove_pending);
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
		signal(SIGHUP, on_signal);
		handlers_set = 1;
	}
	for (i = 0; i < NELEM(pending); i++)
		if (pending[i] == NULL) {
			pending[i] = tmp;
			return;
		}
	errx(1, "too many output files");
}

static void
untrack(const char *tmp)
{
	size_t i;

	for (i = 0; i < NELEM(pending); i++)
		if (pending[i] == tmp)
			pending[i] = NULL;
}

void
out_open(struct output *o, const char *path)
{
	const char *slash;
	struct stat st;
	size_t dirlen;
	int fd;

	memset(o, 0, sizeof(*o));
	if (path == NULL || strcmp(path, "-") == 0) {
		o->fp = stdout;
		return;
	}
	/* a device or a FIFO (-o /dev/null, -o /dev/stdout) is written in
	 * place: renaming over it would replace the device with a file */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if ((o->fp = fopen(path, "w")) == NULL)
			err(1, "%s", path);
		o->path = xstrdup(path);
		return;
	}
	o->path = xstrdup(path);
	slash = strrchr(path, '/');
	dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	o->tmp = xmalloc(dirlen + 32);
	memcpy(o->tmp, path, dirlen);
	strcpy(o->tmp + dirlen, ".profpipe.XXXXXX");
	if ((fd = mkstemp(o->tmp)) == -1)
		err(1, "%s", path);
	track(o->tmp);
	/* mkstemp makes 0600 files; a profile is an ordinary file */
	{
		mode_t um = umask(0);

		umask(um);
		(void)fchmod(fd, 0666 & ~um);
	}
	if ((o->fp = fdopen(fd, "w")) == NULL)
		err(1, "%s", path);
	setvbuf(o->fp, NULL, _IOFBF, 1 << 20);
}

void
out_commit(struct output *o)
{
	if (o->path == NULL) {
		xclose_stdout();
		return;
	}
	if (fflush(o->fp) == EOF || ferror(o->fp)) {
		fclose(o->fp);
		err(1, "%s", o->path);
	}
	if (fclose(o->fp) == EOF)
		err(1, "%s", o->path);
	if (o->tmp == NULL) {
		free(o->path);
		memset(o, 0, sizeof(*o));
		return;
	}
	if (rename(o->tmp, o->path) == -1)
		err(1, "%s", o->path);
	untrack(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}

void
out_abort(struct output *o)
{
	if (o->path == NULL)
		return;
	fclose(o->fp);
	if (o->tmp != NULL)
		unlink(o->tmp);
	untrack(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}

void
xclose_stdout(void)
{
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "<stdout>");
	if (fclose(stdout) == EOF)
		err(1, "<stdout>");
}

void
wb_init(struct wbuf *w, FILE *fp, size_t cap)
{
	w->fp = fp;
	w->cap = cap < 256 ? 256 : cap;
	w->buf = xmalloc(w->cap);
	w->len = 0;
}

void
wb_flush(struct wbuf *w)
{
	if (w->len && fwrite(w->buf, 1, w->len, w->fp) != w->len)
		err(1, "write");
	w->len = 0;
}

void
wb_free(struct wbuf *w)
{
	wb_flush(w);
	free(w->buf);
	w->buf = NULL;
	w->cap = 0;
}

void
wb_write(struct wbuf *w, const void *p, size_t n)
{
	if (n > w->cap - w->len) {
		wb_flush(w);
		if (n > w->cap) {
			if (fwrite(p, 1, n, w->fp) != n)
				err(1, "write");
			return;
		}
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

void
wb_puts(struct wbuf *w, const char *s)
{
	wb_write(w, s, strlen(s));
}

void
wb_printf(struct wbuf *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(w->buf + w->len, w->cap - w->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		errx(1, "vsnprintf failed");
	if ((size_t)n < w->cap - w->len) {
		w->len += (size_t)n;
		return;
	}
	wb_flush(w);
	if ((size_t)n >= w->cap) {
		w->cap = (size_t)n + 1;
		w->buf = xrealloc(w->buf, w->cap);
	}
	va_start(ap, fmt);
	vsnprintf(w->buf, w->cap, fmt, ap);
	va_end(ap);
	w->len = (size_t)n;
}

const char fmt_hex2[513] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

const char fmt_dec2[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

void
hex_encode(char *dst, const uint8_t *src, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		memcpy(dst + 2 * i, fmt_hex2 + 2 * src[i], 2);
	dst[2 * len] = '\0';
}
