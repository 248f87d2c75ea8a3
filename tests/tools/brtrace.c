/* See COPYING file for copyright and license details. */
/*
 * brtrace: record the real taken branches of a program run, as an LBR
 * would, without branch-sampling hardware.  The program runs under
 * ptrace single-stepping (x86-64); a step that does not land on the
 * next instruction (its length from Capstone) is a taken branch.  (The
 * branch trap flag, PTRACE_SINGLEBLOCK, would stop only at taken branches,
 * but virtual machines often do not honour it.)  It is slow, about 70 us
 * a step in a VM: trace small programs.  Every PERIOD taken branches a
 * sample with the last DEPTH
 * branches, most recent first, is written as a profpipe-events stream
 * (man/profpipe-events.5) that mkperfdata turns into perf.data.
 * Address-space randomization is off in the child, so a deterministic
 * program gives the same trace, in the same environment: the dynamic
 * loader's and libc's start-up take more or fewer branches with the
 * size of the environment (its variables are scanned, the stack moves
 * with it), and every branch counted shifts which ones end a period.
 * With -m only the taken branches from the program's own executable
 * count towards the period (the stacks still hold every branch), so the
 * samples fall at the same points of the program's own control flow
 * whatever the environment, loader and libc do.
 *
 * usage: brtrace [-m] [-o FILE] [-p PERIOD] [-d DEPTH] [-n MAXSAMPLES] -- PROG [ARG...]
 */
#include <capstone/capstone.h>
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

#define LENCACHE	(1 << 16)

struct br {
	uint64_t	from, to;
};

static csh cs;

/* decode the instruction at pc: its length, whether it transfers
 * control, whether it is conditional, and its direct target (0 if
 * indirect); cached by address */
struct insn {
	uint64_t	addr, target;
	uint8_t		len, cti, cond;
};
static struct insn icache[LENCACHE];

static const struct insn *
decode(pid_t pid, uint64_t pc)
{
	size_t slot = (size_t)((pc * 0x9e3779b97f4a7c15ULL) >> 48);
	struct insn *c = &icache[slot];
	uint8_t code[16];
	struct iovec local = { code, sizeof(code) }, remote = { (void *)pc,
	    sizeof(code) };
	cs_insn *insn;
	size_t n, g;

	if (c->addr == pc && c->len)
		return c;
	memset(c, 0, sizeof(*c));
	c->addr = pc;
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != (ssize_t)sizeof(code)) {
		remote.iov_len = local.iov_len = 8;
		if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != 8)
			return c;
	}
	n = cs_disasm(cs, code, local.iov_len, pc, 1, &insn);
	if (n != 1)
		return c;
	c->len = (uint8_t)insn->size;
	for (g = 0; g < insn->detail->groups_count; g++) {
		switch (insn->detail->groups[g]) {
		case CS_GRP_JUMP:
		case CS_GRP_CALL:
		case CS_GRP_RET:
		case CS_GRP_INT:
		case CS_GRP_IRET:
			c->cti = 1;
			break;
		}
	}
	if (c->cti && insn->detail->x86.op_count == 1 &&
	    insn->detail->x86.operands[0].type == X86_OP_IMM)
		c->target = (uint64_t)insn->detail->x86.operands[0].imm;
	c->cond = c->cti && insn->id != X86_INS_JMP && insn->id != X86_INS_CALL &&
	    insn->id != X86_INS_RET && insn->detail->groups_count > 0 &&
	    c->target != 0 && insn->mnemonic[0] == 'j';
	cs_free(insn, n);
	return c;
}

/* the executable mappings of the program's own file (-m) */
struct range {
	uint64_t	start, end;
};
static struct range *own;
static size_t	 nown, capown;

static int
in_own(uint64_t a)
{
	size_t i;

	for (i = 0; i < nown; i++)
		if (a >= own[i].start && a < own[i].end)
			return 1;
	return 0;
}

