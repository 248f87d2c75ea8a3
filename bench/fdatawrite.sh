#!/bin/sh
# fdatawrite.sh: the whole pipeline perf.data -> fdata
# (perfdecode | preagg | fdatawrite) against perf2bolt-19 -p, and
# fdatawrite alone against perf2bolt-19 --pa on the same pre-aggregated
# input, on the large benchmark program (tests/large/build-large.sh: 3494
# functions, 1.6 MB of .text), with NSAMPLES (default 250,000) samples of
# 32-deep branch stacks that follow its real control flow
# (tests/tools/cfgwalk), skewed.  One run of each side per REPS.  Also
# checks that the fdata are equal after sorting.  Targets (issue 14): 10x
# faster end to end, at most a fifth of perf2bolt's peak memory.
set -e
. "$(dirname "$0")/lib.sh"
NSAMPLES=${NSAMPLES:-250000}
large_work
cp "$top/build/large/app" app
walk_data app -m "$work/app"
"$B/perfdecode" w.data | "$B/preagg" --legacy -b app > legacy.pa
"$B/perfdecode" w.data | "$B/preagg" -b app > current.pa
echo "input (${DIST:-skewed}): $(du -m w.data | cut -f1) MB perf.data, $NSAMPLES samples" \
    "of 32 branches; $(wc -l < current.pa) pre-aggregated entries"
cat w.data legacy.pa current.pa > /dev/null
echo "perf.data to fdata:"
measure perf2bolt_p "$(tm 1) $L/perf2bolt -p w.data -o a.fdata app > p2b.log 2>&1"
measure pipeline "$(tm 1) $B/perfdecode w.data | $(tm 2) $B/preagg -b app | $(tm 3) $B/fdatawrite -o b.fdata app"
echo "  end to end: $(ratio "$wall_perf2bolt_p" "$wall_pipeline")x faster," \
    "$(ratio "$rss_perf2bolt_p" "$rss_pipeline")x less memory (target 10x, 5x; $(nproc) CPUs)"
# the same, the two in turn (perf2bolt, pipeline, perf2bolt, ...)
in_turn "$L/perf2bolt -p w.data -o a.fdata app > p2b.log 2>&1" \
    "$B/perfdecode w.data | $B/preagg -b app | $B/fdatawrite -o b.fdata app"
echo "pre-aggregated to fdata:"
measure perf2bolt_pa "$(tm 1) $L/perf2bolt --pa -p legacy.pa -o c.fdata app > pa.log 2>&1"
measure fdatawrite "$(tm 1) $B/fdatawrite -o d.fdata app current.pa"
echo "  fdatawrite alone: $(ratio "$wall_perf2bolt_pa" "$wall_fdatawrite")x faster," \
    "$(ratio "$rss_perf2bolt_pa" "$rss_fdatawrite")x less memory"
for f in a b c d; do sort $f.fdata > $f.sorted; done
if [ -s a.sorted ] && cmp -s a.sorted b.sorted && cmp -s a.sorted c.sorted &&
    cmp -s a.sorted d.sorted; then
	echo "  fdata: all four equal ($(wc -l < a.sorted) lines)"
else
	echo "  fdata: DIFFERENT: pipeline $(comm -3 a.sorted b.sorted | wc -l)," \
	    "fdatawrite $(comm -3 c.sorted d.sorted | wc -l) lines differ"
fi
