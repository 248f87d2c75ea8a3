#!/bin/sh
# perf2bolt.sh: profpipe-perf2bolt against perf2bolt-19 with the same
# arguments, on the large benchmark program (tests/large/build-large.sh:
# build/large/app, 3494 functions, 1.6 MB of .text) and its BOLTed build
# (app.bolt, llvm-bolt-19 --enable-bat), with NSAMPLES (default 250,000)
# samples of 32-deep branch stacks that follow their real control flow
# (tests/tools/cfgwalk, skewed): fdata, fdata and YAML in one run (-w),
# and the BOLTed binary's fdata.  Prints the ratios of wall time and
# peak memory (the driver's whole pipeline: /usr/bin/time reports the
# largest of the processes it waited for), and checks that the fdata are
# equal after sorting and the YAML equal as data (hashes aside).
set -e
. "$(dirname "$0")/lib.sh"
NSAMPLES=${NSAMPLES:-250000}
large_work
cp "$top/build/large/app" "$top/build/large/app.bolt" .
"$T/cfgwalk" -D skewed -n "$NSAMPLES" -s 1 -m "$work/app" -o w.events app
"$T/mkperfdata" -o w.data w.events
"$T/cfgwalk" -D skewed -n "$NSAMPLES" -d 24 -s 2 -m "$work/app.bolt" -o b.events app.bolt
"$T/mkperfdata" -o b.data b.events
rm -f w.events b.events
echo "input: $(du -m w.data | cut -f1) MB perf.data of app, $(du -m b.data | cut -f1) MB of app.bolt," \
    "$NSAMPLES samples each (cfgwalk, skewed)"
cat w.data b.data > /dev/null
P=$B/profpipe-perf2bolt
check() {	# check REF OURS: fdata equal after sorting
	# (but for the code BOLT left at moved functions' old addresses,
	# which perf2bolt names __BOLT_FDE_FUNCat... and batmap, which has
	# only the input binary, writes as the unknown location 0)
	stubs=$(grep -c '__BOLT_FDE_FUNCat' "$1" || true)
	sed 's/1 __BOLT_FDE_FUNCat[0-9a-f]* [0-9a-f]*/0 [unknown] 0/g' "$1" | sort > ref.s
	sort "$2" > ours.s
	if [ -s ref.s ] && cmp -s ref.s ours.s; then
		echo "  fdata: the same $(wc -l < ref.s) lines" \
		    "($stubs naming BOLT's stubs at old addresses: [unknown] 0 here)"
	else
		echo "  fdata: DIFFERENT ($(comm -3 ref.s ours.s | wc -l) lines)"
	fi
}
echo "-p w.data -o x.fdata app:"
measure perf2bolt "$(tm 1) $L/perf2bolt -p w.data -o a.fdata app > p2b.log 2>&1"
measure profpipe "$(tm 1) $P -p w.data -o b.fdata app"
echo "  $(ratio "$wall_perf2bolt" "$wall_profpipe")x faster," \
    "$(ratio "$rss_perf2bolt" "$rss_profpipe")x less memory ($(nproc) CPUs)"
check a.fdata b.fdata
echo "-p w.data -o x.fdata -w x.yaml app:"
measure perf2bolt_w "$(tm 1) $L/perf2bolt -p w.data -o a.fdata -w a.yaml app > p2b.log 2>&1"
measure profpipe_w "$(tm 1) $P -p w.data -o b.fdata -w b.yaml app"
echo "  $(ratio "$wall_perf2bolt_w" "$wall_profpipe_w")x faster," \
    "$(ratio "$rss_perf2bolt_w" "$rss_profpipe_w")x less memory"
check a.fdata b.fdata
if python3 "$top/tests/data/yamlwrite/yamlcmp.py" a.yaml b.yaml 2> ycmp.txt; then
	echo "  YAML: the same as data, hashes aside ($(head -1 ycmp.txt))"
else
	echo "  YAML: DIFFERENT: $(head -3 ycmp.txt)"
fi
echo "-p b.data -o x.fdata app.bolt (BAT: batmap to app):"
measure perf2bolt_bat "$(tm 1) $L/perf2bolt -p b.data -o a.fdata app.bolt > p2b.log 2>&1"
measure profpipe_bat "$(tm 1) $P -p b.data -o b.fdata app.bolt"
echo "  $(ratio "$wall_perf2bolt_bat" "$wall_profpipe_bat")x faster," \
    "$(ratio "$rss_perf2bolt_bat" "$rss_profpipe_bat")x less memory"
check a.fdata b.fdata
