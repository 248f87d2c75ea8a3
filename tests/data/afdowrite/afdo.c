/* See COPYING file for copyright and license details. */
/*
 * afdo.c (with afdo2.c): a C program for afdowrite's tests.  What the
 * profile must get right: functions inlined at several call sites, loops
 * the compiler unrolls and vectorizes (discriminators with duplication
 * factors), a static function whose name afdo2.c uses too (one profile
 * for both, as llvm-profgen names them), a comparison callback that libc
 * calls (branches from outside the binary into a function's entry),
 * calls through the PLT, a switch, a cold error path.  Deterministic for
 * a given argument.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec {
	unsigned	key;
	int		weight;
	char		tag[8];
};

int	 afdo2_score(const struct rec *, int);
unsigned afdo2_mix(unsigned);

static unsigned seed = 2463534242u;

static inline unsigned
next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return seed;
}

/* the same name as afdo2.c's */
static int __attribute__((noinline))
step(int x)
{
	if (x % 3 == 0)
		return x / 3;
	return 3 * x + 1;
}

static inline int
clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int
bykey(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return strcmp(x->tag, y->tag);
}

static long __attribute__((noinline))
sum_weights(const struct rec *r, int n)
{
	long s = 0;
	int i;

	/* unrolled and vectorized */
	for (i = 0; i < n; i++)
		s += r[i].weight * 3 + (r[i].key & 7);
	return s;
}

static int __attribute__((noinline))
classify(unsigned k)
{
	switch (k % 7) {
	case 0: return clamp((int)k, 0, 100);
	case 1: return step((int)(k & 255));
	case 2: return (int)afdo2_mix(k) & 15;
	case 3: return -clamp((int)(k >> 3), 5, 50);
	case 4: return step((int)k & 63) + 1;
	default: return (int)(k & 3);
	}
}

static void __attribute__((noinline, cold))
fail(const char *what)
{
	fprintf(stderr, "afdo: %s\n", what);
	exit(1);
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000, i, round;
	struct rec *r;
	long total = 0;

	if (n <= 0 || n > 1000000)
		fail("bad count");
	if ((r = calloc((size_t)n, sizeof(*r))) == NULL)
		fail("out of memory");
	for (round = 0; round < 4; round++) {
		for (i = 0; i < n; i++) {
			r[i].key = next() % 10007;
			r[i].weight = clamp((int)(next() % 200) - 50, 0, 120);
			snprintf(r[i].tag, sizeof(r[i].tag), "t%u", next() % 97);
		}
		qsort(r, (size_t)n, sizeof(*r), bykey);
		total += sum_weights(r, n);
		for (i = 0; i < n; i += 3)
			total += classify(r[i].key) + afdo2_score(&r[i], i);
	}
	printf("%ld\n", total);
	free(r);
	return 0;
}
