/* See COPYING file for copyright and license details. */
/*
 * batbin.c: a BOLTed binary's BAT tables loaded and checked against the
 * binary, and its functions matched to the input binary's (batbin.h).
 * Shared by batmap and yamlwrite --bat.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"
#include "elfobj.h"
#include "bat.h"
#include "batbin.h"
#include "functab.h"

static int
fail(const struct batbin *b, char *err, size_t errlen, const char *fmt, ...)
    PRINTFLIKE(4, 5);
static int
fail(const struct batbin *b, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(err, errlen, "%s: ", b->path);
	if (n < 0 || (size_t)n >= errlen)
		return -1;
	va_start(ap, fmt);
	vfailf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* an error in the tables at section offset off */
static int
batfail(const struct batbin *b, char *err, size_t errlen, size_t off,
    const char *fmt, ...) PRINTFLIKE(5, 6);
static int
batfail(const struct batbin *b, char *err, size_t errlen, size_t off,
    const char *fmt, ...)
{
	va_list ap;
	size_t n;
	int k;

	k = snprintf(err, errlen, "%s: offset 0x%llx (%s+0x%zx): ", b->path,
	    (unsigned long long)(b->secoff + off), BAT_SECTION, off);
	if (k < 0 || (size_t)k >= errlen)
		return -1;
	n = (size_t)k;
	va_start(ap, fmt);
	k = vsnprintf(err + n, errlen - n, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= errlen - n)
		return -1;
	n += (size_t)k;
	if (b->producer[0] != '\0')
		snprintf(err + n, errlen - n, " (written by %s)", b->producer);
	return -1;
}

static int
load_xsecs(struct batbin *b, char *err, size_t errlen)
{
	Elf *elf = b->bin.eo.elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t cap = 0;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL)
			return fail(b, err, errlen, "bad section header");
		if ((sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
		    (SHF_ALLOC | SHF_EXECINSTR) || sh.sh_type != SHT_PROGBITS)
			continue;
		xgrow(&b->xs, &cap, b->nxs + 1, sizeof(*b->xs));
		b->xs[b->nxs++] = (struct batbin_xsec){ sh.sh_addr, sh.sh_size };
	}
	return 0;
}

