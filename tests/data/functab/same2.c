static __attribute__((noinline)) int helper(int x) { return x * 9 + 1; }
int efn(int x) { return helper(x) - 1; }
