/* See COPYING file for copyright and license details. */
/*
 * rules.c: BOLT's rules, to be held against DataAggregator.cpp: how a
 * mapping rebases addresses (getBaseAddressForMapping, adjustAddress),
 * which function holds an address, and what each raw branch triple
 * becomes: B/F/f as LLVM 19 derives them (--legacy), T/R/B/S as LLVM
 * main does (the current format).
 */
#include <gelf.h>
#include <string.h>

#include "preagg.h"

/* DataAggregator::getBaseAddressForMapping: the segment whose file
 * offset, aligned down, is the mapping's page offset.  LLVM 19 takes the
 * first such segment, which for an lld-linked PIE (a read-only segment at
 * offset 0 and the code in the same page) is the wrong one: --legacy does
 * the same, to write what perf2bolt 19 derives; the current format takes
 * an executable segment first when the mapping is executable. */
int
mapping_base(const struct binary *b, uint64_t start, uint64_t pgoff,
    int exec, uint64_t *base)
{
	size_t i;
	int pass;

	for (pass = exec ? 0 : 1; pass < 2; pass++)
		for (i = 0; i < b->bb.eo.nsegs; i++) {
			const struct elf_seg *s = &b->bb.eo.segs[i];
			uint64_t al = s->align ? s->align : 1;

			if (pass == 0 && !(s->flags & PF_X))
				continue;
			if ((s->offset & ~(al - 1)) == pgoff) {
				*base = start - (s->vaddr & ~(al - 1));
				return 0;
			}
		}
	return -1;
}

/* a fixed-address executable: the mapping must hold the start of a
 * segment within its alignment */
int
fixed_mapping_matches(const struct binary *b, uint64_t start)
{
	size_t i;

	for (i = 0; i < b->bb.eo.nsegs; i++) {
		const struct elf_seg *s = &b->bb.eo.segs[i];

		if (s->vaddr >= start && s->vaddr - start < (s->align ? s->align : 1))
			return 1;
	}
	return 0;
}

/* DataAggregator::adjustAddress: into the binary's link-time addresses */
static uint64_t
adjust(const struct mapping *m, uint64_t a)
{
	if (bins[m->bin].fixed)
		return a;
	if (a >= m->start && a - m->start < m->size)
		return a - m->base;
	if (a < m->size)
		return NOADDR;
	return a;
}

/* index + 1 of the function holding a (up to BOLT's MaxSize), 0 if none:
 * the address index of the binary's functions (addrix.h) is an index
 * and a step or two, not a binary search over thousands of them */
size_t
func_of(const struct binary *b, uint64_t a)
{
	long i = addrix_find(&b->aix, a);

	if (i < 0 || a >= b->funcs[i].end)
		return 0;
	return (size_t)i + 1;
}

/* --heatmap: an address of the binary's loaded image, in a function or
 * not (llvm-bolt-heatmap draws .init and the PLT's head too) */
static int
in_image(const struct binary *b, uint64_t a)
{
	return a >= b->imglo && a < b->imghi;
}

/* resolve a runtime address: binary index (or -1) and its address */
static int
resolve(const struct mapping *ms, size_t nm, uint64_t a, uint64_t *out)
{
	size_t i;

	for (i = 0; i < nm; i++) {
		uint64_t x = adjust(&ms[i], a);

		if (x != NOADDR && (func_of(&bins[ms[i].bin], x) ||
		    (hflag && in_image(&bins[ms[i].bin], x)))) {
			*out = x;
			return ms[i].bin;
		}
	}
	*out = a;
	return -1;
}

/* the object of a location in binary b: its build-id when locations
 * carry them, else plain */
static uint32_t
binobj(int b)
{
	return buildid_locs ? OBJ_BIN(b) : OBJ_PLAIN;
}

static void
add_entry(enum pa_type type, uint64_t a0, uint32_t o0, uint64_t a1,
    uint32_t o1, uint64_t a2, uint32_t o2, uint64_t count, uint64_t mis,
    int has_mis)
{
	struct entry k;

	memset(&k, 0, sizeof(k));
	k.type = (uint8_t)type;
	k.a[0] = a0;
	k.a[1] = a1;
	k.a[2] = a2;
	k.obj[0] = o0;
	k.obj[1] = o1;
	k.obj[2] = o2;
	k.has_mis = (uint8_t)has_mis;
	add_queued(&k, count, mis, NULL);
}

/* LLVM 19 (parseLBRSample, doTrace, doBranch) for one raw triple under
 * one mapping of one binary */
static void
resolve_legacy(const struct mapping *m, const struct raw *r, uint64_t count)
{
	const struct binary *b = &bins[m->bin];
	uint64_t from = adjust(m, r->from), to = adjust(m, r->to), next;
	size_t ff = from != NOADDR ? func_of(b, from) : 0;
	size_t ft = to != NOADDR ? func_of(b, to) : 0;
	uint32_t o = binobj(m->bin);

	/* the fall-through from this branch's target to the source of the
	 * next newer branch, kept when one function holds both ends: F
	 * when it also holds this branch's source, f (external origin)
	 * otherwise */
	if ((r->meta & RAW_NEXT) && ft &&
	    (next = adjust(m, r->next)) != 0 && next != NOADDR &&
	    func_of(b, next) == ft)
		add_entry(ft == ff ? PA_F : PA_f, to, o, next, o, 0, OBJ_PLAIN,
		    count, 0, 0);
	/* the branch, when either end is in a function; the other is 0 */
	if (!ff && !ft)
		return;
	add_entry(PA_B, ff ? from : 0, ff ? o : OBJ_PLAIN, ft ? to : 0,
	    ft ? o : OBJ_PLAIN, 0, OBJ_PLAIN, count,
	    r->meta & RAW_MIS ? count : 0, 1);
}

