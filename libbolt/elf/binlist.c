/* See COPYING file for copyright and license details. */
/*
 * binlist.c: binaries and directories of binaries named on a command
 * line (binlist.h).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "binlist.h"

int
binlist_is_binary(const char *path)
{
	unsigned char m[18];
	unsigned type;
	int fd, ok;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	ok = read(fd, m, sizeof(m)) == (ssize_t)sizeof(m) && m[0] == 0x7f &&
	    m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
	close(fd);
	/* e_type in the file's byte order (EI_DATA): ET_EXEC or ET_DYN,
	 * not the object files (.o) or core files a directory may hold */
	type = m[5] == ELFDATA2MSB ? (unsigned)m[16] << 8 | m[17] :
	    (unsigned)m[17] << 8 | m[16];
	return ok && (type == ET_EXEC || type == ET_DYN);
}

static void
add_one(struct binlist *bl, char *path)
{
	xgrow(&bl->path, &bl->cap, bl->n + 1, sizeof(*bl->path));
	bl->path[bl->n++] = path;
}

/* paths in a directory: distinct names */
typedef char *pathname;
#define SORT_NAME	sort_names
#define SORT_TYPE	pathname
#define SORT_LESS(a, b)	(strcmp(*(a), *(b)) < 0)
#include "sort.h"

int
binlist_add(struct binlist *bl, const char *path, char *err, size_t errlen)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	char *p;
	size_t first = bl->n;

	if (stat(path, &st) == -1)
		return failf(err, errlen, "%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		add_one(bl, xstrdup(path));
		return 0;
	}
	bl->dirs = 1;
	if ((d = opendir(path)) == NULL)
		return failf(err, errlen, "%s: %s", path, strerror(errno));
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", path, de->d_name);
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
		    binlist_is_binary(p))
			add_one(bl, p);
		else
			free(p);
	}
	closedir(d);
	if (bl->n == first)
		return failf(err, errlen, "%s: no executable or shared object "
		    "in the directory", path);
	/* by name, whatever order readdir gives */
	sort_names(bl->path + first, bl->n - first);
	return 0;
}

static const char *
base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

char *
binlist_outpath(const struct binlist *bl, size_t i, const char *dir,
    const char *ext, char *err, size_t errlen)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (strcmp(base(bl->path[j]), base(bl->path[i])) == 0) {
			failf(err, errlen, "%s and %s: two binaries of one "
			    "name, whose profiles would have one name",
			    bl->path[j], bl->path[i]);
			return NULL;
		}
	return xasprintf("%s/%s.%s", dir, base(bl->path[i]), ext);
}

int
binlist_mkdir(const char *dir, char *err, size_t errlen)
{
	if (mkdir(dir, 0777) == -1 && errno != EEXIST)
		return failf(err, errlen, "%s: %s", dir, strerror(errno));
	return 0;
}

void
binlist_free(struct binlist *bl)
{
	size_t i;

	for (i = 0; i < bl->n; i++)
		free(bl->path[i]);
	free(bl->path);
	memset(bl, 0, sizeof(*bl));
}
