/* See COPYING file for copyright and license details. */
/*
 * map.c: the map of buckets as LLVM 22's bolt/lib/Profile/Heatmap.cpp
 * keeps and prints it: a sample registers its bucket, a fall-through
 * range every bucket from its start to its end (none when the start is
 * outside --min-address..--max-address, the range runs backwards or is
 * longer than 64 KiB); the text map in raw_ostream's ANSI colours, the
 * CDF of the buckets by count and the hotness of each text section.
 *
 * Where Heatmap.cpp loops over addresses that could wrap (an address
 * near 2^64 given --max-address), the loops here are counted instead:
 * the reference would not end there.
 */
#include <err.h>
#include <inttypes.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "heatmap.h"

static uint64_t
bhash(const void *rec)
{
	return hash_mix64(((const struct bucket *)rec)->key);
}

static int
beq(const void *rec, const void *key)
{
	return ((const struct bucket *)rec)->key == *(const uint64_t *)key;
}

void
hmap_init(struct hmap *m, uint64_t bsize, uint64_t minaddr, uint64_t maxaddr)
{
	memset(m, 0, sizeof(*m));
	m->bsize = bsize;
	m->minaddr = minaddr;
	m->maxaddr = maxaddr;
	ktab_init(&m->tab, sizeof(struct bucket), 1024, bhash);
}

static void
bump(struct hmap *m, uint64_t key, uint64_t count)
{
	struct bucket *b;
	int added;

	b = ktab_get(&m->tab, &key, hash_mix64(key), beq, &added);
	if (b == NULL)
		errx(1, "more than %zu buckets", KTAB_MAX);
	if (added)
		b->key = key;
	b->count += count;	/* wraps as std::map's uint64_t does */
}

void
hmap_point(struct hmap *m, uint64_t addr, uint64_t count)
{
	if (addr > m->maxaddr || addr < m->minaddr)
		return;
	bump(m, addr / m->bsize, count);
}

void
hmap_range(struct hmap *m, uint64_t start, uint64_t end, uint64_t count)
{
	uint64_t k, last;

	if (start > m->maxaddr || start < m->minaddr || start > end ||
	    end - start > 64 * 1024) {
		m->nskipped++;
		return;
	}
	last = end / m->bsize;
	for (k = start / m->bsize;; k++) {
		bump(m, k, count);
		if (k == last)
			break;
	}
}

/* the buckets of src (not finished) added to dst's, of the same size */
void
hmap_merge(struct hmap *dst, const struct hmap *src)
{
	size_t i;

	for (i = 0; i < src->tab.n; i++) {
		const struct bucket *b = ktab_at(&src->tab, i);

		bump(dst, b->key, b->count);
	}
}

#define SORT_NAME	sort_buckets
#define SORT_TYPE	struct bucket
#define SORT_LESS(a, b)	((a)->key < (b)->key)
#include "sort.h"

#define SORT_NAME	sort_desc
#define SORT_TYPE	uint64_t
#define SORT_LESS(a, b)	(*(a) > *(b))
#include "sort.h"

void
hmap_finish(struct hmap *m)
{
	ktab_drop_index(&m->tab);
	m->n = m->tab.n;
	m->b = xreallocarray(NULL, m->n ? m->n : 1, sizeof(*m->b));
	if (m->n)
		memcpy(m->b, m->tab.v, m->n * sizeof(*m->b));
	ktab_free(&m->tab);
	sort_buckets(m->b, m->n);
}

/* NewMap[Bucket * BucketSize / NewSize] += Count, in key order: the new
 * keys come in order too */
void
hmap_resize(struct hmap *m, uint64_t bsize)
{
	size_t i, j = 0;

	for (i = 0; i < m->n; i++) {
		uint64_t k = m->b[i].key * m->bsize / bsize;

		if (j > 0 && m->b[j - 1].key == k)
			m->b[j - 1].count += m->b[i].count;
		else
			m->b[j++] = (struct bucket){ k, m->b[i].count };
	}
	m->n = j;
	m->bsize = bsize;
}

void
hmap_free(struct hmap *m)
{
	free(m->b);
	m->b = NULL;
	m->n = 0;
}

