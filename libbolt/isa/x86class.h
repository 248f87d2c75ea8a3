/* See COPYING file for copyright and license details. */
/*
 * x86class.h: an x86-64 instruction as cfgdis.c's rules read it (its kind:
 * NOP, conditional branch, jump, call, indirect jump or call, return,
 * trap, hlt, unsupported branch, other; the Capstone id; a direct
 * branch's target; a PC-relative lea's address), from either of the two
 * decoders cfgdis.c uses: Capstone 4 or x86dec's table (x86dec.h).  The
 * one classification serves cfgdis.c and the check that the table agrees
 * with Capstone, for the tests (tests/tools/x86dectest) and the fuzz
 * harness (fuzz/fuzz_x86dec.c): an instruction the table accepts must be
 * what cfgdis.c would make of Capstone's decoding.  Declining is always
 * right.
 */
#ifndef PROFPIPE_X86CHK_H
#define PROFPIPE_X86CHK_H

#include <capstone/capstone.h>
#include <stddef.h>
#include <stdint.h>

struct x86d;

/* the kinds of instruction cfgdis.c tells apart */
enum {
	X86K_OTHER, X86K_NOP, X86K_JCC, X86K_JMP, X86K_IJMP, X86K_RET,
	X86K_CALL, X86K_ICALL, X86K_TRAP, X86K_HLT,
	X86K_BAD	/* a branch BOLT does not support (jrcxz, loop) */
};

struct x86k {
	uint8_t		kind;	/* X86K_* */
	uint8_t		riplea;	/* a lea of a PC-relative address */
	uint16_t	id;	/* X86_INS_*; from the table only where
				 * cfgdis's rules read it (branches, lea,
				 * pop, leave, NOPs), X86_INS_INVALID
				 * elsewhere */
	uint64_t	target;	/* X86K_JCC, X86K_JMP, X86K_CALL: the
				 * target; riplea: the address; else 0 */
};

/* Capstone's decoding ci (no details needed) */
void	 x86k_capstone(const cs_insn *ci, struct x86k *k);

/* x86dec's decoding x of the instruction at p, address addr: 1, or 0 if
 * its kind is not one this knows (decode it with Capstone).  A NOP's id
 * is X86_INS_XCHG for 66 90 (Capstone 4's xchg %ax,%ax), else
 * X86_INS_NOP. */
int	 x86k_table(const struct x86d *x, const uint8_t *p, uint64_t addr,
	    struct x86k *k);

/* the number x86d_writes gives the general-purpose register Capstone
 * numbers r, or of the 64-bit one it is part of (0 rax ... 15 r15), or -1
 * for any other register */
int	 x86k_gpr(unsigned r);
/* the 64-bit register (Capstone's number) a general-purpose register
 * is part of, or 0 */
unsigned x86k_gpr64(unsigned r);

/* the general-purpose registers Capstone's decoding ci (of cs, with
 * details) writes, as x86d_writes gives them: 1, or 0 if Capstone cannot
 * tell */
int	 x86k_cs_writes(csh cs, const cs_insn *ci, uint16_t *mask);

/* p[0, n) at address addr through x86d_decode and x86k_table, and
 * through Capstone and x86k_capstone (cs: x86-64, CS_OPT_DETAIL on; ci
 * from cs_malloc(cs), left holding Capstone's decoding when it decodes
 * one).  1: the table accepts and agrees (and so do x86d_writes' answer,
 * when it gives one, and Capstone's registers written); 0: the table
 * declines; -1: the table accepts and disagrees (why: what, with
 * Capstone's text).
 * *cslen: Capstone's length, 0 if it cannot decode p. */
int	 x86chk(csh cs, cs_insn *ci, const uint8_t *p, size_t n,
	    uint64_t addr, size_t *cslen, char *why, size_t whylen);

#endif
