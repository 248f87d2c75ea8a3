/* flow.c: a bbmap test program for branch traces (brtrace): loops,
 * a jump table, calls, a recursive function and tail calls, with no
 * library calls in its hot part so that nearly all branches lie in
 * blocks of the map.  Deterministic. */
static unsigned seed = 12345;

static unsigned __attribute__((noinline)) rnd(void)
{
	seed = seed * 1103515245 + 12345;
	return seed >> 16;
}

static int __attribute__((noinline)) classify(unsigned v)
{
	switch (v % 9) {
	case 0: return 3;
	case 1: return (int)(v & 7);
	case 2: return -1;
	case 3: return (int)(v >> 3) % 5;
	case 4: return 11;
	case 5: return (int)v % 13;
	case 6: return 2;
	default: return 0;
	}
}

static int __attribute__((noinline)) fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int __attribute__((noinline)) step(int acc, unsigned v)
{
	if (v & 1)
		return acc + classify(v);
	if (v & 2)
		return acc - fib((int)(v % 6));
	return acc ^ (int)v;
}

int __attribute__((noinline)) run(int n)
{
	int acc = 0;

	for (int i = 0; i < n; i++) {
		unsigned v = rnd();

		acc = step(acc, v);
		if (acc > 1000)
			acc -= 997;
	}
	return acc;
}

int main(int argc, char **argv)
{
	int n = 0;

	/* iterations: argv[1], default 1500 */
	for (const char *p = argc > 1 ? argv[1] : "1500"; *p >= '0' && *p <= '9'; p++)
		n = n * 10 + (*p - '0');
	return run(n) & 0x7f;
}
