#!/usr/bin/env bats
# x86dec, the table decoder cfgdis.c (fdatawrite, yamlwrite) takes most
# instructions from, against Capstone 4, which decodes the rest: the
# libFuzzer harness fuzz/fuzz_x86dec.c (libbolt/isa/x86class.c) from the code
# of programs built here, and the cases fuzzing has found
# (tests/data/x86dec/corpus) through x86dectest.  The sweeps over whole
# programs and libc are in 50-fdatawrite.bats and tests/large.

load ../common

setup() {
	setup_tmp
}

@test "x86dec: fuzz harness against Capstone over the code of real programs" {
	gcc -O2 -o sw "$DATA/fdatawrite/sw.c"
	clang-19 -O2 -o swc "$DATA/fdatawrite/sw.c"
	g++ -O2 -o x "$DATA/functab/cxx.cc" "$DATA/functab/same1.c"
	mkdir corpus
	local b libc
	for b in sw swc x; do
		objcopy -O binary -j .text "$b" "$b.text"
		split -b 1024 -a 3 "$b.text" "corpus/$b."
	done
	# and 16 KiB from the middle of libc's code
	libc=$(ldd ./sw | awk '/libc[.]so/ { print $3 }')
	objcopy -O binary -j .text "$libc" libc.text
	dd if=libc.text of=libc.part bs=1024 skip=256 count=16 2>/dev/null
	split -b 1024 -a 3 libc.part corpus/libc.
	[ "$(ls corpus | wc -l)" -ge 19 ]
	# about 500 runs a second of 1 KiB inputs (two decodings at each
	# offset, ASan): a few seconds
	fuzz_briefly x86dec 1500 corpus "$DATA/x86dec/corpus"
}

@test "x86dec: tests/data/x86dec/corpus (with what fuzzing found) declined or decoded as Capstone does" {
	local f
	for f in "$DATA"/x86dec/corpus/*; do
		run x86dectest -b "$f"
		echo "$output"
		[ "$status" -eq 0 ]
		[[ "$output" == *"offsets decoded"* ]]
	done
}
