/* See COPYING file for copyright and license details. */
/*
 * a64valid.c: which AArch64 words decode (a64dec.h: a64d_valid), for the
 * classes of instruction compilers emit, from the encodings of the Arm
 * Architecture Reference Manual: data processing with immediates and
 * registers, branches, the common system instructions, loads and stores
 * of general and SIMD&FP registers, scalar floating point.  Every class
 * answered here is the same in LLVM 19's and 22's disassemblers with
 * every feature on, over all its words (tests/tools/a64dectest -x, run by
 * tests/90-aarch64.bats); the rest (SVE, SME, Advanced SIMD, atomics and
 * exclusives, the rarer system instructions, and every word that is no
 * instruction) is -1, the release's disassembler's to answer.
 */
#include "a64dec.h"

#define F(w, hi, lo)	(((w) >> (lo)) & ((1u << ((hi) - (lo) + 1)) - 1))

/* DecodeBitMasks: does (N, immr, imms) give a logical immediate */
static int
bitmask_ok(unsigned sf, unsigned n, unsigned imms)
{
	unsigned v = (n << 6) | (~imms & 0x3f), len = 0, size;

	if (!sf && n)
		return 0;
	if (v == 0)
		return 0;
	while (v >> (len + 1))
		len++;
	if (len < 1)
		return 0;
	size = 1u << len;
	return (imms & (size - 1)) != size - 1;
}

/* data processing (immediate): op0 100x */
static int
dp_imm(uint32_t w)
{
	unsigned sf = w >> 31, opc = F(w, 30, 29), n = F(w, 22, 22);

	switch (F(w, 25, 23)) {
	case 0: case 1:			/* adr, adrp */
	case 2:				/* add, sub (immediate) */
		return 1;
	case 4:				/* logical (immediate) */
		return bitmask_ok(sf, n, F(w, 15, 10));
	case 5:				/* move wide */
		return opc != 1 && (sf || F(w, 22, 21) < 2);
	case 6:				/* bitfield */
		return opc != 3 && n == sf &&
		    (sf || (F(w, 21, 21) == 0 && F(w, 15, 15) == 0));
	case 7:				/* extract */
		return opc == 0 && F(w, 21, 21) == 0 && n == sf &&
		    (sf || F(w, 15, 15) == 0);
	}
	return -1;
}

/* branches, exception generation, system: op0 101x */
static int
branch_sys(uint32_t w)
{
	struct a64d d;

	if ((w & 0x7c000000u) == 0x14000000u ||	/* b, bl */
	    (w & 0x7e000000u) == 0x34000000u ||	/* cbz, cbnz */
	    (w & 0x7e000000u) == 0x36000000u ||	/* tbz, tbnz */
	    (w & 0xff000000u) == 0x54000000u)	/* b.cond, bc.cond */
		return 1;
	/* the register branches a64dec knows: exact encodings */
	if ((w & 0xfe000000u) == 0xd6000000u) {
		a64d_decode(w, 0, &d);
		return d.kind != A64K_OTHER ? 1 : -1;
	}
	switch (w & 0xffe0001fu) {
	case 0xd4000001u:			/* svc */
	case 0xd4200000u:			/* brk */
	case 0xd4400000u:			/* hlt */
		return 1;
	}
	if ((w & 0xfffff01fu) == 0xd503201fu)	/* hint: nop, bti, pac... */
		return 1;
	switch (w & 0xfffff0ffu) {
	case 0xd503309fu:			/* dsb */
	case 0xd50330bfu:			/* dmb */
	case 0xd50330dfu:			/* isb */
		return 1;
	}
	/* mrs, msr (register) of any system register */
	if ((w & 0xfff00000u) == 0xd5300000u ||
	    (w & 0xfff00000u) == 0xd5100000u)
		return 1;
	return -1;
}

/* the size, V and opc of a single register's load or store: 1 if some
 * instruction has them; prfm (size 11, opc 10) as prf says */
static int
ldst_kind(uint32_t w, int prf)
{
	unsigned size = F(w, 31, 30), v = F(w, 26, 26), opc = F(w, 23, 22);

	if (v)
		return opc < 2 || size == 0;
	if (size == 3 && opc == 2)
		return prf;
	return size < 2 || opc < (size == 2 ? 3u : 2u);
}

