/* See COPYING file for copyright and license details. */
/*
 * commontest: exercises libutil and libbolt for tests/lib/10-libutil.bats.
 *   commontest unit             built-in checks of md5, leb128, parsing, formatting
 *   commontest elf FILE         build-id, PT_LOAD segments and function symbols
 *   commontest out PATH ok|fail write through out_open; fail exits before commit
 *   commontest lines FILE       echo lines with their numbers, errors on "bad"
 */
#include <ctype.h>
#include <err.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "elfobj.h"
#include "md5.h"
#include "strtab.h"

static int failures;

#define CHECK(c) do {							\
	if (!(c)) {							\
		fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); \
		failures++;						\
	}								\
} while (0)

/* hexscan against a byte-at-a-time reference: every byte value at every
 * position of every digit count, and random strings over a hex-heavy
 * alphabet */
static unsigned
hexref(const char *s, uint64_t *v)
{
	unsigned n;

	*v = 0;
	for (n = 0; n < 16 && isxdigit((unsigned char)s[n]); n++)
		*v = *v << 4 | (uint64_t)(isdigit((unsigned char)s[n]) ?
		    s[n] - '0' : (tolower((unsigned char)s[n]) - 'a' + 10));
	return n;
}

static void
hexscan_check(void)
{
	static const char alpha[] = "0123456789abcdefABCDEF/ gG@`\x80\xff";
	char s[40];
	unsigned len, pos, c, n1, n2, bad = 0;
	uint64_t v1, v2, rnd = 42;
	int i, k;

	for (len = 0; len <= 17; len++)
		for (pos = 0; pos <= len && pos < 17; pos++)
			for (c = 0; c < 256; c++) {
				memset(s, 0, sizeof(s));
				for (k = 0; k < (int)len; k++)
					s[k] = "0123456789abcdef"[(k * 7 + len) % 16];
				s[pos] = (char)c;
				n1 = hexscan(s, &v1);
				n2 = hexref(s, &v2);
				if (n1 != n2 || (n1 && v1 != v2))
					bad++;
			}
	for (i = 0; i < 200000; i++) {
		for (k = 0; k < 24; k++) {
			rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
			s[k] = alpha[(rnd >> 33) % (sizeof(alpha) - 1)];
		}
		n1 = hexscan(s, &v1);
		n2 = hexref(s, &v2);
		if (n1 != n2 || (n1 && v1 != v2))
			bad++;
	}
	CHECK(bad == 0);
	CHECK(hexscan("ffffffffffffffff/", &v1) == 16 && v1 == UINT64_MAX);
	CHECK(hexscan("401000/4010ab/P\0\0\0\0\0\0\0\0\0", &v1) == 6 &&
	    v1 == 0x401000);
}


/* strtab: numbers in order of first appearance across index growth,
 * lookups by length (no NUL needed), absent strings */
static void
strtab_check(void)
{
	struct strtab t;
	char buf[32];
	uint32_t i;

	memset(&t, 0, sizeof(t));
	CHECK(strtab_find(&t, "a", 1) == -1);
	for (i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "k%u", i);
		CHECK(strtab_intern(&t, buf, strlen(buf)) == i);
	}
	for (i = 0; i < 5000; i += 7) {
		snprintf(buf, sizeof(buf), "k%u", i);
		CHECK(strtab_intern(&t, buf, strlen(buf)) == i);
		CHECK(strtab_find(&t, buf, strlen(buf)) == (long)i);
	}
	CHECK(strtab_find(&t, "k12xyz", 3) == 12);
	CHECK(strtab_find(&t, "k5000", 5) == -1);
	CHECK(strtab_find(&t, "k", 1) == -1);
	CHECK(t.n == 5000 && strcmp(t.s[4999], "k4999") == 0);
	strtab_free(&t);
	CHECK(t.n == 0 && strtab_find(&t, "k1", 2) == -1);
}

