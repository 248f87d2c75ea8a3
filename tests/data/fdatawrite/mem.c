/* See COPYING file for copyright and license details. */
/*
 * mem.c: a program whose loads land in every kind of data object BOLT
 * knows, for the memory-event tests (tests/56-memevents.bats): global
 * and static arrays and scalars (.data, .bss), a struct array with
 * fields, constant tables and floating-point constants (.rodata), string
 * literals the symbol table does not name, pointers to them (relocated
 * data), a thread-local, calls through the PLT, a switch whose jump
 * table BOLT names (JUMP_TABLE/step.0).  Deterministic output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int table[1024];
long counter = 7;
static int sbuf[300];
static long scount;
const char *names[] = { "alpha", "beta", "gamma", "delta" };
static const double coef[4] = { 1.5, 2.5, 3.5, 4.5 };
static const unsigned char lut[64] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5 };
struct pt {
	int	x, y;
	long	w;
} pts[16] = { { 1, 2, 3 }, { 4, 5, 6 } };
__thread int tls_v;

/* a switch dense enough for a jump table, whose loads the samples hit */
static __attribute__((noinline)) long
step(long k, long x)
{
	switch (k & 15) {
	case 0: return x + 1;
	case 1: return x * 3;
	case 2: return x ^ 0x55;
	case 3: return x - 7;
	case 4: return x << 1;
	case 5: return x >> 1;
	case 6: return x * x;
	case 7: return ~x;
	case 8: return x + lut[x & 63];
	case 9: return x - table[x & 1023];
	default: return x;
	}
}

static __attribute__((noinline)) long
walk(long n)
{
	long i, s = 0;

	for (i = 0; i < n; i++) {
		s = step(i, s) & 0xffffff;
		s += table[(i * 7) & 1023] + lut[i & 63];
		sbuf[i % 300] += (int)s;
		pts[i & 15].w += pts[(i + 1) & 15].x;
	}
	return s;
}

static __attribute__((noinline)) double
mix(long n)
{
	double d = 0;
	long i;

	for (i = 0; i < n; i++) {
		d += coef[i & 3] * 1.25 + (double)(i & 7) * 0.5;
		tls_v++;
		scount += (long)strlen(names[i & 3]);
	}
	return d;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	long s = walk(n);
	double d = mix(n);

	counter += s + scount;
	printf("%ld %ld %.2f %d %d\n", counter, scount, d, tls_v, pts[3].x);
	return 0;
}
