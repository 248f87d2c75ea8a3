/* See COPYING file for copyright and license details. */
/*
 * spool.c: a file-format recording that does not arrive as a file (cat
 * perf.data | perfdecode).  Its feature sections (event names,
 * build-ids) follow its data, so it is copied to a temporary file and
 * read from there; perf itself refuses it ("incompatible file format").
 * The copy goes as far as the recording's header says and no further:
 * the attrs and ids before the data (no more than PD_MAXATTR attrs and
 * PD_MAXIDS ids take), the data section record by record (a record whose
 * size is not one ends the copy, and the decoder says where), then the
 * feature table and the two features perfdecode reads.  A stream that
 * is not perf data was refused at its magic before (reader.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "perfdecode.h"
#include "pdint.h"
#include "perfabi.h"

#define BUFSZ		(1u << 20)
#define HEADER_SIZE	104
/* what may come before the data: the header, PD_MAXATTR attrs of at
 * most 4096 bytes, PD_MAXIDS ids */
#define PREDATA_MAX	(HEADER_SIZE + PD_MAXATTR * 4096ULL + PD_MAXIDS * 8ULL)
/* the features read lie within this much past the feature table */
#define FEATURES_MAX	(256ULL << 20)

struct spool {
	int		 fd;	/* the input */
	FILE		*fp;	/* the copy */
	uint64_t	 got;	/* bytes copied */
	int		 eof;	/* the input's end, or the copy's (a record
				 * that cannot be: nothing is copied after) */
	uint8_t		*buf;
};

