static __attribute__((noinline)) int helper(int x) { return x * 7 + 1; }
int dfn(int x) { return helper(x) - 1; }
