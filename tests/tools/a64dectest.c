/* See COPYING file for copyright and license details. */
/*
 * a64dectest: checks libbolt/isa/a64dec.c's reading of AArch64 words against
 * LLVM 19's own disassembler (a64llvm.h), by its text: every word that
 * LLVM decodes must be of the kind its mnemonic names (b.cond and
 * bc.cond, cbz, cbnz, tbz, tbnz: a conditional branch; b a jump; br and
 * the authenticating braa... an indirect jump; bl a call; blr, blraa...
 * an indirect call; ret, retaa, retab, retaasppc, retabsppc, eret,
 * eretaa, eretab, drps a return; brk and udf a trap; nop a NOP; adr,
 * adrp, the literal loads, autiasppc and autibsppc a PC-relative
 * reference; not SVE's vector adr), with the target or address LLVM
 * prints (as an offset from the word's address), and every other word
 * none of these.
 *   a64dectest [-n RANDOM] [-s SEED] [FILE...]
 * checks every 4-byte word of the executable sections of each ELF FILE
 * and RANDOM random words; prints the counts, each kind's and the
 * mismatches (at most 20), and exits 1 on a mismatch.
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
#include "a64llvm.h"

static uint64_t nchecked, nvalid, nbad, kinds[9], npcref, nadrp;

static void
check(uint32_t w, uint64_t pc)
{
	char why[384];
	int kind = 0, r;

	nchecked++;
	if ((r = a64llvm_check(w, pc, &kind, why, sizeof(why))) == 0)
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
	char err[512];
	int ch, i;

	prog_init(argc, argv);
	while ((ch = getopt(argc, argv, "n:s:")) != -1) {
		switch (ch) {
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
	if (a64llvm_open(err, sizeof(err)) == -1)
		errx(1, "%s", err);
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
	printf("%" PRIu64 " words, %" PRIu64 " decode, %" PRIu64 " differ; "
	    "other %" PRIu64 " nop %" PRIu64 " jcc %" PRIu64 " jmp %" PRIu64
	    " ijmp %" PRIu64 " ret %" PRIu64 " call %" PRIu64 " icall %"
	    PRIu64 " trap %" PRIu64 "; pcref %" PRIu64 " adrp %" PRIu64 "\n",
	    nchecked, nvalid, nbad, kinds[0], kinds[1], kinds[2], kinds[3],
	    kinds[4], kinds[5], kinds[6], kinds[7], kinds[8], npcref, nadrp);
	return nbad != 0;
}
