/* See COPYING file for copyright and license details. */
/*
 * out.c: output that fails loudly.  -o FILE is written to a file in the
 * same directory that has no name (O_TMPFILE) or a temporary one, and
 * gets FILE's name only when everything went well, so a failed or
 * interrupted run never leaves a truncated profile behind; a name that
 * cannot be fails before the work.  No output may be one of the tool's
 * inputs, nor two outputs one file (out_input, out_plan).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/*
 * Temporary files to remove if we die before committing them: a list
 * the signal handler walks.  An entry is never freed (its name is in
 * it), only emptied, so that a handler in any thread reads valid
 * memory; its owner is the process that made it, so that a forked
 * worker's exit or signal leaves its parent's files alone.
 */
struct pend {
	struct pend		*next;
	volatile sig_atomic_t	 live;
	pid_t			 owner;
	char			 name[];
};
static struct pend *volatile pendlist;
static int handlers_set;

void
out_remove_pending(void)
{
	struct pend *p;
	pid_t me = getpid();

	for (p = pendlist; p != NULL; p = p->next)
		if (p->live && p->owner == me)
			unlink(p->name);
}

static void
remove_at_exit(void)
{
	out_remove_pending();
}

static void
on_signal(int sig)
{
	out_remove_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
track(const char *tmp)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	struct pend *p;
	size_t i;

	if (!handlers_set) {
		atexit(remove_at_exit);
		/* a signal the caller handles (profpipe-perf2bolt's, which
		 * calls out_remove_pending) or ignores (nohup) stays so */
		for (i = 0; i < NELEM(sigs); i++)
			if (sigaction(sigs[i], NULL, &sa) == 0 &&
			    sa.sa_handler == SIG_DFL)
				signal(sigs[i], on_signal);
		handlers_set = 1;
	}
	for (p = pendlist; p != NULL; p = p->next)
		if (!p->live && strlen(p->name) >= strlen(tmp))
			break;
	if (p == NULL) {
		p = xmalloc(sizeof(*p) + strlen(tmp) + 1);
		p->live = 0;
		strcpy(p->name, tmp);
		p->next = pendlist;
		pendlist = p;
	} else
		strcpy(p->name, tmp);
	p->owner = getpid();
	p->live = 1;
}

static void
untrack(const char *tmp)
{
	struct pend *p;

	if (tmp == NULL)
		return;
	for (p = pendlist; p != NULL; p = p->next)
		if (p->live && strcmp(p->name, tmp) == 0)
			p->live = 0;
}

/*
 * The files of a command line: no output may be one of the inputs, nor
 * two outputs one file.  A file is known by its device and inode when it
 * exists (hard links, symbolic links, ./x and x), and an output that
 * does not exist yet by its name (canonical()).  Only regular files
 * count: a device or a FIFO is written in place, and -o /dev/null
 * -w /dev/null is no clash.
 */
struct fileid {
	char	*given;		/* as given; NULL: the standard input */
	char	*name;		/* canonical, NULL if not known */
	dev_t	 dev;
	ino_t	 ino;
	int	 exists;	/* a regular file: dev and ino */
	int	 output, planned;	/* planned: by out_plan, not yet opened */
};
static struct fileid *files;
static size_t nfiles, capfiles;

/* the name of path: the real path of its longest leading part that
 * exists, then the rest as written, without "." and with ".." taking
 * off a component; NULL for a name too long to be one */
static char *
canonical(const char *path)
{
	size_t len = strlen(path), cut = len, n;
	char *pre, *real, *out, *p;
	const char *c, *e;

	if (len == 0 || len >= PATH_MAX)
		return NULL;
	for (;;) {
		pre = cut > 0 ? xstrndup(path, cut) :
		    xstrdup(path[0] == '/' ? "/" : ".");
		real = realpath(pre, NULL);
		free(pre);
		if (real != NULL || cut == 0)
			break;
		while (cut > 0 && path[cut - 1] != '/')
			cut--;
		while (cut > 0 && path[cut - 1] == '/')
			cut--;
	}
	if (real == NULL)
		return NULL;
	out = xmalloc(strlen(real) + len - cut + 2);
	strcpy(out, real);
	free(real);
	for (c = path + cut; *c != '\0'; c = e) {
		while (*c == '/')
			c++;
		e = c + strcspn(c, "/");
		n = (size_t)(e - c);
		if (n == 0 || (n == 1 && c[0] == '.'))
			continue;
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			if ((p = strrchr(out, '/')) != NULL)
				p[p == out] = '\0';
			continue;
		}
		if (strcmp(out, "/") != 0)
			strcat(out, "/");
		strncat(out, c, n);
	}
	return out;
}

