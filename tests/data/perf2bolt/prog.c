/* The program of tests/75-perf2bolt.bats: its time is spent in its own
 * code and in libfoo.so's (foo.c), called through the PLT. */
#include <stdio.h>
#include <stdlib.h>

int foo_run(int);
int foo_step(int);

static int
local(int x)
{
	return x * 3 + foo_step(x);
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	long t = 0;

	for (long i = 0; i < n; i++) {
		t += foo_run((int)(i & 63));
		if (i % 3)
			t += local((int)i);
	}
	printf("%ld\n", t);
	return 0;
}
