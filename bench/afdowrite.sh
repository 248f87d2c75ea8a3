#!/bin/sh
# afdowrite.sh: perf.data to the AutoFDO text profile clang reads,
# perfdecode | preagg | afdowrite against llvm-profgen-19 --format=text
# --perfdata (which runs perf script itself), on the large program with
# DWARF (tests/large/build-large-afdo.sh: GNU objdump built -O2 -g
# -fdebug-info-for-profiling, about 2000 functions, 1 MB of .text), with
# NSAMPLES (default 250,000) samples of 32-deep branch stacks that follow
# its control flow (tests/tools/cfgwalk, skewed).  One run of each side
# per REPS, then the two in turn; checks that the two profiles are the
# same bytes.  Targets (issue 28): 5x faster, a fifth of llvm-profgen's
# peak memory.
set -e
. "$(dirname "$0")/lib.sh"
NSAMPLES=${NSAMPLES:-250000}
large_work build-large-afdo.sh
cp "$top/build/large/objdump-g" objdump-g
walk_data objdump-g
echo "input (${DIST:-skewed}): $(du -m w.data | cut -f1) MB perf.data, $NSAMPLES samples" \
    "of 32 branches, objdump-g ($(wc -c < objdump-g) bytes)"
cat w.data objdump-g > /dev/null
echo "perf.data to the text profile:"
measure profgen "$(tm 1) $L/llvm-profgen --format=text --binary objdump-g --perfdata w.data -o a.prof 2> pg.log"
measure pipeline "$(tm 1) $B/perfdecode w.data | $(tm 2) $B/preagg -b objdump-g | $(tm 3) $B/afdowrite -o b.prof objdump-g"
echo "  end to end: $(ratio "$wall_profgen" "$wall_pipeline")x faster," \
    "$(ratio "$rss_profgen" "$rss_pipeline")x less memory (target 5x, 5x; $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"
in_turn "$L/llvm-profgen --format=text --binary objdump-g --perfdata w.data -o a.prof 2> pg.log" \
    "$B/perfdecode w.data | $B/preagg -b objdump-g | $B/afdowrite -o b.prof objdump-g"
"$B/perfdecode" w.data | "$B/preagg" -b objdump-g > w.pa
measure afdowrite "$(tm 1) $B/afdowrite -o c.prof objdump-g w.pa"
echo "  afdowrite alone: $(ratio "$wall_profgen" "$wall_afdowrite")x faster" \
    "than llvm-profgen end to end, $(ratio "$rss_profgen" "$rss_afdowrite")x less memory"
if [ -s a.prof ] && cmp -s a.prof b.prof && cmp -s a.prof c.prof; then
	echo "  profiles: the same bytes ($(wc -l < a.prof) lines," \
	    "$(grep -c '^[^ ]' a.prof) functions)"
else
	echo "  profiles: DIFFERENT"
fi