uint64_t
hmap_max(const struct hmap *m)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->b[i].count > v)
			v = m->b[i].count;
	return v;
}

/* raw_ostream's colours (their ANSI numbers) */
enum { BLACK = 0, RED = 1, GREEN = 2, YELLOW = 3, CYAN = 6, WHITE = 7 };
#define NRANGES	6
static const int colors[NRANGES] = { WHITE, WHITE, CYAN, GREEN, YELLOW, RED };

/* the printer's state: Heatmap::print's changeColor keeps the current
 * colour in a static, which lives from one map to the next */
struct pr {
	FILE		*fp;
	uint64_t	 bs, bpl;	/* bucket size, bytes per line */
	uint64_t	 perline;
	int		 wide;		/* --max-address above 4 GiB */
	uint64_t	 range[NRANGES];
};
static int curcolor = BLACK;

static void
color(struct pr *p, int c)
{
	if (curcolor == c)
		return;
	fprintf(p->fp, "\033[0;3%dm", c);
	curcolor = c;
}

/* the number of times for (f = from; f < to; f += step) runs, at most a
 * line of buckets */
static uint64_t
nfill(const struct pr *p, uint64_t from, uint64_t to)
{
	uint64_t n;

	if (from >= to)
		return 0;
	n = (to - from - 1) / p->bs + 1;
	return n < p->perline ? n : p->perline;
}

static void
dots(struct pr *p, uint64_t n)
{
	while (n-- > 0)
		putc_unlocked('.', p->fp);
}

