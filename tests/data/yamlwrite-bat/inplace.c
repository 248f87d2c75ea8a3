/* See COPYING file for copyright and license details. */
/*
 * inplace.c: a program for the yamlwrite --bat tests whose BOLTed copy
 * keeps code without BAT tables.  It is BOLTed with a profile of
 * `inplace N` (the first mode), which never runs the functions of the
 * second mode (`inplace N x`): llvm-bolt leaves those in place, and
 * perf2bolt disassembles them in the BOLTed binary.  Among them an
 * assembly function with a second global entry point (twoentry_alt), which
 * profiled code calls: a call into a secondary entry of a function
 * without tables (the YAML's disc).  Deterministic output.
 */
#include <stdio.h>
#include <stdlib.h>

/* twoentry(x) = 2 * (x + 1), twoentry_alt(x) = 2 * (x + 2) */
__asm__(
"	.text\n"
"	.p2align 4\n"
"	.globl	twoentry\n"
"	.type	twoentry,@function\n"
"twoentry:\n"
"	leal	1(%rdi), %eax\n"
"	jmp	1f\n"
"	.globl	twoentry_alt\n"
"	.type	twoentry_alt,@function\n"
"twoentry_alt:\n"
"	leal	2(%rdi), %eax\n"
"1:	addl	%eax, %eax\n"
"	testl	%eax, %eax\n"
"	jns	2f\n"
"	negl	%eax\n"
"2:	ret\n"
"	.size	twoentry, .-twoentry\n");

int	twoentry(int);
int	twoentry_alt(int);

static unsigned seed = 11;

static unsigned
rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 16) & 0x7fff;
}

/* run only in the second mode: a loop, a switch, a call */
static __attribute__((noinline)) long
rare(long acc, unsigned k)
{
	unsigned i;

	for (i = 0; i < k % 7 + 1; i++) {
		switch (rnd() % 5) {
		case 0:
			acc += twoentry((int)i);
			break;
		case 1:
			acc -= (long)i * 3;
			break;
		case 2:
			acc ^= (long)k << 2;
			break;
		case 3:
			if (acc < 0)
				acc = -acc;
			break;
		default:
			acc = acc / 2 + 1;
			break;
		}
	}
	return acc;
}

/* also only in the second mode, called through a pointer */
static __attribute__((noinline)) long
rare2(long acc, unsigned k)
{
	return k & 1 ? acc + twoentry_alt((int)k) : acc - (long)k;
}

static long (*volatile rarep)(long, unsigned) = rare2;

__attribute__((noinline)) long
work(unsigned n, int mode)
{
	long acc = 1;
	unsigned i;

	for (i = 0; i < n; i++) {
		unsigned r = rnd();

		if (r % 3 == 0)
			acc += r % 17;
		else
			acc -= r % 5;
		if (mode) {
			acc += twoentry_alt((int)(r % 100));
			acc = rare(acc, r);
			acc = rarep(acc, r);
		}
	}
	return acc;
}

int
main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 100;

	printf("%ld\n", work(n, argc > 2));
	return 0;
}
