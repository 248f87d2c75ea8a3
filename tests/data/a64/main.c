/* Calls each shape of shapes.s (hand-written AArch64 code) with a few
 * arguments and prints the results. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
typedef int64_t (*fn1)(int64_t);
int64_t ctc(int64_t), pastend(int64_t), trp(int64_t), multi(int64_t),
    multi_second(int64_t), selfadr(int64_t), island(int64_t),
    nops(int64_t), dj(int64_t), cj(int64_t), xref(int64_t), jt(int64_t),
    pac(int64_t), paca(int64_t), tbl(int64_t), dref(int64_t),
    aliasa(int64_t), call_fdeonly(int64_t);
int64_t ij(int64_t, fn1), ijt(int64_t, fn1), icall(int64_t, fn1);
extern int64_t dref_tab[];

static int64_t twice(int64_t x) { return 2 * x; }

int
main(int argc, char **argv)
{
	int64_t s = 0;
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	for (int64_t i = 0; i < n; i++) {
		int64_t x = i % 97;
		s += ctc(x) + ctc(x << 40) + pastend(x) + trp(x);
		s += multi(x) + multi_second(x) + selfadr(x) + island(x);
		s += nops(x) + dj(x) + cj(x) + xref(x) + jt(x % 6);
		s += ij(x, x & 1 ? twice : 0) + ijt(x, twice) + icall(x, twice);
		s += pac(x) + paca(x) + tbl(x) + dref(x) + aliasa(x);
		s += call_fdeonly(x) + (dref_tab[0] != 0);
		s &= 0xffffffffffffULL;
	}
	printf("%lld\n", (long long)s);
	return 0;
}
