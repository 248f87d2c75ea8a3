/* See COPYING file for copyright and license details. */
/*
 * bbmap: the compiler's basic blocks (SHT_LLVM_BB_ADDR_MAP) of a binary,
 * and a pre-aggregated profile mapped onto them: per function the blocks
 * touched, their counts and the edges between them (profpipe-bb(5)).
 * --dump prints the decoded map.
 */
#include <err.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bbmap.h"

static int	 report(const struct mapstat *, double threshold, int quiet,
		    int verbose);

/* options (bbmap(1)) */
static const struct prog_opt opts[] = {
	{ "dump", no_argument, 'd', NULL,
	    "print the decoded basic-block address map" },
	{ "output", required_argument, 'o', "FILE",
	    "write to FILE (default stdout)" },
	{ "pgo", no_argument, 'p', NULL,
	    "the compiler's block frequencies beside the counts" },
	{ "strict", no_argument, 's', NULL,
	    "a stale-looking profile is an error" },
	{ "threshold", required_argument, 't', "PCT",
	    "mid-block share that looks stale (default 30)" },
	{ "quiet", no_argument, 'q', NULL, "no warnings" },
	{ "verbose", no_argument, 'v', NULL,
	    "the weight mapped, mid-block and unmapped on stderr" },
	{ NULL, 0, 0, NULL, NULL }
};
static const struct prog_usage usage = {
	"[-pqsv] [-t pct] [-o file] binary [preagg]\n"
	"--dump [-o file] binary",
	"Map a pre-aggregated profile onto the compiler's basic blocks of "
	"binary\n(SHT_LLVM_BB_ADDR_MAP): per function the blocks, their "
	"counts and edges;\nor print the decoded map.",
	opts
};

int
main(int argc, char *argv[])
{
	struct output out;
	struct mapstat st;
	struct bin b;
	const char *opath = NULL;
	char **events = NULL;
	size_t nevents = 0, i;
	uint64_t pct;
	double threshold = 0.3;
	int ch, dflag = 0, pflag = 0, qflag = 0, sflag = 0, vflag = 0, stale;

	prog_init(argc, argv);
	while ((ch = prog_opts(argc, argv, &usage)) != -1) {
		switch (ch) {
		case 'd':
			dflag = 1;
			break;
		case 'o':
			opath = optarg;
			break;
		case 'p':
			pflag = 1;
			break;
		case 'q':
			qflag = 1;
			break;
		case 's':
			sflag = 1;
			break;
		case 'v':
			vflag = 1;
			break;
		case 't':
			if (parse_u64(optarg, 10, 100, &pct) == -1)
				prog_usage_error("threshold '%s' is not a "
				    "percentage 0 to 100", optarg);
			threshold = (double)pct / 100;
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		prog_usage_error("no binary given");
	if (argc > (dflag ? 1 : 2))
		prog_usage_error("too many arguments");
	if (dflag && (pflag || sflag))
		prog_usage_error("--pgo and --strict do not apply to --dump");
	out_input(argv[0]);
	if (!dflag)
		out_input(argc > 1 ? argv[1] : "-");
	out_plan(opath);

	bin_open(&b, argv[0], dflag);
	if (dflag) {
		/* the sections that decode, then the errors of those that do
		 * not, as llvm-readobj prints them and then warns; a failed
		 * run leaves no -o file */
		out_open(&out, opath);
		dump_map(&b, out.fp);
		if (b.nerrs > 0) {
			if (opath == NULL && fflush(stdout) == EOF)
				err(1, "standard output");
			for (i = 0; i < b.nerrs; i++)
				fprintf(stderr, "%s: %s\n", progname, b.errs[i]);
			out_abort(&out);
			exit(1);
		}
		out_commit(&out);
		bin_close(&b);
		return 0;
	}
	map_profile(&b, argc > 1 ? argv[1] : NULL, &st, &events, &nevents);
	stale = report(&st, threshold, qflag, vflag);
	if (stale && sflag)
		errx(1, "%s: the profile looks stale (--strict)", b.path);
	out_open(&out, opath);
	map_write(&b, out.fp, pflag, events, nevents);
	out_commit(&out);
	for (i = 0; i < nevents; i++)
		free(events[i]);
	free(events);
	map_free();
	bin_close(&b);
	return 0;
}

static double
share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* the shares of the weight on stderr; 1 if the profile looks stale:
 * more than threshold of the mapped branch weight lands in the middle of
 * blocks not after a return (Propeller's "source drift" check), or
 * almost none of it maps */
static int
report(const struct mapstat *s, double threshold, int quiet, int verbose)
{
	int stale = 0;

	if (verbose && s->br + s->ft > 0) {
		fprintf(stderr, "%s: branches %" PRIu64 ": edges %" PRIu64
		    " (%.1f%%), of them mid-block %" PRIu64 " (%.1f%%), "
		    "unmapped %" PRIu64 " (%.1f%%)\n", progname, s->br,
		    s->br_edges, share(s->br_edges, s->br), s->br_midblock,
		    share(s->br_midblock, s->br_edges), s->br_unmapped,
		    share(s->br_unmapped, s->br));
		fprintf(stderr, "%s: fall-throughs %" PRIu64 ": edges %" PRIu64
		    " (%.1f%%), within a block %" PRIu64 " (%.1f%%), not a "
		    "fall-through path %" PRIu64 " (%.1f%%), unmapped %" PRIu64
		    " (%.1f%%)\n", progname, s->ft, s->ft_edges,
		    share(s->ft_edges, s->ft), s->ft_inblock,
		    share(s->ft_inblock, s->ft), s->ft_noft,
		    share(s->ft_noft, s->ft), s->ft_unmapped,
		    share(s->ft_unmapped, s->ft));
		if (s->br_checked)
			fprintf(stderr, "%s: branches inside functions checked "
			    "against the compiler's successors %" PRIu64 ": not "
			    "a successor %" PRIu64 " (%.1f%%)\n", progname,
			    s->br_checked, s->br_notsucc,
			    share(s->br_notsucc, s->br_checked));
		fprintf(stderr, "%s: loose ends %" PRIu64 "\n", progname,
		    s->loose);
	}
	if (verbose) {
		if (s->samples)
			fprintf(stderr, "%s: samples %" PRIu64 ": in blocks %"
			    PRIu64 " (%.1f%%)\n", progname, s->samples,
			    s->samples_mapped, share(s->samples_mapped, s->samples));
	}
	if (s->br_edges &&
	    (double)s->br_midblock > threshold * (double)s->br_edges) {
		stale = 1;
		if (!quiet)
			warnx("warning: %.1f%% of the mapped branch weight lands "
			    "in the middle of blocks (more than %.0f%%): the "
			    "profile looks stale", share(s->br_midblock,
			    s->br_edges), threshold * 100);
	}
	if (s->br + s->ft + s->samples > 0 &&
	    s->br_edges + s->ft_edges + s->ft_inblock + s->samples_mapped <
	    0.0005 * (double)(s->br + s->ft + s->samples)) {
		stale = 1;
		if (!quiet)
			warnx("warning: almost none of the profile lands in "
			    "the map's blocks: not a profile of this binary?");
	}
	return stale;
}

