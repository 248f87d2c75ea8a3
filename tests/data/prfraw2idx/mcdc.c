/* mcdc.c: conditions with several operands, for MC/DC bitmaps. */
#include <stdio.h>
#include <stdlib.h>

static int
check(int a, int b, int c)
{
	if ((a > 1 && b < 5) || c == 3)
		return 1;
	if (a == b || (b > c && c != 0))
		return 2;
	return 0;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1, i, t = 0;

	for (i = 0; i < 100 * n; i++)
		t += check(i % 4, i % 7, i % 5);
	printf("%d\n", t);
	return 0;
}