static void
write_maps(FILE *out, pid_t pid)
{
	char path[64], *line = NULL, perm[8], file[4096], exe[4096];
	size_t cap = 0;
	uint64_t start, end, off;
	ssize_t n;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	if ((n = readlink(path, exe, sizeof(exe) - 1)) == -1)
		err(1, "%s", path);
	exe[n] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if ((fp = fopen(path, "r")) == NULL)
		err(1, "%s", path);
	while (getline(&line, &cap, fp) > 0) {
		file[0] = '\0';
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64
		    " %*s %*s %4095[^\n]", &start, &end, perm, &off, file) < 4)
			continue;
		if (perm[2] != 'x' || file[0] != '/')
			continue;
		if (strcmp(file, exe) == 0) {
			xgrow(&own, &capown, nown + 1, sizeof(*own));
			own[nown++] = (struct range){ start, end };
		}
		fprintf(out, "mmap %d %d 0 %" PRIx64 " %" PRIx64 " %" PRIx64
		    " %s - %s\n", (int)pid, (int)pid, start, end - start, off,
		    perm, file);
	}
	free(line);
	fclose(fp);
}

int
main(int argc, char *argv[])
{
	const char *ofile = NULL;
	uint64_t period = 211, depth = 32, maxsamples = UINT64_MAX, v;
	uint64_t ninsn = 0, nsamples = 0, ncounted = 0, pc, prev = 0;
	struct br *ring;
	size_t head = 0, nring = 0, i;
	struct user_regs_struct regs;
	struct output o;
	pid_t pid;
	int ch, status, sig = 0, mflag = 0;
	const char *base;

	prog_init(argc, argv);
	while ((ch = getopt(argc, argv, "mo:p:d:n:")) != -1) {
		switch (ch) {
		case 'm':
			mflag = 1;
			break;
		case 'o':
			ofile = optarg;
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
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		errx(1, "capstone: cannot open x86-64");
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	ring = xcalloc(depth, sizeof(*ring));
	out_open(&o, ofile);
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		personality(ADDR_NO_RANDOMIZE);
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) == -1)
			err(127, "ptrace");
		execvp(argv[0], argv);
		err(127, "%s", argv[0]);
	}
	if (waitpid(pid, &status, 0) == -1 || !WIFSTOPPED(status))
		errx(1, "%s: did not start", argv[0]);
	base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	fprintf(o.fp, "# profpipe-events 1\n# source=brtrace\n"
	    "# event=cycles:u\ncomm %d %d 0 1 %.15s\n", (int)pid, (int)pid, base);
	write_maps(o.fp, pid);
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)PTRACE_O_EXITKILL);
	for (;;) {
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, (void *)(intptr_t)sig) == -1)
			err(1, "ptrace singlestep");
		sig = 0;
		if (waitpid(pid, &status, 0) == -1)
			err(1, "waitpid");
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
		if (WSTOPSIG(status) != SIGTRAP) {
			sig = WSTOPSIG(status);	/* deliver it */
			continue;
		}
		if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) == -1)
			err(1, "ptrace getregs");
		pc = regs.rip;
		if (prev == 0 || pc == prev || pc == prev + decode(pid, prev)->len) {
			/* fell through (rep-prefixed instructions step in place) */
			prev = pc;
			continue;
		}
		ring[head] = (struct br){ prev, pc };
		head = (head + 1) % depth;
		if (nring < depth)
			nring++;
		ninsn++;	/* counts taken branches */
		if (mflag && !in_own(prev)) {
			prev = pc;
			continue;
		}
		ncounted++;
		prev = pc;
		if (ncounted % period == 0 && nsamples < maxsamples) {
			fprintf(o.fp, "sample %d %d %" PRIu64 " cycles:u %" PRIx64,
			    (int)pid, (int)pid, ninsn, pc);
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
	fprintf(o.fp, "exit %d %d %d %d %" PRIu64 "\n", (int)pid, (int)pid,
	    (int)pid, (int)pid, ninsn);
	out_commit(&o);
	cs_close(&cs);
	free(own);
	fprintf(stderr, "brtrace: %" PRIu64 " taken branches, %" PRIu64
	    " samples\n", ninsn, nsamples);
	return 0;
}