static void
unit(void)
{
	uint8_t buf[16], d[16];
	char hex[33];
	uint64_t u;
	int64_t s;
	const char *end;
	struct md5 m;
	size_t n;
	static const uint8_t big[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0x01 };
	static const uint8_t over[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0x02 };
	static const uint8_t neg[] = { 0x7f };
	uint64_t vals[] = { 0, 1, 127, 128, 300, 1ULL << 32, UINT64_MAX };

	/* RFC 1321 test suite */
	md5_init(&m);
	md5_final(&m, d);
	hex_encode(hex, d, 16);
	CHECK(strcmp(hex, "d41d8cd98f00b204e9800998ecf8427e") == 0);
	md5_init(&m);
	md5_update(&m, "message ", 8);
	md5_update(&m, "digest", 6);
	md5_final(&m, d);
	hex_encode(hex, d, 16);
	CHECK(strcmp(hex, "f96b697d7cb7938d525a2f31aaf161d0") == 0);
	md5_init(&m);
	md5_update(&m, "1234567890123456789012345678901234567890"
	    "1234567890123456789012345678901234567890", 80);
	md5_final(&m, d);
	hex_encode(hex, d, 16);
	CHECK(strcmp(hex, "57edf4a22be3c955ac49da2e2107b67a") == 0);
	/* LLVM's MD5Hash("cube") as seen in a clang-19 .profraw */
	CHECK(md5_low64("cube", 4) == 0x23b1cf51724fa618ULL);

	/* the encoder (pawalk's packed entries): DWARF's example bytes,
	 * then round trips through the decoder */
	CHECK(uleb128_encode(buf, 624485) == 3 && buf[0] == 0xe5 &&
	    buf[1] == 0x8e && buf[2] == 0x26);
	CHECK(uleb128_encode(buf, 0) == 1 && buf[0] == 0);
	CHECK(uleb128_encode(buf, UINT64_MAX) == sizeof(big) &&
	    memcmp(buf, big, sizeof(big)) == 0);
	for (n = 0; n < NELEM(vals); n++) {
		size_t len = uleb128_encode(buf, vals[n]);

		CHECK(uleb128_decode(buf, buf + len, &u) == len && u == vals[n]);
		CHECK(uleb128_decode(buf, buf + len - 1, &u) == 0);
	}
	CHECK(uleb128_decode(big, big + sizeof(big), &u) == 10 && u == UINT64_MAX);
	CHECK(uleb128_decode(over, over + sizeof(over), &u) == 0);
	CHECK(sleb128_decode(neg, neg + 1, &s) == 1 && s == -1);

	CHECK(parse_u64("18446744073709551615", 10, UINT64_MAX, &u) == 0 &&
	    u == UINT64_MAX);
	CHECK(parse_u64("18446744073709551616", 10, UINT64_MAX, &u) == -1);
	CHECK(parse_u64("12", 10, 11, &u) == -1);
	CHECK(parse_u64("", 10, 11, &u) == -1);
	CHECK(parse_u64("1x", 10, 100, &u) == -1);
	CHECK(parse_hex64("0xFFff", &u) == 0 && u == 0xffff);
	CHECK(parse_hex64("0x", &u) == -1);
	CHECK(parse_hex64_field("401000 5", &end, &u) == 0 && u == 0x401000 &&
	    *end == ' ');
	CHECK(parse_hex64_field("11112222333344445", &end, &u) == -1);
	CHECK(parse_hex64_field("40g", &end, &u) == -1);
	CHECK(parse_dec64_field("42", &end, &u) == 0 && u == 42 && *end == '\0');
	CHECK(parse_dec64_field("99999999999999999999", &end, &u) == -1);

	n = fmt_hex64(hex, 0);
	CHECK(n == 1 && hex[0] == '0');
	n = fmt_hex64(hex, UINT64_MAX);
	CHECK(n == 16 && memcmp(hex, "ffffffffffffffff", 16) == 0);
	n = fmt_dec64(hex, UINT64_MAX);
	CHECK(n == 20 && memcmp(hex, "18446744073709551615", 20) == 0);
	hexscan_check();
	strtab_check();
	CHECK(ld32("\x01\x02\x03\x04", 1) == 0x01020304);
	CHECK(ld16("\x01\x02", 0) == 0x0201);
	if (failures)
		errx(1, "%d failures", failures);
	printf("ok\n");
}

static void
elf(const char *path)
{
	struct elfobj eo;
	char errbuf[256], hex[129];
	size_t i;

	if (elfobj_open(&eo, path, errbuf, sizeof(errbuf)) == -1 ||
	    elfobj_load_syms(&eo, errbuf, sizeof(errbuf)) == -1)
		errx(1, "%s", errbuf);
	hex_encode(hex, eo.buildid, eo.buildid_len);
	printf("type %u buildid %s base %" PRIx64 "\n", eo.type,
	    eo.buildid_len ? hex : "-", elfobj_base(&eo));
	for (i = 0; i < eo.nsegs; i++)
		printf("load %" PRIx64 " %" PRIx64 " %" PRIx64 " %x\n",
		    eo.segs[i].vaddr, eo.segs[i].memsz, eo.segs[i].offset,
		    eo.segs[i].flags);
	for (i = 0; i < eo.nsyms; i++)
		printf("sym %016" PRIx64 " %s\n", eo.syms[i].addr,
		    eo.syms[i].name);
	elfobj_close(&eo);
}

int
main(int argc, char *argv[])
{
	prog_init(argc, argv);
	if (argc == 2 && strcmp(argv[1], "unit") == 0)
		unit();
	else if (argc == 3 && strcmp(argv[1], "elf") == 0)
		elf(argv[2]);
	else if (argc == 4 && strcmp(argv[1], "out") == 0) {
		struct output o;

		out_open(&o, argv[2]);
		fprintf(o.fp, "partial\n");
		if (strcmp(argv[3], "fail") == 0)
			errx(1, "failing on purpose");
		out_commit(&o);
	} else if (argc == 3 && strcmp(argv[1], "lines") == 0) {
		struct lineio lr;

		if (lr_open(&lr, argv[2]) == -1)
			err(1, "%s", argv[2]);
		while (lr_next(&lr)) {
			if (strcmp(lr.buf, "bad") == 0)
				lr_errx(&lr, "bad line '%s'", lr.buf);
			printf("%llu %s\n", (unsigned long long)lr.lineno, lr.buf);
		}
		lr_close(&lr);
	} else {
		fprintf(stderr, "usage: commontest unit | elf FILE | out PATH ok|fail | lines FILE\n");
		return 2;
	}
	xclose_stdout();
	return 0;
}
