/* See COPYING file for copyright and license details. */
/*
 * perfdecode.h: the perf.data reader behind perfdecode(1).  The reader
 * never exits: every structural problem comes back as -1 with a message
 * and the byte offset in struct pd, so that a fuzz harness can drive it.
 */
#ifndef PERFDECODE_H
#define PERFDECODE_H

#include <stdint.h>
#include <stdio.h>

#include "util.h"

/* record kinds to emit (struct pd.emit) */
#define PD_SAMPLE	0x01
#define PD_MMAP		0x02
#define PD_COMM		0x04
#define PD_FORK		0x08
#define PD_EXIT		0x10
#define PD_BUILDID	0x20
#define PD_LOST		0x40
#define PD_ALL		0x7f

#define PD_MAXATTR	4096		/* attrs (events) per file */
#define PD_NAMELEN	128

struct pd_attr {
	uint32_t	type;
	uint64_t	config;
	uint64_t	sample_type;
	uint64_t	read_format;
	uint64_t	flags;		/* bitfield word, in host bit order */
	uint64_t	branch_sample_type;
	unsigned	nregs_user, nregs_intr;
	int		named;		/* from EVENT_DESC or EVENT_UPDATE */
	int		drop;		/* filtered out by --event */
	size_t		namelen;
	char		name[PD_NAMELEN];
};

struct pd_idmap {		/* open addressing, id -> attr index + 1 */
	uint64_t	*ids;
	uint32_t	*idx;
	size_t		 cap, n;
};

struct pd_comm {		/* pid -> latest comm, for --comm */
	int32_t		 pid;
	int		 used;
	char		 comm[32];
};

struct pd_oent {		/* a queued line of --ordered */
	uint64_t	 time, seq;
	size_t		 off, len;
};

/* a record stream: file data, a data.N file, or decompressed bytes */
struct pd_rs {
	uint8_t		*carry;		/* a record split across pushes */
	size_t		 clen;
	uint64_t	 off;		/* stream offset of the next record */
	uint64_t	 skip;		/* AUXTRACE payload still to skip */
	int		 inner;		/* decompressed stream */
};

struct pd {
	/* options, set by the caller */
	const char	*name;		/* input name for messages */
	unsigned	 emit;		/* PD_* kinds */
	int32_t		*pids;		/* --pid filter */
	size_t		 npids;
	const char	*comm;		/* --comm filter */
	const char	*event;		/* --event filter */
	int		 quiet;
	int		 progress;	/* percentages on stderr */
	struct wbuf	*w;

	/* results */
	uint64_t	 lost;		/* events lost (LOST, LOST_SAMPLES) */
	uint64_t	 nsamples;	/* samples decoded */
	uint64_t	 noattr;	/* samples whose id maps to no attr */
	int		 truncated;	/* the error is "input cut short" */
	char		 err[256];	/* with offset, without the file name */

	/* state */
	int		 swap;
	int		 pipe;
	int		 event_filter_idx;	/* -1: none matched yet */
	struct pd_attr	*attrs;
	size_t		 nattrs;
	int		 id_pos, is_pos;	/* of attr 0, in u64 words */
	struct pd_idmap	 idmap;
	struct pd_comm	*comms;
	size_t		 ncomm, capcomm;
	void		*zds;		/* ZSTD_DStream */
	uint8_t		*zout;
	struct pd_rs	 outer, in;
	uint64_t	 zoff;		/* of the current compressed record */
	int		 hdr_done;	/* "# event=" lines written */

	/* --ordered: lines queued between FINISHED_ROUND records */
	int		 ordered;
	struct wbuf	*ow;		/* the real output */
	struct wbuf	 aw;		/* where queued lines are written */
	struct pd_oent	*oq;
	size_t		 noq, capoq;
	uint64_t	 oseq, max_time, round_limit, cur_time;
};

void	 pd_init(struct pd *, struct wbuf *, const char *name);
/* --ordered: sort records by time between FINISHED_ROUND records */
void	 pd_set_ordered(struct pd *);
/* write what --ordered still holds; call after pd_decode_* */
void	 pd_finish(struct pd *);
void	 pd_free(struct pd *);
/* decode a whole perf.data held in memory (file or pipe format) */
int	 pd_decode_mem(struct pd *, const uint8_t *, size_t);
/* decode from a file descriptor: a seekable file (pread through a
 * window), or a pipe (streamed; a file-format stream is spooled) */
int	 pd_decode_fd(struct pd *, int fd);
/* decode a `perf record --threads` directory: data, then data.N */
int	 pd_decode_dir(struct pd *, const char *path);
/* aout.c: a FILE that writes to fd from a second thread, or NULL */
FILE	*pd_aout_open(int fd);

#endif