/* len bytes of the input, fewer only at its end; -1 on a read error */
static ssize_t
read_full(int fd, void *p, size_t len)
{
	size_t got = 0;
	ssize_t r;

	while (got < len) {
		r = read(fd, (uint8_t *)p + got, len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* the next len bytes of the input copied, and into dst if not NULL;
 * *have: how many there were */
static int
take(struct pd *d, struct spool *sp, void *dst, size_t len, size_t *have)
{
	ssize_t r = read_full(sp->fd, dst != NULL ? dst : sp->buf, len);

	*have = 0;
	if (r < 0)
		return pd_error(d, sp->got, "read: %s", strerror(errno));
	if ((size_t)r < len)
		sp->eof = 1;
	if (r > 0 && fwrite(dst != NULL ? dst : sp->buf, 1, (size_t)r,
	    sp->fp) != (size_t)r)
		return pd_error(d, sp->got, "copying the input to a temporary "
		    "file: %s", strerror(errno));
	sp->got += (uint64_t)r;
	*have = (size_t)r;
	return 0;
}

/* copy the input up to offset end (or to its end) */
static int
copy_to(struct pd *d, struct spool *sp, uint64_t end)
{
	size_t have;

	while (sp->got < end && !sp->eof)
		if (take(d, sp, NULL, end - sp->got < BUFSZ ?
		    (size_t)(end - sp->got) : BUFSZ, &have) != 0)
			return -1;
	return 0;
}

/* the data section [off, end), record by record: each record's header,
 * and an AUXTRACE record's payload size, say where the next one starts;
 * a record that cannot be is the last byte copied */
static int
copy_records(struct pd *d, struct spool *sp, uint64_t off, uint64_t end)
{
	uint8_t rh[16];
	uint64_t next;
	size_t have, size;

	while (off < end && end - off >= 8) {
		if (copy_to(d, sp, off) != 0)
			return -1;
		if (sp->eof)
			return 0;
		if (take(d, sp, rh, 8, &have) != 0)
			return -1;
		if (have < 8 || (size = ld16(rh + 6, d->swap)) < 8) {
			sp->eof = 1;
			return 0;
		}
		next = off + size;
		if (ld32(rh, d->swap) == R_AUXTRACE && size >= 16) {
			if (take(d, sp, rh + 8, 8, &have) != 0)
				return -1;
			if (have < 8 || next + ld64(rh + 8, d->swap) < next) {
				sp->eof = 1;
				return 0;
			}
			next += ld64(rh + 8, d->swap);
		}
		off = next;
	}
	/* the last record's end, or a tail too short for a record */
	return copy_to(d, sp, end);
}

/* the feature table at off and the sections of the features read */
static int
copy_features(struct pd *d, struct spool *sp, const uint8_t *bm, uint64_t off)
{
	uint8_t tab[256 * 16];
	uint64_t bits[4], sec, size, end = 0;
	unsigned bit, k = 0;
	size_t have;

	pd_feat_bits(d, bm, bits);
	for (bit = 0; bit < 256; bit++)
		k += (bits[bit / 64] >> (bit % 64)) & 1;
	if (copy_to(d, sp, off) != 0)
		return -1;
	if (sp->eof)
		return 0;	/* cut short: the decoder says so */
	if (take(d, sp, tab, 16 * k, &have) != 0)
		return -1;
	for (bit = 0, k = 0; bit < 256; bit++) {
		if (!((bits[bit / 64] >> (bit % 64)) & 1))
			continue;
		if (16 * (k + 1) > have)
			break;
		sec = ld64(tab + 16 * k, d->swap);
		size = ld64(tab + 16 * k + 8, d->swap);
		k++;
		if ((bit == PD_FEAT_EVENT_DESC || bit == PD_FEAT_BUILD_ID) &&
		    sec >= sp->got && sec - sp->got <= FEATURES_MAX &&
		    size <= FEATURES_MAX && sec + size > end)
			end = sec + size;
	}
	return copy_to(d, sp, end);
}

FILE *
pd_spool(struct pd *d, int fd, const uint8_t *head, uint64_t *size)
{
	struct spool sp;
	uint8_t h[HEADER_SIZE];
	uint64_t hsize, d_off, d_size;
	int rc = -1;

	memset(&sp, 0, sizeof(sp));
	sp.fd = fd;
	hsize = ld64(head + 8, d->swap);
	if (hsize != HEADER_SIZE && hsize != 72) {
		pd_error(d, 8, "header size %llu is not 104, 72 or 16",
		    (unsigned long long)hsize);
		return NULL;
	}
	memcpy(h, head, 16);
	if (read_full(fd, h + 16, hsize - 16) != (ssize_t)(hsize - 16)) {
		pd_error(d, 16, "input ends inside the perf.data header");
		return NULL;
	}
	d_off = ld64(h + 40, d->swap);
	d_size = ld64(h + 48, d->swap);
	if (d_size == 0) {
		pd_error(d, 48, "data size is 0 (perf record did not finish): "
		    "such a recording is read from its file, not from a pipe");
		return NULL;
	}
	if (d_off < hsize || d_off > PREDATA_MAX || d_off + d_size < d_off) {
		pd_error(d, 40, "data section (offset 0x%llx, %llu bytes) is "
		    "not where a recording read from a pipe has it",
		    (unsigned long long)d_off, (unsigned long long)d_size);
		return NULL;
	}
	if ((sp.fp = tmpfile()) == NULL) {
		pd_error(d, 0, "a temporary file for the input: %s",
		    strerror(errno));
		return NULL;
	}
	sp.buf = xmalloc(BUFSZ);
	if (fwrite(h, 1, hsize, sp.fp) != hsize)
		pd_error(d, 0, "copying the input to a temporary file: %s",
		    strerror(errno));
	else if ((sp.got = hsize, copy_to(d, &sp, d_off)) == 0 &&
	    copy_records(d, &sp, d_off, d_off + d_size) == 0 &&
	    (hsize != HEADER_SIZE || sp.eof ||
	    copy_features(d, &sp, h + 72, d_off + d_size) == 0))
		rc = 0;
	free(sp.buf);
	if (rc == 0 && fflush(sp.fp) != 0)
		rc = pd_error(d, 0, "copying the input to a temporary file: %s",
		    strerror(errno));
	if (rc != 0) {
		fclose(sp.fp);
		return NULL;
	}
	*size = sp.got;
	return sp.fp;
}
