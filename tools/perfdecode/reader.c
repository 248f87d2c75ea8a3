/* See COPYING file for copyright and license details. */
/*
 * reader.c: perf.data containers.  File format (header, attr table,
 * data section, feature sections after the data), pipe format (a record
 * stream), `perf record --threads` directories, and the input side of
 * it all: pread through a fixed window, never a whole-file map, so that
 * memory stays the same whatever the file size.  An input that is no
 * file is known by its first 16 bytes before anything else is read of
 * it (a file-format recording that comes so: spool.c).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

#include "util.h"
#include "perfdecode.h"
#include "pdint.h"

#define PD_WIN		(4u << 20)	/* input window: two halves */
#define MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
#define MAGIC1		0x454c494646524550ULL	/* "PERFFILE" */
#define HEADER_SIZE	104

struct pd_in {
	int		 fd;
	const uint8_t	*mem;
	uint64_t	 size;
	uint8_t		*win;
};

static int	 in_read(struct pd *, struct pd_in *, uint64_t, void *, size_t);
static int	 decode_in(struct pd *, struct pd_in *);
static int	 read_attrs(struct pd *, struct pd_in *, uint64_t, uint64_t,
		    uint64_t);
static int	 read_features(struct pd *, struct pd_in *, const uint8_t *,
		    uint64_t, unsigned);
static int	 stream(struct pd *, struct pd_in *, uint64_t, uint64_t);
static int	 decode_pipe_fd(struct pd *, int, size_t);

