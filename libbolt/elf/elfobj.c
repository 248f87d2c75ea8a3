/* See COPYING file for copyright and license details. */
/*
 * elfobj.c: the parts of an ELF file the tools need (PT_LOAD segments,
 * build-id, function symbols, sections), read through libelf with every
 * offset checked.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
#include "elfobj.h"


/* look for NT_GNU_BUILD_ID in the note data d */
static void
find_buildid(struct elfobj *eo, Elf_Data *d)
{
	GElf_Nhdr nh;
	size_t off = 0, noff, doff;

	while (off < d->d_size &&
	    (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    memcmp((char *)d->d_buf + noff, "GNU", 4) == 0 &&
		    nh.n_descsz > 0 && nh.n_descsz <= sizeof(eo->buildid)) {
			memcpy(eo->buildid, (char *)d->d_buf + doff, nh.n_descsz);
			eo->buildid_len = nh.n_descsz;
			return;
		}
	}
}

/* any: an object file or a core file too (elfobj_open_object) */
static int
open_elf(struct elfobj *eo, const char *path, int any, char *errbuf,
    size_t errlen)
{
	GElf_Ehdr eh;
	GElf_Phdr ph;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t i, nph;
	Elf *e;

	memset(eo, 0, sizeof(*eo));
	eo->fd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return failf(errbuf, errlen, "libelf: %s", elf_errmsg(-1));
	if ((eo->fd = open(path, O_RDONLY)) == -1)
		return failf(errbuf, errlen, "%s: %s", path, strerror(errno));
	eo->path = xstrdup(path);
	if ((e = elf_begin(eo->fd, ELF_C_READ_MMAP, NULL)) == NULL ||
	    elf_kind(e) != ELF_K_ELF) {
		if (e != NULL)
			elf_end(e);
		elfobj_close(eo);
		return failf(errbuf, errlen, "%s: not an ELF file", path);
	}
	eo->elf = e;
	if (gelf_getehdr(e, &eh) == NULL) {
		elfobj_close(eo);
		return failf(errbuf, errlen, "%s: bad ELF header: %s", path,
		    elf_errmsg(-1));
	}
	eo->is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	/* libelf converts what it returns; the bytes of a section read as
	 * they are (a map, a note) are in the file's order */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	eo->swap = eh.e_ident[EI_DATA] == ELFDATA2LSB;
#else
	eo->swap = eh.e_ident[EI_DATA] == ELFDATA2MSB;
#endif
	eo->type = eh.e_type;
	eo->machine = eh.e_machine;
	eo->entry = eh.e_entry;
	if (elf_getphdrnum(e, &nph) != 0) {
		elfobj_close(eo);
		return failf(errbuf, errlen, "%s: bad program headers: %s",
		    path, elf_errmsg(-1));
	}
	for (i = 0; i < nph; i++) {
		if (gelf_getphdr(e, (int)i, &ph) == NULL) {
			elfobj_close(eo);
			return failf(errbuf, errlen, "%s: bad program header %zu",
			    path, i);
		}
		if (ph.p_type == PT_LOAD) {
			eo->segs = xreallocarray(eo->segs, eo->nsegs + 1,
			    sizeof(*eo->segs));
			eo->segs[eo->nsegs++] = (struct elf_seg){ ph.p_vaddr,
			    ph.p_memsz, ph.p_offset, ph.p_filesz, ph.p_align,
			    ph.p_flags };
		} else if (ph.p_type == PT_NOTE && eo->buildid_len == 0) {
			Elf_Data *d = elf_getdata_rawchunk(e, (int64_t)ph.p_offset,
			    ph.p_filesz, ELF_T_NHDR);

			if (d != NULL)
				find_buildid(eo, d);
		}
	}
	/*
	 * What a profile is of is loaded: a relocatable object (cc -c) has
	 * no address a sample could have, a core file is a process's
	 * memory (perf2bolt-19: "no PT_LOAD pheader seen").  Said here,
	 * where every tool opens its binaries.
	 */
	if (!any && eo->nsegs == 0) {
		elfobj_close(eo);
		return failf(errbuf, errlen, "%s: no PT_LOAD program header: "
		    "not an executable or shared object", path);
	}
	if (!any && eo->type != ET_EXEC && eo->type != ET_DYN) {
		elfobj_close(eo);
		if (eh.e_type == ET_CORE)
			return failf(errbuf, errlen, "%s: a core file: not an "
			    "executable or shared object", path);
		return failf(errbuf, errlen, "%s: ELF type %u: not an "
		    "executable or shared object", path, (unsigned)eh.e_type);
	}
	/* objects without program headers may still have the note section */
	while (eo->buildid_len == 0 && (scn = elf_nextscn(e, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) != NULL && sh.sh_type == SHT_NOTE) {
			Elf_Data *d = elf_getdata(scn, NULL);

			if (d != NULL)
				find_buildid(eo, d);
		}
	}
	return 0;
}

