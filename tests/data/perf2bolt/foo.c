/* A shared library of ours for profpipe-perf2bolt's tests
 * (tests/75-perf2bolt.bats): a program and its library profiled in one
 * pass, each as perf2bolt-19 profiles it alone. */
int foo_step(int x);
int foo_run(int n);

int
foo_step(int x)
{
	int s = 0;

	for (int i = 0; i < (x & 15); i++)
		s += (i & 1) ? i * x : x - i;
	if (s & 4)
		s ^= 0x55;
	return s;
}

static int
helper(int x)
{
	return x % 7 == 0 ? foo_step(x) : x + 1;
}

int
foo_run(int n)
{
	int t = 0;

	for (int i = 0; i < n; i++)
		t += helper(i) + foo_step(t);
	return t;
}
