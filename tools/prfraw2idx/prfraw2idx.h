/* See COPYING file for copyright and license details. */
/*
 * prfraw2idx.h: what the parts of prfraw2idx share.  Inputs (raw
 * profiles, our text form, llvm-profdata's text form) are read into a
 * store that merges records the way llvm-profdata 19 does; the writers
 * turn a store into indexed or text output.  Readers return errors and
 * never exit, so the fuzz harness can call them.
 */
#ifndef PRFRAW2IDX_H
#define PRFRAW2IDX_H

#include <stddef.h>
#include <stdint.h>

#define NKINDS		3	/* indirect call, memop size, vtable */
#define MAXVALS		255	/* values kept per site */
#define MAXCOUNT	(UINT64_MAX - 2)

/* variant bits of the version words (raw and indexed) */
#define VAR_LOOP_ENTRIES	(1ULL << 55)
#define VAR_IR			(1ULL << 56)
#define VAR_CSIR		(1ULL << 57)
#define VAR_ENTRY_FIRST		(1ULL << 58)
#define VAR_DBG_CORRELATE	(1ULL << 59)
#define VAR_BYTE_COVERAGE	(1ULL << 60)
#define VAR_ENTRY_ONLY		(1ULL << 61)
#define VAR_MEMPROF		(1ULL << 62)
#define VAR_TEMPORAL		(1ULL << 63)
#define VAR_FE			(1ULL << 54)	/* ours only: a frontend profile */
#define CS_HASH_BIT		(1ULL << 60)

struct vpair {
	uint64_t	value, count;
};

struct site {
	uint32_t	 n, cap;
	struct vpair	*v;
};

struct rec {
	uint64_t	 hash;
	uint64_t	*counts;
	uint8_t		*bitmap;
	uint32_t	 ncounts, nbitmap;
	uint32_t	 nsites[NKINDS];
	struct site	*sites[NKINDS];
};

/* one function name and the records (hashes) under it, in insertion order */
struct fentry {
	uint64_t	 key;		/* MD5 low 64 of the name */
	char		*name;
	size_t		 namelen;
	struct rec	*recs;
	uint32_t	 nrecs, caprecs;
};

struct binid {
	uint8_t		*p;
	size_t		 len;
};

struct trace {
	uint64_t	 weight;
	uint64_t	*refs;		/* name refs in first-call order */
	size_t		 n;
};

struct store {
	struct trace	*traces;	/* temporal profile traces */
	size_t		 ntraces, captraces;
	uint64_t	 streamsize;	/* traces seen, sampled or not */
	uint64_t	 rng;
	struct fentry	**tab;		/* open addressing on key */
	size_t		 cap, n;
	uint64_t	 kind;		/* VAR_* bits, 0 = nothing yet */
	struct binid	*ids;
	size_t		 nids, capids;
	unsigned	 id;		/* index for the name cache */
	int		 quiet;
	const char	*curfile;	/* for warnings */
	unsigned long	 nwarn;
};

struct perr {
	char		msg[200];
	uint64_t	off;
	int		has_off;
	/*
	 * the input read but is suspect (a counter above 2^56): like
	 * llvm-profdata, its records count, and the failure mode decides
	 */
	int		suspect;
};

/* merge.c */
void	 store_init(struct store *, unsigned id);
void	 store_free(struct store *);
struct fentry *store_entry(struct store *, const char *name, size_t len,
	    uint64_t key);
/* merge r (its arrays are copied) under fe with weight w */
void	 store_add(struct store *, struct fentry *, const struct rec *,
	    uint64_t w);
/* check and OR an input's kind into the store; -1 if they cannot mix */
int	 store_kind(struct store *, uint64_t kind, struct perr *);
void	 store_binid(struct store *, const uint8_t *, size_t);
void	 store_sort_ids(struct store *);
/* add traces (taking their refs) from an input that saw srcstream */
void	 store_traces(struct store *, struct trace *, size_t n,
	    uint64_t srcstream);
/* src into dst as llvm-profdata merges its writer contexts */
void	 store_merge(struct store *dst, struct store *src);
/* entries sorted by name; sparse drops all-zero ones */
struct fentry **store_sorted(const struct store *, int sparse, size_t *np);
/* order of fe's records as llvm's SmallDenseMap iterates them */
void	 fentry_order(const struct fentry *, uint32_t *order);
void	 rec_sort_values(struct rec *);
void	 perr_set(struct perr *, uint64_t off, int has_off, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));
void	 store_warn(struct store *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* raw.c */
struct namecache;
struct namecache *namecache_new(void);
void	 namecache_free(struct namecache *);
/* 1 if buf starts with a raw profile magic */
int	 raw_is_raw(const uint8_t *, size_t);
int	 raw_read(struct store *, struct namecache *, const uint8_t *, size_t,
	    uint64_t weight, struct perr *);

/* text.c */
int	 text_is_ours(const uint8_t *, size_t);
int	 text_read(struct store *, const uint8_t *, size_t, uint64_t weight,
	    struct perr *);		/* either text form */
/* the same from a file: pre holds its first plen bytes, already read */
int	 text_read_fd(struct store *, int fd, const uint8_t *pre, size_t plen,
	    uint64_t weight, struct perr *);
struct wbuf;
void	 text_write(struct wbuf *, struct store *, int sparse);
void	 llvmtext_write(struct wbuf *, struct store *, int sparse);

/* indexed.c */
int	 indexed_write(struct wbuf *, struct store *, unsigned version,
	    int sparse);

#endif
