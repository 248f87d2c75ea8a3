/* See COPYING file for copyright and license details. */
/*
 * cfgwalk: branch stacks that follow a program's real control flow, for
 * programs too large to trace with brtrace.  It disassembles the
 * function symbols of an x86-64 or AArch64 ELF executable (Capstone,
 * lazily, one function at a time; on AArch64 the bytes the $d mapping
 * symbols mark as data in code are not instructions) and random-walks
 * their control flow:
 *
 *   - execution runs straight from one instruction to the next until a
 *     branch; a conditional branch is taken or not (50/50 under the
 *     uniform distribution; under the skewed one each branch has a
 *     direction it prefers nine times in ten, or none, by a hash of its
 *     address and the seed);
 *   - a direct call into a function of the binary pushes the return
 *     address, and that function's real `ret` returns there; a call or
 *     jump to anything that is not a function of the binary (a PLT
 *     entry, a library) is recorded, followed by a return from a library
 *     address to the next instruction (or to the caller, for a jump);
 *   - an indirect call calls a function of the binary picked by the
 *     distribution; an indirect jump (a jump table, a tail call through
 *     a pointer) returns to the caller, as a tail call would, or, in the
 *     walk's first function, tail-calls a function so picked;
 *   - a walk ends when its first function returns (to a library
 *     address), at a call that ends its function (noreturn: the callee
 *     is not walked), at ud2/hlt, a loop instruction or an undecodable
 *     instruction, or, past a budget of branches, at its next branch;
 *     (AArch64: brk, udf, hlt, eret, or a word Capstone 4 does not
 *     decode but for the pointer-authenticating branches and returns;
 *     a linker's veneer, br after adrp and add or after a literal load
 *     of the same register, is followed as the jump it is),
 *     the next walk is entered from a library address, as a callback,
 *     at the entry of a function picked by the distribution: uniform
 *     (every function equally likely) or skewed (Zipf over a seeded
 *     ranking: a few hot functions).
 *
 * As on a real machine, a recorded branch leaves only from a branch,
 * call or return instruction, and a function reached by an indirect
 * call or at the start of a walk is never a split-off fragment
 * (foo.cold, foo.cold.0: code reached only by its parent's branches) nor
 * a stub BOLT left at a moved function's old address (foo.org.0: only
 * code BOLT did not rewrite may still branch there).
 *
 * With -S PCT, that share of the walks' starts, indirect calls and
 * indirect tail calls lands instead on code BOLT left at a moved
 * function's old address, as a caller BOLT could not rewrite reaches it
 * (a reference without a relocation: a short jump the assembler
 * resolved, a pointer kept outside the binary): a stub (foo.org.0, the
 * jump BOLT patched over the old entry) or an old body too small to
 * patch, known only from .eh_frame (perf2bolt's __BOLT_FDE_FUNCat<hex>),
 * whose code is then walked too, as are direct branches into it from
 * code BOLT left in place.  Without -S such code counts as outside the
 * binary, and the output is what it was before -S existed.
 *
 * So every stretch between two recorded branches is real straight-line
 * code of one function, as perf2bolt checks it.  Every PERIOD branches
 * on average a sample is written with the last DEPTH branches, most
 * recent first (flag M for a deterministic ~6% of them, else P), and the
 * target of the newest branch as its ip.  The output is a profpipe-events
 * stream (man/profpipe-events.5): header, comm, the mmaps of the
 * executable PT_LOAD segments as perf records them (shifted by the load
 * bias, for a PIE; a BOLTed binary has two), the samples, exit.  build/testbin/mkperfdata turns it
 * into perf.data.  Deterministic for a given seed and options.
 *
 * usage: cfgwalk [-o FILE] [-n SAMPLES] [-s SEED] [-d DEPTH] [-p PID]
 *                [-b BIAS] [-P PERIOD] [-D uniform|skewed] [-S PCT]
 *                [-m PATH] BINARY
 */
#include <capstone/capstone.h>
#include <err.h>
#include <gelf.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "elfobj.h"
#include "functab.h"
#include "elfobj.h"

enum kind { K_PLAIN, K_JCC, K_JMP, K_JMPI, K_CALL, K_CALLI, K_RET, K_STOP };

struct insn {
	uint32_t	off;		/* from the function start */
	uint8_t		len, kind;
	uint64_t	target;		/* direct branches and calls */
};

struct func {
	uint64_t	addr, size;
	const uint8_t	*bytes;		/* its code */
	struct insn	*in;		/* decoded on first use */
	size_t		nin;
	int		decoded;
	int		noentry;	/* a fragment (foo.cold) or BOLT's stub
					 * at a moved function's old address
					 * (foo.org.0): never entered */
	int		old;		/* code at a moved function's old
					 * address (a stub, an old body): -S */
};

