/* See COPYING file for copyright and license details. */
/* boltbin.c: a binary and its function table, loaded (boltbin.h). */
#include <elf.h>
#include <string.h>

#include "util.h"
#include "boltbin.h"

int
boltbin_open(struct boltbin *b, const char *path, unsigned ftflags,
    char *err, size_t errlen)
{
	memset(b, 0, sizeof(*b));
	if (elfobj_open(&b->eo, path, err, errlen) == -1)
		return -1;
	return boltbin_load(b, ftflags, err, errlen);
}

int
boltbin_open_elf(struct boltbin *b, const char *path, char *err,
    size_t errlen)
{
	memset(b, 0, sizeof(*b));
	if (elfobj_open(&b->eo, path, err, errlen) == -1)
		return -1;
	b->base = b->eo.type == ET_DYN ? elfobj_base(&b->eo) : 0;
	hex_encode(b->bid, b->eo.buildid, b->eo.buildid_len);
	return 0;
}

int
boltbin_load(struct boltbin *b, unsigned ftflags, char *err, size_t errlen)
{
	if (functab_load_flags(&b->ft, &b->eo, ftflags, err, errlen) == -1)
		return -1;
	b->base = b->eo.type == ET_DYN ? elfobj_base(&b->eo) : 0;
	hex_encode(b->bid, b->eo.buildid, b->eo.buildid_len);
	return 0;
}

void
boltbin_close(struct boltbin *b)
{
	functab_free(&b->ft);
	elfobj_close(&b->eo);
}
