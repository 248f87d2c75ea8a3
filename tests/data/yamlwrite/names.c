/* See COPYING file for copyright and license details. */
/*
 * names.c: functions whose symbol names need quoting in YAML (quotes,
 * spaces, colons, flow indicators, a number, UTF-8, bytes that are not
 * UTF-8), for tests/60-yamlwrite.bats; with -DASCII_NAMES all of them
 * printable ASCII.
 */
#include <stdio.h>
#include <stdlib.h>

#define N(x) __attribute__((noinline)) __asm__(x)
int q1(int) N("it's \"quoted\"");
int q2(int) N("with space: and colon");
#ifdef ASCII_NAMES
/* printable ASCII only: yamlwrite writes these names itself */
int q3(int) N("'cafe' euro ''");
int q4(int) N("bad: 'byte' ]");
#else
int q3(int) N("caf\xc3\xa9_\xe2\x82\xac");
int q4(int) N("bad\xff\xfe" "byte");
#endif
int q5(int) N("- [dash], {brace} #hash");
int q6(int) N("123");
int q1(int x) { return x % 7 ? x * 3 : x + 1; }
int q2(int x) { return x & 4 ? q1(x) : x - 1; }
int q3(int x) { return x % 3 ? q2(x) + 1 : q1(x); }
int q4(int x) { return x > 5 ? q3(x) : q2(x); }
int q5(int x) { return x % 2 ? q4(x) : q3(x); }
int q6(int x) { return x % 5 ? q5(x) : x; }

int
main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 2000, s = 0;

	for (i = 0; i < n; i++)
		s += q6(i) + q4(i);
	printf("%d\n", s);
	return 0;
}
