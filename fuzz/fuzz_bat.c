/* See COPYING file for copyright and license details. */
/*
 * fuzz_bat: libFuzzer harness for the BAT decoder (libbolt/bat/bat.c).  The
 * input is a whole .note.bolt_bat section; when it decodes, every lookup
 * runs over it: fragments by address, translate() at and around every
 * entry, fall-through splitting between entries, both readings of the
 * cold parents.  Seed it with real sections, e.g.
 *	llvm-objcopy-19 --dump-section .note.bolt_bat=corpus/a a.bolt /dev/null
 *	build/fuzz/fuzz_bat -max_total_time=300 corpus
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "bat.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static volatile uint64_t sink;

static void
lookups(struct bat *t)
{
	const struct bat_frag *f, *g;
	uint32_t *pairs = NULL;
	size_t cap = 0, i, j, k;
	uint64_t a, b;
	long n, m;

	for (i = 0; i < t->nfrag; i++) {
		f = &t->frag[i];
		if (bat_find(t, f->addr) != f || bat_find_le(t, f->addr) != f)
			abort();
		if ((g = bat_find_le(t, f->addr - 1)) != NULL &&
		    g->addr >= f->addr)
			abort();
		sink += bat_parent_addr(t, f->addr) + bat_parent(t, f)->addr;
		for (j = 0; j < f->nent; j++) {
			a = f->ent[j].out;
			sink += bat_translate(t, f->addr, a, 0);
			sink += bat_translate(t, f->addr, a, 1);
			sink += bat_translate(t, f->addr, a + 1, 0);
			sink += bat_translate(t, f->addr, a - 1, 1);
			if (bat_entry_at(f, a) == NULL)
				abort();
			/* a few fall-throughs starting here */
			for (k = j; k < f->nent && k < j + 4; k++) {
				b = f->ent[k].out;
				n = bat_fallthroughs(t, f->addr, f->addr + a,
				    f->addr + b + 1, &pairs, &cap);
				if (n < 0)
					abort();
				for (m = 0; m < 2 * n; m++)
					if (pairs[m] >= f->nent)
						abort();
			}
		}
		sink += bat_translate(t, f->addr, UINT64_MAX, 0);
		if (bat_fallthroughs(t, f->addr + 1, f->addr + 1, f->addr + 9,
		    &pairs, &cap) >= 0 && bat_find(t, f->addr + 1) == NULL)
			abort();
	}
	free(pairs);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bat t;
	struct bat_err e;
	char prod[64];
	uint8_t *copy;

	progname = "fuzz_bat";
	/* an exact-size copy: reads past the end are caught */
	copy = malloc(size ? size : 1);
	if (copy == NULL)
		return 0;
	memcpy(copy, data, size);
	bat_producer(copy, size, prod, sizeof(prod));
	if (bat_decode(&t, copy, size, &e) == 0) {
		lookups(&t);
		if (t.ambiguous) {
			if (bat_set_coldidx(&t, BAT_COLD_V19) == 0)
				lookups(&t);
			if (bat_set_coldidx(&t, BAT_COLD_MAIN) == 0)
				lookups(&t);
		}
		bat_free(&t);
	} else if (e.off > size || e.msg[0] == '\0')
		abort();
	free(copy);
	return 0;
}
