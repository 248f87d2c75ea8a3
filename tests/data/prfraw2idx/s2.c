/* s1.c and s2.c: a static function of the same name in two files. */
#include <stdio.h>
#include <stdlib.h>
static int helper(int x) { return x % 7 ? x : -x; }
int s1(int);
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10, i, t = 0;
	for (i = 0; i < n; i++) t += helper(i);
	printf("%d %d\n", t, s1(n));
	return 0;
}
