#!/bin/sh
# perf-pipeline.sh: perfdecode against `perf script -F pid,ip,brstack`,
# and perfdecode | preagg against perf2bolt-19 -p, on one generated LBR
# perf.data of at least 200 MB (synthetic 4- to 32-deep branch stacks over
# the demo program's real branch instructions, tests/data/preagg/randlbr.py,
# written by the test suite's mkperfdata).  Targets: perfdecode 10x faster
# than perf script; the pipeline 10x faster than perf2bolt with a fifth of
# its peak memory.  Peak memory of a pipeline is its largest process's.
set -e
. "$(dirname "$0")/lib.sh"
make -s -C "$top" all testbins
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
$L/clang -O2 -fno-pie -no-pie -Wl,--emit-relocs -o app "$top/tests/data/progs/demo.c"
python3 "$top/tests/data/preagg/randlbr.py" app 0 4242 2000 1 "$work/app" > app.events
"$T/mkperfdata" --repeat 260 -o perf.data app.events
echo "input: $(du -m perf.data | cut -f1) MB perf.data, $(grep -c '^sample' app.events)x260 samples"
# warm the page cache so that neither side pays for the first read
cat perf.data > /dev/null
measure perf_script "$(tm 1) perf script -F pid,ip,brstack -i perf.data > /dev/null 2>&1"
measure perfdecode "$(tm 1) $B/perfdecode perf.data > /dev/null"
measure perf2bolt "$(tm 1) $L/perf2bolt -p perf.data -o a.fdata app > p2b.log 2>&1"
measure pipeline_legacy "$(tm 1) $B/perfdecode perf.data | $(tm 2) $B/preagg --legacy -b app > p.legacy"
measure pipeline_legacy_j1 "$(tm 1) $B/perfdecode perf.data | $(tm 2) $B/preagg -j 1 --legacy -b app > p.legacy1"
measure pipeline_current "$(tm 1) $B/perfdecode perf.data | $(tm 2) $B/preagg -b app > p.current"
# the point of the pipeline: perf2bolt reads its output and agrees
$L/perf2bolt --pa -p p.legacy -o b.fdata app > pa.log 2>&1
sort a.fdata > a.sorted
sort b.fdata > b.sorted
if cmp -s a.sorted b.sorted && cmp -s p.legacy p.legacy1; then
	echo "  fdata: perf2bolt --pa on the pipeline's output = perf2bolt -p ($(wc -l < a.sorted) lines), -j 1 = default"
else
	echo "  fdata: DIFFERENT"
fi
echo "perfdecode vs perf script:  $(ratio "$wall_perf_script" "$wall_perfdecode")x faster," \
    "$(ratio "$rss_perf_script" "$rss_perfdecode")x less memory (target 10x faster)"
echo "pipeline vs perf2bolt:      $(ratio "$wall_perf2bolt" "$wall_pipeline_legacy")x faster," \
    "$(ratio "$rss_perf2bolt" "$rss_pipeline_legacy")x less memory (target 10x, 5x;" \
    "$(nproc) CPUs; preagg -j 1: $(ratio "$wall_perf2bolt" "$wall_pipeline_legacy_j1")x)"
