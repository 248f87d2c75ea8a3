/* See COPYING file for copyright and license details. */
/*
 * heatmap: llvm-bolt-heatmap's five files (LLVM 22), an SVG of the same
 * buckets, and perf2bolt-22 --show-density's lines, from a
 * pre-aggregated profile and the binary it was collected on.
 *
 * What counts is what llvm-bolt-heatmap --pa counts
 * (DataAggregator::parseAggregatedLBREntry and printLBRHeatMap): an S
 * entry's address, and the fall-through of every T, R, F, f and r entry
 * (from its start to its end); a taken branch alone (B, or a trace
 * ending in BR_ONLY) is not drawn.  A location's build-id or X: prefix
 * is read past, as LLVM 22 does.
 */
#include <err.h>
#include <errno.h>
#include <gelf.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "heatmap.h"
#include "boltbin.h"
#include "pa.h"

void	 density_run(const char *binpath, const char *in, FILE *fp,
	    int verbose);

enum { O_MINADDR = 257, O_MAXADDR };
static const struct prog_opt opts[] = {
	{ "output", required_argument, 'o', "PREFIX",
	    "write the map to PREFIX, the CDF to PREFIX.csv, the\n"
	    "section hotness to PREFIX-section-hotness.csv and the\n"
	    "zoomed-out maps to PREFIX-SIZE (default, or -: all on\n"
	    "standard output)" },
	{ "block-size", required_argument, 'b', "SIZE[,SIZE...]",
	    "bucket size, then the zoom-out sizes, each a multiple\n"
	    "of the one before; K, M, G suffixes (default 64,4K,256K)" },
	{ "line-size", required_argument, 'l', "N",
	    "buckets per line (default 256)" },
	{ "min-address", required_argument, O_MINADDR, "ADDR",
	    "the lowest address drawn (default 0)" },
	{ "max-address", required_argument, O_MAXADDR, "ADDR",
	    "the highest address drawn (default 0xffffffff)" },
	{ "print-mappings", no_argument, 'p', NULL,
	    "name the text sections in the legend" },
	{ "traces", no_argument, 't', NULL,
	    "draw no S entry of a stream with branch entries, as\n"
	    "perf2bolt --heatmap draws a branch-stack recording" },
	{ "svg", required_argument, 's', "FILE",
	    "draw the map as an SVG picture in FILE" },
	{ "density", no_argument, 'd', NULL,
	    "print perf2bolt-22 --show-density's lines instead" },
	{ "quiet", no_argument, 'q', NULL, "no warnings" },
	{ "verbose", no_argument, 'v', NULL,
	    "with --density: each function counted, its size,\n"
	    "executed bytes and samples, on standard error" },
	{ NULL, 0, 0, NULL, NULL }
};
static const struct prog_usage usage = {
	"[-pqt] [-b size[,size...]] [-l n] [--min-address addr] "
	"[--max-address addr] [-o prefix] [-s svg] binary [preagg]\n"
	"-d [-v] binary [preagg]",
	"Write the heat maps llvm-bolt-heatmap-22 writes for a "
	"pre-aggregated profile of binary.",
	opts
};

#define MAXSIZES	16

/* HeatmapBlockSpecParser::parse: integers with an optional K, M or G
 * (then an optional i, then an optional B), each a multiple of the one
 * before; 32-bit, as BOLT's unsigned */
