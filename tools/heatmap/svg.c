/* See COPYING file for copyright and license details. */
/*
 * svg.c: the buckets drawn as an SVG picture a browser shows.
 *
 * One grid per text section that has samples, in address order, 128
 * cells a row, each cell a range of addresses (the map's bucket size,
 * doubled until the cells of all the grids are at most MAXCELLS, so a
 * program of any size gives a picture of a few MB at most); an empty
 * cell is white, a cell with samples takes one of the colours of a
 * logarithmic scale, whose legend is drawn under the title.  Each
 * coloured cell names its addresses, function and count on hover (its
 * <title>); the rows are labelled with their addresses on the left,
 * the hottest functions named on the right, at their rows.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "heatmap.h"
#include "boltbin.h"

#define COLS		128
#define CELL		8		/* pixels */
#define MAXCELLS	16384
#define LEFT		140		/* the address labels */
#define GRIDW		(COLS * CELL)
#define NAMEX		(LEFT + GRIDW + 16)
#define WIDTH		(NAMEX + 340)
#define NHOT		16		/* functions named */
#define NCOLORS		8

/* ColorBrewer's YlOrRd, without its near-white first step: cold to hot */
static const char *const palette[NCOLORS] = {
	"#ffeda0", "#fed976", "#feb24c", "#fd8d3c",
	"#fc4e2a", "#e31a1c", "#bd0026", "#800026"
};

static void
put_esc(FILE *fp, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		default:
			if ((unsigned char)*s < 0x20)
				putc('?', fp);
			else
				putc(*s, fp);
		}
}

/* the colour of a count: log(count) over log(max) in NCOLORS steps */
static int
level(uint64_t c, uint64_t maxc)
{
	double x;
	int l;

	if (maxc <= 1)
		return NCOLORS - 1;
	x = log((double)c) / log((double)maxc);
	l = (int)(x * NCOLORS);
	return l < 0 ? 0 : l >= NCOLORS ? NCOLORS - 1 : l;
}

/* the smallest count of level l */
static uint64_t
level_min(int l, uint64_t maxc)
{
	uint64_t c;

	if (l == 0 || maxc <= 1)
		return 1;
	c = (uint64_t)ceil(exp(log((double)maxc) * l / NCOLORS));
	while (c > 1 && level(c - 1, maxc) >= l)
		c--;
	while (level(c, maxc) < l)
		c++;
	return c;
}

struct hot {
	const struct bfunc *f;
	uint64_t	 count;
};

#define SORT_NAME	sort_hot
#define SORT_TYPE	struct hot
#define SORT_LESS(a, b)	((a)->count > (b)->count || \
	((a)->count == (b)->count && (a)->f->addr < (b)->f->addr))
#include "sort.h"

/* the hottest functions, by the samples of the finest map */
static size_t
hottest(const struct hmap *m, const struct boltbin *bin, struct hot *top)
{
	const struct functab *ft = &bin->ft;
	uint64_t *sum = xcalloc(ft->n ? ft->n : 1, sizeof(*sum));
	struct hot *all;
	size_t i, n = 0;

	for (i = 0; i < m->n; i++) {
		const struct bfunc *f = functab_find(ft, m->b[i].key * m->bsize);

		if (f != NULL)
			sum[f - ft->f] += m->b[i].count;
	}
	all = xreallocarray(NULL, ft->n ? ft->n : 1, sizeof(*all));
	for (i = 0; i < ft->n; i++)
		if (sum[i] > 0)
			all[n++] = (struct hot){ &ft->f[i], sum[i] };
	sort_hot(all, n);
	if (n > NHOT)
		n = NHOT;
	memcpy(top, all, n * sizeof(*top));
	free(all);
	free(sum);
	return n;
}

/* a section drawn: its cells from first (the cell holding its start) */
struct grid {
	const struct hsec *s;
	uint64_t	 first, ncells, count;
	int		 y;		/* of its first row */
};

