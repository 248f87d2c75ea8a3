/* switch jump tables (absolute in a non-PIE, PIC in a PIE), a computed
 * goto, loops, calls: a program of many shapes for fdatawrite's tests */
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;

__attribute__((noinline)) static int
op(int k, int x)
{
	switch (k) {
	case 0: return x + 1;
	case 1: sink++; return x * 3;
	case 2: return x ^ 0x55;
	case 3: sink--; return x - 7;
	case 4: return x << 1;
	case 5: sink += 2; return x >> 1;
	case 6: return x * x;
	case 7: return ~x;
	default: return 0;
	}
}

__attribute__((noinline)) static int
gotos(int n)
{
	static void *tab[] = { &&a, &&b, &&c };
	int r = 0;

	while (n-- > 0) {
		goto *tab[n % 3];
a:		r += 1;
		continue;
b:		r *= 2;
		continue;
c:		r -= 3;
	}
	return r;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000, i;
	int x = 1;

	for (i = 0; i < n; i++) {
		x = op((int)(i % 9), x);
		if (x > 100000 || x < -100000)
			x = (int)i;
		if (i % 17 == 0)
			x += gotos((int)(i % 11));
	}
	printf("%d %d\n", x, sink);
	return 0;
}
