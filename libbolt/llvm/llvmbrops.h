/* See COPYING file for copyright and license details. */
/*
 * llvmbrops.h: what a release's shared object (bridge*.cc, built into
 * profpipe-llvmN.so) offers the loader (llvmbr.c): one exported
 * function, profpipe_llvm_bridge, giving a table of the operations of
 * llvmbr.h on an object of its own.  The table's abi changes whenever
 * this file does, so that a bridge of another build is refused rather
 * than called wrongly.
 */
#ifndef PROFPIPE_LLVMBROPS_H
#define PROFPIPE_LLVMBROPS_H

#include "llvmbr.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LLVMBR_ABI	1
#define LLVMBR_ENTRY	"profpipe_llvm_bridge"

struct llvmbr_ops {
	unsigned	 abi;		/* LLVMBR_ABI */
	unsigned	 major;		/* LLVM_VERSION_MAJOR built against */
	const char	*version;	/* "LLVM 19.1.7" */
	void	*(*open)(unsigned machine, char *err, size_t errlen);
	void	 (*close)(void *);
	size_t	 (*decode)(void *, const uint8_t *, size_t, uint64_t);
	int	 (*text)(void *, const uint8_t *, size_t, uint64_t, char *,
		    size_t);
	void	 (*block_begin)(void *);
	size_t	 (*insn)(void *, const uint8_t *, size_t, uint64_t, unsigned,
		    llvmbr_resolve, void *);
	void	 (*block_end)(void *, int, struct llvmbr_block *);
	uint64_t (*func_end)(void *, int);
	uint64_t (*hash16)(uint64_t, uint64_t);
	uint64_t (*hash_value)(uint64_t);
};

typedef const struct llvmbr_ops *(*llvmbr_entry)(void);

#ifdef __cplusplus
}
#endif

#endif