static void
title(FILE *fp, const struct svgopt *o, uint64_t cell, uint64_t total)
{
	const char *b = strrchr(o->binname, '/');

	fputs("<text x=\"16\" y=\"26\" font-size=\"18\" font-weight=\"bold\">"
	    "Heat map of ", fp);
	put_esc(fp, b ? b + 1 : o->binname);
	fputs(": ", fp);
	if (o->events != NULL && *o->events) {
		put_esc(fp, o->events);
		fputs(" samples", fp);
	} else
		fputs("branch-stack (LBR) samples", fp);
	fputs("</text>\n", fp);
	fprintf(fp, "<text x=\"16\" y=\"46\" font-size=\"12\">one cell is %"
	    PRIu64 " bytes, %d cells a row; a sample counts in its cell, a "
	    "fall-through in every cell it runs through (%" PRIu64 " in all);"
	    " hover over a cell for its count</text>\n", cell, COLS, total);
}

static void
legend(FILE *fp, uint64_t maxc)
{
	int l, x = 16;

	fputs("<g id=\"legend\" font-size=\"11\">\n", fp);
	fputs("<text x=\"16\" y=\"68\">samples per cell (logarithmic):</text>\n",
	    fp);
	fprintf(fp, "<rect x=\"%d\" y=\"76\" width=\"40\" height=\"14\" "
	    "fill=\"#ffffff\" stroke=\"#888888\"/><text x=\"%d\" y=\"104\">"
	    "none</text>\n", x, x);
	x += 60;
	for (l = 0; l < NCOLORS; l++) {
		uint64_t lo = level_min(l, maxc);

		if (l > 0 && lo <= level_min(l - 1, maxc))
			continue;	/* a level no count reaches */
		fprintf(fp, "<rect class=\"swatch\" x=\"%d\" y=\"76\" "
		    "width=\"40\" height=\"14\" fill=\"%s\"/>"
		    "<text x=\"%d\" y=\"104\">&#8805; %" PRIu64 "</text>\n",
		    x, palette[l], x, lo);
		x += 60;
	}
	fprintf(fp, "<text x=\"%d\" y=\"87\">max %" PRIu64 "</text>\n", x,
	    maxc);
	fputs("</g>\n", fp);
}

static void
addr_label(FILE *fp, int y, uint64_t a)
{
	fprintf(fp, "<text x=\"%d\" y=\"%d\" font-size=\"10\" "
	    "font-family=\"monospace\" text-anchor=\"end\">0x%" PRIx64
	    "</text>\n", LEFT - 6, y + CELL, a);
}

/* one section: its frame, row labels and coloured cells */
static void
draw_grid(FILE *fp, const struct grid *g, const struct hmap *c,
    size_t *ci, uint64_t maxc, const struct boltbin *bin, uint64_t total)
{
	uint64_t rows = (g->ncells + COLS - 1) / COLS, r, step;

	fprintf(fp, "<g class=\"section\" id=\"sec-");
	put_esc(fp, g->s->name);
	fprintf(fp, "\">\n<text x=\"16\" y=\"%d\" font-size=\"13\" "
	    "font-weight=\"bold\">", g->y - 6);
	put_esc(fp, g->s->name);
	fprintf(fp, "</text><text x=\"%d\" y=\"%d\" font-size=\"11\">"
	    "0x%" PRIx64 "-0x%" PRIx64 ", %.2f%% of the samples</text>\n",
	    LEFT, g->y - 6, g->s->begin, g->s->end,
	    total ? 100.0 * (double)g->count / (double)total : 0.0);
	fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%" PRIu64
	    "\" fill=\"#ffffff\" stroke=\"#999999\" stroke-width=\"0.5\"/>\n",
	    LEFT, g->y, GRIDW, rows * CELL);
	step = rows > 64 ? 8 : rows > 16 ? 4 : 1;
	for (r = 0; r < rows; r += step)
		addr_label(fp, g->y + (int)(r * CELL),
		    (g->first + r * COLS) * c->bsize);
	for (; *ci < c->n && c->b[*ci].key < g->first + g->ncells; (*ci)++) {
		const struct bucket *b = &c->b[*ci];
		uint64_t k = b->key - g->first, a = b->key * c->bsize;
		const struct bfunc *f = bin ? functab_find(&bin->ft, a) : NULL;

		fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		    "fill=\"%s\"><title>0x%" PRIx64 "-0x%" PRIx64 " ",
		    LEFT + (int)(k % COLS) * CELL,
		    g->y + (int)(k / COLS) * CELL, CELL, CELL,
		    palette[level(b->count, maxc)], a, a + c->bsize);
		if (f != NULL) {
			put_esc(fp, f->name);
			putc(' ', fp);
		}
		fprintf(fp, "%" PRIu64 "</title></rect>\n", b->count);
	}
	fputs("</g>\n", fp);
}

