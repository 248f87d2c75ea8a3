/* See COPYING file for copyright and license details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "strtab.h"

/* eight bytes at a time: names of C++ functions are long, and this
 * hash is most of what interning them costs */
static uint64_t
strhash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ n, w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 32;
	}
	if (n > 0) {
		w = 0;
		memcpy(&w, s, n);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	}
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 32);
}

/* the slot of s[0..len), whose hash is h: where it is, or the empty
 * slot where it goes; a string's hash is kept (t->h) so that only an
 * equal hash costs a comparison, and a growth no hashing */
static size_t
slot(const struct strtab *t, const char *s, size_t len, uint32_t h)
{
	size_t j, mask = t->idxcap - 1;

	for (j = h & mask; t->idx[j] != 0; j = (j + 1) & mask) {
		const char *u = t->s[t->idx[j] - 1];

		if (t->h[t->idx[j] - 1] == h && strncmp(u, s, len) == 0 &&
		    u[len] == '\0')
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
	j = slot(t, s, len, (uint32_t)strhash(s, len));
	return t->idx[j] != 0 ? (long)t->idx[j] - 1 : -1;
}

static uint32_t intern(struct strtab *, const char *, size_t);

uint32_t
strtab_intern(struct strtab *t, const char *s, size_t len)
{
	if (t->byref) {
		fprintf(stderr, "%s: strtab_intern on a table by reference\n",
		    progname);
		abort();
	}
	return intern(t, s, len);
}

uint32_t
strtab_intern_ref(struct strtab *t, const char *s, size_t len)
{
	if (!t->byref || s[len] != '\0') {
		fprintf(stderr, "%s: strtab_intern_ref: not a table by "
		    "reference, or no NUL at the end\n", progname);
		abort();
	}
	return intern(t, s, len);
}

static uint32_t
intern(struct strtab *t, const char *s, size_t len)
{
	size_t j, i, mask;
	uint32_t h = (uint32_t)strhash(s, len);

	if ((size_t)(t->n + 1) * 2 > t->idxcap) {
		free(t->idx);
		t->idxcap = t->idxcap ? t->idxcap * 2 : 64;
		t->idx = xcalloc(t->idxcap, sizeof(*t->idx));
		mask = t->idxcap - 1;
		/* the strings are distinct: each goes to the first free slot */
		for (i = 0; i < t->n; i++) {
			for (j = t->h[i] & mask; t->idx[j] != 0;
			    j = (j + 1) & mask)
				;
			t->idx[j] = (uint32_t)i + 1;
		}
	}
	j = slot(t, s, len, h);
	if (t->idx[j] != 0)
		return t->idx[j] - 1;
	if (t->n >= UINT32_MAX - 3) {
		fprintf(stderr, "%s: too many distinct names\n", progname);
		exit(1);
	}
	if ((size_t)t->n + 1 > t->cap) {
		size_t cap = t->cap;

		xgrow(&t->s, &t->cap, (size_t)t->n + 1, sizeof(*t->s));
		xgrow(&t->h, &cap, (size_t)t->n + 1, sizeof(*t->h));
	}
	t->h[t->n] = h;
	t->s[t->n] = t->byref ? (char *)(uintptr_t)s : xstrndup(s, len);
	t->idx[j] = t->n + 1;
	return t->n++;
}

void
strtab_free(struct strtab *t)
{
	uint32_t i;

	for (i = 0; i < t->n && !t->byref; i++)
		free(t->s[i]);
	free(t->s);
	free(t->h);
	free(t->idx);
	memset(t, 0, sizeof(*t));
}
