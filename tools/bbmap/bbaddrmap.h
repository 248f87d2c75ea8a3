/* See COPYING file for copyright and license details. */
/*
 * bbaddrmap.h: the compiler's basic-block address map (.llvm_bb_addr_map,
 * SHT_LLVM_BB_ADDR_MAP and the legacy SHT_LLVM_BB_ADDR_MAP_V0), decoded
 * with LLVM's rules (Object/ELF.cpp decodeBBAddrMapImpl in LLVM 19,
 * Object/BBAddrMap.cpp decodeBBAddrMapPayload on main): versions 0 to 5,
 * every feature bit up to PostLinkCfg, addresses of relocatable objects
 * through the RELA section that applies to the map.
 *
 * bam_decode() works on a byte buffer so that a fuzz harness can call it;
 * bam_load() finds every map section of an ELF file and decodes them all,
 * a compressed one (SHF_COMPRESSED, zlib or zstd) once bam_decompress()
 * has inflated it, as LLVM 20's ELFFile::decodeBBAddrMap does.
 * Every count is checked against the bytes left before anything is
 * allocated for it, so memory stays proportional to the section size.
 */
#ifndef PROFPIPE_BBADDRMAP_H
#define PROFPIPE_BBADDRMAP_H

#include <stddef.h>
#include <stdint.h>

#define BAM_SHT_V0	0x6fff4c08u	/* SHT_LLVM_BB_ADDR_MAP_V0 */
#define BAM_SHT		0x6fff4c0au	/* SHT_LLVM_BB_ADDR_MAP */
#define BAM_MAXVERSION	5

/* feature bits (BBAddrMap::Features) */
#define BAM_F_ENTRYCOUNT	0x01u	/* FuncEntryCount */
#define BAM_F_BBFREQ		0x02u	/* BBFreq */
#define BAM_F_BRPROB		0x04u	/* BrProb */
#define BAM_F_MULTIRANGE	0x08u	/* MultiBBRange */
#define BAM_F_OMITBB		0x10u	/* OmitBBEntries */
#define BAM_F_CALLSITES		0x20u	/* CallsiteEndOffsets (v3+) */
#define BAM_F_HASH		0x40u	/* BBHash (v4+) */
#define BAM_F_POSTLINK		0x80u	/* PostLinkCfg (v5+) */
#define BAM_F_ALL		0xffu

/* block metadata bits (BBEntry::Metadata) */
#define BAM_MD_RET		0x01u	/* HasReturn (return or tail call) */
#define BAM_MD_TAIL		0x02u	/* HasTailCall */
#define BAM_MD_EHPAD		0x04u	/* IsEHPad */
#define BAM_MD_FALLS		0x08u	/* CanFallThrough */
#define BAM_MD_INDIRECT		0x10u	/* HasIndirectBranch */
#define BAM_MD_ALL		0x1fu

struct bam_bb {
	uint32_t	id;
	uint32_t	off;		/* from the range's base address */
	uint32_t	size;
	uint32_t	md;		/* BAM_MD_* */
	uint32_t	cs, ncs;	/* callsite end offsets: map.cs[cs ...] */
	uint64_t	hash;
};

struct bam_range {
	uint64_t	base;
	uint32_t	bb, nbb;	/* decoded blocks: map.bbs[bb ...] */
	uint32_t	nbb_declared;	/* the count field (blocks omitted or not) */
};

struct bam_succ {
	uint32_t	id;
	uint32_t	prob;		/* numerator over 2^31 */
	uint32_t	postlink;	/* PostLinkCfg edge count */
};

struct bam_pgobb {		/* per decoded block, in layout order */
	uint64_t	freq;
	uint32_t	postlink;	/* PostLinkCfg block count */
	uint32_t	succ, nsucc;	/* map.succs[succ ...] */
};

struct bam_func {
	uint64_t	fileoff;	/* of the entry's first byte */
	uint32_t	sec;		/* section header index of the map */
	uint32_t	text;		/* its sh_link: the text section */
	uint8_t		version;
	uint16_t	feature;
	uint32_t	range, nrange;	/* map.ranges[range ...] */
	uint32_t	nbb;		/* decoded blocks over all ranges */
	uint64_t	entrycount;	/* if BAM_F_ENTRYCOUNT */
	uint32_t	pgo, npgo;	/* map.pgo[pgo ...], npgo == nbb or 0 */
};

