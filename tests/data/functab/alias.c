#include <stdio.h>
#include <stdlib.h>
static int helper(int x) { return x * 3 + 1; }
int real_fn(int x) { return helper(x) + 2; }
int alias_fn(int x) __attribute__((alias("real_fn")));
int bfn(int);
int sw(int x) {
  switch (x) { case 0: return 5; case 1: return 7; case 2: return 11; case 3: return 13; case 4: return 17; case 5: return 19; default: return 0; }
}
__attribute__((noinline)) int cold_path(int x) {
  if (__builtin_expect(x > 1000000, 0)) { fprintf(stderr, "big %d\n", x); abort(); }
  return x + 1;
}
int main(int argc, char **argv) {
  int s = 0;
  for (int i = 0; i < 1000; i++) s += alias_fn(i) + bfn(i) + sw(i % 7) + cold_path(i);
  printf("%d\n", s);
  return 0;
}
