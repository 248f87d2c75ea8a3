/* See COPYING file for copyright and license details. */
/*
 * pa.h: BOLT's pre-aggregated profile (llvm-bolt --pa), read and written
 * one entry at a time.  The grammar is LLVM main's bolt/docs/profiles.md:
 *
 *	E <event>
 *	S <loc> <count>
 *	T <branch> <ft_start> <ft_end> <count> [<mispred_count>]
 *	R <branch> <ft_start> <ft_end> <count> [<mispred_count>]
 *	B <from> <to> <count> <mispred_count>
 *	F <start> <end> <count>
 *	f <start> <end> <count>
 *	r <start> <end> <count>
 *
 * A location is [<buildid>:]<hex>, or X:<hex> (an external address), or
 * one of the constants -1, -2, -3 (also written as their 64-bit hex).
 * Lines starting with '#' and blank lines are skipped.  The stream stays
 * BOLT's format exactly: the writer emits no lines of ours.
 */
#ifndef PROFPIPE_PA_H
#define PROFPIPE_PA_H

#include <stdint.h>

#include "strtab.h"

#include "util.h"

enum pa_type {
	PA_E, PA_S, PA_T, PA_R, PA_B, PA_F, PA_f, PA_r, PA_NTYPES
};
/* the letter of each type, indexed by enum pa_type: "EST RBFfr" */
extern const char pa_letter[PA_NTYPES];

/* the trace constants of DataAggregator.h, as addresses */
#define PA_BR_ONLY		UINT64_MAX		/* -1; FT_ONLY too */
#define PA_FT_EXTERNAL_ORIGIN	(UINT64_MAX - 1)	/* -2 */
#define PA_FT_EXTERNAL_RETURN	(UINT64_MAX - 2)	/* -3 */

/* a location's object: the binary itself (bare hex), external (X:), or
 * a build-id, numbered by the reader (pa_buildid) */
#define PA_OBJ_SELF	0u
#define PA_OBJ_X	1u
#define PA_OBJ_BUILDID(i) ((uint32_t)(i) + 2u)	/* i: build-id index */
#define PA_OBJ_BUILDID_INDEX(o) ((o) - 2u)

struct pa_loc {
	uint64_t	addr;
	uint32_t	obj;		/* PA_OBJ_* */
};

struct pa_entry {
	enum pa_type	type;
	int		nloc;		/* 0 (E), 1 (S), 2 (B F f r), 3 (T R) */
	struct pa_loc	loc[3];
	uint64_t	count;
	uint64_t	mis;		/* B; T and R when has_mis */
	int		has_mis;	/* B always; T/R when the field was given */
	uint32_t	event;		/* E and S: event index (pa_event), or
					 * PA_NO_EVENT for an S before any E */
};
#define PA_NO_EVENT	UINT32_MAX

/* number of locations an entry of type t has */
int	 pa_nloc(enum pa_type t);

/* the reader: build-ids and events are interned, so any number of
 * distinct ones costs one string each */
struct pa_reader {
	struct lineio	 lr;
	int		 open;
	struct strtab	 bids;		/* build-id strings, by index */
	struct strtab	 events;	/* event names, by index */
	uint32_t	 curev;		/* event of the last E line */
	uint64_t	 nentries;
	char		 err[200];	/* pa_next's message, on -1 */
};
/* start reading path ("-" or NULL: stdin); -1 with errno on failure */
int	 pa_open(struct pa_reader *, const char *path);
/* the next entry: 1, or 0 at the end of the input, or -1 on a bad line
 * with the message in r->err (the tool then says "tool: file:line:
 * message", as lineio's messages do) */
int	 pa_next(struct pa_reader *, struct pa_entry *);
/* the lines preagg writes, read without pa_parse_line's generality: a
 * type letter, bare hex locations, a count, a mispredict count, each
 * after one space; line must be followed by LR_PAD readable bytes (a
 * lineio buffer).  Sets *e as pa_parse_line would and returns 1; 0 for
 * any other line (build-ids, X:, -1, 0x, other spacing, long numbers, E
 * lines, comments, errors), which pa_parse_line then reads. */
