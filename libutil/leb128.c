/* See COPYING file for copyright and license details. */
/* leb128.c: LEB128 that never reads past the end or accepts overlong forms. */
#include <stdint.h>

#include "util.h"

size_t
uleb128_decode(const uint8_t *p, const uint8_t *end, uint64_t *out)
{
	uint64_t v = 0;
	unsigned shift = 0;
	size_t n = 0;
	uint8_t b;

	do {
		if (p + n >= end || n >= 10)
			return 0;
		b = p[n++];
		if (shift == 63 && (b & 0x7e) != 0)
			return 0;	/* does not fit in 64 bits */
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	*out = v;
	return n;
}

size_t
uleb128_encode(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		p[n++] |= v != 0 ? 0x80 : 0;
	} while (v != 0);
	return n;
}

size_t
sleb128_decode(const uint8_t *p, const uint8_t *end, int64_t *out)
{
	uint64_t v = 0;
	unsigned shift = 0;
	size_t n = 0;
	uint8_t b;

	do {
		if (p + n >= end || n >= 10)
			return 0;
		b = p[n++];
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	*out = (int64_t)v;
	return n;
}
