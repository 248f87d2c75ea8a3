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

/* path, or a directory's ELF executables and shared objects; dies
 * (exit 1) when path cannot be read or a directory has none */
void	 binlist_add(struct binlist *, const char *path);
/* whether path is a readable ELF executable or shared object */
int	 binlist_is_binary(const char *path);
/* DIR/BASE.ext for binary i; exit 1 when two binaries share a base
 * name (their profiles would share one) */
char	*binlist_outpath(const struct binlist *, size_t i, const char *dir,
	    const char *ext);
/* create dir unless it exists; exit 1 on failure */
void	 binlist_mkdir(const char *dir);
void	 binlist_free(struct binlist *);

#endif
