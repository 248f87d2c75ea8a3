/* See COPYING file for copyright and license details. */
/*
 * x86chk.h: x86dec (x86dec.h) checked against Capstone 4, the
 * disassembler cfgdis.c takes its rules from, for the tests
 * (tests/tools/x86dectest) and the fuzz harness (fuzz/fuzz_x86dec.c).
 * An instruction the table decoder accepts must be what cfgdis.c would
 * make of Capstone's decoding: the same length, kind (NOP, conditional
 * branch, jump, call, indirect jump or call, return, other), Capstone id
 * where cfgdis's fast path sets one (branches, lea, pop, leave, NOPs),
 * branch target and PC-relative lea address.  Declining is always right.
 */
#ifndef PROFPIPE_X86CHK_H
#define PROFPIPE_X86CHK_H

#include <capstone/capstone.h>
#include <stddef.h>
#include <stdint.h>

/* p[0, n) at address addr through x86d_decode and through Capstone (cs:
 * x86-64, CS_OPT_DETAIL on; ci from cs_malloc(cs), left holding
 * Capstone's decoding when it decodes one).  1: the table accepts and
 * agrees; 0: the table declines; -1: the table accepts and disagrees
 * (why: what, with Capstone's text).  *cslen: Capstone's length, 0 if
 * it cannot decode p. */
int	 x86chk(csh cs, cs_insn *ci, const uint8_t *p, size_t n,
	    uint64_t addr, size_t *cslen, char *why, size_t whylen);

#endif
