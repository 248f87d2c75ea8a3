#!/usr/bin/env bats
# fdatawrite against perf2bolt-19 on the large benchmark program
# (tests/large/build-large.sh: about 3500 functions, 1.6 MB of .text, gcc's
# .cold fragments, jump tables): cfgwalk branch stacks, uniform and
# skewed, the fixed-address build, the PIE, and a copy without its
# relocations (BOLT's non-relocation mode).  The fdata of
# perfdecode | preagg [--legacy] | fdatawrite equals perf2bolt -p's, line
# for line after sorting, and llvm-bolt-19 says the same of both; walked
# in 1 to 3 processes (-j), fdatawrite writes the same bytes.

load ../common
bats_require_minimum_version 1.5.0

LARGE="$TOP/build/large"

setup_file() {
	PROFPIPE_TESTBIN="$PROFPIPE_TESTBIN" "$TOP/tests/large/build-large.sh" "$LARGE"
}

setup() {
	setup_tmp
	need_tool perf perf2bolt llvm-bolt
}

# check DIST BINARY BIAS N SEED MIN: both forms equal perf2bolt -p, with
# at least MIN lines within one function
check() {
	[ -e "$2" ] || cp "$LARGE/$2" "$2"
	cfgwalk -D "$1" -b "$3" -n "$4" -s "$5" -m "$PWD/$2" -o w.events "$2"
	mkperfdata -o perf.data w.events
	"$LLVM_BIN/perf2bolt" -p perf.data -o want.fdata "$2" > p2b.log 2>&1
	perfdecode perf.data | preagg --legacy -b "$2" | fdatawrite "$2" > legacy.fdata
	perfdecode perf.data | preagg -b "$2" | fdatawrite -v "$2" > current.fdata
	# the walk split among 2 and 3 processes (fdatawrite -j): the
	# bytes and counts of one
	perfdecode perf.data | preagg -b "$2" > current.pa
	local j
	for j in 1 2 3; do
		fdatawrite -j $j -v -o cur.$j "$2" current.pa 2> cur.$j.err
		same_file current.fdata cur.$j
		same_file cur.1.err cur.$j.err
	done
	sort want.fdata > want.s
	sort legacy.fdata > legacy.s
	sort current.fdata > current.s
	local intra eq
	intra=$(awk '$1 == 1 && $4 == 1 && $2 == $5' want.s | wc -l)
	eq=$(comm -12 want.s current.s | wc -l)
	echo "$2 $1: $(wc -l < want.s) lines from perf2bolt, $intra within a function, $eq equal" >&2
	[ "$intra" -ge "$6" ]
	same_file want.s current.s
	same_file want.s legacy.s
}

# bolt_same BINARY MIN: llvm-bolt-19 on want.fdata (perf2bolt's) and on
# current.fdata (ours) with block reordering, function splitting and, in
# relocation mode, function reordering prints the same (functions with
# profile, stale profiles, dyno stats before and after), at least MIN
# functions have a profile, and the optimized binary prints what the
# program prints (tests/large/build-large.sh: expected)
bolt_same() {
	local n opts="-reorder-blocks=ext-tsp -split-functions -dyno-stats"
	if readelf -SW "$1" | grep -q '[.]rela[.]text'; then
		opts="$opts -reorder-functions=hfsort"
	fi
	"$LLVM_BIN/llvm-bolt" "$1" -o ref.bolt -data want.fdata $opts > ref.bolt.log 2>&1
	"$LLVM_BIN/llvm-bolt" "$1" -o our.bolt -data current.fdata $opts > our.bolt.log 2>&1
	grep -E 'non-empty execution profile|stale|could not be optimized|modified layout' our.bolt.log >&2 || true
	same_file ref.bolt.log our.bolt.log
	n=$(sed -n 's/^BOLT-INFO: \([0-9]*\) out of [0-9]* functions .* have non-empty execution profile$/\1/p' our.bolt.log)
	[ "${n:-0}" -ge "$2" ]
	grep -q 'basic block reordering modified layout of [1-9]' our.bolt.log
	[ "$(grep -c ': executed instructions' our.bolt.log)" -eq 2 ]
	./our.bolt 1 > our.out 2>&1
	same_file "$LARGE/expected" our.out
}