struct frame {
	size_t		f, i;		/* function and instruction to return to */
};

struct br {
	uint64_t	from, to;
};

static struct {
	uint64_t	nsamples, seed, depth, pid, bias, period, stubs;
	int		skewed;
	const char	*path;
} opt = { 1000, 1, 32, 4242, 0, 16, 0, 0, NULL };

static struct func *funcs;
static size_t nfuncs;
#define MAXSEG	16
static struct xseg {		/* the executable PT_LOAD segments */
	uint64_t	vaddr, filesz, memsz, offset;
	uint8_t		*bytes;
} segs[MAXSEG];
static size_t nsegs;
static csh cs;
static int a64;			/* AArch64, else x86-64 */
/* AArch64: the data in code, from the $d mapping symbol to the next $x
 * (or the end of the section), sorted */
static struct range {
	uint64_t	start, end;
} *data;
static size_t ndata;
static uint64_t rng;
static size_t *oldfuncs, noldfuncs;	/* -S: the functions with old set */
static double *zipf_cdf;	/* skewed: cumulative weights by rank */
static size_t *rank_func;	/* skewed: the function of each rank */

static uint64_t
rnd(void)			/* splitmix64 */
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t
hash64(uint64_t x)
{
	x ^= opt.seed * 0xd6e8feb86659fd93ULL;
	x = (x ^ (x >> 32)) * 0xd6e8feb86659fd93ULL;
	x = (x ^ (x >> 32)) * 0xd6e8feb86659fd93ULL;
	return x ^ (x >> 32);
}

static double
unit(void)
{
	return (double)(rnd() >> 11) / (double)(1ULL << 53);
}

