/* See COPYING file for copyright and license details. */
/*
 * code.c: the code map of llvm-profgen 19's ProfiledBinary
 * (ProfiledBinary::disassemble and dissassembleSymbol).  Every symbol of
 * the static symbol table (.symtab, from index 1) defined in an
 * executable section but .plt starts a linear sweep that ends at the
 * next symbol of its section, in address order, or at the section's end;
 * an instruction may run past the next symbol, whose sweep starts at its
 * own address all the same.  A position where nothing decodes is skipped
 * a byte at a time and is no code.  What is kept, per byte of each
 * section: the size and kind of the instruction starting there, and a
 * bitmap of the calls, returns and direct jumps
 * (UncondBranchAddrSet), which no fall-through range may cross.
 *
 * The rest of the binary llvm-profgen reads here: the preferred base
 * (the first executable PT_LOAD, page aligned), pseudo-probe sections and
 * the flow-sensitive discriminator marker, which we refuse.
 */
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "afdowrite.h"

static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* symbols in address order, then by name as StringRef compares them
 * (SymbolInfoTy's operator<: memcmp order) */
static int
tsymcmp(const void *a, const void *b)
{
	const struct tsym *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* sections by address, then in file order (as read) */
static int
seccmp(const void *a, const void *b)
{
	const struct textsec *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->shndx < y->shndx ? -1 : x->shndx > y->shndx;
}

/* sorted where they stand (sort.h): the comparisons break every tie */
#define SORT_NAME	sort_syms
#define SORT_TYPE	struct tsym
#define SORT_LESS(a, b)	(tsymcmp(a, b) < 0)
#include "sort.h"
#define SORT_NAME	sort_secs
#define SORT_TYPE	struct textsec
#define SORT_LESS(a, b)	(seccmp(a, b) < 0)
#include "sort.h"

/* ELF section index of each text section (0: not one), to place symbols */
struct secmap {
	uint32_t	*text;		/* by section index: textsec + 1 */
	size_t		 n;
	int		*data;		/* by section index: isData() */
};

static int
read_sections(struct code *c, struct secmap *sm, char *err, size_t errlen)
{
	Elf *e = c->eo.elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx, nsec, i;
	int desc = 0, probe = 0;

	if (elf_getshdrstrndx(e, &shstrndx) != 0 || elf_getshdrnum(e, &nsec) != 0)
		return fail(err, errlen, "%s: bad section headers: %s",
		    c->eo.path, elf_errmsg(-1));
	sm->n = nsec;
	sm->text = xcalloc(nsec + 1, sizeof(*sm->text));
	sm->data = xcalloc(nsec + 1, sizeof(*sm->data));
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		size_t idx = elf_ndxscn(scn);
		const char *name;
		Elf_Data *d;

		if (gelf_getshdr(scn, &sh) == NULL)
			return fail(err, errlen, "%s: bad section header %zu",
			    c->eo.path, idx);
		if ((name = elf_strptr(e, shstrndx, sh.sh_name)) == NULL)
			return fail(err, errlen, "%s: section %zu: bad name",
			    c->eo.path, idx);
		if (strcmp(name, ".pseudo_probe_desc") == 0)
			desc = 1;
		else if (strcmp(name, ".pseudo_probe") == 0)
			probe = 1;
		if ((sh.sh_flags & SHF_ALLOC) && !(sh.sh_flags & SHF_EXECINSTR) &&
		    sh.sh_type != SHT_NOBITS && idx <= nsec)
			sm->data[idx] = 1;
		/* SectionRef::isText(); .plt is skipped by name, and a
		 * section without bytes in the file has nothing to decode */
		if (!(sh.sh_flags & SHF_EXECINSTR) || sh.sh_size == 0 ||
		    sh.sh_type == SHT_NOBITS || strcmp(name, ".plt") == 0 ||
		    idx > nsec)
			continue;
		if ((d = elf_rawdata(scn, NULL)) == NULL || d->d_buf == NULL ||
		    d->d_size != sh.sh_size)
			return fail(err, errlen, "%s: section %s: offset 0x%llx: "
			    "%llu bytes past the end of the file", c->eo.path,
			    name, (unsigned long long)sh.sh_offset,
			    (unsigned long long)sh.sh_size);
		if (sh.sh_addr + sh.sh_size < sh.sh_addr)
			return fail(err, errlen, "%s: section %s: address 0x%llx "
			    "+ size 0x%llx wraps", c->eo.path, name,
			    (unsigned long long)sh.sh_addr,
			    (unsigned long long)sh.sh_size);
		c->secs = xreallocarray(c->secs, c->nsecs + 1, sizeof(*c->secs));
		c->secs[c->nsecs] = (struct textsec){ sh.sh_addr, sh.sh_size,
		    d->d_buf, NULL, NULL, name, 0, 0, idx };
		c->nsecs++;
	}
	c->probes = desc && probe;
	if (c->nsecs > 1)
		sort_secs(c->secs, c->nsecs);
	for (i = 0; i < c->nsecs; i++) {
		sm->text[c->secs[i].shndx] = (uint32_t)i + 1;
		if (i > 0 && c->secs[i - 1].addr + c->secs[i - 1].size >
		    c->secs[i].addr)
			return fail(err, errlen, "%s: executable sections %s "
			    "and %s overlap", c->eo.path, c->secs[i - 1].name,
			    c->secs[i].name);
		c->secs[i].info = xcalloc(c->secs[i].size, 1);
		c->secs[i].uncond = xcalloc(c->secs[i].size / 64 + 1,
		    sizeof(uint64_t));
	}
	return 0;
}

static int
read_symbols(struct code *c, struct secmap *sm, char *err, size_t errlen)
{
	Elf *e = c->eo.elf;
	Elf_Scn *scn = NULL, *tab = NULL, *xscn = NULL;
	Elf_Data *d, *xd = NULL;
	GElf_Shdr sh, tsh;
	GElf_Sym s;
	size_t i, n, cap = 0, shstrndx;
	Elf32_Word xidx;

	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return fail(err, errlen, "%s: bad section headers", c->eo.path);
	/* the first SHT_SYMTAB, as ELFObjectFile takes it */
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			return fail(err, errlen, "%s: bad section header",
			    c->eo.path);
		if (sh.sh_type == SHT_SYMTAB && tab == NULL) {
			tab = scn;
			tsh = sh;
		} else if (sh.sh_type == SHT_SYMTAB_SHNDX && xscn == NULL)
			xscn = scn;
	}
	if (tab == NULL)
		return fail(err, errlen, "%s: no symbol table (.symtab): "
		    "llvm-profgen finds no code in a stripped binary",
		    c->eo.path);
	if ((d = elf_getdata(tab, NULL)) == NULL || tsh.sh_entsize == 0)
		return fail(err, errlen, "%s: bad symbol table", c->eo.path);
	if (xscn != NULL)
		xd = elf_getdata(xscn, NULL);
	n = tsh.sh_size / tsh.sh_entsize;
	for (i = 1; i < n; i++) {
		const char *name;
		size_t shndx;

		if (gelf_getsymshndx(d, xd, (int)i, &s, &xidx) == NULL)
			return fail(err, errlen, "%s: bad symbol %zu",
			    c->eo.path, i);
		if ((name = elf_strptr(e, tsh.sh_link, s.st_name)) == NULL)
			return fail(err, errlen, "%s: symbol %zu: bad name "
			    "offset 0x%x", c->eo.path, i, (unsigned)s.st_name);
		if (s.st_shndx == SHN_XINDEX)
			shndx = xidx;
		else if (s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE)
			continue;
		else
			shndx = s.st_shndx;
		if (shndx == 0 || shndx > sm->n)
			continue;
		if (*name == '\0' && GELF_ST_TYPE(s.st_info) == STT_SECTION) {
			Elf_Scn *ss = elf_getscn(e, shndx);
			GElf_Shdr ssh;

			if (ss == NULL || gelf_getshdr(ss, &ssh) == NULL ||
			    (name = elf_strptr(e, shstrndx, ssh.sh_name)) == NULL)
				name = "";
		}
		if (sm->data[shndx] &&
		    strcmp(name, "__llvm_fs_discriminator__") == 0)
			c->fsdisc = 1;
		if (sm->text[shndx] == 0)
			continue;
		xgrow(&c->syms, &cap, c->nsyms + 1, sizeof(*c->syms));
		c->syms[c->nsyms++] = (struct tsym){ s.st_value, name,
		    sm->text[shndx] - 1 };
	}
	if (c->nsyms > 0)
		sort_syms(c->syms, c->nsyms);
	for (i = 0; i < c->nsyms; i++) {
		struct textsec *ts = &c->secs[c->syms[i].sec];

		if (i == 0 || c->syms[i - 1].sec != c->syms[i].sec)
			ts->symlo = i;
		ts->symhi = i + 1;
	}
	return 0;
}

