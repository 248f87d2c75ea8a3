#!/bin/sh
# preagg-large.sh: perfdecode | preagg (current and --legacy format)
# against perf2bolt-19 -p on the large benchmark program
# (tests/large/build-large.sh: Debian's libsqlite3.a and libzstd.a under
# our driver, 3494 functions, 1.6 MB of .text), with 250,000 samples of
# 32-deep branch stacks that follow its real control flow
# (tests/tools/cfgwalk), once with walks starting uniformly over the
# functions and once skewed (Zipf-hot functions, biased branches).  One
# run of each side per REPS.  Also checks that perf2bolt --pa on preagg's
# legacy output gives perf2bolt -p's fdata.  Targets (issue 13): 10x
# faster, at most a fifth of perf2bolt's peak memory.
set -e
. "$(dirname "$0")/lib.sh"
NSAMPLES=${NSAMPLES:-250000}
large_work
cp "$top/build/large/app" app
for dist in uniform skewed; do
	"$T/cfgwalk" -D "$dist" -n "$NSAMPLES" -s 1 -m "$work/app" -o "$dist.events" app
	"$T/mkperfdata" -o "$dist.data" "$dist.events"
	rm -f "$dist.events"
	echo "input ($dist): $(du -m "$dist.data" | cut -f1) MB perf.data," \
	    "$NSAMPLES samples of 32 branches"
	cat "$dist.data" > /dev/null
	measure perf2bolt "$(tm 1) $L/perf2bolt -p $dist.data -o a.fdata app > p2b.log 2>&1"
	measure pipeline_current "$(tm 1) $B/perfdecode $dist.data | $(tm 2) $B/preagg -b app > p.current"
	measure pipeline_legacy "$(tm 1) $B/perfdecode $dist.data | $(tm 2) $B/preagg --legacy -b app > p.legacy"
	grep -E 'mismatching|out of range' p2b.log | sed 's/^/  /'
	$L/perf2bolt --pa -p p.legacy -o b.fdata app > pa.log 2>&1
	sort a.fdata > a.sorted
	sort b.fdata > b.sorted
	if [ -s a.sorted ] && cmp -s a.sorted b.sorted; then
		echo "  fdata: perf2bolt --pa on preagg --legacy = perf2bolt -p ($(wc -l < a.sorted) lines)"
	else
		echo "  fdata: DIFFERENT ($(wc -l < a.sorted) and $(wc -l < b.sorted) lines," \
		    "$(comm -3 a.sorted b.sorted | wc -l) differ)"
	fi
	echo "  $dist, current format: $(ratio "$wall_perf2bolt" "$wall_pipeline_current")x faster," \
	    "$(ratio "$rss_perf2bolt" "$rss_pipeline_current")x less memory"
	echo "  $dist, legacy format:  $(ratio "$wall_perf2bolt" "$wall_pipeline_legacy")x faster," \
	    "$(ratio "$rss_perf2bolt" "$rss_pipeline_legacy")x less memory" \
	    "(target 10x, 5x; $(nproc) CPUs)"
	rm -f "$dist.data"
done
