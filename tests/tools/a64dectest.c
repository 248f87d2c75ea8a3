/* See COPYING file for copyright and license details. */
/*
 * a64dectest: checks libbolt/isa/a64dec.c's reading of AArch64 words against
 * the LLVM release's own disassembler (a64chk.h, through the bridge), by
 * its text: whether a word decodes, where a64dec says (a64d_valid);
 * every word that LLVM decodes must be of the kind its mnemonic names (b.cond and
 * bc.cond, cbz, cbnz, tbz, tbnz: a conditional branch; b a jump; br and
 * the authenticating braa... an indirect jump; bl a call; blr, blraa...
 * an indirect call; ret, retaa, retab, retaasppc, retabsppc, eret,
 * eretaa, eretab, drps a return; brk and udf a trap; nop a NOP; adr,
 * adrp, the literal loads, autiasppc and autibsppc a PC-relative
 * reference; not SVE's vector adr), with the target or address LLVM
 * prints (as an offset from the word's address), and every other word
 * none of these.
 *   a64dectest [-l RELEASE] [-n RANDOM] [-s SEED] [-x MASK:VALUE]...
 *       [FILE...]
 * checks, against RELEASE (default: $PROFPIPE_LLVM, else 19), every
 * word w with w & MASK == VALUE (hex; whether it decodes only: every
 * word a64d_valid answers for, over a part of the encoding space), every
 * 4-byte word of the executable sections of each ELF FILE
 * and RANDOM random words; prints the counts (those a64dec cannot tell
 * whether they decode too), each kind's and the mismatches (at most
 * 20), and exits 1 on a mismatch.
 */
#include <err.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "elfobj.h"
#include "a64dec.h"
#include "a64chk.h"
#include "llvmbr.h"

static uint64_t nchecked, nvalid, nbad, kinds[9], npcref, nadrp, nasked;
static struct llvmbr *br;

static void
check(uint32_t w, uint64_t pc)
{
	char why[384];
	int kind = 0, r;

	nchecked++;
	nasked += a64d_valid(w) < 0;
	if ((r = a64chk(br, w, pc, &kind, why, sizeof(why))) == 0)
		return;
	nvalid++;
	if (kind == A64K_PCREF)
		npcref++;
	else if (kind == A64K_ADRP)
		nadrp++;
	else
		kinds[kind]++;
	if (r < 0 && nbad++ < 20)
		printf("mismatch %s\n", why);
}

/* -x: every word of (mask, value), whether it decodes */
static void
space(const char *arg)
{
	uint64_t mask, value, k, n, bad = 0, told = 0;
	unsigned free[32], nf = 0, b;
	char *colon;

	if ((colon = strchr(arg, ':')) == NULL)
		prog_usage_error("bad -x '%s': MASK:VALUE", arg);
	*colon = '\0';
	if (parse_u64(arg, 16, UINT32_MAX, &mask) == -1 ||
	    parse_u64(colon + 1, 16, UINT32_MAX, &value) == -1 ||
	    (value & ~mask) != 0)
		prog_usage_error("bad -x '%s:%s'", arg, colon + 1);
	for (b = 0; b < 32; b++)
		if (!(mask >> b & 1))
			free[nf++] = b;
	n = (uint64_t)1 << nf;
	for (k = 0; k < n; k++) {
		uint32_t w = (uint32_t)value;
		uint8_t q[4];
		int v, l;

		for (b = 0; b < nf; b++)
			w |= (uint32_t)(k >> b & 1) << free[b];
		if ((v = a64d_valid(w)) < 0)
			continue;
		told++;
		q[0] = (uint8_t)w;
		q[1] = (uint8_t)(w >> 8);
		q[2] = (uint8_t)(w >> 16);
		q[3] = (uint8_t)(w >> 24);
		l = llvmbr_decode(br, q, 4, 0x10000) == 4;
		if (l != v && bad++ < 20)
			printf("mismatch %08" PRIx32 ": a64dec %d, %s %d\n", w, v,
			    llvmbr_version(br), l);
	}
	printf("%s: space %08" PRIx64 ":%08" PRIx64 ": %" PRIu64 " words, %"
	    PRIu64 " told, %" PRIu64 " differ\n", llvmbr_version(br), mask,
	    value, n, told, bad);
	nbad += bad;
}

static void
file(const char *path)
{
	struct elfobj eo;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	char err[512];

	if (elfobj_open(&eo, path, err, sizeof(err)) == -1)
		errx(1, "%s", err);
	while ((scn = elf_nextscn(eo.elf, scn)) != NULL) {
		Elf_Data *dd;
		uint64_t k;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) ||
		    (dd = elf_getdata(scn, NULL)) == NULL || dd->d_buf == NULL)
			continue;
		for (k = 0; k + 4 <= dd->d_size; k += 4)
			check(a64d_word((const uint8_t *)dd->d_buf + k),
			    sh.sh_addr + k);
	}
	elfobj_close(&eo);
}

int
main(int argc, char *argv[])
{
	uint64_t nrand = 0, seed = 1, x, v;
	const char *rarg = NULL, *spaces[64];
	size_t nspaces = 0, j;
	enum llvm_rel rel;
	char err[512];
	int ch, i;

	prog_init(argc, argv);
	while ((ch = getopt(argc, argv, "l:n:s:x:")) != -1) {
		switch (ch) {
		case 'l':
			rarg = optarg;
			break;
		case 'x':
			if (nspaces == sizeof(spaces) / sizeof(spaces[0]))
				prog_usage_error("too many -x");
			spaces[nspaces++] = optarg;
			break;
		case 'n':
		case 's':
			if (parse_u64(optarg, 10, UINT64_MAX, &v) == -1)
				prog_usage_error("bad number '%s'", optarg);
			if (ch == 'n')
				nrand = v;
			else
				seed = v;
			break;
		default:
			prog_usage_error(NULL);
		}
	}
	if (llvmrel_get(rarg, &rel, err, sizeof(err)) == -1)
		prog_usage_error("%s", err);
	if ((br = llvmbr_open(rel, EM_AARCH64, err, sizeof(err))) == NULL)
		errx(1, "%s", err);
	for (j = 0; j < nspaces; j++)
		space(spaces[j]);
	for (i = optind; i < argc; i++)
		file(argv[i]);
	x = seed;
	for (v = 0; v < nrand; v++) {
		uint64_t z = (x += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		z ^= z >> 31;
		/* addresses high and low, words of every class */
		check((uint32_t)z, (z >> 32) & 0xfffffffffcULL);
	}
	printf("%s: %" PRIu64 " words (%" PRIu64 " a64dec cannot tell), %"
	    PRIu64 " decode, %" PRIu64 " differ; "
	    "other %" PRIu64 " nop %" PRIu64 " jcc %" PRIu64 " jmp %" PRIu64
	    " ijmp %" PRIu64 " ret %" PRIu64 " call %" PRIu64 " icall %"
	    PRIu64 " trap %" PRIu64 "; pcref %" PRIu64 " adrp %" PRIu64 "\n",
	    llvmbr_version(br), nchecked, nasked, nvalid, nbad, kinds[0], kinds[1], kinds[2], kinds[3],
	    kinds[4], kinds[5], kinds[6], kinds[7], kinds[8], npcref, nadrp);
	llvmbr_close(br);
	return nbad != 0;
}
