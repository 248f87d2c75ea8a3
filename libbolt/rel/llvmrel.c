/* See COPYING file for copyright and license details. */
/* llvmrel.c: the LLVM release chosen by --llvm or PROFPIPE_LLVM. */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "llvmrel.h"

static const struct {
	const char	*name;
	enum llvm_rel	 rel;
} rels[LLVMREL_N] = {
	{ "19", LLVM_19 },
	{ "22", LLVM_22 },
};

int
llvmrel_get(const char *arg, enum llvm_rel *rel, char *err, size_t errlen)
{
	const char *from = "--llvm";
	size_t i;

	if (arg == NULL) {
		arg = getenv(LLVMREL_ENV);
		if (arg == NULL || *arg == '\0') {
			*rel = LLVMREL_DEFAULT;
			return 0;
		}
		from = LLVMREL_ENV;
	}
	for (i = 0; i < LLVMREL_N; i++)
		if (strcmp(arg, rels[i].name) == 0) {
			*rel = rels[i].rel;
			return 0;
		}
	return failf(err, errlen, "%s: unsupported LLVM release '%s' (%s)",
	    from, arg, LLVMREL_NAMES);
}

int
llvmrel_index(enum llvm_rel rel)
{
	return rel == LLVM_22;
}

const char *
llvmrel_name(enum llvm_rel rel)
{
	return rels[llvmrel_index(rel)].name;
}
