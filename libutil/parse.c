/* See COPYING file for copyright and license details. */
/* parse.c: number parsing with bounds and without locale or errno games. */
#include <stdint.h>
#include <string.h>

#include "util.h"

static int
digit(int c, int base)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return v < base ? v : -1;
}

int
parse_u64(const char *s, int base, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	int d;

	if (s == NULL || *s == '\0')
		return -1;
	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (*s == '\0')
		return -1;
	for (; *s; s++) {
		if ((d = digit((unsigned char)*s, base)) < 0)
			return -1;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return -1;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

int
parse_hex64(const char *s, uint64_t *out)
{
	return parse_u64(s, 16, UINT64_MAX, out);
}

int
parse_hex64_field(const char *s, const char **endp, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = s;
	int d;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	s = p;
	for (; (d = digit((unsigned char)*p, 16)) >= 0; p++) {
		if (p - s >= 16)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	if (p == s || (*p != ' ' && *p != '\0'))
		return -1;
	*out = v;
	*endp = p;
	return 0;
}

int
parse_dec64_field(const char *s, const char **endp, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = s;
	unsigned d;

	/* only from the 20th digit on can the value overflow */
	for (; (d = (unsigned)(*p - '0')) < 10; p++) {
		if (p - s >= 19 && v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (p == s || (*p != ' ' && *p != '\0'))
		return -1;
	*out = v;
	*endp = p;
	return 0;
}


char *
vis_str(char *dst, size_t dstlen, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, o = 0;

	if (dstlen < 8) {
		if (dstlen > 0)
			dst[0] = '\0';
		return dst;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (o + 8 > dstlen) {		/* room for "\xNN..." and NUL */
			memcpy(dst + o, "...", 3);
			o += 3;
			break;
		}
		if (c >= 0x20 && c < 0x7f && c != '\\')
			dst[o++] = (char)c;
		else {
			dst[o++] = '\\';
			dst[o++] = 'x';
			dst[o++] = hex[c >> 4];
			dst[o++] = hex[c & 15];
		}
	}
	dst[o] = '\0';
	return dst;
}
