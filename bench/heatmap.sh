#!/bin/sh
# heatmap.sh: heatmap against llvm-bolt-heatmap-22 on the large program
# (tests/large/build-large.sh: Debian's libsqlite3.a and libzstd.a under
# our driver, 3494 functions, 1.6 MB of .text) with NSAMPLES (default
# 250,000) samples of 32-deep branch stacks that follow its control flow
# (tests/tools/cfgwalk, skewed), and on a mid-size recording: a real
# `perf record -e cpu-clock` of the same program (basic samples, about
# ten thousand).  One run of each side per REPS (default 1 here): the
# five files from the recording (llvm-bolt-heatmap-22 -p perf.data,
# which runs perf script itself, against perfdecode | preagg --heatmap |
# heatmap), then heatmap alone against llvm-bolt-heatmap-22 --pa on the
# same pre-aggregated file, and --density against perf2bolt-22
# --show-density; checks that the files are the same bytes.  Target
# (issue 35): 10x faster, a tenth of llvm-bolt-heatmap's peak memory.
set -e
REPS=${REPS:-1}
. "$(dirname "$0")/lib.sh"
NSAMPLES=${NSAMPLES:-250000}
L22=/usr/lib/llvm-22/bin
large_work
cp "$top/build/large/app" app
walk_data app
echo "input (${DIST:-skewed}): $(du -m w.data | cut -f1) MB perf.data, $NSAMPLES samples" \
    "of 32 branches, app ($(wc -c < app) bytes)"
perf record -q -e cpu-clock -F 4000 -o c.data ./app 12 > /dev/null 2>&1
echo "mid-size: a cpu-clock recording of app 12, $(du -k c.data | cut -f1) kB perf.data"
cat w.data c.data app > /dev/null

same5() {	# same5 A B: the five files of prefixes A and B
	for f in "" .csv -section-hotness.csv -4096 -262144; do
		[ -s "$1$f" ] && cmp -s "$1$f" "$2$f" || { echo DIFFERENT; return 0; }
	done
	echo "the same bytes"
}

echo "branch stacks, perf.data to the five files:"
measure ref "$(tm 1) $L22/llvm-bolt-heatmap app -p w.data -o R > ref.log 2>&1"
measure pipeline "$(tm 1) $B/perfdecode w.data | $(tm 2) $B/preagg --llvm=22 --heatmap -b app | $(tm 3) $B/heatmap -o O app"
echo "  end to end: $(ratio "$wall_ref" "$wall_pipeline")x faster," \
    "$(ratio "$cpu_ref" "$cpu_pipeline")x less CPU," \
    "$(ratio "$rss_ref" "$rss_pipeline")x less memory; files: $(same5 R O)"
"$B/perfdecode" w.data | "$B/preagg" --llvm=22 --heatmap -b app > w.pa
echo "branch stacks, the pre-aggregated file ($(du -k w.pa | cut -f1) kB) to the five files:"
measure ref_pa "$(tm 1) $L22/llvm-bolt-heatmap app --pa -p w.pa -o Q > refpa.log 2>&1"
measure heatmap "$(tm 1) $B/heatmap -o P app w.pa"
echo "  heatmap alone: $(ratio "$wall_ref_pa" "$wall_heatmap")x faster," \
    "$(ratio "$cpu_ref_pa" "$cpu_heatmap")x less CPU," \
    "$(ratio "$rss_ref_pa" "$rss_heatmap")x less memory (target 10x, 10x;" \
    "$(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)); files: $(same5 Q P)"
echo "  against llvm-bolt-heatmap-22 -p perf.data: $(ratio "$wall_ref" "$wall_heatmap")x faster," \
    "$(ratio "$rss_ref" "$rss_heatmap")x less memory"
measure density_ref "$(tm 1) $L22/perf2bolt app --pa -p w.pa -o x.fdata --show-density > d.log 2>&1"
measure density "$(tm 1) $B/heatmap --density app w.pa > d.ours"
grep -E 'density >=|more samples|profile is empty' d.log > d.ref || true
echo "  --density: $(ratio "$wall_density_ref" "$wall_density")x faster than perf2bolt-22 --pa," \
    "$(ratio "$rss_density_ref" "$rss_density")x less memory;" \
    "$(cmp -s d.ref d.ours && [ -s d.ref ] && echo "the same lines: $(tail -1 d.ours)" || echo DIFFERENT)"

echo "basic samples (mid-size), perf.data to the five files:"
measure ref_c "$(tm 1) $L22/llvm-bolt-heatmap app -p c.data --basic-events -o RC > refc.log 2>&1"
measure pipeline_c "$(tm 1) $B/perfdecode c.data | $(tm 2) $B/preagg --llvm=22 --heatmap --basic -b app | $(tm 3) $B/heatmap -o OC app"
echo "  end to end: $(ratio "$wall_ref_c" "$wall_pipeline_c")x faster," \
    "$(ratio "$rss_ref_c" "$rss_pipeline_c")x less memory; files: $(same5 RC OC)"
"$B/perfdecode" c.data | "$B/preagg" --llvm=22 --heatmap --basic -b app > c.pa
measure ref_cpa "$(tm 1) $L22/llvm-bolt-heatmap app --pa -p c.pa --basic-events -o QC > refcpa.log 2>&1"
measure heatmap_c "$(tm 1) $B/heatmap -o PC app c.pa"
echo "  heatmap alone: $(ratio "$wall_ref_cpa" "$wall_heatmap_c")x faster," \
    "$(ratio "$rss_ref_cpa" "$rss_heatmap_c")x less memory; files: $(same5 QC PC)"
measure svg "$(tm 1) $B/heatmap -s w.svg app w.pa"
echo "  --svg of the branch-stack profile: $(du -k w.svg | cut -f1) kB"
