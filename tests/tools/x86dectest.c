/* See COPYING file for copyright and license details. */
/*
 * x86dectest: checks libbolt/isa/x86dec.c against Capstone 4, the
 * disassembler cfgdis.c takes its rules from: every instruction the table
 * decoder accepts must have Capstone's length, and the kind cfgdis.c would
 * give it from Capstone's decoding (branch targets, PC-relative lea
 * addresses, NOPs, pops, leave, returns; "other" for everything that is
 * none of those), and, where x86d_writes answers, the general-purpose
 * registers Capstone's cs_regs_access says it writes (cfgdis's
 * jump-table patterns ask it); bytes Capstone cannot decode must not be
 * accepted.
 *   x86dectest [-u] FILE... a linear sweep over each executable section
 *                           of each ELF file
 *   x86dectest -r N SEED [FILE...]
 *                           every offset of N random bytes (a third of
 *                           them bytes common in real code), then the
 *                           files as above
 * Prints a count per input and each difference; exit 1 on a difference.
 * -u prints each instruction the table leaves to Capstone;
 *   x86dectest -e SEED      every two opcode bytes after each of a set of
 *                           prefixes and REX bytes, random tails (a
 *                           minute)

 *   x86dectest -b FILE...   every offset of each file's raw bytes (the
 *                           cases fuzz/fuzz_x86dec found)
 */
#include <capstone/capstone.h>
#include <gelf.h>
#include <libelf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "x86class.h"

static csh cs;
static cs_insn *ci;
static unsigned long long ninsn, nknown, ndiff;
static int unknown;	/* -u: print what the table does not know */

static void
show(const char *what, const char *why, uint64_t addr, const uint8_t *p,
    size_t n)
{
	size_t k;

	printf("%s: 0x%llx:", what, (unsigned long long)addr);
	for (k = 0; k < n && k < 15; k++)
		printf(" %02x", p[k]);
	printf(": %s\n", why);
	ndiff++;
}

/* one instruction start: p[0, n) at address addr (libbolt/isa/x86class.c);
 * the length Capstone decodes (0 if it cannot) */
static size_t
check(const char *what, const uint8_t *p, size_t n, uint64_t addr)
{
	char why[512];
	size_t len;
	int r = x86chk(cs, ci, p, n, addr, &len, why, sizeof(why));

	if (len > 0)
		ninsn++;
	if (r == 0) {
		if (len > 0 && unknown)
			printf("unknown: %s %02x %02x %02x\n", ci->mnemonic,
			    ci->bytes[0], ci->size > 1 ? ci->bytes[1] : 0,
			    ci->size > 2 ? ci->bytes[2] : 0);
		return len;
	}
	nknown++;
	if (r < 0)
		show(what, why, addr, p, n);
	return len;
}

static void
sweep(const char *path)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	unsigned long long n0 = ninsn, k0 = nknown;

	if (fd == -1 || (elf = elf_begin(fd, ELF_C_READ, NULL)) == NULL) {
		fprintf(stderr, "x86dectest: %s: cannot read\n", path);
		exit(2);
	}
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *dd;
		const uint8_t *p;
		size_t o, len;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) ||
		    (dd = elf_getdata(scn, NULL)) == NULL || dd->d_buf == NULL)
			continue;
		p = dd->d_buf;
		for (o = 0; o < dd->d_size; o += len ? len : 1)
			len = check(path, p + o, dd->d_size - o, sh.sh_addr + o);
	}
	printf("%s: %llu instructions, %llu (%.1f%%) known to the table\n",
	    path, ninsn - n0, nknown - k0,
	    ninsn > n0 ? 100.0 * (double)(nknown - k0) / (double)(ninsn - n0) : 0.0);
	elf_end(elf);
	close(fd);
}

static uint64_t rs;

static uint64_t
rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

