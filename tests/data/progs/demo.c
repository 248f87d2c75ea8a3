/* See COPYING file for copyright and license details. */
/*
 * demo.c: the example scripts/demo optimizes.  A little word-frequency
 * counter over generated text: hashing, a chained hash table, sorting
 * with a comparison callback, branches of every kind, deterministic
 * output.  An optional argument changes the input (for several runs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NWORDS
#define NWORDS 6000
#endif

struct word {
	char		 text[16];
	unsigned	 count;
	struct word	*next;
};

static struct word *table[512];
static struct word pool[4096];
static unsigned npool;
static unsigned seed = 12345;

static unsigned
rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 16) & 0x7fff;
}

static unsigned
hash(const char *s)
{
	unsigned h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static void
add(const char *w)
{
	unsigned h = hash(w) & 511;
	struct word *p;

	for (p = table[h]; p != NULL; p = p->next)
		if (strcmp(p->text, w) == 0) {
			p->count++;
			return;
		}
	if (npool == sizeof(pool) / sizeof(pool[0]))
		return;
	p = &pool[npool++];
	strcpy(p->text, w);
	p->count = 1;
	p->next = table[h];
	table[h] = p;
}

static int
bycount(const void *a, const void *b)
{
	const struct word *x = *(const struct word *const *)a;
	const struct word *y = *(const struct word *const *)b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->text, y->text);
}

static void
makeword(char *w)
{
	static const char *syll[] = { "ka", "lo", "mi", "ne", "su", "ta", "ri" };
	int n = 1 + (int)(rnd() % 3), i;

	w[0] = '\0';
	for (i = 0; i < n; i++)
		strcat(w, syll[rnd() % 7]);
}

int
main(int argc, char *argv[])
{
	static struct word *sorted[4096];
	char w[16];
	unsigned i, n = 0;

	if (argc > 1)
		seed += (unsigned)atoi(argv[1]);
	for (i = 0; i < NWORDS; i++) {
		makeword(w);
		add(w);
	}
	for (i = 0; i < 512; i++) {
		struct word *p;

		for (p = table[i]; p != NULL; p = p->next)
			sorted[n++] = p;
	}
	qsort(sorted, n, sizeof(sorted[0]), bycount);
	printf("%u distinct words\n", n);
	for (i = 0; i < 5 && i < n; i++)
		printf("%-8s %u\n", sorted[i]->text, sorted[i]->count);
	return 0;
}
