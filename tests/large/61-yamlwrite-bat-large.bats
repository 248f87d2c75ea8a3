#!/usr/bin/env bats
# yamlwrite --bat on the large benchmark program (tests/large/build-large.sh:
# app.bolt is its llvm-bolt-19 --enable-bat copy with hot/cold splitting,
# about 4800 BAT maps, functions without a profile left in place): a profile of
# app.bolt along its real control flow, through
# perfdecode | preagg -b | batmap | yamlwrite --bat, against perf2bolt-19
# --profile-format=yaml on app.bolt, compared as data
# (tests/data/yamlwrite-bat/cmpyaml.py: the functions without tables in
# every field, their hashes made from LLVM 19's MC layer included), and
# llvm-bolt-19 optimizing app with both YAMLs.

load ../common

LARGE="$TOP/build/large"

setup_file() {
	PROFPIPE_TESTBIN="$PROFPIPE_TESTBIN" "$TOP/tests/large/build-large.sh" "$LARGE"
}

setup() {
	setup_tmp
	need_tool perf2bolt llvm-bolt-19 llvm-readelf-19 python3
	export ASAN_OPTIONS="detect_leaks=0:exitcode=86" UBSAN_OPTIONS="exitcode=86"
}

@test "yamlwrite --bat, large program: perf2bolt-19's YAML of a profile of app.bolt; llvm-bolt-19 finds stale what it finds stale with perf2bolt's and functions without tables" {
	cp "$LARGE/app.bolt" "$LARGE/app" .
	cfgwalk -n 20000 -D skewed -s 1 -o c.events app.bolt
	mkperfdata -o c.data c.events
	"$LLVM_BIN/perf2bolt" -p c.data --profile-format=yaml -o ref.yaml app.bolt > p.log 2>&1
	perfdecode c.data | preagg -b app.bolt | batmap app.bolt app |
	    yamlwrite -v --bat app.bolt -o ours.yaml app
	batmap --dump app.bolt > app.dump
	llvm-readelf-19 -sW app.bolt > app.syms
	llvm-readelf-19 -sW app > in.syms
	run python3 "$DATA/yamlwrite-bat/cmpyaml.py" ours.yaml ref.yaml --nobat app.syms app.dump \
	    --input in.syms --nobatcfg-list nobatcfg.txt
	echo "$output"
	[ "$status" -eq 0 ]
	r=$(echo "$output" | tail -1)
	n() { echo "$r" | sed -n "s/.*\\<$1=\\([0-9]*\\).*/\\1/p"; }
	[ "$(n functions)" -ge 2000 ] && [ "$(n blocks)" -ge 50000 ]
	[ "$(n succ)" -ge 10000 ] && [ "$(n calls)" -ge 5000 ]
	# code BOLT left in place, on the graphs of the BOLTed binary: every
	# field, the hashes included
	[ "$(n nobatcfg)" -ge 100 ] && [ "$(n gblocks)" -ge 1000 ]
	[ "$(n gsucc)" -ge 1000 ] && [ "$(n gcalls)" -ge 300 ]
	# llvm-bolt-19 optimizing the input binary: the same functions have
	# a profile, and it finds stale with ours the functions it finds
	# stale with perf2bolt's
	for y in ref ours; do
		"$LLVM_BIN/llvm-bolt" app -data $y.yaml -o $y.out -report-stale \
		    -reorder-blocks=ext-tsp -split-functions > $y.log 2>&1
		grep 'have non-empty execution profile' $y.log > $y.prof
		sed -n '/Functions with stale profile:/,/^BOLT/p' $y.log |
		    sed -n 's/^  //p' > $y.stale
		cat $y.prof
	done
	[ -s ref.prof ]
	same_file ref.prof ours.prof
	run python3 "$DATA/yamlwrite-bat/stale.py" ref.stale ours.stale nobatcfg.txt
	echo "$output"
	[ "$status" -eq 0 ]
	# the hashes of code BOLT left in place are perf2bolt's too: the very
	# same functions stale
	same_file ref.stale ours.stale
	# and the program optimized with ours runs as before
	./ours.out 1 > got.txt
	same_file "$LARGE/expected" got.txt
}
