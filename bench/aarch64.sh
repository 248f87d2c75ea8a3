#!/bin/sh
# aarch64.sh: profpipe-perf2bolt against perf2bolt-19 with the same
# arguments on the large AArch64 program (tests/large/build-large-a64.sh:
# build/large/objdump-a64, GNU objdump cross-built from Debian's
# binutils-source, about 2350 functions, 1.1 MB of .text) and its BOLTed
# build (objdump-a64.bolt, llvm-bolt-19 --enable-bat, hot and cold
# fragments), both read here on x86-64, with NSAMPLES (default 250,000)
# samples of branch stacks that follow their real control flow
# (tests/tools/cfgwalk, skewed; 24 deep on the BOLTed binary, where
# perf2bolt-19 cuts stacks of 32): fdata, fdata and YAML in one run (-w),
# the BOLTed binary's fdata.  Prints the ratios of wall time and peak
# memory (the driver's whole pipeline: /usr/bin/time reports the largest
# of the processes it waited for) and checks the outputs: fdata equal
# after sorting, YAML equal as data (BOLT's hashes included), on the
# BOLTed binary too (batmap --past-end: tests/large/53-aarch64-large.bats).
set -e
. "$(dirname "$0")/lib.sh"
NSAMPLES=${NSAMPLES:-250000}
make -s -C "$top" all testbins
"$top/tests/large/build-large-a64.sh" "$top/build/large"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$top/build/large/objdump-a64" "$top/build/large/objdump-a64.bolt" .
"$T/cfgwalk" -D skewed -n "$NSAMPLES" -s 1 -m "$work/objdump-a64" -o w.events objdump-a64
"$T/mkperfdata" -a aarch64 -o w.data w.events
"$T/cfgwalk" -D skewed -n "$NSAMPLES" -d 24 -s 2 -m "$work/objdump-a64.bolt" -o b.events \
    objdump-a64.bolt
"$T/mkperfdata" -a aarch64 -o b.data b.events
rm -f w.events b.events
echo "input: $(du -m w.data | cut -f1) MB perf.data of objdump-a64," \
    "$(du -m b.data | cut -f1) MB of objdump-a64.bolt, $NSAMPLES samples each (cfgwalk, skewed)"
cat w.data b.data > /dev/null
P=$B/profpipe-perf2bolt
check() {	# check REF OURS: fdata equal after sorting
	sort "$1" > ref.s
	sort "$2" > ours.s
	if [ -s ref.s ] && cmp -s ref.s ours.s; then
		echo "  fdata: the same $(wc -l < ref.s) lines"
	else
		echo "  fdata: DIFFERENT ($(comm -3 ref.s ours.s | wc -l) lines)"
	fi
}
echo "-p w.data -o x.fdata objdump-a64:"
measure perf2bolt "$(tm 1) $L/perf2bolt -p w.data -o a.fdata objdump-a64 > p2b.log 2>&1"
measure profpipe "$(tm 1) $P -p w.data -o b.fdata objdump-a64"
echo "  $(ratio "$wall_perf2bolt" "$wall_profpipe")x faster," \
    "$(ratio "$rss_perf2bolt" "$rss_profpipe")x less memory ($(nproc) CPUs)"
check a.fdata b.fdata
echo "-p w.data -o x.fdata -w x.yaml objdump-a64:"
measure perf2bolt_w "$(tm 1) $L/perf2bolt -p w.data -o a.fdata -w a.yaml objdump-a64 > p2b.log 2>&1"
measure profpipe_w "$(tm 1) $P -p w.data -o b.fdata -w b.yaml objdump-a64"
echo "  $(ratio "$wall_perf2bolt_w" "$wall_profpipe_w")x faster," \
    "$(ratio "$rss_perf2bolt_w" "$rss_profpipe_w")x less memory"
check a.fdata b.fdata
if python3 "$top/tests/data/yamlwrite/yamlcmp.py" a.yaml b.yaml > ycmp.txt 2>&1; then
	echo "  YAML: the same as data, hashes included ($(tail -1 ycmp.txt))"
else
	echo "  YAML: DIFFERENT: $(head -3 ycmp.txt)"
fi
echo "-p b.data -o x.fdata objdump-a64.bolt (BAT: batmap to objdump-a64):"
measure perf2bolt_bat "$(tm 1) $L/perf2bolt -p b.data -o a.fdata objdump-a64.bolt > p2b.log 2>&1"
measure profpipe_bat "$(tm 1) $P -p b.data -o b.fdata objdump-a64.bolt"
echo "  $(ratio "$wall_perf2bolt_bat" "$wall_profpipe_bat")x faster," \
    "$(ratio "$rss_perf2bolt_bat" "$rss_profpipe_bat")x less memory"
check a.fdata b.fdata
