/* See COPYING file for copyright and license details. */
/*
 * cfgtest: prints the control-flow graphs libbolt/cfg/cfgdis.c builds (by
 * disassembly with capstone, so it links -lcapstone), for
 * tests/50-fdatawrite.bats and for comparing with perf2bolt-19 --print-all.
 *   cfgtest BIN [NAME...]   every function (or those named): a header
 *                           "function NAME simple|nonsimple|ignored [why]"
 *                           then one line per block:
 *                           "  START-END last LAST [flags] -> SUCC..."
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "elfobj.h"
#include "functab.h"
#include "cfg.h"

static void
dump(struct cfgdis *cd, const struct functab *ft, size_t i)
{
	const struct cfg *g = cfgdis_get(cd, i);
	size_t k;
	uint32_t s;

	printf("function %s %s%s%s\n", ft->f[i].name, g->ignored ? "ignored" :
	    g->simple ? "simple" : "nonsimple", g->why ? " " : "",
	    g->why ? g->why : "");
	for (k = 0; k < g->nblocks; k++) {
		const struct cfg_block *b = &g->blocks[k];

		printf("  %" PRIx64 "-%" PRIx64 " last %" PRIx64 "%s%s%s%s%s ->",
		    b->start, b->end, b->last,
		    b->flags & CFG_ENTRY ? " entry" : "",
		    b->flags & CFG_LPAD ? " lpad" : "",
		    b->flags & CFG_ENDS_CALL ? " call" : "",
		    b->flags & CFG_ENDS_TAIL ? " tail" : "",
		    b->flags & CFG_FALLS ? " falls" : "");
		for (s = 0; s < b->nsucc; s++)
			printf(" %" PRIx64, g->blocks[g->succs[b->succ + s]].start);
		putchar('\n');
	}
}

int
main(int argc, char **argv)
{
	struct elfobj eo;
	struct functab ft;
	struct cfgdis *cd;
	char err[512];
	size_t i;
	int k;

	prog_init(argc, argv);
	if (argc < 2)
		prog_usage_error("usage: cfgtest BIN [NAME...]");
	if (elfobj_open(&eo, argv[1], err, sizeof(err)) == -1) {
		fprintf(stderr, "%s: %s\n", progname, err);
		return 1;
	}
	if (functab_load(&ft, &eo, err, sizeof(err)) == -1 ||
	    (cd = cfgdis_open(&eo, &ft, err, sizeof(err))) == NULL) {
		fprintf(stderr, "%s: %s\n", progname, err);
		elfobj_close(&eo);
		return 1;
	}
	if (argc == 2)
		for (i = 0; i < ft.n; i++)
			dump(cd, &ft, i);
	for (k = 2; k < argc; k++) {
		const struct bfunc *f = functab_by_name(&ft, argv[k]);

		if (f == NULL) {
			fprintf(stderr, "%s: no function %s\n", progname, argv[k]);
			return 1;
		}
		dump(cd, &ft, (size_t)(f - ft.f));
	}
	cfgdis_close(cd);
	functab_free(&ft);
	elfobj_close(&eo);
	xclose_stdout();
	return 0;
}