static size_t
parse_sizes(const char *arg, uint64_t *sz)
{
	const char *p = arg;
	size_t n = 0;

	for (;;) {
		uint64_t v = 0;
		unsigned sh = 0;
		const char *s = p;

		if (*p < '0' || *p > '9')
			prog_usage_error("'%s' value can't be parsed as an "
			    "integer", arg);
		for (; *p >= '0' && *p <= '9'; p++) {
			v = v * 10 + (uint64_t)(*p - '0');
			if (v > UINT32_MAX)
				prog_usage_error("'%s' value can't be parsed "
				    "as an integer", arg);
		}
		if (*p && *p != ',') {
			switch (*p) {
			case 'k': case 'K': sh = 10; break;
			case 'm': case 'M': sh = 20; break;
			case 'g': case 'G': sh = 30; break;
			default:
				prog_usage_error("'%s' value can't be parsed "
				    "as a suffix", s);
			}
			p++;
			if (*p == 'i')
				p++;
			if (*p == 'b' || *p == 'B')
				p++;
			if (*p && *p != ',')
				prog_usage_error("'%s' value can't be parsed "
				    "as a suffix", s);
		}
		v = (uint32_t)(v << sh);	/* unsigned's wrap, as BOLT */
		if (n == MAXSIZES)
			prog_usage_error("more than %d block sizes", MAXSIZES);
		if (v == 0 || (n > 0 && (v <= sz[n - 1] || v % sz[n - 1])))
			prog_usage_error("'%.*s' must be a multiple of "
			    "previous value", (int)(p - s), s);
		sz[n++] = v;
		if (*p == '\0')
			return n;
		p++;
	}
}

/* cl::opt<unsigned long long>: decimal, or hex after 0x */
static uint64_t
parse_addr(const char *arg)
{
	uint64_t v;
	int hex = arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X');

	if (parse_u64(arg, hex ? 16 : 10, UINT64_MAX, &v) == -1)
		prog_usage_error("bad address '%s'", arg);
	return v;
}

#define SORT_NAME	sort_secs
#define SORT_TYPE	struct hsec
#define SORT_LESS(a, b)	((a)->begin < (b)->begin || \
	((a)->begin == (b)->begin && (a)->key < (b)->key))
#include "sort.h"

/* BOLT's getTextSections: the sections with SHF_EXECINSTR and a size,
 * by address; and its hot text symbols */
static struct hsec *
text_sections(struct elfobj *eo, size_t *nsecs, uint64_t *hs, uint64_t *he)
{
	Elf *elf = eo->elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx, n = 0, cap = 0, i, j;
	struct hsec *v = NULL;

	*hs = *he = 0;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		errx(1, "%s: no section names", eo->path);
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *name;

		if (gelf_getshdr(scn, &sh) == NULL)
			errx(1, "%s: bad section header", eo->path);
		if (sh.sh_type == SHT_SYMTAB) {
			Elf_Data *d = elf_getdata(scn, NULL);
			GElf_Sym sym;
			size_t k, ns = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;

			for (k = 0; d != NULL && k < ns; k++) {
				if (gelf_getsym(d, (int)k, &sym) == NULL)
					break;
				name = elf_strptr(elf, sh.sh_link, sym.st_name);
				if (name == NULL)
					continue;
				if (strcmp(name, "__hot_start") == 0)
					*hs = sym.st_value;
				else if (strcmp(name, "__hot_end") == 0)
					*he = sym.st_value;
			}
		}
		if (!(sh.sh_flags & SHF_EXECINSTR) || sh.sh_size == 0)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		xgrow(&v, &cap, n + 1, sizeof(*v));
		v[n] = (struct hsec){ sh.sh_addr, sh.sh_addr + sh.sh_size,
		    xstrdup(name ? name : ""), n };
		n++;
	}
	sort_secs(v, n);
	/* hotness is summed by name: each section's slot is the first of
	 * its name */
	for (i = 0; i < n; i++) {
		v[i].key = i;
		for (j = 0; j < i; j++)
			if (strcmp(v[j].name, v[i].name) == 0) {
				v[i].key = v[j].key;
				break;
			}
	}
	*nsecs = n;
	return v;
}

struct input {
	uint64_t	 total;		/* NumTotalSamples */
	int		 any;		/* an entry besides E */
	int		 branches;	/* an entry besides E and S */
	char		*events;	/* the E entries' names, comma-joined */
	size_t		 nevlen;
};

