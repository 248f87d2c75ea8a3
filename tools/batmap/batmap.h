/* See COPYING file for copyright and license details. */
/* batmap.h: what batmap's files share. */
#ifndef BATMAP_H
#define BATMAP_H

#include "util.h"
#include "bat.h"
#include "batbin.h"

extern int	 vflag;
extern int	 yflag;		/* --yaml */
extern const char *pefile;	/* --past-end */

void	 translate(FILE *, struct batbin *, const char *, const char *);
void	 translate_free(void);

#endif