/* the first sized function symbol at addr, else any, else NULL */
static const struct elf_sym *
sym_at(const struct elfobj *eo, uint64_t addr)
{
	size_t lo = 0, hi = eo->nsyms, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (eo->syms[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < eo->nsyms && eo->syms[lo].addr == addr ? &eo->syms[lo] :
	    NULL;
}

/* is name the symbol of some function at addr */
static int
has_name_at(const struct elfobj *eo, uint64_t addr, const char *name,
    size_t len)
{
	const struct elf_sym *s = sym_at(eo, addr);

	for (; s != NULL && s < eo->syms + eo->nsyms && s->addr == addr; s++)
		if (strlen(s->name) == len && memcmp(s->name, name, len) == 0)
			return 1;
	return 0;
}

/* "foo.cold.3" or "foo.cold": length of "foo", 0 if no such suffix */
static size_t
cold_stem(const char *name)
{
	const char *p = strstr(name, ".cold");
	const char *q;

	while (p != NULL) {
		q = p + 5;
		if (*q == '\0')
			return (size_t)(p - name);
		if (*q == '.' && q[1] != '\0') {
			for (q++; *q >= '0' && *q <= '9'; q++)
				;
			if (*q == '\0')
				return (size_t)(p - name);
		}
		p = strstr(p + 1, ".cold");
	}
	return 0;
}

/* does a cold-named symbol at the fragment at addr name the function at
 * parent ("foo.cold.0" at addr, "foo" at parent).  Any of them: on
 * AArch64 BOLT also writes "$x.cold.0" for the $x mapping symbol at the
 * input function's start, next to the real name's */
static int
cold_name_agrees(const struct batbin *b, uint64_t addr, uint64_t parent)
{
	const struct elfobj *eo = &b->bin.eo;
	const struct elf_sym *s = sym_at(eo, addr);
	size_t stem;

	for (; s != NULL && s < eo->syms + eo->nsyms && s->addr == addr; s++)
		if ((stem = cold_stem(s->name)) != 0 &&
		    has_name_at(eo, parent, s->name, stem))
			return 1;
	return 0;
}

/* how many cold fragments' names agree with their BAT parents */
static size_t
names_agree(const struct batbin *b)
{
	const struct bat *t = &b->bat;
	size_t i, stem, n = 0;

	for (i = t->nhot; i < t->nfrag; i++) {
		if (b->name[i] == NULL || (stem = cold_stem(b->name[i])) == 0)
			continue;
		if (cold_name_agrees(b, t->frag[i].addr,
		    t->frag[t->frag[i].parent].addr))
			n++;
	}
	return n;
}

static int
in_xsec(const struct batbin *b, uint64_t a, int atend)
{
	size_t j;

	for (j = 0; j < b->nxs; j++)
		if (a >= b->xs[j].addr && (a < b->xs[j].addr + b->xs[j].size ||
		    (atend && a == b->xs[j].addr + b->xs[j].size)))
			return 1;
	return 0;
}

/* the checks that need the binary: each fragment in an executable
 * section, each block within its fragment (or at its end: BOLT's entries
 * for deleted blocks), each branch entry within its fragment or another
 * fragment of the same function (BOLT 19 puts in the hot map branches it
 * duplicated into a cold fragment), cold parents as the names say.  The
 * bounds come from the function symbol at the fragment; a fragment
 * without one (a function BOLT knows from an untyped symbol and its
 * .eh_frame entry, whose symbol it writes back untyped) has its entries
 * checked against the section only.  A block at address 0 is one BOLT
 * 19 did not emit (bat.c) */
static int
check_bolted(struct batbin *b, char *err, size_t errlen)
{
	struct bat *t = &b->bat;
	const struct bat_frag *f, *g;
	const struct bat_entry *x;
	const struct elf_sym *s;
	uint64_t a, *size;
	size_t i, j, stem;
	int rc = 0;

	b->name = xcalloc(t->nfrag ? t->nfrag : 1, sizeof(*b->name));
	size = xcalloc(t->nfrag ? t->nfrag : 1, sizeof(*size));
	for (i = 0; i < t->nfrag; i++) {
		f = &t->frag[i];
		if (!in_xsec(b, f->addr, 0)) {
			rc = batfail(b, err, errlen, f->secoff, "%s fragment at "
			    "0x%llx lies in no executable section", f->cold ?
			    "cold" : "hot", (unsigned long long)f->addr);
			goto out;
		}
		if (b->bin.eo.nsyms == 0)
			continue;
		if ((s = sym_at(&b->bin.eo, f->addr)) == NULL)
			continue;
		b->name[i] = s->name;
		size[i] = s->size;
	}
	for (i = 0; i < t->nfrag; i++) {
		f = &t->frag[i];
		for (j = 0; j < f->nent; j++) {
			x = &f->ent[j];
			a = bat_entry_addr(f, x);
			if (a == 0 && !x->branch)
				continue;
			if (!in_xsec(b, a, !x->branch)) {
				rc = batfail(b, err, errlen, f->secoff, "entry at "
				    "0x%llx of the fragment at 0x%llx lies in no "
				    "executable section", (unsigned long long)a,
				    (unsigned long long)f->addr);
				goto out;
			}
			if (b->bin.eo.nsyms == 0 || size[i] == 0 || (a >= f->addr &&
			    (a - f->addr < size[i] || (a - f->addr == size[i] &&
			    !x->branch))))
				continue;
			g = x->branch ? bat_find_le(t, a) : NULL;
			if (g != NULL && g->parent == f->parent &&
			    (size[g - t->frag] == 0 ||
			    a < g->addr + size[g - t->frag]))
				continue;
			rc = batfail(b, err, errlen, f->secoff, "%s entry at "
			    "0x%llx beyond the end of %s (0x%llx, %llu bytes)",
			    x->branch ? "branch" : "block", (unsigned long long)a,
			    b->name[i], (unsigned long long)f->addr,
			    (unsigned long long)size[i]);
			goto out;
		}
	}
	if (t->ambiguous) {
		/* the two readings of the cold parents both hold: take the
		 * one the symbol names agree with */
		size_t nmain, n19;

		bat_set_coldidx(t, BAT_COLD_MAIN);
		nmain = names_agree(b);
		bat_set_coldidx(t, BAT_COLD_V19);
		n19 = names_agree(b);
		if (nmain >= n19)
			bat_set_coldidx(t, BAT_COLD_MAIN);
	}
	for (i = t->nhot; i < t->nfrag; i++) {
		f = &t->frag[i];
		if (b->name[i] == NULL || (stem = cold_stem(b->name[i])) == 0)
			continue;
		if (!cold_name_agrees(b, f->addr, t->frag[f->parent].addr)) {
			rc = batfail(b, err, errlen, f->secoff, "cold fragment %s "
			    "at 0x%llx has the parent 0x%llx (%s) in the tables",
			    b->name[i], (unsigned long long)f->addr,
			    (unsigned long long)t->frag[f->parent].addr,
			    b->name[f->parent] ? b->name[f->parent] :
			    "no symbol");
			goto out;
		}
	}
out:
	free(size);
	return rc;
}

int
batbin_open(struct batbin *b, const char *path, char *err, size_t errlen)
{
	uint64_t off, size, isize, ioff;
	uint32_t type;
	uint8_t *buf, *info;
	struct bat_err e;
	struct stat st;
	int rc;

	memset(b, 0, sizeof(*b));
	b->path = path;
	if (elfobj_open(&b->bin.eo, path, err, errlen) == -1)
		return -1;
	if (elfobj_load_syms(&b->bin.eo, err, errlen) == -1)
		goto bad;
	rc = elfobj_section(&b->bin.eo, BAT_INFO_SECTION, NULL, &ioff, &isize,
	    &type);
	if (rc == 1 && type == SHT_NOTE && isize <= 4096) {
		info = xmalloc(isize ? isize : 1);
		if (elfobj_read(&b->bin.eo, ioff, info, isize) == 0)
			bat_producer(info, isize, b->producer,
			    sizeof(b->producer));
		free(info);
	}
	rc = elfobj_section(&b->bin.eo, BAT_SECTION, NULL, &off, &size, &type);
	if (rc == -1) {
		fail(b, err, errlen, "bad section headers");
		goto bad;
	}
	if (rc == 0) {
		fail(b, err, errlen, "no %s section: not written by llvm-bolt "
		    "--enable-bat", BAT_SECTION);
		goto bad;
	}
	b->secoff = off;
	if (type != SHT_NOTE) {
		fail(b, err, errlen, "%s is not a note section (type %u)",
		    BAT_SECTION, type);
		goto bad;
	}
	if (fstat(b->bin.eo.fd, &st) == -1) {
		fail(b, err, errlen, "%s", strerror(errno));
		goto bad;
	}
	if (off > (uint64_t)st.st_size || size > (uint64_t)st.st_size - off) {
		fail(b, err, errlen, "%s (offset 0x%llx, %llu bytes) runs past "
		    "the end of the file (%llu bytes)", BAT_SECTION,
		    (unsigned long long)off, (unsigned long long)size,
		    (unsigned long long)st.st_size);
		goto bad;
	}
	buf = xmalloc(size ? (size_t)size : 1);
	if (elfobj_read(&b->bin.eo, off, buf, (size_t)size) == -1) {
		free(buf);
		fail(b, err, errlen, "%s (offset 0x%llx, %llu bytes) runs past "
		    "the end of the file", BAT_SECTION,
		    (unsigned long long)off, (unsigned long long)size);
		goto bad;
	}
	rc = bat_decode(&b->bat, buf, (size_t)size, &e);
	free(buf);
	if (rc == -1) {
		batfail(b, err, errlen, e.off, "%s", e.msg);
		goto bad;
	}
	if (load_xsecs(b, err, errlen) == -1 ||
	    check_bolted(b, err, errlen) == -1)
		goto bad;
	return 0;
bad:
	batbin_close(b);
	return -1;
}

void
batbin_close(struct batbin *b)
{
	bat_free(&b->bat);
	boltbin_close(&b->bin);
	free(b->xs);
	free(b->name);
	b->xs = NULL;
	b->name = NULL;
	b->nxs = 0;
}

/* a local's "name/file/N": the "name/file" part's length, 0 if none */
static size_t
namefile_len(const struct bfunc *f)
{
	const char *p;

	if (!(f->flags & BF_LOCAL) || f->filename == f->name ||
	    (p = strrchr(f->filename, '/')) == NULL)
		return 0;
	return (size_t)(p - f->filename);
}

static int
lfcmp(const void *a, const void *b)
{
	const struct bfunc *x = *(const struct bfunc *const *)a;
	const struct bfunc *y = *(const struct bfunc *const *)b;
	size_t lx = namefile_len(x), ly = namefile_len(y);
	int r = memcmp(x->filename, y->filename, lx < ly ? lx : ly);

	if (r != 0)
		return r;
	return lx < ly ? -1 : lx > ly;
}

void
batmatch_init(struct batmatch *m, const struct functab *bo,
    const struct functab *in)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	m->bo = bo;
	m->in = in;
	m->map = xcalloc(bo->n ? bo->n : 1, sizeof(*m->map));
	m->mapped = xcalloc(bo->n ? bo->n : 1, 1);
	for (i = 0; i < in->n; i++)
		if (namefile_len(&in->f[i]))
			m->nlocals++;
	m->locals = xcalloc(m->nlocals ? m->nlocals : 1, sizeof(*m->locals));
	m->nlocals = 0;
	for (i = 0; i < in->n; i++)
		if (namefile_len(&in->f[i]))
			m->locals[m->nlocals++] = &in->f[i];
	if (m->nlocals > 1)
		qsort(m->locals, m->nlocals, sizeof(*m->locals), lfcmp);
}

/* the input's function for a BOLTed one: the same name.  A local is the
 * input's local of the same name and source file when there is one such:
 * its number N in "name/file/N" counts symbols of that name in address
 * order, which BOLT changed. */
const struct bfunc *
batmatch_input(struct batmatch *m, const struct bfunc *bf)
{
	size_t i = (size_t)(bf - m->bo->f), lo, hi, mid;
	const struct bfunc *f = NULL, *key = bf;

	if (!m->mapped[i]) {
		m->mapped[i] = 1;
		if (namefile_len(bf)) {
			lo = 0;
			hi = m->nlocals;
			while (lo < hi) {
				mid = lo + (hi - lo) / 2;
				if (lfcmp(&m->locals[mid], &key) < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < m->nlocals && lfcmp(&m->locals[lo], &key) == 0 &&
			    (lo + 1 == m->nlocals ||
			    lfcmp(&m->locals[lo + 1], &key) != 0))
				f = m->locals[lo];
		}
		if (f == NULL)
			f = functab_by_name(m->in, bf->filename);
		if (f == NULL)
			f = functab_by_name(m->in, bf->name);
		if (f != NULL && strcmp(f->symname, bf->symname) != 0)
			f = NULL;
		m->map[i] = f;
	}
	return m->map[i];
}

void
batmatch_free(struct batmatch *m)
{
	free(m->map);
	free(m->mapped);
	free(m->locals);
	memset(m, 0, sizeof(*m));
}