/* f is g: the same regular file, or the same name where one of them
 * does not exist */
static int
same_file(const struct fileid *f, const struct fileid *g)
{
	if (f->exists && g->exists)
		return f->dev == g->dev && f->ino == g->ino;
	return f->name != NULL && g->name != NULL &&
	    strcmp(f->name, g->name) == 0;
}

/* note a file; 0 if it is nothing to compare (not a regular file) */
static int
note(const char *path, int output, struct fileid *f)
{
	struct stat st;
	int r;

	memset(f, 0, sizeof(*f));
	f->output = output;
	if (path == NULL || strcmp(path, "-") == 0) {
		/* the standard input, when it is a file (< file) */
		if (output || fstat(STDIN_FILENO, &st) == -1 ||
		    !S_ISREG(st.st_mode))
			return 0;
		f->exists = 1;
		f->dev = st.st_dev;
		f->ino = st.st_ino;
		return 1;
	}
	r = stat(path, &st);
	/* an input that does not open says so when it is opened */
	if ((r == -1 && (!output || errno != ENOENT)) ||
	    (r == 0 && !S_ISREG(st.st_mode)))
		return 0;
	f->given = xstrdup(path);
	if ((f->name = canonical(path)) == NULL)
		f->name = xstrdup(path);
	if (r == 0) {
		f->exists = 1;
		f->dev = st.st_dev;
		f->ino = st.st_ino;
	}
	return 1;
}

/* g, noted after f, is f */
static void
clash(const struct fileid *f, const struct fileid *g)
{
	const struct fileid *out = g->output ? g : f, *other = g->output ? f : g;

	if (other->given == NULL)
		prog_usage_error("%s: the same file as the standard input: a "
		    "tool never writes over its input", out->given);
	if (other->output)
		prog_usage_error("%s: the same file as the output %s: two "
		    "outputs cannot be one file", g->given, f->given);
	prog_usage_error("%s: the same file as the input %s: a tool never "
	    "writes over its input", out->given, other->given);
}

/* note path as file k (nfiles: a new one), checked against the others */
static void
add_file(size_t k, const char *path, int output, int planned)
{
	struct fileid f;
	size_t i;

	if (!note(path, output, &f))
		return;
	for (i = 0; i < nfiles; i++)
		if (i != k && (output || files[i].output) &&
		    same_file(&f, &files[i]))
			clash(&files[i], &f);
	f.planned = planned;
	if (k == nfiles) {
		xgrow(&files, &capfiles, nfiles + 1, sizeof(*files));
		nfiles++;
	} else {
		free(files[k].given);
		free(files[k].name);
	}
	files[k] = f;
}

void
out_input(const char *path)
{
	add_file(nfiles, path, 0, 0);
}

void
out_plan(const char *path)
{
	if (path != NULL && strcmp(path, "-") != 0)
		add_file(nfiles, path, 1, 1);
}

/* out_open's check: an output out_plan saw is checked again (its
 * directory may have been made since), against the others */
static void
check_output(const char *path)
{
	size_t i;

	for (i = 0; i < nfiles; i++)
		if (files[i].planned && files[i].given != NULL &&
		    strcmp(files[i].given, path) == 0)
			break;
	add_file(i, path, 1, 0);
}

/* the template of a temporary file beside path */
static char *
temp_name(const char *path, size_t dirlen)
{
	char *t = xmalloc(dirlen + 32);

	memcpy(t, path, dirlen);
	strcpy(t + dirlen, ".profpipe.XXXXXX");
	return t;
}

