/* See COPYING file for copyright and license details. */
/*
 * dump.c: bbmap --dump, the decoded map as lines (bbmap(1) describes
 * them), everything llvm-readobj --bb-addr-map shows and in its order,
 * one record per line so that tests and scripts can compare them.
 */
#include <stdio.h>

#include "bbmap.h"

static void
flags(char *dst, uint32_t md)
{
	static const char letters[] = "RTEFI";
	int i, n = 0;

	for (i = 0; i < 5; i++)
		if (md & (1u << i))
			dst[n++] = letters[i];
	if (n == 0)
		dst[n++] = '-';
	dst[n] = '\0';
}

void
dump_map(const struct bin *b, FILE *fp)
{
	const struct bam_map *m = &b->map;
	const struct bam_func *f;
	const struct bam_range *r;
	const struct bam_bb *bb;
	const struct bam_pgobb *pb;
	const struct bam_succ *sc;
	const char *name;
	char fl[8], fn[128];
	size_t i, j, k, l;
	struct wbuf w;

	wb_init(&w, fp, 1 << 16);
	wb_printf(&w, "# bbmap-dump 1\n# file=%s\n# sections=%zu\n", b->path,
	    b->nsec);
	for (i = 0; i < m->nfuncs; i++) {
		f = &m->funcs[i];
		r = &m->ranges[f->range];
		name = bin_name(b, r->base, f->text);
		wb_puts(&w, "function ");
		wb_hex(&w, r->base);
		wb_putc(&w, ' ');
		wb_dec(&w, f->version);
		wb_putc(&w, ' ');
		wb_hex(&w, f->feature);
		wb_putc(&w, ' ');
		wb_puts(&w, bam_feature_names(f->feature, fn, sizeof(fn)));
		wb_putc(&w, ' ');
		wb_puts(&w, name ? name : "-");
		wb_putc(&w, '\n');
		for (j = 0; j < f->nrange; j++, r++) {
			wb_puts(&w, "range ");
			wb_hex(&w, r->base);
			wb_putc(&w, ' ');
			wb_dec(&w, r->nbb_declared);
			if (f->feature & BAM_F_OMITBB)
				wb_puts(&w, " omitted");
			wb_putc(&w, '\n');
			for (k = 0; k < r->nbb; k++) {
				bb = &m->bbs[r->bb + k];
				flags(fl, bb->md);
				wb_puts(&w, "block ");
				wb_dec(&w, bb->id);
				wb_putc(&w, ' ');
				wb_hex(&w, bb->off);
				wb_putc(&w, ' ');
				wb_hex(&w, bb->size);
				wb_putc(&w, ' ');
				wb_puts(&w, fl);
				if (f->feature & BAM_F_CALLSITES) {
					wb_puts(&w, bb->ncs ? " " : " -");
					for (l = 0; l < bb->ncs; l++) {
						if (l)
							wb_putc(&w, ',');
						wb_hex(&w, m->cs[bb->cs + l]);
					}
				}
				if (f->feature & BAM_F_HASH) {
					wb_putc(&w, ' ');
					wb_hex(&w, bb->hash);
				}
				wb_putc(&w, '\n');
			}
		}
		if (f->feature & BAM_F_ENTRYCOUNT) {
			wb_puts(&w, "entrycount ");
			wb_dec(&w, f->entrycount);
			wb_putc(&w, '\n');
		}
		for (j = 0; j < f->npgo; j++) {
			pb = &m->pgo[f->pgo + j];
			wb_puts(&w, "pgo ");
			if (f->feature & BAM_F_BBFREQ)
				wb_dec(&w, pb->freq);
			else
				wb_putc(&w, '-');
			if (f->feature & BAM_F_POSTLINK) {
				wb_putc(&w, ' ');
				wb_dec(&w, pb->postlink);
			}
			for (k = 0; k < pb->nsucc; k++) {
				sc = &m->succs[pb->succ + k];
				wb_putc(&w, ' ');
				wb_dec(&w, sc->id);
				wb_putc(&w, ':');
				wb_hex(&w, sc->prob);
				if (f->feature & BAM_F_POSTLINK) {
					wb_putc(&w, ':');
					wb_dec(&w, sc->postlink);
				}
			}
			wb_putc(&w, '\n');
		}
	}
	wb_free(&w);
}
