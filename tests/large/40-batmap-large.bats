#!/usr/bin/env bats
# batmap on the large benchmark program (tests/large/build-large.sh: 3494
# functions, 1.6 MB of .text; app.bolt is its llvm-bolt-19 --enable-bat
# copy with hot/cold splitting, 4760 BAT maps): the tables checked against
# both binaries and re-encoded to the section's bytes, and the
# translation of a branch-stack profile of app.bolt against perf2bolt-19.

load ../common

LARGE="$TOP/build/large"

setup_file() {
	PROFPIPE_TESTBIN="$PROFPIPE_TESTBIN" "$TOP/tests/large/build-large.sh" "$LARGE"
}

setup() {
	setup_tmp
	need_tool perf2bolt llvm-objcopy-19 llvm-objdump-19 python3
	export ASAN_OPTIONS="detect_leaks=0:exitcode=86" UBSAN_OPTIONS="exitcode=86"
}

@test "batmap --dump, large program: every entry against both binaries, the section's very bytes" {
	batmap --dump "$LARGE/app.bolt" > app.dump
	sed -n 3p app.dump
	[ "$(grep -c '^hot ' app.dump)" -ge 2000 ]
	[ "$(grep -c '^cold ' app.dump)" -ge 500 ]
	run python3 "$DATA/batmap/checkdump.py" app.dump "$LARGE/app.bolt" "$LARGE/app" -
	echo "$output"
	[ "$status" -eq 0 ]
	# the maps build-large.sh's llvm-bolt run wrote (4760, its header)
	[ "$(echo "$output" | sed -n 's/^fragments=\([0-9]*\) .*/\1/p')" -eq 4760 ]
	llvm-objcopy-19 --dump-section .note.bolt_bat=app.sec "$LARGE/app.bolt" /dev/null
	python3 "$DATA/batmap/batenc.py" app.dump > app.enc
	same_file app.sec app.enc
}

@test "batmap, large program: taken branches of a profile of app.bolt, the fdata of perf2bolt-19; fall-throughs reported" {
	cp "$LARGE/app.bolt" "$LARGE/app" .
	python3 "$DATA/batmap/lbrgen.py" app.bolt 5000 1 > g.events
	mkperfdata -o g.data g.events
	perfdecode g.data | preagg --legacy -b app.bolt > bolted.pa
	batmap -v app.bolt app bolted.pa > input.pa
	batmap --dump app.bolt > app.dump
	# taken branches: the same fdata, but for lines past the end of an
	# input function
	grep '^B ' bolted.pa > b.pa
	batmap app.bolt app b.pa > bin.pa
	"$LLVM_BIN/perf2bolt" --pa -p b.pa -o a.fdata app.bolt > a.log 2>&1
	"$LLVM_BIN/perf2bolt" --pa -p bin.pa -o b.fdata app > b.log 2>&1
	run python3 "$DATA/batmap/cmpfdata.py" a.fdata b.fdata app.dump app
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | sed -n 's/.* same=\([0-9]*\).*/\1/p')" -ge 50000 ]
	# the whole profile: perf2bolt --pa takes it; the synthetic stacks do
	# not follow the control flow, so the input's graph rejects some
	# fall-throughs BAT credits: report them
	"$LLVM_BIN/perf2bolt" -p g.data -o pa.fdata app.bolt > pa.log 2>&1
	"$LLVM_BIN/perf2bolt" --pa -p input.pa -o pb.fdata app > pb.log 2>&1
	[ "$(grep -c . pb.fdata)" -ge 50000 ]
	python3 "$DATA/batmap/cmpfdata.py" pa.fdata pb.fdata app.dump app 2>/dev/null || true
}
