/* See COPYING file for copyright and license details. */
/*
 * fdline.h: one fdata branch line as perf2bolt-19 writes it and batmap
 * --past-end passes it on ("0 [unknown] HEX" or "1 NAME HEX", twice,
 * then the mispredicted and the taken count, in decimal), checked over
 * the full range of each field; fdatawrite and yamlwrite read batmap's
 * --past-end files with it.
 */
#ifndef PROFPIPE_FDLINE_H
#define PROFPIPE_FDLINE_H

#include <stdint.h>

struct fdloc {
	int		 known;	/* "1 NAME": a function of the binary */
	const char	*name;	/* NAME unescaped (functab_put_name's rule),
				 * in the caller's scratch */
	uint64_t	 off;
};

/* line s into loc[2], *mis and *count; scratch: strlen(s) + 1 bytes, for
 * the names.  Returns NULL, or what is wrong with the line */
const char *fdline_parse(const char *s, char *scratch, struct fdloc loc[2],
	    uint64_t *mis, uint64_t *count);

#endif
