/* See COPYING file for copyright and license details. */
/*
 * batsec: the BAT decoder (libbolt/bat/bat.c) on a bare section file, for
 * tests/40-batmap.bats.
 *   batsec FILE [main|19]	decode FILE (a .note.bolt_bat section as
 *				llvm-objcopy --dump-section writes it), print
 *				how the cold parents were read and each cold
 *				fragment's parent; with main or 19, that
 *				reading if both are consistent
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "bat.h"

int
main(int argc, char **argv)
{
	static const char *how[] = { "none", "same", "main", "19" };
	struct bat t;
	struct bat_err e;
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n, i;
	FILE *fp;

	prog_init(argc, argv);
	if (argc < 2 || (fp = fopen(argv[1], "rb")) == NULL) {
		fprintf(stderr, "usage: batsec FILE [main|19]\n");
		return 2;
	}
	do {
		xgrow(&buf, &cap, len + 65536, 1);
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
	} while (n > 0);
	fclose(fp);
	if (bat_decode(&t, buf, len, &e) == -1) {
		printf("error at 0x%zx: %s\n", e.off, e.msg);
		return 1;
	}
	if (argc > 2 && bat_set_coldidx(&t, strcmp(argv[2], "19") == 0 ?
	    BAT_COLD_V19 : BAT_COLD_MAIN) == -1)
		printf("reading %s is not consistent\n", argv[2]);
	printf("cold-index=%s ambiguous=%d hot=%zu cold=%zu\n", how[t.coldidx],
	    t.ambiguous, t.nhot, t.nfrag - t.nhot);
	for (i = t.nhot; i < t.nfrag; i++)
		printf("cold %llx parent %llx\n",
		    (unsigned long long)t.frag[i].addr,
		    (unsigned long long)bat_parent(&t, &t.frag[i])->addr);
	bat_free(&t);
	free(buf);
	return 0;
}
