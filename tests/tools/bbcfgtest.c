/* See COPYING file for copyright and license details. */
/*
 * bbcfgtest: the graphs tools/bbmap/bbcfg.c builds from a basic-block
 * address map, for tests/45-bbmap.bats.
 *   bbcfgtest unit      built-in cases on hand-made maps (a split function
 *                       whose cold part lies below its entry, repeated
 *                       and unknown successor IDs, fall-through at a
 *                       range's end, omitted blocks, callsites, metadata)
 *   bbcfgtest FILE      every function of FILE's map: a line
 *                       "function ADDR SIZE simple|-" then one per block
 *                       in the graph's order:
 *                       "block START END ID FLAGS -> SUCCID ..." with
 *                       START and END addresses, FLAGS letters of
 *                       CFG_ENTRY (N), _ENDS_RET (R), _ENDS_TAIL (T),
 *                       _LPAD (E), _FALLS (F), _ENDS_INDIRECT (I),
 *                       _ENDS_CALL (C), _SUCCS_KNOWN (K), or "-"
 * cfg.h's cfg_free and cfg_block_at live in libbolt/cfg/cfgdis.c, the
 * disassembler's graphs: this helper links Capstone through it.
 */
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "elfobj.h"
#include "bbaddrmap.h"
#include "bbcfg.h"

static int failures;

#define CHECK(c) do {							\
	if (!(c)) {							\
		fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); \
		failures++;						\
	}								\
} while (0)

static void
flagstr(char *d, uint32_t f)
{
	static const struct { uint32_t bit; char c; } t[] = {
		{ CFG_ENTRY, 'N' }, { CFG_ENDS_RET, 'R' }, { CFG_ENDS_TAIL, 'T' },
		{ CFG_LPAD, 'E' }, { CFG_FALLS, 'F' }, { CFG_ENDS_INDIRECT, 'I' },
		{ CFG_ENDS_CALL, 'C' }, { CFG_SUCCS_KNOWN, 'K' } };
	size_t i, n = 0;

	for (i = 0; i < NELEM(t); i++)
		if (f & t[i].bit)
			d[n++] = t[i].c;
	if (n == 0)
		d[n++] = '-';
	d[n] = '\0';
}

static void
print(const struct bam_map *m, FILE *fp)
{
	struct cfg g;
	char fl[16];
	size_t i, k;
	uint32_t s;

	for (i = 0; i < m->nfuncs; i++) {
		bbcfg_build(m, i, &g, NULL, NULL);
		fprintf(fp, "function %" PRIx64 " %" PRIx64 " %s\n", g.addr,
		    g.size, g.simple ? "simple" : "-");
		for (k = 0; k < g.nblocks; k++) {
			const struct cfg_block *b = &g.blocks[k];

			flagstr(fl, b->flags);
			fprintf(fp, "block %" PRIx64 " %" PRIx64 " %" PRIu32 " %s ->",
			    g.addr + b->start, g.addr + b->end, b->id, fl);
			for (s = 0; s < b->nsucc; s++)
				fprintf(fp, " %" PRIu32,
				    g.blocks[g.succs[b->succ + s]].id);
			fputc('\n', fp);
		}
		cfg_free(&g);
	}
}

/* a hand-made map: one function from ranges of blocks given as
 * {id, off, size, md} */
struct tb { uint32_t id, off, size, md; };

static void
add_func(struct bam_map *m, uint16_t feat, size_t nr, const uint64_t *base,
    const size_t *nbb, const struct tb *bbs)
{
	struct bam_func *f;
	size_t r, k, n = 0;

	xgrow(&m->funcs, &m->capfuncs, m->nfuncs + 1, sizeof(*m->funcs));
	f = &m->funcs[m->nfuncs++];
	memset(f, 0, sizeof(*f));
	f->version = 2;
	f->feature = feat;
	f->range = (uint32_t)m->nranges;
	f->nrange = (uint32_t)nr;
	for (r = 0; r < nr; r++) {
		struct bam_range *rg;

		xgrow(&m->ranges, &m->capranges, m->nranges + 1,
		    sizeof(*m->ranges));
		rg = &m->ranges[m->nranges++];
		rg->base = base[r];
		rg->bb = (uint32_t)m->nbbs;
		rg->nbb_declared = (uint32_t)nbb[r];
		rg->nbb = feat & BAM_F_OMITBB ? 0 : (uint32_t)nbb[r];
		for (k = 0; k < rg->nbb; k++, n++) {
			struct bam_bb *b;

			xgrow(&m->bbs, &m->capbbs, m->nbbs + 1, sizeof(*m->bbs));
			b = &m->bbs[m->nbbs++];
			memset(b, 0, sizeof(*b));
			b->id = bbs[n].id;
			b->off = bbs[n].off;
			b->size = bbs[n].size;
			b->md = bbs[n].md;
			b->cs = (uint32_t)m->ncs;
		}
		f->nbb += rg->nbb;
	}
}

