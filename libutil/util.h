/* See COPYING file for copyright and license details. */
/*
 * util.h: the utility layer (libutil/), which knows nothing of profiles:
 * allocation, program start and options, line input, output, number
 * parsing, byte loads.  The BOLT layer (libbolt/) is built on it; a tool
 * uses both.  Each module has its own prefix; the functions whose names
 * start with x die with exit 1 on failure, the others return an error to
 * the caller so that parsers stay usable from fuzz harnesses.
 */
#ifndef PROFPIPE_UTIL_H
#define PROFPIPE_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdnoreturn.h>
#include <sys/types.h>

#define PROFPIPE_VERSION "0.1.0"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define PRINTFLIKE(f, a) __attribute__((format(printf, f, a)))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define PRINTFLIKE(f, a)
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#endif

/* xalloc.c: allocation that dies on failure or on size overflow */
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
char	*xasprintf(const char *fmt, ...) PRINTFLIKE(1, 2);
/* grow *pp (holding *cap elements of size sz) to at least need elements */
void	 xgrow(void *pp, size_t *cap, size_t need, size_t sz);
/* the capacity xgrow grows cap to for need elements (doubling from 16) */
size_t	 grow_cap(size_t cap, size_t need);

/* prog.c: program name, common option helpers, messages */
extern const char *progname;
void	 prog_init(int argc, char **argv);	/* sets progname, LC_ALL=C */
/* the CPUs this process may run on (its affinity, else those online),
 * 1 to 1024: a tool's default count of threads or processes */
int	 prog_ncpus(void);
/* in a process just forked by parent: it gets SIGTERM when parent ends
 * (Linux's PR_SET_PDEATHSIG, kept across exec), and ends at once if
 * parent has already */
void	 prog_child_of(pid_t parent);
noreturn void prog_version(void);		/* prints "tool (profpipe) X" */
noreturn void prog_usage_error(const char *fmt, ...) PRINTFLIKE(1, 2);
						/* message + "try --help", exit 2 */
/* getopt_long's ':' or '?' (its optstring starting ':'), exit 2 */
struct option;
noreturn void prog_option_error(int ch, const struct option *longopts,
	    char *const argv[]);
/*
 * getopt_long over optstring (starting ':') and longopts, which end with
 * PROG_OPTIONS_END: returns the next option of the tool's own, or -1 at
 * the end; handles -h/--help (usage(), which prints to stdout and exits
 * 0), --version (prog_version()) and usage errors (prog_option_error()).
 */
int	 prog_getopt(int argc, char *const argv[], const char *optstring,
	    const struct option *longopts, void (*usage)(void));
#define PROG_OPTIONS_END \
	{ "help",	no_argument,	   NULL, 'h' }, \
	{ "version",	no_argument,	   NULL, 'V' }, \
	{ NULL, 0, NULL, 0 }
/* "tool: path: strerror(errno)", exit 1: a file that cannot be opened */
noreturn void prog_open_error(const char *path);

/*
 * A tool's options and its usage from one table, as gentoo pax-utils
 * writes its tools: each option once, with its help; prog_opts makes
 * getopt_long's tables of it, and -h/--help prints the usage from it.
 * Every tool has -q/--quiet (no warnings or statistics on standard
 * error) and -v/--verbose (counts on standard error) when it has
 * anything to say there, -o/--output, -h/--help and --version.
 */
struct prog_opt {
	const char	*name;		/* --name */
	int		 has_arg;	/* no_argument, required_argument */
	int		 val;		/* -val, or above 255: long only */
	const char	*arg;		/* the argument in the help, "FILE" */
	const char	*help;		/* lines joined by "\n"; NULL: an
					 * alias accepted, not listed */
};
struct prog_usage {
	const char	*synopsis;	/* after "usage: tool "; "\n" starts
					 * another form */
	const char	*about;		/* what the tool does */
	const struct prog_opt *opts;	/* ends with { NULL } */
};
/* the next option of the tool's own, or -1 at the end: -h/--help,
 * --version and usage errors (exit 2) are handled */
