#!/bin/sh
# bbmap.sh: bbmap --dump against llvm-readobj-19 --bb-addr-map on the
# large program compiled from source with -fbasic-block-address-map, and
# bbmap mapping a large branch-stack profile onto its blocks.
#
# The program: tests/large/build-large-src.sh's objdump-bb (GNU objdump
# from Debian's binutils-source 2.40, every file compiled by clang-19 -O2
# -fbasic-block-address-map, about 2170 functions with a map each, 1 MB of
# .text; built once into build/large, shared with make check-large; 7
# minutes of CPU the first time).  (The other benches' large program,
# tests/large/build-large.sh, is gcc-built libraries under a small clang
# driver: its map would cover the driver only.)
# The profile: NSAMPLES samples of 32-deep branch stacks that follow
# objdump's real control flow (tests/tools/cfgwalk, skewed, seed 1),
# through perfdecode | preagg.  The --dump output is checked equal to
# llvm-readobj's (normalized by tests/data/bbmap/readobj2lines.py).
# Target (issue 16): --dump at least 5x faster than llvm-readobj-19.
set -e
. "$(dirname "$0")/lib.sh"
NSAMPLES=${NSAMPLES:-100000}
make -s -C "$top" all testbins
PROFPIPE_TESTBIN=$T "$top/tests/large/build-large-src.sh" "$top/build/large"
# cpu CMD: CPU time (user + system) of CMD in ms, the mean of $REPS runs,
# which a loaded shared machine disturbs less than wall time
# pwall CMD ARG...: the mean wall time of CMD in ms over 5 x $REPS runs,
# its output to /dev/null
pwall() {
	perf stat -r "$((5 * REPS))" -e task-clock -o "$work/pstat" "$@" > /dev/null
	awk '/seconds time elapsed/ { printf "%.1f", $1 * 1000 }' "$work/pstat"
}
cpu() {
	perf stat -x, -e task-clock -r "$REPS" sh -c "$1" 2>&1 >/dev/null |
	    awk -F, '/task-clock/ { printf "%.1f", $1 }'
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$top/build/large/objdump-bb" app
$B/bbmap --dump app > b.txt
secsize() {	# secsize NAME: the size of section NAME of app, decimal
	echo $((0x$($L/llvm-readelf -S -W app | awk -v n="$1" '$2 == n { print $6 }')))
}
echo "input: objdump-bb (binutils 2.40, clang-19 -O2 -fbasic-block-address-map):" \
    "$(grep -c '^function' b.txt) functions, $(grep -c '^block' b.txt) blocks," \
    ".text $(secsize .text) bytes, .llvm_bb_addr_map $(secsize .llvm_bb_addr_map) bytes"
cat app > /dev/null
measure llvm_readobj "$(tm 1) $L/llvm-readobj --bb-addr-map app > r.txt"
measure bbmap_dump "$(tm 1) $B/bbmap --dump app > b.txt"
awk '/^#/ { next }
    $1 == "function" { print $1, $2, $6; next }
    $1 == "range" { print $1, $2; next }
    $1 == "block" && $6 == "-" { s = $1; for (i = 2; i <= NF; i++) if (i != 6) s = s " " $i; print s; next }
    { print }' b.txt > b.red
python3 "$top/tests/data/bbmap/readobj2lines.py" < r.txt > r.red
if [ -s r.red ] && cmp -s b.red r.red; then
	echo "  --dump = llvm-readobj --bb-addr-map ($(wc -l < r.red) lines)"
else
	echo "  --dump and llvm-readobj DIFFER ($(wc -l < b.red) and $(wc -l < r.red) lines)"
fi
c_ro=$(cpu "$L/llvm-readobj --bb-addr-map app > /dev/null")
c_bb=$(cpu "$B/bbmap --dump app > /dev/null")
echo "  CPU time: llvm-readobj $c_ro ms, bbmap --dump $c_bb ms"
# the wall time of such short runs, measured above through sh and
# /usr/bin/time, carries their start-up too; perf stat runs each tool
# itself, 5 x REPS times, and reports the mean
w_ro=$(pwall "$L/llvm-readobj" --bb-addr-map app)
w_bb=$(pwall "$B/bbmap" --dump app)
echo "  wall time (perf stat, mean of $((5 * REPS))): llvm-readobj $w_ro ms, bbmap --dump $w_bb ms"
echo "  --dump: $(ratio "$w_ro" "$w_bb")x faster (wall, perf stat)," \
    "$(ratio "$wall_llvm_readobj" "$wall_bbmap_dump")x (wall, through sh and time)," \
    "$(ratio "$c_ro" "$c_bb")x less CPU time," \
    "$(ratio "$rss_llvm_readobj" "$rss_bbmap_dump")x less memory than llvm-readobj-19 (target 5x faster)"
"$T/cfgwalk" -D skewed -n "$NSAMPLES" -s 1 -m "$work/app" -o p.events app
"$T/mkperfdata" -o p.data p.events
rm -f p.events
$B/perfdecode p.data | $B/preagg -b app > app.preagg
echo "profile: $NSAMPLES samples of 32 branches, $(wc -l < app.preagg) pre-aggregated lines"
measure bbmap_map "$(tm 1) $B/bbmap -q app app.preagg > app.bb"
echo "  CPU time: $(cpu "$B/bbmap -q app app.preagg > /dev/null") ms"
$B/bbmap app app.preagg 2>&1 > /dev/null | sed 's/^/  /'
echo "  mapping: $(grep -c '^func' app.bb) functions, $(grep -c '^block' app.bb) blocks," \
    "$(grep -c '^edge' app.bb) edges (no reference tool: Propeller's create_llvm_prof is not packaged)"