static void
add_event(struct input *in, const char *name)
{
	size_t l = strlen(name), cur = in->events ? strlen(in->events) : 0;

	if (in->events != NULL) {
		/* each name once */
		const char *p = in->events;
		while ((p = strstr(p, name)) != NULL) {
			if ((p == in->events || p[-1] == ',') &&
			    (p[l] == ',' || p[l] == '\0'))
				return;
			p += l;
		}
	}
	if (cur > 4096)
		return;
	in->events = xrealloc(in->events, cur + l + 2);
	if (cur)
		in->events[cur++] = ',';
	memcpy(in->events + cur, name, l + 1);
}

/* the entries into m, as parseAggregatedLBREntry and printLBRHeatMap
 * take them */
static void
read_entries(struct pa_reader *r, struct hmap *m, struct hmap *pts,
    struct input *in)
{
	struct pa_entry e;
	int k;

	while ((k = pa_next(r, &e)) == 1) {
		switch (e.type) {
		case PA_E:
			add_event(in, pa_event(r, e.event));
			continue;
		case PA_S:
			hmap_point(pts ? pts : m, e.loc[0].addr, e.count);
			in->any = 1;
			in->total += e.count;
			continue;
		case PA_T:
		case PA_R:
			if (e.loc[2].addr != PA_BR_ONLY)
				hmap_range(m, e.loc[1].addr, e.loc[2].addr,
				    e.count);
			break;
		case PA_F:
		case PA_f:
		case PA_r:
			hmap_range(m, e.loc[0].addr, e.loc[1].addr, e.count);
			break;
		default:	/* B: a branch alone */
			break;
		}
		in->any = 1;
		in->branches = 1;
		in->total += e.count;
	}
	if (k == -1)
		lr_errx(&r->lr, "%s", r->err);
}

static void
write_map(const char *prefix, const char *suffix, const struct hmap *m,
    const struct hview *v, int what)
{
	struct output out;
	char *path;
	FILE *fp = stdout;

	/* no prefix: every part on the standard output, closed at the end */
	if (prefix != NULL) {
		path = xmalloc(strlen(prefix) + strlen(suffix) + 1);
		strcpy(path, prefix);
		strcat(path, suffix);
		out_open(&out, path);
		fp = out.fp;
		free(path);
	}
	if (what == 0)
		hmap_print(m, v, fp);
	else if (what == 1)
		hmap_print_cdf(m, fp);
	else
		hmap_print_hotness(m, v, fp);
	if (prefix != NULL)
		out_commit(&out);
}

/* the five parts (printLBRHeatMap's order), then the zoomed-out maps */
static void
write_all(const char *prefix, const uint64_t *sizes, size_t nsizes,
    struct hmap *m, const struct hview *v)
{
	size_t i;

	write_map(prefix, "", m, v, 0);
	write_map(prefix, ".csv", m, v, 1);
	write_map(prefix, "-section-hotness.csv", m, v, 2);
	for (i = 1; i < nsizes; i++) {
		char suf[32];

		hmap_resize(m, sizes[i]);
		snprintf(suf, sizeof(suf), "-%" PRIu64, sizes[i]);
		write_map(prefix, suf, m, v, 0);
	}
	if (prefix == NULL)
		xclose_stdout();
}

