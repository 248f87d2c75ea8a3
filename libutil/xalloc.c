/* See COPYING file for copyright and license details. */
/* xalloc.c: allocation that dies with a message instead of returning NULL. */
#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n == -1)
		err(1, "vasprintf");
	return s;
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		err(1, "malloc %zu bytes", n);
	return p;
}

void *
xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (p == NULL)
		err(1, "calloc %zu x %zu bytes", n, sz);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n ? n : 1)) == NULL)
		err(1, "realloc %zu bytes", n);
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t sz)
{
	if (sz && n > SIZE_MAX / sz)
		errx(1, "allocation of %zu x %zu bytes overflows", n, sz);
	return xrealloc(p, n * sz);
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		err(1, "strdup");
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		err(1, "strndup");
	return p;
}

size_t
grow_cap(size_t cap, size_t need)
{
	size_t n = cap ? cap : 16;

	while (n < need) {
		if (n > SIZE_MAX / 2)
			errx(1, "allocation overflows");
		n *= 2;
	}
	return n;
}

void
xgrow(void *pp, size_t *cap, size_t need, size_t sz)
{
	void **vp = pp;
	size_t n;

	if (need <= *cap)
		return;
	n = grow_cap(*cap, need);
	*vp = xreallocarray(*vp, n, sz);
	*cap = n;
}