/* loads and stores: op0 x1x0 */
static int
ldst(uint32_t w)
{
	unsigned opc2 = F(w, 31, 30), v = F(w, 26, 26);

	if ((w & 0x3b000000u) == 0x39000000u)	/* unsigned offset */
		return ldst_kind(w, 1);
	if ((w & 0x3b200c00u) == 0x38200800u)	/* register offset */
		return (F(w, 14, 14) == 1) && ldst_kind(w, 1);
	if ((w & 0x3b200c00u) == 0x38000000u)	/* unscaled (ldur) */
		return ldst_kind(w, 1);
	if ((w & 0x3b200400u) == 0x38000400u)	/* pre-, post-index */
		return ldst_kind(w, 0);
	if ((w & 0x3b000000u) == 0x18000000u)	/* literal */
		return !(v && opc2 == 3);
	if ((w & 0x3a000000u) == 0x28000000u) {	/* pairs */
		if (opc2 == 3)
			return 0;
		if (v || opc2 != 1)
			return 1;
		/* stgp, ldpsw: not the no-allocate form */
		return F(w, 25, 23) != 0 ? 1 : -1;
	}
	return -1;
}

/* data processing (register): op0 x101 */
static int
dp_reg(uint32_t w)
{
	unsigned sf = w >> 31, op = F(w, 15, 10);

	if ((w & 0x1f000000u) == 0x0a000000u)	/* logical (shifted) */
		return sf || F(w, 15, 15) == 0;
	if ((w & 0x1f200000u) == 0x0b000000u)	/* add, sub (shifted) */
		return F(w, 23, 22) != 3 && (sf || F(w, 15, 15) == 0);
	if ((w & 0x1f200000u) == 0x0b200000u)	/* add, sub (extended) */
		return F(w, 23, 22) == 0 && F(w, 12, 10) <= 4;
	if ((w & 0x1fe0fc00u) == 0x1a000000u)	/* adc, sbc */
		return 1;
	if ((w & 0x1fe00000u) == 0x1a400000u)	/* ccmp, ccmn */
		return F(w, 29, 29) == 1 && F(w, 10, 10) == 0 &&
		    F(w, 4, 4) == 0;
	if ((w & 0x1fe00000u) == 0x1a800000u)	/* conditional select */
		return F(w, 29, 29) == 0 && F(w, 11, 10) < 2;
	if ((w & 0x1f000000u) == 0x1b000000u) {	/* 3 source */
		unsigned op31 = F(w, 23, 21), o0 = F(w, 15, 15);

		if (F(w, 30, 29) != 0)
			return -1;
		if (op31 == 0)
			return 1;
		if (!sf)
			return -1;
		return op31 == 1 || op31 == 5 ||
		    ((op31 == 2 || op31 == 6) && o0 == 0) ? 1 : -1;
	}
	if ((w & 0x5fe00000u) == 0x1ac00000u)	/* 2 source */
		return F(w, 29, 29) == 0 && (op == 2 || op == 3 ||
		    (op >= 8 && op <= 11)) ? 1 : -1;
	if ((w & 0x5fe00000u) == 0x5ac00000u)	/* 1 source */
		return F(w, 29, 29) == 0 && F(w, 20, 16) == 0 &&
		    (op <= 2 || op == 4 || op == 5 || (op == 3 && sf)) ? 1 : -1;
	return -1;
}

/* 1 if the word is an instruction of the classes above, else -1: an
 * encoding unallocated in one release may be allocated in another (22
 * decodes sttnp, autiasppc where the manual of 19's day had nothing),
 * so "no instruction" is always the release's disassembler's answer */
int
a64d_valid(uint32_t w)
{
	int v = -1;

	switch (F(w, 28, 25)) {
	case 0x8: case 0x9:
		v = dp_imm(w);
		break;
	case 0xa: case 0xb:
		v = branch_sys(w);
		break;
	case 0x4: case 0x6: case 0xc: case 0xe:
		v = ldst(w);
		break;
	case 0x5: case 0xd:
		v = dp_reg(w);
		break;
	case 0x0:
		v = (w & 0xffff0000u) == 0;	/* udf */
		break;
	}
	return v == 1 ? 1 : -1;
}