/* the PGO successors of the last function: for each of its blocks in
 * layout order, ids[] up to a UINT32_MAX */
static void
add_succs(struct bam_map *m, const uint32_t *ids)
{
	struct bam_func *f = &m->funcs[m->nfuncs - 1];
	uint32_t k;

	f->pgo = (uint32_t)m->npgo;
	for (k = 0; k < f->nbb; k++) {
		struct bam_pgobb *p;

		xgrow(&m->pgo, &m->cappgo, m->npgo + 1, sizeof(*m->pgo));
		p = &m->pgo[m->npgo++];
		memset(p, 0, sizeof(*p));
		p->succ = (uint32_t)m->nsuccs;
		for (; *ids != UINT32_MAX; ids++) {
			xgrow(&m->succs, &m->capsuccs, m->nsuccs + 1,
			    sizeof(*m->succs));
			m->succs[m->nsuccs].id = *ids;
			m->succs[m->nsuccs].prob = 1u << 30;
			m->nsuccs++;
			p->nsucc++;
		}
		ids++;
		f->npgo++;
	}
}

/* the successors of block k as IDs, "a,b" */
static const char *
succs(const struct cfg *g, size_t k, char *buf, size_t len)
{
	size_t n = 0;
	uint32_t s;

	buf[0] = '\0';
	for (s = 0; s < g->blocks[k].nsucc && n < len; s++)
		n += (size_t)snprintf(buf + n, len - n, "%s%" PRIu32, s ? "," : "",
		    g->blocks[g->succs[g->blocks[k].succ + s]].id);
	return buf;
}

