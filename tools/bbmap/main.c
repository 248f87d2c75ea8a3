/* See COPYING file for copyright and license details. */
/*
 * bbmap: the compiler's basic blocks (SHT_LLVM_BB_ADDR_MAP) of a binary.
 * --dump prints the decoded map.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "bbmap.h"

static noreturn void usage(void);

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "dump",	no_argument,		NULL, 'd' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "quiet",	no_argument,		NULL, 'q' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct output out;
	struct bin b;
	const char *opath = NULL;
	int ch, dflag = 0;

	prog_init(argc, argv);
	while ((ch = getopt_long(argc, argv, "do:qh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			dflag = 1;
			break;
		case 'o':
			opath = optarg;
			break;
		case 'q':
			break;
		case 'h':
			usage();
		case 'V':
			prog_version();
		default:
			prog_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (!dflag)
		prog_usage_error("only --dump is implemented: mapping a profile "
		    "onto blocks is not yet");
	if (argc != 1)
		prog_usage_error(argc ? "too many arguments" : "no binary given");

	bin_open(&b, argv[0]);
	out_open(&out, opath);
	dump_map(&b, out.fp);
	out_commit(&out);
	bin_close(&b);
	return 0;
}

static void
usage(void)
{
	printf("usage: %s --dump [-o file] binary\n"
	    "  -d, --dump            print the decoded basic-block address map\n"
	    "  -o, --output=FILE     write to FILE (default stdout)\n"
	    "  -q, --quiet           no warnings\n"
	    "  -h, --help            this help\n"
	    "      --version         print the version\n",
	    progname);
	xclose_stdout();
	exit(0);
}
