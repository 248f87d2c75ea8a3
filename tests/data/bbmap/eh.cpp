// eh.cpp: a bbmap test program with landing pads (IsEHPad), a jump table
// (HasIndirectBranch), tail calls and calls in the middle of blocks.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

static int __attribute__((noinline)) risky(int x)
{
	if (x % 7 == 3)
		throw std::runtime_error("seven");
	return x * 3 + 1;
}

static int __attribute__((noinline)) pick(int x)
{
	switch (x & 7) {
	case 0: return risky(x) + 1;
	case 1: return x ^ 0x55;
	case 2: return risky(x + 1) * 2;
	case 3: return x - 9;
	case 4: return std::abs(x) + 4;
	case 5: return risky(x) - 5;
	default: return x;
	}
}

int __attribute__((noinline)) guarded(int x)
{
	std::string s;
	try {
		s = std::to_string(pick(x));
	} catch (const std::exception &e) {
		s = e.what();
	}
	return (int)s.size();
}

int __attribute__((noinline)) tail(int x)
{
	if (x > 100)
		return guarded(x - 100);
	return x * 2 + 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? std::atoi(argv[1]) : 1000;
	long t = 0;

	for (int i = 0; i < n; i++)
		t += tail(i) + guarded(i);
	std::printf("%ld\n", t);
	return 0;
}
