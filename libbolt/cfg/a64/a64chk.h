/* See COPYING file for copyright and license details. */
/*
 * a64chk.h: a64dec's reading of an AArch64 word (a64dec.h) against the
 * release's own disassembler through the bridge (llvmbr.h), by LLVM's
 * text of it: whether it decodes (a64d_valid's answer, where it gives
 * one), the kind its mnemonic names, the target or address it prints.
 * For the tests (tests/tools/a64dectest) and the fuzz harness
 * (fuzz/fuzz_a64dec.c).
 */
#ifndef PROFPIPE_A64CHK_H
#define PROFPIPE_A64CHK_H

#include <stddef.h>
#include <stdint.h>

#include "llvmbr.h"

/* LLVM's kind beside A64K_*: a PC-relative reference, an adrp */
#define A64K_PCREF	9
#define A64K_ADRP	10

/* w at pc: 1 they agree, 0 LLVM does not decode w (nor does a64d_valid
 * say it does), -1 they differ (why says how); *kind: LLVM's kind */
int	 a64chk(struct llvmbr *br, uint32_t w, uint64_t pc, int *kind,
	    char *why, size_t whylen);

#endif