int	 prog_opts(int argc, char *const argv[], const struct prog_usage *);
/* the usage on standard output, exit 0 */
noreturn void prog_help(const struct prog_usage *);

/* prog.c: the one error-return helper of parsers that leave the message
 * to their caller: fmt into err[0, errlen) (cut to fit), then -1 */
int	 failf(char *err, size_t errlen, const char *fmt, ...) PRINTFLIKE(3, 4);
int	 vfailf(char *err, size_t errlen, const char *fmt, va_list ap);

/* parse.c: bounded number parsing; all return 0 on success, -1 on error */
int	 parse_u64(const char *s, int base, uint64_t max, uint64_t *out);
int	 parse_hex64(const char *s, uint64_t *out);	/* "0x" optional */
/* parse one field of s, stopping at ' ' or end; *endp after the field */
int	 parse_hex64_field(const char *s, const char **endp, uint64_t *out);
int	 parse_dec64_field(const char *s, const char **endp, uint64_t *out);
/* s[0..len) for a message: bytes outside printable ASCII (and the
 * backslash) as \xNN, cut with "..." to fit dstlen; returns dst */
char	*vis_str(char *dst, size_t dstlen, const char *s, size_t len);
/* hexscan(s, &v): up to 16 hex digits (either case) at s into v; returns
 * how many, 0 if none; stops at the first other byte, but may load all 16
 * bytes: s must have 16 readable bytes (lineio's LR_PAD) */
#include "hexscan.h"

/* lineio.c: the one line reader: it knows file and line number, reads
 * the input in big blocks and hands out lines in place, without copying;
 * the current line is followed by at least LR_PAD readable bytes, so that
 * a parser may load whole words up to LR_PAD bytes past any position up
 * to and including the terminating NUL (see hexscan).  A trailing CR is
 * dropped. */
#define LR_PAD	64
struct lineio {
	int		 fd;		/* -1: a buffer (lr_open_mem) */
	const char	*name;		/* "<stdin>" for stdin */
	char		*buf;		/* the current line, NUL-terminated, no LF */
	size_t		 len;		/* of the current line */
	uint64_t	 lineno;	/* 1-based number of the current line */
	int		 owned;		/* fd is ours to close */
	int		 eof;
	int		 soft;		/* errors end the input, in err, rather
					 * than the program; NUL bytes are
					 * data (lr_open_fd, lr_open_mem) */
	int		 err;		/* soft: errno of what ended it */
	size_t		 maxline;	/* longer lines are an error */
	char		*mem;		/* the block: lines not handed out yet */
	size_t		 cap, start, end;
	size_t		 nulat;		/* offset of a NUL read, SIZE_MAX if none */
};
/* open path ("-" or NULL: stdin); returns -1 with errno set on failure */
int	 lr_open(struct lineio *, const char *path);
/* soft readers, for a parser that reports its own errors (prfraw2idx's
 * text forms): an open fd whose first plen bytes, pre, were read already;
 * or the bytes buf[0, len).  Lines up to maxline bytes. */
void	 lr_open_fd(struct lineio *, int fd, const void *pre, size_t plen,
	    size_t maxline);
void	 lr_open_mem(struct lineio *, const void *buf, size_t len,
	    size_t maxline);
/* next line into lr->buf; 1 = got one, 0 = EOF (or, soft, an error); dies
 * on read error and on a NUL byte in a line */
int	 lr_next(struct lineio *);
/* as lr_next, but -1 rather than read more: the lines handed out so far
 * stay where they are until lr_next is called */
int	 lr_next_buffered(struct lineio *);
/* the unread input: at least want bytes of it, unless it ends first */
const char *lr_peek(struct lineio *, size_t want, size_t *have);
void	 lr_close(struct lineio *);
/* "tool: file:line: msg" then exit 1 */
noreturn void lr_errx(const struct lineio *, const char *fmt, ...) PRINTFLIKE(2, 3);
void	 lr_warnx(const struct lineio *, const char *fmt, ...) PRINTFLIKE(2, 3);

