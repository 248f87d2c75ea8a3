#!/usr/bin/env bats
# The large program compiled from source by clang-19 with
# -fbasic-block-address-map (tests/large/build-large-src.sh: GNU objdump
# from Debian's binutils-source, built once into build/large): what the
# build promises, and perfdecode | preagg against perf2bolt-19 on it with
# branch stacks that follow its control flow (tests/tools/cfgwalk).

load ../common

LARGE="$TOP/build/large"

setup_file() {
	PROFPIPE_TESTBIN="$PROFPIPE_TESTBIN" "$TOP/tests/large/build-large-src.sh" "$LARGE"
}

setup() {
	setup_tmp
	need_tool perf perf2bolt llvm-readobj-19
}

@test "large-src: objdump-bb has 2000 functions, 1 MB of code and a bb-addr-map for each" {
	local nfunc text nmap
	nfunc=$("$LLVM_BIN/llvm-nm" "$LARGE/objdump-bb" | grep -c ' [tT] ')
	text=$(size -A "$LARGE/objdump-bb" | awk '$1 == ".text" { print $2 }')
	nmap=$("$LLVM_BIN/llvm-readobj" --bb-addr-map "$LARGE/objdump-bb" | grep -c 'Function {')
	echo "functions $nfunc, .text $text bytes, bb-addr-map functions $nmap"
	[ "$nfunc" -ge 2000 ]
	[ "$text" -ge 1000000 ]
	[ "$nmap" -ge 2000 ]
	"$LLVM_BIN/llvm-readelf" -SW "$LARGE/objdump-bb" | grep -q '\.rela\.text'
}

@test "large-src: the workload gives the same output from objdump-bb and its BOLTed copy" {
	# objdump prints the input's name as given
	(cd "$LARGE" && ./objdump-bb -d -r -t -s objdump-input) | md5sum | cut -c1-32 > a
	(cd "$LARGE" && ./objdump-bb.bolt -d -r -t -s objdump-input) | md5sum | cut -c1-32 > b
	same_file "$LARGE/objdump.expected" a
	same_file "$LARGE/objdump.expected" b
	"$LLVM_BIN/llvm-readelf" -S "$LARGE/objdump-bb.bolt" | grep -q '\.note\.bolt_bat'
}

@test "large-src: uniform walks: fdata through preagg --legacy equals perf2bolt -p" {
	local pct
	cp "$LARGE/objdump-bb" objdump-bb
	cfgwalk -D uniform -n 20000 -s 4 -m "$PWD/objdump-bb" -o w.events objdump-bb
	mkperfdata -o perf.data w.events
	perfdecode perf.data | preagg --legacy -b objdump-bb > legacy.pa
	"$LLVM_BIN/perf2bolt" -p perf.data -o want.fdata objdump-bb > p2b.log 2>&1
	"$LLVM_BIN/perf2bolt" --pa -p legacy.pa -o got.fdata objdump-bb > pa.log 2>&1
	pct=$(sed -n 's/^PERF2BOLT: traces mismatching disassembled function contents: [0-9]* (\([0-9.]*\)%)$/\1/p' p2b.log)
	echo "mismatching traces: ${pct}%"
	[ -n "$pct" ]
	[ "$(echo "$pct < 5" | bc)" = 1 ]
	sort want.fdata > want.sorted
	sort got.fdata > got.sorted
	same_file want.sorted got.sorted
	[ "$(wc -l < want.sorted)" -ge 30000 ]
}
