/* See COPYING file for copyright and license details. */
/*
 * lines.c: a unit's line table as LLVM 19 reads and searches it
 * (DWARFDebugLine::LineTable::parse and lookupAddress).
 *
 * libdw hands out a unit's rows merged and sorted by address, which
 * loses the sequences LLVM searches: where sequences overlap (the code a
 * linker discarded, which --gc-sections and C++ COMDAT folding leave at
 * address 0) LLVM takes the sequence with the lowest end above the
 * address, in the order std::sort leaves sequences of equal ends, and the
 * last row at or before the address in it.  So the line-number program
 * is run here, keeping what the lookup needs: each row's address, line,
 * discriminator and whether its file exists (a row of a file the table
 * does not have reads as line 0), and the valid sequences
 * (Sequence::isValid), sorted by their end with libstdc++'s std::sort
 * (what llvm::sort is in a release build).  Rows after a DW_LNE_set_address
 * to the tombstone address (all ones) are dropped, as LLVM drops them.
 *
 * A table LLVM would read only in part (a bad header, an operand past
 * its end) is an error here: a damaged file.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "afdowrite.h"

/* DWARF constants (DWARF 5, section 7.22) */
enum {
	LNS_copy = 1, LNS_advance_pc, LNS_advance_line, LNS_set_file,
	LNS_set_column, LNS_negate_stmt, LNS_set_basic_block,
	LNS_const_add_pc, LNS_fixed_advance_pc, LNS_set_prologue_end,
	LNS_set_epilogue_begin, LNS_set_isa
};
enum {
	LNE_end_sequence = 1, LNE_set_address, LNE_define_file,
	LNE_set_discriminator
};
#define LNCT_path	1

struct rd {
	const uint8_t	*p;
	uint64_t	 off, end;	/* the cursor and the readable end */
	int		 swap, bad;
};

static uint64_t
rd_n(struct rd *r, unsigned n)
{
	uint64_t v = 0;

	if (r->bad || r->end - r->off < n) {
		r->bad = 1;
		return 0;
	}
	switch (n) {
	case 1: v = r->p[r->off]; break;
	case 2: v = ld16(r->p + r->off, r->swap); break;
	case 4: v = ld32(r->p + r->off, r->swap); break;
	case 8: v = ld64(r->p + r->off, r->swap); break;
	default: r->bad = 1; return 0;
	}
	r->off += n;
	return v;
}

static uint64_t
rd_uleb(struct rd *r)
{
	uint64_t v;
	size_t n;

	if (r->bad || (n = uleb128_decode(r->p + r->off, r->p + r->end,
	    &v)) == 0) {
		r->bad = 1;
		return 0;
	}
	r->off += n;
	return v;
}

static int64_t
rd_sleb(struct rd *r)
{
	int64_t v;
	size_t n;

	if (r->bad || (n = sleb128_decode(r->p + r->off, r->p + r->end,
	    &v)) == 0) {
		r->bad = 1;
		return 0;
	}
	r->off += n;
	return v;
}

/* a NUL-terminated string: its length */
static size_t
rd_cstr(struct rd *r)
{
	const uint8_t *s = r->p + r->off, *z;

	if (r->bad || r->off >= r->end ||
	    (z = memchr(s, 0, r->end - r->off)) == NULL) {
		r->bad = 1;
		return 0;
	}
	r->off += (uint64_t)(z - s) + 1;
	return (size_t)(z - s);
}

static void
rd_skip(struct rd *r, uint64_t n)
{
	if (r->bad || r->end - r->off < n) {
		r->bad = 1;
		return;
	}
	r->off += n;
}