/* DataAggregator (main): one trace per entry, a line each: the branch,
 * and the fall-through from its target to the next newer branch's
 * source.  The newest entry of a stack has no fall-through, nor has an
 * entry whose fall-through leaves the binary of its target: the trace
 * ends in BR_ONLY (-1, written as 16 hex digits, which LLVM 21 and 22
 * read too; they take no "-1"), as profiles.md recommends.  An end
 * outside the selected binaries is 0, DataAggregator's EXTERNAL: LLVM
 * main reads an X: location as 0 as well, but LLVM 21 and 22 read the
 * address after "X:" as one of the binary's.  Locations with build-ids,
 * which only LLVM main reads, keep X: and the address.  An R entry's
 * branch 0 is an external return.
 *
 * For LLVM 21 and 22 (fmt21), whose T and R take one count, an entry
 * without a fall-through is a B entry, which carries the mispredict
 * count; a T or R entry loses it (--legacy keeps every count). */
static void
resolve_modern(const struct mapping *ms, size_t nm, const struct raw *r,
    uint64_t count)
{
	uint64_t fa, ta, na = 0;
	int fb = resolve(ms, nm, r->from, &fa);
	int tb = resolve(ms, nm, r->to, &ta);
	int nb = r->meta & RAW_NEXT ? resolve(ms, nm, r->next, &na) : -1;
	uint64_t mis = r->meta & RAW_MIS ? count : 0;
	/* with build-id locations (read by LLVM main only) an end outside
	 * is X: and its address, as profiles.md writes it */
	uint32_t ext = buildid_locs ? OBJ_X : OBJ_PLAIN;
	uint32_t fo = fb >= 0 ? binobj(fb) : ext;
	uint32_t to = tb >= 0 ? binobj(tb) : ext;
	enum pa_type type = r->meta & RAW_RET ? PA_R : PA_T;

	if (fb < 0 && (!buildid_locs || type == PA_R)) {
		fa = 0;		/* an R entry's 0: an external return */
		fo = OBJ_PLAIN;
	}
	if (tb < 0) {
		/* the branch leaves the selected binaries */
		if (fb < 0)
			return;
		if (!buildid_locs)
			ta = 0;
	}
	if (tb < 0 || !(r->meta & RAW_NEXT) || nb != tb) {
		if (fmt21)
			add_entry(PA_B, fa, fo, ta, to, 0, OBJ_PLAIN, count,
			    mis, 1);
		else
			add_entry(type, fa, fo, ta, to, PA_BR_ONLY, OBJ_PLAIN,
			    count, mis, 1);
	} else
		add_entry(type, fa, fo, ta, to, na, binobj(nb), count,
		    fmt21 ? 0 : mis, !fmt21);
}

/* an ip sample: S under its event, in the current format only */
static void
resolve_ip(const struct mapping *ms, size_t nm, const struct raw *r,
    uint64_t count)
{
	struct entry k;
	uint64_t a;
	int b;

	if ((b = resolve(ms, nm, r->from, &a)) < 0)
		return;
	memset(&k, 0, sizeof(k));
	k.type = PA_S;
	k.a[0] = a;
	k.obj[0] = binobj(b);
	k.ev = (uint32_t)r->to;
	add_queued(&k, count, 0, NULL);
}

/* a memory sample: its ip in a function of a selected binary, its data
 * address in that binary's loaded image, both as the binary's link-time
 * addresses.  perf2bolt 19 (DataAggregator::parseMemSample) rebases the
 * data address with the binary's first executable mapping, and leaves
 * the ip as it is: the same for a fixed-address binary; for a
 * position-independent one it finds no function at a runtime ip, and
 * keeps a data address outside that mapping as it is, which no data
 * object of the binary holds.  Here both are rebased with the mapping's
 * base, which holds for the whole image.  An address outside the image
 * (heap, stack, another binary) is in no data object of the binary:
 * perf2bolt drops it (--filter-mem-profile, its default), and so is it
 * dropped here. */
static void
resolve_mem(const struct mapping *ms, size_t nm, const struct raw *r,
    uint64_t count)
{
	const struct binary *b;
	uint64_t ip, a;
	size_t i;
	int bi;

	if ((bi = resolve(ms, nm, r->from, &ip)) < 0)
		return;
	b = &bins[bi];
	for (i = 0; i < nm && ms[i].bin != bi; i++)
		;
	a = b->fixed ? r->to : r->to - ms[i].base;
	if (a < b->imglo || a >= b->imghi)
		return;
	mem_add(ip, binobj(bi), a, binobj(bi), count);
}

void
resolve_raw(const struct raw *r, uint64_t count)
{
	const struct ctx *c = &ctxs[r->meta >> 4];
	size_t i;

	if ((r->meta & RAW_MEM) == RAW_MEM)
		resolve_mem(snap + c->first, c->n, r, count);
	else if (r->meta & RAW_S)
		resolve_ip(snap + c->first, c->n, r, count);
	else if (lflag) {
		for (i = 0; i < c->n; i++)
			resolve_legacy(&snap[c->first + i], r, count);
	} else
		resolve_modern(snap + c->first, c->n, r, count);
}
