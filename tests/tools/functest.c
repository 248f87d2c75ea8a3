/* See COPYING file for copyright and license details. */
/*
 * functest: exercises libbolt/elf/functab.c for tests/lib/30-functab.bats.
 *   functest list BIN      the function table: address size maxsize flags
 *                          name filename parent, then the entry points
 *   functest probe BIN     a pre-aggregated probe: "B 0 <a> <a> 0" for the
 *                          addresses of the code sections (every byte of a
 *                          small binary, the interesting ones of a large)
 *   functest expect BIN    the fdata line perf2bolt writes for each probe:
 *                          "0 [unknown] 0 1 <name> <off> 0 <a>", nothing
 *                          where no function covers a
 *   functest name BIN NAME the function of an fdata name
 */
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "elfobj.h"
#include "functab.h"

/* all bytes of the code sections when they are this small, else a
 * sample around every function and symbol */
#define ALLBYTES	(256u << 10)

static void
emit(struct wbuf *w, const struct functab *ft, uint64_t a, int expect)
{
	const struct bfunc *f;

	if (a == 0)
		return;
	if (!expect) {
		wb_puts(w, "B 0 ");
		wb_hex(w, a);
		wb_putc(w, ' ');
		wb_dec(w, a);
		wb_puts(w, " 0\n");
		return;
	}
	if ((f = functab_find(ft, a)) == NULL)
		return;
	wb_puts(w, "0 [unknown] 0 1 ");
	functab_put_name(w, f->name);
	wb_putc(w, ' ');
	wb_hex(w, a - f->addr);
	wb_puts(w, " 0 ");
	wb_dec(w, a);
	wb_putc(w, '\n');
}

static int
u64cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void
probe(const struct functab *ft, int expect)
{
	struct wbuf w;
	uint64_t total = 0, a, *v = NULL;
	size_t i, n = 0, cap = 0, k;

	wb_init(&w, stdout, 1 << 16);
	for (i = 0; i < ft->nsecs; i++)
		if (ft->secs[i].flags & SHF_EXECINSTR)
			total += ft->secs[i].size;
	for (i = 0; i < ft->nsecs; i++) {
		const struct fsec *s = &ft->secs[i];

		if (!(s->flags & SHF_EXECINSTR))
			continue;
		if (total <= ALLBYTES) {
			for (a = s->addr; a <= s->addr + s->size; a++) {
				xgrow(&v, &cap, n + 1, sizeof(*v));
				v[n++] = a;
			}
		} else {
			for (a = s->addr; a <= s->addr + s->size; a += 61) {
				xgrow(&v, &cap, n + 1, sizeof(*v));
				v[n++] = a;
			}
			xgrow(&v, &cap, n + 2, sizeof(*v));
			v[n++] = s->addr + s->size;
			v[n++] = s->addr + s->size - 1;
		}
	}
	if (total > ALLBYTES) {
		for (i = 0; i < ft->n; i++) {
			const struct bfunc *f = &ft->f[i];
			uint64_t pts[] = { f->addr, f->addr + 1, f->addr - 1,
			    f->addr + f->size - 1, f->addr + f->size,
			    f->addr + f->maxsize - 1, f->addr + f->maxsize };

			xgrow(&v, &cap, n + NELEM(pts), sizeof(*v));
			for (k = 0; k < NELEM(pts); k++)
				v[n++] = pts[k];
		}
		for (i = 0; i < ft->nsyms; i++) {
			xgrow(&v, &cap, n + 1, sizeof(*v));
			v[n++] = ft->syms[i].addr;
		}
	}
	qsort(v, n, sizeof(*v), u64cmp);
	for (i = 0; i < n; i++)
		if (i == 0 || v[i] != v[i - 1])
			emit(&w, ft, v[i], expect);
	free(v);
	wb_free(&w);
}

int
main(int argc, char **argv)
{
	struct elfobj eo;
	struct functab ft;
	char err[512];
	size_t i;

	prog_init(argc, argv);
	if (argc < 3)
		prog_usage_error("usage: functest list|probe|expect|name BIN");
	if (elfobj_open(&eo, argv[2], err, sizeof(err)) == -1) {
		fprintf(stderr, "%s: %s\n", progname, err);
		return 1;
	}
	if (functab_load(&ft, &eo, err, sizeof(err)) == -1) {
		fprintf(stderr, "%s: %s\n", progname, err);
		elfobj_close(&eo);
		return 1;
	}
	if (strcmp(argv[1], "list") == 0) {
		printf("# relocs %d, %zu functions, %zu FDEs, %zu entries\n",
		    ft.has_relocs, ft.n, ft.nfdes, ft.nsyms);
		for (i = 0; i < ft.n; i++) {
			const struct bfunc *f = &ft.f[i];

			printf("%" PRIx64 " %" PRIx64 " %" PRIx64 " %02x %s %s %s\n",
			    f->addr, f->size, f->maxsize, f->flags, f->name,
			    f->filename, ft.f[f->parent].name);
		}
		for (i = 0; i < ft.nsyms; i++)
			printf("entry %" PRIx64 " %s in %s\n", ft.syms[i].addr,
			    ft.syms[i].name, ft.f[ft.syms[i].func].name);
	} else if (strcmp(argv[1], "probe") == 0)
		probe(&ft, 0);
	else if (strcmp(argv[1], "expect") == 0)
		probe(&ft, 1);
	else if (strcmp(argv[1], "name") == 0 && argc == 4) {
		const struct bfunc *f = functab_by_name(&ft, argv[3]);

		if (f == NULL)
			return 1;
		printf("%" PRIx64 " %s\n", f->addr, f->name);
	} else
		prog_usage_error("unknown mode %s", argv[1]);
	functab_free(&ft);
	elfobj_close(&eo);
	xclose_stdout();
	return 0;
}
