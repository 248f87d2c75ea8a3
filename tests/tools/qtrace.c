/* See COPYING file for copyright and license details. */
/*
 * qtrace: record the real taken branches of an AArch64 program run, as
 * Arm's branch record buffer (BRBE) would, on a machine that has
 * neither Arm hardware nor branch sampling: the program runs under
 * qemu-aarch64, one instruction per translation block and no block
 * chaining (-singlestep -d exec,nochain), so qemu logs the address of
 * every instruction it executes; a step that does not land on the next
 * word is a taken branch.  The log comes through a pipe, never a file.
 * It is slow, about 2 us an instruction: trace small programs.
 *
 * Every PERIOD taken branches a sample with the last DEPTH branches,
 * most recent first, is written as a profpipe-events stream
 * (man/profpipe-events.5) that mkperfdata -a aarch64 turns into
 * perf.data; with -i, every PERIOD instructions a sample with the
 * address of the instruction and no branch stack instead (what perf
 * records without branch sampling, for perf2bolt -nl).  The mmaps are
 * the program's executable segments where qemu loaded it (the start of
 * the first address range qemu's page log reserves: the program's own,
 * at its link address or, for a PIE, at qemu's load base); branches
 * elsewhere (the dynamic loader, libc) are recorded as they happen.
 * With -m only the taken branches (or instructions) in the program's own
 * code count towards the period, so the samples fall at the same points
 * of its control flow whatever the loader and libc do.  qemu does not
 * randomize addresses, so a deterministic program gives the same
 * stream.
 *
 * usage: qtrace [-i] [-m] [-o FILE] [-p PERIOD] [-d DEPTH] [-n MAXSAMPLES]
 *               [-L SYSROOT] -- PROG [ARG...]
 */
#include <elf.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"
#include "elfobj.h"

struct br {
	uint64_t	from, to;
};

/* the program's executable PT_LOAD segments */
#define MAXSEG	16
static struct seg {
	uint64_t	vaddr, memsz, offset;
} segs[MAXSEG];
static size_t nsegs;
static uint64_t lowest = UINT64_MAX;	/* lowest PT_LOAD page */
static int pie;

static void
load(const char *path)
{
	struct elfobj eo;
	char eb[512];
	size_t k;

	if (elfobj_open(&eo, path, eb, sizeof(eb)) == -1)
		errx(1, "%s", eb);
	if (eo.machine != 183 || !eo.is64)
		errx(1, "%s: not an AArch64 ELF file", path);
	pie = eo.type == ET_DYN;
	for (k = 0; k < eo.nsegs; k++) {
		const struct elf_seg *s = &eo.segs[k];

		if ((s->vaddr & ~(uint64_t)0xfff) < lowest)
			lowest = s->vaddr & ~(uint64_t)0xfff;
		if (!(s->flags & 1) || s->filesz == 0 || nsegs == MAXSEG)
			continue;
		segs[nsegs++] = (struct seg){ s->vaddr, s->memsz, s->offset };
	}
	if (nsegs == 0)
		errx(1, "%s: no executable segment", path);
	elfobj_close(&eo);
}

static uint64_t bias;
static int have_bias;

static int
own(uint64_t a)
{
	for (size_t k = 0; k < nsegs; k++)
		if (a - (segs[k].vaddr + bias) < segs[k].memsz)
			return 1;
	return 0;
}

/* a hex number of at least one digit at *pp, which moves past it */
static int
hexnum(const char **pp, uint64_t *v)
{
	const char *p = *pp;
	uint64_t x = 0;
	int n = 0;

	for (;; p++, n++) {
		int c = *p, d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else
			break;
		if (n == 16)
			return -1;
		x = x << 4 | (uint64_t)d;
	}
	if (n == 0)
		return -1;
	*pp = p;
	*v = x;
	return 0;
}

