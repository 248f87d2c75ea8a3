/* See COPYING file for copyright and license details. */
/*
 * bat.h: BOLT address translation tables, the .note.bolt_bat section
 * that llvm-bolt --enable-bat writes (BoltAddressTranslation::write and
 * parse in LLVM 19's bolt/lib/Profile/BoltAddressTranslation.cpp;
 * profpipe-bat(5)), as LLVM 19 and main lay it out: a table of hot fragments,
 * then one of cold fragments, each fragment a list of entries that map an
 * output offset (in the BOLTed binary) to an input offset (in the input
 * binary's function), with function and block hashes and block indices.
 *
 * The decoder takes the section's bytes (note header included) and never
 * trusts them: every count is checked against the bytes left, every
 * number against what the writer can produce, and the section must be
 * consumed exactly.  Errors give the byte offset within the section.
 * The lookups follow BoltAddressTranslation.cpp (translate,
 * getFallthroughsInTrace, fetchParentAddress) exactly.
 */
#ifndef PROFPIPE_BAT_H
#define PROFPIPE_BAT_H

#include <stddef.h>
#include <stdint.h>

#define BAT_SECTION	".note.bolt_bat"
#define BAT_INFO_SECTION ".note.bolt_info"
#define BAT_NT_BOLT_BAT	1

/* one translation entry; entries of a fragment are sorted by output
 * offset, and equal output offsets keep the writer's order */
struct bat_entry {
	uint32_t	out;		/* output offset in the fragment */
	uint32_t	in;		/* input offset in the input function
					 * (the hot parent's, for cold ones) */
	uint32_t	branch;		/* 1: BRANCHENTRY, a branch or call
					 * instruction; 0: a block start */
	uint32_t	index;		/* block start: the block's index in
					 * the input function; 0 otherwise */
	uint64_t	hash;		/* block start: BOLT's block hash (0
					 * for blocks BOLT created); else 0 */
};

struct bat_frag {
	uint64_t	addr;		/* output address of the fragment */
	int		cold;		/* from the cold table */
	uint32_t	parent;		/* cold: index of the hot fragment in
					 * bat.frag; hot: its own index */
	uint64_t	hash;		/* function hash of the input function
					 * (cold: the parent's) */
	uint64_t	nblocks;	/* blocks of the input function (cold:
					 * the parent's) */
	uint32_t	skew;		/* cold: input offset of the first
					 * entry; hot: 0 */
	struct bat_entry *ent;		/* into bat.entpool */
	size_t		 nent;
	size_t		 nequal;	/* leading entries stored as equal */
	uint32_t	*sec;		/* hot: secondary entry points, input
					 * offsets, in the writer's order */
	size_t		 nsec;
	size_t		 secoff;	/* byte offset of its record in the
					 * section (for later messages) */
};

/* how the cold table's parent indices were read (bolt.md 1.2): LLVM
 * main indexes the hot table, LLVM 19.x writes the index among all
 * fragments sorted by address.  The two agree unless a cold fragment
 * lies below a hot one. */
enum bat_coldidx {
	BAT_COLD_NONE,		/* no cold fragments */
	BAT_COLD_SAME,		/* both readings give the same parents */
	BAT_COLD_MAIN,		/* only LLVM main's reading is consistent,
				 * or both are and main's was chosen */
	BAT_COLD_V19,		/* only LLVM 19's reading is consistent, or
				 * it was chosen */
};

struct bat {
	struct bat_frag	*frag;		/* hot fragments [0, nhot) in table
					 * order (by address), then cold */
	size_t		 nfrag, nhot;
	uint32_t	*byaddr;	/* frag indices sorted by address */
	struct bat_entry *entpool;
	size_t		 nentries;
	uint32_t	*secpool;
	size_t		 size;		/* section bytes */
	size_t		 payload;	/* offset of the payload (descriptor) */
	size_t		 end;		/* payload end (what was consumed) */
	enum bat_coldidx coldidx;
	int		 ambiguous;	/* both readings consistent and they
					 * differ: bat_set_coldidx can switch */
	/* private: the cold parents under each reading */
	uint32_t	*par_main, *par_v19;
};

