#include <cstdio>
#include <stdexcept>
#include <vector>
#include <string>
struct Base { virtual int f(int) = 0; virtual ~Base() {} };
struct A : Base { int f(int x) override { if (x == 77777) throw std::runtime_error("a"); return x + 1; } };
struct B : Base { int f(int x) override { return x * 2; } };
namespace { int helper(int x) { return x ^ 5; } }
static int sfn(int x) { return x + 3; }
__attribute__((noinline)) int work(Base *b, int i) {
  try { return b->f(i) + helper(i); } catch (const std::exception &e) { std::printf("%s\n", e.what()); return -1; }
}
int main(int argc, char **) {
  std::vector<Base*> v{new A, new B};
  long s = 0;
  for (int i = 0; i < 100000; i++) s += work(v[i & 1], i) + sfn(i);
  if (argc > 5) throw std::logic_error("x");
  std::printf("%ld\n", s);
}