int
main(int argc, char *argv[])
{
	uint64_t sizes[MAXSIZES] = { 64, 4096, 262144 };
	size_t nsizes = 3, i;
	uint64_t minaddr = 0, maxaddr = 0xffffffffu, perline = 256, v;
	const char *prefix = NULL, *svgpath = NULL, *in;
	int ch, mappings = 0, density = 0, quiet = 0, verbose = 0, traces = 0;
	struct boltbin bb;
	struct pa_reader r;
	struct hmap m;
	struct hview view;
	struct hsec *secs;
	struct input inp;
	char err[512];

	prog_init(argc, argv);
	/* the tables are a few MB: in the 2 MB pages libutil asks for the
	 * heap (bigmem.c) the resident size would be twice what is used */
	(void)prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	while ((ch = prog_opts(argc, argv, &usage)) != -1) {
		switch (ch) {
		case 'o':
			prefix = optarg;
			break;
		case 'b':
			nsizes = parse_sizes(optarg, sizes);
			break;
		case 'l':
			if (parse_u64(optarg, 10, UINT32_MAX, &v) == -1 || v == 0)
				prog_usage_error("bad line size '%s'", optarg);
			perline = v;
			break;
		case O_MINADDR:
			minaddr = parse_addr(optarg);
			break;
		case O_MAXADDR:
			maxaddr = parse_addr(optarg);
			break;
		case 'p':
			mappings = 1;
			break;
		case 's':
			svgpath = optarg;
			break;
		case 'd':
			density = 1;
			break;
		case 't':
			traces = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || argc > 2)
		prog_usage_error("expected a binary and at most one input");
	in = argc == 2 ? argv[1] : "-";
	/* no output over an input (out.c; the parts after the first are
	 * checked as they are opened) */
	out_input(argv[0]);
	out_input(in);
	if (prefix != NULL && strcmp(prefix, "-") != 0)
		out_plan(prefix);
	out_plan(svgpath);
	/* Heatmap.cpp's header counts the bytes of a line in 32 bits */
	for (i = 0; i < nsizes; i++)
		if (perline * sizes[i] > UINT32_MAX)
			prog_usage_error("a line of %" PRIu64 " buckets of "
			    "%" PRIu64 " bytes: 4 GiB or more", perline,
			    sizes[i]);
	if (density) {
		if (prefix != NULL || svgpath != NULL)
			prog_usage_error("--density writes its lines alone");
		density_run(argv[0], in, stdout, verbose);
		xclose_stdout();
		return 0;
	}
	if (prefix != NULL && strcmp(prefix, "-") == 0)
		prefix = NULL;
	if (boltbin_open_elf(&bb, argv[0], err, sizeof(err)) == -1)
		errx(1, "%s", err);
	memset(&view, 0, sizeof(view));
	secs = text_sections(&bb.eo, &view.nsecs, &view.hotstart,
	    &view.hotend);
	view.secs = secs;
	view.perline = perline;
	view.mappings = mappings;

	memset(&r, 0, sizeof(r));
	memset(&inp, 0, sizeof(inp));
	if (pa_open(&r, in) == -1)
		prog_open_error(in);
	hmap_init(&m, sizes[0], minaddr, maxaddr);
	if (traces) {
		/* perf2bolt --heatmap: a branch-stack recording's samples
		 * without stacks and the ends of its stacks are not drawn;
		 * a stream of S entries alone is a basic profile, drawn */
		struct hmap pts;

		hmap_init(&pts, sizes[0], minaddr, maxaddr);
		read_entries(&r, &m, &pts, &inp);
		if (!inp.branches)
			hmap_merge(&m, &pts);
		ktab_free(&pts.tab);
	} else
		read_entries(&r, &m, NULL, &inp);
	hmap_finish(&m);
	if (!inp.any || inp.total == 0)
		errx(1, "%s: no samples in the profile: no heat map", r.lr.name);
	if (m.n == 0)
		errx(1, "%s: no sample within the addresses drawn (%d ranges "
		    "skipped): no heat map", r.lr.name, (int)m.nskipped);
	if (m.nskipped && !quiet)
		warnx("invalid traces: %" PRIu64, m.nskipped);
	if (svgpath != NULL) {
		struct svgopt so;
		struct output out;
		char e2[512];

		memset(&so, 0, sizeof(so));
		so.binname = argv[0];
		so.events = inp.events;
		so.nsamples = inp.total;
		if (boltbin_load(&bb, FT_ALLOW_STRIPPED, e2, sizeof(e2)) == 0)
			so.bin = &bb;
		else if (!quiet)
			warnx("%s: no function names: %s", argv[0], e2);
		out_open(&out, svgpath);
		svg_write(&m, &view, &so, out.fp);
		out_commit(&out);
	}
	/* --svg alone writes the picture alone */
	if (svgpath == NULL || prefix != NULL)
		write_all(prefix, sizes, nsizes, &m, &view);
	hmap_free(&m);
	pa_close(&r);
	for (i = 0; i < view.nsecs; i++)
		free((char *)secs[i].name);
	free(secs);
	free(inp.events);
	boltbin_close(&bb);
	return 0;
}
