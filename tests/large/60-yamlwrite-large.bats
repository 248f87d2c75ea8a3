#!/usr/bin/env bats
# yamlwrite against perf2bolt-19 --profile-format=yaml on the large
# benchmark program (tests/large/build-large.sh: about 3500 functions,
# 1.6 MB of .text, gcc's .cold fragments, jump tables): cfgwalk branch
# stacks, skewed and uniform, the fixed-address build, the PIE, and a copy
# without its relocations (BOLT's non-relocation mode).  The YAML of
# perfdecode | preagg [--legacy] | yamlwrite equals perf2bolt's as data
# (every function and block hash included), and llvm-bolt-19 (which
# checks the hashes) says of ours what it says of perf2bolt's; the
# optimized program prints what the program prints.

load ../common
bats_require_minimum_version 1.5.0

LARGE="$TOP/build/large"
CMP="$TOP/tests/data/yamlwrite/yamlcmp.py"

setup_file() {
	PROFPIPE_TESTBIN="$PROFPIPE_TESTBIN" "$TOP/tests/large/build-large.sh" "$LARGE"
}

setup() {
	setup_tmp
	need_tool perf perf2bolt llvm-bolt
}

# check DIST BINARY BIAS N SEED MINBLOCKS: both forms equal perf2bolt's
# YAML, which has at least MINBLOCKS blocks
check() {
	[ -e "$2" ] || cp "$LARGE/$2" "$2"
	cfgwalk -D "$1" -b "$3" -n "$4" -s "$5" -m "$PWD/$2" -o w.events "$2"
	mkperfdata -o perf.data w.events
	"$LLVM_BIN/perf2bolt" -p perf.data --profile-format=yaml -o want.yaml "$2" > p2b.log 2>&1
	perfdecode perf.data | preagg --legacy -b "$2" | yamlwrite "$2" > legacy.yaml
	perfdecode perf.data | preagg -b "$2" | yamlwrite -v -o current.yaml "$2"
	run python3 "$CMP" want.yaml current.yaml
	echo "$output" >&2
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | sed -n 's/^[0-9]* functions, \([0-9]*\) blocks.*/\1/p')" -ge "$6" ]
	python3 "$CMP" want.yaml legacy.yaml
}

# bolt_same BINARY MIN: llvm-bolt-19 with block reordering, function
# splitting and, in relocation mode, function reordering prints the same
# (functions with profile, stale profiles, dyno stats before and after,
# the layout) on current.yaml (ours) and on want.yaml (perf2bolt's),
# neither with --profile-ignore-hash (the hashes are BOLT's own, so every
# profile matches its function).  At least MIN functions have a
# profile, and the optimized binary prints what the program prints
# (tests/large/build-large.sh: expected)
bolt_same() {
	local n opts="-reorder-blocks=ext-tsp -split-functions -dyno-stats"
	if readelf -SW "$1" | grep -q '[.]rela[.]text'; then
		opts="$opts -reorder-functions=hfsort"
	fi
	"$LLVM_BIN/llvm-bolt" "$1" -o ref.bolt -data want.yaml $opts > ref.bolt.log 2>&1
	"$LLVM_BIN/llvm-bolt" "$1" -o our.bolt -data current.yaml $opts > our.bolt.log 2>&1
	grep -E 'non-empty execution profile|stale|could not be optimized|modified layout' our.bolt.log >&2 || true
	sed 's/ref[.]bolt/OUT/g; s/want[.]yaml/DATA/g' ref.bolt.log > a.log
	sed 's/our[.]bolt/OUT/g; s/current[.]yaml/DATA/g' our.bolt.log > b.log
	same_file a.log b.log
	n=$(sed -n 's/^BOLT-INFO: \([0-9]*\) out of [0-9]* functions .* have non-empty execution profile$/\1/p' our.bolt.log)
	[ "${n:-0}" -ge "$2" ]
	grep -q 'basic block reordering modified layout of [1-9]' our.bolt.log
	run grep -Ei 'stale|did not match' our.bolt.log
	[ "$status" -eq 1 ]
	./our.bolt 1 > our.out 2>&1
	same_file "$LARGE/expected" our.out
}

@test "yamlwrite, large program: skewed stacks, fixed addresses; llvm-bolt-19 on both YAML profiles" {
	check skewed app 0 20000 1 5000
	bolt_same app 1000
}

@test "yamlwrite, large program: uniform stacks, PIE; llvm-bolt-19 on both YAML profiles" {
	check uniform app-pie 0x555555554000 20000 2 5000
	bolt_same app-pie 1000
}

@test "yamlwrite, large program: no relocations (BOLT's non-relocation mode); llvm-bolt-19 on both YAML profiles" {
	secs=$(readelf -SW "$LARGE/app" | grep -oE '\.rela\.[A-Za-z_.0-9]+' |
	    grep -vxE '\.rela\.(dyn|plt)' | sort -u | sed 's/^/-R /')
	objcopy $secs "$LARGE/app" app
	run bash -c "readelf -SW app | grep -q '[.]rela[.]text'"
	[ "$status" -ne 0 ]
	check uniform app 0 20000 3 3000
	bolt_same app 500
}