/* the function containing addr, or SIZE_MAX */
static size_t
func_at(uint64_t addr)
{
	size_t lo = 0, hi = nfuncs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (funcs[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr - funcs[lo - 1].addr >= funcs[lo - 1].size)
		return SIZE_MAX;
	return lo - 1;
}

static void	decode_a64(struct func *);

static void
decode(struct func *fn)
{
	const uint8_t *p = fn->bytes;
	size_t left = fn->size, cap = 0;
	uint64_t pc = fn->addr;
	cs_insn *ci = cs_malloc(cs);

	if (a64) {
		decode_a64(fn);
		return;
	}
	fn->decoded = 1;
	while (left > 0) {
		struct insn in = { (uint32_t)(pc - fn->addr), 1, K_STOP, 0 };
		const uint8_t *q = p;
		uint64_t a = pc;
		size_t l = left;
		const cs_x86 *x;

		if (!cs_disasm_iter(cs, &q, &l, &a, ci)) {
			xgrow(&fn->in, &cap, fn->nin + 1, sizeof(*fn->in));
			fn->in[fn->nin++] = in;	/* undecodable: the walk stops */
			break;
		}
		in.len = (uint8_t)ci->size;
		x = &ci->detail->x86;
		in.kind = K_PLAIN;
		switch (ci->id) {
		case X86_INS_JMP:
		case X86_INS_LJMP:
			in.kind = K_JMPI;
			if (x->op_count == 1 && x->operands[0].type == X86_OP_IMM) {
				in.kind = K_JMP;
				in.target = (uint64_t)x->operands[0].imm;
			}
			break;
		case X86_INS_CALL:
		case X86_INS_LCALL:
			in.kind = K_CALLI;
			if (x->op_count == 1 && x->operands[0].type == X86_OP_IMM) {
				in.kind = K_CALL;
				in.target = (uint64_t)x->operands[0].imm;
			}
			break;
		case X86_INS_RET:
		case X86_INS_RETF:
		case X86_INS_RETFQ:
			in.kind = K_RET;
			break;
		case X86_INS_UD2:
		case X86_INS_HLT:
		case X86_INS_LOOP:	/* BOLT ignores functions with these */
		case X86_INS_LOOPE:
		case X86_INS_LOOPNE:
		case X86_INS_JECXZ:
		case X86_INS_JRCXZ:
			in.kind = K_STOP;
			break;
		default:
			if (cs_insn_group(cs, ci, CS_GRP_JUMP) && x->op_count == 1 &&
			    x->operands[0].type == X86_OP_IMM) {
				in.kind = K_JCC;
				in.target = (uint64_t)x->operands[0].imm;
			}
			break;
		}
		xgrow(&fn->in, &cap, fn->nin + 1, sizeof(*fn->in));
		fn->in[fn->nin++] = in;
		p += ci->size;
		pc += ci->size;
		left -= ci->size;
	}
	cs_free(ci, 1);
}

/* is a in data in code (AArch64) */
static int
in_data(uint64_t a)
{
	size_t lo = 0, hi = ndata;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (data[mid].end <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ndata && data[lo].start <= a;
}

/* the pointer-authenticating branches and returns of Armv8.3, which
 * Capstone 4 does not decode: their kind, or K_STOP */
static int
pac_kind(uint32_t w)
{
	if (w == 0xd65f0bffu || w == 0xd65f0fffu)	/* retaa, retab */
		return K_RET;
	/* braa, brab (Rm), braaz, brabz: 1101011 Z 000 11111 00001 M */
	if ((w & 0xfefff800u) == 0xd61f0800u)
		return K_JMPI;
	if ((w & 0xfefff800u) == 0xd63f0800u)	/* blraa, blrab, ...z */
		return K_CALLI;
	return K_STOP;
}

/* the bytes of the binary at address a, n of them, or NULL */
static const uint8_t *
seg_bytes(uint64_t a, size_t n)
{
	for (size_t k = 0; k < nsegs; k++)
		if (a >= segs[k].vaddr && a - segs[k].vaddr < segs[k].filesz &&
		    n <= segs[k].filesz - (a - segs[k].vaddr))
			return segs[k].bytes + (a - segs[k].vaddr);
	return NULL;
}

/* a linker's veneer or a jump through a literal: br xN after adrp xN and
 * add xN, xN, #imm, or after ldr xN of a literal; the walk follows it
 * as the direct jump it is */
static void
veneer(const struct func *fn, uint64_t off, uint32_t br, struct insn *in)
{
	uint32_t n = (br >> 5) & 31, w1, w2;
	const uint8_t *p;
	uint64_t pc = fn->addr + off;

	if (off < 4)
		return;
	w1 = fn->bytes[off - 4] | (uint32_t)fn->bytes[off - 3] << 8 |
	    (uint32_t)fn->bytes[off - 2] << 16 | (uint32_t)fn->bytes[off - 1] << 24;
	if ((w1 & 0xff000000u) == 0x58000000u && (w1 & 31) == n) {
		/* ldr xN, literal */
		int64_t imm = (int32_t)(w1 << 8) >> 13;

		if ((p = seg_bytes(pc - 4 + (uint64_t)(imm * 4), 8)) != NULL) {
			in->kind = K_JMP;
			in->target = (uint64_t)p[0] | (uint64_t)p[1] << 8 |
			    (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
			    (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
			    (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
		}
		return;
	}
	if (off < 8 || (w1 & 0xff800000u) != 0x91000000u || (w1 & 31) != n ||
	    ((w1 >> 5) & 31) != n)
		return;
	p = fn->bytes + off - 8;
	w2 = p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
	if ((w2 & 0x9f000000u) == 0x90000000u && (w2 & 31) == n) {
		/* adrp xN, page; add xN, xN, #imm{, lsl #12} */
		int64_t page = (int32_t)((((w2 >> 5) & 0x7ffff) << 2 |
		    ((w2 >> 29) & 3)) << 11) >> 11;

		in->kind = K_JMP;
		in->target = ((pc - 8) & ~(uint64_t)0xfff) +
		    (uint64_t)(page * 4096) + ((uint64_t)((w1 >> 10) & 0xfff) <<
		    ((w1 >> 22) & 1 ? 12 : 0));
	}
}

static void
decode_a64(struct func *fn)
{
	size_t cap = 0;
	uint64_t off;
	cs_insn *ci = cs_malloc(cs);

	fn->decoded = 1;
	for (off = 0; off < fn->size; off += 4) {
		struct insn in = { (uint32_t)off, 4, K_STOP, 0 };
		const uint8_t *q = fn->bytes + off;
		uint64_t a = fn->addr + off;
		size_t l = fn->size - off < 4 ? (size_t)(fn->size - off) : 4;
		const cs_arm64 *x;
		uint32_t w;

		xgrow(&fn->in, &cap, fn->nin + 1, sizeof(*fn->in));
		if (l < 4 || in_data(a)) {
			fn->in[fn->nin++] = in;		/* data: the walk stops */
			continue;
		}
		w = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
		    (uint32_t)q[3] << 24;
		if (!cs_disasm_iter(cs, &q, &l, &a, ci)) {
			in.kind = (uint8_t)pac_kind(w);
			fn->in[fn->nin++] = in;
			continue;
		}
		x = &ci->detail->arm64;
		in.kind = K_PLAIN;
		switch (ci->id) {
		case ARM64_INS_B:
			in.kind = x->cc == ARM64_CC_INVALID || x->cc == ARM64_CC_AL ||
			    x->cc == ARM64_CC_NV ? K_JMP : K_JCC;
			in.target = (uint64_t)x->operands[0].imm;
			break;
		case ARM64_INS_CBZ:
		case ARM64_INS_CBNZ:
			in.kind = K_JCC;
			in.target = (uint64_t)x->operands[1].imm;
			break;
		case ARM64_INS_TBZ:
		case ARM64_INS_TBNZ:
			in.kind = K_JCC;
			in.target = (uint64_t)x->operands[2].imm;
			break;
		case ARM64_INS_BL:
			in.kind = K_CALL;
			in.target = (uint64_t)x->operands[0].imm;
			break;
		case ARM64_INS_BLR:
			in.kind = K_CALLI;
			break;
		case ARM64_INS_BR:
			in.kind = K_JMPI;
			veneer(fn, off, w, &in);
			break;
		case ARM64_INS_RET:
			in.kind = K_RET;
			break;
		case ARM64_INS_BRK:
		case ARM64_INS_HLT:
		case ARM64_INS_ERET:
		case ARM64_INS_DRPS:
			in.kind = K_STOP;
			break;
		default:
			break;
		}
		fn->in[fn->nin++] = in;
	}
	cs_free(ci, 1);
}

/* the instruction of function f at addr, or SIZE_MAX when addr is no
 * instruction start */
static size_t
insn_at(size_t f, uint64_t addr)
{
	struct func *fn = &funcs[f];
	uint64_t off = addr - fn->addr;
	size_t lo = 0, hi;

	if (!fn->decoded)
		decode(fn);
	hi = fn->nin;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fn->in[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < fn->nin && fn->in[lo].off == off ? lo : SIZE_MAX;
}

static size_t
pick_any(void)
{
	size_t lo = 0, hi;
	double u;

	if (!opt.skewed)
		return (size_t)(rnd() % nfuncs);
	u = unit() * zipf_cdf[nfuncs - 1];
	hi = nfuncs - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (zipf_cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return rank_func[lo];
}

/* a function to enter from outside or by an indirect call: any but a
 * fragment (load() keeps at least one that is not); with -S, code at a
 * moved function's old address that share of the time */
static size_t
pick_func(void)
{
	size_t g;

	if (opt.stubs > 0 && noldfuncs > 0 && rnd() % 100 < opt.stubs)
		return oldfuncs[rnd() % noldfuncs];
	while (funcs[g = pick_any()].noentry)
		;
	return g;
}

/* taken or not: the direction a conditional branch prefers (skewed) */
static int
taken(uint64_t addr)
{
	uint64_t h;

	if (!opt.skewed)
		return rnd() & 1;
	h = hash64(addr) % 10;
	if (h < 4)
		return unit() < 0.9;
	if (h < 8)
		return unit() < 0.1;
	return rnd() & 1;
}

/* the branch history and the samples */
static struct br *ring;
static size_t ring_head, ring_n;
static uint64_t nbranches, next_sample, samples_out, time_ns = 1000000000;
static struct wbuf wb;

/* an address as the process sees it: the binary's moved by the bias */
static uint64_t
loaded(uint64_t a)
{
	for (size_t k = 0; k < nsegs; k++)
		if (a - segs[k].vaddr < segs[k].memsz)
			return a + opt.bias;
	return a;
}

static void
record(uint64_t from, uint64_t to)
{
	ring[ring_head] = (struct br){ from, to };
	ring_head = (ring_head + 1) % opt.depth;
	if (ring_n < opt.depth)
		ring_n++;
	nbranches++;
	if (ring_n < opt.depth || nbranches < next_sample ||
	    samples_out >= opt.nsamples)
		return;
	next_sample = nbranches + 1 + rnd() % (2 * opt.period - 1);
	time_ns += 1000 + rnd() % 1000;
	wb_puts(&wb, "sample ");
	wb_dec(&wb, opt.pid);
	wb_putc(&wb, ' ');
	wb_dec(&wb, opt.pid);
	wb_putc(&wb, ' ');
	wb_dec(&wb, time_ns);
	wb_puts(&wb, " cycles:u ");
	wb_hex(&wb, loaded(to));
	for (size_t k = 1; k <= ring_n; k++) {
		const struct br *b = &ring[(ring_head + opt.depth - k) % opt.depth];

		wb_putc(&wb, ' ');
		wb_hex(&wb, loaded(b->from));
		wb_putc(&wb, '/');
		wb_hex(&wb, loaded(b->to));
		wb_puts(&wb, (hash64(b->from * 31 + b->to) >> 60) == 0 ? "/M" : "/P");
	}
	wb_putc(&wb, '\n');
	samples_out++;
}

/* a library address for an outside callee (a PLT entry's target) */
static uint64_t
libaddr(uint64_t target)
{
	return 0x7f3a10000000ULL + (hash64(target) % 0x100000) * 0x40 + 0x1b;
}

#define MAXSTACK	256
#define BUDGET		400

/* the next walk, entered from outside (a library address, as a
 * callback) at the entry of a function picked by the distribution */
static size_t
next_walk(uint64_t from)
{
	size_t g = pick_func();

	record(from, funcs[g].addr);
	return g;
}

static void
walk(void)
{
	struct frame *stack = xcalloc(MAXSTACK, sizeof(*stack));
	size_t sp = 0, f = pick_func(), i = 0, g, j;
	uint64_t budget = BUDGET, steps = 0;

	while (samples_out < opt.nsamples) {
		struct func *fn = &funcs[f];
		const struct insn *in;
		uint64_t pc, next, out;

		if (!fn->decoded)
			decode(fn);
		if (i >= fn->nin) {	/* ran off the end: start over */
			f = next_walk(libaddr(fn->addr + fn->size));
			i = sp = 0;
			budget = BUDGET;
			continue;
		}
		in = &fn->in[i];
		pc = fn->addr + in->off;
		next = pc + in->len;
		if (++steps > 1000000000ULL)
			errx(1, "no progress");
		if (in->kind == K_PLAIN) {
			i++;
			continue;
		}
		if (budget == 0 || in->kind == K_STOP ||
		    (in->kind == K_RET && sp == 0)) {
			/* the walk ends; a return first goes back to the
			 * library that called the walk's first function */
			if (in->kind == K_RET && budget != 0)
				record(pc, libaddr(pc));
			f = next_walk(libaddr(pc));
			i = sp = 0;
			budget = BUDGET;
			continue;
		}
		budget--;
		switch (in->kind) {
		case K_JCC:
			if (!taken(pc)) {
				i++;
				break;
			}
			/* FALLTHROUGH */
		case K_JMP:
			record(pc, in->target);
			g = func_at(in->target);
			if (g != SIZE_MAX && (j = insn_at(g, in->target)) != SIZE_MAX) {
				f = g;
				i = j;
				break;
			}
			/* outside the binary: it returns to our caller */
			if (sp == 0) {	/* no caller: the next walk */
				f = next_walk(libaddr(in->target));
				i = 0;
				budget = BUDGET;
				break;
			}
			sp--;
			record(libaddr(in->target),
			    funcs[stack[sp].f].addr + funcs[stack[sp].f].in[stack[sp].i].off);
			f = stack[sp].f;
			i = stack[sp].i;
			break;
		case K_CALL:
		case K_CALLI:
			if (in->kind == K_CALL) {
				g = func_at(in->target);
				j = g != SIZE_MAX ? insn_at(g, in->target) : SIZE_MAX;
				out = in->target;
			} else {
				g = pick_func();
				j = insn_at(g, funcs[g].addr);
				out = libaddr(pc);
			}
			if (i + 1 >= fn->nin) {
				/* a noreturn call ends its function: the call,
				 * then the next walk */
				uint64_t t = j != SIZE_MAX ?
				    funcs[g].addr + funcs[g].in[j].off : out;

				record(pc, t);
				f = next_walk(libaddr(t));
				i = sp = 0;
				budget = BUDGET;
				break;
			}
			if (j == SIZE_MAX || sp == MAXSTACK) {
				/* an outside callee returns to the next insn */
				record(pc, out);
				record(libaddr(out), next);
				i++;
				break;
			}
			record(pc, funcs[g].addr + funcs[g].in[j].off);
			stack[sp++] = (struct frame){ f, i + 1 };
			f = g;
			i = j;
			break;
		case K_JMPI:
			if (sp == 0) {	/* a tail call through a pointer */
				g = pick_func();
				record(pc, funcs[g].addr);
				f = g;
				i = 0;
				break;
			}
			/* from a callee, it returns to the caller */
			/* FALLTHROUGH */
		case K_RET:
			sp--;
			record(pc, funcs[stack[sp].f].addr +
			    funcs[stack[sp].f].in[stack[sp].i].off);
			f = stack[sp].f;
			i = stack[sp].i;
			break;
		}
	}
	free(stack);
}

static int
fcmp(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->size > y->size ? -1 : x->size < y->size;
}

static int
rcmp(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

struct mark {
	uint64_t	addr;
	uint16_t	shndx;
	uint8_t		isdata;
};

static int
mcmp(const void *a, const void *b)
{
	const struct mark *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (int)y->isdata - (int)x->isdata;
}

/* AArch64's data in code: $d to the next $x (or $d, or the end of the
 * section) of each executable section, from .symtab's mapping symbols */
static void
load_data(struct elfobj *eo)
{
	Elf *e = eo->elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	struct mark *m = NULL;
	size_t nm = 0, cap = 0, capdata = 0, k;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		Elf_Data *d;
		GElf_Sym sym;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_SYMTAB ||
		    sh.sh_entsize == 0)
			continue;
		if ((d = elf_getdata(scn, NULL)) == NULL)
			continue;
		for (k = 0; k < sh.sh_size / sh.sh_entsize; k++) {
			const char *n;

			if (gelf_getsym(d, (int)k, &sym) == NULL ||
			    GELF_ST_TYPE(sym.st_info) != STT_NOTYPE ||
			    (n = elf_strptr(e, sh.sh_link, sym.st_name)) == NULL ||
			    n[0] != '$' || (n[1] != 'd' && n[1] != 'x') ||
			    (n[2] != '\0' && n[2] != '.'))
				continue;
			xgrow(&m, &cap, nm + 1, sizeof(*m));
			m[nm++] = (struct mark){ sym.st_value, sym.st_shndx,
			    n[1] == 'd' };
		}
	}
	/* in address order; at one address a $x last, so it wins */
	qsort(m, nm, sizeof(*m), mcmp);
	for (k = 0; k < nm; k++) {
		uint64_t end = UINT64_MAX;

		if (!m[k].isdata)
			continue;
		if (k + 1 < nm && m[k + 1].shndx == m[k].shndx)
			end = m[k + 1].addr;
		else if ((scn = elf_getscn(e, m[k].shndx)) != NULL &&
		    gelf_getshdr(scn, &sh) != NULL)
			end = sh.sh_addr + sh.sh_size;
		if (end <= m[k].addr)
			continue;
		xgrow(&data, &capdata, ndata + 1, sizeof(*data));
		data[ndata++] = (struct range){ m[k].addr, end };
	}
	qsort(data, ndata, sizeof(*data), rcmp);
	free(m);
}

static void
load(const char *path)
{
	struct elfobj eo;
	struct functab ft;
	char eb[512];
	size_t k, n;

	if (elfobj_open(&eo, path, eb, sizeof(eb)) == -1 ||
	    elfobj_load_syms(&eo, eb, sizeof(eb)) == -1)
		errx(1, "%s", eb);
	if ((eo.machine != 62 && eo.machine != 183) || !eo.is64)
		errx(1, "%s: not an x86-64 or AArch64 ELF file", path);
	a64 = eo.machine == 183;
	if (a64)
		load_data(&eo);
	for (k = 0; k < eo.nsegs && nsegs < MAXSEG; k++) {
		const struct elf_seg *seg = &eo.segs[k];
		struct xseg *x = &segs[nsegs];

		if (!(seg->flags & 1) || seg->filesz == 0)	/* PF_X */
			continue;
		if (seg->filesz > (1ULL << 32))
			errx(1, "%s: executable segment too large", path);
		*x = (struct xseg){ seg->vaddr, seg->filesz, seg->memsz,
		    seg->offset, xmalloc(seg->filesz) };
		if (elfobj_read(&eo, seg->offset, x->bytes, seg->filesz) == -1)
			errx(1, "%s: cannot read an executable segment", path);
		nsegs++;
	}
	if (nsegs == 0)
		errx(1, "%s: no executable segment", path);
	memset(&ft, 0, sizeof(ft));
	if (opt.stubs > 0 && functab_load(&ft, &eo, eb, sizeof(eb)) == -1)
		errx(1, "%s", eb);
	funcs = xcalloc(eo.nsyms + ft.n + 1, sizeof(*funcs));
	for (k = 0; k < eo.nsyms; k++) {
		const struct elf_sym *s = &eo.syms[k];

		for (n = 0; n < nsegs; n++) {
			const struct xseg *x = &segs[n];

			if (s->size == 0 || s->addr < x->vaddr ||
			    s->addr - x->vaddr >= x->filesz ||
			    s->size > x->filesz - (s->addr - x->vaddr))
				continue;
			funcs[nfuncs++] = (struct func){ s->addr, s->size,
			    x->bytes + (s->addr - x->vaddr), NULL, 0, 0,
			    s->name != NULL && (strstr(s->name, ".cold") != NULL ||
			    strstr(s->name, ".org.") != NULL),
			    opt.stubs > 0 && s->name != NULL &&
			    strstr(s->name, ".org.") != NULL };
			break;
		}
	}
	/* -S: code known only from .eh_frame, where a BOLTed binary keeps
	 * the old bodies it did not patch; never picked by the
	 * distribution, entered as old code */
	for (k = 0; k < ft.n; k++) {
		const struct bfunc *bf = &ft.f[k];

		if (!(bf->flags & BF_FDE) || bf->size == 0)
			continue;
		for (n = 0; n < nsegs; n++) {
			const struct xseg *x = &segs[n];

			if (bf->addr < x->vaddr || bf->addr - x->vaddr >= x->filesz ||
			    bf->size > x->filesz - (bf->addr - x->vaddr))
				continue;
			funcs[nfuncs++] = (struct func){ bf->addr, bf->size,
			    x->bytes + (bf->addr - x->vaddr), NULL, 0, 0, 1, 1 };
			break;
		}
	}
	functab_free(&ft);
	qsort(funcs, nfuncs, sizeof(*funcs), fcmp);
	/* one per address; a function overlapping the previous one goes */
	for (k = n = 0; k < nfuncs; k++)
		if (n == 0 || funcs[k].addr >= funcs[n - 1].addr + funcs[n - 1].size)
			funcs[n++] = funcs[k];
	nfuncs = n;
	for (k = n = 0; k < nfuncs; k++) {
		n += !funcs[k].noentry;
		if (funcs[k].old) {
			oldfuncs = xreallocarray(oldfuncs, noldfuncs + 1,
			    sizeof(*oldfuncs));
			oldfuncs[noldfuncs++] = k;
		}
	}
	if (n == 0)
		errx(1, "%s: no function symbols in its executable segments "
		    "(fragments aside)", path);
	/* the mmaps as perf records them: the executable PT_LOADs, page-aligned */
	wb_puts(&wb, "# profpipe-events 1\n# source=cfgwalk\n# event=cycles:u\n");
	{
		const char *p = opt.path ? opt.path : path, *b = strrchr(p, '/');

		wb_printf(&wb, "comm %" PRIu64 " %" PRIu64 " 1000 1 %.15s\n",
		    opt.pid, opt.pid, b ? b + 1 : p);
		for (k = 0; k < nsegs; k++) {
			const struct xseg *x = &segs[k];
			uint64_t start = x->vaddr & ~(uint64_t)0xfff;
			uint64_t end = (x->vaddr + x->memsz + 0xfff) & ~(uint64_t)0xfff;

			wb_printf(&wb, "mmap %" PRIu64 " %" PRIu64 " %zu %" PRIx64
			    " %" PRIx64 " %" PRIx64 " r-xp - %s\n", opt.pid,
			    opt.pid, 1001 + k, start + opt.bias, end - start,
			    x->offset & ~(uint64_t)0xfff, p);
		}
	}
	elfobj_close(&eo);
}

static void
setup_zipf(void)
{
	size_t k;
	double acc = 0;

	rank_func = xcalloc(nfuncs, sizeof(*rank_func));
	zipf_cdf = xcalloc(nfuncs, sizeof(*zipf_cdf));
	for (k = 0; k < nfuncs; k++)
		rank_func[k] = k;
	for (k = nfuncs - 1; k > 0; k--) {	/* a seeded shuffle */
		size_t r = (size_t)(rnd() % (k + 1)), t = rank_func[k];

		rank_func[k] = rank_func[r];
		rank_func[r] = t;
	}
	for (k = 0; k < nfuncs; k++) {
		acc += 1.0 / ((double)k + 1.0);
		zipf_cdf[k] = acc;
	}
}

static void
usage(void)
{
	printf("usage: %s [-o FILE] [-n SAMPLES] [-s SEED] [-d DEPTH] [-p PID]\n"
	    "       [-b BIAS] [-P PERIOD] [-D uniform|skewed] [-S PCT] [-m PATH]\n"
	    "       BINARY\n"
	    "Random walks over BINARY's control flow, written as a profpipe-events\n"
	    "stream of samples with branch stacks (mkperfdata makes perf.data).\n"
	    "  -n, --samples N     samples to write (1000)\n"
	    "  -s, --seed N        random seed (1); the output depends on it only\n"
	    "  -d, --depth N       branches per sample, most recent first (32)\n"
	    "  -p, --pid N         process id of the samples (4242)\n"
	    "  -b, --bias HEX      load bias added to the binary's addresses (0;\n"
	    "                      the load base of a PIE, e.g. 555555554000)\n"
	    "  -P, --period N      mean branches between samples (16)\n"
	    "  -D, --dist D        uniform: walks start in every function alike;\n"
	    "                      skewed: Zipf-ranked hot functions and branch\n"
	    "                      directions that prefer one side\n"
	    "  -S, --stubs PCT     that percentage of walk starts and indirect calls\n"
	    "                      enter code BOLT left at moved functions' old\n"
	    "                      addresses (foo.org.0 stubs, old bodies known\n"
	    "                      from .eh_frame), which is then walked (0)\n"
	    "  -m, --path PATH     the mapped file's name (BINARY)\n"
	    "  -o, --output FILE   output file (standard output)\n", progname);
	exit(0);
}

static const struct option longopts[] = {
	{ "output",	required_argument,	NULL, 'o' },
	{ "samples",	required_argument,	NULL, 'n' },
	{ "seed",	required_argument,	NULL, 's' },
	{ "depth",	required_argument,	NULL, 'd' },
	{ "pid",	required_argument,	NULL, 'p' },
	{ "bias",	required_argument,	NULL, 'b' },
	{ "period",	required_argument,	NULL, 'P' },
	{ "dist",	required_argument,	NULL, 'D' },
	{ "path",	required_argument,	NULL, 'm' },
	{ "stubs",	required_argument,	NULL, 'S' },
	{ "help",	no_argument,		NULL, 'h' },
	{ "version",	no_argument,		NULL, 'V' },
	{ NULL,		0,			NULL, 0 }
};

int
main(int argc, char *argv[])
{
	const char *ofile = NULL;
	struct output o;
	uint64_t v;
	int ch;

	prog_init(argc, argv);
	while ((ch = getopt_long(argc, argv, "o:n:s:d:p:b:P:D:S:m:h", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'o':
			ofile = optarg;
			break;
		case 'n':
		case 's':
		case 'd':
		case 'p':
		case 'P':
			if (parse_u64(optarg, 10, ch == 's' ? UINT64_MAX :
			    ch == 'p' ? INT32_MAX : 1u << 30, &v) == -1 ||
			    (v == 0 && ch != 's' && ch != 'n'))
				prog_usage_error("bad number '%s'", optarg);
			if (ch == 'n')
				opt.nsamples = v;
			else if (ch == 's')
				opt.seed = v;
			else if (ch == 'd')
				opt.depth = v;
			else if (ch == 'p')
				opt.pid = v;
			else
				opt.period = v;
			break;
		case 'b':
			if (parse_hex64(optarg, &v) == -1 || (v & 0xfff) != 0)
				prog_usage_error("bad load bias '%s' (hex, "
				    "page-aligned)", optarg);
			opt.bias = v;
			break;
		case 'D':
			if (strcmp(optarg, "uniform") == 0)
				opt.skewed = 0;
			else if (strcmp(optarg, "skewed") == 0)
				opt.skewed = 1;
			else
				prog_usage_error("bad distribution '%s'", optarg);
			break;
		case 'm':
			opt.path = optarg;
			break;
		case 'S':
			if (parse_u64(optarg, 10, 100, &opt.stubs) == -1)
				prog_usage_error("bad percentage '%s'", optarg);
			break;
		case 'h':
			usage();
			break;
		case 'V':
			prog_version();
		default:
			prog_usage_error(NULL);
		}
	}
	if (argc - optind != 1)
		prog_usage_error("one BINARY expected");
	rng = opt.seed;
	out_open(&o, ofile);
	wb_init(&wb, o.fp, 1 << 16);
	load(argv[optind]);
	if (cs_open(a64 ? CS_ARCH_ARM64 : CS_ARCH_X86, a64 ? CS_MODE_ARM :
	    CS_MODE_64, &cs) != CS_ERR_OK)
		errx(1, "capstone: cannot open %s", a64 ? "AArch64" : "x86-64");
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	if (opt.skewed)
		setup_zipf();
	ring = xcalloc(opt.depth, sizeof(*ring));
	next_sample = 1 + rnd() % opt.period;
	if (opt.nsamples > 0)
		walk();
	wb_printf(&wb, "exit %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
	    " %" PRIu64 "\n", opt.pid, opt.pid, opt.pid, opt.pid, time_ns + 1000);
	wb_free(&wb);
	out_commit(&o);
	for (size_t k = 0; k < nfuncs; k++)
		free(funcs[k].in);
	free(funcs);
	for (size_t k = 0; k < nsegs; k++)
		free(segs[k].bytes);
	free(ring);
	free(rank_func);
	free(zipf_cdf);
	free(oldfuncs);
	free(data);
	cs_close(&cs);
	return 0;
}