/* the decoders, by ELF machine */
static const struct decoder {
	uint16_t	  machine;
	const char	 *name;
	void		*(*open)(void);
	unsigned	(*decode)(void *, const uint8_t *, size_t, uint64_t);
	void		(*close)(void *);
} decoders[] = {
	{ EM_X86_64, "x86-64", x86dis_open, x86dis_decode, x86dis_close },
};

static const struct decoder *
decoder_of(uint16_t machine)
{
	size_t i;

	for (i = 0; i < NELEM(decoders); i++)
		if (decoders[i].machine == machine)
			return &decoders[i];
	return NULL;
}

/* the linear sweep of every symbol's code */
static int
sweep(struct code *c, char *err, size_t errlen)
{
	const struct decoder *dec = decoder_of(c->eo.machine);
	void *x;
	size_t i;

	if ((x = dec->open()) == NULL)
		return fail(err, errlen, "cannot open the %s decoder",
		    dec->name);
	for (i = 0; i < c->nsyms; i++) {
		const struct tsym *y = &c->syms[i];
		struct textsec *s = &c->secs[y->sec];
		uint64_t a = y->addr, next, end = s->addr + s->size;

		next = i + 1 < c->nsyms && c->syms[i + 1].sec == y->sec ?
		    c->syms[i + 1].addr : end;
		/* a symbol outside its section's bytes has none to read
		 * (llvm-profgen would read past the section) */
		if (a < s->addr || a >= end)
			continue;
		if (next > end)
			next = end;
		while (a < next) {
			uint64_t o = a - s->addr;
			unsigned k = dec->decode(x, s->bytes + o, end - a, a);

			if ((k & CI_SIZE) == 0) {
				c->ninvalid++;
				a++;
				continue;
			}
			s->info[o] = (uint8_t)k;
			if (k & CI_UNCOND)
				s->uncond[o / 64] |= (uint64_t)1 << (o % 64);
			c->ninsns++;
			a += k & CI_SIZE;
		}
	}
	dec->close(x);
	return 0;
}

