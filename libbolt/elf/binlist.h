/* See COPYING file for copyright and license details. */
/*
 * binlist.h: the binaries a command line names, for the tools that
 * write one profile per binary from one stream (fdatawrite -d,
 * yamlwrite -d, profpipe-perf2bolt): a file, or a directory standing
 * for the ELF executables and shared objects in it (not its object
 * files, core files or subdirectories), by name;
 * and each one's profile, DIR/BASE.EXT, two of one base name refused.
 */
#ifndef PROFPIPE_BINLIST_H
#define PROFPIPE_BINLIST_H

#include <stddef.h>

struct binlist {
	char	**path;
	size_t	  n, cap;
	int	  dirs;		/* a directory was named */
};

/* path, or a directory's ELF executables and shared objects: 0, or -1
 * with the message in err when path cannot be read or a directory has
 * none */
int	 binlist_add(struct binlist *, const char *path, char *err,
	    size_t errlen);
/* whether path is a readable ELF executable or shared object */
int	 binlist_is_binary(const char *path);
/* DIR/BASE.ext for binary i (the caller frees it); NULL with the
 * message in err when two binaries share a base name (their profiles
 * would share one) */
char	*binlist_outpath(const struct binlist *, size_t i, const char *dir,
	    const char *ext, char *err, size_t errlen);
/* create dir unless it exists: 0, or -1 with the message in err */
int	 binlist_mkdir(const char *dir, char *err, size_t errlen);
void	 binlist_free(struct binlist *);

#endif
