/* See COPYING file for copyright and license details. */
/*
 * datatest: exercises libbolt/prof/datatab.c.
 *   datatest list BIN   the data objects as llvm-bolt --print-globals
 *                       prints BOLT's: "name start end depth" a line, in
 *                       address order (depth: how many parents)
 * datatab decodes code with libbolt's decoder and Capstone (links -lcapstone).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "elfobj.h"
#include "functab.h"
#include "cfg.h"
#include "datatab.h"

int
main(int argc, char *argv[])
{
	struct elfobj eo;
	struct functab ft;
	struct datatab dt;
	struct cfgdis *cd;
	char err[512];
	size_t i;

	prog_init(argc, argv);
	if (argc != 3 || strcmp(argv[1], "list") != 0) {
		fprintf(stderr, "usage: datatest list BIN\n");
		return 2;
	}
	if (elfobj_open(&eo, argv[2], err, sizeof(err)) == -1 ||
	    functab_load(&ft, &eo, err, sizeof(err)) == -1 ||
	    (cd = cfgdis_open(&eo, &ft, err, sizeof(err))) == NULL ||
	    datatab_load(&dt, &eo, &ft, cd, err, sizeof(err)) == -1)
		errx(1, "%s", err);
	for (i = 0; i < dt.n; i++) {
		const struct dobj *o = dt.o[i], *p;
		int depth = 0;

		for (p = o->parent; p != NULL; p = p->parent)
			depth++;
		printf("%s %llx %llx %d\n", o->name, (unsigned long long)o->addr,
		    (unsigned long long)(o->addr + o->size), depth);
	}
	datatab_free(&dt);
	cfgdis_close(cd);
	functab_free(&ft);
	elfobj_close(&eo);
	return 0;
}
