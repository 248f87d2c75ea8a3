/* See COPYING file for copyright and license details. */
/*
 * cfglsda.c: a function's landing pads, from its LSDA in
 * .gcc_except_table (BinaryFunction::parseLSDA in LLVM 19's
 * bolt/lib/Core/Exceptions.cpp).
 */
#include <stdlib.h>
#include <string.h>

#include "cfgint.h"

/* ---- LSDA (.gcc_except_table): landing pads ---- */

/* a DW_EH_PE-encoded value at *p; base is the address of p[0] when the
 * encoding is PC-relative */
static int
rd_enc(const uint8_t **p, const uint8_t *end, uint8_t enc, uint64_t base,
    uint64_t *v)
{
	const uint8_t *q = *p;
	uint64_t u;
	int64_t s;
	size_t n;

	if (enc == 0xff) {
		*v = 0;
		return 0;
	}
	switch (enc & 0x0f) {
	case 0x00: case 0x04: case 0x0c:
		if (end - q < 8)
			return -1;
		u = ld64(q, 0);
		q += 8;
		break;
	case 0x02: case 0x0a:
		if (end - q < 2)
			return -1;
		u = ld16(q, 0);
		if (enc & 8)
			u = (uint64_t)(int64_t)(int16_t)u;
		q += 2;
		break;
	case 0x03: case 0x0b:
		if (end - q < 4)
			return -1;
		u = ld32(q, 0);
		if (enc & 8)
			u = (uint64_t)(int64_t)(int32_t)u;
		q += 4;
		break;
	case 0x01:
		if ((n = uleb128_decode(q, end, &u)) == 0)
			return -1;
		q += n;
		break;
	case 0x09:
		if ((n = sleb128_decode(q, end, &s)) == 0)
			return -1;
		u = (uint64_t)s;
		q += n;
		break;
	default:
		return -1;
	}
	if ((enc & 0x70) == 0x10)
		u += base;
	*p = q;
	*v = u;
	return 0;
}

void
cd_read_lsda(struct fbuild *b, uint64_t lsda)
{
	const uint8_t *p, *start0, *end, *cs, *csend;
	uint64_t avail, lpstart, v, cslen;
	uint8_t lpenc, ttenc, csenc;
	size_t n;

	if ((p = cd_sec_bytes(b->d, lsda, &avail)) == NULL || avail == 0)
		return;
	start0 = p;
	end = p + avail;
	lpenc = *p++;
	lpstart = b->f->addr;
	if (lpenc != 0xff) {
		if (rd_enc(&p, end, lpenc, lsda + (uint64_t)(p - start0),
		    &v) == -1)
			return;
		lpstart = v;
	}
	if (p >= end)
		return;
	ttenc = *p++;
	if (ttenc != 0xff) {
		if ((n = uleb128_decode(p, end, &v)) == 0)
			return;
		p += n;
	}
	if (p >= end)
		return;
	csenc = *p++;
	if ((n = uleb128_decode(p, end, &cslen)) == 0)
		return;
	p += n;
	if (cslen > (uint64_t)(end - p))
		return;
	cs = p;
	csend = p + cslen;
	while (cs < csend) {
		uint64_t start, len, lp, action;

		if (rd_enc(&cs, csend, csenc & 0x0f, 0, &start) == -1 ||
		    rd_enc(&cs, csend, csenc & 0x0f, 0, &len) == -1 ||
		    rd_enc(&cs, csend, csenc & 0x0f, 0, &lp) == -1)
			return;
		if ((n = uleb128_decode(cs, csend, &action)) == 0)
			return;
		cs += n;
		if (lp == 0)
			continue;
		lp += lpstart;
		if (lp >= b->f->addr && lp - b->f->addr < b->f->size)
			cd_push64(&b->lps, &b->nlps, &b->caplps, lp - b->f->addr);
	}
}
