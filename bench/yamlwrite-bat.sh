#!/bin/sh
# yamlwrite-bat.sh: the YAML profile of the BOLTed large program
# (tests/large/build-large.sh: app.bolt, llvm-bolt-19 --enable-bat of 3494
# functions, about 4800 BAT maps) for its input, two ways on the same
# perf.data: perf2bolt-19 -p --profile-format=yaml on app.bolt
# (writeBATYAML), and perfdecode | preagg -b app.bolt | batmap app.bolt
# app | yamlwrite --bat app.bolt app.  NSAMPLES branch stacks of 24
# entries along app.bolt's control flow (tests/tools/cfgwalk, skewed).
# The two YAMLs are compared as data (tests/data/yamlwrite-bat/
# cmpyaml.py: the functions without tables in every field but the
# hashes, counted as gblocks, gsucc, gcalls).  One run of each side per REPS.  Targets (issue 17): 10x
# faster, a fifth of perf2bolt's peak memory.
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
measure perf2bolt "$(tm 1) $L/perf2bolt -p g.data --profile-format=yaml -o ref.yaml app.bolt > p2b.log 2>&1"
measure pipeline "$(tm 1) $B/perfdecode g.data | $(tm 2) $B/preagg -b app.bolt | $(tm 3) $B/batmap app.bolt app | $(tm 4) $B/yamlwrite --bat app.bolt -o ours.yaml app"
$B/perfdecode g.data | $B/preagg -b app.bolt | $B/batmap app.bolt app > input.pa
measure yamlwrite_alone "$(tm 1) $B/yamlwrite --bat app.bolt app input.pa > /dev/null"
$B/batmap --dump app.bolt > app.dump
llvm-readelf-19 -sW app.bolt > app.syms
echo "  yaml: $(python3 "$top/tests/data/yamlwrite-bat/cmpyaml.py" ours.yaml ref.yaml --nobat app.syms app.dump 2>&1 | tail -1)"
echo "  pipeline: $(ratio "$wall_perf2bolt" "$wall_pipeline")x faster," \
    "$(ratio "$rss_perf2bolt" "$rss_pipeline")x less memory (target 10x, 5x; $(nproc) CPUs)"
