/* See COPYING file for copyright and license details. */
/*
 * fuzz_a64dec: differential libFuzzer harness of libbolt's AArch64
 * reading (a64dec.c) against LLVM 19's AArch64 disassembler, the one
 * BOLT uses (a64llvm.c): every word of the input that LLVM decodes must
 * have the kind its mnemonic names and the target or address LLVM
 * prints.  The words are read at every byte offset, at an address made
 * of the input's first bytes (so branches near zero and near the top of
 * the address space wrap as BOLT's unsigned arithmetic does), and each
 * from an exact 4-byte copy, so that ASan sees a read past it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "a64dec.h"
#include "a64llvm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int open;
	char why[512];
	uint64_t base = 0x400000;
	size_t o;
	int kind;

	if (!open) {
		if (a64llvm_open(why, sizeof(why)) == -1) {
			fprintf(stderr, "fuzz_a64dec: %s\n", why);
			abort();
		}
		open = 1;
	}
	if (size >= 8) {
		memcpy(&base, data, 8);
		base &= ~(uint64_t)3;
	}
	for (o = 0; o + 4 <= size; o++) {
		uint8_t *w = malloc(4);

		if (w == NULL)
			abort();
		memcpy(w, data + o, 4);
		if (a64llvm_check(a64d_word(w), base + 4 * o, &kind, why,
		    sizeof(why)) < 0) {
			fprintf(stderr, "fuzz_a64dec: %s\n", why);
			abort();
		}
		free(w);
	}
	return 0;
}