int
main(int argc, char **argv)
{
	int i;

	prog_init(argc, argv);
	elf_version(EV_CURRENT);
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return 2;
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	ci = cs_malloc(cs);
	if (argc >= 2 && strcmp(argv[1], "-u") == 0) {
		unknown = 1;
		argc--;
		argv++;
	}
	if (argc >= 3 && strcmp(argv[1], "-b") == 0) {
		for (i = 2; i < argc; i++) {
			FILE *fp = fopen(argv[i], "rb");
			uint8_t b[65536];
			size_t n, o;

			if (fp == NULL) {
				fprintf(stderr, "x86dectest: %s: cannot read\n",
				    argv[i]);
				return 2;
			}
			n = fread(b, 1, sizeof(b), fp);
			fclose(fp);
			for (o = 0; o < n; o++)
				check(argv[i], b + o, n - o, 0x400000 + o);
		}
		printf("bytes: %llu offsets decoded, %llu known to the table\n",
		    ninsn, nknown);
	} else if (argc == 3 && strcmp(argv[1], "-e") == 0) {
		/* every prefix set below, REX, two opcode bytes, tails */
		static const char *pre[] = { "", "\x66", "\xf2", "\xf3",
		    "\x64", "\x65", "\x2e", "\x66\x2e", "\x66\x66",
		    "\x64\x66", "\x66\x64", "\x66\x65", "\x66\xf3",
		    "\xf3\x66" };
		static const uint8_t rexes[] = { 0, 0x40, 0x41, 0x48, 0x4c,
		    0x4f };
		uint8_t b[32];
		size_t pi, ri, o, t, k;

		rs = strtoull(argv[2], NULL, 0) * 2 + 1;
		for (pi = 0; pi < sizeof(pre) / sizeof(pre[0]); pi++)
			for (ri = 0; ri < sizeof(rexes); ri++)
				for (o = 0; o < 65536; o++)
					for (t = 0; t < 3; t++) {
						k = strlen(pre[pi]);
						memcpy(b, pre[pi], k);
						if (rexes[ri])
							b[k++] = rexes[ri];
						b[k++] = (uint8_t)(o >> 8);
						b[k++] = (uint8_t)o;
						while (k < sizeof(b))
							b[k++] = (uint8_t)rnd();
						check("exhaustive", b, sizeof(b),
						    0x400000);
					}
		printf("exhaustive: %llu decoded, %llu known to the table\n",
		    ninsn, nknown);
	} else if (argc >= 4 && strcmp(argv[1], "-r") == 0) {
		size_t n = (size_t)strtoull(argv[2], NULL, 0), o;
		uint8_t *b = xcalloc(n + 16, 1);
		/* byte values that make the table's encodings likely */
		static const uint8_t hot[] = { 0x0f, 0x1f, 0x40, 0x41, 0x48,
		    0x49, 0x4c, 0x66, 0x8b, 0x89, 0x8d, 0x83, 0x81, 0xc7, 0xf7,
		    0xff, 0xe8, 0xe9, 0xeb, 0x74, 0x84, 0x85, 0x05, 0x25, 0x44,
		    0x24, 0x00, 0x90, 0xc3, 0xb8, 0xf2, 0xf3, 0x64, 0x65, 0x2e,
		    0x18, 0x10, 0x58, 0x6c, 0xbc, 0x2a, 0x6f, 0x7e, 0x0f, 0x66 };

		rs = strtoull(argv[3], NULL, 0) * 2 + 1;
		for (o = 0; o < n; o++)
			b[o] = (uint8_t)(rnd() % 3 ? rnd() :
			    hot[rnd() % sizeof(hot)]);
		for (o = 0; o < n; o++)
			check("random", b + o, n - o, 0x400000 + o);
		printf("random: %llu offsets decoded, %llu known to the table\n",
		    ninsn, nknown);
		free(b);
		for (i = 4; i < argc; i++)
			sweep(argv[i]);
	} else {
		if (argc < 2)
			prog_usage_error("usage: x86dectest FILE... | "
			    "-r N SEED [FILE...]");
		for (i = 1; i < argc; i++)
			sweep(argv[i]);
	}
	cs_free(ci, 1);
	cs_close(&cs);
	if (ndiff > 0)
		printf("%llu differences\n", ndiff);
	return ndiff > 0;
}
