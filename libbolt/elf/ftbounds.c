/* See COPYING file for copyright and license details. */
/*
 * ftbounds.c: each function's bounds as adjustFunctionBoundaries sets
 * them (MaxSize to the next function or the end of the section, a zero
 * size grown to it) and its .cold fragments linked to their parents
 * (registerFragments).
 */
#include <stdlib.h>
#include <string.h>

#include "ftint.h"
#include "a64dec.h"

/* adjustFunctionBoundaries; the symbols still in FileSymRefs are the
 * live entries of d->syms, which are sorted by address */
void
ft_adjust_boundaries(struct disc *d)
{
	struct functab *ft = d->ft;
	size_t i, k, lo, hi, m;

	for (i = 0; i < d->nf; i++) {
		struct dfunc *f = &d->f[i];
		const struct dfunc *next = i + 1 < d->nf ? &d->f[i + 1] : NULL;
		uint64_t nextobj, maxsize;

		lo = 0;
		hi = d->nsyms;
		while (lo < hi) {	/* upper_bound(addr) */
			m = lo + (hi - lo) / 2;
			if (d->syms[m].addr <= f->addr)
				lo = m + 1;
			else
				hi = m;
		}
		for (k = lo; k < d->nsyms; k++) {
			const struct rsym *s = &d->syms[k];

			if (s->dead)
				continue;
			if (next != NULL && s->addr >= next->addr)
				break;
			if (!ft_valid_in_scope(ft, f, s))
				break;
			/* x86 has no private label prefix to skip */
			ft_add_entry(d, s->addr, NULL);
			d->ent[d->nent - 1].func = (uint32_t)i;
		}
		nextobj = ft->secs[f->sec].addr + ft->secs[f->sec].size;
		while (k < d->nsyms && d->syms[k].dead)
			k++;
		if (k < d->nsyms && d->syms[k].addr < nextobj)
			nextobj = d->syms[k].addr;
		if (next != NULL && next->addr < nextobj)
			nextobj = next->addr;
		maxsize = nextobj - f->addr;
		if (maxsize < f->size) {
			f->flags |= BF_NONSIMPLE;
			f->maxsize = f->size;
			continue;
		}
		f->maxsize = maxsize;
		if (f->size == 0 && !(f->flags & BF_NONSIMPLE)) {
			f->size = maxsize;
			f->flags |= BF_ZEROSIZE;
		}
	}
}

/* registerFragments, simplified to names: the parent is the function
 * named by the fragment's name up to ".cold" (a global, else the only
 * local of that name, else the local of the same file) */
void
ft_link_fragments(struct functab *ft, struct disc *d)
{
	size_t i;

	for (i = 0; i < ft->n; i++) {
		struct bfunc *f = &ft->f[i];
		const struct bfunc *p = NULL;
		const char *c;
		char *pn;

		f->parent = (uint32_t)i;
		if (!(f->flags & BF_FRAGMENT) || f->symname == NULL)
			continue;
		c = ft_cold_suffix(f->symname);
		pn = xstrndup(f->symname, (size_t)(c - f->symname));
		/* getBinaryDataByName: any of a function's names, so a
		 * fragment named after an alias (g++'s C2 constructor, the
		 * function being named after its C1) finds it */
		if ((p = functab_by_name(ft, pn)) == NULL) {
			char *ln = NULL, *fn = NULL;
			const char *file = NULL;

			if (f->filename != f->name) {
				/* name/file/N: take the file */
				const char *a = strchr(f->filename +
				    strlen(f->symname), '/');
				const char *b = a ? strrchr(a + 1, '/') : NULL;

				if (a != NULL && b != NULL)
					file = a + 1, fn = xstrndup(file,
					    (size_t)(b - file));
			}
			p = NULL;
			if (fn != NULL) {
				size_t k;

				for (k = 1; k < 1000 && p == NULL; k++) {
					const struct bfunc *q;

					free(ln);
					if (asprintf(&ln, "%s/%s/%zu", pn, fn, k) == -1)
						break;
					q = functab_by_name(ft, ln);
					if (q == NULL)
						break;
					if (strcmp(q->filename, ln) == 0)
						p = q;
				}
			}
			if (p == NULL) {
				free(ln);
				ln = NULL;
				if (asprintf(&ln, "%s/1", pn) != -1)
					p = functab_by_name(ft, ln);
			}
			free(ln);
			free(fn);
		}
		free(pn);
		if (p != NULL && p != f)
			f->parent = (uint32_t)(p - ft->f);
	}
	(void)d;
}
