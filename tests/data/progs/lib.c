/* lib.c: a small shared library for the preagg tests (a DSO as the profiled binary). */
int work(int n) { int s = 0; for (int i = 0; i < n; i++) { if (i % 3) s += i; else s ^= i; } return s; }
int work2(int n) { int s = 1; for (int i = 1; i < n; i++) { s = s * 31 + (i & 7 ? i : -i); if (s > 100000) s -= 99999; } return s; }
static int helper(int x) { return x > 5 ? work(x) : work2(x); }
int api(int x) { int r = 0; for (int i = 0; i < x; i++) r += helper(i); return r; }