int
elfobj_open(struct elfobj *eo, const char *path, char *errbuf, size_t errlen)
{
	return open_elf(eo, path, 0, errbuf, errlen);
}

int
elfobj_open_object(struct elfobj *eo, const char *path, char *errbuf,
    size_t errlen)
{
	return open_elf(eo, path, 1, errbuf, errlen);
}

static int
symcmp(const void *a, const void *b)
{
	const struct elf_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* sized symbols first so that lookups prefer them */
	if ((x->size == 0) != (y->size == 0))
		return x->size == 0 ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int
load_table(struct elfobj *eo, Elf_Scn *scn, GElf_Shdr *sh, char *errbuf,
    size_t errlen)
{
	Elf_Data *d;
	GElf_Sym s;
	size_t i, n, cap = 0;
	int curfile = -1;
	const char *name;

	if ((d = elf_getdata(scn, NULL)) == NULL || sh->sh_entsize == 0)
		return failf(errbuf, errlen, "%s: bad symbol table", eo->path);
	n = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < n; i++) {
		if (gelf_getsym(d, (int)i, &s) == NULL)
			return failf(errbuf, errlen, "%s: bad symbol %zu",
			    eo->path, i);
		name = elf_strptr(eo->elf, sh->sh_link, s.st_name);
		if (name == NULL)
			name = "";
		if (GELF_ST_TYPE(s.st_info) == STT_FILE) {
			eo->files = xreallocarray(eo->files, eo->nfiles + 1,
			    sizeof(*eo->files));
			eo->files[eo->nfiles] = xstrdup(name);
			curfile = (int)eo->nfiles++;
			continue;
		}
		if ((GELF_ST_TYPE(s.st_info) != STT_FUNC &&
		    GELF_ST_TYPE(s.st_info) != STT_GNU_IFUNC) ||
		    s.st_shndx == SHN_UNDEF || *name == '\0')
			continue;
		xgrow(&eo->syms, &cap, eo->nsyms + 1, sizeof(*eo->syms));
		eo->syms[eo->nsyms++] = (struct elf_sym){ s.st_value, s.st_size,
		    xstrdup(name), (unsigned char)GELF_ST_BIND(s.st_info),
		    (unsigned char)GELF_ST_TYPE(s.st_info), s.st_shndx,
		    GELF_ST_BIND(s.st_info) == STB_LOCAL ? curfile : -1 };
	}
	return 0;
}