/* a file without a name in path's directory (dirlen bytes of it), or -1
 * where the file system makes none (and for a test of the other way,
 * OUT_TEST_NAMED=1 in the environment) */
static int
open_anon(const char *path, size_t dirlen)
{
#ifdef O_TMPFILE
	const char *t = getenv("OUT_TEST_NAMED");
	char *dir;
	int fd;

	if (t != NULL && strcmp(t, "1") == 0)
		return -1;
	dir = dirlen > 0 ? xstrndup(path, dirlen) : xstrdup(".");
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);

	free(dir);
	return fd;
#else
	(void)path;
	(void)dirlen;
	return -1;
#endif
}

/* copy what fd holds to t */
static int
copy_fd(int fd, int t)
{
	static char buf[1 << 16];
	off_t off = 0;
	ssize_t r;

	while ((r = pread(fd, buf, sizeof(buf), off)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || write(t, buf, (size_t)r) != r)
			return -1;
		off += r;
	}
	return 0;
}

/*
 * The anonymous file o is given its name: at once when the name is new
 * (linkat through /proc), else under a temporary name renamed over the
 * old file; without /proc, a copy under the temporary name.  -1 with
 * errno on failure.
 */
static int
name_anon(struct output *o)
{
	const char *slash = strrchr(o->path, '/');
	char proc[64], *tmp;
	int fd = fileno(o->fp), t = -1, rc = -1, e, tries;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, o->path, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	e = errno;
	tmp = temp_name(o->path, slash ? (size_t)(slash - o->path) + 1 : 0);
	for (tries = 0; tries < 100; tries++) {
		strcpy(tmp + strlen(tmp) - 6, "XXXXXX");
		if ((t = mkostemp(tmp, O_CLOEXEC)) == -1)
			break;
		track(tmp);
		if (e != EEXIST)
			rc = copy_fd(fd, t);
		else if ((rc = unlink(tmp)) == 0)
			rc = linkat(AT_FDCWD, proc, AT_FDCWD, tmp,
			    AT_SYMLINK_FOLLOW);
		e = errno;
		close(t);
		if (rc == 0 && (rc = rename(tmp, o->path)) == -1)
			e = errno;
		if (rc != 0)
			unlink(tmp);
		untrack(tmp);
		/* another took the name between unlink and linkat */
		if (rc == 0 || e != EEXIST)
			break;
	}
	free(tmp);
	if (t == -1 || rc != 0) {
		errno = t == -1 ? errno : e;
		return -1;
	}
	return 0;
}

void
out_open(struct output *o, const char *path)
{
	const char *slash;
	struct stat st;
	size_t dirlen;
	int fd, r;

	memset(o, 0, sizeof(*o));
	if (path == NULL || strcmp(path, "-") == 0) {
		o->fp = stdout;
		return;
	}
	check_output(path);
	/* a device or a FIFO (-o /dev/null, -o /dev/stdout) is written in
	 * place: renaming over it would replace the device with a file */
	if ((r = stat(path, &st)) == 0 && !S_ISREG(st.st_mode)) {
		if ((o->fp = fopen(path, "we")) == NULL)
			err(1, "%s", path);
		o->path = xstrdup(path);
		return;
	}
	/* a name that cannot be (too long, a file for a directory, no
	 * search permission) fails now, not at the rename after the work */
	if (r == -1 && errno != ENOENT)
		err(1, "%s", path);
	o->path = xstrdup(path);
	slash = strrchr(path, '/');
	dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	if ((fd = open_anon(path, dirlen)) >= 0)
		o->anon = 1;
	else {
		o->tmp = temp_name(path, dirlen);
		if ((fd = mkostemp(o->tmp, O_CLOEXEC)) == -1)
			err(1, "%s", path);
		track(o->tmp);
		/* mkstemp makes 0600 files; a profile is an ordinary file */
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
	if (fflush(o->fp) == EOF || ferror(o->fp) ||
	    (o->anon && name_anon(o) == -1)) {
		int e = errno;

		fclose(o->fp);
		errno = e;
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
