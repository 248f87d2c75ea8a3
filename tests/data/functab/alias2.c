static int helper(int x) { return x * 5 + 1; }
int bfn(int x) { return helper(x) - 1; }
