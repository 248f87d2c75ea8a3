/* A function 256 MB away from its callers, for the AArch64 tests: the
 * linker reaches it through a veneer (lld: __AArch64AbsLongThunk_farf,
 * ldr x16 of a literal and br x16, in a non-PIE; __AArch64ADRPThunk_farf,
 * adrp, add and br x16, in a PIE), placed by far.lds.  The first
 * argument is the number of rounds. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, section("farsec"))) long
farf(long x)
{
	return x * 3 + (x & 1 ? 5 : 7);
}

__attribute__((noinline)) long
near(long x)
{
	return farf(x) + 1;
}

int
main(int argc, char **argv)
{
	long s = 0, rounds = argc > 1 ? atol(argv[1]) : 100;

	for (long i = 0; i < rounds; i++)
		s += near(i);
	printf("%ld\n", s);
	return 0;
}
