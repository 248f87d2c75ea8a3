/* See COPYING file for copyright and license details. */
/* hexscan.h: the hex number parser of the hot loops, inline (included by
 * common.h). */
#ifndef PROFPIPE_HEXSCAN_H
#define PROFPIPE_HEXSCAN_H

#include <stdint.h>
#include <string.h>

/*
 * hexscan: eight bytes at a time.  For each byte of a little-endian word,
 * flag (bit 7) whether it is a hex digit, with the byte-range test of the
 * "bit twiddling hacks" (exact per byte for bytes below 0x80; bytes with
 * bit 7 set are never digits), then turn digits into nibbles and fold the
 * nibbles pairwise into a number.
 */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HEXSCAN_SWAR	1
#define HEXSCAN_ONES	0x0101010101010101ULL
/* the bytes of x with m < byte < n, for n <= 128 */
#define HEXSCAN_BETWEEN(x, m, n) \
	((HEXSCAN_ONES * (127 + (n)) - ((x) & HEXSCAN_ONES * 127)) & ~(x) & \
	    (((x) & HEXSCAN_ONES * 127) + HEXSCAN_ONES * (127 - (m))) & \
	    HEXSCAN_ONES * 128)

static inline unsigned
hexscan8(uint64_t w, uint64_t *v)
{
	uint64_t lc = w | HEXSCAN_ONES * 0x20;
	uint64_t ok = HEXSCAN_BETWEEN(w, '0' - 1, '9' + 1) |
	    HEXSCAN_BETWEEN(lc, 'a' - 1, 'f' + 1);
	uint64_t bad = ~ok & HEXSCAN_ONES * 128;
	unsigned n = bad ? (unsigned)__builtin_ctzll(bad) / 8 : 8;
	uint64_t x;

	if (n == 0)
		return 0;
	/* nibbles: '0'-'9' have bit 6 clear; letters get 9 more */
	x = (w & HEXSCAN_ONES * 0x0f) + ((w >> 6) & HEXSCAN_ONES) * 9;
	/* keep the n digits, moved up to the word's top (last) bytes */
	x <<= 8 * (8 - n);
	/* fold: byte pairs, then 16-bit pairs, then 32-bit halves; the first
	 * (lower) byte is the more significant digit */
	x = ((x & 0x000f000f000f000fULL) << 4) |
	    ((x >> 8) & 0x000f000f000f000fULL);
	x = ((x & 0x000000ff000000ffULL) << 8) |
	    ((x >> 16) & 0x000000ff000000ffULL);
	x = ((x & 0xffffULL) << 16) | ((x >> 32) & 0xffffULL);
	*v = x;
	return n;
}
#endif

static inline unsigned
hexscan(const char *s, uint64_t *out)
{
#ifdef HEXSCAN_SWAR
	uint64_t w, v = 0, v2 = 0;
	unsigned n, n2;

	memcpy(&w, s, 8);
	if ((n = hexscan8(w, &v)) < 8) {
		*out = v;
		return n;
	}
	memcpy(&w, s + 8, 8);
	n2 = hexscan8(w, &v2);
	*out = n2 ? v << (4 * n2) | v2 : v;
	return 8 + n2;
#else
	uint64_t v = 0;
	unsigned n, c, d;

	for (n = 0; n < 16; n++) {
		c = (unsigned char)s[n];
		if ((d = c - '0') >= 10 && (d = (c | 0x20) - 'a' + 10) - 10 >= 6)
			break;
		v = v << 4 | d;
	}
	*out = v;
	return n;
#endif
}

#endif
