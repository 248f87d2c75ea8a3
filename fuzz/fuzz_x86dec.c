/* See COPYING file for copyright and license details. */
/*
 * fuzz_x86dec: differential libFuzzer harness of libbolt's x86dec
 * against Capstone (libbolt/isa/x86class.c), the two decoders cfgdis.c uses.
 * At every offset of the input, the table decoder may decline, but an
 * instruction it accepts must have Capstone's length, kind, id, branch
 * target and PC-relative address.  Each offset is also decoded from an
 * exact-size copy cut 1 to 15 bytes after it, so that ASan sees a read
 * past the n bytes x86d_decode is given, and an instruction cut short
 * must be declined (Capstone cannot decode it either).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "x86class.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static csh cs;
static cs_insn *ci;

static void
check(const uint8_t *p, size_t n, uint64_t addr)
{
	char why[512];
	size_t len, k;

	if (x86chk(cs, ci, p, n, addr, &len, why, sizeof(why)) >= 0)
		return;
	fprintf(stderr, "fuzz_x86dec: 0x%llx:", (unsigned long long)addr);
	for (k = 0; k < n && k < 15; k++)
		fprintf(stderr, " %02x", p[k]);
	fprintf(stderr, ": %s\n", why);
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t o, c;
	uint8_t *cut;

	if (ci == NULL) {
		if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
			abort();
		cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
		ci = cs_malloc(cs);
	}
	if (size == 0)
		check(data, 0, 0x400000);
	for (o = 0; o < size; o++) {
		uint64_t addr = 0x400000 + o;

		check(data + o, size - o, addr);
		c = 1 + o % 15;
		if (c > size - o)
			c = size - o;
		if ((cut = malloc(c)) == NULL)
			abort();
		memcpy(cut, data + o, c);
		check(cut, c, addr);
		free(cut);
	}
	return 0;
}