static int
fail(char *err, size_t errlen, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(err, errlen, "DWARF: line table at 0x%llx: ",
	    (unsigned long long)off);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* skip one value of form f in a DWARF 5 entry; *isname: a string form
 * (dwarf::toString reads it) */
static int
skip_form(struct rd *r, uint64_t f, unsigned offsz, int *isname)
{
	*isname = 0;
	switch (f) {
	case 0x08:			/* DW_FORM_string */
		*isname = 1;
		(void)rd_cstr(r);
		break;
	case 0x0e: case 0x1f: case 0x1d:	/* strp, line_strp, strp_sup */
		*isname = 1;
		rd_skip(r, offsz);
		break;
	case 0x17:			/* sec_offset */
		rd_skip(r, offsz);
		break;
	case 0x1a:			/* strx */
		*isname = 1;
		(void)rd_uleb(r);
		break;
	case 0x25: case 0x26: case 0x27: case 0x28:	/* strx1..4 */
		*isname = 1;
		rd_skip(r, f - 0x24);
		break;
	case 0x0f: case 0x15:		/* udata, ref_udata */
		(void)rd_uleb(r);
		break;
	case 0x0d:			/* sdata */
		(void)rd_sleb(r);
		break;
	case 0x0b: case 0x0c: case 0x11:	/* data1, flag, ref1 */
		rd_skip(r, 1);
		break;
	case 0x05: case 0x12:		/* data2, ref2 */
		rd_skip(r, 2);
		break;
	case 0x06: case 0x13:		/* data4, ref4 */
		rd_skip(r, 4);
		break;
	case 0x07: case 0x14: case 0x20:	/* data8, ref8, ref_sig8 */
		rd_skip(r, 8);
		break;
	case 0x1e:			/* data16 */
		rd_skip(r, 16);
		break;
	case 0x09:			/* block */
		rd_skip(r, rd_uleb(r));
		break;
	case 0x0a:			/* block1 */
		rd_skip(r, rd_n(r, 1));
		break;
	case 0x03:			/* block2 */
		rd_skip(r, rd_n(r, 2));
		break;
	case 0x04:			/* block4 */
		rd_skip(r, rd_n(r, 4));
		break;
	case 0x19:			/* flag_present */
		break;
	default:
		return -1;
	}
	return r->bad ? -1 : 0;
}

/* a DWARF 5 directory or file table: *nfiles entries, *named of which
 * have a string path (or all, for directories: not counted) */
static int
v5_table(struct rd *r, unsigned offsz, uint64_t *n, uint8_t **named,
    size_t *cap)
{
	uint64_t fmt[2 * 255], i, j;
	unsigned nfmt = (unsigned)rd_n(r, 1);
	int path = 0, isname;

	for (i = 0; i < nfmt; i++) {
		fmt[2 * i] = rd_uleb(r);
		fmt[2 * i + 1] = rd_uleb(r);
		if (fmt[2 * i] == LNCT_path)
			path = 1;
	}
	if (r->bad || !path)
		return -1;
	*n = rd_uleb(r);
	if (r->bad || (*n > 0 && nfmt == 0) || *n > r->end - r->off)
		return -1;
	for (i = 0; i < *n; i++) {
		int ok = 0;

		for (j = 0; j < nfmt; j++) {
			if (skip_form(r, fmt[2 * j + 1], offsz, &isname) == -1)
				return -1;
			if (fmt[2 * j] == LNCT_path)
				ok = isname;
		}
		if (named != NULL) {
			xgrow(named, cap, i + 1, 1);
			(*named)[i] = (uint8_t)ok;
		}
	}
	return 0;
}

/* libstdc++'s std::sort (introsort, then insertion sort) of the
 * sequences by their end: which of several sequences with one end comes
 * first is its choice, and LLVM's lookup takes the first */
static int
seq_less(const struct lseq *a, const struct lseq *b)
{
	return a->hi < b->hi;
}

static void
seq_swap(struct lseq *a, struct lseq *b)
{
	struct lseq t = *a;

	*a = *b;
	*b = t;
}

static void
adjust_heap(struct lseq *first, long hole, long len, struct lseq value)
{
	long top = hole, child = hole;

	while (child < (len - 1) / 2) {
		child = 2 * (child + 1);
		if (seq_less(&first[child], &first[child - 1]))
			child--;
		first[hole] = first[child];
		hole = child;
	}
	if ((len & 1) == 0 && child == (len - 2) / 2) {
		child = 2 * (child + 1);
		first[hole] = first[child - 1];
		hole = child - 1;
	}
	/* __push_heap */
	{
		long parent = (hole - 1) / 2;

		while (hole > top && seq_less(&first[parent], &value)) {
			first[hole] = first[parent];
			hole = parent;
			parent = (hole - 1) / 2;
		}
		first[hole] = value;
	}
}

static void
heap_sort(struct lseq *first, long len)
{
	long parent;

	/* __make_heap */
	if (len >= 2)
		for (parent = (len - 2) / 2;; parent--) {
			adjust_heap(first, parent, len, first[parent]);
			if (parent == 0)
				break;
		}
	/* __sort_heap */
	while (len > 1) {
		struct lseq v;

		len--;
		v = first[len];
		first[len] = first[0];
		adjust_heap(first, 0, len, v);
	}
}

static void
move_median_to_first(struct lseq *res, struct lseq *a, struct lseq *b,
    struct lseq *c)
{
	if (seq_less(a, b)) {
		if (seq_less(b, c))
			seq_swap(res, b);
		else if (seq_less(a, c))
			seq_swap(res, c);
		else
			seq_swap(res, a);
	} else if (seq_less(a, c))
		seq_swap(res, a);
	else if (seq_less(b, c))
		seq_swap(res, c);
	else
		seq_swap(res, b);
}

static void
introsort_loop(struct lseq *first, struct lseq *last, long depth)
{
	while (last - first > 16) {
		struct lseq *lo, *hi;

		if (depth == 0) {
			heap_sort(first, last - first);
			return;
		}
		depth--;
		move_median_to_first(first, first + 1,
		    first + (last - first) / 2, last - 1);
		/* __unguarded_partition */
		lo = first + 1;
		hi = last;
		for (;;) {
			while (seq_less(lo, first))
				lo++;
			hi--;
			while (seq_less(first, hi))
				hi--;
			if (!(lo < hi))
				break;
			seq_swap(lo, hi);
			lo++;
		}
		introsort_loop(lo, last, depth);
		last = lo;
	}
}

static void
linear_insert(struct lseq *last)
{
	struct lseq v = *last, *next = last - 1;

	while (seq_less(&v, next)) {
		*last = *next;
		last = next;
		next--;
	}
	*last = v;
}

static void
insertion_sort(struct lseq *first, struct lseq *last)
{
	struct lseq *i;

	if (first == last)
		return;
	for (i = first + 1; i != last; i++) {
		if (seq_less(i, first)) {
			struct lseq v = *i;

			memmove(first + 1, first, (size_t)(i - first) *
			    sizeof(*first));
			*first = v;
		} else
			linear_insert(i);
	}
}

static void
std_sort(struct lseq *first, size_t n)
{
	struct lseq *last = first + n, *i;
	long lg = 0;

	if (n == 0)
		return;
	while (((size_t)2 << lg) <= n)
		lg++;
	introsort_loop(first, last, 2 * lg);
	if (n > 16) {
		insertion_sort(first, first + 16);
		for (i = first + 16; i != last; i++)
			linear_insert(i);
	} else
		insertion_sort(first, last);
}

int
ltab_read(struct ltab *t, const uint8_t *sec, uint64_t secsize,
    uint64_t off, int swap, char *err, size_t errlen)
{
	struct rd r = { sec, off, secsize, swap, 0 };
	uint64_t total, hdrlen, prog, end, nfiles = 0, i;
	unsigned version, offsz = 4, minlen, maxops = 0, lrange, opbase;
	int8_t lbase;
	uint8_t oplen[256], *named = NULL;
	size_t namedcap = 0, rcap = 0, scap = 0;
	int defstmt, tomb = 0, seqempty = 1;
	struct {
		uint64_t	addr;
		uint32_t	line, disc;
		uint16_t	file;
		uint8_t		opidx;
	} row;
	uint64_t seqlo = 0, seqfirst = 0;

	memset(t, 0, sizeof(*t));
	if (off >= secsize)
		return fail(err, errlen, off, "offset past .debug_line (%llu "
		    "bytes)", (unsigned long long)secsize);
	total = rd_n(&r, 4);
	if (total == 0xffffffff) {
		total = rd_n(&r, 8);
		offsz = 8;
	} else if (total >= 0xfffffff0)
		return fail(err, errlen, off, "reserved length 0x%llx",
		    (unsigned long long)total);
	if (r.bad || total > secsize - r.off)
		return fail(err, errlen, off, "length 0x%llx past the end of "
		    ".debug_line", (unsigned long long)total);
	end = r.off + total;
	r.end = end;
	version = (unsigned)rd_n(&r, 2);
	if (r.bad || version < 2 || version > 5)
		return fail(err, errlen, off, "unsupported version %u",
		    version);
	if (version >= 5) {
		(void)rd_n(&r, 1);		/* address size */
		if (rd_n(&r, 1) != 0)
			return fail(err, errlen, off, "segment selectors");
	}
	hdrlen = rd_n(&r, offsz);
	if (r.bad || hdrlen > end - r.off)
		return fail(err, errlen, off, "header length 0x%llx past the "
		    "table's end", (unsigned long long)hdrlen);
	prog = r.off + hdrlen;
	r.end = prog;
	minlen = (unsigned)rd_n(&r, 1);
	if (version >= 4)
		maxops = (unsigned)rd_n(&r, 1);
	defstmt = (int)rd_n(&r, 1);
	lbase = (int8_t)rd_n(&r, 1);
	lrange = (unsigned)rd_n(&r, 1);
	opbase = (unsigned)rd_n(&r, 1);
	memset(oplen, 0, sizeof(oplen));
	for (i = 1; i < opbase; i++)
		oplen[i] = (uint8_t)rd_n(&r, 1);
	if (r.bad)
		return fail(err, errlen, off, "truncated header");
	if (version >= 5) {
		uint64_t ndirs;

		if (v5_table(&r, offsz, &ndirs, NULL, NULL) == -1 ||
		    v5_table(&r, offsz, &nfiles, &named, &namedcap) == -1) {
			free(named);
			return fail(err, errlen, off, "bad directory or file "
			    "table");
		}
	} else {
		/* include_directories, then file_names, each ended by an
		 * empty string */
		while (rd_cstr(&r) > 0)
			;
		while (rd_cstr(&r) > 0) {
			(void)rd_uleb(&r);
			(void)rd_uleb(&r);
			(void)rd_uleb(&r);
			nfiles++;
		}
		if (r.bad)
			return fail(err, errlen, off, "bad directory or file "
			    "table");
	}
	if (maxops == 0)
		maxops = 1;
	t->v5 = version >= 5;
	/* the program */
	r.off = prog;
	r.end = end;
	memset(&row, 0, sizeof(row));
	row.line = 1;
	row.file = 1;
	(void)defstmt;
#define EMIT() do {							\
	if (!tomb) {							\
		if (seqempty) {						\
			seqempty = 0;					\
			seqlo = row.addr;				\
			seqfirst = t->nrows;				\
		}							\
		xgrow(&t->rows, &rcap, t->nrows + 1, sizeof(*t->rows));	\
		t->rows[t->nrows].addr = row.addr;			\
		t->rows[t->nrows].line = row.line;			\
		t->rows[t->nrows].disc = row.disc;			\
		t->rows[t->nrows].file = row.file;			\
		t->nrows++;						\
		if (endseq) {						\
			if (seqlo < row.addr && seqfirst < t->nrows) {	\
				xgrow(&t->seqs, &scap, t->nseqs + 1,	\
				    sizeof(*t->seqs));			\
				t->seqs[t->nseqs++] = (struct lseq){ seqlo, \
				    row.addr, seqfirst, t->nrows };	\
			}						\
			seqempty = 1;					\
		}							\
		row.disc = 0;						\
	}								\
} while (0)
	while (r.off < end) {
		uint64_t opoff = r.off;
		unsigned op = (unsigned)rd_n(&r, 1);
		int endseq = 0;

		if (op == 0) {
			uint64_t len = rd_uleb(&r), ext = r.off, asz, a;
			unsigned sub;

			if (r.bad)
				goto bad;
			if (len == 0)
				continue;
			if (len > end - ext)
				goto bad;
			sub = (unsigned)rd_n(&r, 1);
			switch (sub) {
			case LNE_end_sequence:
				endseq = 1;
				EMIT();
				memset(&row, 0, sizeof(row));
				row.line = 1;
				row.file = 1;
				seqempty = 1;
				break;
			case LNE_set_address:
				asz = len - 1;
				if (asz != 1 && asz != 2 && asz != 4 &&
				    asz != 8) {
					rd_skip(&r, asz);
					break;
				}
				a = rd_n(&r, (unsigned)asz);
				row.addr = a;
				row.opidx = 0;
				tomb = a == (UINT64_MAX >> (8 - asz) * 8);
				break;
			case LNE_define_file:
				(void)rd_cstr(&r);
				(void)rd_uleb(&r);
				(void)rd_uleb(&r);
				(void)rd_uleb(&r);
				/* a file of either version, named */
				xgrow(&named, &namedcap, nfiles + 1, 1);
				named[nfiles++] = 1;
				break;
			case LNE_set_discriminator:
				row.disc = (uint32_t)rd_uleb(&r);
				break;
			default:
				rd_skip(&r, len - 1);
				break;
			}
			if (r.bad)
				goto bad;
			r.off = ext + len;
		} else if (op < opbase) {
			uint64_t v;

			switch (op) {
			case LNS_copy:
				EMIT();
				break;
			case LNS_advance_pc:
				v = rd_uleb(&r);
				row.addr += ((row.opidx + v) / maxops) * minlen;
				row.opidx = (uint8_t)((row.opidx + v) % maxops);
				break;
			case LNS_advance_line:
				row.line += (uint32_t)rd_sleb(&r);
				break;
			case LNS_set_file:
				row.file = (uint16_t)rd_uleb(&r);
				break;
			case LNS_set_column:
			case LNS_set_isa:
				(void)rd_uleb(&r);
				break;
			case LNS_negate_stmt:
			case LNS_set_basic_block:
			case LNS_set_prologue_end:
			case LNS_set_epilogue_begin:
				break;
			case LNS_const_add_pc:
				v = lrange ? (uint8_t)(255 - opbase) / lrange : 0;
				row.addr += ((row.opidx + v) / maxops) * minlen;
				row.opidx = (uint8_t)((row.opidx + v) % maxops);
				break;
			case LNS_fixed_advance_pc:
				row.addr += rd_n(&r, 2);
				row.opidx = 0;
				break;
			default:
				for (i = 0; i < oplen[op]; i++)
					(void)rd_uleb(&r);
				break;
			}
			if (r.bad)
				goto bad;
		} else {
			uint8_t adj = (uint8_t)(op - opbase);
			uint64_t v = lrange ? adj / lrange : 0;

			row.addr += ((row.opidx + v) / maxops) * minlen;
			row.opidx = (uint8_t)((row.opidx + v) % maxops);
			if (lrange)
				row.line += (uint32_t)(int32_t)(lbase +
				    (int32_t)(adj % lrange));
			EMIT();
		}
		continue;
bad:
		free(named);
		ltab_free(t);
		return fail(err, errlen, off, "opcode 0x%x at 0x%llx: truncated "
		    "operand", op, (unsigned long long)opoff);
	}
#undef EMIT
	/* whether each row's file exists (Prologue::hasFileAtIndex) and
	 * has a name (getFileNameByIndex) */
	for (i = 0; i < t->nrows; i++) {
		uint64_t f = t->rows[i].file;

		if (t->v5)
			t->rows[i].fileok = f < nfiles && named[f];
		else
			t->rows[i].fileok = f != 0 && f <= nfiles;
	}
	free(named);
	std_sort(t->seqs, t->nseqs);
	(void)defstmt;
	return 0;
}