/* llvm::alignTo */
static uint64_t
align_to(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

static void
start_line(struct pr *p, uint64_t addr, int empty)
{
	uint64_t line;

	color(p, WHITE);
	line = addr / p->bpl * p->bpl;
	if (p->wide)
		fprintf(p->fp, "0x%016" PRIx64 ": ", line);
	else
		fprintf(p->fp, "0x%08" PRIx64 ": ", line);
	if (empty)
		addr = line + p->bpl;
	dots(p, nfill(p, line, addr));
}

static void
finish_line(struct pr *p, uint64_t addr)
{
	uint64_t end = align_to(addr + 1, p->bpl);

	dots(p, nfill(p, addr + p->bs, end));
	putc_unlocked('\n', p->fp);
}

static void
fill_range(struct pr *p, uint64_t start, uint64_t end)
{
	uint64_t n;

	if (start / p->bpl == end / p->bpl) {
		n = nfill(p, start + p->bs, end);
		while (n-- > 0) {
			color(p, WHITE);
			putc_unlocked('.', p->fp);
		}
		return;
	}
	color(p, WHITE);
	finish_line(p, start);
	start = align_to(start, p->bpl);
	n = (end - start) / p->bpl;
	if (n > 32)
		putc_unlocked('\n', p->fp);
	else
		while (n-- > 0) {
			start_line(p, start, 1);
			putc_unlocked('\n', p->fp);
			start += p->bpl;
		}
	start_line(p, end, 0);
}

static void
value(struct pr *p, uint64_t v, int ch, int reset)
{
	int i;

	for (i = 0; i < NRANGES; i++)
		if (v <= p->range[i]) {
			color(p, colors[i]);
			break;
		}
	if (v <= p->range[0])
		putc_unlocked(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch, p->fp);
	else
		putc_unlocked(ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch, p->fp);
	if (reset)
		color(p, WHITE);
}

static void
legend(struct pr *p, const struct hview *v)
{
	uint64_t prev = 0;
	size_t i;

	fputs("Legend:\n\nRanges:\n", p->fp);
	for (i = 0; i < NRANGES; i++) {
		fputs("  ", p->fp);
		value(p, p->range[i], 'o', 1);
		fprintf(p->fp, " : (%" PRIu64 ", %" PRIu64 "]\n", prev,
		    p->range[i]);
		prev = p->range[i];
	}
	if (!v->mappings)
		return;
	fputs("\nSections:\n", p->fp);
	for (i = 0; i < v->nsecs; i++) {
		const struct hsec *s = &v->secs[i];
		int up = 'A' + (int)(i % 26);

		/* formatv("{2,-10}"): the name left-aligned in 10 */
		fprintf(p->fp, "  %c/%c : %-10s ", up - 'A' + 'a', up,
		    s->name);
		if (p->wide)
			fprintf(p->fp, "0x%016" PRIx64 "-0x%016" PRIx64 "\n",
			    s->begin, s->end);
		else
			fprintf(p->fp, "0x%08" PRIx64 "-0x%08" PRIx64 "\n",
			    s->begin, s->end);
	}
	putc_unlocked('\n', p->fp);
}

/* the five lines of hex digits over the columns; the arithmetic is
 * Heatmap.cpp's, in 32 bits */
static void
header(struct pr *p)
{
	unsigned pos, i, val, prev;

	for (pos = 5; pos > 0; pos--) {
		fputs(p->wide ? "                    " : "            ", p->fp);
		prev = (unsigned)-1;
		for (i = 0; i < p->bpl; i = (unsigned)(i + p->bs)) {
			val = (i & ((1u << pos * 4) - 1)) >> (pos - 1) * 4;
			if (val != prev) {
				fprintf(p->fp, "%x", val);
				prev = val;
			} else
				putc_unlocked(' ', p->fp);
		}
		putc_unlocked('\n', p->fp);
	}
}

void
hmap_print(const struct hmap *m, const struct hview *v, FILE *fp)
{
	struct pr p;
	uint64_t maxv = hmap_max(m), prev = 0;
	size_t i, secstart = 0, s;

	p.fp = fp;
	p.bs = m->bsize;
	p.perline = v->perline;
	p.bpl = v->perline * m->bsize;
	p.wide = m->maxaddr > 0xffffffffu;
	for (i = 0; i < NRANGES; i++) {
		uint64_t r = (uint64_t)pow((double)maxv,
		    (double)(i + 1) / NRANGES);

		p.range[i] = r > i + 1 ? r : i + 1;
	}
	p.range[NRANGES - 1] = maxv > NRANGES ? maxv : NRANGES;
	/* black background, then the default colour */
	fputs("\033[0;40m", fp);
	color(&p, WHITE);
	legend(&p, v);
	header(&p);
	for (i = 0; i < m->n; i++) {
		uint64_t addr = m->b[i].key * m->bsize;
		int ch = 'o';

		for (s = secstart; s < v->nsecs; s++)
			if (addr >= v->secs[s].begin && addr < v->secs[s].end)
				break;
		if (s < v->nsecs) {
			secstart = s;
			ch = 'a' + (int)(s % 26);
		}
		if (prev)
			fill_range(&p, prev, addr);
		else
			start_line(&p, addr, 0);
		value(&p, m->b[i].count, ch, 0);
		prev = addr;
	}
	if (prev) {
		color(&p, WHITE);
		finish_line(&p, prev);
	}
}

/*
 * printf's "%.4f" of a finite x >= 0 below 2^53, written at p: x is
 * m 2^-k exactly (m < 2^53), so x 10^4 rounded to the nearest integer,
 * ties to even as glibc rounds, is (m 10^4) >> k and a look at the bits
 * shifted out, in 128 bits.  Other values go to snprintf.  The CDF has
 * a line per bucket, and printf's exact conversion was most of its
 * time.
 */
static size_t
fmt_f4(char *p, double x)
{
	unsigned __int128 n, half, r;
	uint64_t m, q;
	int e, k;
	char *s = p;

	if (!(x >= 0) || x >= 9007199254740992.0)
		return (size_t)snprintf(p, 40, "%.4f", x);
	m = (uint64_t)ldexp(frexp(x, &e), 53);
	k = 53 - e;
	n = (unsigned __int128)m * 10000;
	if (k <= 0)
		q = (uint64_t)(n << -k);
	else if (k >= 120)
		q = 0;		/* below 2^-66: 0.0000 */
	else {
		q = (uint64_t)(n >> k);
		r = n - ((unsigned __int128)q << k);
		half = (unsigned __int128)1 << (k - 1);
		if (r > half || (r == half && (q & 1)))
			q++;
	}
	s = put_dec(s, q / 10000);
	*s++ = '.';
	q %= 10000;
	s[0] = (char)('0' + q / 1000);
	s[1] = (char)('0' + q / 100 % 10);
	s[2] = (char)('0' + q / 10 % 10);
	s[3] = (char)('0' + q % 10);
	return (size_t)(s + 4 - p);
}

void
hmap_print_cdf(const struct hmap *m, FILE *fp)
{
	uint64_t *c = xreallocarray(NULL, m->n ? m->n : 1, sizeof(*c));
	uint64_t total = 0, run = 0;
	double kb = (1.0 * (double)m->bsize) / 1024, pct;
	size_t i;

	for (i = 0; i < m->n; i++) {
		c[i] = m->b[i].count;
		total += c[i];
	}
	sort_desc(c, m->n);
	pct = 100.0 / (double)total;
	fputs("Bucket counts, Size (KB), CDF (%)\n", fp);
	for (i = 0; i < m->n; i++) {
		char line[128], *p = line;

		run += c[i];
		p = put_dec(p, i + 1);
		*p++ = ',';
		*p++ = ' ';
		p += fmt_f4(p, kb * (double)(i + 1));
		*p++ = ',';
		*p++ = ' ';
		p += fmt_f4(p, pct * (double)run);
		*p++ = '\n';
		fwrite_unlocked(line, 1, (size_t)(p - line), fp);
	}
	free(c);
}

/* formatv's {N:f4} of a double: llvm::write_double */
static void
put_f4(FILE *fp, double d)
{
	if (isnan(d))
		fputs("nan", fp);
	else if (isinf(d))
		fputs(signbit(d) ? "-INF" : "INF", fp);
	else {
		char b[64];

		fwrite_unlocked(b, 1, fmt_f4(b, d), fp);
	}
}

void
hmap_print_hotness(const struct hmap *m, const struct hview *v, FILE *fp)
{
	/* by section name (StringMap); the last slot: "[hot text]" */
	uint64_t *hot, *util, total = 0, unmapped = 0, mapped;
	size_t i, idx = 0, ns = v->nsecs, k;
	int hasrange = v->hotstart != v->hotend;

	if (ns == 0)
		return;
	hot = xcalloc(ns + 1, sizeof(*hot));
	util = xcalloc(ns + 1, sizeof(*util));
	for (i = 0; i < m->n; i++) {
		uint64_t a = m->b[i].key * m->bsize, c = m->b[i].count;

		total += c;
		while (idx < ns && a >= v->secs[idx].end)
			idx++;
		if (idx >= ns || a + m->bsize < v->secs[idx].begin) {
			unmapped += c;
			continue;
		}
		hot[v->secs[idx].key] += c;
		util[v->secs[idx].key]++;
		if (v->hotstart <= a && a < v->hotend) {
			hot[ns] += c;
			util[ns]++;
		}
	}
	fputs("Section Name, Begin Address, End Address, Percentage Hotness, "
	    "Utilization Pct, Partition Score\n", fp);
	mapped = total - unmapped;
	for (i = 0; i < ns + (hasrange ? 1 : 0); i++) {
		const char *name = i < ns ? v->secs[i].name : "[hot text]";
		uint64_t b = i < ns ? v->secs[i].begin : v->hotstart;
		uint64_t e = i < ns ? v->secs[i].end : v->hotend;
		uint64_t nb = e / m->bsize + !!(e % m->bsize) - b / m->bsize;
		float h, mh, u, ps;

		k = i < ns ? v->secs[i].key : ns;
		h = (float)(1. * (double)hot[k] / (double)total);
		mh = mapped ? (float)(1. * (double)hot[k] / (double)mapped) : 0;
		u = (float)(1. * (double)util[k] / (double)nb);
		ps = mh * u;
		fprintf(fp, "%s, 0x%" PRIx64 ", 0x%" PRIx64 ", ", name, b, e);
		put_f4(fp, 100. * h);
		fputs(", ", fp);
		put_f4(fp, 100. * u);
		fputs(", ", fp);
		put_f4(fp, ps);
		putc_unlocked('\n', fp);
	}
	if (unmapped > 0) {
		fputs("[unmapped], 0x0, 0x0, ", fp);
		put_f4(fp, 100.0 * (double)unmapped / (double)total);
		fputs(", 0, 0\n", fp);
	}
	free(hot);
	free(util);
}
