/* See COPYING file for copyright and license details. */
/*
 * pdint.h: what reader.c and records.c share inside perfdecode.
 */
#ifndef PDINT_H
#define PDINT_H

#include <stddef.h>
#include <stdint.h>

#include "perfdecode.h"

#define PD_MAXREC		(65536 + 16)	/* header.size is a u16 */
#define PD_ATTR_KNOWN		136		/* perf_event_attr VER8 */
#define PD_FEAT_BUILD_ID	2
#define PD_MAXIDS		(1u << 20)	/* event ids per recording */
#define PD_ORDMAX		(64u << 20)	/* --ordered: most held */
#define PD_FEAT_EVENT_DESC	12

int	 pd_error(struct pd *, uint64_t off, const char *fmt, ...)
	    PRINTFLIKE(3, 4);
void	 pd_warn(struct pd *, const char *fmt, ...) PRINTFLIKE(2, 3);
/* reader.c: the features present, from the header's bitmap bm */
void	 pd_feat_bits(struct pd *, const uint8_t *bm, uint64_t bits[4]);
/* spool.c: a file-format recording that is not a file, from its first
 * 16 bytes (head) on, copied as far as its header says: the copy, or
 * NULL with the message in d->err */
FILE	*pd_spool(struct pd *, int fd, const uint8_t *head, uint64_t *size);
void	 pd_header(struct pd *);
void	 pd_stream_reset(struct pd *);
int	 pd_push(struct pd *, struct pd_rs *, const uint8_t *, size_t);
int	 pd_stream_end(struct pd *, struct pd_rs *);
int	 pd_parse_attr(struct pd *, struct pd_attr *, const uint8_t *, size_t,
	    uint64_t off);
void	 pd_default_name(struct pd_attr *);
int	 pd_add_attr(struct pd *, const struct pd_attr *, uint64_t off);
void	 pd_map_id(struct pd *, uint64_t id, size_t idx);
int	 pd_feature(struct pd *, uint64_t feat, const uint8_t *, uint64_t,
	    uint64_t off);

#endif
