/* See COPYING file for copyright and license details. */
/*
 * x86dec.c: the common x86-64 instructions by table (x86dec.h).  Taken
 * are encodings with at most an operand-size prefix (66), a segment
 * prefix (fs, gs: then neither a branch nor a NOP) and a REX byte; f2
 * and f3 only for listed SSE forms; direct branches, returns and leave
 * only without any prefix; and the long NOPs of code alignment.  Any
 * doubt returns 0: the caller's disassembler decides.
 */
#include "x86dec.h"

static int32_t
le32(const uint8_t *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
	    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/* the bytes of a ModRM operand at p[k] (ModRM, SIB, displacement): the
 * index after it, or 0 if it runs past n; d->mripat: where the
 * displacement of a RIP-relative one is (0: none) */
static size_t
modrm_at(const uint8_t *p, size_t n, size_t k, struct x86d *d)
{
	uint8_t m, mod, rm;

	d->mripat = 0;
	if (k >= n)
		return 0;
	m = p[k++];
	mod = m >> 6;
	rm = m & 7;
	if (mod != 3 && rm == 4) {		/* SIB */
		if (k >= n)
			return 0;
		if (mod == 0 && (p[k] & 7) == 5)
			k += 4;
		k++;
	} else if (mod == 0 && rm == 5) {
		d->mripat = (uint8_t)k;
		k += 4;
	}
	if (mod == 1)
		k += 1;
	else if (mod == 2)
		k += 4;
	return k <= n ? k : 0;
}

/* done: the instruction ends at k (after an immediate of imm bytes) */
static int
done(struct x86d *d, size_t n, size_t k, size_t imm, int kind)
{
	if (k == 0 || k + imm > n || k + imm > 15)
		return 0;
	d->len = (uint8_t)(k + imm);
	d->kind = (uint8_t)kind;
	return 1;
}

/* the two-byte map (0f xx) at p[k] = xx */
static int
map0f(const uint8_t *p, size_t n, size_t k, int plain, int opsz, int rex,
    struct x86d *d)
{
	uint8_t op = p[k], reg;
	size_t e;

	if (op >= 0x80 && op <= 0x8f) {		/* jcc rel32 */
		if (!plain || k + 5 > n)
			return 0;
		d->cc = op & 0x0f;
		d->disp = le32(p + k + 1);
		return done(d, n, k + 5, 0, X86D_JCC);
	}
	if (op >= 0xc8 && op <= 0xcf)		/* bswap */
		return opsz ? 0 : done(d, n, k + 1, 0, X86D_OTHER);
	if (k + 1 >= n)
		return 0;
	reg = (p[k + 1] >> 3) & 7;
	e = modrm_at(p, n, k + 1, d);
	switch (op) {
	case 0x1f:				/* nop m (Capstone 4 does
						 * not decode nop r) */
		if (reg != 0 || rex || (p[k + 1] >> 6) == 3)
			return 0;
		return done(d, n, e, 0, X86D_NOP);
	case 0x10: case 0x11: case 0x28: case 0x29: case 0x2e: case 0x2f:
	case 0x54: case 0x55: case 0x56: case 0x57: case 0x58: case 0x59:
	case 0x5c: case 0x5d: case 0x5e: case 0x5f:
	case 0x6e: case 0x6f: case 0x7e: case 0x7f:
	case 0x74: case 0x75: case 0x76:
	case 0xd4: case 0xdb: case 0xdf: case 0xeb: case 0xef: case 0xfa:
	case 0xfb: case 0xfe:
	case 0x40: case 0x41: case 0x42: case 0x43: case 0x44: case 0x45:
	case 0x46: case 0x47: case 0x48: case 0x49: case 0x4a: case 0x4b:
	case 0x4c: case 0x4d: case 0x4e: case 0x4f:
	case 0xa3: case 0xa5: case 0xab: case 0xad: case 0xaf: case 0xb0:
	case 0xb1: case 0xb3: case 0xb6: case 0xb7: case 0xbb: case 0xbc:
	case 0xbd: case 0xbe: case 0xbf: case 0xc0: case 0xc1:
		return done(d, n, e, 0, X86D_OTHER);
	case 0x70: case 0xa4: case 0xac:
		return done(d, n, e, 1, X86D_OTHER);
	case 0x18:				/* prefetch m */
		if (reg > 3 || (p[k + 1] >> 6) == 3)
			return 0;
		return done(d, n, e, 0, X86D_OTHER);
	case 0x60: case 0x61: case 0x62: case 0x68: case 0x69: case 0x6a:
		return done(d, n, e, 0, X86D_OTHER);
	case 0x6c: case 0x6d:
		/* punpck[lh]qdq: 66 only; Capstone 4 knows them only with
		 * the 66 last before the opcode (and REX), not 66 64 0f 6c */
		if (!opsz || p[k - 2 - (rex != 0)] != 0x66)
			return 0;
		return done(d, n, e, 0, X86D_OTHER);
	case 0xba:				/* bt, bts, btr, btc imm8 */
		return reg >= 4 ? done(d, n, e, 1, X86D_OTHER) : 0;
	case 0x90: case 0x91: case 0x92: case 0x93: case 0x94: case 0x95:
	case 0x96: case 0x97: case 0x98: case 0x99: case 0x9a: case 0x9b:
	case 0x9c: case 0x9d: case 0x9e: case 0x9f:	/* setcc */
		return reg == 0 ? done(d, n, e, 0, X86D_OTHER) : 0;
	}
	return 0;
}

/* the scalar and packed SSE forms with a mandatory f2 or f3 prefix (rep)
 * at p[k] = the byte after 0f */
static int
map0f_rep(const uint8_t *p, size_t n, size_t k, uint8_t rep,
    struct x86d *d)
{
	switch (p[k]) {
	case 0x10: case 0x11: case 0x2a: case 0x2c: case 0x2d: case 0x51:
	case 0x58: case 0x59: case 0x5a: case 0x5c: case 0x5d: case 0x5e:
	case 0x5f:
		break;
	case 0x6f: case 0x7e: case 0x7f: case 0xb8: case 0xbc: case 0xbd:
		if (rep != 0xf3)
			return 0;
		break;
	default:
		return 0;
	}
	return done(d, n, modrm_at(p, n, k + 1, d), 0, X86D_OTHER);
}

static int decode1(const uint8_t *, size_t, size_t, int, int, struct x86d *);

/* *d as every decoding starts it: no instruction yet */
static inline void
clear(struct x86d *d)
{
	d->len = 0;
	d->kind = X86D_OTHER;
	d->cc = 0;
	d->disp = 0;
	d->mrip = 0;
	d->mripat = 0;
	d->mdisp = 0;
}

static int
decode0(const uint8_t *p, size_t n, struct x86d *d)
{
	size_t k = 0, j;
	int opsz = 0, seg = 0;
	uint8_t rep = 0;

	clear(d);
	if (n == 0)
		return 0;
	if (p[0] != 0x66 && p[0] != 0x64 && p[0] != 0x65 && p[0] != 0xf2 &&
	    p[0] != 0xf3)
		return decode1(p, n, 0, 0, 0, d);	/* no prefix */
	/* the long NOPs of code alignment: 66 ... 66 [2e] 0f 1f /0 m */
	for (j = 0; j < n && j < 6 && p[j] == 0x66; j++)
		;
	if (j > 0 && j < n && (j > 1 || p[j] == 0x2e)) {
		if (p[j] == 0x2e)
			j++;
		if (j + 2 < n && p[j] == 0x0f && p[j + 1] == 0x1f &&
		    ((p[j + 2] >> 3) & 7) == 0 && (p[j + 2] >> 6) != 3)
			return done(d, n, modrm_at(p, n, j + 2, d), 0, X86D_NOP);
		return 0;
	}
	/* at most one each of a segment (fs, gs), 66, and f2 or f3 */
	for (; k < n && k < 3; k++) {
		if ((p[k] == 0x64 || p[k] == 0x65) && !seg)
			seg = 1;
		else if (p[k] == 0x66 && !opsz)
			opsz = 1;
		else if ((p[k] == 0xf2 || p[k] == 0xf3) && !rep)
			rep = p[k];
		else
			break;
	}
	if (rep) {
		/* only the SSE forms: [66] f2/f3 [REX] 0f xx */
		if (seg || opsz)
			return 0;
		if (k < n && (p[k] & 0xf0) == 0x40)
			k++;
		if (k + 1 >= n || p[k] != 0x0f)
			return 0;
		return map0f_rep(p, n, k + 1, rep, d);
	}
	if (!decode1(p, n, k, opsz, seg, d))
		return 0;
	/* with a segment prefix, only what is neither branch nor NOP */
	return !seg || d->kind == X86D_OTHER;
}

/* the commonest encodings, without a legacy prefix (a REX byte may come
 * first), by a look-up of the opcode: what decode0 and decode1 make of
 * them, in fewer steps (the others, and any doubt, go to decode0).  The
 * classes: a ModRM operand and an immediate of 0, 1 or 4 bytes (no 66,
 * so Iz is 4); lea; push and pop of a register; and, without REX, jcc
 * rel8, call and jmp rel32, jmp rel8, ret. */
enum {
	F_NO, F_M0, F_M1, F_MZ, F_LEA, F_R, F_POP,	/* REX or not */
	F_JCC8, F_REL32, F_JMP8, F_RET			/* not after REX */
};
static const uint8_t fastop[256] = {
	F_M0, F_M0, F_M0, F_M0, F_NO, F_NO, F_NO, F_NO, F_M0, F_M0, F_M0, F_M0, F_NO, F_NO, F_NO, F_NO,	/* 0_ */
	F_M0, F_M0, F_M0, F_M0, F_NO, F_NO, F_NO, F_NO, F_M0, F_M0, F_M0, F_M0, F_NO, F_NO, F_NO, F_NO,	/* 1_ */
	F_M0, F_M0, F_M0, F_M0, F_NO, F_NO, F_NO, F_NO, F_M0, F_M0, F_M0, F_M0, F_NO, F_NO, F_NO, F_NO,	/* 2_ */
	F_M0, F_M0, F_M0, F_M0, F_NO, F_NO, F_NO, F_NO, F_M0, F_M0, F_M0, F_M0, F_NO, F_NO, F_NO, F_NO,	/* 3_ */
	F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO,	/* 4_ */
	F_R, F_R, F_R, F_R, F_R, F_R, F_R, F_R, F_POP, F_POP, F_POP, F_POP, F_POP, F_POP, F_POP, F_POP,	/* 5_ */
	F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_MZ, F_NO, F_M1, F_NO, F_NO, F_NO, F_NO,	/* 6_ */
	F_JCC8, F_JCC8, F_JCC8, F_JCC8, F_JCC8, F_JCC8, F_JCC8, F_JCC8, F_JCC8, F_JCC8, F_JCC8, F_JCC8, F_JCC8, F_JCC8, F_JCC8, F_JCC8,	/* 7_ */
	F_M1, F_MZ, F_NO, F_M1, F_M0, F_M0, F_M0, F_M0, F_M0, F_M0, F_M0, F_M0, F_NO, F_LEA, F_NO, F_NO,	/* 8_ */
	F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO,	/* 9_ */
	F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO,	/* a_ */
	F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO,	/* b_ */
	F_NO, F_NO, F_NO, F_RET, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO,	/* c_ */
	F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO,	/* d_ */
	F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_REL32, F_REL32, F_NO, F_JMP8, F_NO, F_NO, F_NO, F_NO,	/* e_ */
	F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO, F_NO,	/* f_ */
};

/* 1 and *d as decode0 gives it for opcode class c at p[k] (after k REX
 * bytes, 0 or 1), or 0: let decode0 decide */
static int
fast(const uint8_t *p, size_t n, size_t k, int c, struct x86d *d)
{
	uint8_t op = p[k++];

	clear(d);
	switch (c) {
	case F_M0:
		return done(d, n, modrm_at(p, n, k, d), 0, X86D_OTHER);
	case F_M1:
		return done(d, n, modrm_at(p, n, k, d), 1, X86D_OTHER);
	case F_MZ:
		return done(d, n, modrm_at(p, n, k, d), 4, X86D_OTHER);
	case F_LEA:
		if (k >= n || (p[k] >> 6) == 3)
			return 0;
		return done(d, n, modrm_at(p, n, k, d), 0, X86D_LEA);
	case F_R:
		return done(d, n, k, 0, X86D_OTHER);
	case F_POP:
		return done(d, n, k, 0, X86D_POP);
	case F_JCC8:
		if (k >= n)
			return 0;
		d->cc = op & 0x0f;
		d->disp = (int8_t)p[k];
		return done(d, n, k + 1, 0, X86D_JCC);
	case F_REL32:
		if (k + 4 > n)
			return 0;
		d->disp = le32(p + k);
		return done(d, n, k + 4, 0, op == 0xe8 ? X86D_CALL : X86D_JMP);
	case F_JMP8:
		if (k >= n)
			return 0;
		d->disp = (int8_t)p[k];
		return done(d, n, k + 1, 0, X86D_JMP);
	case F_RET:
		return done(d, n, k, 0, X86D_RET);
	}
	return 0;
}

int
x86d_decode(const uint8_t *p, size_t n, struct x86d *d)
{
	size_t k;
	int c;

	if (n >= 2) {
		k = (p[0] & 0xf0) == 0x40;
		c = fastop[p[k]];
		if (c != F_NO && (k == 0 || c <= F_POP) &&
		    fast(p, n, k, c, d))
			goto rip;
	}
	if (!decode0(p, n, d))
		return 0;
rip:
	/* the last ModRM read is the instruction's (a decline comes before
	 * any other); a PC-relative one's displacement ends at most an
	 * immediate before the end */
	if (d->mripat != 0 && d->mripat + 4u <= d->len &&
	    d->kind != X86D_JCC && d->kind != X86D_JMP &&
	    d->kind != X86D_CALL) {
		d->mrip = 1;
		d->mdisp = le32(p + d->mripat);
	}
	return 1;
}

/* the rest of an instruction from p[k] on: optional REX, then the
 * opcode (prefixes: opsz 66, seg a segment) */
static int
decode1(const uint8_t *p, size_t n, size_t k, int opsz, int seg,
    struct x86d *d)
{
	size_t iz;
	int rex = 0, w, plain;
	uint8_t op, reg;

	if (k < n && (p[k] & 0xf0) == 0x40)
		rex = p[k++];
	if (k >= n)
		return 0;
	plain = k == 0;
	w = (rex & 8) != 0;
	iz = opsz && !w ? 2 : 4;		/* Iz: imm16 or imm32 */
	op = p[k++];
	reg = k < n ? (p[k] >> 3) & 7 : 0;
	if (op < 0x40) {
		if (op == 0x0f)
			return k < n ? map0f(p, n, k, plain, opsz, rex, d) : 0;
		switch (op & 7) {
		case 0: case 1: case 2: case 3:
			return done(d, n, modrm_at(p, n, k, d), 0, X86D_OTHER);
		case 4:
			return done(d, n, k, 1, X86D_OTHER);
		case 5:
			return done(d, n, k, iz, X86D_OTHER);
		}
		return 0;
	}
	if (op >= 0x50 && op <= 0x5f)
		return done(d, n, k, 0, op >= 0x58 ? X86D_POP : X86D_OTHER);
	if (op >= 0x70 && op <= 0x7f) {		/* jcc rel8 */
		if (!plain || k >= n)
			return 0;
		d->cc = op & 0x0f;
		d->disp = (int8_t)p[k];
		return done(d, n, k + 1, 0, X86D_JCC);
	}
	if (op >= 0x91 && op <= 0x99)		/* xchg, cwde, cdq */
		return done(d, n, k, 0, X86D_OTHER);
	if (op >= 0xb0 && op <= 0xb7)
		return done(d, n, k, 1, X86D_OTHER);
	if (op >= 0xb8 && op <= 0xbf)
		return done(d, n, k, w ? 8 : iz, X86D_OTHER);
	switch (op) {
	case 0x63:				/* movsxd */
		return w ? done(d, n, modrm_at(p, n, k, d), 0, X86D_OTHER) : 0;
	case 0x68:
		return done(d, n, k, iz, X86D_OTHER);
	case 0x6a:
		return done(d, n, k, 1, X86D_OTHER);
	case 0x69:
		return done(d, n, modrm_at(p, n, k, d), iz, X86D_OTHER);
	case 0x6b: case 0x80: case 0x83:
		return done(d, n, modrm_at(p, n, k, d), 1, X86D_OTHER);
	case 0x81:
		return done(d, n, modrm_at(p, n, k, d), iz, X86D_OTHER);
	case 0x84: case 0x85: case 0x86: case 0x87: case 0x88: case 0x89:
	case 0x8a: case 0x8b:
		return done(d, n, modrm_at(p, n, k, d), 0, X86D_OTHER);
	case 0x8d:				/* lea: memory only */
		if (k >= n || (p[k] >> 6) == 3)
			return 0;
		return done(d, n, modrm_at(p, n, k, d), 0, X86D_LEA);
	case 0x90:
		if (rex)
			return 0;		/* xchg with r8 */
		return done(d, n, k, 0, X86D_NOP);
	case 0xa8:
		return done(d, n, k, 1, X86D_OTHER);
	case 0xa9:
		return done(d, n, k, iz, X86D_OTHER);
	case 0xc0: case 0xc1:
		return reg != 6 ? done(d, n, modrm_at(p, n, k, d), 1,
		    X86D_OTHER) : 0;
	case 0xd0: case 0xd1: case 0xd2: case 0xd3:
		return reg != 6 ? done(d, n, modrm_at(p, n, k, d), 0,
		    X86D_OTHER) : 0;
	case 0xc6:
		return reg == 0 ? done(d, n, modrm_at(p, n, k, d), 1,
		    X86D_OTHER) : 0;
	case 0xc7:
		return reg == 0 ? done(d, n, modrm_at(p, n, k, d), iz,
		    X86D_OTHER) : 0;
	case 0xf6:
		if (reg == 1)
			return 0;
		return done(d, n, modrm_at(p, n, k, d), reg == 0 ? 1 : 0,
		    X86D_OTHER);
	case 0xf7:
		if (reg == 1)
			return 0;
		return done(d, n, modrm_at(p, n, k, d), reg == 0 ? iz : 0,
		    X86D_OTHER);
	case 0xfe:
		return reg <= 1 ? done(d, n, modrm_at(p, n, k, d), 0,
		    X86D_OTHER) : 0;
	case 0xff:				/* inc, dec, push r/m */
		if (reg <= 1 || reg == 6)
			return done(d, n, modrm_at(p, n, k, d), 0, X86D_OTHER);
		/* call, jmp r/m */
		if ((reg == 2 || reg == 4) && !opsz && !seg)
			return done(d, n, modrm_at(p, n, k, d), 0,
			    reg == 2 ? X86D_ICALL : X86D_IJMP);
		return 0;
	}
	if (!plain)
		return 0;
	switch (op) {
	case 0xc3:
		return done(d, n, k, 0, X86D_RET);
	case 0xc9:
		return done(d, n, k, 0, X86D_LEAVE);
	case 0xcc:
		return done(d, n, k, 0, X86D_OTHER);
	case 0xe8: case 0xe9:
		if (k + 4 > n)
			return 0;
		d->disp = le32(p + k);
		return done(d, n, k + 4, 0, op == 0xe8 ? X86D_CALL : X86D_JMP);
	case 0xeb:
		if (k >= n)
			return 0;
		d->disp = (int8_t)p[k];
		return done(d, n, k + 1, 0, X86D_JMP);
	}
	return 0;
}

int
x86d_ret_bytes(const uint8_t *p, size_t n)
{
	size_t k;

	if (n > 15)
		n = 15;		/* the longest instruction */
	for (k = 0; k < n && (p[k] == 0x26 || p[k] == 0x2e ||
	    p[k] == 0x36 || p[k] == 0x3e || p[k] == 0x64 || p[k] == 0x65 ||
	    p[k] == 0x66 || p[k] == 0x67 || p[k] == 0xf0 || p[k] == 0xf2 ||
	    p[k] == 0xf3 || (p[k] & 0xf0) == 0x40); k++)
		;
	return k < n && (p[k] == 0xc2 || p[k] == 0xc3 || p[k] == 0xca ||
	    p[k] == 0xcb);
}

/* the register of a byte operand numbered r (REX bits included): without
 * any REX byte, 4 to 7 are ah, ch, dh, bh, parts of rax to rbx */
static unsigned
gpr8(unsigned r, int rex)
{
	return !rex && r >= 4 && r < 8 ? r - 4 : r;
}

int
x86d_writes(const uint8_t *p, const struct x86d *d, uint16_t *mask)
{
	size_t k = 0;
	int rex = 0, opsz = 0, byte = 0, mod3;
	uint8_t op, rep = 0, m = 0;
	unsigned reg, rm, sub, w = 0;

	/* the kinds whose writes need no operands: branches write none of
	 * these registers (rip is none), pushes of the return address and
	 * pops of it rsp */
	switch (d->kind) {
	case X86D_JCC: case X86D_JMP: case X86D_IJMP:
		*mask = 0;
		return 1;
	case X86D_CALL: case X86D_ICALL: case X86D_RET:
		*mask = 1u << 4;
		return 1;
	case X86D_LEAVE:
		*mask = 1u << 4 | 1u << 5;
		return 1;
	case X86D_NOP:
		/* 66 90 is Capstone 4's xchg %ax,%ax */
		if (p[0] == 0x66 && d->len == 2 && p[1] == 0x90)
			return 0;
		*mask = 0;
		return 1;
	}
	while (k < d->len && (p[k] == 0x66 || p[k] == 0x64 || p[k] == 0x65 ||
	    p[k] == 0xf2 || p[k] == 0xf3 || p[k] == 0x2e)) {
		if (p[k] == 0x66)
			opsz = 1;
		else if (p[k] == 0xf2 || p[k] == 0xf3)
			rep = p[k];
		k++;
	}
	if (k < d->len && (p[k] & 0xf0) == 0x40)
		rex = p[k++];
	if (k >= d->len)
		return 0;
	op = p[k++];
	if (op == 0x0f) {
		if (k >= d->len)
			return 0;
		op = p[k++];
		if (k < d->len)
			m = p[k];
		reg = ((m >> 3) & 7) | (rex & 4 ? 8 : 0);
		rm = (m & 7) | (rex & 1 ? 8 : 0);
		mod3 = (m >> 6) == 3;
		if (rep) {
			switch (op) {
			case 0x2c: case 0x2d:	/* cvt[t]s[sd]2si */
			case 0xb8: case 0xbc: case 0xbd: /* popcnt, tzcnt,
							  * lzcnt */
				w = 1u << reg;
				break;
			case 0x10: case 0x11: case 0x2a: case 0x51: case 0x58:
			case 0x59: case 0x5a: case 0x5c: case 0x5d: case 0x5e:
			case 0x5f: case 0x6f: case 0x7f:
				break;		/* xmm */
			default:
				return 0;
			}
			*mask = (uint16_t)w;
			return 1;
		}
		if (op >= 0x40 && op <= 0x4f)		/* cmovcc */
			w = 1u << reg;
		else if (op >= 0x90 && op <= 0x9f)	/* setcc */
			w = mod3 ? 1u << gpr8(rm, rex) : 0;
		else if (op >= 0xc8 && op <= 0xcf)	/* bswap */
			w = 1u << ((op & 7) | (rex & 1 ? 8 : 0));
		else
			switch (op) {
			case 0x1f: case 0x18:		/* nop, prefetch */
			case 0xa3:			/* bt */
			case 0x10: case 0x11: case 0x28: case 0x29: case 0x2e:
			case 0x2f: case 0x54: case 0x55: case 0x56: case 0x57:
			case 0x58: case 0x59: case 0x5c: case 0x5d: case 0x5e:
			case 0x5f: case 0x6e: case 0x6f: case 0x7f: case 0x74:
			case 0x75: case 0x76: case 0xd4: case 0xdb: case 0xdf:
			case 0xeb: case 0xef: case 0xfa: case 0xfb: case 0xfe:
			case 0x60: case 0x61: case 0x62: case 0x68: case 0x69:
			case 0x6a: case 0x6c: case 0x6d: case 0x70:
				break;			/* flags, xmm, mm */
			case 0xa4: case 0xa5: case 0xac: case 0xad: /* shld,
								     * shrd */
			case 0xab: case 0xb3: case 0xbb:	/* bts, btr,
								 * btc */
				w = mod3 ? 1u << rm : 0;
				break;
			case 0xba:			/* bt* imm8 */
				w = mod3 && (m >> 3 & 7) > 4 ? 1u << rm : 0;
				break;
			case 0xaf: case 0xb6: case 0xb7: case 0xbe: case 0xbf:
			case 0xbc: case 0xbd:	/* imul, movzx, movsx,
						 * bsf, bsr */
				w = 1u << reg;
				break;
			default:
				return 0;
			}
		*mask = (uint16_t)w;
		return 1;
	}
	(void)opsz;
	if (rep)
		return 0;
	if (k < d->len)
		m = p[k];
	reg = ((m >> 3) & 7) | (rex & 4 ? 8 : 0);
	rm = (m & 7) | (rex & 1 ? 8 : 0);
	sub = (m >> 3) & 7;
	mod3 = (m >> 6) == 3;
#define RMW(b)	(mod3 ? 1u << ((b) ? gpr8(rm, rex) : rm) : 0)
#define REGW(b)	(1u << ((b) ? gpr8(reg, rex) : reg))
	if (op < 0x40) {
		/* add, or, adc, sbb, and, sub, xor, cmp (no write) */
		if (op >> 3 == 7)
			w = 0;
		else
			switch (op & 7) {
			case 0: case 1:
				w = RMW(!(op & 1));
				break;
			case 2: case 3:
				w = REGW(!(op & 1));
				break;
			case 4: case 5:
				w = 1;
				break;
			default:
				return 0;
			}
	} else if (op >= 0x50 && op <= 0x57)		/* push */
		w = 1u << 4;
	else if (op >= 0x58 && op <= 0x5f)		/* pop */
		w = 1u << 4 | 1u << ((op & 7) | (rex & 1 ? 8 : 0));
	else if (op >= 0x91 && op <= 0x97)		/* xchg with eax */
		w = 1u | 1u << ((op & 7) | (rex & 1 ? 8 : 0));
	else if (op >= 0xb0 && op <= 0xb7)		/* mov r8, imm */
		w = 1u << gpr8((op & 7) | (rex & 1 ? 8 : 0), rex);
	else if (op >= 0xb8 && op <= 0xbf)		/* mov r, imm */
		w = 1u << ((op & 7) | (rex & 1 ? 8 : 0));
	else
		switch (op) {
		case 0x63: case 0x69: case 0x6b: case 0x8b: case 0x8d:
			w = REGW(0);
			break;
		case 0x8a:
			w = REGW(1);
			break;
		case 0x68: case 0x6a:			/* push imm */
			w = 1u << 4;
			break;
		case 0x80: case 0x81: case 0x83:
			w = sub == 7 ? 0 : RMW(op == 0x80);
			break;
		case 0x84: case 0x85: case 0xcc:	/* test, int3 */
			w = 0;
			break;
		case 0xa8: case 0xa9:
			/* test al/eax, imm: Capstone 4 has it write eax */
			w = 1;
			break;
		case 0x86: case 0x87:			/* xchg */
			byte = op == 0x86;
			w = REGW(byte) | RMW(byte);
			break;
		case 0x88: case 0x89: case 0xc6: case 0xc7:	/* mov */
		case 0xc0: case 0xc1: case 0xd0: case 0xd1: case 0xd2:
		case 0xd3:				/* shifts */
			w = RMW(!(op & 1));
			break;
		case 0x98:				/* cwde, cdqe */
			w = 1;
			break;
		case 0x99:
			/* cdq, cqo: edx, and eax as Capstone 4 has it */
			w = 1u | 1u << 2;
			break;
		case 0xf6: case 0xf7:
			if (sub == 0)			/* test */
				w = 0;
			else if (sub == 2 || sub == 3)	/* not, neg */
				w = RMW(op == 0xf6);
			else				/* mul, div */
				w = op == 0xf6 ? 1u : 1u | 1u << 2;
			break;
		case 0xfe: case 0xff:
			if (sub <= 1)			/* inc, dec */
				w = RMW(op == 0xfe);
			else if (op == 0xff && sub == 6)	/* push */
				w = 1u << 4;
			else
				return 0;
			break;
		default:
			return 0;
		}
#undef RMW
#undef REGW
	*mask = (uint16_t)w;
	return 1;
}
