/* Switch tables and a computed goto for the AArch64 tests: clang-19 makes
 * byte and half-word jump tables (adrp/add/ldrb/adr/add/br) of the
 * dense switches, and BOLT 19 takes none of them as a table: the
 * dispatching function is not simple (its adr of its own code).  The
 * first argument is the number of rounds. */
#include <stdio.h>
#include <stdlib.h>

volatile int sink;

__attribute__((noinline)) static int
h(int x)
{
	sink = x;
	return x * 3 + 1;
}

__attribute__((noinline)) int
op(int x, int y)
{
	int r;

	switch (x % 17) {
	case 0: r = h(y); break;
	case 1: r = y * h(x); break;
	case 2: r = h(11) + y; break;
	case 3: r = h(x + 5) ^ y; break;
	case 4: r = h(99) - y; break;
	case 5: r = h(y) << 2; break;
	case 6: r = h(6) + h(y); break;
	case 7: r = h(17) | y; break;
	case 8: r = h(18) * 2; break;
	case 9: r = h(y) - 4; break;
	case 10: r = h(3) + h(4) + h(y); break;
	case 11: r = h(123) & y; break;
	case 12: r = h(1234) / (y | 1); break;
	case 13: r = h(77) + y; break;
	case 14: r = h(88) + 1; break;
	case 15: r = y; break;
	default: r = -y; break;
	}
	return r;
}

/* a sparse switch: a tree of compares */
__attribute__((noinline)) int
sparse(int x)
{
	switch (x) {
	case 3: return h(1);
	case 70: return h(2);
	case 900: return 5;
	case 4000: return h(x);
	case 50000: return 7;
	default: return x & 1 ? h(x) : 0;
	}
}

/* a switch of a few wide cases the compiler turns into a lookup or tree */
__attribute__((noinline)) const char *
name(int k)
{
	switch (k & 7) {
	case 0: return "zero";
	case 1: return "one";
	case 2: return "two";
	case 3: return "three";
	case 4: return "four";
	default: return "many";
	}
}

/* a computed goto: the labels' addresses in a table in data */
__attribute__((noinline)) long
run(const unsigned char *code, long n)
{
	static const void *tab[] = { &&op0, &&op1, &&op2, &&op3 };
	long acc = 0, i = 0;

	goto *tab[code[i++] & 3];
op0:	acc += 1;
	if (i >= n)
		return acc;
	goto *tab[code[i++] & 3];
op1:	acc *= 3;
	if (i >= n)
		return acc;
	goto *tab[code[i++] & 3];
op2:	acc -= 7;
	if (i >= n)
		return acc;
	goto *tab[code[i++] & 3];
op3:	acc ^= 0x55;
	if (i >= n)
		return acc;
	goto *tab[code[i++] & 3];
}

int
main(int argc, char **argv)
{
	unsigned char code[64];
	long s = 0, rounds = argc > 1 ? atol(argv[1]) : 100;

	for (int k = 0; k < 64; k++)
		code[k] = (unsigned char)(k * 7 + 3);
	for (long i = 0; i < rounds; i++) {
		s += op((int)(i % 23), (int)i);
		s += sparse((int)(i * 37 % 60000));
		s += name((int)i)[0];
		s += run(code, 1 + i % 64);
	}
	printf("%ld\n", s);
	return 0;
}
