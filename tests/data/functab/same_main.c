#include <stdio.h>
#include <stdlib.h>
int dfn(int), efn(int), fuse(void);
__attribute__((noinline)) int maybe(int x) { if (x > 1000000) { fprintf(stderr, "x%d\n", x); exit(3);} return x; }
int main(void) { int s = 0; for (int i = 0; i < 1000; i++) s += dfn(i) + efn(i) + maybe(i); printf("%d\n", s); return 0; }