/* out.c: output that fails loudly, and -o FILE via a temporary file */
struct output {
	FILE	*fp;
	char	*path;		/* final path, NULL for stdout */
	char	*tmp;		/* temporary path while writing */
	int	 anon;		/* a file without a name until committed */
};
/* path NULL or "-": stdout.  Otherwise a file beside path that has no
 * name until out_commit() (O_TMPFILE: not even SIGKILL leaves it), or
 * where the file system cannot, a temporary file that out_commit()
 * renames and any exit before removes (and SIGINT, SIGTERM and SIGHUP,
 * unless the program handles or ignores them: then its handler calls
 * out_remove_pending).  Dies on error: exit 2 when
 * path is a file out_input noted or another output (out_open, out_plan),
 * exit 1 when it cannot be written. */
void	 out_open(struct output *, const char *path);
/* a file the tool reads (NULL or "-": the standard input, when it is a
 * file), and an output it opens later: each refused (exit 2) as soon as
 * an output and an input, or two outputs, are one file, by device and
 * inode or by name.  A tool notes its files once its options are read,
 * before it reads or writes anything. */
void	 out_input(const char *path);
void	 out_plan(const char *path);
/* unlink the temporary files of this process not committed yet; safe in
 * a signal handler */
void	 out_remove_pending(void);
/* flush, check, close, rename; dies with "tool: path: error" on failure */
void	 out_commit(struct output *);
/* remove the temporary file (also done at exit if not committed) */
void	 out_abort(struct output *);
/* fflush+ferror+fclose on stdout, dies on failure ("<stdout>: ...") */
void	 xclose_stdout(void);

/* fast buffered writer for hot paths: a big buffer over a FILE */
struct wbuf {
	FILE	*fp;
	char	*buf;
	size_t	 len, cap;
};
void	 wb_init(struct wbuf *, FILE *, size_t cap);
void	 wb_flush(struct wbuf *);		/* dies on write error */
void	 wb_free(struct wbuf *);		/* flushes first */
static inline void
wb_reserve(struct wbuf *w, size_t n)
{
	if (UNLIKELY(w->cap - w->len < n))
		wb_flush(w);
}
static inline void
wb_putc(struct wbuf *w, char c)
{
	wb_reserve(w, 1);
	w->buf[w->len++] = c;
}
void	 wb_puts(struct wbuf *, const char *);
void	 wb_write(struct wbuf *, const void *, size_t);
void	 wb_printf(struct wbuf *, const char *fmt, ...) PRINTFLIKE(2, 3);
/*
 * The one number writer.  put_hex: lowercase hex without 0x and without
 * leading zeros; put_dec: decimal.  Each writes at dst and returns the end
 * of the digits; put_hex may write up to 16 bytes (the caller reserves
 * them), put_dec up to 20.  fmt_hex64 and fmt_dec64 return the count.
 */
extern const char fmt_hex2[513];	/* two hex digits per byte value */
extern const char fmt_dec2[201];	/* two decimal digits per 0..99 */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* 8 nibbles to 8 ASCII hex digits, most significant first in memory */
static inline uint64_t
fmt_hex8(uint32_t x)
{
	uint64_t v = x, m;

	v = (v | v << 16) & 0x0000ffff0000ffffULL;
	v = (v | v << 8) & 0x00ff00ff00ff00ffULL;
	v = (v | v << 4) & 0x0f0f0f0f0f0f0f0fULL;
	m = ((v + 0x0606060606060606ULL) >> 4) & 0x0101010101010101ULL;
	v += 0x3030303030303030ULL + m * ('a' - '0' - 10);
	return __builtin_bswap64(v);
}

