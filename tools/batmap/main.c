/* See COPYING file for copyright and license details. */
/*
 * batmap: BOLT address translation.  --dump prints the .note.bolt_bat
 * tables of a BOLTed binary as text (profpipe-bat(5)), checked against
 * the binary itself; otherwise a pre-aggregated profile of the BOLTed
 * binary is translated into one of its input binary (translate.c).
 */
#include <getopt.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "bat.h"
#include "functab.h"
#include "pa.h"

#include "batmap.h"

int	 vflag;
int	 yflag;
const char *pefile;

static void	 load_bolted(struct batbin *, const char *);
static void	 dump(FILE *, const struct batbin *);

/* options (batmap(1)) */
static const struct prog_opt opts[] = {
	{ "dump", no_argument, 'd', NULL,
	    "print the tables (profpipe-bat(5))" },
	{ "output", required_argument, 'o', "FILE",
	    "write FILE instead of the standard output" },
	{ "quiet", no_argument, 'q', NULL,
	    "no warnings (batmap has none but errors)" },
	{ "verbose", no_argument, 'v', NULL,
	    "counts of translated and dropped entries" },
	{ "past-end", required_argument, 301, "FILE",
	    "write the branches with an end past the end of its\n"
	    "input function to FILE, as fdata lines" },
	{ "yaml", no_argument, 300, NULL,
	    "read the profile as perf2bolt reads it when it writes YAML" },
	{ NULL, 0, 0, NULL, NULL }
};
static const struct prog_usage usage = {
	"[-qv] [--yaml] [--past-end file] [-o file] bolted-binary input-binary "
	"[profile]\n"
	"--dump [-o file] bolted-binary",
	"Translate a pre-aggregated profile of a binary written by llvm-bolt\n"
	"--enable-bat into one of its input binary, through the BOLT address\n"
	"translation tables (.note.bolt_bat); or print the tables.",
	opts
};

int
main(int argc, char *argv[])
{
	struct output out;
	struct batbin b;
	const char *ofile = NULL;
	int ch, dflag = 0;

	prog_init(argc, argv);
	while ((ch = prog_opts(argc, argv, &usage)) != -1) {
		switch (ch) {
		case 'd':
			dflag = 1;
			break;
		case 'o':
			ofile = optarg;
			break;
		case 'v':
			vflag = 1;
			break;
		case 301:
			pefile = optarg;
			break;
		case 300:
			yflag = 1;
			break;
		case 'q':
			break;
		}
	}
	argc -= optind;
	argv += optind;
	if (dflag && argc != 1)
		prog_usage_error("--dump takes one BOLTed binary");
	if (!dflag && (argc < 2 || argc > 3))
		prog_usage_error("expected a BOLTed binary, its input binary "
		    "and at most one profile");
	out_input(argv[0]);
	if (!dflag) {
		out_input(argv[1]);
		out_input(argc > 2 ? argv[2] : "-");
	}
	out_plan(ofile);
	out_plan(pefile);
	load_bolted(&b, argv[0]);
	out_open(&out, ofile);
	if (dflag)
		dump(out.fp, &b);
	else
		translate(out.fp, &b, argv[1], argc > 2 ? argv[2] : NULL);
	out_commit(&out);
	translate_free();
	batbin_close(&b);
	return 0;
}

static void
load_bolted(struct batbin *b, const char *path)
{
	char err[512];

	if (batbin_open(b, path, err, sizeof(err)) == -1) {
		errx(1, "%s", err);
	}
}

static void
dump(FILE *fp, const struct batbin *b)
{
	const struct bat *t = &b->bat;
	const struct bat_frag *f;
	const struct bat_entry *x;
	size_t i, j;
	static const char *cold[] = { "none", "same", "main", "19" };

	fprintf(fp, "# profpipe-bat 1\n");
	fprintf(fp, "# producer=%s\n", b->producer[0] ? b->producer : "-");
	fprintf(fp, "# hot=%zu cold=%zu entries=%zu bytes=%zu "
	    "cold-index=%s\n", t->nhot, t->nfrag - t->nhot, t->nentries,
	    t->end, cold[t->coldidx]);
	for (i = 0; i < t->nfrag; i++) {
		f = &t->frag[i];
		if (f->cold)
			fprintf(fp, "cold %llx %llx %x %zu %s\n",
			    (unsigned long long)f->addr,
			    (unsigned long long)t->frag[f->parent].addr,
			    f->skew, f->nent, b->name[i] ? b->name[i] : "-");
		else
			fprintf(fp, "hot %llx %016llx %llu %zu %zu %s\n",
			    (unsigned long long)f->addr,
			    (unsigned long long)f->hash,
			    (unsigned long long)f->nblocks, f->nent, f->nsec,
			    b->name[i] ? b->name[i] : "-");
		for (j = 0; j < f->nent; j++) {
			x = &f->ent[j];
			if (x->branch)
				fprintf(fp, "branch %llx %x %x\n",
				    (unsigned long long)bat_entry_addr(f, x),
				    x->out, x->in);
			else
				fprintf(fp, "block %llx %x %x %u %016llx\n",
				    (unsigned long long)bat_entry_addr(f, x),
				    x->out, x->in, x->index,
				    (unsigned long long)x->hash);
		}
		for (j = 0; j < f->nsec; j++)
			fprintf(fp, "entry %x\n", f->sec[j]);
	}
}