@test "yamlwrite --literal, large program: branches from the first eight, the last four and the NOPs of every block (and from inside instructions), as perf2bolt-19 --pa -w takes or drops them; fdatawrite --literal, perf2bolt --pa's fdata" {
	cp "$LARGE/app" app
	cfgtest app > app.cfg
	llvm-nm-19 -S --defined-only app > app.nm
	llvm-objdump-19 -d --no-show-raw-insn app |
	    awk '/^ +[0-9a-f]+:/ { sub(":", "", $1); print $1, $2 }' > app.insns
	python3 "$TOP/tests/data/yamlwrite/srcgen.py" app.cfg app.nm app.insns > sg.pa
	[ "$(grep -c '^B ' sg.pa)" -ge 100000 ]
	"$LLVM_BIN/perf2bolt" --pa -p sg.pa -w want.yaml -o sg.fdata app > sg.log 2>&1
	yamlwrite --literal app sg.pa > current.yaml
	run python3 "$CMP" want.yaml current.yaml
	echo "$output" | head -3
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | sed -n 's/^\([0-9]*\) functions, .*/\1/p')" -ge 2000 ]
	# fdatawrite --literal: perf2bolt's very fdata (sources inside
	# instructions whose bytes read as a return are no returns)
	fdatawrite --literal app sg.pa | sort > f.s
	sort sg.fdata > a.s
	same_file a.s f.s
}

@test "yamlwrite, large program: real perf record -e cpu-clock samples, as perf2bolt -nl writes them" {
	cp "$LARGE/app" app
	perf record -q -e cpu-clock -o nl.data -- ./app 1 > /dev/null 2>&1
	"$LLVM_BIN/perf2bolt" -nl -p nl.data --profile-format=yaml -o want.yaml app > p2b.log 2>&1
	perfdecode nl.data | preagg -b app | yamlwrite -o current.yaml app
	run python3 "$CMP" want.yaml current.yaml
	echo "$output" >&2
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | sed -n 's/^\([0-9]*\) functions.*/\1/p')" -ge 10 ]
	grep -q 'profile-flags: \[sample\]' current.yaml
}

# the large program's source linked by clang-22 (sqlwork.c and Debian's
# libsqlite3.a and libzstd.a, as build-large.sh links them), OUT
build22() {
	local L=/usr/lib/x86_64-linux-gnu
	clang-22 -O2 -g $2 -c -o "$1.o" "$TOP/tests/large/sqlwork.c"
	clang-22 $3 -Wl,--emit-relocs -o "$1" "$1.o" -Wl,--whole-archive \
	    "$L/libsqlite3.a" "$L/libzstd.a" -Wl,--no-whole-archive -lm -lpthread -ldl
}

@test "yamlwrite --llvm=22, large program built by clang-22 (fixed addresses and PIE): perf2bolt-22's YAML, hashes included (gcc's string labels with addends, opcode names of LLVM 22); llvm-bolt-22 reads ours as it reads perf2bolt-22's" {
	need_tool clang-22 /usr/lib/llvm-22/bin/perf2bolt /usr/lib/llvm-22/bin/llvm-bolt
	build22 app22 -fno-pie -no-pie
	build22 app22-pie -fPIE -pie
	for b in app22 app22-pie; do
		cfgwalk -D uniform -n 30000 -s 5 -m "$PWD/$b" -o $b.events $b
		mkperfdata -o $b.data $b.events
		/usr/lib/llvm-22/bin/perf2bolt -p $b.data --profile-format=yaml \
		    -o $b.want.yaml $b > $b.p2b.log 2>&1
		perfdecode $b.data | preagg -b $b | PROFPIPE_LLVM=22 yamlwrite -o $b.yaml $b
		run python3 "$CMP" $b.want.yaml $b.yaml
		echo "$output" >&2
		[ "$status" -eq 0 ]
		[ "$(echo "$output" | sed -n 's/^\([0-9]*\) functions, .*/\1/p')" -ge 2000 ]
	done
	B22=/usr/lib/llvm-22/bin/llvm-bolt
	"$B22" app22 -o a.bolt -data app22.want.yaml -dyno-stats > a.log 2>&1
	"$B22" app22 -o b.bolt -data app22.yaml -dyno-stats > b.log 2>&1
	grep -q 'have non-empty execution profile' b.log
	run grep -Ei 'stale|did not match|mismatch|invalid profile' b.log
	[ "$status" -eq 1 ]
	sed 's/a\.bolt/OUT/g; s/app22\.want\.yaml/DATA/g' a.log > a.txt
	sed 's/b\.bolt/OUT/g; s/app22\.yaml/DATA/g' b.log > b.txt
	same_file a.txt b.txt
	[ "$(./b.bolt 1)" = "$(./app22 1)" ]
}
