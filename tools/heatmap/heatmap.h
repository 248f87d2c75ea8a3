/* See COPYING file for copyright and license details. */
/*
 * heatmap: the heat maps llvm-bolt-heatmap (LLVM 22) writes, an SVG of
 * them, and perf2bolt-22's profile density, from a pre-aggregated
 * profile and the binary.
 *
 * The files:
 *   main.c     options, the binary's text sections, reading the entries
 *   map.c      the map of buckets: what registers a sample (Heatmap::
 *              registerAddress, registerAddressRange), the coloured text
 *              map (Heatmap::print), the CDF and the section hotness
 *   svg.c      the same buckets drawn as SVG
 *   density.c  --density: BinaryPasses' PrintProgramStats --show-density
 *
 * The rules are LLVM 22's: bolt/lib/Profile/Heatmap.cpp and
 * DataAggregator.cpp (parseAggregatedLBREntry, printLBRHeatMap).
 */
#ifndef HEATMAP_H
#define HEATMAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"
#include "ktab.h"

/* a text section (SHF_EXECINSTR, size > 0), by address */
struct hsec {
	uint64_t	 begin, end;
	const char	*name;
	size_t		 key;		/* the first section of its name (the
					 * hotness is summed by name) */
};

struct bucket {
	uint64_t	 key, count;
};

struct hmap {
	uint64_t	 bsize;		/* bytes per bucket */
	uint64_t	 minaddr, maxaddr;
	uint64_t	 nskipped;	/* ranges not registered */
	struct ktab	 tab;		/* bucket -> count, while registering */
	struct bucket	*b;		/* sorted by key, after hmap_finish */
	size_t		 n;
};

/* what the printers need to know of the binary and the options */
struct hview {
	const struct hsec *secs;
	size_t		 nsecs;
	uint64_t	 hotstart, hotend;	/* __hot_start, __hot_end */
	uint64_t	 perline;		/* buckets per line */
	int		 mappings;		/* --print-mappings */
};

/* map.c */
void	 hmap_init(struct hmap *, uint64_t bsize, uint64_t minaddr,
	    uint64_t maxaddr);
void	 hmap_point(struct hmap *, uint64_t addr, uint64_t count);
void	 hmap_range(struct hmap *, uint64_t start, uint64_t end,
	    uint64_t count);
/* the buckets of src (not finished) added to dst's */
void	 hmap_merge(struct hmap *dst, const struct hmap *src);
/* the buckets sorted, the table dropped */
void	 hmap_finish(struct hmap *);
/* Heatmap::resizeBucket: the same samples in buckets of bsize bytes */
void	 hmap_resize(struct hmap *, uint64_t bsize);
void	 hmap_free(struct hmap *);
uint64_t hmap_max(const struct hmap *);
void	 hmap_print(const struct hmap *, const struct hview *, FILE *);
void	 hmap_print_cdf(const struct hmap *, FILE *);
void	 hmap_print_hotness(const struct hmap *, const struct hview *, FILE *);

/* svg.c */
struct boltbin;
struct svgopt {
	const char	*binname;	/* the title's */
	const char	*events;	/* the events of the profile, or NULL */
	const struct boltbin *bin;	/* the functions named, or NULL */
	uint64_t	 nsamples;	/* what the stream counted */
};
void	 svg_write(const struct hmap *, const struct hview *,
	    const struct svgopt *, FILE *);

#endif
