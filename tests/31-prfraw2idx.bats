#!/usr/bin/env bats
# prfraw2idx against llvm-profdata-19 and clang-19: byte-identical indexed
# profiles from real raw profiles (tests/data/prfraw2idx/build.sh makes
# them with clang-19), the same -fprofile-use IR, older format versions,
# the text forms, and clear errors on damaged input.

load common

L=/usr/lib/llvm-19/bin

setup_file() {
	"$TOP/tests/data/prfraw2idx/build.sh" "$BATS_FILE_TMPDIR/p"
}

setup() {
	setup_tmp
	need_tool "$L/llvm-profdata" "$L/clang" python3
	R="$BATS_FILE_TMPDIR/p"
}

# fails_cleanly SEP NAME...: each NAME.profraw is an error, exit 1, whose
# message starts "prfraw2idx: NAME.profrawSEP", and leaves no output file
fails_cleanly() {
	local sep=$1 f
	shift
	for f in "$@"; do
		run prfraw2idx -o out.profdata $f.profraw
		echo "$f: $output"
		[ "$status" -eq 1 ]
		echo "$output" | grep -q "^prfraw2idx: $f.profraw$sep"
		[ ! -e out.profdata ]
	done
}

# same ARGS...: prfraw2idx and llvm-profdata merge on the same inputs
same() {
	prfraw2idx -o ours.profdata "$@"
	"$L/llvm-profdata" merge --num-threads=1 -o ref.profdata "$@"
	same_file ours.profdata ref.profdata
}

@test "prfraw2idx: C program, IR instrumentation, three runs: byte-identical" {
	same "$R/c1.profraw" "$R/c2.profraw" "$R/c3.profraw"
	same "$R/c2.profraw"
}

@test "prfraw2idx: C++ virtual and indirect calls, memcpy sizes (value profiles)" {
	same "$R/cpp1.profraw" "$R/cpp2.profraw"
	"$L/llvm-profdata" show --all-functions --ic-targets ours.profdata | grep -q 'Indirect Target Results'
}

@test "prfraw2idx: front-end instrumentation with coverage and MC/DC bitmaps" {
	same "$R/fe1.profraw" "$R/fe2.profraw"
	"$L/llvm-profdata" show --all-functions ours.profdata | grep -q 'Functions shown: [1-9]'
}

@test "prfraw2idx: 32-bit raw profiles (IR, front-end with bitmaps), made without running 32-bit code" {
	# mkraw.py writes what a program would write at exit: on the 64-bit
	# builds that did run, byte for byte the runs' own files
	same_file "$R/mkraw/g64.profraw" "$R/n64.profraw"
	same_file "$R/mkraw/gfe.profraw" "$R/fe64.profraw"
	for f in m32 m32fe m32fixed; do
		od -A n -t x1 -N 8 "$R/$f.profraw" | grep -q '81 52 66 6f 72 70 6c ff'
		same "$R/$f.profraw"
	done
	# the counts of the 64-bit run, read through the 32-bit layout
	prfraw2idx -o ours.profdata "$R/m32.profraw"
	"$L/llvm-profdata" show --all-functions --counts ours.profdata | grep -v '^Instr' > m32.txt
	# (shown from an indexed file too: show lists a raw file in record
	# order, an indexed one in hash-table order, which moves with the
	# checkout's path that the names carry)
	"$L/llvm-profdata" merge -o n64.profdata "$R/n64.profraw"
	"$L/llvm-profdata" show --all-functions --counts n64.profdata | grep -v '^Instr' > n64.txt
	grep -q 'Block counts: \[[1-9]' m32.txt
	same_file m32.txt n64.txt
	same "$R/m32.profraw" "$R/n64.profraw"
}

@test "prfraw2idx: the suite runs no 32-bit program" {
	# a kernel without 32-bit support fails them ("Exec format error"):
	# every program build.sh runs is a 64-bit ELF file
	progs=$(grep -oE '(^|;)[[:space:]]*run [a-z0-9]+' "$TOP/tests/data/prfraw2idx/build.sh" |
	    awk '{ print $NF }' | sort -u)
	echo "run: $progs"
	[ "$(echo "$progs" | wc -w)" -ge 5 ]
	for p in $progs; do
		[ "$(od -A n -t u1 -j 4 -N 1 "$R/$p" | tr -d ' ')" -eq 2 ]
	done
	[ "$(od -A n -t u1 -j 4 -N 1 "$R/m32" | tr -d ' ')" -eq 1 ]
}

