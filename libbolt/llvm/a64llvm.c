/* See COPYING file for copyright and license details. */
/*
 * a64llvm.c: LLVM 19's AArch64 disassembler through its C interface,
 * loaded with dlopen (a64llvm.h).  The few functions of
 * llvm-c/Disassembler.h and llvm-c/Core.h used here are declared by
 * their C signatures, so no LLVM header is needed to build.  Answers
 * are kept per word: code repeats its instruction words (ret, nop, the
 * frame set-up), and LLVM prints every instruction it decodes.
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "a64dec.h"
#include "a64llvm.h"

typedef void *dctx;
typedef int (*opinfo_fn)(void *, uint64_t, uint64_t, uint64_t, uint64_t,
    int, void *);
typedef const char *(*symlookup_fn)(void *, uint64_t, uint64_t *, uint64_t,
    const char **);

static struct {
	void	*lib;
	dctx	 dc;
	int	 failed;
	size_t	(*disasm)(dctx, uint8_t *, uint64_t, uint64_t, char *, size_t);
} L;

/* direct-mapped: word << 2 | 1 (decodes) or 2 (does not); 0 empty */
#define CACHEBITS	16
static uint64_t cache[1u << CACHEBITS];

int
a64llvm_open(char *err, size_t errlen)
{
	static const char *names[] = {
		"libLLVM.so.19.1", "libLLVM-19.so.1",
		"/usr/lib/llvm-19/lib/libLLVM.so.19.1",
		"/usr/lib/llvm-19/lib/libLLVM.so.1",
	};
	void (*init[3])(void);
	dctx (*create)(const char *, const char *, const char *, void *, int,
	    opinfo_fn, symlookup_fn);
	void (*version)(unsigned *, unsigned *, unsigned *);
	unsigned major = 0, minor = 0, patch = 0;
	size_t k;

	if (L.dc != NULL)
		return 0;
	if (L.failed) {
		snprintf(err, errlen, "LLVM 19's AArch64 disassembler is not "
		    "available");
		return -1;
	}
	for (k = 0; k < sizeof(names) / sizeof(names[0]) && L.lib == NULL; k++)
		L.lib = dlopen(names[k], RTLD_NOW | RTLD_LOCAL);
	if (L.lib == NULL) {
		L.failed = 1;
		snprintf(err, errlen, "AArch64 code is decoded by LLVM 19's "
		    "libLLVM.so.19.1, which cannot be loaded (%s)", dlerror());
		return -1;
	}
	/* POSIX's way from dlsym's void * to a function pointer */
	*(void **)&version = dlsym(L.lib, "LLVMGetVersion");
	*(void **)&init[0] = dlsym(L.lib, "LLVMInitializeAArch64TargetInfo");
	*(void **)&init[1] = dlsym(L.lib, "LLVMInitializeAArch64TargetMC");
	*(void **)&init[2] = dlsym(L.lib, "LLVMInitializeAArch64Disassembler");
	*(void **)&create = dlsym(L.lib, "LLVMCreateDisasmCPUFeatures");
	*(void **)&L.disasm = dlsym(L.lib, "LLVMDisasmInstruction");
	if (version == NULL || init[0] == NULL || init[1] == NULL ||
	    init[2] == NULL || create == NULL || L.disasm == NULL) {
		L.failed = 1;
		snprintf(err, errlen, "libLLVM has no AArch64 disassembler");
		return -1;
	}
	version(&major, &minor, &patch);
	if (major != 19) {
		L.failed = 1;
		snprintf(err, errlen, "libLLVM is version %u.%u.%u, not 19 as "
		    "BOLT 19's", major, minor, patch);
		return -1;
	}
	for (k = 0; k < 3; k++)
		init[k]();
	L.dc = create("aarch64-linux-gnu", "", "+all", NULL, 0, NULL, NULL);
	if (L.dc == NULL) {
		L.failed = 1;
		snprintf(err, errlen, "LLVM cannot make an AArch64 disassembler");
		return -1;
	}
	return 0;
}

int
a64llvm_valid(uint32_t w)
{
	uint64_t *c = &cache[(uint32_t)(w * 0x9e3779b1u) >> (32 - CACHEBITS)];
	uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16),
	    (uint8_t)(w >> 24) };
	char text[160];
	int ok;

	if (*c != 0 && (uint32_t)(*c >> 2) == w)
		return (*c & 3) == 1;
	/* the address does not change whether a word decodes */
	ok = L.disasm(L.dc, b, 4, 0x10000, text, sizeof(text)) == 4;
	*c = (uint64_t)w << 2 | (ok ? 1 : 2);
	return ok;
}

const char *
a64llvm_text(uint32_t w, uint64_t pc, char *buf, size_t len)
{
	uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16),
	    (uint8_t)(w >> 24) };

	if (len == 0 || L.disasm(L.dc, b, 4, pc, buf, len) != 4)
		return NULL;
	return buf;
}

