/* a switch whose cold cases gcc -O2 moves to op.cold: a jump table with
 * entries in the fragment (BOLT: split jump table, entries of op.cold),
 * and the conditional tail call into op.cold ahead of the dispatch */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline, cold, noreturn)) static void die(int k) { fprintf(stderr, "bad %d\n", k); exit(3); }
static volatile int sink;
__attribute__((noinline)) int op(int k, int x) {
	switch (k) {
	case 0: return x + 1;
	case 1: sink++; return x * 3;
	case 2: return x ^ 0x55;
	case 3: die(k);
	case 4: return x << 1;
	case 5: sink += 2; return x >> 1;
	case 6: return x * x;
	case 7: die(k + 1);
	case 8: return ~x;
	default: return 0;
	}
}
int main(int argc, char **argv) {
	long n = argc > 1 ? atol(argv[1]) : 2000; int x = 1;
	for (long i = 0; i < n; i++) { int k = (int)(i % 9); if (k == 3 || k == 7) k = 0; x = op(k, x); if (x > 100000 || x < -100000) x = (int)i; }
	printf("%d %d\n", x, sink); return 0;
}
