// vcall.cpp: virtual and indirect calls and memcpy sizes, for value profiles.
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct Shape {
	virtual ~Shape() {}
	virtual long area(long s) const = 0;
};
struct Square : Shape {
	long area(long s) const override { return s * s; }
};
struct Tri : Shape {
	long area(long s) const override { return s * s / 2; }
};
struct Circle : Shape {
	long area(long s) const override { return 3 * s * s; }
};

static long twice(long x) { return 2 * x; }
static long thrice(long x) { return 3 * x; }

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	Shape *shapes[3] = { new Square, new Tri, new Circle };
	long (*fns[2])(long) = { twice, thrice };
	char src[256], dst[256];
	long sum = 0;

	memset(src, 1, sizeof(src));
	for (int i = 0; i < 3000 * n; i++) {
		sum += shapes[(i * 7 + n) % 3]->area(i % 100);
		sum += fns[(i + n) % 2](i);
		memcpy(dst, src, (size_t)(i % 5 == 0 ? 64 : 8 + i % 3));
		sum += dst[3];
	}
	printf("%ld\n", sum);
	for (Shape *s : shapes)
		delete s;
	return 0;
}
