/* See COPYING file for copyright and license details. */
/*
 * fuzz_a64dec: differential libFuzzer harness of libbolt's AArch64
 * reading (a64dec.c) against the disassembler BOLT uses, that of each
 * LLVM release whose bridge is built (build/lib/profpipe-llvmN.so,
 * a64chk.h): every word of the input a64dec says decodes or does not
 * must do so, and every word that LLVM decodes must have the kind its
 * mnemonic names and the target or address LLVM prints.  The words are
 * read at every byte offset, at an address made of the input's first
 * bytes (so branches near zero and near the top of the address space
 * wrap as BOLT's unsigned arithmetic does), and each from an exact
 * 4-byte copy, so that ASan sees a read past it.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "a64dec.h"
#include "a64chk.h"
#include "llvmbr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the releases' bridges, opened on the first input and kept for the
 * process (libFuzzer ends it without a hook to close them) */
static struct llvmbr *brs[LLVMREL_N];
static size_t nbr;

static void
open_all(void)
{
	static const enum llvm_rel rels[LLVMREL_N] = { LLVM_19, LLVM_22 };
	char err[512];
	size_t i;

	for (i = 0; i < LLVMREL_N; i++)
		if ((brs[nbr] = llvmbr_open(rels[i], EM_AARCH64, err,
		    sizeof(err))) != NULL)
			nbr++;
	if (nbr == 0) {
		fprintf(stderr, "fuzz_a64dec: %s\n", err);
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[512];
	uint64_t base = 0x400000;
	size_t o, i;
	int kind;

	if (nbr == 0)
		open_all();
	if (size >= 8) {
		memcpy(&base, data, 8);
		base &= ~(uint64_t)3;
	}
	for (o = 0; o + 4 <= size; o++) {
		uint8_t *w = malloc(4);

		if (w == NULL)
			abort();
		memcpy(w, data + o, 4);
		for (i = 0; i < nbr; i++)
			if (a64chk(brs[i], a64d_word(w), base + 4 * o, &kind,
			    why, sizeof(why)) < 0) {
				fprintf(stderr, "fuzz_a64dec: %s\n", why);
				abort();
			}
		free(w);
	}
	return 0;
}
