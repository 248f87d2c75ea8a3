/* See COPYING file for copyright and license details. */
/* bin.c: the binary bbmap reads: its map sections and function names. */
#include <err.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#include "bbmap.h"

static int
symcmp(const void *a, const void *b)
{
	const struct bsym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* STT_FUNC symbols of .symtab (llvm-readobj names map entries from
 * .symtab only), with the section address added in a relocatable object
 * as LLVM's getSymbolAddress does */
static void
load_syms(struct bin *b)
{
	Elf *e = b->eo.elf;
	Elf_Scn *scn = NULL, *ts;
	GElf_Shdr sh, tsh;
	GElf_Sym s;
	Elf_Data *d;
	size_t i, n, cap = 0;
	const char *name;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_SYMTAB)
			continue;
		if ((d = elf_getdata(scn, NULL)) == NULL)
			errx(1, "%s: .symtab: %s", b->path, elf_errmsg(-1));
		n = d->d_size / gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
		for (i = 0; i < n; i++) {
			if (gelf_getsym(d, (int)i, &s) == NULL)
				break;
			if (GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    s.st_shndx == SHN_UNDEF)
				continue;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			if (name == NULL)
				continue;
			xgrow(&b->syms, &cap, b->nsyms + 1, sizeof(*b->syms));
			b->syms[b->nsyms].addr = s.st_value;
			if (b->eo.type == ET_REL && s.st_shndx < SHN_LORESERVE &&
			    (ts = elf_getscn(e, s.st_shndx)) != NULL &&
			    gelf_getshdr(ts, &tsh) != NULL)
				b->syms[b->nsyms].addr += tsh.sh_addr;
			b->syms[b->nsyms].index = (uint32_t)i;
			b->syms[b->nsyms].shndx = s.st_shndx;
			b->syms[b->nsyms].name = name;
			b->nsyms++;
		}
		break;
	}
	if (b->nsyms)
		qsort(b->syms, b->nsyms, sizeof(*b->syms), symcmp);
}

static const char *
secname(const struct bin *b, size_t idx)
{
	Elf_Scn *scn;
	GElf_Shdr sh;
	size_t shstrndx;
	const char *n;

	if ((scn = elf_getscn(b->eo.elf, idx)) == NULL ||
	    gelf_getshdr(scn, &sh) == NULL ||
	    elf_getshdrstrndx(b->eo.elf, &shstrndx) == -1 ||
	    (n = elf_strptr(b->eo.elf, shstrndx, sh.sh_name)) == NULL)
		return "?";
	return n;
}

/* an error of the map as a line: "file: offset 0x..: message", and for a
 * fault inside a section's bytes the section and the offset in it */
static char *
errline(const struct bin *b, const struct bam_err *err)
{
	char l[1024];

	if (err->insec)
		snprintf(l, sizeof(l), "%s: offset 0x%" PRIx64 ": %s (section %"
		    PRIu32 ")%s offset 0x%" PRIx64 ": %s", b->path, err->off,
		    secname(b, err->sec), err->sec, err->compressed ?
		    " decompressed," : "", err->secoff, err->msg);
	else
		snprintf(l, sizeof(l), "%s: offset 0x%" PRIx64 ": %s", b->path,
		    err->off, err->msg);
	return xstrdup(l);
}

/* --dump: a section that fails is left out, its error kept for the end */
static void
keep_err(void *arg, const struct bam_err *err)
{
	struct bin *b = arg;

	xgrow(&b->errs, &b->caperrs, b->nerrs + 1, sizeof(*b->errs));
	b->errs[b->nerrs++] = errline(b, err);
}

void
bin_open(struct bin *b, const char *path, int keepgoing)
{
	struct bam_err err;
	char ebuf[256], *l;

	memset(b, 0, sizeof(*b));
	b->path = path;
	/* --dump (keepgoing) reads object files as llvm-readobj does; a
	 * profile is of a binary */
	if ((keepgoing ? elfobj_open_object(&b->eo, path, ebuf, sizeof(ebuf)) :
	    elfobj_open(&b->eo, path, ebuf, sizeof(ebuf))) == -1)
		errx(1, "%s", ebuf);
	if (bam_load(&b->map, &b->eo, &b->nsec, &err,
	    keepgoing ? keep_err : NULL, b) == -1 &&
	    (!keepgoing || b->nerrs == 0)) {
		l = errline(b, &err);
		errx(1, "%s", l);
	}
	load_syms(b);
}

void
bin_close(struct bin *b)
{
	bam_free(&b->map);
	free(b->syms);
	while (b->nerrs > 0)
		free(b->errs[--b->nerrs]);
	free(b->errs);
	elfobj_close(&b->eo);
}

const char *
bin_name(const struct bin *b, uint64_t addr, uint32_t text)
{
	size_t lo = 0, hi = b->nsyms, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (b->syms[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < b->nsyms && b->syms[lo].addr == addr; lo++)
		if (b->eo.type != ET_REL || b->syms[lo].shndx == text)
			return b->syms[lo].name;
	return NULL;
}