@test "fdatawrite, large program: skewed stacks, fixed addresses; llvm-bolt-19 on both fdata" {
	check skewed app 0 20000 1 20000
	bolt_same app 2000
}

@test "fdatawrite, large program: uniform stacks, PIE; llvm-bolt-19 on both fdata" {
	check uniform app-pie 0x555555554000 20000 2 20000
	bolt_same app-pie 2000
}

@test "fdatawrite, large program: no relocations (BOLT's non-relocation mode); llvm-bolt-19 on both fdata" {
	# the same program without the sections --emit-relocs kept
	secs=$(readelf -SW "$LARGE/app" | grep -oE '\.rela\.[A-Za-z_.0-9]+' |
	    grep -vxE '\.rela\.(dyn|plt)' | sort -u | sed 's/^/-R /')
	objcopy $secs "$LARGE/app" app
	run bash -c "readelf -SW app | grep -q '[.]rela[.]text'"
	[ "$status" -ne 0 ]
	check uniform app 0 20000 3 20000
	bolt_same app 1000
}

@test "fdatawrite, large program: x86dec's table decoder agrees with Capstone on all its code, and on every opcode pair (lengths, kinds, registers written)" {
	run x86dectest "$LARGE/app" "$LARGE/app-pie"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c 'known to the table')" -eq 2 ]
	# every two opcode bytes after common prefixes, random tails
	run x86dectest -e 3
	echo "$output" | tail -3
	[ "$status" -eq 0 ]
	[[ "$output" == *"exhaustive: "* ]]
}

@test "fdatawrite, large program: every instruction of a static glibc program to the next five, hand-made, against perf2bolt --pa (hand-written string functions, PIC tables found by address, xbegin)" {
	/usr/lib/llvm-19/bin/clang -O2 -static -DNWORDS=300 -Wl,--emit-relocs \
	    -o small "$TOP/tests/data/progs/demo.c"
	objdump -d --no-show-raw-insn small |
	    awk '/^ +[0-9a-f]+:/ { sub(":", "", $1); print $1 }' |
	    awk '{ a[NR] = $1 } END { for (i = 1; i <= NR; i++)
		for (j = 1; j <= 5 && i + j <= NR; j++) {
			print "F", a[i], a[i + j], 1
			print "f", a[i], a[i + j], 2 } }' > every.pa
	"$LLVM_BIN/perf2bolt" --pa -p every.pa -o want.fdata small > p2b.log 2>&1
	fdatawrite -o cur.fdata small every.pa
	sort want.fdata > want.s
	sort cur.fdata > cur.s
	echo "$(wc -l < every.pa) entries, $(wc -l < want.s) lines from perf2bolt" >&2
	[ "$(wc -l < want.s)" -ge 10000 ]
	same_file want.s cur.s
}

@test "fdatawrite, large program: every instruction to the next three, hand-made, against perf2bolt --pa: fixed, PIE, no relocations" {
	secs=$(readelf -SW "$LARGE/app" | grep -oE '\.rela\.[A-Za-z_.0-9]+' |
	    grep -vxE '\.rela\.(dyn|plt)' | sort -u | sed 's/^/-R /')
	objcopy $secs "$LARGE/app" norel
	cp "$LARGE/app" app
	cp "$LARGE/app-pie" app-pie
	for b in app app-pie norel; do
		objdump -d --no-show-raw-insn "$b" |
		    awk '/^ +[0-9a-f]+:/ { sub(":", "", $1); print $1 }' |
		    awk '{ a[NR] = $1 } END { for (i = 1; i <= NR; i++)
			for (j = 1; j <= 3 && i + j <= NR; j++) {
				print "F", a[i], a[i + j], 1
				print "f", a[i], a[i + j], 2 } }' > "$b.pa"
		"$LLVM_BIN/perf2bolt" --pa -p "$b.pa" -o "$b.want" "$b" > p2b.log 2>&1
		fdatawrite -o "$b.cur" "$b" "$b.pa"
		sort "$b.want" > want.s
		sort "$b.cur" > cur.s
		echo "$b: $(wc -l < "$b.pa") entries, $(wc -l < want.s) lines from perf2bolt" >&2
		[ "$(wc -l < want.s)" -ge 50000 ]
		same_file want.s cur.s
	done
}
