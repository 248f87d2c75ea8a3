// C++ with exceptions and virtual calls for the AArch64 tests: landing
// pads from the LSDA, cleanups, a rethrow, calls through a vtable.  The
// first argument is the number of rounds.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

struct Base {
	virtual ~Base() {}
	virtual int work(int) = 0;
};

struct Even : Base {
	int work(int x) override
	{
		if (x % 7 == 3)
			throw std::runtime_error("seven");
		return x / 2;
	}
};

struct Odd : Base {
	int n = 0;
	int work(int x) override
	{
		if (x % 11 == 5)
			throw std::out_of_range("eleven");
		return 3 * x + ++n;
	}
};

struct Guard {
	int *p;
	explicit Guard(int *q) : p(q) { ++*p; }
	~Guard() { --*p; }
};

__attribute__((noinline)) int
step(Base *b, int x, int *depth)
{
	Guard g(depth);
	std::string s(static_cast<size_t>(x % 5 + 1), 'x');

	return b->work(x) + static_cast<int>(s.size());
}

__attribute__((noinline)) int
outer(Base *b, int x, int *depth)
{
	try {
		return step(b, x, depth);
	} catch (const std::out_of_range &) {
		if (x % 2)
			throw;
		return -1;
	}
}

int
main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100, s = 0;
	int depth = 0;
	Even e;
	Odd o;

	for (long i = 0; i < rounds; i++) {
		Base *b = i & 1 ? static_cast<Base *>(&o) : &e;

		try {
			s += outer(b, static_cast<int>(i), &depth);
		} catch (const std::exception &ex) {
			s += static_cast<long>(ex.what()[0]) + depth;
		}
	}
	std::printf("%ld %d\n", s, depth);
	return 0;
}
