/* See COPYING file for copyright and license details. */
/*
 * fuzz_bbaddrmap: libFuzzer harness for the SHT_LLVM_BB_ADDR_MAP decoder
 * (tools/bbmap/bbaddrmap.c).  The first input byte picks the section type,
 * address size, byte order, whether the addresses come from relocations
 * (one at every offset that is a multiple of 3) and whether the section
 * is compressed (0x10: an Elf32/64_Chdr and a zlib or zstd stream, which
 * bam_decompress inflates first); the rest is the section's bytes.  Seed
 * it with real sections, e.g.
 *	objcopy -O binary --only-section=.llvm_bb_addr_map a.out s &&
 *	(printf '\001'; cat s) > corpus/s
 * and compressed ones (llvm-objcopy --compress-sections ...=zlib, then
 * the same with '\021').
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "bbaddrmap.h"
#include "bbcfg.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bam_section s;
	struct bam_map m;
	struct bam_err e;
	struct bam_reloc rl[64];
	size_t i;
	uint8_t mode, *ubuf = NULL;

	progname = "fuzz_bbaddrmap";
	if (size < 1)
		return 0;
	mode = data[0];
	memset(&s, 0, sizeof(s));
	memset(&m, 0, sizeof(m));
	s.data = data + 1;
	s.size = size - 1;
	s.type = mode & 1 ? BAM_SHT : BAM_SHT_V0;
	if (mode & 0x80)	/* mostly the type clang emits */
		s.type = BAM_SHT;
	s.addrsize = mode & 2 ? 4 : 8;
	s.swap = (mode & 4) != 0;
	s.relocatable = (mode & 8) != 0;
	for (i = 0; i < NELEM(rl); i++) {
		rl[i].off = 3 * i;
		rl[i].addend = 0x1000 * i;
	}
	s.relocs = rl;
	s.nrelocs = NELEM(rl);
	s.fileoff = 0x40;
	if (mode & 0x10) {
		size_t usize;

		if (bam_decompress(s.data, s.size, s.addrsize == 8, s.swap,
		    s.fileoff, 7, &ubuf, &usize, &e) == -1) {
			/* what and where: inside the section */
			if (e.msg[0] == '\0' || e.off < s.fileoff ||
			    e.off > s.fileoff + s.size || ubuf != NULL)
				abort();
			return 0;
		}
		if (usize > s.size * BAM_MAXRATIO)
			abort();
		s.data = ubuf;
		s.size = usize;
		s.compressed = 1;
	}
	if (bam_decode(&m, &s, &e) == -1) {
		if (e.msg[0] == '\0' || e.off < s.fileoff ||
		    (!s.compressed && e.off > s.fileoff + s.size) ||
		    (s.compressed && (e.off != s.fileoff || e.secoff > s.size)))
			abort();	/* every error says what and where */
	}
	/* every decoded item lies inside the arrays */
	for (i = 0; i < m.nfuncs; i++) {
		const struct bam_func *f = &m.funcs[i];
		size_t j, n = 0;

		if (f->range + f->nrange > m.nranges || f->pgo + f->npgo > m.npgo)
			abort();
		for (j = 0; j < f->nrange; j++) {
			const struct bam_range *r = &m.ranges[f->range + j];

			if (r->bb + r->nbb > m.nbbs)
				abort();
			n += r->nbb;
		}
		if (n != f->nbb)
			abort();
		{
			struct cfg g;
			uint32_t bb[64], *bbp = f->nbb <= 64 ? bb :
			    xcalloc(f->nbb, sizeof(*bbp));

			bbcfg_build(&m, i, &g, bbp, NULL);
			if (g.nblocks != f->nbb)
				abort();
			for (j = 0; j < g.nblocks; j++) {
				const struct cfg_block *c = &g.blocks[j];
				uint32_t k;

				/* one range: offsets are 32-bit, nothing
				 * wraps, and the order is the address order */
				if (bbp[j] >= m.nbbs || (f->nrange == 1 &&
				    (c->end < c->start || c->end > g.size ||
				    (j && c->start < g.blocks[j - 1].start))))
					abort();
				for (k = 0; k < c->nsucc; k++)
					if (c->succ + k >= g.nsuccs ||
					    g.succs[c->succ + k] >= g.nblocks)
						abort();
			}
			bbcfg_free(&g);
			if (bbp != bb)
				free(bbp);
		}
	}
	bam_free(&m);
	free(ubuf);
	return 0;
}
