#!/usr/bin/env bats
# libbolt/elf/functab.c: functions and their fdata names as BOLT 19 sees them,
# checked against perf2bolt-19 on programs built here.  The probe is one
# pre-aggregated "B 0 <a> <a> 0" per code address: perf2bolt writes
# "0 [unknown] 0 1 <name> <offset> 0 <a>" for each address a function's
# [start, start + MaxSize) covers, and nothing for the others.

load ../common
bats_require_minimum_version 1.5.0

setup() {
	setup_tmp
	SRC="$DATA/functab"
}

# probe BIN: functab's expectation equals perf2bolt's fdata; at least MIN
# lines; prints the differing lines
probe() {
	local bin=$1 min=$2
	functest probe "$bin" > "$bin.pa"
	functest expect "$bin" | sort > "$bin.exp"
	"$LLVM_BIN/perf2bolt" --pa -p "$bin.pa" -o "$bin.fdata" "$bin" > "$bin.log" 2>&1
	sort "$bin.fdata" > "$bin.ref"
	local n
	n=$(wc -l < "$bin.ref")
	echo "$bin: $n lines from perf2bolt, $(wc -l < "$bin.exp") expected"
	[ "$n" -ge "$min" ]
	same_file "$bin.exp" "$bin.ref"
}

@test "functab: C, alias, switch, crtstuff locals, PLT: clang-19 and gcc, relocs or not, PIE or not" {
	need_tool perf2bolt clang-19 gcc
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SRC/alias.c" "$SRC/alias2.c" -o c1
	clang-19 -O2 -fpie -pie "$SRC/alias.c" "$SRC/alias2.c" -o c2
	gcc -O2 -Wl,--emit-relocs "$SRC/alias.c" "$SRC/alias2.c" -o g1
	gcc -O2 -fno-pie -no-pie "$SRC/alias.c" "$SRC/alias2.c" -o g2
	for b in c1 c2 g1 g2; do
		probe $b 300
	done
	# the alias takes the first name in .symtab order
	grep -q ' 1 alias_fn 0 0 ' g1.ref
	run ! grep -q ' real_fn ' g1.ref
	grep -q ' 1 printf@PLT 0 0 ' c1.ref
	grep -q ' 1 deregister_tm_clones/1 0 0 ' g2.ref
}

@test "functab: two static helpers in two files get helper/1 and helper/2" {
	need_tool perf2bolt gcc clang-19
	gcc -O2 -Wl,--emit-relocs "$SRC/same_main.c" "$SRC/same1.c" "$SRC/same2.c" -o s1
	clang-19 -O2 -fno-pie -no-pie "$SRC/same_main.c" "$SRC/same1.c" "$SRC/same2.c" -o s2
	probe s1 300
	probe s2 300
	grep -q ' 1 helper/1 0 0 ' s1.ref
	grep -q ' 1 helper/2 0 0 ' s1.ref
	# both names of a local: name/N and name/file/N
	a=$(functest name s1 helper/2)
	[ "$(functest name s1 helper/same2.c/1)" = "$a" ]
	run functest name s1 helper/same3.c/1
	[ "$status" -eq 1 ]
}

@test "functab: C++ with exceptions, virtual calls and gcc's .cold fragments" {
	need_tool perf2bolt g++ clang++-19
	g++ -O2 -Wl,--emit-relocs "$SRC/cxx.cc" "$SRC/same1.c" -o x1
	g++ -O2 "$SRC/cxx.cc" "$SRC/same1.c" -o x2
	clang++-19 -O2 -fpie -pie -Wl,--emit-relocs -x c++ "$SRC/cxx.cc" -x none "$SRC/same1.c" -o x3
	for b in x1 x2 x3; do
		probe $b 500
	done
	# the fragments are functions of their own, with their parents
	grep -q ' 1 main.cold/1 0 0 ' x1.ref
	functest list x1 > list
	grep -q ' main.cold/1 main.cold/cxx.cc/1 main$' list
}

@test "functab: assembly: labels, a zero-size function, FDE-only code" {
	need_tool perf2bolt gcc
	gcc -O2 -Wl,--emit-relocs "$SRC/same_main.c" "$SRC/same1.c" "$SRC/same2.c" "$SRC/labels.s" -o a1
	gcc -O2 "$SRC/same_main.c" "$SRC/same1.c" "$SRC/same2.c" "$SRC/fdeonly.s" -o a2
	probe a1 300
	probe a2 300
	grep -q ' 1 nosym_code/1 0 0 ' a1.ref
	grep -q ' 1 zerosz 1 0 ' a1.ref
	grep -q ' 1 __BOLT_FDE_FUNCat[0-9a-f]* 0 0 ' a2.ref
	functest list a1 > list
	grep -q '^entry [0-9a-f]* .* in asmfn$' list
}

@test "functab: a stripped binary and a non-ELF file are clear errors" {
	gcc -O2 "$SRC/alias.c" "$SRC/alias2.c" -o g
	strip g
	run functest list g
	[ "$status" -eq 1 ]
	[[ "$output" == *"no symbol table"* ]]
	echo hello > notelf
	run functest list notelf
	[ "$status" -eq 1 ]
	[[ "$output" == *"not an ELF file"* ]]
}

# sizes BIN MIN: every function perf2bolt-19 --print-all shows after
# disassembly has functab's address, Size, MaxSize and name
sizes() {
	# (to a file first: perf2bolt writes the listing in small pieces,
	# which through a pipe cost a wake-up of the reader each)
	"$LLVM_BIN/perf2bolt" --pa -p "$SRC/empty.pa" -o /dev/null "$1" --print-all > "$1.all" 2>&1
	awk -f "$SRC/p2bfuncs.awk" "$1.all" | sort > "$1.p2b"
	rm -f "$1.all"
	functest list "$1" | awk 'NR > 1 && $1 != "entry" { print $1, $2, $3, $5 }' |
	    sort > "$1.ours"
	comm -23 "$1.p2b" "$1.ours" > "$1.missing"
	echo "$1: $(wc -l < "$1.p2b") functions disassembled by perf2bolt, $(wc -l < "$1.missing") differ" >&2
	head "$1.missing" >&2
	[ "$(wc -l < "$1.p2b")" -ge "$2" ]
	[ ! -s "$1.missing" ]
}

@test "functab: Size and MaxSize as perf2bolt-19 --print-all shows them (zero sizes, FDE sizes, padding, labels)" {
	need_tool perf2bolt gcc g++
	g++ -O2 -Wl,--emit-relocs "$SRC/cxx.cc" "$SRC/same1.c" -o x1
	gcc -O2 -Wl,--emit-relocs "$SRC/same_main.c" "$SRC/same1.c" "$SRC/same2.c" "$SRC/labels.s" -o a1
	gcc -O2 -static -Wl,--emit-relocs "$SRC/same_main.c" "$SRC/same1.c" "$SRC/same2.c" "$SRC/fdeonly.s" -o a2
	sizes x1 15
	sizes a1 15
	sizes a2 500
}
