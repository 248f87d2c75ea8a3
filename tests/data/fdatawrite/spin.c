#include <stdio.h>
#include <stdlib.h>
static unsigned long work(unsigned long x) { for (int i = 0; i < 200; i++) x = x * 6364136223846793005ul + (x >> 7) + i; return x; }
static unsigned long other(unsigned long x) { unsigned long s = 0; for (int i = 0; i < 100; i++) s += (x ^ i) % 7; return s; }
int main(int argc, char **argv) { unsigned long s = 1; long n = argc > 1 ? atol(argv[1]) : 300000; for (long i = 0; i < n; i++) s += work(i) + other(s); printf("%lu\n", s); return 0; }