/* an error: the offset within the section and a message */
struct bat_err {
	size_t		off;
	char		msg[200];
};

/* decode sec[0..size) (the whole section, note header included) into t;
 * 0 on success, -1 with e filled (t is then empty) */
int	 bat_decode(struct bat *t, const uint8_t *sec, size_t size,
	    struct bat_err *e);
void	 bat_free(struct bat *t);

/* choose the other reading of the cold parents when t->ambiguous (the
 * caller may know better, e.g. from symbol names); 0 ok, -1 if that
 * reading is not consistent */
int	 bat_set_coldidx(struct bat *t, enum bat_coldidx which);

/* the fragment that starts at addr (BOLT's Maps.find), NULL if none */
const struct bat_frag *bat_find(const struct bat *t, uint64_t addr);
/* the last fragment starting at or below addr, NULL if none */
const struct bat_frag *bat_find_le(const struct bat *t, uint64_t addr);
/* the hot parent of a fragment (itself when hot) */
static inline const struct bat_frag *
bat_parent(const struct bat *t, const struct bat_frag *f)
{
	return &t->frag[f->parent];
}
/* the output address an entry stands for.  Keys are 32-bit offsets
 * from the fragment: BOLT 19 writes a branch it moved into another
 * fragment of the function below this one as a negative offset mod 2^32
 * (sorted last); read as signed, it is the branch's real address. */
static inline uint64_t
bat_entry_addr(const struct bat_frag *f, const struct bat_entry *x)
{
	return f->addr + (uint64_t)(int64_t)(int32_t)x->out;
}
/* BOLT's fetchParentAddress: the hot parent's address of the cold
 * fragment at addr, 0 when addr starts no cold fragment */
uint64_t bat_parent_addr(const struct bat *t, uint64_t addr);

/* the entry BOLT's translate() uses for off: the last one whose output
 * offset is <= off (the last of equal ones), NULL if none */
const struct bat_entry *bat_entry_at(const struct bat_frag *f, uint64_t off);

/* BOLT's translate(FuncAddr, Offset, IsBranchSrc): the input offset for
 * an output offset of the fragment at funcaddr; off unchanged when no
 * fragment starts at funcaddr or no entry precedes off */
uint64_t bat_translate(const struct bat *t, uint64_t funcaddr, uint64_t off,
	    int branchsrc);
/* the same in the fragment f (bat_find's result: no search; off
 * unchanged when f is NULL) */
uint64_t bat_translate_frag(const struct bat_frag *f, uint64_t off,
	    int branchsrc);

/* BOLT's getFallthroughsInTrace(FuncAddr, From, To) with output
 * addresses from and to: the (block start, next block start) pairs of
 * the blocks a fall-through from..to crosses, as indices into the
 * fragment's entries (LLVM 19 takes their output offsets through
 * translate(); main takes the entries' input offsets).  Returns the
 * number of pairs (written to *pairs, grown with xgrow, capacity *cap in
 * elements, 2 per pair), or -1 when no fragment starts at funcaddr
 * (BOLT's nullopt); 0 pairs when from >= to. */
long	 bat_fallthroughs(const struct bat *t, uint64_t funcaddr, uint64_t from,
	    uint64_t to, uint32_t **pairs, size_t *cap);
/* the same in the fragment f (not NULL) with from and to as offsets
 * from its start */
long	 bat_fallthroughs_frag(const struct bat_frag *f, uint64_t from,
	    uint64_t to, uint32_t **pairs, size_t *cap);

/* the producer named by a .note.bolt_info section (its first line up to
 * ", command line"), e.g. "BOLT revision: <unknown>"; "" if none */
void	 bat_producer(const uint8_t *sec, size_t size, char *dst, size_t len);

#endif