int
elfobj_load_syms(struct elfobj *eo, char *errbuf, size_t errlen)
{
	Elf_Scn *scn = NULL, *dyn = NULL, *tab = NULL;
	GElf_Shdr sh, tsh, dsh;

	while ((scn = elf_nextscn(eo->elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			return failf(errbuf, errlen, "%s: bad section header",
			    eo->path);
		if (sh.sh_type == SHT_SYMTAB && tab == NULL) {
			tab = scn;
			tsh = sh;
		} else if (sh.sh_type == SHT_DYNSYM && dyn == NULL) {
			dyn = scn;
			dsh = sh;
		}
	}
	if (tab != NULL) {
		if (load_table(eo, tab, &tsh, errbuf, errlen) == -1)
			return -1;
	} else if (dyn != NULL) {
		if (load_table(eo, dyn, &dsh, errbuf, errlen) == -1)
			return -1;
	}
	if (eo->nsyms)
		qsort(eo->syms, eo->nsyms, sizeof(*eo->syms), symcmp);
	return 0;
}

int
elfobj_section(struct elfobj *eo, const char *name, uint64_t *addr,
    uint64_t *off, uint64_t *size, uint32_t *type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx;
	const char *n;

	if (elf_getshdrstrndx(eo->elf, &shstrndx) != 0)
		return -1;
	while ((scn = elf_nextscn(eo->elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			return -1;
		if ((n = elf_strptr(eo->elf, shstrndx, sh.sh_name)) == NULL)
			continue;
		if (strcmp(n, name) == 0) {
			if (addr)
				*addr = sh.sh_addr;
			if (off)
				*off = sh.sh_offset;
			if (size)
				*size = sh.sh_size;
			if (type)
				*type = sh.sh_type;
			return 1;
		}
	}
	return 0;
}

int
elfobj_read(struct elfobj *eo, uint64_t off, void *dst, size_t size)
{
	struct stat st;
	ssize_t n;

	if (fstat(eo->fd, &st) == -1 || off > (uint64_t)st.st_size ||
	    size > (uint64_t)st.st_size - off)
		return -1;
	n = pread(eo->fd, dst, size, (off_t)off);
	return n == (ssize_t)size ? 0 : -1;
}

uint64_t
elfobj_base(const struct elfobj *eo)
{
	size_t i;
	uint64_t base = UINT64_MAX, a;

	for (i = 0; i < eo->nsegs; i++) {
		a = eo->segs[i].vaddr;
		if (eo->segs[i].align > 1)
			a &= ~(eo->segs[i].align - 1);
		if (a < base)
			base = a;
	}
	return base == UINT64_MAX ? 0 : base;
}

/* is [a, e) inside one read-only mapping of a file (/proc/self/maps)?
 * Only then may its pages be dropped: they come back from the file */
static int
file_mapping(uintptr_t a, uintptr_t e)
{
	FILE *fp = fopen("/proc/self/maps", "r");
	char *line = NULL, perm[8];
	size_t cap = 0;
	unsigned long lo, hi, ino;
	int ok = 0;

	if (fp == NULL)
		return 0;
	while (getline(&line, &cap, fp) != -1)
		if (sscanf(line, "%lx-%lx %7s %*s %*s %lu", &lo, &hi, perm,
		    &ino) == 4 && lo <= a && a < hi) {
			ok = e <= hi && ino != 0 && perm[1] == '-';
			break;
		}
	free(line);
	fclose(fp);
	return ok;
}

/* the page-aligned image of the file, if libelf holds it as a read-only
 * map of it (checked once) */
static int
mapped_image(struct elfobj *eo, uintptr_t *pa, uintptr_t *pe)
{
	size_t n;
	char *p;
	uintptr_t a, e;
	long pg = sysconf(_SC_PAGESIZE);

	if (eo->elf == NULL || pg <= 0 || eo->mapped < 0 ||
	    (p = elf_rawfile(eo->elf, &n)) == NULL || n == 0)
		return 0;
	a = ((uintptr_t)p + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
	e = ((uintptr_t)p + n) & ~((uintptr_t)pg - 1);
	if (eo->mapped == 0)
		eo->mapped = e > a && file_mapping(a, e) ? 1 : -1;
	*pa = a;
	*pe = e;
	return eo->mapped > 0;
}

void
elfobj_release(struct elfobj *eo)
{
	uintptr_t a, e;

	if (mapped_image(eo, &a, &e))
		(void)madvise((void *)a, e - a, MADV_DONTNEED);
}

void
elfobj_random(struct elfobj *eo)
{
	uintptr_t a, e;

	if (mapped_image(eo, &a, &e))
		(void)madvise((void *)a, e - a, MADV_RANDOM);
}

void
elfobj_close(struct elfobj *eo)
{
	size_t i;

	if (eo->elf != NULL)
		elf_end(eo->elf);
	if (eo->fd != -1)
		close(eo->fd);
	for (i = 0; i < eo->nsyms; i++)
		free(eo->syms[i].name);
	for (i = 0; i < eo->nfiles; i++)
		free(eo->files[i]);
	free(eo->syms);
	free(eo->files);
	free(eo->segs);
	free(eo->path);
	memset(eo, 0, sizeof(*eo));
	eo->fd = -1;
}
