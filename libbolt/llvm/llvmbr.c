/* See COPYING file for copyright and license details. */
/*
 * llvmbr.c: the loader of a release's bridge (llvmbr.h).  The shared
 * object profpipe-llvmN.so is looked for beside the running program as
 * make install puts it (BINDIR/../lib/profpipe/) and as the build tree
 * has it (build/bin/../lib/), then in the directory the build was
 * configured for (PROFPIPE_LIBDIR); it is opened with RTLD_NODELETE, so
 * that what LLVM's MC layer keeps for the life of the process (its
 * target registry, its option tables) stays reachable after the handle
 * is closed rather than being left behind by an unloaded library.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "llvmbrops.h"

#ifndef PROFPIPE_LIBDIR
#define PROFPIPE_LIBDIR "/usr/local/lib/profpipe"
#endif

struct llvmbr {
	void			*dl;
	const struct llvmbr_ops	*ops;
	void			*b;	/* the architecture's object */
};

/* the directory of the running program, with a final '/' */
static int
self_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0 || (size_t)n >= len - 1)
		return -1;
	buf[n] = '\0';
	if ((slash = strrchr(buf, '/')) == NULL)
		return -1;
	slash[1] = '\0';
	return 0;
}

/* dlopen the release's object from the first place that has it; NULL
 * with why (the last place's dlerror) */
static void *
load(const char *file, char *why, size_t whylen)
{
	static const char *const rel[] = { "../lib/profpipe/", "../lib/" };
	char dir[PATH_MAX], path[PATH_MAX + 64];
	size_t i;
	void *dl;
	int have = self_dir(dir, sizeof(dir)) == 0;

	snprintf(why, whylen, "not found");
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]) + 1; i++) {
		if (i < sizeof(rel) / sizeof(rel[0])) {
			if (!have)
				continue;
			snprintf(path, sizeof(path), "%s%s%s", dir, rel[i], file);
		} else
			snprintf(path, sizeof(path), "%s/%s", PROFPIPE_LIBDIR,
			    file);
		if (access(path, F_OK) != 0)
			continue;
		if ((dl = dlopen(path, RTLD_NOW | RTLD_LOCAL |
		    RTLD_NODELETE)) != NULL)
			return dl;
		snprintf(why, whylen, "%s", dlerror());
	}
	return NULL;
}

struct llvmbr *
llvmbr_open(enum llvm_rel rel, unsigned machine, char *err, size_t errlen)
{
	const char *n = llvmrel_name(rel);
	char file[64], why[512];
	struct llvmbr *br;
	llvmbr_entry entry;
	void *dl;

	snprintf(file, sizeof(file), "profpipe-llvm%s.so", n);
	if ((dl = load(file, why, sizeof(why))) == NULL) {
		failf(err, errlen, "LLVM %s's MC layer is not installed "
		    "(%s: %s): build profpipe with llvm-%s-dev installed "
		    "(apt-get install llvm-%s-dev), then make install", n,
		    file, why, n, n);
		return NULL;
	}
	/* POSIX's way from dlsym's void * to a function pointer */
	*(void **)&entry = dlsym(dl, LLVMBR_ENTRY);
	if (entry == NULL || entry()->abi != LLVMBR_ABI ||
	    entry()->major != (unsigned)rel) {
		failf(err, errlen, "%s is not LLVM %s's bridge of this "
		    "build of profpipe: make install again", file, n);
		dlclose(dl);
		return NULL;
	}
	br = xcalloc(1, sizeof(*br));
	br->dl = dl;
	br->ops = entry();
	if ((br->b = br->ops->open(machine, err, errlen)) == NULL) {
		dlclose(dl);
		free(br);
		return NULL;
	}
	return br;
}

void
llvmbr_close(struct llvmbr *br)
{
	if (br == NULL)
		return;
	br->ops->close(br->b);
	dlclose(br->dl);
	free(br);
}

const char *
llvmbr_version(const struct llvmbr *br)
{
	return br->ops->version;
}

size_t
llvmbr_decode(struct llvmbr *br, const uint8_t *p, size_t n, uint64_t addr)
{
	return br->ops->decode(br->b, p, n, addr);
}

const char *
llvmbr_text(struct llvmbr *br, const uint8_t *p, size_t n, uint64_t addr,
    char *buf, size_t len)
{
	return br->ops->text(br->b, p, n, addr, buf, len) ? buf : NULL;
}

void
llvmbr_block_begin(struct llvmbr *br)
{
	br->ops->block_begin(br->b);
}

size_t
llvmbr_insn(struct llvmbr *br, const uint8_t *p, size_t n, uint64_t addr,
    unsigned flags, llvmbr_resolve fn, void *arg)
{
	return br->ops->insn(br->b, p, n, addr, flags, fn, arg);
}

void
llvmbr_block_end(struct llvmbr *br, int stdhash, struct llvmbr_block *b)
{
	br->ops->block_end(br->b, stdhash, b);
}

uint64_t
llvmbr_func_end(struct llvmbr *br, int stdhash)
{
	return br->ops->func_end(br->b, stdhash);
}

uint64_t
llvmbr_hash16(const struct llvmbr *br, uint64_t low, uint64_t high)
{
	return br->ops->hash16(low, high);
}

uint64_t
llvmbr_hash_value(const struct llvmbr *br, uint64_t v)
{
	return br->ops->hash_value(v);
}
