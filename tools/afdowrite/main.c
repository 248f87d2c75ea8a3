/* See COPYING file for copyright and license details. */
/*
 * afdowrite: the AutoFDO text sample profile of a binary (clang
 * -fprofile-sample-use), byte for byte what llvm-profgen 19 writes with
 * --format=text, from the pre-aggregated profile preagg writes: branch
 * entries as llvm-profgen reads branch stacks, or S entries as it reads
 * sample addresses with --leading-ip-only.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "afdowrite.h"
#include "pa.h"

static int	 qflag, vflag;

/* options (afdowrite(1)) */
static const struct prog_opt opts[] = {
	{ "event", required_argument, 'e', "NAME",
	    "the S entries of event NAME, as\n"
	    "llvm-profgen --leading-ip-only" },
	{ "output", required_argument, 'o', "FILE",
	    "write FILE instead of the standard output" },
	{ "quiet", no_argument, 'q', NULL, "no warnings" },
	{ "verbose", no_argument, 'v', NULL, "counts on the standard error" },
	{ NULL, 0, 0, NULL, NULL }
};
static const struct prog_usage usage = {
	"[-qv] [-e event] [-o file] binary [profile]",
	"Write the AutoFDO text profile llvm-profgen-19 --format=text writes\n"
	"for binary (with DWARF), from a pre-aggregated profile (preagg).",
	opts
};

struct input {
	struct code	*c;
	struct pa_reader r;
	struct counters	 lbr;		/* from branch entries */
	struct pairtab	 ips;		/* (event, address) -> count */
	uint64_t	 nentries, nlbr, nips, nother, nforeign;
	int		 bidmatch;	/* a build-id location of ours */
	int		 bidother;	/* one of another binary */
};

/* a location as an address of the binary: 1 and *a, or 0 (outside it,
 * or a constant) */
static int
ours(struct input *in, const struct pa_loc *l, uint64_t *a)
{
	if (l->obj == PA_OBJ_X)
		return 0;
	if (l->obj != PA_OBJ_SELF) {
		const char *b = pa_buildid(&in->r, l->obj);

		if (b == NULL || in->c->buildid[0] == '\0' ||
		    strcmp(b, in->c->buildid) != 0) {
			in->bidother = 1;
			return 0;
		}
		in->bidmatch = 1;
	}
	if (l->addr == PA_BR_ONLY || l->addr == PA_FT_EXTERNAL_ORIGIN ||
	    l->addr == PA_FT_EXTERNAL_RETURN)
		return 0;
	*a = l->addr + in->c->pabase;
	return 1;
}

/* a code address of the binary: 1 and *a */
static int
code_at(struct input *in, const struct pa_loc *l, uint64_t *a)
{
	return ours(in, l, a) && code_info(in->c, *a) != 0;
}

/* a branch as computeCounterFromLBR counts it: its target is code; a
 * source that is not (or none, NULL) becomes ExternalAddr */
static void
branch(struct input *in, const struct pa_loc *from, const struct pa_loc *to,
    uint64_t count)
{
	uint64_t f, t;

	if (!code_at(in, to, &t))
		return;
	if (from == NULL || !code_at(in, from, &f))
		f = EXT_ADDR;
	pair_add(&in->lbr.branches, f, t, count);
}

/* a fall-through from start to end, kept as a range when both are code
 * and it is valid (isValidFallThroughRange) */
static void
range(struct input *in, const struct pa_loc *start, const struct pa_loc *end,
    uint64_t count)
{
	uint64_t s, e;

	if (!code_at(in, start, &s) || !code_at(in, end, &e))
		return;
	if (s > e || code_crosses_uncond(in->c, s, e))
		return;
	pair_add(&in->lbr.ranges, s, e, count);
}

static void
entry(struct input *in, const struct pa_entry *e)
{
	struct pa_parts p;
	uint64_t a;

	in->nentries++;
	switch (e->type) {
	case PA_S:
		in->nips++;
		if (code_at(in, &e->loc[0], &a))
			pair_add(&in->ips, e->event == PA_NO_EVENT ? 0 :
			    (uint64_t)e->event + 1, a, e->count);
		break;
	case PA_E:
		in->nother++;
		break;
	default:
		/* a branch from a constant (a trace from outside) is one
		 * from ExternalAddr */
		in->nlbr++;
		pa_split(e, &p);
		if (p.to != NULL)
			branch(in, p.from, p.to, e->count);
		if (p.fs != NULL)
			range(in, p.fs, p.fe, e->count);
		break;
	}
}

/* the S entries of one event (0: before any E line) as --leading-ip-only
 * ranges */
static void
ip_ranges(struct input *in, uint64_t ev, struct counters *out)
{
	size_t i;

	for (i = 0; i < pair_n(&in->ips); i++) {
		const struct pairent *p = pair_at(&in->ips, i);

		if (p->a == ev)
			pair_add(&out->ranges, p->b, p->b, p->count);
	}
}

