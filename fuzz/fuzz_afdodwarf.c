/* See COPYING file for copyright and license details. */
/*
 * fuzz_afdodwarf: libFuzzer harness for afdowrite's readers of a binary
 * (tools/afdowrite: code.c, dwarf.c, lines.c, profile.c).  An input that
 * starts like an ELF file is a binary: its code map and DWARF are read,
 * then its first symbols are symbolized and a profile of a range and a
 * branch at each is built and written.  Any other input is a .debug_line
 * section: its first table is run and looked up.  Seed it with small
 * binaries built with -g and with their .debug_line, e.g.
 *	llvm-objcopy-19 --dump-section .debug_line=corpus/line a.out /dev/null
 *	build/fuzz/fuzz_afdodwarf -max_total_time=300 corpus
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "afdowrite.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static volatile uint64_t sink;

static void
lines(const uint8_t *p, size_t n)
{
	struct ltab t;
	char err[256];
	uint32_t line, disc;
	size_t i;

	if (ltab_read(&t, p, n, 0, 0, err, sizeof(err)) == -1)
		return;
	for (i = 0; i < t.nrows && i < 64; i++) {
		ltab_lookup(&t, t.rows[i].addr, &line, &disc);
		ltab_lookup(&t, t.rows[i].addr + 1, &line, &disc);
		sink += line + disc;
	}
	ltab_lookup(&t, 1, &line, &disc);
	ltab_free(&t);
}

static void
binary(const uint8_t *p, size_t n)
{
	struct code c;
	struct dw *d = NULL;
	struct counters ct;
	struct profile *prof;
	struct frame *fv = NULL;
	size_t cap = 0, i, k;
	char path[64], err[512];
	FILE *fp;
	int fd;

	if ((fd = memfd_create("fuzz_afdodwarf", 0)) == -1)
		return;
	if (write(fd, p, n) != (ssize_t)n) {
		close(fd);
		return;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(&ct, 0, sizeof(ct));
	if (code_load(&c, path, err, sizeof(err)) == 0 &&
	    dw_open(&d, &c, err, sizeof(err)) == 0) {
		for (i = 0; i < c.nsyms && i < 200; i++) {
			uint64_t a = c.syms[i].addr;

			k = dw_symbolize(d, a, &fv, &cap);
			sink += k ? fv[k - 1].off : 0;
			sink += dw_callee_at(d, a) + (uint64_t)dw_func_at(d, a);
			if (code_info(&c, a) != 0) {
				pair_add(&ct.ranges, a, code_next(&c, a + 1) ==
				    UINT64_MAX ? a : code_next(&c, a + 1), 3);
				pair_add(&ct.branches, EXT_ADDR, a, 2);
			}
		}
		sink += dw_symbolize(d, EXT_ADDR, &fv, &cap);
		prof = profile_build(&c, d, &ct);
		if ((fp = fopen("/dev/null", "w")) != NULL) {
			profile_write(prof, fp);
			fclose(fp);
		}
		profile_free(prof);
	}
	pair_free(&ct.ranges);
	pair_free(&ct.branches);
	free(fv);
	dw_close(d);
	code_free(&c);
	close(fd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *p, size_t n)
{
	if (n >= 4 && memcmp(p, "\177ELF", 4) == 0)
		binary(p, n);
	else
		lines(p, n);
	return 0;
}
