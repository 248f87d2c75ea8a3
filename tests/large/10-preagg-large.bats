#!/usr/bin/env bats
# perfdecode | preagg against perf2bolt-19 on the large benchmark program
# (tests/large/build-large.sh: 3494 functions, 1.6 MB of .text, built once
# into build/large): branch-stack perf.data files that follow the
# program's real control flow (tests/tools/cfgwalk), uniform and skewed,
# for the fixed-address and the position-independent build, and a real
# `perf record -e cpu-clock` of its workload.

load ../common

LARGE="$TOP/build/large"

setup_file() {
	PROFPIPE_TESTBIN="$PROFPIPE_TESTBIN" "$TOP/tests/large/build-large.sh" "$LARGE"
}

setup() {
	setup_tmp
	need_tool perf perf2bolt
}

# perf2bolt's count of traces that do not follow the disassembled code,
# as a percentage with one decimal, from its log
mismatch_pct() {
	sed -n 's/^PERF2BOLT: traces mismatching disassembled function contents: [0-9]* (\([0-9.]*\)%)$/\1/p' "$1"
}

# walk DIST BINARY BIAS N SEED: perf.data of N cfgwalk samples of BINARY
# (copied here, mapped at its own path) and both pipeline outputs
walk() {
	cp "$LARGE/$2" "$2"
	cfgwalk -D "$1" -b "$3" -n "$4" -s "$5" -m "$PWD/$2" -o w.events "$2"
	mkperfdata -o perf.data w.events
	perfdecode perf.data | preagg --legacy -b "$2" > legacy.pa
	perfdecode perf.data | preagg -b "$2" > current.pa
	"$LLVM_BIN/perf2bolt" -p perf.data -o want.fdata "$2" > p2b.log 2>&1
	"$LLVM_BIN/perf2bolt" --pa -p legacy.pa -o got.fdata "$2" > pa.log 2>&1
	sort want.fdata > want.sorted
	sort got.fdata > got.sorted
}

# the pipeline's fdata equals perf2bolt's, with at least MIN lines of
# which at least MINF stay in one function (branches and fall-throughs),
# and cfgwalk's traces are valid (under 5% mismatching)
check_walk() {
	local pct
	pct=$(mismatch_pct p2b.log)
	echo "mismatching traces: ${pct}%"
	[ -n "$pct" ]
	[ "$(echo "$pct < 5" | bc)" = 1 ]
	same_file want.sorted got.sorted
	echo "fdata lines: $(wc -l < want.sorted)"
	[ "$(wc -l < want.sorted)" -ge "$1" ]
	# lines from and to one function, not to its entry
	[ "$(awk '$1 == 1 && $4 == 1 && $2 == $5 && $6 != 0' want.sorted | wc -l)" -ge "$2" ]
	# the current format holds the same branches: every B of the legacy
	# output is a T, R or B source/target pair there
	[ "$(grep -c '^[TRB] ' current.pa)" -ge "$(grep -c '^B ' legacy.pa)" ]
}

@test "large: uniform walks, fixed-address build: fdata equals perf2bolt -p" {
	walk uniform app 0 20000 1
	check_walk 40000 20000
}

@test "large: skewed walks, fixed-address build: fdata equals perf2bolt -p" {
	walk skewed app 0 20000 2
	check_walk 10000 5000
}

@test "large: skewed walks, PIE loaded at 0x555555554000: fdata equals perf2bolt -p" {
	walk skewed app-pie 555555554000 20000 3
	check_walk 10000 5000
}

@test "large: S entries equal perf script's samples for a real cpu-clock recording" {
	cp "$LARGE/app" app
	perf record -q -N -e cpu-clock -o perf.data ./app 8 > out
	grep -q '^sqlwork 8 rounds: ' out
	perf script -i perf.data -F ip,dso 2>/dev/null |
	    awk '$2 == "('"$PWD"'/app)" { print $1 }' | sort | uniq -c |
	    awk '{ print $2, $1 }' | sort > want
	perfdecode perf.data | preagg -b app > got.pa
	grep '^E ' got.pa
	awk '$1 == "S" { print $2, $3 }' got.pa | sort > got
	echo "distinct sampled addresses: $(wc -l < want)"
	[ "$(wc -l < want)" -ge 100 ]
	same_file want got
}

@test "large: the BOLTed copy runs the workload as the input binary does" {
	"$LARGE/app.bolt" 1 > out
	same_file "$LARGE/expected" out
	"$LLVM_BIN/llvm-readelf" -S "$LARGE/app.bolt" | grep -q '\.note\.bolt_bat'
}