/* ---- a64dec.c against LLVM's text (a64llvm_check) ---- */

/* the kind a mnemonic names */
static int
kind_of(const char *m)
{
	static const struct {
		const char	*m;
		int		 kind;
	} tab[] = {
		{ "cbz", A64K_JCC }, { "cbnz", A64K_JCC }, { "tbz", A64K_JCC },
		{ "tbnz", A64K_JCC }, { "b", A64K_JMP }, { "br", A64K_IJMP },
		{ "braa", A64K_IJMP }, { "brab", A64K_IJMP },
		{ "braaz", A64K_IJMP }, { "brabz", A64K_IJMP },
		{ "bl", A64K_CALL }, { "blr", A64K_ICALL },
		{ "blraa", A64K_ICALL }, { "blrab", A64K_ICALL },
		{ "blraaz", A64K_ICALL }, { "blrabz", A64K_ICALL },
		{ "ret", A64K_RET }, { "retaa", A64K_RET }, { "retab", A64K_RET },
		{ "retaasppc", A64K_RET }, { "retabsppc", A64K_RET },
		{ "eret", A64K_RET }, { "eretaa", A64K_RET },
		{ "eretab", A64K_RET }, { "drps", A64K_RET },
		{ "brk", A64K_TRAP }, { "udf", A64K_TRAP }, { "nop", A64K_NOP },
	};
	size_t k;

	if (strncmp(m, "b.", 2) == 0 || strncmp(m, "bc.", 3) == 0)
		return A64K_JCC;
	for (k = 0; k < sizeof(tab) / sizeof(tab[0]); k++)
		if (strcmp(m, tab[k].m) == 0)
			return tab[k].kind;
	return A64K_OTHER;
}

/* the last operand's "#imm" (hex or decimal, maybe negative): 1 and *v */
static int
last_imm(const char *ops, int64_t *v)
{
	const char *p = strrchr(ops, '#');
	char *end;
	int neg = 0;

	if (p == NULL || strchr(p, ']') != NULL || strchr(p, ',') != NULL)
		return 0;
	p++;
	if (*p == '-') {
		neg = 1;
		p++;
	}
	*v = (int64_t)strtoull(p, &end, 0);
	if (neg)
		*v = -*v;
	return end != p;
}

int
a64llvm_check(uint32_t w, uint64_t pc, int *kindp, char *why, size_t whylen)
{
	char buf[192], m[32];
	const char *t, *p;
	struct a64d d;
	int64_t imm = 0;
	int kind, pcref = 0, adrp = 0, hasimm;
	uint64_t want = 0, got = 0;
	size_t k;

	if ((t = a64llvm_text(w, pc, buf, sizeof(buf))) == NULL)
		return 0;
	while (*t == '\t' || *t == ' ')
		t++;
	for (k = 0; k + 1 < sizeof(m) && t[k] != '\0' && t[k] != '\t' &&
	    t[k] != ' '; k++)
		m[k] = t[k];
	m[k] = '\0';
	p = t + k;
	kind = kind_of(m);
	hasimm = last_imm(p, &imm);
	if ((strcmp(m, "adr") == 0 && strchr(p, '[') == NULL) ||
	    strcmp(m, "autiasppc") == 0 ||
	    strcmp(m, "autibsppc") == 0 ||
	    ((strcmp(m, "retaasppc") == 0 || strcmp(m, "retabsppc") == 0) &&
	    hasimm) ||
	    ((strcmp(m, "ldr") == 0 || strcmp(m, "ldrsw") == 0 ||
	    strcmp(m, "prfm") == 0) && strchr(p, '[') == NULL && hasimm)) {
		pcref = 1;
		want = pc + (uint64_t)imm;
	} else if (strcmp(m, "adrp") == 0) {
		adrp = 1;
		want = (pc & ~(uint64_t)0xfff) + (uint64_t)imm;
	} else if (kind == A64K_JCC || kind == A64K_JMP || kind == A64K_CALL)
		want = pc + (uint64_t)imm;
	a64d_decode(w, pc, &d);
	if (d.pcref || d.adrp)
		got = d.ref;
	else if (d.kind == A64K_JCC || d.kind == A64K_JMP || d.kind == A64K_CALL)
		got = d.target;
	*kindp = pcref ? A64K_PCREF : adrp ? A64K_ADRP : kind;
	if (d.kind == kind && d.pcref == pcref && d.adrp == adrp &&
	    got == want && (want == 0 || hasimm))
		return 1;
	snprintf(why, whylen, "%08" PRIx32 " at %" PRIx64 " (llvm: %s): kind %d "
	    "pcref %d adrp %d %" PRIx64 ", a64dec: kind %d pcref %d adrp %d %"
	    PRIx64, w, pc, t, kind, pcref, adrp, want, d.kind, d.pcref, d.adrp,
	    got);
	return -1;
}
