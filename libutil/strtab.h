/* See COPYING file for copyright and license details. */
/*
 * strtab.h: a table of distinct strings numbered in order of first
 * appearance, with an open-addressing index: the interning of build-ids
 * and event names (pa.c) and of paths (preagg's build-id records).
 */
#ifndef PROFPIPE_STRTAB_H
#define PROFPIPE_STRTAB_H

#include <stddef.h>
#include <stdint.h>

struct strtab {
	char		**s;		/* the strings, by number */
	uint32_t	 n;
	size_t		 cap;
	uint32_t	*h;		/* each string's hash, by number */
	uint32_t	*idx;		/* number + 1, 0 empty */
	size_t		 idxcap;	/* a power of two, or 0 */
	int		 byref;		/* the strings are the caller's, held
					 * where they are (strtab_intern_ref):
					 * neither copied nor freed */
};

/* the number of s[0..len) (which may hold no NUL), added if new; a
 * table of UINT32_MAX - 3 strings is a fatal error */
uint32_t strtab_intern(struct strtab *, const char *s, size_t len);
/* the same for a table of strings held by reference (set byref before
 * the first): s itself is kept, so it must be NUL-terminated at len and
 * live as long as the table; no copy is made */
uint32_t strtab_intern_ref(struct strtab *, const char *s, size_t len);
/* the number of s[0..len), or -1 if it is not in the table */
long	 strtab_find(const struct strtab *, const char *s, size_t len);
void	 strtab_free(struct strtab *);

#endif
