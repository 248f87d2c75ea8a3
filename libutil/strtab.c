/* See COPYING file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "strtab.h"

static uint64_t
strhash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

/* the slot of s[0..len): where it is, or the empty slot where it goes */
static size_t
slot(const struct strtab *t, const char *s, size_t len)
{
	size_t j, mask = t->idxcap - 1;

	for (j = strhash(s, len) & mask; t->idx[j] != 0; j = (j + 1) & mask) {
		const char *u = t->s[t->idx[j] - 1];

		if (strncmp(u, s, len) == 0 && u[len] == '\0')
			break;
	}
	return j;
}

long
strtab_find(const struct strtab *t, const char *s, size_t len)
{
	size_t j;

	if (t->idxcap == 0)
		return -1;
	j = slot(t, s, len);
	return t->idx[j] != 0 ? (long)t->idx[j] - 1 : -1;
}

uint32_t
strtab_intern(struct strtab *t, const char *s, size_t len)
{
	size_t j, i;

	if ((size_t)(t->n + 1) * 2 > t->idxcap) {
		free(t->idx);
		t->idxcap = t->idxcap ? t->idxcap * 2 : 64;
		t->idx = xcalloc(t->idxcap, sizeof(*t->idx));
		for (i = 0; i < t->n; i++)
			t->idx[slot(t, t->s[i], strlen(t->s[i]))] =
			    (uint32_t)i + 1;
	}
	j = slot(t, s, len);
	if (t->idx[j] != 0)
		return t->idx[j] - 1;
	if (t->n >= UINT32_MAX - 3) {
		fprintf(stderr, "%s: too many distinct names\n", progname);
		exit(1);
	}
	xgrow(&t->s, &t->cap, (size_t)t->n + 1, sizeof(*t->s));
	t->s[t->n] = xstrndup(s, len);
	t->idx[j] = t->n + 1;
	return t->n++;
}

void
strtab_free(struct strtab *t)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		free(t->s[i]);
	free(t->s);
	free(t->idx);
	memset(t, 0, sizeof(*t));
}
