/* See COPYING file for copyright and license details. */
/* batmap.h: what batmap's files share. */
#ifndef BATMAP_H
#define BATMAP_H

#include "common.h"
#include "bat.h"

struct xsec {			/* an executable section */
	uint64_t	addr, size;
};

struct bolted {
	const char	*path;
	struct elfobj	 eo;
	struct bat	 bat;
	uint64_t	 secoff;	/* file offset of the BAT section */
	char		 producer[128];
	struct xsec	*xs;
	size_t		 nxs;
	const char	**name;		/* per fragment: its symbol, or NULL */
};

extern int	 vflag;

void	 translate(FILE *, struct bolted *, const char *, const char *);
noreturn void die(const char *path, const char *fmt, ...) PRINTFLIKE(2, 3);

#endif
