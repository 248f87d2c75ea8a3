#!/bin/sh
# fdatawrite-llvm.sh: perf.data -> fdata (perfdecode | preagg |
# fdatawrite) against perf2bolt-19 -p on a program of about 29 MB of
# .text and 50,000 functions: LLVM 19's optimizer under a small driver
# (bench/llvmopt.cpp) linked statically, non-PIE, with --emit-relocs,
# from Debian's llvm-19-dev archives (built once into build/bench), with
# NSAMPLES (default 250,000) 32-deep branch stacks that follow its
# control flow (tests/tools/cfgwalk), skewed.  Prints the ratios of wall
# time and peak memory (targets, issue 29: 15x faster, a twentieth of the
# memory), checks that the fdata are equal, then fdatawrite's time and
# memory on profiles that touch 10, 100, 1000, 10000 and all of the functions
# (the entries of the full profile whose addresses all lie in the first N
# functions it touches): its fixed cost follows the profile.
set -e
. "$(dirname "$0")/lib.sh"
NSAMPLES=${NSAMPLES:-250000}
make -s -C "$top" all testbins
bdir=$top/build/bench
mkdir -p "$bdir"
LL=/usr/lib/llvm-19
# the program is built again when its source or the way it is built
# changes (not when what the benchmark prints does)
cxx() {
	"$LL/bin/clang++" -O2 $("$LL/bin/llvm-config" --cxxflags) -fno-pie \
	    -c -o "$bdir/llvmopt.o" "$top/bench/llvmopt.cpp"
	"$LL/bin/clang++" -fno-pie -no-pie -Wl,--emit-relocs \
	    -o "$bdir/llvmopt" "$bdir/llvmopt.o" -L"$LL/lib" \
	    $("$LL/bin/llvm-config" --link-static --libs passes irreader) \
	    -lz3 -lrt -ldl -lm -lz -lzstd -lxml2 -ltinfo -lpthread
}
stamp=$(sed -n '/^cxx() {/,/^}/p' "$0" | cat - "$top/bench/llvmopt.cpp" |
    sha256sum | cut -c1-64)
if [ ! -x "$bdir/llvmopt" ] || [ "$(cat "$bdir/llvmopt.stamp" 2>/dev/null)" != "$stamp" ]; then
	cxx
	echo "$stamp" > "$bdir/llvmopt.stamp"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$bdir/llvmopt" app
echo "program: $(size app | awk 'NR == 2 { print $1 }') bytes of .text," \
    "$(readelf -sW app | awk '$4 == "FUNC"' | wc -l) function symbols"
"$T/cfgwalk" -D skewed -n "$NSAMPLES" -s 1 -m "$work/app" -o w.events app
"$T/mkperfdata" -o w.data w.events
rm -f w.events
"$B/perfdecode" w.data | "$B/preagg" -b app > all.pa
echo "input: $(du -m w.data | cut -f1) MB perf.data, $NSAMPLES samples" \
    "of 32 branches; $(wc -l < all.pa) pre-aggregated entries"
cat w.data app > /dev/null
echo "perf.data to fdata:"
measure perf2bolt_p "$(tm 1) $L/perf2bolt -p w.data -o a.fdata app > p2b.log 2>&1"
measure pipeline "$(tm 1) $B/perfdecode w.data | $(tm 2) $B/preagg -b app | $(tm 3) $B/fdatawrite -o b.fdata app"
echo "  end to end: $(ratio "$wall_perf2bolt_p" "$wall_pipeline")x faster," \
    "$(ratio "$rss_perf2bolt_p" "$rss_pipeline")x less memory (target 15x, 20x; $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"
echo "  CPU time (user + system, all processes): perf2bolt-19 $cpu_perf2bolt_p s," \
    "the pipeline $cpu_pipeline s: $(ratio "$cpu_perf2bolt_p" "$cpu_pipeline")x less"
sort a.fdata > a.sorted
sort b.fdata > b.sorted
if [ -s a.sorted ] && cmp -s a.sorted b.sorted; then
	echo "  fdata: equal ($(wc -l < a.sorted) lines)"
else
	echo "  fdata: DIFFERENT: $(comm -3 a.sorted b.sorted | wc -l) lines differ"
fi
echo "fdatawrite alone, by the functions the profile touches:"
readelf -sW app | awk '$4 == "FUNC" && $2 !~ /^0+$/ { print $2 }' | sort -u > starts
for n in 10 100 1000 10000 all; do
	if [ "$n" = all ]; then
		cp all.pa sub.pa
	else
		python3 - "$n" starts all.pa > sub.pa <<'PY'
import bisect, sys
n = int(sys.argv[1])
starts = [int(l, 16) for l in open(sys.argv[2])]
def func(a):
    return starts[bisect.bisect_right(starts, a) - 1] if a >= starts[0] else None
lines = []
touched = set()
for l in open(sys.argv[3]):
    t = l.split()
    fs = set()
    nloc = {'S': 1, 'T': 3, 'R': 3}.get(t[0], 2)
    for x in t[1:1 + nloc]:
        if ':' in x or x.startswith('-') or x == 'ffffffffffffffff':
            continue
        f = func(int(x, 16))
        if f is not None:
            fs.add(f)
    lines.append((l, fs))
    touched |= fs
keep = set(sorted(touched)[:n])
for l, fs in lines:
    if fs and fs <= keep:
        sys.stdout.write(l)
PY
	fi
	REPS=${REPS:-3} measure "fdatawrite_$n" "$(tm 1) $B/fdatawrite -v -o c.fdata app sub.pa 2> v.log"
	echo "    $(wc -l < sub.pa) entries; $(sed -n 's/.*graphs built: \([0-9]*\) simple, \([0-9]*\) non-simple.*/\1 + \2 graphs built/p' v.log)"
done
