/* See COPYING file for copyright and license details. */
/*
 * a64dec.c: the kinds of AArch64 instruction BOLT 19 tells apart, from
 * the encodings of the Arm Architecture Reference Manual (a64dec.h).
 */
#include "a64dec.h"

/* the low n bits of v, sign-extended */
static int64_t
sext(uint64_t v, unsigned n)
{
	uint64_t m = (uint64_t)1 << (n - 1);

	v &= ((uint64_t)1 << n) - 1;
	return (int64_t)((v ^ m) - m);
}

void
a64d_decode(uint32_t w, uint64_t pc, struct a64d *d)
{
	d->kind = A64K_OTHER;
	d->pcref = d->adrp = d->addxi = 0;
	d->rd = d->rn = 0;
	d->imm12 = 0;
	d->target = d->ref = 0;

	/* b, bl: x00101 imm26 */
	if ((w & 0x7c000000u) == 0x14000000u) {
		d->kind = (w >> 31) ? A64K_CALL : A64K_JMP;
		d->target = pc + (uint64_t)(sext(w, 26) * 4);
		return;
	}
	/* b.cond, bc.cond: 01010100 imm19 x cond */
	if ((w & 0xff000000u) == 0x54000000u) {
		d->kind = A64K_JCC;
		d->target = pc + (uint64_t)(sext(w >> 5, 19) * 4);
		return;
	}
	/* cbz, cbnz: sf 011010 op imm19 Rt */
	if ((w & 0x7e000000u) == 0x34000000u) {
		d->kind = A64K_JCC;
		d->target = pc + (uint64_t)(sext(w >> 5, 19) * 4);
		return;
	}
	/* tbz, tbnz: b5 011011 op b40 imm14 Rt */
	if ((w & 0x7e000000u) == 0x36000000u) {
		d->kind = A64K_JCC;
		d->target = pc + (uint64_t)(sext(w >> 5, 14) * 4);
		return;
	}
	/* unconditional branches (register): 1101011 opc op2 op3 Rn op4 */
	if ((w & 0xfe000000u) == 0xd6000000u) {
		uint32_t rn = (w >> 5) & 31;

		switch (w & 0xfffffc1fu) {
		case 0xd61f0000u:			/* br */
		case 0xd61f081fu: case 0xd61f0c1fu:	/* braaz, brabz */
			d->kind = A64K_IJMP;
			d->rd = (uint8_t)rn;
			return;
		case 0xd63f0000u:			/* blr */
		case 0xd63f081fu: case 0xd63f0c1fu:	/* blraaz, blrabz */
			d->kind = A64K_ICALL;
			d->rd = (uint8_t)rn;
			return;
		case 0xd65f0000u:			/* ret */
			d->kind = A64K_RET;
			return;
		}
		switch (w & 0xfffffc00u) {
		case 0xd71f0800u: case 0xd71f0c00u:	/* braa, brab */
			d->kind = A64K_IJMP;
			d->rd = (uint8_t)rn;
			return;
		case 0xd73f0800u: case 0xd73f0c00u:	/* blraa, blrab */
			d->kind = A64K_ICALL;
			d->rd = (uint8_t)rn;
			return;
		}
		switch (w) {
		case 0xd65f0bffu: case 0xd65f0fffu:	/* retaa, retab */
		case 0xd69f03e0u: case 0xd69f0bffu:	/* eret, eretaa */
		case 0xd69f0fffu: case 0xd6bf03e0u:	/* eretab, drps */
			d->kind = A64K_RET;
			return;
		}
		/* retaasppc, retabsppc Xm: 1101011 0010 11111 00001 M Rm 11111
		 * (Rm not xzr) */
		if ((w & 0xfffffbe0u) == 0xd65f0be0u && (w & 31) != 31) {
			d->kind = A64K_RET;
			return;
		}
		return;
	}
	/* retaasppc, retabsppc <label>: 01010101 00 M imm16 11111; a
	 * PC-relative operand, PC - imm16 * 4 */
	if ((w & 0xffc0001fu) == 0x5500001fu) {
		d->kind = A64K_RET;
		d->pcref = 1;
		d->ref = pc - (uint64_t)((w >> 5) & 0xffff) * 4;
		return;
	}
	/* autiasppc, autibsppc <label>: 11110011 10 M imm16 11111 */
	if ((w & 0xffc0001fu) == 0xf380001fu) {
		d->pcref = 1;
		d->ref = pc - (uint64_t)((w >> 5) & 0xffff) * 4;
		return;
	}
	/* brk: 11010100 001 imm16 00000 */
	if ((w & 0xffe0001fu) == 0xd4200000u) {
		d->kind = A64K_TRAP;
		return;
	}
	/* udf: 0000000000000000 imm16 */
	if ((w & 0xffff0000u) == 0) {
		d->kind = A64K_TRAP;
		return;
	}
	if (w == 0xd503201fu) {			/* nop: hint #0 */
		d->kind = A64K_NOP;
		return;
	}
	/* adr, adrp: op immlo 10000 immhi Rd */
	if ((w & 0x1f000000u) == 0x10000000u) {
		int64_t imm = sext(((w >> 5) & 0x7ffff) << 2 | ((w >> 29) & 3), 21);

		d->rd = (uint8_t)(w & 31);
		if (w >> 31) {
			d->adrp = 1;
			d->ref = (pc & ~(uint64_t)0xfff) + (uint64_t)(imm * 4096);
		} else {
			d->pcref = 1;
			d->ref = pc + (uint64_t)imm;
		}
		return;
	}
	/* the literal loads: opc 011 V 00 imm19 Rt, all but V=1 opc=11 */
	if ((w & 0x3b000000u) == 0x18000000u &&
	    (w & 0xc4000000u) != 0xc4000000u) {
		d->pcref = 1;
		d->ref = pc + (uint64_t)(sext(w >> 5, 19) * 4);
		return;
	}
	/* add xd, xn, #imm{, lsl #12} (ADDXri): 1 0 0 100010 sh imm12 Rn Rd */
	if ((w & 0xff800000u) == 0x91000000u) {
		d->addxi = 1;
		d->rd = (uint8_t)(w & 31);
		d->rn = (uint8_t)((w >> 5) & 31);
		d->imm12 = (uint16_t)((w >> 10) & 0xfff);
	}
}
