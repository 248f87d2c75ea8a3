/* See COPYING file for copyright and license details. */
/* fdline.c: an fdata branch line (fdline.h). */
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "fdline.h"

#define NOTLINE	"not an fdata branch line (batmap --past-end)"

static const char *
loc(const char **ps, char **scratch, struct fdloc *l)
{
	const char *s = *ps;
	char *d = *scratch;
	int n;

	l->known = 0;
	l->name = NULL;
	if (strncmp(s, "0 [unknown] ", 12) == 0)
		s += 12;
	else if (s[0] == '1' && s[1] == ' ' && s[2] != ' ' && s[2] != '\0') {
		l->known = 1;
		l->name = d;
		for (s += 2; *s != ' '; s++) {
			if (*s == '\0' || (unsigned char)*s < 0x21)
				return NOTLINE;
			if (*s == '\\' && (s[1] == ' ' || s[1] == '\\'))
				s++;
			*d++ = *s;
		}
		*d++ = '\0';
		s++;
	} else
		return NOTLINE;
	l->off = 0;
	for (n = 0; isxdigit((unsigned char)*s); s++, n++) {
		if (n == 16)
			return "offset out of range";
		l->off = l->off << 4 | (uint64_t)(isdigit((unsigned char)*s) ?
		    *s - '0' : (tolower((unsigned char)*s) - 'a' + 10));
	}
	if (n == 0 || *s != ' ')
		return NOTLINE;
	*ps = s + 1;
	*scratch = d;
	return NULL;
}

static const char *
dec(const char **ps, int last, uint64_t *v)
{
	const char *s = *ps;

	*v = 0;
	if (!isdigit((unsigned char)*s))
		return NOTLINE;
	for (; isdigit((unsigned char)*s); s++) {
		if (*v > (UINT64_MAX - 9) / 10)
			return "count out of range";
		*v = *v * 10 + (uint64_t)(*s - '0');
	}
	if (*s != (last ? '\0' : ' '))
		return NOTLINE;
	*ps = s + !last;
	return NULL;
}

const char *
fdline_parse(const char *s, char *scratch, struct fdloc loc2[2],
    uint64_t *mis, uint64_t *count)
{
	const char *why;

	if ((why = loc(&s, &scratch, &loc2[0])) != NULL ||
	    (why = loc(&s, &scratch, &loc2[1])) != NULL ||
	    (why = dec(&s, 0, mis)) != NULL)
		return why;
	return dec(&s, 1, count);
}