static inline char *
put_hex(char *dst, uint64_t v)
{
	unsigned nd = v ? (unsigned)(67 - __builtin_clzll(v)) / 4 : 1, k;
	uint64_t lo = fmt_hex8((uint32_t)v), hi, w;

	if (nd <= 8) {
		w = lo >> (8 * (8 - nd));
		__builtin_memcpy(dst, &w, 8);
		return dst + nd;
	}
	hi = fmt_hex8((uint32_t)(v >> 32));
	k = 16 - nd;		/* leading zeros to drop, 0 to 7 */
	if (k == 0) {
		__builtin_memcpy(dst, &hi, 8);
		__builtin_memcpy(dst + 8, &lo, 8);
		return dst + 16;
	}
	w = hi >> (8 * k) | lo << (8 * (8 - k));
	__builtin_memcpy(dst, &w, 8);
	w = lo >> (8 * k);
	__builtin_memcpy(dst + 8, &w, 8);
	return dst + nd;
}
#else
static inline char *
put_hex(char *dst, uint64_t v)
{
	unsigned nd = v ? (unsigned)(67 - __builtin_clzll(v)) / 4 : 1;
	char *e = dst + nd, *q = e;

	while (v >= 0x100) {
		q -= 2;
		__builtin_memcpy(q, fmt_hex2 + 2 * (v & 0xff), 2);
		v >>= 8;
	}
	if (v >= 0x10) {
		q -= 2;
		__builtin_memcpy(q, fmt_hex2 + 2 * v, 2);
	} else
		q[-1] = fmt_hex2[2 * v + 1];
	return e;
}
#endif

/* written in place from the end: no copy */
static inline char *
put_dec(char *dst, uint64_t v)
{
	unsigned n = 1;
	uint64_t t = v;
	char *q;

	while (t >= 10) {
		t /= 10;
		n++;
	}
	q = dst + n;
	while (v >= 100) {
		q -= 2;
		__builtin_memcpy(q, fmt_dec2 + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		q -= 2;
		__builtin_memcpy(q, fmt_dec2 + 2 * v, 2);
	} else
		q[-1] = (char)('0' + v);
	return dst + n;
}

static inline size_t
fmt_hex64(char *dst, uint64_t v)
{
	return (size_t)(put_hex(dst, v) - dst);
}

static inline size_t
fmt_dec64(char *dst, uint64_t v)
{
	return (size_t)(put_dec(dst, v) - dst);
}
static inline void
wb_hex(struct wbuf *w, uint64_t v)
{
	wb_reserve(w, 16);
	w->len += fmt_hex64(w->buf + w->len, v);
}
static inline void
wb_dec(struct wbuf *w, uint64_t v)
{
	wb_reserve(w, 20);
	w->len += fmt_dec64(w->buf + w->len, v);
}

/* leb128.c: bounded LEB128; return bytes consumed, 0 on truncation or
 * on an encoding longer than 10 bytes or overflowing 64 bits */
size_t	 uleb128_decode(const uint8_t *p, const uint8_t *end, uint64_t *out);
size_t	 sleb128_decode(const uint8_t *p, const uint8_t *end, int64_t *out);
/* v at p (at most 10 bytes); the bytes written */
size_t	 uleb128_encode(uint8_t *p, uint64_t v);

/* unaligned loads in either byte order */
static inline uint16_t
ld16(const void *p, int swap)
{
	uint16_t v;
	__builtin_memcpy(&v, p, 2);
	return swap ? __builtin_bswap16(v) : v;
}
static inline uint32_t
ld32(const void *p, int swap)
{
	uint32_t v;
	__builtin_memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}
static inline uint64_t
ld64(const void *p, int swap)
{
	uint64_t v;
	__builtin_memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}
/* the 64-bit finalizer of MurmurHash3 (fmix64): every input bit moves
 * every output bit; the hash tables' mixing step */
static inline uint64_t
hash_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}
/* is x in the ascending array v[0, n) (binary search) */
static inline int
sorted_has(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (v[m] < x)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < n && v[lo] == x;
}
static inline void
st64le(void *p, uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	__builtin_memcpy(p, &v, 8);
}

/* hex_encode: src[0, len) as lowercase hex into dst (2*len+1 bytes) */
void	 hex_encode(char *dst, const uint8_t *src, size_t len);

#endif
