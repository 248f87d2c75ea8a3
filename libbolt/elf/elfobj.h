/* See COPYING file for copyright and license details. */
/*
 * elfobj.h: an ELF file through libelf (elfobj.c), the base of the BOLT
 * layer's view of a binary (functab.h).
 */
#ifndef PROFPIPE_ELFOBJ_H
#define PROFPIPE_ELFOBJ_H

#include <stddef.h>
#include <stdint.h>

/* elfobj.c: ELF files through libelf, every offset range-checked */
struct elf_seg {		/* a PT_LOAD segment */
	uint64_t	vaddr, memsz, offset, filesz, align;
	uint32_t	flags;	/* PF_X, PF_W, PF_R */
};
struct elf_sym {		/* a function symbol */
	uint64_t	addr, size;	/* size may be 0 */
	char		*name;
	unsigned char	bind, type;
	uint16_t	shndx;
	int		file;		/* index into elfobj.files or -1 (STT_FILE before it) */
};
struct elfobj {
	char		*path;
	int		 fd;
	void		*elf;		/* Elf * */
	int		 is64, swap;	/* swap: the file's byte order is not the host's */
	uint16_t	 type;		/* ET_EXEC, ET_DYN, ... */
	uint16_t	 machine;
	uint64_t	 entry;
	struct elf_seg	*segs;		/* PT_LOAD only, in file order */
	size_t		 nsegs;
	uint8_t		 buildid[64];
	size_t		 buildid_len;	/* 0: none */
	struct elf_sym	*syms;		/* STT_FUNC (and GNU_IFUNC) from .symtab, else .dynsym; sorted by addr */
	size_t		 nsyms;
	char		**files;	/* STT_FILE names */
	size_t		 nfiles;
	int		 mapped;	/* elfobj_release: 0 not known yet,
					 * 1 a read-only file map, -1 not */
};
/* open a binary (an executable or a shared object: what a profile is
 * of) and read headers, segments, build-id; -1 with a message in errbuf,
 * also for a relocatable object, a core file or any ELF file without
 * PT_LOAD */
int	 elfobj_open(struct elfobj *, const char *path, char *errbuf, size_t errlen);
/* the same for any ELF file, object files too (bbmap --dump reads the
 * maps of .o files as llvm-readobj does) */
int	 elfobj_open_object(struct elfobj *, const char *path, char *errbuf,
	    size_t errlen);
/* load function symbols (sorted by address, then by name); -1 on error */
int	 elfobj_load_syms(struct elfobj *, char *errbuf, size_t errlen);
/* find a section by name: returns 1 and fills, 0 if absent, -1 on error */
int	 elfobj_section(struct elfobj *, const char *name, uint64_t *addr,
	    uint64_t *off, uint64_t *size, uint32_t *type);
/* read size bytes at file offset off (checked against file size) */
int	 elfobj_read(struct elfobj *, uint64_t off, void *dst, size_t size);
/* lowest PT_LOAD vaddr aligned down to its alignment (BOLT's base for PIE) */
uint64_t elfobj_base(const struct elfobj *);
/* the pages of the file read so far leave memory (they are read again
 * from the file, through the page cache, if touched): after a pass over
 * the whole file, its peak memory is what is touched later.  Nothing if
 * libelf holds the file other than as a read-only map of it. */
void	 elfobj_release(struct elfobj *);
/* from now on the file is read here and there: a page touched is the
 * one mapped (no fault-around, no read-ahead), so that the pages in
 * memory are those read */
void	 elfobj_random(struct elfobj *);
void	 elfobj_close(struct elfobj *);

#endif
