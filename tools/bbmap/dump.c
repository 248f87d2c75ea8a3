/* See COPYING file for copyright and license details. */
/*
 * dump.c: bbmap --dump, the decoded map as lines (bbmap(1) describes
 * them), everything llvm-readobj --bb-addr-map shows and in its order,
 * one record per line so that tests and scripts can compare them.
 */
#include <inttypes.h>
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

	fprintf(fp, "# bbmap-dump 1\n# file=%s\n# sections=%zu\n", b->path,
	    b->nsec);
	for (i = 0; i < m->nfuncs; i++) {
		f = &m->funcs[i];
		r = &m->ranges[f->range];
		name = bin_name(b, r->base, f->text);
		fprintf(fp, "function %" PRIx64 " %u %x %s %s\n", r->base,
		    f->version, f->feature, bam_feature_names(f->feature, fn,
		    sizeof(fn)), name ? name : "-");
		for (j = 0; j < f->nrange; j++, r++) {
			fprintf(fp, "range %" PRIx64 " %u%s\n", r->base,
			    r->nbb_declared,
			    f->feature & BAM_F_OMITBB ? " omitted" : "");
			for (k = 0; k < r->nbb; k++) {
				bb = &m->bbs[r->bb + k];
				flags(fl, bb->md);
				fprintf(fp, "block %u %x %x %s", bb->id, bb->off,
				    bb->size, fl);
				if (f->feature & BAM_F_CALLSITES) {
					fputs(bb->ncs ? " " : " -", fp);
					for (l = 0; l < bb->ncs; l++)
						fprintf(fp, "%s%x", l ? "," : "",
						    m->cs[bb->cs + l]);
				}
				if (f->feature & BAM_F_HASH)
					fprintf(fp, " %" PRIx64, bb->hash);
				fputc('\n', fp);
			}
		}
		if (f->feature & BAM_F_ENTRYCOUNT)
			fprintf(fp, "entrycount %" PRIu64 "\n", f->entrycount);
		for (j = 0; j < f->npgo; j++) {
			pb = &m->pgo[f->pgo + j];
			fputs("pgo", fp);
			if (f->feature & BAM_F_BBFREQ)
				fprintf(fp, " %" PRIu64, pb->freq);
			else
				fputs(" -", fp);
			if (f->feature & BAM_F_POSTLINK)
				fprintf(fp, " %u", pb->postlink);
			for (k = 0; k < pb->nsucc; k++) {
				sc = &m->succs[pb->succ + k];
				fprintf(fp, " %u:%x", sc->id, sc->prob);
				if (f->feature & BAM_F_POSTLINK)
					fprintf(fp, ":%u", sc->postlink);
			}
			fputc('\n', fp);
		}
	}
}
