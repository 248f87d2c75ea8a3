/* the driver of shapes.s */
#include <stdio.h>
int ctc(int), trp(int), multi(int), multi_second(int), unkind(int), lp(int),
    tailnop(int), jnx(int), ce(int), alia(int),
    rtgt(int), rref(int), sref(int);
int
main(void)
{
	long s = 0;
	for (int i = 0; i < 300; i++)
		s += ctc(i % 3) + trp(i % 150) + multi(i - 100) +
		    multi_second(i) + unkind(i % 2) + lp(i % 5 + 1) +
		    tailnop(i - 3) + jnx(i % 3 - 1) + ce(i % 4 - 1) +
		    alia(i % 97 - 1) + rtgt(i % 5 - 2) + rref(i - 150) +
		    sref(i % 4 - 1);
	printf("%ld\n", s);
	return 0;
}