static void
unit(void)
{
	struct bam_map m;
	struct bbcfg_stats st = { 0 };
	struct cfg g;
	uint32_t bb[8];
	char buf[64];
	const uint32_t X = UINT32_MAX;

	memset(&m, 0, sizeof(m));

	/* 0: a split function whose cold part (at 0x1000) lies below its
	 * entry (at 0x2000): hot 0 (falls to 2), 2 (ret); cold 3 (tail
	 * call), 1 (falls past the range's end: no successor); padding
	 * between 0 and 2, and between 3 and 1 */
	{
		static const uint64_t base[] = { 0x2000, 0x1000 };
		static const size_t nbb[] = { 2, 2 };
		static const struct tb b[] = {
			{ 0, 0, 0x10, BAM_MD_FALLS },
			{ 2, 0x14, 0x4, BAM_MD_RET },
			{ 3, 0, 0x5, BAM_MD_RET | BAM_MD_TAIL },
			{ 1, 0x8, 0x8, BAM_MD_FALLS | BAM_MD_EHPAD } };
		add_func(&m, BAM_F_MULTIRANGE, 2, base, nbb, b);
	}
	/* 1: branch probabilities: 0 -> {5, 9 (no such block), 5 again},
	 * falls to 5 anyway; 5 -> {7}; 7 (repeated ID 7: a clone) ->
	 * {} with CanFallThrough to the second 7; the second 7 -> {0} */
	{
		static const uint64_t base[] = { 0x3000 };
		static const size_t nbb[] = { 4 };
		static const struct tb b[] = {
			{ 0, 0, 4, BAM_MD_FALLS },
			{ 5, 4, 4, BAM_MD_INDIRECT },
			{ 7, 8, 0, BAM_MD_FALLS },	/* empty */
			{ 7, 8, 3, 0 } };
		static const uint32_t s[] = { 5, 9, 5, X, 7, X, X, 0, X };
		add_func(&m, BAM_F_BRPROB | BAM_F_BBFREQ, 1, base, nbb, b);
		add_succs(&m, s);
	}
	/* 2: blocks omitted */
	{
		static const uint64_t base[] = { 0x4000 };
		static const size_t nbb[] = { 3 };
		add_func(&m, BAM_F_OMITBB, 1, base, nbb, NULL);
	}
	/* 3: callsites: block 0 ends in a call (noreturn), block 1 has one
	 * before its end */
	{
		static const uint64_t base[] = { 0x5000 };
		static const size_t nbb[] = { 2 };
		static const struct tb b[] = {
			{ 0, 0, 8, 0 }, { 1, 8, 9, BAM_MD_RET } };
		add_func(&m, BAM_F_CALLSITES, 1, base, nbb, b);
		m.funcs[3].version = 3;
		xgrow(&m.cs, &m.capcs, 2, sizeof(*m.cs));
		m.cs[0] = 8;
		m.cs[1] = 5;
		m.ncs = 2;
		m.bbs[m.nbbs - 2].cs = 0;
		m.bbs[m.nbbs - 2].ncs = 1;
		m.bbs[m.nbbs - 1].cs = 1;
		m.bbs[m.nbbs - 1].ncs = 1;
	}

	bbcfg_build(&m, 0, &g, bb, &st);
	CHECK(g.simple && g.addr == 0x1000 && g.size == 0x1018);
	CHECK(g.nblocks == 4);
	/* address order: the cold range first */
	CHECK(g.blocks[0].id == 3 && g.blocks[0].start == 0 &&
	    g.blocks[0].end == 5);
	CHECK(g.blocks[1].id == 1 && g.blocks[1].start == 8 &&
	    g.blocks[1].end == 0x10);
	CHECK(g.blocks[2].id == 0 && g.blocks[2].start == 0x1000 &&
	    g.blocks[2].end == 0x1010);
	CHECK(g.blocks[3].id == 2 && g.blocks[3].start == 0x1014 &&
	    g.blocks[3].end == 0x1018);
	CHECK(bb[0] == 2 && bb[1] == 3 && bb[2] == 0 && bb[3] == 1);
	CHECK(g.blocks[2].flags == (CFG_ENTRY | CFG_FALLS | CFG_LAST_UNKNOWN));
	CHECK(g.blocks[1].flags == (CFG_LPAD | CFG_FALLS | CFG_LAST_UNKNOWN));
	CHECK(g.blocks[0].flags == (CFG_ENDS_TAIL | CFG_LAST_UNKNOWN));
	CHECK(g.blocks[3].flags == (CFG_ENDS_RET | CFG_LAST_UNKNOWN));
	CHECK(g.blocks[3].last == g.blocks[3].end && g.blocks[3].ninsns == 0);
	/* 0 falls to 2; 1 falls off its range: no successor known */
	CHECK(cfg_block_at(&g, 6) == -1 && cfg_block_at(&g, 0x1012) == -1);
	CHECK(strcmp(succs(&g, 2, buf, sizeof(buf)), "2") == 0);
	CHECK(g.blocks[0].nsucc == 0 && g.blocks[1].nsucc == 0 &&
	    g.blocks[3].nsucc == 0);
	cfg_free(&g);

	bbcfg_build(&m, 1, &g, NULL, &st);
	CHECK(g.nblocks == 4 && g.addr == 0x3000 && g.size == 0xb);
	CHECK(strcmp(succs(&g, 0, buf, sizeof(buf)), "5") == 0);
	CHECK(strcmp(succs(&g, 1, buf, sizeof(buf)), "7") == 0);
	/* the first block with ID 7 is the empty one */
	CHECK(g.succs[g.blocks[1].succ] == 2);
	CHECK(g.blocks[2].nsucc == 1 && g.succs[g.blocks[2].succ] == 3);
	CHECK(strcmp(succs(&g, 3, buf, sizeof(buf)), "0") == 0);
	CHECK(st.badsucc == 1);
	CHECK(g.blocks[1].flags == (CFG_ENDS_INDIRECT | CFG_SUCCS_KNOWN |
	    CFG_LAST_UNKNOWN));
	CHECK(g.blocks[2].start == 8 && g.blocks[2].end == 8 &&
	    g.blocks[3].start == 8);
	CHECK(cfg_block_at(&g, 8) == 3 && cfg_block_at(&g, 7) == 1 &&
	    cfg_block_at(&g, 0xb) == -1);
	cfg_free(&g);

	bbcfg_build(&m, 2, &g, NULL, NULL);
	CHECK(g.nblocks == 0 && !g.simple && g.why != NULL &&
	    g.addr == 0x4000);
	cfg_free(&g);

	bbcfg_build(&m, 3, &g, NULL, NULL);
	CHECK(g.nblocks == 2);
	CHECK(g.blocks[0].flags == (CFG_ENTRY | CFG_ENDS_CALL | CFG_LAST_UNKNOWN));
	CHECK(g.blocks[1].flags == (CFG_ENDS_RET | CFG_LAST_UNKNOWN));
	CHECK(g.blocks[1].start == 8 && g.blocks[1].end == 0x11);
	cfg_free(&g);

	bam_free(&m);
}

int
main(int argc, char *argv[])
{
	struct elfobj eo;
	struct bam_map m;
	struct bam_err e;
	char ebuf[256];
	size_t nsec;

	prog_init(argc, argv);
	if (argc != 2)
		errx(2, "usage: bbcfgtest unit | bbcfgtest FILE");
	if (strcmp(argv[1], "unit") == 0) {
		unit();
		if (failures)
			errx(1, "%d failures", failures);
		printf("ok\n");
		return 0;
	}
	if (elfobj_open_object(&eo, argv[1], ebuf, sizeof(ebuf)) == -1)
		errx(1, "%s", ebuf);
	memset(&m, 0, sizeof(m));
	if (bam_load(&m, &eo, &nsec, &e, NULL, NULL) == -1)
		errx(1, "%s: offset 0x%" PRIx64 ": %s", argv[1], e.off, e.msg);
	print(&m, stdout);
	bam_free(&m);
	elfobj_close(&eo);
	xclose_stdout();
	return 0;
}