int	 pa_parse_fast(struct pa_reader *, const char *line, struct pa_entry *);
/* the same, a line at a time, without dying (for fuzzing and for callers
 * with their own line source): 1 = an entry, 0 = nothing on the line
 * (comment or blank), -1 = error with a message (the offending token
 * quoted safely) in err.  line is modified (fields are cut in place). */
int	 pa_parse_line(struct pa_reader *, char *line, struct pa_entry *,
	    char *err, size_t errlen);
/* a location of the grammar above, s[0, len), into *l (build-ids
 * interned in r): 0, or -1 if it is none; with nonconst, -1 for the
 * constants -1, -2, -3 written as such */
int	 pa_parse_loc(struct pa_reader *r, const char *s, size_t len,
	    struct pa_loc *l, int nonconst);
const char *pa_buildid(const struct pa_reader *, uint32_t obj);
const char *pa_event(const struct pa_reader *, uint32_t ev);
/* intern a build-id or an event name (for callers that make entries) */
uint32_t pa_intern_buildid(struct pa_reader *, const char *, size_t);
uint32_t pa_intern_event(struct pa_reader *, const char *, size_t);
void	 pa_close(struct pa_reader *);	/* also frees the tables */

/*
 * BOLT's reading of one entry (DataAggregator: parsePreAggregatedLBRSample,
 * then doBranch and doTrace): the taken branch it stands for and the
 * fall-through after it, either of them absent.  The one place that
 * knows which location is which and what the constants mean; what a
 * tool makes of each part (BOLT's rules, Propeller's, llvm-profgen's) is
 * its own.
 *
 *	B from to		the branch, no fall-through
 *	T/R br start end	the branch br -> start (R: a return), unless
 *				br is a constant; the fall-through start ->
 *				end unless end is -1 (BR_ONLY)
 *	F/f/r start end		the fall-through alone
 *
 * Where the flow came from, for the fall-through and for a T or R entry
 * whose branch source is a constant (the control arrived at start from
 * there): its origin.
 */
enum pa_origin {
	PA_ORIG_BRANCH,		/* the entry's own branch (B, T, R): where
				 * its source lies decides (Intern/Extern) */
	PA_ORIG_INTERNAL,	/* F; T from -1 (FT_ONLY) */
	PA_ORIG_EXTERNAL,	/* f; T from -2 (FT_EXTERNAL_ORIGIN) */
	PA_ORIG_RETURN		/* r; T from -3 (FT_EXTERNAL_RETURN) */
};
struct pa_parts {
	const struct pa_loc *from;	/* the branch's source, NULL if none
					 * (or a constant: see origin) */
	const struct pa_loc *to;	/* its target (T/R: start); NULL for
					 * an F, f or r entry */
	int		 ret;		/* R: the control arrived at to by a
					 * return */
	uint64_t	 mis;		/* its mispredictions (0 if none
					 * given) */
	const struct pa_loc *fs, *fe;	/* the fall-through, NULL if none */
	enum pa_origin	 origin;
};
/* e's parts (e an S or E entry: none) */
void	 pa_split(const struct pa_entry *e, struct pa_parts *p);
/* is l one of the constants -1, -2, -3 */
int	 pa_loc_const(const struct pa_loc *l);

/* the writer: one entry as a line.  objname(obj) gives the text before
 * ':' for a build-id object (NULL: use the reader's table r).  E lines
 * are written with pa_put_event.  -1/-2/-3 are written as 64-bit hex. */
void	 pa_put_entry(struct wbuf *, const struct pa_entry *,
	    const struct pa_reader *r);
void	 pa_put_loc(struct wbuf *, const struct pa_loc *,
	    const struct pa_reader *r);
void	 pa_put_event(struct wbuf *, const char *name);

#endif