int
main(int argc, char *argv[])
{
	const char *ofile = NULL, *sysroot = "/usr/aarch64-linux-gnu", *name;
	uint64_t period = 211, depth = 32, maxsamples = UINT64_MAX, v;
	uint64_t nbr = 0, ninsn = 0, ncounted = 0, nsamples = 0, pc, prev = 0;
	struct br *ring;
	size_t head = 0, nring = 0, i, cap = 0;
	struct output o;
	char *line = NULL, **qargv;
	int ch, fds[2], status, iflag = 0, mflag = 0, qa = 0, k;
	pid_t pid;
	FILE *log;

	prog_init(argc, argv);
	while ((ch = getopt(argc, argv, "imo:p:d:n:L:")) != -1) {
		switch (ch) {
		case 'i':
			iflag = 1;
			break;
		case 'm':
			mflag = 1;
			break;
		case 'o':
			ofile = optarg;
			break;
		case 'L':
			sysroot = optarg;
			break;
		case 'p':
		case 'd':
		case 'n':
			if (parse_u64(optarg, 10, 1u << 30, &v) == -1 || v == 0)
				prog_usage_error("bad number '%s'", optarg);
			if (ch == 'p')
				period = v;
			else if (ch == 'd')
				depth = v;
			else
				maxsamples = v;
			break;
		default:
			prog_usage_error(NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		prog_usage_error("no program to trace");
	load(argv[0]);
	ring = xcalloc(depth, sizeof(*ring));
	out_open(&o, ofile);
	if (pipe(fds) == -1)
		err(1, "pipe");
	qargv = xcalloc((size_t)argc + 12, sizeof(*qargv));
	{
		/* execvp takes char *const[]: no string literals there */
		static char a0[] = "qemu-aarch64", a1[] = "-L", a3[] = "-singlestep",
		    a4[] = "-d", a5[] = "exec,nochain,page", a6[] = "-D",
		    a7[] = "/dev/fd/3";

		qargv[qa++] = a0;
		qargv[qa++] = a1;
		qargv[qa++] = xstrdup(sysroot);
		qargv[qa++] = a3;
		qargv[qa++] = a4;
		qargv[qa++] = a5;
		qargv[qa++] = a6;
		qargv[qa++] = a7;
	}
	for (k = 0; k < argc; k++)
		qargv[qa++] = argv[k];
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		close(fds[0]);
		if (fds[1] != 3) {
			if (dup2(fds[1], 3) == -1)
				err(127, "dup2");
			close(fds[1]);
		}
		execvp(qargv[0], qargv);
		err(127, "%s", qargv[0]);
	}
	close(fds[1]);
	if ((log = fdopen(fds[0], "r")) == NULL)
		err(1, "fdopen");
	name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	fprintf(o.fp, "# profpipe-events 1\n# source=qtrace\n"
	    "# event=cycles:u\ncomm %d %d 0 1 %.15s\n", (int)pid, (int)pid, name);
	while (getline(&line, &cap, log) > 0) {
		const char *p = line;

		if (!have_bias) {
			uint64_t start;

			/* qemu's page log: the first range is the program's */
			if (hexnum(&p, &start) == -1 || *p != '-')
				continue;
			bias = pie ? start - lowest : 0;
			have_bias = 1;
			for (i = 0; i < nsegs; i++) {
				uint64_t s = (segs[i].vaddr + bias) & ~(uint64_t)0xfff;
				uint64_t e = (segs[i].vaddr + bias + segs[i].memsz +
				    0xfff) & ~(uint64_t)0xfff;

				fprintf(o.fp, "mmap %d %d 0 %" PRIx64 " %" PRIx64
				    " %" PRIx64 " r-xp - %s\n", (int)pid, (int)pid,
				    s, e - s, segs[i].offset & ~(uint64_t)0xfff,
				    argv[0]);
			}
			continue;
		}
		/* Trace N: HOSTPTR [FLAGS/PC/...] */
		if (strncmp(p, "Trace ", 6) != 0 || (p = strchr(p, '[')) == NULL)
			continue;
		p++;
		if (hexnum(&p, &v) == -1 || *p++ != '/' || hexnum(&p, &pc) == -1)
			errx(1, "qemu log: cannot read '%.60s'", line);
		ninsn++;
		if (iflag) {
			if (mflag && !own(pc))
				continue;
			if (++ncounted % period == 0 && nsamples < maxsamples) {
				fprintf(o.fp, "sample %d %d %" PRIu64 " cycles:u %"
				    PRIx64 "\n", (int)pid, (int)pid, ninsn, pc);
				nsamples++;
			}
			continue;
		}
		if (prev == 0 || pc == prev || pc == prev + 4) {
			prev = pc;	/* fell through, or a step repeated */
			continue;
		}
		ring[head] = (struct br){ prev, pc };
		head = (head + 1) % depth;
		if (nring < depth)
			nring++;
		nbr++;
		if (mflag && !own(prev)) {
			prev = pc;
			continue;
		}
		ncounted++;
		prev = pc;
		if (ncounted % period == 0 && nsamples < maxsamples) {
			fprintf(o.fp, "sample %d %d %" PRIu64 " cycles:u %" PRIx64,
			    (int)pid, (int)pid, nbr, pc);
			for (i = 1; i <= nring; i++) {
				const struct br *b = &ring[(head + depth - i) % depth];
				/* a deterministic ~6% of branches mispredicted */
				uint64_t hsh = (b->from * 0x9e3779b97f4a7c15ULL ^ b->to) >> 58;

				fprintf(o.fp, " %" PRIx64 "/%" PRIx64 "/%c",
				    b->from, b->to, hsh < 4 ? 'M' : 'P');
			}
			fputc('\n', o.fp);
			nsamples++;
		}
	}
	if (ferror(log))
		err(1, "qemu log");
	if (waitpid(pid, &status, 0) == -1)
		err(1, "waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 127)
		errx(1, "%s did not run to its end", qargv[0]);
	if (!have_bias)
		errx(1, "qemu logged no address range");
	fprintf(o.fp, "exit %d %d %d %d %" PRIu64 "\n", (int)pid, (int)pid,
	    (int)pid, (int)pid, ninsn + 1);
	out_commit(&o);
	fclose(log);
	free(line);
	free(ring);
	free(qargv[2]);
	free(qargv);
	fprintf(stderr, "qtrace: %" PRIu64 " instructions, %" PRIu64
	    " taken branches, %" PRIu64 " samples\n", ninsn, nbr, nsamples);
	return WEXITSTATUS(status) == 0 ? 0 : 1;
}
