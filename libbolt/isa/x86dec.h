/* See COPYING file for copyright and license details. */
/*
 * x86dec.h: a table decoder of the x86-64 instructions compilers emit
 * most (moves, arithmetic, pushes and pops, branches and calls, returns,
 * NOPs, common SSE and scalar floating-point instructions), for passes over a whole binary where
 * a full disassembler costs too much.  It knows an instruction for
 * certain or not at all: for every encoding it accepts, the length and
 * the kind are those Capstone 4 decodes (tests/tools/x86dectest checks
 * this over real binaries and random bytes); everything else (other
 * prefixes, indirect branches, system and rare instructions, VEX and
 * EVEX, x87) is left to the caller's full disassembler.
 */
#ifndef PROFPIPE_X86DEC_H
#define PROFPIPE_X86DEC_H

#include <stddef.h>
#include <stdint.h>

enum {
	X86D_OTHER,	/* none of the kinds below (not a branch) */
	X86D_NOP,	/* 90, 66 90, [66] 0f 1f /0 */
	X86D_JCC,	/* 7x rel8, 0f 8x rel32 */
	X86D_JMP,	/* eb rel8, e9 rel32 */
	X86D_CALL,	/* e8 rel32 */
	X86D_RET,	/* c3 */
	X86D_LEA,	/* lea (mrip: of a PC-relative address) */
	X86D_POP,	/* 58+r */
	X86D_LEAVE,	/* c9 */
	X86D_ICALL,	/* ff /2 */
	X86D_IJMP	/* ff /4 */
};

struct x86d {
	uint8_t		len;
	uint8_t		kind;	/* X86D_* */
	uint8_t		cc;	/* X86D_JCC: the condition, 0 (o) to 15 (g) */
	int64_t		disp;	/* branches: target - next instruction */
	uint8_t		mrip;	/* any instruction with a PC-relative
				 * memory operand (lea too) */
	uint8_t		mripat;	/* (private) where its disp32 is */
	int64_t		mdisp;	/* mrip: address - next instruction */
};

/* 1 and *d when p[0, n) starts with an instruction this decoder knows,
 * else 0 (decode it otherwise) */
int	 x86d_decode(const uint8_t *p, size_t n, struct x86d *d);

/* the general-purpose registers the instruction at p, decoded as d by
 * x86d_decode, writes as Capstone 4 tells them (cs_regs_access, implicit
 * ones included): *mask has bit r for a write of register r or of a part
 * of it (0 rax, 1 rcx, 2 rdx, 3 rbx, 4 rsp, 5 rbp, 6 rsi, 7 rdi, 8-15
 * r8-r15); 1, or 0 if this does not know (ask Capstone).  x86chk checks
 * every answer against Capstone's. */
int	 x86d_writes(const uint8_t *p, const struct x86d *d, uint16_t *mask);

/* the one return detector's screen: whether p[0, n) may encode a return,
 * c2, c3, ca or cb after legacy prefixes and REX (every encoding
 * Capstone, like LLVM's MCPlusBuilder::isReturn, reads as a return has
 * that form; cfgdis decodes what passes, batmap takes it as it is) */
int	 x86d_ret_bytes(const uint8_t *p, size_t n);

#endif
