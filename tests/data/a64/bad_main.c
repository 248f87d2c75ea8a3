/* Calls the functions of bad.s that can run (tests/52-aarch64.bats). */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
int64_t trunc(int64_t), undec(int64_t), pool(int64_t), zpad(int64_t), cut(int64_t),
    tail(int64_t);

int
main(int argc, char **argv)
{
	int64_t s = 0;
	int n = argc > 1 ? atoi(argv[1]) : 100;
	for (int64_t i = 0; i < n; i++) {
		s += trunc(i & 3) + undec(0) + pool(i) + zpad(i) + tail(i & 1) + cut(i & 1);
		s &= 0xffffffffffffULL;
	}
	printf("%lld\n", (long long)s);
	return 0;
}
