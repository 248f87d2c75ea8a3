/* relsym_main.c: the driver of relsym.s (tests/60-yamlwrite.bats) */
#include <stdio.h>

int sw(int);
long tabref(int);
const char *strref(int);

int
main(int argc, char **argv)
{
	long s = 0;
	int i;

	(void)argv;
	for (i = 0; i < 1000 * argc; i++)
		s += sw(i & 7) + (tabref(i & 1) != 0) + strref(i & 1)[0];
	printf("%ld\n", s);
	return 0;
}
