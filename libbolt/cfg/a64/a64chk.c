/* See COPYING file for copyright and license details. */
/*
 * a64chk.c: a64dec.c against the release's disassembler's text of a
 * word (a64chk.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "a64dec.h"
#include "a64chk.h"

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
a64chk(struct llvmbr *br, uint32_t w, uint64_t pc, int *kindp, char *why,
    size_t whylen)
{
	char buf[192], m[32];
	const char *t, *p;
	struct a64d d;
	int64_t imm = 0;
	int kind, pcref = 0, adrp = 0, hasimm;
	int valid = a64d_valid(w);
	uint64_t want = 0, got = 0;
	uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16),
	    (uint8_t)(w >> 24) };
	size_t k;

	*kindp = A64K_OTHER;
	if ((t = llvmbr_text(br, b, 4, pc, buf, sizeof(buf))) == NULL) {
		if (valid != 1)
			return 0;
		snprintf(why, whylen, "%08" PRIx32 ": a64dec says it decodes, "
		    "%s does not", w, llvmbr_version(br));
		return -1;
	}
	if (valid == 0) {
		snprintf(why, whylen, "%08" PRIx32 " (%s: %s): a64dec says it "
		    "does not decode", w, llvmbr_version(br), t);
		return -1;
	}
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
