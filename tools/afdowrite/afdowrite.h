/* See COPYING file for copyright and license details. */
/*
 * afdowrite.h: the AutoFDO (sample PGO) text profile llvm-profgen 19
 * writes, from a pre-aggregated profile.  The parts follow llvm-profgen's
 * own (llvm/tools/llvm-profgen at LLVM 19):
 *
 *   code.c     ProfiledBinary's code map: every symbol of an executable
 *              section (but .plt) disassembled linearly up to the next
 *              symbol; instruction starts, sizes and kinds
 *   dwarf.c    ProfiledBinary's functions from DWARF (BinaryFunction,
 *              FuncRange, IsFuncEntry) and its symbolizer
 *              (DWARFContext::getInliningInfoForAddress), through libdw
 *   counters.c the range and branch counters PerfReader builds from
 *              branch stacks, from the pre-aggregated entries instead
 *   profile.c  ProfileGenerator (disjoint ranges, body samples, call
 *              targets, head samples) and SampleProfileWriterText
 */
#ifndef AFDOWRITE_H
#define AFDOWRITE_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"
#include "ktab.h"
#include "elfobj.h"
#include "strtab.h"

/* llvm-profgen's ExternalAddr: an address outside the code map */
#define EXT_ADDR	1

/* ---- code.c ---- */

/* per byte of an executable section: 0, or the instruction that starts
 * there: its size and what ProfiledBinary records of it */
#define CI_SIZE		0x0fu	/* 1 to 15 */
#define CI_CALL		0x10u	/* CallAddressSet */
#define CI_RET		0x20u	/* RetAddressSet */
#define CI_BRANCH	0x40u	/* BranchAddressSet (not calls, returns) */
#define CI_UNCOND	0x80u	/* UncondBranchAddrSet: calls, returns,
				 * direct jumps */

struct textsec {
	uint64_t	 addr, size;
	const uint8_t	*bytes;		/* size bytes of the file */
	uint8_t		*info;		/* CI_* per byte */
	uint64_t	*uncond;	/* a bit per byte: CI_UNCOND starts */
	const char	*name;
	size_t		 symlo, symhi;	/* its symbols: code.syms[lo, hi) */
	size_t		 shndx;		/* its ELF section index */
};

/* a symbol of an executable section (not .plt), as disassemble() sees
 * them: every .symtab symbol defined in such a section, named as
 * ELFObjectFile names them (a section symbol by its section) */
struct tsym {
	uint64_t	 addr;
	const char	*name;
	uint32_t	 sec;		/* index into code.secs */
};

struct code {
	struct elfobj	 eo;
	struct textsec	*secs;		/* by address */
	size_t		 nsecs;
	struct tsym	*syms;		/* by section, address, name */
	size_t		 nsyms;
	uint64_t	 prefbase;	/* getPreferredBaseAddress(): the first
					 * executable PT_LOAD, page aligned */
	uint64_t	 pabase;	/* added to a pre-aggregated address:
					 * the first PT_LOAD of a PIE, as
					 * BOLT reads them */
	char		 buildid[2 * sizeof(((struct elfobj *)0)->buildid) + 1];
	uint64_t	 ninsns, ninvalid;
	int		 probes;	/* .pseudo_probe_desc and .pseudo_probe */
	int		 fsdisc;	/* __llvm_fs_discriminator__ */
};

int	 code_load(struct code *, const char *path, char *err, size_t errlen);
void	 code_free(struct code *);
/* the CI_* of the instruction starting at a, 0 if none does */
unsigned code_info(const struct code *, uint64_t a);
/* the first instruction start at or after a, or UINT64_MAX */
uint64_t code_next(const struct code *, uint64_t a);
/* the name of a text symbol at exactly a, or NULL */
const char *code_symbol_at(const struct code *, uint64_t a);
/* ProfiledBinary::rangeCrossUncondBranch: a call, return or direct jump
 * starts in [start, end) (start < end) */
int	 code_crosses_uncond(const struct code *, uint64_t start, uint64_t end);

/* the decoder of one machine (the architecture seam): decode gives the
 * next instruction of p[0, n) at address a as LLVM's MC disassembler and
 * MCInstrDesc read it, its size (0: none decodes, LLVM steps a byte) and
 * CI_* kinds.  x86-64: decode_x86.c */