@test "prfraw2idx: static functions of the same name in two files" {
	same "$R/st.profraw"
	[ "$("$L/llvm-profdata" show --all-functions ours.profdata | grep -c 'helper')" -eq 2 ]
}

@test "prfraw2idx: many raw files, a directory, weights, --sparse" {
	same "$R/many"
	prfraw2idx -o ours.profdata "$R/c1.profraw:3" "$R/c2.profraw"
	"$L/llvm-profdata" merge -o ref.profdata "$R/c2.profraw" --weighted-input=3,"$R/c1.profraw"
	same_file ours.profdata ref.profdata
	prfraw2idx -o ours.profdata -w 3,"$R/cpp1.profraw" "$R/cpp2.profraw"
	"$L/llvm-profdata" merge --num-threads=1 -o ref.profdata "$R/cpp2.profraw" --weighted-input=3,"$R/cpp1.profraw"
	same_file ours.profdata ref.profdata
	ls "$R"/many/*.profraw | sed -n '1,10p' > list
	prfraw2idx -o ours.profdata -f list
	"$L/llvm-profdata" merge -o ref.profdata -f list
	same_file ours.profdata ref.profdata
	# -v: the counts, the functions those llvm-profdata shows
	run prfraw2idx -v -o v.profdata -f list
	[ "$status" -eq 0 ]
	n=$("$L/llvm-profdata" show ref.profdata | sed -n 's/^Total functions: //p')
	[ -n "$n" ]
	[ "$output" = "prfraw2idx: inputs 10 (0 failed or suspect), functions $n" ]
	prfraw2idx --sparse -o ours.profdata "$R/many"
	"$L/llvm-profdata" merge --sparse -o ref.profdata "$R/many"
	same_file ours.profdata ref.profdata
}

@test "prfraw2idx: clang-19 -fprofile-use compiles to the same IR" {
	prfraw2idx -o ours.profdata "$R/c1.profraw" "$R/c2.profraw"
	"$L/llvm-profdata" merge -o ref.profdata "$R/c1.profraw" "$R/c2.profraw"
	demo="$TOP/tests/data/progs/demo.c"
	"$L/clang" -O2 -fprofile-use=ours.profdata -S -emit-llvm -o ours.ll "$demo"
	"$L/clang" -O2 -fprofile-use=ref.profdata -S -emit-llvm -o ref.ll "$demo"
	grep -q '!prof' ours.ll
	same_file ours.ll ref.ll
	prfraw2idx -o ours.profdata "$R/cpp1.profraw" "$R/cpp2.profraw"
	"$L/llvm-profdata" merge -o ref.profdata "$R/cpp1.profraw" "$R/cpp2.profraw"
	"$L/clang++" -O2 -fprofile-use=ours.profdata -S -emit-llvm -o ours.ll "$TOP/tests/data/prfraw2idx/vcall.cpp"
	"$L/clang++" -O2 -fprofile-use=ref.profdata -S -emit-llvm -o ref.ll "$TOP/tests/data/prfraw2idx/vcall.cpp"
	same_file ours.ll ref.ll
}

@test "prfraw2idx: --format-version 7..12 read by llvm-profdata show" {
	"$L/llvm-profdata" merge -o ref.profdata "$R/c1.profraw" "$R/c2.profraw"
	"$L/llvm-profdata" show --all-functions --counts ref.profdata > ref.txt
	for v in 7 8 9 10 11 12; do
		prfraw2idx --format-version $v -o v$v.profdata "$R/c1.profraw" "$R/c2.profraw"
		[ "$(od -A n -t u4 -j 8 -N 4 v$v.profdata | tr -d ' ')" -eq $v ]
		"$L/llvm-profdata" show --all-functions --counts v$v.profdata > v$v.txt
		same_file v$v.txt ref.txt
	done
	run prfraw2idx --format-version 6 "$R/c1.profraw"
	[ "$status" -eq 2 ]
}

@test "prfraw2idx: our text form round-trips, llvm-profdata's text form in and out" {
	for set in "c1.profraw c2.profraw" "cpp1.profraw cpp2.profraw" "fe1.profraw" "st.profraw"; do
		files=$(for f in $set; do printf '%s ' "$R/$f"; done)
		prfraw2idx -o direct.profdata $files
		prfraw2idx --text $files > t.txt
		head -1 t.txt | grep -qx '# profpipe-prof 1'
		# one record per line: grep works on it
		[ "$(grep -vc '^#' t.txt)" -eq "$("$L/llvm-profdata" show direct.profdata | awk '/Total functions/{print $3}')" ]
		prfraw2idx -o viatext.profdata t.txt
		same_file viatext.profdata direct.profdata
		prfraw2idx --llvm-text -o ours.txt $files
		"$L/llvm-profdata" merge --text -o ref.txt $files
		same_file ours.txt ref.txt
		prfraw2idx -o ours.profdata ref.txt
		"$L/llvm-profdata" merge -o ref.profdata ref.txt
		same_file ours.profdata ref.profdata
	done
}

@test "prfraw2idx: streams the indexed format to a pipe" {
	prfraw2idx -o file.profdata "$R/c1.profraw" "$R/c2.profraw"
	prfraw2idx "$R/c1.profraw" "$R/c2.profraw" | cat > piped.profdata
	same_file piped.profdata file.profdata
}

@test "prfraw2idx: a correlated raw profile is an error, not an empty profile" {
	run prfraw2idx -o x.profdata "$R/corr.profraw"
	[ "$status" -eq 1 ]
	echo "$output" | grep -q "corr.profraw: .*correlated"
	[ ! -e x.profdata ]
}

@test "prfraw2idx: damaged raw files give a clear error and exit 1" {
	raw="$R/c1.profraw"
	size=$(stat -c %s "$raw")
	# cut anywhere
	for cut in 0 7 8 64 100 127 128 200 400 $((size / 2)) $((size - 9)) $((size - 1)); do
		head -c $cut "$raw" > cut.profraw
		run prfraw2idx -o out.profdata cut.profraw
		if [ $cut -eq 0 ]; then
			[ "$status" -eq 0 ]	# an empty file is skipped, as llvm-profdata does
			echo "$output" | grep -q 'empty'
			rm -f out.profdata
			continue
		fi
		echo "cut $cut: $output"
		[ "$status" -eq 1 ]
		echo "$output" | grep -q '^prfraw2idx: cut.profraw:'
		[ ! -e out.profdata ]
	done
	# header fields: magic, version, then counts set to all ones or huge
	python3 - "$raw" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
def put(name, off, val, fmt="<Q"):
    d = bytearray(data)
    struct.pack_into(fmt, d, off, val)
    open(name, "wb").write(d)
put("magic.profraw", 0, 0x1234)
put("v7.profraw", 8, (struct.unpack_from("<Q", data, 8)[0] & ~0xffffffff) | 7)
put("v11.profraw", 8, (struct.unpack_from("<Q", data, 8)[0] & ~0xffffffff) | 11)
put("v99.profraw", 8, 99)
for i, name in [(3, "numdata"), (5, "numcounters"), (9, "namessize"), (2, "binids")]:
    put(name + "-ones.profraw", 8 * i, 0xffffffffffffffff)
    put(name + "-big.profraw", 8 * i, 1 << 40)
# a data record's counter pointer far out of range
put("cntptr.profraw", 128 + struct.unpack_from("<Q", data, 16)[0] + 16, 0x7fffffffffff)
# every byte flipped in turn over the header and the first record
for i in range(0, 200, 3):
    d = bytearray(data)
    d[i] ^= 0xff
    open("flip%03d.profraw" % i, "wb").write(d)
PY
	# (magic: the bytes read as llvm-profdata's text form, an error by line)
	fails_cleanly : magic v7 v11 v99 numdata-ones numdata-big numcounters-ones \
	    numcounters-big namessize-ones namessize-big binids-ones binids-big cntptr
	run prfraw2idx v99.profraw
	echo "$output" | grep -qi 'version'
	# flipped bytes: an error or a profile, never a crash (the ASan build
	# would abort with another status); one run reads them all, each
	# rejected or merged (--failure-mode=warn), and writes the merge
	run prfraw2idx --failure-mode=warn -o out.profdata flip*.profraw
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^prfraw2idx: flip[0-9]*.profraw: ')" -ge 20 ]
	"$L/llvm-profdata" show out.profdata > /dev/null
}

@test "prfraw2idx: --failure-mode=warn skips a bad input, any fails the run" {
	head -c 300 "$R/c2.profraw" > bad.profraw
	run prfraw2idx -o out.profdata bad.profraw "$R/c1.profraw"
	[ "$status" -eq 1 ]
	[ ! -e out.profdata ]
	run "$L/llvm-profdata" merge -o out.profdata bad.profraw "$R/c1.profraw"
	[ "$status" -eq 1 ]
	run prfraw2idx --failure-mode=warn -o out.profdata bad.profraw "$R/c1.profraw"
	[ "$status" -eq 0 ]
	echo "$output" | grep -q 'bad.profraw'
	"$L/llvm-profdata" merge --failure-mode=warn -o ref.profdata bad.profraw "$R/c1.profraw"
	same_file out.profdata ref.profdata
	"$L/llvm-profdata" merge -o ref.profdata "$R/c1.profraw"
	same_file out.profdata ref.profdata
}

@test "prfraw2idx: fuzz harness over real raw profiles" {
	fuzz_briefly profraw 50000 "$R"/*.profraw
}

@test "prfraw2idx: zlib names whose claimed size lies give an error" {
	# rewrite the uncompressed length of the first names chunk, keeping
	# its encoded size so the rest of the layout stays valid
	python3 - "$R/c1.profraw" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
h = struct.unpack_from("<16Q", d, 0)
assert h[1] & 0xffffffff == 10
off = 128 + h[2] + h[3] * 64 + h[4] + h[5] * 8 + h[6] + h[7] + h[8]
def uleb(p):
    v = s = 0
    while True:
        b = d[p]; p += 1
        v |= (b & 0x7f) << s; s += 7
        if not b & 0x80:
            return v, p
u, p1 = uleb(off)
c, p2 = uleb(p1)
assert c > 0, "names are not compressed"
n = p1 - off
def enc(v):
    out = bytearray()
    for i in range(n):
        b = v & 0x7f; v >>= 7
        out.append(b | (0x80 if i < n - 1 else 0))
    return out
for name, v in [("less", u - 1), ("more", u + 1), ("most", (1 << (7 * n)) - 1)]:
    e = bytearray(d)
    e[off:p1] = enc(v)
    open(name + ".profraw", "wb").write(e)
PY
	fails_cleanly ': ' less more most
}

@test "prfraw2idx: --text with --llvm-text is a usage error" {
	run prfraw2idx --text --llvm-text "$R/c1.profraw"
	[ "$status" -eq 2 ]
}

@test "prfraw2idx: a counter above 2^56 fails or merges as llvm-profdata's failure modes say" {
	# LLVM's llvm/test/tools/llvm-profdata/malformed-num-counters-zero.test,
	# rebuilt at raw version 10: one function "foo", one counter
	python3 - <<'PY'
import struct
def raw(ncnt, count):
    h = struct.pack("<16Q", 0xff6c70726f667281, 10, 0, 1, 0, 1, 0, 0, 0, 8,
                    0x100040000, 0x100040000, 0x200040000, 0, 0, 2)
    d = struct.pack("<QQQQQQI3HxxI", 0x5cf8c24cdb18bdac, 1, 0x100040000,
                    0x100040000, 0, 0, ncnt, 0, 0, 0, 0)
    return h + d + struct.pack("<Q", count) + b"\3\0foo\0\0\0"
open("zero.profraw", "wb").write(raw(0, 1))
open("bad.profraw", "wb").write(raw(1, 72057594037927937))
open("good.profraw", "wb").write(raw(1, 1))
PY
	run "$L/llvm-profdata" show zero.profraw
	[ "$status" -eq 1 ]
	echo "$output" | grep -q 'number of counters is zero'
	fails_cleanly ': offset 0x80: data record 0: number of counters is zero' zero
	for mode in any all warn; do
		for set in "bad good" "good bad" "bad" "bad bad"; do
			files=$(for f in $set; do printf '%s.profraw ' $f; done)
			rm -f ours.profdata ref.profdata
			run "$L/llvm-profdata" merge --failure-mode=$mode -o ref.profdata $files
			ref=$status
			run prfraw2idx --failure-mode=$mode -o ours.profdata $files
			echo "$mode [$set]: llvm-profdata $ref, prfraw2idx $status: $output"
			[ "$status" -eq "$ref" ]
			# one warning per bad file (llvm-profdata's too); any stops at the first
			nbad=$(echo $set | tr ' ' '\n' | grep -c bad)
			[ $mode != any ] || nbad=1
			[ "$(echo "$output" | grep -c '^prfraw2idx: bad.profraw: offset 0xc0: counter value 72057594037927937 is too large')" -eq $nbad ]
			if [ "$ref" -eq 0 ]; then
				same_file ours.profdata ref.profdata
			else
				[ ! -e ours.profdata ] && [ ! -e ref.profdata ]
			fi
		done
	done
	# the suspect records are merged, not dropped
	prfraw2idx --failure-mode=warn -o ours.profdata bad.profraw good.profraw
	"$L/llvm-profdata" show --all-functions ours.profdata | grep -q 'Function count: 72057594037927938'
	[ "$(prfraw2idx -o ours.profdata good.profraw 2>&1)" = "" ]
}