int
code_load(struct code *c, const char *path, char *err, size_t errlen)
{
	struct secmap sm = { NULL, 0, NULL };
	size_t i;
	int r = -1;

	memset(c, 0, sizeof(*c));
	if (elfobj_open(&c->eo, path, err, errlen) == -1)
		return -1;
	if (decoder_of(c->eo.machine) == NULL) {
		fail(err, errlen, "%s: machine %u: only x86-64 binaries are "
		    "supported", path, (unsigned)c->eo.machine);
		goto out;
	}
	c->prefbase = UINT64_MAX;
	for (i = 0; i < c->eo.nsegs; i++)
		if (c->eo.segs[i].flags & PF_X) {
			c->prefbase = c->eo.segs[i].vaddr & ~(uint64_t)0xfff;
			break;
		}
	if (c->prefbase == UINT64_MAX) {
		fail(err, errlen, "%s: no executable segment found", path);
		goto out;
	}
	if (c->eo.type == ET_DYN)
		c->pabase = elfobj_base(&c->eo);
	if (c->eo.buildid_len > 0)
		hex_encode(c->buildid, c->eo.buildid, c->eo.buildid_len);
	if (read_sections(c, &sm, err, errlen) == -1 ||
	    read_symbols(c, &sm, err, errlen) == -1 ||
	    sweep(c, err, errlen) == -1)
		goto out;
	r = 0;
out:
	free(sm.text);
	free(sm.data);
	return r;
}

void
code_free(struct code *c)
{
	size_t i;

	for (i = 0; i < c->nsecs; i++) {
		free(c->secs[i].info);
		free(c->secs[i].uncond);
	}
	free(c->secs);
	free(c->syms);
	elfobj_close(&c->eo);
	memset(c, 0, sizeof(*c));
}

/* the first section that ends after a, or nsecs */
static size_t
sec_from(const struct code *c, uint64_t a)
{
	size_t lo = 0, hi = c->nsecs, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (c->secs[m].addr + c->secs[m].size <= a)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

unsigned
code_info(const struct code *c, uint64_t a)
{
	size_t i = sec_from(c, a);

	if (i == c->nsecs || a < c->secs[i].addr)
		return 0;
	return c->secs[i].info[a - c->secs[i].addr];
}

uint64_t
code_next(const struct code *c, uint64_t a)
{
	size_t i;

	for (i = sec_from(c, a); i < c->nsecs; i++) {
		const struct textsec *s = &c->secs[i];
		uint64_t o = a > s->addr ? a - s->addr : 0;

		for (; o < s->size; o++)
			if (s->info[o] != 0)
				return s->addr + o;
	}
	return UINT64_MAX;
}

const char *
code_symbol_at(const struct code *c, uint64_t a)
{
	size_t i = sec_from(c, a), lo, hi, m;
	const struct textsec *s;

	if (i == c->nsecs || a < c->secs[i].addr)
		return NULL;
	s = &c->secs[i];
	lo = s->symlo;
	hi = s->symhi;
	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (c->syms[m].addr < a)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < s->symhi && c->syms[lo].addr == a ? c->syms[lo].name :
	    NULL;
}

int
code_crosses_uncond(const struct code *c, uint64_t start, uint64_t end)
{
	size_t i;

	for (i = sec_from(c, start); i < c->nsecs; i++) {
		const struct textsec *s = &c->secs[i];
		uint64_t o, e;

		if (s->addr >= end)
			break;
		o = start > s->addr ? start - s->addr : 0;
		e = end - s->addr < s->size ? end - s->addr : s->size;
		while (o < e) {
			uint64_t w = s->uncond[o / 64] >> (o % 64);

			if (w != 0) {
				o += (uint64_t)__builtin_ctzll(w);
				return o < e;
			}
			o = (o / 64 + 1) * 64;
		}
	}
	return 0;
}