/* which event the S entries come from: -e, else the only one */
static uint64_t
pick_event(struct input *in, const char *want, const char *path)
{
	uint64_t ev = UINT64_MAX;
	size_t i;
	long k;

	if (want != NULL) {
		k = strtab_find(&in->r.events, want, strlen(want));
		if (k < 0) {
			fprintf(stderr, "%s: %s: no E %s line; the events are:",
			    progname, path, want);
			for (i = 0; i < in->r.events.n; i++)
				fprintf(stderr, " %s", in->r.events.s[i]);
			fputc('\n', stderr);
			exit(1);
		}
		return (uint64_t)k + 1;
	}
	for (i = 0; i < pair_n(&in->ips); i++) {
		uint64_t e = pair_at(&in->ips, i)->a;

		if (ev != UINT64_MAX && ev != e) {
			fprintf(stderr, "%s: %s: samples of several events; "
			    "pick one with -e:", progname, path);
			for (i = 0; i < in->r.events.n; i++)
				fprintf(stderr, " %s", in->r.events.s[i]);
			fputc('\n', stderr);
			exit(1);
		}
		ev = e;
	}
	return ev;
}

int
main(int argc, char *argv[])
{
	struct code c;
	struct dw *d = NULL;
	struct input in;
	struct counters ipc, *ct;
	struct profile *p;
	struct output out;
	struct pa_entry e;
	const char *ofile = NULL, *event = NULL, *path;
	char err[1024];
	int ch, k;

	prog_init(argc, argv);
	while ((ch = prog_opts(argc, argv, &usage)) != -1) {
		switch (ch) {
		case 'e':
			event = optarg;
			break;
		case 'o':
			ofile = optarg;
			break;
		case 'q':
			qflag = 1;
			break;
		case 'v':
			vflag = 1;
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || argc > 2)
		prog_usage_error("expected a binary and at most one profile");
	path = argc == 2 ? argv[1] : "-";
	out_input(argv[0]);
	out_input(path);
	out_plan(ofile);
	if (code_load(&c, argv[0], err, sizeof(err)) == -1) {
		fprintf(stderr, "%s: %s\n", progname, err);
		exit(1);
	}
	if (c.probes) {
		fprintf(stderr, "%s: %s: pseudo-probe binary (.pseudo_probe, "
		    ".pseudo_probe_desc): its profile is made from probes, "
		    "not lines; not supported\n", progname, argv[0]);
		exit(1);
	}
	if (c.fsdisc) {
		fprintf(stderr, "%s: %s: flow-sensitive discriminators "
		    "(__llvm_fs_discriminator__): not supported\n", progname,
		    argv[0]);
		exit(1);
	}
	if (dw_open(&d, &c, err, sizeof(err)) == -1) {
		fprintf(stderr, "%s: %s\n", progname, err);
		exit(1);
	}
	if (!qflag && dw_nolinkage(d) > 0)
		fprintf(stderr, "%s: warning: %s: %llu functions have no "
		    "linkage name in DWARF: their profiles are named by the "
		    "source name, which clang does not match to a mangled "
		    "function (clang emits linkage names with -g, or "
		    "-gline-tables-only -fdebug-info-for-profiling)\n",
		    progname, argv[0],
		    (unsigned long long)dw_nolinkage(d));
	if (!qflag && dw_nodecl(d) > 0)
		fprintf(stderr, "%s: warning: %s: %llu functions have no "
		    "DW_AT_decl_line: their line offsets are absolute lines, "
		    "which clang does not match (build with -g, or "
		    "-gline-tables-only -fdebug-info-for-profiling)\n",
		    progname, argv[0], (unsigned long long)dw_nodecl(d));
	memset(&in, 0, sizeof(in));
	in.c = &c;
	if (pa_open(&in.r, path) == -1)
		prog_open_error(path);
	while ((k = pa_next(&in.r, &e)) == 1)
		entry(&in, &e);
	if (k == -1)
		lr_errx(&in.r.lr, "%s", in.r.err);
	if (!qflag && in.bidother && !in.bidmatch)
		fprintf(stderr, "%s: warning: %s: no entry has the build-id "
		    "of %s (%s)\n", progname, in.r.lr.name, argv[0],
		    c.buildid[0] ? c.buildid : "none");
	memset(&ipc, 0, sizeof(ipc));
	if (event != NULL || in.nlbr == 0) {
		uint64_t ev = pick_event(&in, event, in.r.lr.name);

		ipc.iponly = 1;
		if (ev != UINT64_MAX)
			ip_ranges(&in, ev, &ipc);
		ct = &ipc;
	} else
		ct = &in.lbr;
	p = profile_build(&c, d, ct);
	if (dw_failed(d)) {
		fprintf(stderr, "%s: %s\n", progname, err);
		exit(1);
	}
	out_open(&out, ofile);
	profile_write(p, out.fp);
	out_commit(&out);
	if (vflag)
		fprintf(stderr, "%s: %llu entries (%llu branch, %llu sample); "
		    "%zu ranges, %zu branches; %llu functions written; "
		    "%llu instructions, %llu undecodable bytes, %llu DWARF "
		    "functions\n", progname,
		    (unsigned long long)in.nentries,
		    (unsigned long long)in.nlbr, (unsigned long long)in.nips,
		    pair_n(&ct->ranges), pair_n(&ct->branches),
		    (unsigned long long)profile_nfuncs(p),
		    (unsigned long long)c.ninsns,
		    (unsigned long long)c.ninvalid,
		    (unsigned long long)dw_nfuncs(d));
	profile_free(p);
	pa_close(&in.r);
	pair_free(&in.lbr.ranges);
	pair_free(&in.lbr.branches);
	pair_free(&in.ips);
	pair_free(&ipc.ranges);
	dw_close(d);
	code_free(&c);
	return 0;
}
