#!/bin/sh
# yamlwrite.sh: the whole pipeline perf.data -> YAML profile
# (perfdecode | preagg | yamlwrite) against
# perf2bolt-19 -p --profile-format=yaml, and yamlwrite alone against
# perf2bolt-19 --pa --profile-format=yaml on the same pre-aggregated
# input, on two programs: the bundled example (tests/data/progs/demo.c,
# as scripts/demo builds it) and the large benchmark program
# (tests/large/build-large.sh: about 3500 functions, 1.6 MB of .text), with
# NSAMPLES (default 250,000) samples of 32-deep branch stacks that follow
# their real control flow (tests/tools/cfgwalk), skewed.  One run of each
# side per REPS.  Also checks that the YAML profiles are equal as data
# (tests/data/yamlwrite/yamlcmp.py, every function and block hash
# included: yamlwrite starts LLVM 19's MC layer for them, and that
# start-up is in its time).  Targets (issues 17 and 25): 10x faster, at
# most a fifth of perf2bolt's peak memory.
set -e
. "$(dirname "$0")/lib.sh"
NSAMPLES=${NSAMPLES:-250000}
large_work
clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs -o demo "$top/tests/data/progs/demo.c"
cp "$top/build/large/app" app
dist=${DIST:-skewed}
for prog in demo app; do
	"$T/cfgwalk" -D "$dist" -n "$NSAMPLES" -s 1 -m "$work/$prog" -o w.events $prog
	"$T/mkperfdata" -o $prog.data w.events
	rm -f w.events
	"$B/perfdecode" $prog.data | "$B/preagg" --legacy -b $prog > $prog.legacy.pa
	"$B/perfdecode" $prog.data | "$B/preagg" -b $prog > $prog.pa
	echo "$prog ($dist): $(du -m $prog.data | cut -f1) MB perf.data, $NSAMPLES" \
	    "samples of 32 branches; $(wc -l < $prog.pa) pre-aggregated entries"
	cat $prog.data $prog.pa $prog.legacy.pa > /dev/null
	echo " perf.data to YAML:"
	measure p2b_$prog "$(tm 1) $L/perf2bolt -p $prog.data --profile-format=yaml -o $prog.a.yaml $prog > p2b.log 2>&1"
	measure pipe_$prog "$(tm 1) $B/perfdecode $prog.data | $(tm 2) $B/preagg -b $prog | $(tm 3) $B/yamlwrite -o $prog.b.yaml $prog"
	eval "w1=\$wall_p2b_$prog w2=\$wall_pipe_$prog r1=\$rss_p2b_$prog r2=\$rss_pipe_$prog"
	echo "  end to end: $(ratio "$w1" "$w2")x faster," \
	    "$(ratio "$r1" "$r2")x less memory (target 10x, 5x; $(nproc) CPUs)"
	# the same, the two in turn (perf2bolt, pipeline, perf2bolt, ...)
	in_turn "$L/perf2bolt -p $prog.data --profile-format=yaml -o $prog.a.yaml $prog > p2b.log 2>&1" \
	    "$B/perfdecode $prog.data | $B/preagg -b $prog | $B/yamlwrite -o $prog.b.yaml $prog"
	echo " pre-aggregated to YAML:"
	measure p2bpa_$prog "$(tm 1) $L/perf2bolt --pa -p $prog.legacy.pa --profile-format=yaml -o $prog.c.yaml $prog > pa.log 2>&1"
	measure yw_$prog "$(tm 1) $B/yamlwrite -o $prog.d.yaml $prog $prog.pa"
	eval "w1=\$wall_p2bpa_$prog w2=\$wall_yw_$prog r1=\$rss_p2bpa_$prog r2=\$rss_yw_$prog"
	echo "  yamlwrite alone: $(ratio "$w1" "$w2")x faster," \
	    "$(ratio "$r1" "$r2")x less memory"
	ok=yes
	for f in b c d; do
		python3 "$top/tests/data/yamlwrite/yamlcmp.py" $prog.a.yaml \
		    $prog.$f.yaml 2> cmp.$f.log || ok=no
	done
	if [ $ok = yes ]; then
		echo "  YAML: all four equal as data ($(head -1 cmp.b.log))"
	else
		echo "  YAML: DIFFERENT:"; head -5 cmp.b.log cmp.c.log cmp.d.log
	fi
done
