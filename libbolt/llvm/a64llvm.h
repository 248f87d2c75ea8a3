/* See COPYING file for copyright and license details. */
/*
 * a64llvm.h: whether an AArch64 word is an instruction, answered by the
 * decoder BOLT itself uses: LLVM 19's AArch64 MCDisassembler with every
 * feature on (BinaryContext::createBinaryContext's "+all"), reached
 * through LLVM's C interface (llvm-c/Disassembler.h) in libLLVM.so.19.1,
 * loaded on first use, so that x86-64 work never loads it.  A word it
 * cannot decode makes BOLT ignore the function; no other decoder (not
 * Capstone 4, which lacks SVE, MTE, the pointer-authentication and later
 * extensions) draws that line where LLVM 19 does.
 */
#ifndef PROFPIPE_A64LLVM_H
#define PROFPIPE_A64LLVM_H

#include <stddef.h>
#include <stdint.h>

/* load the library once: 0, or -1 with the reason in err */
int	 a64llvm_open(char *err, size_t errlen);
/* does word w decode (after a successful a64llvm_open) */
int	 a64llvm_valid(uint32_t w);
/* LLVM's text of w at address pc (tabs as LLVM prints them), or NULL
 * when it does not decode; for the tests */
const char *a64llvm_text(uint32_t w, uint64_t pc, char *buf, size_t len);

/* a64dec's reading of w at pc against LLVM's text of it (the kind its
 * mnemonic names, the target or address it prints), for the tests
 * (tests/tools/a64dectest) and the fuzz harness (fuzz/fuzz_a64dec.c): 1
 * they agree, 0 LLVM does not decode w, -1 they differ (why says how);
 * *kind: LLVM's kind (A64K_*, or A64K_PCREF, A64K_ADRP) */
#define A64K_PCREF	9
#define A64K_ADRP	10
int	 a64llvm_check(uint32_t w, uint64_t pc, int *kind, char *why,
	    size_t whylen);

#endif
