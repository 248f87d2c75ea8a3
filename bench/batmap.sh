#!/bin/sh
# batmap.sh: profiles of the BOLTed large program (tests/large/
# build-large.sh: app.bolt, llvm-bolt-19 --enable-bat of 3494 functions,
# about 4800 BAT maps) brought back to its input, two ways on the same
# perf.data: perf2bolt-19 -p on app.bolt (BAT mode), and perfdecode |
# preagg --legacy -b app.bolt | batmap app.bolt app.  NSAMPLES branch
# stacks of 24 entries along app.bolt's control flow (tests/tools/cfgwalk,
# skewed).  Also batmap --dump.  One run of each side per REPS.  The
# translation through fdatawrite --bolted is checked against perf2bolt's
# fdata line for line.  Targets (issue 15): 10x faster, a fifth of
# perf2bolt's peak memory.
set -e
. "$(dirname "$0")/lib.sh"
NSAMPLES=${NSAMPLES:-250000}
large_work
cp "$top/build/large/app" "$top/build/large/app.bolt" .
"$T/cfgwalk" -D skewed -d 24 -n "$NSAMPLES" -s 1 -m "$work/app.bolt" -o g.events app.bolt
"$T/mkperfdata" -o g.data g.events
rm -f g.events
echo "input: $(du -m g.data | cut -f1) MB perf.data, $NSAMPLES samples of app.bolt"
cat g.data > /dev/null
measure perf2bolt "$(tm 1) $L/perf2bolt -p g.data -o a.fdata app.bolt > p2b.log 2>&1"
measure pipeline "$(tm 1) $B/perfdecode g.data | $(tm 2) $B/preagg --legacy -b app.bolt | $(tm 3) $B/batmap app.bolt app > input.pa"
$B/perfdecode g.data | $B/preagg --legacy -b app.bolt > bolted.pa
measure batmap_alone "$(tm 1) $B/batmap app.bolt app bolted.pa > /dev/null"
measure batmap_dump "$(tm 1) $B/batmap --dump app.bolt > app.dump"
echo "  $(wc -l < input.pa) translated entries; perf2bolt wrote $(grep -c . a.fdata) fdata lines"
$L/perf2bolt --pa -p input.pa -o b.fdata app > pa.log 2>&1
export PROFPIPE_TESTBIN="$T"
echo "  fdata: $(python3 "$top/tests/data/batmap/cmpfdata.py" a.fdata b.fdata app.dump app 2>/dev/null || true)"
$B/fdatawrite --bolted app input.pa | sort > f.s
# perf2bolt's lines, code BOLT left at moved functions' old addresses
# an unknown location, as llvm-bolt reads them on app (batmap(1))
python3 "$top/tests/data/batmap/stubfdata.py" app a.fdata 2>/dev/null | sort > a.s
echo "  fdatawrite --bolted: $(comm -12 a.s f.s | wc -l) of $(wc -l < a.s) lines of perf2bolt's (those naming code at old addresses as llvm-bolt reads them), $(comm -13 a.s f.s | wc -l) others"
echo "  pipeline: $(ratio "$wall_perf2bolt" "$wall_pipeline")x faster," \
    "$(ratio "$rss_perf2bolt" "$rss_pipeline")x less memory (target 10x, 5x; $(nproc) CPUs)"
