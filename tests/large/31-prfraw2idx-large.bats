#!/usr/bin/env bats
# prfraw2idx on the large program: GNU objdump from Debian's
# binutils-source built by clang-19 -O2 -fprofile-generate and the 200 raw
# profiles of its workload (tests/large/build-large-prof.sh, built once
# into build/large): the indexed profile byte for byte as llvm-profdata-19
# merge --num-threads=1 writes it, the same `show`, and clang-19
# -fprofile-use on some of binutils' own source files with it gives the
# IR and the warnings llvm-profdata's profile gives.

load ../common

LARGE="$TOP/build/large"
RAW="$TOP/build/large/objdump-prof.raw"

setup_file() {
	"$TOP/tests/large/build-large-prof.sh" "$LARGE"
	# the two merges the tests compare, once
	local d="$BATS_FILE_TMPDIR"
	prfraw2idx -o "$d/ours.profdata" "$RAW"
	prfraw2idx -j 1 -o "$d/ours1.profdata" "$RAW"
	/usr/lib/llvm-19/bin/llvm-profdata merge --num-threads=1 -o "$d/ref.profdata" "$RAW"
}

setup() {
	setup_tmp
	need_tool llvm-profdata-19 clang-19
	P="$BATS_FILE_TMPDIR"
}

@test "large-prof: objdump-prof has 2000 instrumented functions, 1 MB of code, 200 raw profiles" {
	local nfunc text nraw
	nraw=$(ls "$RAW" | grep -c '\.profraw$')
	nfunc=$("$LLVM_BIN/llvm-profdata" show "$P/ref.profdata" | sed -n 's/^Total functions: //p')
	text=$(size -A "$LARGE/objdump-prof" | awk '$1 == ".text" { print $2 }')
	echo "raw profiles $nraw, functions $nfunc, .text $text bytes"
	[ "$nraw" -ge 200 ]
	[ "$nfunc" -ge 2000 ]
	[ "$text" -ge 1000000 ]
}

@test "large-prof: the indexed profile is llvm-profdata-19 merge --num-threads=1's, byte for byte" {
	[ -s "$P/ref.profdata" ]
	same_file "$P/ref.profdata" "$P/ours1.profdata"
	same_file "$P/ref.profdata" "$P/ours.profdata"
}

@test "large-prof: llvm-profdata-19 show --all-functions --counts agrees" {
	"$LLVM_BIN/llvm-profdata" show --all-functions --counts --ic-targets \
	    --memop-sizes "$P/ref.profdata" > ref.txt
	"$LLVM_BIN/llvm-profdata" show --all-functions --counts --ic-targets \
	    --memop-sizes "$P/ours.profdata" > ours.txt
	# not two empty listings: the functions and their counts are there
	[ "$(grep -c 'Block counts: \[.*[1-9]' ref.txt)" -ge 200 ]
	grep -q 'Total number of sites with values: [1-9]' ref.txt
	same_file ref.txt ours.txt
}

@test "large-prof: clang-19 -fprofile-use on binutils sources: the same IR and warnings" {
	local d cmd n=0 f
	mkdir kit
	tar xf "$LARGE/objdump-prof.kit.tar" -C kit
	[ -s kit/b/objdump-prof.cmds ]
	while read -r d cmd; do
		n=$((n + 1))
		for f in ours ref; do
			# the file's own compiler command, profile used for
			# generated, every profile warning on
			(cd "kit/b/$d" && eval "${cmd/-fprofile-generate/-fprofile-use=$P/$f.profdata}" \
			    -Wprofile-instr-unprofiled -Wprofile-instr-out-of-date \
			    -Wprofile-instr-missing -S -emit-llvm -o "$TMP/$f.$n.ll") 2> "$f.$n.err"
			sed -i "s|$P/$f.profdata|PROFILE|g" "$f.$n.err"
		done
		echo "$d: $cmd"
		cat ref.$n.err
		same_file ref.$n.err ours.$n.err
		# the profile was used: functions with counts
		grep -q 'function_entry_count", i64 [1-9]' ref.$n.ll
		grep -q 'branch_weights' ref.$n.ll
		same_file ref.$n.ll ours.$n.ll
	done < kit/b/objdump-prof.cmds
	[ "$n" -ge 4 ]
}
