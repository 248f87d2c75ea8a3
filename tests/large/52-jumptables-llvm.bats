#!/usr/bin/env bats
# fdatawrite and yamlwrite against perf2bolt-19 on a program linked from
# Debian's static LLVM 19 libraries (tests/large/build-large-llvm.sh:
# 8204 functions, 3 MiB of .text), whose PIC jump tables follow each
# other in .rodata: BOLT 19 ends a table at the next jump table of the
# binary, whichever function it belongs to (populateJumpTables), even
# where the next table's first entry, read as one of the first table,
# lands on an instruction of the first function.  cfgwalk branch
# stacks: the fdata of perfdecode | preagg | fdatawrite equals
# perf2bolt -p's line for line, the YAML of yamlwrite equals perf2bolt's
# as data (blocks, successors, calls; hashes excluded), and llvm-bolt-19
# says the same of both fdata.

load ../common
bats_require_minimum_version 1.5.0

LARGE="$TOP/build/large"
# hashes: not yet compared on the large programs (--no-hashes)
CMP="$TOP/tests/data/yamlwrite/yamlcmp.py"

setup_file() {
	"$TOP/tests/large/build-large-llvm.sh" "$LARGE"
}

setup() {
	setup_tmp
	need_tool perf2bolt llvm-bolt
	cp "$LARGE/llvm" llvm
	cfgwalk -D uniform -n 40000 -s 1 -m "$PWD/llvm" -o w.events llvm
	mkperfdata -o perf.data w.events
	perfdecode perf.data | preagg -b llvm > pa
}

@test "fdatawrite, LLVM program: jump tables end at the next function's table, as perf2bolt-19 ends them" {
	"$LLVM_BIN/perf2bolt" -p perf.data -o want.fdata llvm > p2b.log 2>&1
	run fdatawrite -v -o current.fdata llvm pa
	[ "$status" -eq 0 ]
	echo "$output" >&2
	# the case is there: tables whose next entry would have been taken
	n=$(echo "$output" | sed -n 's/^fdatawrite: \([0-9]*\) jump tables end where another.*/\1/p')
	[ "${n:-0}" -ge 3 ]
	sort want.fdata > want.s
	sort current.fdata > current.s
	[ "$(wc -l < want.s)" -ge 100000 ]
	same_file want.s current.s
	# llvm-bolt-19 reads both alike, and the program it makes runs
	opts="-reorder-blocks=ext-tsp -split-functions -reorder-functions=hfsort -dyno-stats"
	"$LLVM_BIN/llvm-bolt" llvm -o ref.bolt -data want.fdata $opts > ref.bolt.log 2>&1
	"$LLVM_BIN/llvm-bolt" llvm -o our.bolt -data current.fdata $opts > our.bolt.log 2>&1
	same_file ref.bolt.log our.bolt.log
	grep -q 'basic block reordering modified layout of [1-9]' our.bolt.log
	./our.bolt 200 > our.out
	same_file "$LARGE/llvm.expected" our.out
}

@test "yamlwrite, LLVM program: the blocks of functions with such tables are perf2bolt-19's" {
	"$LLVM_BIN/perf2bolt" -p perf.data --profile-format=yaml -o want.yaml llvm > p2b.log 2>&1
	yamlwrite -o current.yaml llvm pa
	run python3 "$CMP" --no-hashes want.yaml current.yaml
	echo "$output" >&2
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | sed -n 's/^[0-9]* functions, \([0-9]*\) blocks.*/\1/p')" -ge 30000 ]
}