void
ltab_free(struct ltab *t)
{
	free(t->rows);
	free(t->seqs);
	memset(t, 0, sizeof(*t));
}

/* std::upper_bound as libstdc++ writes it */
void
ltab_lookup(const struct ltab *t, uint64_t a, uint32_t *line, uint32_t *disc)
{
	size_t first = 0, len = t->nseqs, half, mid;
	const struct lseq *s;
	const struct lrow *r;

	*line = *disc = 0;
	while (len > 0) {
		half = len >> 1;
		mid = first + half;
		if (a < t->seqs[mid].hi)
			len = half;
		else {
			first = mid + 1;
			len = len - half - 1;
		}
	}
	if (first == t->nseqs)
		return;
	s = &t->seqs[first];
	if (!(s->lo <= a && a < s->hi))
		return;
	/* the last row at or before a in [first + 1, last - 1), or the
	 * sequence's first */
	first = s->first + 1;
	len = s->last - 1 - first;
	while (len > 0) {
		half = len >> 1;
		mid = first + half;
		if (a < t->rows[mid].addr)
			len = half;
		else {
			first = mid + 1;
			len = len - half - 1;
		}
	}
	r = &t->rows[first - 1];
	if (!r->fileok)
		return;
	*line = r->line;
	*disc = r->disc;
}
