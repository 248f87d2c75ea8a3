// See COPYING file for copyright and license details.
// exc.cpp: C++ with exceptions for the batmap tests: throws and landing
// pads (BOLT moves landing pads into cold fragments), a virtual call and
// a template, deterministic output.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#ifndef NITER
#define NITER 400
#endif

struct Shape {
	virtual ~Shape() {}
	virtual long area(long k) const = 0;
};
struct Sq : Shape {
	long area(long k) const override { return k * k; }
};
struct Tri : Shape {
	long area(long k) const override
	{
		if (k % 97 == 96)
			throw std::runtime_error("bad triangle");
		return k * (k + 1) / 2;
	}
};

template <typename T>
static __attribute__((noinline)) T
sum(const std::vector<T> &v)
{
	T s = 0;
	for (const T &x : v)
		s += x;
	return s;
}

static __attribute__((noinline)) long
work(const Shape &s, long k)
{
	try {
		return s.area(k);
	} catch (const std::runtime_error &e) {
		std::fprintf(stderr, "caught: %s at %ld\n", e.what(), k);
		return -1;
	}
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? std::atol(argv[1]) : NITER;
	Sq sq;
	Tri tri;
	std::vector<long> out;

	for (long i = 0; i < n; i++) {
		const Shape &s = (i & 3) ? static_cast<const Shape &>(sq) :
		    static_cast<const Shape &>(tri);
		long a = work(s, i);
		if (a < -1)
			throw std::logic_error("unreachable");
		out.push_back(a);
	}
	std::printf("%ld\n", sum(out));
	return 0;
}