/* the hottest functions named at their rows, on the right */
static void
draw_names(FILE *fp, const struct grid *g, size_t ng, const struct hot *top,
    size_t nhot, uint64_t cell, uint64_t total)
{
	int lasty = -100;
	size_t i, j;

	fputs("<g id=\"functions\" font-size=\"11\">\n", fp);
	for (i = 0; i < nhot; i++) {
		uint64_t a = top[i].f->addr;
		int y = -1, ty;

		for (j = 0; j < ng; j++)
			if (a >= g[j].s->begin && a < g[j].s->end) {
				uint64_t k = a / cell - g[j].first;

				y = g[j].y + (int)(k / COLS) * CELL + CELL / 2;
				break;
			}
		if (y < 0)
			continue;
		/* below the one before, when the rows are near */
		ty = y < lasty + 13 ? lasty + 13 : y;
		lasty = ty;
		fprintf(fp, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		    "stroke=\"#555555\" stroke-width=\"0.7\"/>", LEFT + GRIDW + 2,
		    y, NAMEX - 2, ty);
		fprintf(fp, "<text x=\"%d\" y=\"%d\">", NAMEX, ty + 4);
		put_esc(fp, top[i].f->name);
		fprintf(fp, " (%.1f%%)</text>\n",
		    total ? 100.0 * (double)top[i].count / (double)total : 0.0);
	}
	fputs("</g>\n", fp);
}

void
svg_write(const struct hmap *m, const struct hview *v,
    const struct svgopt *o, FILE *fp)
{
	struct hmap c;
	struct grid *g = xcalloc(v->nsecs + 1, sizeof(*g));
	struct hot top[NHOT];
	uint64_t cell = m->bsize, ncells, maxc, total = 0;
	size_t ng = 0, i, j, ci, nhot = 0;
	int y, height;

	/* the sections with samples */
	for (i = j = 0; i < v->nsecs; i++) {
		uint64_t cnt = 0;

		for (j = 0; j < m->n; j++) {
			uint64_t a = m->b[j].key * m->bsize;

			if (a >= v->secs[i].begin && a < v->secs[i].end)
				cnt += m->b[j].count;
		}
		if (cnt > 0)
			g[ng++] = (struct grid){ &v->secs[i], 0, 0, cnt, 0 };
	}
	for (j = 0; j < m->n; j++)
		total += m->b[j].count;
	/* the cell size: the map's bucket size doubled until it fits */
	for (;;) {
		ncells = 0;
		for (i = 0; i < ng; i++)
			ncells += (g[i].s->end - 1) / cell - g[i].s->begin / cell + 1;
		if (ncells <= MAXCELLS || cell > UINT64_MAX / 2)
			break;
		cell *= 2;
	}
	c.n = m->n;
	c.bsize = m->bsize;
	c.b = xreallocarray(NULL, m->n ? m->n : 1, sizeof(*c.b));
	memcpy(c.b, m->b, m->n * sizeof(*c.b));
	hmap_resize(&c, cell);
	maxc = hmap_max(&c);
	y = 140;
	for (i = 0; i < ng; i++) {
		g[i].first = g[i].s->begin / cell;
		g[i].ncells = (g[i].s->end - 1) / cell - g[i].first + 1;
		g[i].y = y;
		y += (int)((g[i].ncells + COLS - 1) / COLS) * CELL + 40;
	}
	if (o->bin != NULL)
		nhot = hottest(m, o->bin, top);
	height = y + 13 * (int)nhot;
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
	    WIDTH, height, WIDTH, height);
	title(fp, o, cell, total);
	legend(fp, maxc);
	fprintf(fp, "<text x=\"%d\" y=\"128\" font-size=\"11\" "
	    "font-weight=\"bold\">hottest functions</text>\n", NAMEX);
	/* the cells before the first section drawn are in none */
	for (ci = 0, i = 0; i < ng; i++) {
		while (ci < c.n && c.b[ci].key < g[i].first)
			ci++;
		draw_grid(fp, &g[i], &c, &ci, maxc, o->bin, total);
	}
	draw_names(fp, g, ng, top, nhot, cell, total);
	fputs("</svg>\n", fp);
	free(c.b);
	free(g);
}
