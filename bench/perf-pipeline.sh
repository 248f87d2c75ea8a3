#!/bin/sh
# perf-pipeline.sh: perfdecode against `perf script -F pid,ip,brstack`,
# and perfdecode | preagg against perf2bolt-19 -p, on two generated LBR
# perf.data files written by the test suite's mkperfdata: one of at least
# 200 MB of synthetic 4- to 32-deep branch stacks over the demo program's
# real branch instructions (tests/data/preagg/randlbr.py), and one of the
# large program (tests/large/build-large.sh: build/large/app, 3494
# functions, 1.6 MB of .text) with NSAMPLES (default 250,000) 32-deep
# branch stacks that follow its real control flow (tests/tools/cfgwalk,
# skewed, as bench/fdatawrite.sh makes them).  Targets: perfdecode 10x
# faster than perf script; the pipeline 10x faster than perf2bolt with a
# fifth of its peak memory.  Peak memory of a pipeline is its largest
# process's.
set -e
. "$(dirname "$0")/lib.sh"
NSAMPLES=${NSAMPLES:-250000}
large_work
# compare NAME BINARY PERFDATA: both comparisons on one perf.data of one
# binary, NAME a prefix of the measures' names
compare() {
	p=$1
	app=$2
	data=$3
	# warm the page cache so that neither side pays for the first read
	cat "$data" > /dev/null
	measure ${p}_perf_script "$(tm 1) perf script -F pid,ip,brstack -i $data > /dev/null 2>&1"
	measure ${p}_perfdecode "$(tm 1) $B/perfdecode $data > /dev/null"
	measure ${p}_perf2bolt "$(tm 1) $L/perf2bolt -p $data -o a.fdata $app > p2b.log 2>&1"
	measure ${p}_pipeline_legacy "$(tm 1) $B/perfdecode $data | $(tm 2) $B/preagg --legacy -b $app > p.legacy"
	measure ${p}_pipeline_legacy_j1 "$(tm 1) $B/perfdecode $data | $(tm 2) $B/preagg -j 1 --legacy -b $app > p.legacy1"
	measure ${p}_pipeline_current "$(tm 1) $B/perfdecode $data | $(tm 2) $B/preagg -b $app > p.current"
	# the point of the pipeline: perf2bolt reads its output and agrees
	$L/perf2bolt --pa -p p.legacy -o b.fdata $app > pa.log 2>&1
	sort a.fdata > a.sorted
	sort b.fdata > b.sorted
	if [ -s a.sorted ] && cmp -s a.sorted b.sorted && cmp -s p.legacy p.legacy1; then
		echo "  fdata: perf2bolt --pa on the pipeline's output = perf2bolt -p ($(wc -l < a.sorted) lines), -j 1 = default"
	else
		echo "  fdata: DIFFERENT"
	fi
	eval "ws=\$wall_${p}_perf_script wd=\$wall_${p}_perfdecode rs=\$rss_${p}_perf_script" \
	    "rd=\$rss_${p}_perfdecode wp=\$wall_${p}_perf2bolt wl=\$wall_${p}_pipeline_legacy" \
	    "w1=\$wall_${p}_pipeline_legacy_j1 rp=\$rss_${p}_perf2bolt rl=\$rss_${p}_pipeline_legacy"
	echo "perfdecode vs perf script ($p):  $(ratio "$ws" "$wd")x faster," \
	    "$(ratio "$rs" "$rd")x less memory (target 10x faster)"
	echo "pipeline vs perf2bolt ($p):      $(ratio "$wp" "$wl")x faster," \
	    "$(ratio "$rp" "$rl")x less memory (target 10x, 5x;" \
	    "$(nproc) CPUs; preagg -j 1: $(ratio "$wp" "$w1")x)"
}
$L/clang -O2 -fno-pie -no-pie -Wl,--emit-relocs -o demo "$top/tests/data/progs/demo.c"
python3 "$top/tests/data/preagg/randlbr.py" demo 0 4242 2000 1 "$work/demo" > demo.events
"$T/mkperfdata" --repeat 260 -o demo.data demo.events
echo "demo program: $(du -m demo.data | cut -f1) MB perf.data, $(grep -c '^sample' demo.events)x260 samples"
rm -f demo.events
compare demo demo demo.data
cp "$top/build/large/app" app
"$T/cfgwalk" -D skewed -n "$NSAMPLES" -s 1 -m "$work/app" -o app.events app
"$T/mkperfdata" -o app.data app.events
rm -f app.events
echo "large program (app, 3494 functions): $(du -m app.data | cut -f1) MB perf.data," \
    "$NSAMPLES samples of 32 branches (cfgwalk, skewed)"
compare large app app.data
