/* See COPYING file for copyright and license details. */
/*
 * llvmrel.h: the LLVM release a pipeline is made for.
 *
 * One choice holds for a whole pipeline (ARCHITECTURE.md, "Releases"):
 * --llvm=RELEASE on every tool whose output depends on it, the
 * environment's PROFPIPE_LLVM as its default, 19 when neither is given.
 * The releases are those Debian 12 ships; what differs between them
 * lives in a small table next to the rule it changes, indexed by
 * llvmrel_index(), never in a second copy of the rule.
 */
#ifndef PROFPIPE_LLVMREL_H
#define PROFPIPE_LLVMREL_H

#include <stddef.h>

enum llvm_rel {
	LLVM_19 = 19,
	LLVM_22 = 22
};
#define LLVMREL_DEFAULT	LLVM_19
#define LLVMREL_N	2	/* entries of a per-release table */
#define LLVMREL_ENV	"PROFPIPE_LLVM"
#define LLVMREL_NAMES	"19 or 22"

/*
 * The release arg names ("19", "22"), or when arg is NULL the one
 * PROFPIPE_LLVM names, or LLVMREL_DEFAULT when it is unset or empty.
 * 0 with *rel set; -1 with a message in err (a usage error for the
 * tool).
 */
int	 llvmrel_get(const char *arg, enum llvm_rel *rel, char *err,
	    size_t errlen);
/* the --llvm entry of a tool's prog_opt table (util.h) */
#define LLVMREL_OPT \
	{ "llvm", required_argument, 'L', "RELEASE", \
	    "the LLVM release to match: " LLVMREL_NAMES "\n" \
	    "(default: $" LLVMREL_ENV ", else 19)" }

/* rel's row in a per-release table of LLVMREL_N entries: 19 is 0 */
int	 llvmrel_index(enum llvm_rel rel);
/* "19", "22" */
const char *llvmrel_name(enum llvm_rel rel);

#endif