int
pd_error(struct pd *d, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(d->err, sizeof(d->err), "offset 0x%llx: ",
	    (unsigned long long)off);
	if (n < 0 || (size_t)n >= sizeof(d->err))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(d->err + n, sizeof(d->err) - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

void
pd_init(struct pd *d, struct wbuf *w, const char *name)
{
	memset(d, 0, sizeof(*d));
	d->w = w;
	d->name = name;
	d->emit = PD_ALL;
	d->id_pos = d->is_pos = -1;
	d->outer.carry = xmalloc(PD_MAXREC);
	d->in.carry = xmalloc(PD_MAXREC);
	d->in.inner = 1;
}

void
pd_free(struct pd *d)
{
	free(d->attrs);
	free(d->idmap.ids);
	free(d->idmap.idx);
	free(d->comms);
	free(d->outer.carry);
	free(d->in.carry);
	free(d->zout);
	free(d->oq);
	free(d->aw.buf);
	d->oq = NULL;
	d->aw.buf = NULL;
	if (d->zds != NULL)
		ZSTD_freeDStream(d->zds);
	d->attrs = NULL;
	d->comms = NULL;
	d->zds = NULL;
	d->zout = NULL;
	d->outer.carry = d->in.carry = NULL;
}

int
pd_decode_mem(struct pd *d, const uint8_t *p, size_t n)
{
	struct pd_in in;

	memset(&in, 0, sizeof(in));
	in.fd = -1;
	in.mem = p;
	in.size = n;
	return decode_in(d, &in);
}

/* the magic of the first 16 bytes: sets d->swap, or -1 */
static int
check_magic(struct pd *d, const uint8_t *h)
{
	uint64_t magic = ld64(h, 0);

	if (magic == MAGIC2)
		d->swap = 0;
	else if (magic == __builtin_bswap64(MAGIC2))
		d->swap = 1;
	else if (magic == MAGIC1 || magic == __builtin_bswap64(MAGIC1))
		return pd_error(d, 0, "legacy perf.data version 1 (PERFFILE) "
		    "is not supported");
	else
		return pd_error(d, 0, "bad magic 0x%016llx, not a perf.data "
		    "file", (unsigned long long)magic);
	return 0;
}

int
pd_decode_fd(struct pd *d, int fd)
{
	struct pd_in in;
	struct stat st;
	uint8_t head[16];
	size_t got = 0;
	ssize_t r;
	FILE *spool;
	int rc;

	memset(&in, 0, sizeof(in));
	in.fd = fd;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    lseek(fd, 0, SEEK_CUR) == 0) {
		in.size = (uint64_t)st.st_size;
		in.win = xmalloc(PD_WIN);
		rc = decode_in(d, &in);
		free(in.win);
		return rc;
	}
	/* a pipe, a device, a file read on from where it was left: its
	 * magic first, whatever comes after (/dev/zero is no recording),
	 * then the format it says */
	while (got < sizeof(head)) {
		r = read(fd, head + got, sizeof(head) - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return pd_error(d, got, "read: %s", strerror(errno));
		if (r == 0)
			break;
		got += (size_t)r;
	}
	if (got == 0)
		return pd_error(d, 0, "empty input, no perf.data header");
	if (got < sizeof(head))
		return pd_error(d, 0, "input of %zu bytes is too short for a "
		    "perf.data header", got);
	if (check_magic(d, head) != 0)
		return -1;
	if (ld64(head + 8, d->swap) == 16)
		return decode_pipe_fd(d, fd, got);
	/* file format, which needs random access: a copy (spool.c) */
	if ((spool = pd_spool(d, fd, head, &in.size)) == NULL)
		return -1;
	in.fd = fileno(spool);
	in.win = xmalloc(PD_WIN);
	rc = decode_in(d, &in);
	free(in.win);
	fclose(spool);
	return rc;
}

static int
numcmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

int
pd_decode_dir(struct pd *d, const char *path)
{
	struct pd_in in;
	struct dirent *de;
	struct stat st;
	unsigned long *nums = NULL;
	size_t n = 0, cap = 0, i;
	char *file;
	DIR *dp;
	int fd, rc;

	file = xmalloc(strlen(path) + 32);
	sprintf(file, "%s/data", path);
	if ((fd = open(file, O_RDONLY)) < 0) {
		rc = pd_error(d, 0, "%s: %s", file, strerror(errno));
		free(file);
		return rc;
	}
	rc = pd_decode_fd(d, fd);
	close(fd);
	if (rc != 0) {
		free(file);
		return rc;
	}
	if ((dp = opendir(path)) == NULL) {
		rc = pd_error(d, 0, "%s: %s", path, strerror(errno));
		free(file);
		return rc;
	}
	while ((de = readdir(dp)) != NULL) {
		char *end;
		unsigned long v;

		if (strncmp(de->d_name, "data.", 5) != 0 ||
		    de->d_name[5] < '0' || de->d_name[5] > '9')
			continue;
		v = strtoul(de->d_name + 5, &end, 10);
		if (*end != '\0' || v > 1000000)
			continue;
		xgrow(&nums, &cap, n + 1, sizeof(*nums));
		nums[n++] = v;
	}
	closedir(dp);
	qsort(nums, n, sizeof(*nums), numcmp);
	memset(&in, 0, sizeof(in));
	in.win = xmalloc(PD_WIN);
	for (i = 0; i < n && rc == 0; i++) {
		sprintf(file, "%s/data.%lu", path, nums[i]);
		if ((fd = open(file, O_RDONLY)) < 0 || fstat(fd, &st) != 0) {
			rc = pd_error(d, 0, "%s: %s", file, strerror(errno));
			if (fd >= 0)
				close(fd);
			break;
		}
		in.fd = fd;
		in.size = (uint64_t)st.st_size;
		/* each data.N is its own record stream (and zstd stream) */
		pd_stream_reset(d);
		rc = stream(d, &in, 0, in.size);
		if (rc != 0) {
			/* say which file */
			char pre[32];
			size_t pl, el;

			pl = (size_t)snprintf(pre, sizeof(pre), "data.%lu: ",
			    nums[i]);
			el = strlen(d->err);
			if (pl + el >= sizeof(d->err))
				el = sizeof(d->err) - pl - 1;
			memmove(d->err + pl, d->err, el);
			memcpy(d->err, pre, pl);
			d->err[pl + el] = '\0';
		}
		close(fd);
	}
	free(in.win);
	free(nums);
	free(file);
	return rc;
}

/* read exactly len bytes at off; -1 if the input is shorter */
static int
in_read(struct pd *d, struct pd_in *in, uint64_t off, void *dst, size_t len)
{
	size_t got = 0;
	ssize_t r;

	if (off > in->size || len > in->size - off)
		return -1;
	if (in->mem != NULL) {
		memcpy(dst, in->mem + off, len);
		return 0;
	}
	while (got < len) {
		r = pread(in->fd, (uint8_t *)dst + got, len - got,
		    (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return pd_error(d, off + got, "read: %s",
			    r < 0 ? strerror(errno) : "unexpected end of file");
		got += (size_t)r;
	}
	return 0;
}

static int
decode_in(struct pd *d, struct pd_in *in)
{
	uint8_t h[HEADER_SIZE];
	uint64_t hsize, attr_size, a_off, a_size, d_off, d_size, end;
	int rc;

	d->err[0] = '\0';
	if (in->size == 0)
		return pd_error(d, 0, "empty input, no perf.data header");
	if (in->size < 16)
		return pd_error(d, 0, "file of %llu bytes is too short for a "
		    "perf.data header", (unsigned long long)in->size);
	if (in_read(d, in, 0, h, 16) != 0 || check_magic(d, h) != 0)
		return -1;
	hsize = ld64(h + 8, d->swap);
	if (hsize == 16) {
		/* pipe format: records to the end */
		d->pipe = 1;
		pd_header(d);
		pd_stream_reset(d);
		rc = stream(d, in, 16, in->size);
		return rc;
	}
	if (hsize != HEADER_SIZE && hsize != 72)
		return pd_error(d, 8, "header size %llu is not 104, 72 or 16",
		    (unsigned long long)hsize);
	if (in->size < hsize)
		return pd_error(d, 8, "header of %llu bytes runs past the end "
		    "of the file (%llu bytes)", (unsigned long long)hsize,
		    (unsigned long long)in->size);
	memset(h + 16, 0, sizeof(h) - 16);
	if (in_read(d, in, 0, h, hsize) != 0)
		return -1;
	attr_size = ld64(h + 16, d->swap);
	a_off = ld64(h + 24, d->swap);
	a_size = ld64(h + 32, d->swap);
	d_off = ld64(h + 40, d->swap);
	d_size = ld64(h + 48, d->swap);
	if (attr_size < 64 + 16 || attr_size > 4096)
		return pd_error(d, 16, "attr size %llu is not 80 to 4096",
		    (unsigned long long)attr_size);
	if (a_off > in->size || a_size > in->size - a_off)
		return pd_error(d, 24, "attr section (offset 0x%llx, %llu "
		    "bytes) runs past the end of the file",
		    (unsigned long long)a_off, (unsigned long long)a_size);
	if (a_size % attr_size != 0 || a_size / attr_size > PD_MAXATTR)
		return pd_error(d, 32, "attr section of %llu bytes is not a "
		    "multiple of %llu or holds more than %u attrs",
		    (unsigned long long)a_size,
		    (unsigned long long)attr_size, PD_MAXATTR);
	if (a_size == 0)
		return pd_error(d, 32, "no event attrs");
	if (d_off < hsize || d_off > in->size)
		return pd_error(d, 40, "data offset 0x%llx is outside the "
		    "file (%llu bytes)", (unsigned long long)d_off,
		    (unsigned long long)in->size);
	if ((rc = read_attrs(d, in, attr_size, a_off, a_size)) != 0)
		return rc;
	if (d_size == 0) {
		/* perf record was killed before it wrote the header */
		if (!d->quiet)
			pd_warn(d, "data size is 0 (perf record did not "
			    "finish): reading records to the end of the file");
		end = in->size;
	} else {
		end = d_off + d_size;
		if (end < d_off)
			return pd_error(d, 48, "data size %llu overflows",
			    (unsigned long long)d_size);
		/* event names before the header lines, build-ids after */
		if (hsize == HEADER_SIZE && end <= in->size &&
		    (rc = read_features(d, in, h + 72, end,
		    PD_FEAT_EVENT_DESC)) != 0)
			return rc;
	}
	pd_header(d);
	if (d_size != 0 && hsize == HEADER_SIZE && end <= in->size &&
	    (rc = read_features(d, in, h + 72, end, PD_FEAT_BUILD_ID)) != 0)
		return rc;
	pd_stream_reset(d);
	if (end > in->size) {
		rc = stream(d, in, d_off, in->size);
		if (rc != 0)
			return rc;
		d->truncated = 1;
		return pd_error(d, in->size, "file ends inside the data "
		    "section, %llu bytes of records missing",
		    (unsigned long long)(end - in->size));
	}
	return stream(d, in, d_off, end);
}

struct chunk {
	struct pd	*d;
	struct pd_in	*in;
	uint64_t	 off;
	uint8_t		*buf;
	size_t		 len;
	int		 rc;
};

static void *
chunk_read(void *arg)
{
	struct chunk *c = arg;

	c->rc = in_read(c->d, c->in, c->off, c->buf, c->len);
	return NULL;
}

/*
 * push [start, end) of the input through the outer record stream.  From
 * a file, one half of the window is read by a helper thread while the
 * other half is decoded, so that the kernel's copy overlaps decoding.
 */
static int
stream(struct pd *d, struct pd_in *in, uint64_t start, uint64_t end)
{
	struct chunk c[2];
	pthread_t th;
	uint64_t off = start;
	size_t half = PD_WIN / 2;
	int k = 0, threaded;

	d->outer.off = start;
	if (in->mem != NULL) {
		if (pd_push(d, &d->outer, in->mem + start,
		    (size_t)(end - start)) != 0)
			return -1;
		return pd_stream_end(d, &d->outer);
	}
#ifdef POSIX_FADV_SEQUENTIAL
	(void)posix_fadvise(in->fd, (off_t)start, (off_t)(end - start),
	    POSIX_FADV_SEQUENTIAL);
#endif
	memset(c, 0, sizeof(c));
	c[0].d = c[1].d = d;
	c[0].in = c[1].in = in;
	c[0].buf = in->win;
	c[1].buf = in->win + half;
	c[0].off = off;
	c[0].len = end - off > half ? half : (size_t)(end - off);
	chunk_read(&c[0]);
	off += c[0].len;
	while (c[k].len > 0) {
		if (c[k].rc != 0)
			return -1;
		c[!k].off = off;
		c[!k].len = end - off > half ? half : (size_t)(end - off);
		c[!k].rc = 0;
		threaded = 0;
		if (c[!k].len > 0) {
			threaded = pthread_create(&th, NULL, chunk_read,
			    &c[!k]) == 0;
			if (!threaded)
				chunk_read(&c[!k]);
		}
		off += c[!k].len;
		if (pd_push(d, &d->outer, c[k].buf, c[k].len) != 0) {
			if (threaded)
				pthread_join(th, NULL);
			return -1;
		}
		if (threaded)
			pthread_join(th, NULL);
		k = !k;
		if (d->progress && end > start)
			fprintf(stderr, "\r%s: %s: %3u%%", progname, d->name,
			    (unsigned)((c[k].off - start) * 100 /
			    (end - start)));
	}
	if (d->progress)
		fprintf(stderr, "\r\033[K");
	return pd_stream_end(d, &d->outer);
}

static int
decode_pipe_fd(struct pd *d, int fd, size_t hlen)
{
	uint8_t *buf;
	uint64_t off = hlen;
	ssize_t r;
	int rc = 0;

	/* check_magic set d->swap */
	d->pipe = 1;
	pd_header(d);
	pd_stream_reset(d);
	d->outer.off = 16;
	buf = xmalloc(PD_WIN);
	for (;;) {
		r = read(fd, buf, PD_WIN);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = pd_error(d, off, "read: %s", strerror(errno));
			break;
		}
		if (r == 0)
			break;
		off += (uint64_t)r;
		if ((rc = pd_push(d, &d->outer, buf, (size_t)r)) != 0)
			break;
	}
	free(buf);
	if (rc == 0)
		rc = pd_stream_end(d, &d->outer);
	return rc;
}

static void
swap_bits_in_bytes(uint8_t *p, size_t n)
{
	size_t i;
	uint8_t b, r;
	int k;

	for (i = 0; i < n; i++) {
		b = p[i];
		r = 0;
		for (k = 0; k < 8; k++)
			if (b & (1u << k))
				r |= (uint8_t)(0x80u >> k);
		p[i] = r;
	}
}

/* fill a from attr.size bytes of raw attr at p (len bytes available) */
int
pd_parse_attr(struct pd *d, struct pd_attr *a, const uint8_t *p, size_t len,
    uint64_t off)
{
	uint8_t raw[PD_ATTR_KNOWN];
	uint32_t size;

	if (len < 8)
		return pd_error(d, off, "event attr of %zu bytes is too short",
		    len);
	size = ld32(p + 4, d->swap);
	if (size == 0)
		size = 64;
	if (size < 64 || size > len)
		return pd_error(d, off + 4, "attr size %u is not 64 to %zu",
		    size, len);
	memset(raw, 0, sizeof(raw));
	memcpy(raw, p, size < sizeof(raw) ? size : sizeof(raw));
	memset(a, 0, sizeof(*a));
	a->type = ld32(raw, d->swap);
	a->config = ld64(raw + 8, d->swap);
	a->sample_type = ld64(raw + 24, d->swap);
	a->read_format = ld64(raw + 32, d->swap);
	if (d->swap) {
		/* a big-endian compiler allocates bitfields from the top */
		swap_bits_in_bytes(raw + 40, 8);
	}
	a->flags = ld64(raw + 40, 0);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	a->flags = __builtin_bswap64(a->flags);
#endif
	a->branch_sample_type = ld64(raw + 72, d->swap);
	a->nregs_user = (unsigned)__builtin_popcountll(ld64(raw + 80,
	    d->swap));
	a->nregs_intr = (unsigned)__builtin_popcountll(ld64(raw + 96,
	    d->swap));
	pd_default_name(a);
	return (int)size;
}

static int
read_attrs(struct pd *d, struct pd_in *in, uint64_t attr_size,
    uint64_t a_off, uint64_t a_size)
{
	uint8_t e[4096], idbuf[4096];
	uint64_t off, ids_off, ids_size, k, n, i;
	struct pd_attr a;
	int rc;

	for (off = a_off; off < a_off + a_size; off += attr_size) {
		if (in_read(d, in, off, e, attr_size) != 0)
			return pd_error(d, off, "cannot read attr");
		rc = pd_parse_attr(d, &a, e, attr_size - 16, off);
		if (rc < 0)
			return rc;
		ids_off = ld64(e + attr_size - 16, d->swap);
		ids_size = ld64(e + attr_size - 8, d->swap);
		if (ids_off > in->size || ids_size > in->size - ids_off ||
		    ids_size % 8 != 0)
			return pd_error(d, off + attr_size - 16, "attr ids "
			    "(offset 0x%llx, %llu bytes) outside the file",
			    (unsigned long long)ids_off,
			    (unsigned long long)ids_size);
		if (ids_size / 8 > PD_MAXIDS - d->idmap.n)
			return pd_error(d, off + attr_size - 8, "more than %u "
			    "event ids", PD_MAXIDS);
		if (pd_add_attr(d, &a, off) != 0)
			return -1;
		for (k = 0; k < ids_size; k += n) {
			n = ids_size - k < sizeof(idbuf) ? ids_size - k :
			    sizeof(idbuf);
			if (in_read(d, in, ids_off + k, idbuf, n) != 0)
				return -1;
			for (i = 0; i < n; i += 8)
				pd_map_id(d, ld64(idbuf + i, d->swap),
				    d->nattrs - 1);
		}
	}
	return 0;
}

void
pd_feat_bits(struct pd *d, const uint8_t *bm, uint64_t bits[4])
{
	unsigned i;

	for (i = 0; i < 4; i++)
		bits[i] = ld64(bm + 8 * i, d->swap);
	if (d->swap && !(bits[0] & (1u << 3))) {
		/* perf's fallback: the bitmap was written as u32s */
		for (i = 0; i < 4; i++) {
			uint64_t lo = ld32(bm + 8 * i, 1);
			uint64_t hi = ld32(bm + 8 * i + 4, 1);

			bits[i] = lo | hi << 32;
		}
		if (!(bits[0] & (1u << 3))) {
			memset(bits, 0, 4 * sizeof(*bits));
			bits[0] = 1u << PD_FEAT_BUILD_ID;
		}
	}
}

static int
read_features(struct pd *d, struct pd_in *in, const uint8_t *bm,
    uint64_t feat_off, unsigned want)
{
	uint64_t bits[4], sec[2], off, size;
	uint8_t buf[16], *payload;
	unsigned bit, k = 0;
	int rc;

	pd_feat_bits(d, bm, bits);
	for (bit = 0; bit < 256; bit++) {
		if (!(bits[bit / 64] & (1ULL << (bit % 64))))
			continue;
		off = feat_off + 16ULL * k++;
		if (in_read(d, in, off, buf, 16) != 0) {
			/* a cut feature table: no names, no build-ids */
			if (!d->quiet && want == PD_FEAT_EVENT_DESC)
				pd_warn(d, "offset 0x%llx: feature table cut "
				    "short, feature sections ignored",
				    (unsigned long long)off);
			return 0;
		}
		if (bit != want)
			continue;
		sec[0] = ld64(buf, d->swap);
		sec[1] = ld64(buf + 8, d->swap);
		if (sec[0] > in->size || sec[1] > in->size - sec[0] ||
		    sec[1] > (64u << 20))
			return pd_error(d, off, "feature %u section (offset "
			    "0x%llx, %llu bytes) outside the file", bit,
			    (unsigned long long)sec[0],
			    (unsigned long long)sec[1]);
		size = sec[1];
		payload = xmalloc(size ? size : 1);
		if (in_read(d, in, sec[0], payload, size) != 0) {
			free(payload);
			return -1;
		}
		rc = pd_feature(d, bit, payload, size, sec[0]);
		free(payload);
		if (rc != 0)
			return rc;
	}
	return 0;
}
