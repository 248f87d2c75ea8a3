/* See COPYING file for copyright and license details. */
/*
 * bbaddrmap.c: decoder of SHT_LLVM_BB_ADDR_MAP(_V0).  The field order and
 * the checks follow LLVM (ELF.cpp decodeBBAddrMapImpl in 19, BBAddrMap.cpp
 * decodeBBAddrMapPayload on main); where LLVM 19 and main differ (19 knows
 * versions 0-2, main 2-5) the union is accepted: LLVM 19's version-0/1
 * forms and main's versions 3-5.  Errors carry the byte offset of the
 * field at fault.  Compressed sections are inflated first, as LLVM 20 and
 * later do (llvm-readobj-19 decodes their compressed bytes as a map).
 */
#include <sys/stat.h>

#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include "util.h"
#include "elfobj.h"
#include "bbaddrmap.h"

struct cur {
	const struct bam_section *s;
	size_t		 pos;
	struct bam_err	*err;
};

static int PRINTFLIKE(3, 4)
fail(struct cur *c, size_t at, const char *fmt, ...)
{
	va_list ap;

	c->err->off = c->s->fileoff + (c->s->compressed ? 0 : at);
	c->err->secoff = at;
	c->err->sec = c->s->sec;
	c->err->insec = 1;
	c->err->compressed = c->s->compressed;
	va_start(ap, fmt);
	vsnprintf(c->err->msg, sizeof(c->err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static size_t
left(const struct cur *c)
{
	return c->s->size - c->pos;
}

static int
uleb(struct cur *c, uint64_t max, const char *what, uint64_t *out)
{
	const uint8_t *p = c->s->data + c->pos, *end = c->s->data + c->s->size;
	size_t n, i;

	if (LIKELY(p < end && !(*p & 0x80))) {	/* most fields: one byte */
		*out = *p;
		c->pos++;
		return 0;
	}
	n = uleb128_decode(p, end, out);
	if (n == 0) {
		for (i = 0; p + i < end && i < 10 && (p[i] & 0x80); i++)
			;
		if (p + i >= end)
			return fail(c, c->pos, "section ends inside the ULEB128 %s",
			    what);
		return fail(c, c->pos, "ULEB128 %s longer than 64 bits", what);
	}
	if (*out > max)
		return fail(c, c->pos, "ULEB128 %s 0x%" PRIx64 " exceeds UINT%d_MAX",
		    what, *out, max == UINT32_MAX ? 32 : 64);
	c->pos += n;
	return 0;
}

static int
uleb32(struct cur *c, const char *what, uint32_t *out)
{
	uint64_t v;

	if (uleb(c, UINT32_MAX, what, &v) == -1)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int
fixed(struct cur *c, int n, const char *what, uint64_t *out)
{
	const uint8_t *p = c->s->data + c->pos;

	if (left(c) < (size_t)n)
		return fail(c, c->pos, "section ends inside the %d-byte %s (%zu left)",
		    n, what, left(c));
	switch (n) {
	case 1:	*out = p[0]; break;
	case 2:	*out = ld16(p, c->s->swap); break;
	case 4:	*out = ld32(p, c->s->swap); break;
	default: *out = ld64(p, c->s->swap); break;
	}
	c->pos += (size_t)n;
	return 0;
}

static int
address(struct cur *c, uint64_t *out)
{
	const struct bam_section *s = c->s;
	size_t at = c->pos, lo = 0, hi = s->nrelocs, mid;

	if (fixed(c, s->addrsize, "address", out) == -1)
		return -1;
	if (!s->relocatable)
		return 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->relocs[mid].off < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == s->nrelocs || s->relocs[lo].off != at)
		return fail(c, at, "no relocation for the address field of a "
		    "relocatable object");
	*out = s->relocs[lo].addend;
	return 0;
}

#define GROW(m, arr, n, cap, need) do {					\
	if ((m)->n + (need) > (m)->cap)						\
		xgrow(&(m)->arr, &(m)->cap, (m)->n + (need), sizeof(*(m)->arr)); \
} while (0)

/* an SHT_LLVM_BB_ADDR_MAP entry's version and feature fields, checked
 * against each other */
static int
decode_header(struct cur *c, uint8_t *versionp, uint16_t *featp)
{
	size_t start = c->pos, at;
	uint64_t v = 0;
	uint16_t feat;
	uint8_t version;

	if (fixed(c, 1, "version", &v) == -1)
		return -1;
	version = (uint8_t)v;
	if (version > BAM_MAXVERSION)
		return fail(c, start, "unsupported BB address map version "
		    "%u (this decoder knows 0 to %d)", version, BAM_MAXVERSION);
	at = c->pos;
	if (fixed(c, version < 5 ? 1 : 2, "feature field", &v) == -1)
		return -1;
	feat = (uint16_t)v;
	if (feat & ~BAM_F_ALL)
		return fail(c, at, "unknown feature bits 0x%x in feature "
		    "0x%x of a version %u entry", feat & ~BAM_F_ALL, feat,
		    version);
	if (feat != 0 && version < 2)
		return fail(c, at, "feature 0x%x needs version >= 2, "
		    "found version %u", feat, version);
	if ((feat & BAM_F_CALLSITES) && version < 3)
		return fail(c, at, "feature 0x%x (callsite end offsets) "
		    "needs version >= 3, found version %u", feat, version);
	if ((feat & BAM_F_HASH) && version < 4)
		return fail(c, at, "feature 0x%x (block hashes) needs "
		    "version >= 4, found version %u", feat, version);
	if ((feat & BAM_F_POSTLINK) && version < 5)
		return fail(c, at, "feature 0x%x (post-link CFG) needs "
		    "version >= 5, found version %u", feat, version);
	*versionp = version;
	*featp = feat;
	return 0;
}

/* block i of a range; *prevend is the end of the range's previous block */
static int
decode_block(struct bam_map *m, struct cur *c, uint8_t version,
    uint16_t feat, uint32_t i, uint32_t *prevend)
{
	struct bam_bb *b;
	size_t at;
	uint64_t j;
	uint32_t id = i, off, size, md, ncs = 0, last = 0, k, d;

	if (version >= 2 && uleb32(c, "block ID", &id) == -1)
		return -1;
	if (uleb32(c, "block offset", &off) == -1)
		return -1;
	k = (uint32_t)m->ncs;
	if (feat & BAM_F_CALLSITES) {
		if (uleb32(c, "number of callsites", &ncs) == -1)
			return -1;
		for (j = 0; j < ncs; j++) {
			if (uleb32(c, "callsite end offset", &d) == -1)
				return -1;
			GROW(m, cs, ncs, capcs, 1);
			last += d;
			m->cs[m->ncs++] = last;
		}
	}
	if (uleb32(c, "block size", &size) == -1)
		return -1;
	size += last;
	at = c->pos;
	if (uleb32(c, "block metadata", &md) == -1)
		return -1;
	if (md & ~BAM_MD_ALL)
		return fail(c, at, "invalid block metadata 0x%x "
		    "(unknown bits 0x%x)", md, md & ~BAM_MD_ALL);
	if (m->nbbs == UINT32_MAX)
		return fail(c, at, "too many blocks");
	GROW(m, bbs, nbbs, capbbs, 1);
	b = &m->bbs[m->nbbs++];
	b->id = id;
	b->md = md;
	b->cs = k;
	b->ncs = ncs;
	b->hash = 0;
	if ((feat & BAM_F_HASH) && fixed(c, 8, "block hash", &b->hash) == -1)
		return -1;
	/* version 0 offsets are from the range start, later ones from the
	 * previous block's end */
	if (version >= 1)
		off += *prevend;
	b->off = off;
	b->size = size;
	*prevend = off + size;
	return 0;
}

/* one range of f: its base address and its blocks */
static int
decode_range(struct bam_map *m, struct cur *c, struct bam_func *f,
    uint8_t version, uint16_t feat)
{
	struct bam_range *rg;
	uint32_t nbb, i, prevend = 0;

	GROW(m, ranges, nranges, capranges, 1);
	rg = &m->ranges[m->nranges];
	if (address(c, &rg->base) == -1)
		return -1;
	if (uleb32(c, "number of blocks", &nbb) == -1)
		return -1;
	rg->bb = (uint32_t)m->nbbs;
	rg->nbb = 0;
	rg->nbb_declared = nbb;
	for (i = 0; i < nbb && !(feat & BAM_F_OMITBB); i++) {
		if (decode_block(m, c, version, feat, i, &prevend) == -1)
			return -1;
		rg->nbb++;
		f->nbb++;
	}
	m->nranges++;
	return 0;
}

/* the PGO analysis map of f: per block its frequency, post-link count
 * and successors */
static int
decode_pgo(struct bam_map *m, struct cur *c, struct bam_func *f,
    uint16_t feat)
{
	struct bam_pgobb *pb;
	struct bam_succ *sc;
	uint64_t nsucc, j;
	uint32_t i;

	f->pgo = (uint32_t)m->npgo;
	for (i = 0; i < f->nbb; i++) {
		GROW(m, pgo, npgo, cappgo, 1);
		pb = &m->pgo[m->npgo];
		memset(pb, 0, sizeof(*pb));
		pb->succ = (uint32_t)m->nsuccs;
		if ((feat & BAM_F_BBFREQ) &&
		    uleb(c, UINT64_MAX, "block frequency", &pb->freq) == -1)
			return -1;
		if ((feat & BAM_F_POSTLINK) &&
		    uleb32(c, "post-link block count", &pb->postlink) == -1)
			return -1;
		if (feat & BAM_F_BRPROB) {
			if (uleb(c, UINT64_MAX, "number of successors", &nsucc) == -1)
				return -1;
			for (j = 0; j < nsucc; j++) {
				if (m->nsuccs == UINT32_MAX)
					return fail(c, c->pos, "too many successors");
				GROW(m, succs, nsuccs, capsuccs, 1);
				sc = &m->succs[m->nsuccs];
				sc->postlink = 0;
				if (uleb32(c, "successor ID", &sc->id) == -1 ||
				    uleb32(c, "branch probability", &sc->prob) == -1)
					return -1;
				if ((feat & BAM_F_POSTLINK) &&
				    uleb32(c, "post-link edge count", &sc->postlink) == -1)
					return -1;
				m->nsuccs++;
				pb->nsucc++;
			}
		}
		m->npgo++;
		f->npgo++;
	}
	return 0;
}

static int
decode_func(struct bam_map *m, struct cur *c)
{
	const struct bam_section *s = c->s;
	struct bam_func *f;
	size_t start = c->pos, at;
	uint32_t nranges = 1, r;
	uint16_t feat = 0;
	uint8_t version = 0;

	if (s->type == BAM_SHT && decode_header(c, &version, &feat) == -1)
		return -1;
	if (feat & BAM_F_MULTIRANGE) {
		at = c->pos;
		if (uleb32(c, "number of BB ranges", &nranges) == -1)
			return -1;
		if (nranges == 0)
			return fail(c, at, "zero number of BB ranges");
	}
	/* Arrays grow item by item as items decode (never by a count read
	 * from the input), so memory stays proportional to the bytes read
	 * and a short section fails where LLVM's decoder fails. */
	GROW(m, funcs, nfuncs, capfuncs, 1);
	f = &m->funcs[m->nfuncs];
	memset(f, 0, sizeof(*f));
	f->fileoff = s->fileoff + start;
	f->sec = s->sec;
	f->text = s->text;
	f->version = version;
	f->feature = feat;
	f->range = (uint32_t)m->nranges;
	f->nrange = nranges;
	for (r = 0; r < nranges; r++)
		if (decode_range(m, c, f, version, feat) == -1)
			return -1;
	m->nfuncs++;
	if (feat & BAM_F_ENTRYCOUNT &&
	    uleb(c, UINT64_MAX, "function entry count", &f->entrycount) == -1)
		return -1;
	if (!(feat & (BAM_F_BBFREQ | BAM_F_BRPROB)))
		return 0;
	return decode_pgo(m, c, f, feat);
}

int
bam_decode(struct bam_map *m, const struct bam_section *s, struct bam_err *err)
{
	struct cur c = { s, 0, err };

	if (s->addrsize != 4 && s->addrsize != 8) {
		c.err->off = s->fileoff;
		c.err->sec = s->sec;
		c.err->insec = 0;
		snprintf(err->msg, sizeof(err->msg), "address size %d", s->addrsize);
		return -1;
	}
	while (c.pos < s->size)
		if (decode_func(m, &c) == -1)
			return -1;
	return 0;
}

void
bam_free(struct bam_map *m)
{
	free(m->funcs);
	free(m->ranges);
	free(m->bbs);
	free(m->cs);
	free(m->pgo);
	free(m->succs);
	memset(m, 0, sizeof(*m));
}

const char *
bam_feature_names(uint16_t f, char *buf, size_t len)
{
	static const char *names[] = { "FuncEntryCount", "BBFreq", "BrProb",
	    "MultiBBRange", "OmitBBEntries", "CallsiteEndOffsets", "BBHash",
	    "PostLinkCfg" };
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < NELEM(names); i++)
		if (f & (1u << i) && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
			    n ? "," : "", names[i]);
	return n ? buf : "-";
}

static int PRINTFLIKE(5, 6)
cfail(struct bam_err *err, uint64_t off, uint32_t sec, int insec,
    const char *fmt, ...)
{
	va_list ap;

	memset(err, 0, sizeof(*err));
	err->off = off;
	err->sec = sec;
	err->insec = insec;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int
bam_decompress(const uint8_t *data, size_t size, int is64, int swap,
    uint64_t fileoff, uint32_t sec, uint8_t **out, size_t *outsize,
    struct bam_err *err)
{
	size_t hdr = is64 ? 24 : 12, csize, got;
	uint32_t type;
	uint64_t usize;
	uint8_t *buf;
	unsigned long zlen;
	int zr;

	*out = NULL;
	*outsize = 0;
	if (size < hdr)
		return cfail(err, fileoff, sec, 0, "compressed map section %"
		    PRIu32 ": %zu bytes, shorter than its %zu-byte compression "
		    "header", sec, size, hdr);
	/* Elf64_Chdr: ch_type, ch_reserved, ch_size, ch_addralign;
	 * Elf32_Chdr: ch_type, ch_size, ch_addralign */
	type = ld32(data, swap);
	usize = is64 ? ld64(data + 8, swap) : ld32(data + 4, swap);
	csize = size - hdr;
	if (type != BAM_CH_ZLIB && type != BAM_CH_ZSTD)
		return cfail(err, fileoff, sec, 0, "compressed map section %"
		    PRIu32 ": compression type %" PRIu32 " (known: 1 zlib, 2 "
		    "zstd)", sec, type);
	if (usize > (uint64_t)csize * BAM_MAXRATIO || usize > SIZE_MAX / 2)
		return cfail(err, fileoff + (is64 ? 8 : 4), sec, 0,
		    "compressed map section %" PRIu32 ": an uncompressed size "
		    "of 0x%" PRIx64 " bytes from %zu compressed bytes (more "
		    "than %d times as many)", sec, usize, csize, BAM_MAXRATIO);
	buf = xmalloc(usize ? (size_t)usize : 1);
	if (type == BAM_CH_ZLIB) {
		zlen = (unsigned long)usize;
		zr = uncompress(buf, &zlen, data + hdr, (unsigned long)csize);
		if (zr != Z_OK) {
			free(buf);
			return cfail(err, fileoff + hdr, sec, 0, "compressed "
			    "map section %" PRIu32 ": zlib data does not "
			    "decompress to the 0x%" PRIx64 " bytes its header "
			    "says: %s", sec, usize, zr == Z_BUF_ERROR ?
			    "more or truncated data" : zError(zr));
		}
		got = zlen;
	} else {
		got = ZSTD_decompress(buf, (size_t)usize, data + hdr, csize);
		if (ZSTD_isError(got)) {
			free(buf);
			return cfail(err, fileoff + hdr, sec, 0, "compressed "
			    "map section %" PRIu32 ": zstd data does not "
			    "decompress to the 0x%" PRIx64 " bytes its header "
			    "says: %s", sec, usize, ZSTD_getErrorName(got));
		}
	}
	if (got != usize) {
		free(buf);
		return cfail(err, fileoff + hdr, sec, 0, "compressed map "
		    "section %" PRIu32 ": decompressed to 0x%zx bytes, its "
		    "header says 0x%" PRIx64, sec, got, usize);
	}
	*out = buf;
	*outsize = (size_t)usize;
	return 0;
}

static int
relcmp(const void *a, const void *b)
{
	const struct bam_reloc *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

#define SORT_NAME	sort_relocs
#define SORT_TYPE	struct bam_reloc
#define SORT_LESS(a, b)	(relcmp((a), (b)) < 0)
#define SORT_STABLE
#include "sort.h"

static int PRINTFLIKE(3, 4)
lfail(struct bam_err *err, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	err->off = off;
	err->secoff = 0;
	err->sec = 0;
	err->insec = 0;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* the relocations of the map section with index idx, from the RELA
 * section that applies to it (*found: there is one); -1 if a REL or
 * CREL one does */
static int
load_relocs(struct elfobj *eo, size_t idx, struct bam_reloc **out, size_t *nout,
    int *found, struct bam_err *err)
{
	Elf *e = eo->elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Rela ra;
	Elf_Data *d;
	struct bam_reloc *rl = NULL;
	size_t n = 0, i, cnt;

	*out = NULL;
	*nout = 0;
	*found = 0;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_info != idx)
			continue;
		if (sh.sh_type == SHT_REL || sh.sh_type == 0x40000014 /* CREL */)
			return lfail(err, sh.sh_offset, "relocation section %zu "
			    "applying to the map has type 0x%x: only RELA is "
			    "supported", elf_ndxscn(scn), sh.sh_type);
		if (sh.sh_type != SHT_RELA)
			continue;
		*found = 1;
		if ((d = elf_getdata(scn, NULL)) == NULL)
			return lfail(err, sh.sh_offset, "RELA section %zu: %s",
			    elf_ndxscn(scn), elf_errmsg(-1));
		cnt = d->d_size / gelf_fsize(e, ELF_T_RELA, 1, EV_CURRENT);
		rl = xreallocarray(rl, n + cnt + 1, sizeof(*rl));
		for (i = 0; i < cnt; i++) {
			if (gelf_getrela(d, (int)i, &ra) == NULL)
				break;
			rl[n].off = ra.r_offset;
			rl[n].addend = (uint64_t)ra.r_addend;
			n++;
		}
	}
	if (n)
		sort_relocs(rl, n);
	*out = rl;
	*nout = n;
	return 0;
}

/* a relocation section that applies to no section (sh_info past the
 * section headers) fails LLVM's getSectionAndRelocations for the whole
 * file, in any object */
static int
check_reloc_targets(struct elfobj *eo, struct bam_err *err)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shnum;

	if (elf_getshdrnum(eo->elf, &shnum) == -1)
		return lfail(err, 0, "section headers: %s", elf_errmsg(-1));
	while ((scn = elf_nextscn(eo->elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			return lfail(err, 0, "section header: %s",
			    elf_errmsg(-1));
		if ((sh.sh_type == SHT_RELA || sh.sh_type == SHT_REL ||
		    sh.sh_type == 0x40000014 /* CREL */) && sh.sh_info >= shnum)
			return lfail(err, sh.sh_offset, "relocation section %zu "
			    "applies to section %" PRIu32 ", past the %zu "
			    "section headers", elf_ndxscn(scn), sh.sh_info,
			    shnum);
	}
	return 0;
}

/* the map's state before a section, to leave a section that fails out
 * whole */
struct mark {
	size_t	nfuncs, nranges, nbbs, ncs, npgo, nsuccs;
};

static void
mark_get(const struct bam_map *m, struct mark *k)
{
	k->nfuncs = m->nfuncs;
	k->nranges = m->nranges;
	k->nbbs = m->nbbs;
	k->ncs = m->ncs;
	k->npgo = m->npgo;
	k->nsuccs = m->nsuccs;
}

static void
mark_reset(struct bam_map *m, const struct mark *k)
{
	m->nfuncs = k->nfuncs;
	m->nranges = k->nranges;
	m->nbbs = k->nbbs;
	m->ncs = k->ncs;
	m->npgo = k->npgo;
	m->nsuccs = k->nsuccs;
}

/* one map section: its bytes (decompressed), its relocations, decoded */
static int
load_section(struct bam_map *m, struct elfobj *eo, Elf_Scn *scn,
    const GElf_Shdr *sh, struct bam_err *err)
{
	struct bam_section s;
	struct bam_reloc *rl = NULL;
	struct stat st;
	uint8_t *buf, *ubuf;
	size_t idx = elf_ndxscn(scn), nrl = 0, usize;
	int rc;

	if (fstat(eo->fd, &st) == -1 || sh->sh_offset > (uint64_t)st.st_size ||
	    sh->sh_size > (uint64_t)st.st_size - sh->sh_offset)
		buf = NULL;
	else
		buf = xmalloc(sh->sh_size ? sh->sh_size : 1);
	if (buf == NULL ||
	    elfobj_read(eo, sh->sh_offset, buf, sh->sh_size) == -1) {
		free(buf);
		lfail(err, sh->sh_offset, "map section %zu: size 0x%" PRIx64
		    " at offset 0x%" PRIx64 " runs past the end of the file",
		    idx, sh->sh_size, sh->sh_offset);
		err->sec = (uint32_t)idx;
		return -1;
	}
	memset(&s, 0, sizeof(s));
	s.data = buf;
	s.size = sh->sh_size;
	if (sh->sh_flags & SHF_COMPRESSED) {
		if (bam_decompress(buf, sh->sh_size, eo->is64, eo->swap,
		    sh->sh_offset, (uint32_t)idx, &ubuf, &usize, err) == -1) {
			free(buf);
			return -1;
		}
		free(buf);
		s.data = buf = ubuf;
		s.size = usize;
		s.compressed = 1;
	}
	if (eo->type == ET_REL) {
		int found;

		if (load_relocs(eo, idx, &rl, &nrl, &found, err) == -1) {
			free(buf);
			err->sec = (uint32_t)idx;
			return -1;
		}
		/* LLVM: "unable to get relocation section for" the map */
		if (!found) {
			free(buf);
			lfail(err, sh->sh_offset, "map section %zu of a "
			    "relocatable object: no RELA section applies to it",
			    idx);
			err->sec = (uint32_t)idx;
			return -1;
		}
	}
	s.type = sh->sh_type;
	s.addrsize = eo->is64 ? 8 : 4;
	s.swap = eo->swap;
	s.relocatable = eo->type == ET_REL;
	s.relocs = rl;
	s.nrelocs = nrl;
	s.fileoff = sh->sh_offset;
	s.sec = (uint32_t)idx;
	s.text = sh->sh_link;
	rc = bam_decode(m, &s, err);
	free(rl);
	free(buf);
	return rc;
}

int
bam_load(struct bam_map *m, struct elfobj *eo, size_t *nsec,
    struct bam_err *err, bam_errfn *onerr, void *arg)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	struct mark k;
	int failed = 0;

	*nsec = 0;
	if (check_reloc_targets(eo, err) == -1)
		return -1;
	while ((scn = elf_nextscn(eo->elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL) {
			mark_reset(m, &(struct mark){ 0, 0, 0, 0, 0, 0 });
			return lfail(err, 0, "section header: %s",
			    elf_errmsg(-1));
		}
		if (sh.sh_type != BAM_SHT && sh.sh_type != BAM_SHT_V0)
			continue;
		(*nsec)++;
		mark_get(m, &k);
		if (load_section(m, eo, scn, &sh, err) == -1) {
			if (onerr == NULL)
				return -1;
			mark_reset(m, &k);
			onerr(arg, err);
			failed = 1;
		}
	}
	return failed ? -1 : 0;
}
