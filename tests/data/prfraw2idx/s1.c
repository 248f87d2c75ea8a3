/* s1.c and s2.c: a static function of the same name in two files. */
static int helper(int x) { return x * 3 + 1; }
int s1(int x) { int i, t = 0; for (i = 0; i < x; i++) t += helper(i); return t; }
