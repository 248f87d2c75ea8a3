// See COPYING file for copyright and license details.
//
// afdo.cc: a C++ program for afdowrite's tests: templates, lambdas (their
// linkage names), virtual calls, exceptions, a function in an anonymous
// namespace, a global and a thread-local with dynamic initializers
// (__cxx_global_var_init and __tls_init, whose profiles llvm-profgen
// drops), inlined standard-library code.  Deterministic for a given
// argument.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace shapes {
struct Shape {
	virtual ~Shape() = default;
	virtual double area() const = 0;
};
struct Circle : Shape {
	double r;
	explicit Circle(double rr) : r(rr) {}
	double area() const override { return 3.25 * r * r; }
};
struct Rect : Shape {
	double w, h;
	Rect(double ww, double hh) : w(ww), h(hh) {}
	double area() const override { return w * h; }
};
}

template <typename T, typename F>
static T
fold(const std::vector<T> &v, T init, F f)
{
	for (const auto &x : v)
		init = f(init, x);
	return init;
}

namespace {
int counter;
void __attribute__((noinline))
bump(int k)
{
	counter += k & 3 ? 1 : 2;
}
}

static int __attribute__((noinline))
parse(const std::string &s)
{
	int v = 0;

	if (s.empty())
		throw std::invalid_argument("empty");
	for (char c : s) {
		if (c < '0' || c > '9')
			throw std::invalid_argument(s);
		v = v * 10 + (c - '0');
	}
	return v;
}

static std::string global_name = std::to_string(std::rand() % 7);
static thread_local std::vector<int> tl_cache(std::rand() % 5 + 1, 3);

int
main(int argc, char **argv)
{
	int n = argc > 1 ? std::atoi(argv[1]) : 300;
	std::vector<std::unique_ptr<shapes::Shape>> sh;
	std::map<int, double> byclass;

	for (int i = 0; i < n; i++) {
		if (i % 3)
			sh.push_back(std::make_unique<shapes::Circle>(i * 0.5));
		else
			sh.push_back(std::make_unique<shapes::Rect>(i, i % 11));
	}
	std::sort(sh.begin(), sh.end(), [](const auto &a, const auto &b) {
		return a->area() < b->area();
	});
	std::vector<double> areas;
	for (auto &s : sh) {
		areas.push_back(s->area());
		byclass[(int)s->area() % 5] += s->area();
		bump((int)s->area());
	}
	double tot = fold(areas, 0.0, [](double a, double b) { return a + b; });
	long cnt = fold(std::vector<long>(n, 2L), 0L, std::plus<long>());
	int bad = 0;
	for (int i = 0; i < n / 4; i++) {
		try {
			bad += parse(i % 4 ? std::to_string(i) : "x" + std::to_string(i));
		} catch (const std::invalid_argument &) {
			bad--;
		}
	}
	std::printf("%.1f %ld %d %d %zu %s %zu\n", tot, cnt, bad, counter,
	    byclass.size(), global_name.c_str(), tl_cache.size());
	return 0;
}
