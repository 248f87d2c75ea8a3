/* See COPYING file for copyright and license details. */
/*
 * sw.c: a small interpreter for the batmap tests.  A switch over opcodes
 * (a jump table), rarely taken error paths (cold fragments once BOLT
 * splits), a static helper (a local symbol) and a loop whose layout BOLT
 * changes.  Deterministic output.
 */
#include <stdio.h>
#include <stdlib.h>

#ifndef NSTEPS
#define NSTEPS 2000
#endif

static unsigned seed = 7;

static unsigned
rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 16) & 0x7fff;
}

static __attribute__((noinline)) void
fatal(const char *what, long v)
{
	fprintf(stderr, "sw: %s %ld\n", what, v);
	exit(3);
}

static __attribute__((noinline)) long
step(long acc, unsigned op, long arg)
{
	switch (op) {
	case 0:
		acc += arg;
		break;
	case 1:
		acc -= arg / 2;
		break;
	case 2:
		acc ^= arg << 3;
		break;
	case 3:
		if (arg == 0)
			fatal("division by zero at", acc);
		acc /= arg;
		break;
	case 4:
		acc = acc * 3 + 1;
		break;
	case 5:
		acc = acc < 0 ? -acc : acc;
		break;
	case 6:
		if (acc > 1000000000L || acc < -1000000000L) {
			fprintf(stderr, "sw: overflow %ld, reset\n", acc);
			acc = arg;
		}
		break;
	default:
		acc >>= 1;
		break;
	}
	return acc;
}

__attribute__((noinline)) long
run(unsigned n)
{
	long acc = 1;
	unsigned i;

	for (i = 0; i < n; i++) {
		unsigned op = rnd() % 9;
		long arg = (long)(rnd() % 100) + 1;

		acc = step(acc, op, arg);
		if (acc == 123456789)
			fatal("magic value at step", (long)i);
	}
	return acc;
}

int
main(int argc, char **argv)
{
	unsigned n = NSTEPS;

	if (argc > 1) {
		n = (unsigned)strtoul(argv[1], NULL, 10);
		if (n == 0)
			fatal("bad step count", 0);
	}
	printf("%ld\n", run(n));
	return 0;
}