struct bam_map {
	struct bam_func	 *funcs;
	size_t		  nfuncs, capfuncs;
	struct bam_range *ranges;
	size_t		  nranges, capranges;
	struct bam_bb	 *bbs;
	size_t		  nbbs, capbbs;
	uint32_t	 *cs;
	size_t		  ncs, capcs;
	struct bam_pgobb *pgo;
	size_t		  npgo, cappgo;
	struct bam_succ	 *succs;
	size_t		  nsuccs, capsuccs;
};

/* a relocation of a relocatable object's map: the address field at
 * offset off (in the map section) is addend (LLVM takes r_addend as the
 * address, ignoring the symbol: addresses are section-relative) */
struct bam_reloc {
	uint64_t	off;
	uint64_t	addend;
};

struct bam_section {
	const uint8_t	*data;
	size_t		 size;
	uint32_t	 type;		/* BAM_SHT or BAM_SHT_V0 */
	int		 addrsize;	/* 4 or 8 */
	int		 swap;		/* file byte order is not the host's */
	int		 relocatable;	/* ET_REL: addresses come from relocs */
	const struct bam_reloc *relocs;	/* sorted by off */
	size_t		 nrelocs;
	uint64_t	 fileoff;	/* of data[0], for messages; of the
					 * section when compressed */
	uint32_t	 sec, text;	/* section indices, recorded per function */
	int		 compressed;	/* data is the section decompressed:
					 * offsets are in it, not in the file */
};

/* error: the byte offset (file offset of the section + position) and a
 * message naming what was wrong */
struct bam_err {
	uint64_t	off;		/* in the file */
	uint64_t	secoff;		/* in the section, if insec */
	uint32_t	sec;		/* section header index, 0 if none */
	int		insec;		/* the fault is inside the section's bytes */
	int		compressed;	/* ... its decompressed bytes: off is the
					 * section's, secoff in those bytes */
	char		msg[160];
};

/* decode one section, appending to map; 0, or -1 with err filled (the
 * functions of the section decoded so far stay in map) */
int	 bam_decode(struct bam_map *, const struct bam_section *, struct bam_err *);
void	 bam_free(struct bam_map *);

/* names of the features set in f ("FuncEntryCount,BBFreq"), "-" if none */
const char *bam_feature_names(uint16_t f, char *buf, size_t len);

/*
 * A compressed section's bytes (Elf32_Chdr or Elf64_Chdr in the file's
 * byte order, then the zlib or zstd stream) decompressed into *out
 * (malloc'd, *outsize bytes: the header's ch_size, which must be what
 * the stream holds).  A size no zlib or zstd stream of that length can
 * decompress to is refused before anything is allocated.  fileoff and
 * sec (the section's) are for err.  0, or -1 with err filled.
 */
#define BAM_CH_ZLIB	1		/* ELFCOMPRESS_ZLIB */
#define BAM_CH_ZSTD	2		/* ELFCOMPRESS_ZSTD (not in every
					 * <elf.h>) */
#define BAM_MAXRATIO	1032		/* deflate's largest expansion (zstd's
					 * can be larger, a real map's is a
					 * few times) */
int	 bam_decompress(const uint8_t *data, size_t size, int is64, int swap,
	    uint64_t fileoff, uint32_t sec, uint8_t **out, size_t *outsize,
	    struct bam_err *);

struct elfobj;
/*
 * Every map section of eo (either type), in section header order; for a
 * relocatable object through the RELA section whose sh_info is the map.
 * *nsec is the number of map sections found.  With onerr NULL, the
 * first section that fails to decode stops it: -1 with err filled.
 * Otherwise a section that fails is reported to onerr (err filled) and
 * left out of map whole, as llvm-readobj leaves it out, and the next
 * sections are decoded: -1 at the end if any failed.  A fault of the
 * file itself (its section headers, a relocation section applying to no
 * section) is -1 with err filled either way, map empty.
 */
typedef void bam_errfn(void *arg, const struct bam_err *);
int	 bam_load(struct bam_map *, struct elfobj *, size_t *nsec,
	    struct bam_err *, bam_errfn *onerr, void *arg);

#endif
