/* See COPYING file for copyright and license details. */
/* afdo2.c: the second unit of afdo.c's program (afdo.c says why). */
struct rec {
	unsigned	key;
	int		weight;
	char		tag[8];
};

int	 afdo2_score(const struct rec *, int);
unsigned afdo2_mix(unsigned);

/* the same name as afdo.c's */
static int __attribute__((noinline))
step(int x)
{
	return x & 1 ? x * 5 : x - 7;
}

unsigned
afdo2_mix(unsigned k)
{
	k ^= k >> 7;
	k *= 0x9e3779b1u;
	return k ^ (k >> 11);
}

int
afdo2_score(const struct rec *r, int i)
{
	int s = step(r->weight) + (int)(afdo2_mix(r->key) & 31);

	if (r->tag[1] == '1')
		s += step(i);
	return s;
}
