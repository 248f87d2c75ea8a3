#!/usr/bin/env bats
# The utility layer (libutil: numbers, LEB128, output files, the line
# reader) and the ELF reader of the BOLT layer, through commontest
# (tests/tools/commontest.c).

load ../common

setup() {
	setup_tmp
}

@test "library: md5, leb128, number parsing and formatting" {
	run commontest unit
	[ "$status" -eq 0 ]
	[ "$output" = ok ]
}

@test "library: build-id and segments agree with llvm-readobj" {
	need_tool llvm-readobj-19 clang-19
	printf 'int main(void){return 0;}\n' > t.c
	clang-19 -O1 -fpie -pie -Wl,--build-id=sha1 -o t t.c
	run commontest elf t
	[ "$status" -eq 0 ]
	ours=$(echo "$output" | awk 'NR==1{print $4}')
	ref=$(llvm-readobj-19 --notes t | awk '/Build ID:/{print $3}')
	[ -n "$ref" ]
	[ "$ours" = "$ref" ]
	# PT_LOAD vaddrs, in file order
	echo "$output" | awk '$1=="load"{print $2}' > ours.txt
	llvm-readobj-19 --program-headers t |
	    awk '/Type: PT_LOAD/{l=1} l&&/VirtualAddress:/{sub("^0x0*","",$2); print tolower($2==""?"0":$2); l=0}' > ref.txt
	same_file ours.txt ref.txt
	echo "$output" | grep -q ' main$'
}

@test "library: a failed run leaves no output file, a good one renames" {
	run commontest out "$TMP/x.out" fail
	[ "$status" -eq 1 ]
	[ ! -e "$TMP/x.out" ]
	[ -z "$(ls -A "$TMP" | grep profpipe || true)" ]
	run commontest out "$TMP/x.out" ok
	[ "$status" -eq 0 ]
	[ "$(cat "$TMP/x.out")" = partial ]
}

@test "library: -o on a device or FIFO writes in place, never replaces it" {
	mkfifo fifo
	cat fifo > fromfifo &
	run commontest out "$TMP/fifo" ok
	wait
	[ "$status" -eq 0 ]
	[ -p fifo ]
	[ "$(cat fromfifo)" = partial ]
	run commontest out /dev/null ok
	[ "$status" -eq 0 ]
	[ -c /dev/null ]
}

@test "library: line reader reports file:line" {
	printf 'a\r\nb\nbad\nc' > in.txt
	run sh -c 'commontest lines in.txt 2>err.txt'
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "1 a" ]
	[ "${lines[1]}" = "2 b" ]
	[ "$(cat err.txt)" = "commontest: in.txt:3: bad line 'bad'" ]
	printf 'a\nb' | commontest lines - > out.txt
	[ "$(cat out.txt)" = "$(printf '1 a\n2 b')" ]
}

@test "library: line reader across block boundaries, long lines, NUL bytes" {
	# lines of every length up to 3000, then one of 3 MB (the reader's
	# block is 1 MB), read from a file and from a pipe
	awk 'BEGIN { for (i = 0; i < 3000; i++) { s = ""; for (j = 0; j < i; j++) s = s "x"; print i s }
	    s = "y"; for (k = 0; k < 21; k++) s = s s; print s; print "last" }' > in.txt
	awk '{ print NR, $0 }' in.txt > want.txt
	commontest lines in.txt > out.txt
	cmp want.txt out.txt
	cat in.txt | commontest lines - > out.txt
	cmp want.txt out.txt
	: > empty.txt
	[ -z "$(commontest lines empty.txt)" ]
	printf '\n\n' | commontest lines - > out.txt
	[ "$(cat out.txt)" = "$(printf '1 \n2 ')" ]
	# a hostile line past 16 MB is an error, not an unbounded allocation
	{ echo first; head -c 20000000 /dev/zero | tr '\0' z; echo; } > long.txt
	run commontest lines long.txt
	[ "$status" -eq 1 ]
	echo "$output" | grep -q 'long.txt:2: line longer than 16777216 bytes'
	printf 'a\nb\0c\nd\n' > nul.txt
	run commontest lines nul.txt
	[ "$status" -eq 1 ]
	echo "$output" | grep -qx '1 a'
	echo "$output" | grep -q 'nul.txt:2: NUL byte in line'
}