void	*x86dis_open(void);
unsigned x86dis_decode(void *, const uint8_t *p, size_t n, uint64_t a);
void	 x86dis_close(void *);

/* ---- lines.c ---- */

/* a line table as LLVM 19 keeps it for lookups */
struct lrow {
	uint64_t	addr;
	uint32_t	line, disc;
	uint16_t	file;
	uint8_t		fileok;		/* the file exists and has a name */
};
struct lseq {
	uint64_t	lo, hi;		/* [lo, hi) */
	uint64_t	first, last;	/* its rows [first, last) */
};
struct ltab {
	struct lrow	*rows;
	size_t		 nrows;
	struct lseq	*seqs;		/* sorted as llvm::sort leaves them */
	size_t		 nseqs;
	int		 v5;
};
/* the table at offset off of .debug_line (sec, secsize bytes); -1 with
 * a message in err */
int	 ltab_read(struct ltab *, const uint8_t *sec, uint64_t secsize,
	    uint64_t off, int swap, char *err, size_t errlen);
/* the line and discriminator of address a (0 and 0 if none) */
void	 ltab_lookup(const struct ltab *, uint64_t a, uint32_t *line,
	    uint32_t *disc);
void	 ltab_free(struct ltab *);

/* ---- dwarf.c ---- */

#define NONAME		UINT32_MAX

/* one frame of an instruction's inline stack, outermost first: the
 * function's name (in dw.names), the line offset from its DW_AT_decl_line
 * (16 bits, as llvm-profgen keeps it) and the raw discriminator */
struct frame {
	uint32_t	name;
	uint32_t	off;
	uint32_t	disc;
};

struct dw;
/* read the DWARF of c's binary: -1 with a message in err */
int	 dw_open(struct dw **, struct code *c, char *err, size_t errlen);
void	 dw_close(struct dw *);
struct strtab *dw_names(struct dw *);
/* the frames of the instruction at a (ProfiledBinary::symbolize), into
 * *fv (grown as needed); returns how many, 0 if none */
size_t	 dw_symbolize(struct dw *, uint64_t a, struct frame **fv,
	    size_t *cap);
/* findFuncRange: the function whose DWARF range holds a: its index, or
 * -1 */
long	 dw_func_at(struct dw *, uint64_t a);
/* all the ranges [lo, hi) of function f (BinaryFunction::Ranges) */
size_t	 dw_func_ranges(struct dw *, long f, const uint64_t **lohi);
/* getCalleeNameForAddress: the canonical name of the function a range of
 * which starts at a and is its entry, or NONAME */
uint32_t dw_callee_at(struct dw *, uint64_t a);
/* the warnings worth printing about what clang needs */
uint64_t dw_nolinkage(struct dw *);
uint64_t dw_nodecl(struct dw *);
uint64_t dw_nfuncs(struct dw *);
/* a line table met by dw_symbolize was damaged: the message is in the
 * err given to dw_open */
int	 dw_failed(struct dw *);

/* ---- counters.c ---- */

/* a table of (a, b) -> count (libutil's ktab), its records in the
 * order their keys first came */
struct pairent {
	uint64_t	a, b, count;
};
struct pairtab {
	struct ktab	 kt;		/* all zero: empty */
};
/* the count of (a, b): created as 0 when create is set, else NULL when
 * absent */
uint64_t *pair_slot(struct pairtab *, uint64_t a, uint64_t b, int create);
void	 pair_add(struct pairtab *, uint64_t a, uint64_t b, uint64_t count);
static inline size_t
pair_n(const struct pairtab *t)
{
	return t->kt.n;
}
static inline const struct pairent *
pair_at(const struct pairtab *t, size_t i)
{
	return ktab_at(&t->kt, i);
}
void	 pair_free(struct pairtab *);

struct counters {
	struct pairtab	 ranges;	/* [start, end] -> count */
	struct pairtab	 branches;	/* (source, target) -> count */
	int		 iponly;	/* --leading-ip-only */
};

/* ---- profile.c ---- */

struct profile;
struct profile *profile_build(struct code *, struct dw *,
	    const struct counters *);
void	 profile_write(struct profile *, FILE *);
void	 profile_free(struct profile *);
uint64_t profile_nfuncs(const struct profile *);

#endif
