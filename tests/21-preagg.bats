#!/usr/bin/env bats
# preagg against the reference: perf2bolt-19 -p on a perf.data and
# perf2bolt-19 --pa on perfdecode | preagg --legacy must write the same
# fdata; llvm-bolt-19 must optimize with the profile.  The LBR perf.data
# files are written by mkperfdata from synthetic branch stacks
# (tests/data/preagg/randlbr.py: real branch instructions and instruction
# starts of the test binaries, some ends outside the binary or in the kernel).

load common

P2B=/usr/lib/llvm-19/bin/perf2bolt	# perf2bolt-19 on PATH is not recognised as perf2bolt

setup_file() {
	local d="$BATS_FILE_TMPDIR"
	/usr/lib/llvm-19/bin/clang -O2 -fno-pie -no-pie -Wl,--emit-relocs \
	    -o "$d/app" "$TOP/tests/data/progs/demo.c"
	mkdir -p "$d/pie"
	/usr/lib/llvm-19/bin/clang -O2 -fpie -pie -Wl,--emit-relocs \
	    -o "$d/pie/app" "$TOP/tests/data/progs/demo.c"
	# a second program: C++ with virtual calls, PLT calls into libstdc++
	/usr/lib/llvm-19/bin/clang++ -O2 -fpie -pie -Wl,--emit-relocs \
	    -o "$d/vcall" "$TOP/tests/data/prfraw2idx/vcall.cpp"
	/usr/lib/llvm-19/bin/clang++ -O2 -fno-pie -no-pie -Wl,--emit-relocs \
	    -o "$d/vcall-fixed" "$TOP/tests/data/prfraw2idx/vcall.cpp"
	# lld's layouts, and a shared library as the profiled binary
	/usr/lib/llvm-19/bin/clang -O2 -fuse-ld=lld -fno-pie -no-pie \
	    -Wl,--emit-relocs -o "$d/app-lld" "$TOP/tests/data/progs/demo.c"
	/usr/lib/llvm-19/bin/clang -O2 -fuse-ld=lld -fpie -pie \
	    -Wl,--emit-relocs -o "$d/pie-lld" "$TOP/tests/data/progs/demo.c"
	/usr/lib/llvm-19/bin/clang -O2 -fpic -shared -Wl,--emit-relocs \
	    -o "$d/libfoo.so" "$TOP/tests/data/progs/lib.c"
}

setup() {
	setup_tmp
	need_tool "$P2B" llvm-bolt-19 python3
	APP="$BATS_FILE_TMPDIR/app"
	PIEAPP="$BATS_FILE_TMPDIR/pie/app"
}

# compare BIN BIAS SEED NSAMPLES [mkperfdata options]
compare() {
	local bin=$1 bias=$2 seed=$3 n=$4
	shift 4
	python3 "$DATA/preagg/randlbr.py" "$bin" "$bias" 4242 "$n" "$seed" > t.events
	mkperfdata "$@" -o t.data t.events
	"$P2B" -p t.data -o a.fdata "$bin" > p2b.log 2>&1
	perfdecode t.data | preagg --legacy -b "$bin" > t.preagg
	"$P2B" --pa -p t.preagg -o b.fdata "$bin" > pa.log 2>&1
	sort a.fdata > a.sorted
	sort b.fdata > b.sorted
	[ "$(wc -l < a.sorted)" -gt 100 ]
	same_file a.sorted b.sorted
	# the parsing threads change nothing, in either format
	perfdecode t.data > t.ev
	preagg -j 1 --legacy -b "$bin" t.ev > j1.preagg
	preagg -j 3 --legacy -b "$bin" < t.ev > j3.preagg
	same_file t.preagg j1.preagg
	same_file t.preagg j3.preagg
	preagg -j 1 -b "$bin" t.ev > j1.cur
	preagg -j 4 -b "$bin" t.ev > j4.cur
	same_file j1.cur j4.cur
}

@test "preagg --legacy: same fdata as perf2bolt -p, fixed-address binary" {
	compare "$APP" 0 1 3000
	# perf2bolt 19 reads only little-endian perf.data (it checks the magic itself)
	compare "$APP" 0 2 2000 --zstd --chunk-size 4096
	# over 65536 distinct triples (the current format's entries count
	# them): preagg resolves its raw tables early, and still agrees
	compare "$APP" 0 16 8000
	[ "$(preagg -v -j 1 -b "$APP" t.ev 2>&1 >/dev/null |
	    sed 's/.*; \([0-9]*\) distinct entries$/\1/')" -gt 65536 ]
}

@test "preagg --legacy: same fdata as perf2bolt -p, PIE (rebased)" {
	compare "$PIEAPP" 555555554000 3 3000
	compare "$PIEAPP" 7f1234560000 4 2000 --hw-index
}

@test "preagg --legacy: same fdata as perf2bolt -p, a C++ program, PIE and not" {
	compare "$BATS_FILE_TMPDIR/vcall" 5599aa000000 11 3000
	compare "$BATS_FILE_TMPDIR/vcall-fixed" 0 12 3000 --round-every 100
}

@test "preagg --legacy: same fdata as perf2bolt -p, a shared library and an lld-linked executable" {
	compare "$BATS_FILE_TMPDIR/libfoo.so" 7f1234560000 13 3000
	compare "$BATS_FILE_TMPDIR/app-lld" 0 14 3000
}

@test "preagg: an lld-linked PIE: --legacy as perf2bolt 19, the current format rebased by the code segment" {
	local bin="$BATS_FILE_TMPDIR/pie-lld" bias=555555554000
	# lld puts a read-only segment at file offset 0 and the code in the
	# same page: the code's mapping has page offset 0, like the first
	# segment's, and LLVM 19 takes the first one (every address out of
	# range)
	python3 "$DATA/preagg/randlbr.py" "$bin" $bias 4242 2000 15 > t.events
	mkperfdata -o t.data t.events
	"$P2B" -p t.data -o a.fdata "$bin" > p2b.log 2>&1
	perfdecode t.data | preagg --legacy -b "$bin" > t.preagg
	"$P2B" --pa -p t.preagg -o b.fdata "$bin" > pa.log 2>&1
	sort a.fdata > a.sorted
	sort b.fdata > b.sorted
	same_file a.sorted b.sorted
	# the current format takes the executable segment: every location it
	# writes inside the binary is a sampled address less the load base
	preagg -b "$bin" t.events > cur.pa
	[ "$(grep -c '^T ' cur.pa)" -gt 100 ]
	awk -v bias=$bias 'function hex(s,  i, v) { v = 0; s = tolower(s)
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v }
	    FNR == NR { if ($1 == "sample") for (i = 7; i <= NF; i++) { split($i, f, "/")
		seen[hex(f[1]) - hex(bias)] = 1; seen[hex(f[2]) - hex(bias)] = 1 }; next }
	    { n = $1 == "B" ? 2 : ($1 == "T" || $1 == "R") ? 3 : 0
	      for (i = 2; i <= n + 1; i++) if ($i !~ /^X:/ && $i != "0") { checked++; if (!(hex($i) in seen)) bad++ } }
	    END { print checked + 0, bad + 0 }' t.events cur.pa > check.txt
	read checked bad < check.txt
	[ "$checked" -gt 1000 ]
	[ "$bad" -eq 0 ]
}

@test "preagg --legacy: a real branch trace (brtrace), same fdata as perf2bolt -p" {
	# a small static build keeps ptrace single-stepping to seconds
	/usr/lib/llvm-19/bin/clang -O2 -static -DNWORDS=300 -Wl,--emit-relocs \
	    -o small "$TOP/tests/data/progs/demo.c"
	brtrace -o small.events -- ./small > /dev/null
	[ "$(grep -c '^sample' small.events)" -gt 50 ]
	mkperfdata -o small.data small.events
	"$P2B" -p small.data -o a.fdata small > p2b.log 2>&1
	# the trace is real: BOLT finds every fall-through in its CFG
	grep -q 'traces mismatching disassembled function contents: 0 ' p2b.log
	perfdecode small.data | preagg --legacy -b small > small.preagg
	grep -q '^F ' small.preagg
	"$P2B" --pa -p small.preagg -o b.fdata small > pa.log 2>&1
	sort a.fdata > a.sorted
	sort b.fdata > b.sorted
	[ "$(wc -l < a.sorted)" -gt 100 ]
	same_file a.sorted b.sorted
	# a real trace in several parsing threads
	perfdecode small.data | preagg -j 3 --legacy -b small > j3.preagg
	same_file small.preagg j3.preagg
}

@test "preagg: llvm-bolt-19 optimizes with the profile, the program still works" {
	python3 "$DATA/preagg/randlbr.py" "$APP" 0 4242 3000 5 > t.events
	mkperfdata -o t.data t.events
	perfdecode t.data | preagg --legacy -b "$APP" -o app.preagg
	run llvm-bolt-19 "$APP" --pa -p app.preagg -o app.bolt -reorder-blocks=ext-tsp \
	    -reorder-functions=cdsort -split-functions
	echo "$output" | tail -5
	[ "$status" -eq 0 ]
	echo "$output" | grep -q 'BOLT-INFO: .* have non-empty execution profile'
	"$APP" > ref.out
	./app.bolt > bolt.out
	same_file ref.out bolt.out
	[ "$(llvm-readelf-19 -S app.bolt | grep -c bolt)" -gt 0 ]
}

# main's address in the fixed-address demo binary
main_addr() {
	llvm-nm-19 "$APP" | awk '$3 == "main" { print $1 }' | sed 's/^0*//'
}

@test "preagg: entries derived as DataAggregator derives them (hand-checked)" {
	m=$((16#$(main_addr)))
	h() { printf '%x' $((m + $1)); }
	{
		echo "# profpipe-events 1"
		echo "comm 7 7 - 1 app"
		echo "mmap 7 7 - 401000 1000 1000 r-xp - /bin/app"
		# newest first: branch main+20 -> main+30, then older main+5 -> main+10
		echo "sample 7 7 - cycles:u $(h 16) $(h 32)/$(h 48)/P $(h 5)/$(h 16)/M"
		# a sample without branch stack, one whose stack is all in the
		# kernel (it counts for nothing), and one of another process
		echo "sample 7 7 - cycles:u $(h 16)"
		echo "sample 7 7 - cycles:u $(h 16) ffffffff81000000/$(h 16)/P"
		echo "sample 8 8 - cycles:u $(h 16) $(h 32)/$(h 48)/P"
	} > hand.events
	run preagg --legacy -b "$APP" hand.events
	[ "$status" -eq 0 ]
	# legacy: both taken branches; the fall-through main+10 -> main+20
	# lies in main and its branch source too (F)
	expected="B $(h 5) $(h 16) 1 1
B $(h 32) $(h 48) 1 0
F $(h 16) $(h 32) 1"
	[ "$output" = "$expected" ]
	run preagg -b "$APP" hand.events
	[ "$status" -eq 0 ]
	# current format (LLVM main's profiles.md), one line per entry: the
	# older entry a trace (T branch, its target, the next newer branch
	# source, with its branch's mispredict count), the newest a trace
	# without fall-through (BR_ONLY, 16 hex digits, not -1, which LLVM
	# 21 and 22 do not read); the sample without branch stack an S entry
	# under its event
	expected="T $(h 5) $(h 16) $(h 32) 1 1
T $(h 32) $(h 48) ffffffffffffffff 1
E cycles:u
S $(h 16) 1"
	[ "$output" = "$expected" ]
	run preagg -L main -b "$APP" hand.events
	[ "$output" = "$expected" ]
	run preagg --llvm=23 -b "$APP" hand.events
	[ "$output" = "$expected" ]
	# LLVM 21 and 22: T takes one count (the mispredict count is lost),
	# an entry without fall-through is B, which keeps its own
	expected="B $(h 32) $(h 48) 1 0
T $(h 5) $(h 16) $(h 32) 1
E cycles:u
S $(h 16) 1"
	for r in 21 22; do
		run preagg -L $r -b "$APP" hand.events
		[ "$output" = "$expected" ]
	done
	# 19 and 20: --legacy
	run preagg -L 20 -b "$APP" hand.events
	[ "$output" = "$(preagg --legacy -b "$APP" hand.events)" ]
	# --branches: no S entries (perf2bolt without -nl)
	run preagg --branches -b "$APP" hand.events
	[ "$output" = "T $(h 5) $(h 16) $(h 32) 1 1
T $(h 32) $(h 48) ffffffffffffffff 1" ]
	# --basic: every sample of the binary's process at its ip, branch
	# stack or not (perf2bolt -nl)
	run preagg --basic -b "$APP" hand.events
	[ "$output" = "E cycles:u
S $(h 16) 3" ]
	run preagg -S -T -b "$APP" hand.events
	[ "$status" -eq 2 ]
	run preagg -S --legacy -b "$APP" hand.events
	[ "$status" -eq 2 ]
	for r in 18 0 x 21x; do
		run preagg -L $r -b "$APP" hand.events
		[ "$status" -eq 2 ]
	done
	# version 2, the same samples with data addresses (and '-'): the
	# same entries in both forms
	awk 'NR == 1 { print "# profpipe-events 2"; next }
	    $1 == "sample" { a = NR % 2 ? "-" : "7ffc0000" NR; $6 = $6 " " a }
	    { print }' hand.events > hand2.events
	grep -q ' 7ffc0000' hand2.events
	for f in --legacy ""; do
		preagg $f -b "$APP" hand.events > v1.pa
		preagg $f -b "$APP" hand2.events > v2.pa
		same_file v1.pa v2.pa
	done
}

@test "preagg: ends outside the binary: 0 (DataAggregator's EXTERNAL) in every form" {
	m=$((16#$(main_addr)))
	h() { printf '%x' $((m + $1)); }
	{
		echo "# profpipe-events 1"
		echo "mmap 7 7 - 401000 1000 1000 r-xp - /bin/app"
		# newest first: a call out of main, a return into main from
		# outside, a jump into main from outside
		echo "sample 7 7 - cycles:u $(h 16) $(h 40)/7f0000001000/P 7f0000002000/$(h 36)/P/RET 7f0000003000/$(h 44)/-"
	} > ext.events
	run preagg -b "$APP" ext.events
	[ "$status" -eq 0 ]
	# the call out: a branch only, to 0 (outside: LLVM main reads X:a as
	# 0 too, LLVM 21 and 22 would read X:a as the binary's address a);
	# the return from outside: R with branch 0 (external return), its
	# fall-through up to the call; the jump from outside: a branch from
	# 0 without fall-through (it ends outside)
	expected="T 0 $(h 44) ffffffffffffffff 1
T $(h 40) 0 ffffffffffffffff 1
R 0 $(h 36) $(h 40) 1"
	[ "$output" = "$expected" ]
	run preagg -L 21 -b "$APP" ext.events
	[ "$output" = "B 0 $(h 44) 1 0
B $(h 40) 0 1 0
R 0 $(h 36) $(h 40) 1" ]
	# -v counts them
	preagg -v -b "$APP" ext.events 2> err.txt > /dev/null
	[ "$(cat err.txt)" = "preagg: 1 samples, 1 of the selected binaries (0 without branch stack), 3 branch-stack entries kept, 0 with a kernel end dropped; 3 distinct entries" ]
	# merge keeps them
	preagg -b "$APP" ext.events > ext.pa
	run preagg --merge ext.pa ext.pa
	[ "${lines[0]}" = "T 0 $(h 44) ffffffffffffffff 2" ]
	run preagg --legacy -b "$APP" ext.events
	[ "$status" -eq 0 ]
	# LLVM 19: the outside end becomes 0; the fall-through after the
	# return ends in main but starts outside it: f
	expected="B 0 $(h 36) 1 0
B 0 $(h 44) 1 0
B $(h 40) 0 1 0
f $(h 36) $(h 40) 1"
	[ "$output" = "$expected" ]
}

@test "preagg: --merge sums in any order, equal to aggregating everything" {
	python3 "$DATA/preagg/randlbr.py" "$APP" 0 4242 900 6 > all.events
	head -4 all.events > hdr
	for i in 1 2 3; do
		{ cat hdr; sed -n "$((4 + (i - 1) * 300 + 1)),$((4 + i * 300))p" all.events; } > part$i.events
		# some samples without branch stacks too
		awk 'NR > 4 && NR % 7 == 0 { print $1, $2, $3, $4, $5, $6 }' part$i.events >> part$i.events
		preagg -b "$APP" part$i.events > p$i
	done
	preagg -b "$APP" part1.events part2.events part3.events > whole
	for order in "1 2 3" "1 3 2" "2 1 3" "2 3 1" "3 1 2" "3 2 1"; do
		set -- $order
		preagg --merge p$1 p$2 p$3 > m
		same_file m whole
		# and as a tree: (a+b)+c
		preagg --merge p$1 p$2 | preagg --merge - p$3 > m2
		same_file m2 whole
	done
	grep -q '^S ' whole
	grep -q '^T ' whole
	# legacy streams and hand-made ones merge too
	printf 'B 401000 401010 3 1\nF 401010 401020 2\nf 401010 401020 1\nr 1 2 3\nR 1 2 3 4\nE ev\nS deadbeef:10 5\nS X:12 1\n' > hand
	run preagg --merge hand hand
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx 'B 401000 401010 6 2'
	echo "$output" | grep -qx 'S deadbeef:10 10'
	echo "$output" | grep -qx 'R 1 2 3 8'
}

@test "preagg: several binaries get buildid:offset locations" {
	python3 "$DATA/preagg/randlbr.py" "$APP" 0 100 200 7 > a.events
	python3 "$DATA/preagg/randlbr.py" "$PIEAPP" 555555554000 200 200 8 /opt/pie/app |
	    grep -v '^#' > b.events
	cat a.events b.events > ab.events
	run preagg -b "$APP" -b "$PIEAPP" ab.events
	[ "$status" -eq 0 ]
	id1=$(llvm-readobj-19 --notes "$APP" | awk '/Build ID:/{print $3}')
	id2=$(llvm-readobj-19 --notes "$PIEAPP" | awk '/Build ID:/{print $3}')
	echo "$output" | grep -q "^T $id1:[0-9a-f]* $id1:"
	echo "$output" | grep -q "^T $id2:[0-9a-f]* $id2:"
	# both binaries have the same base name: the build-id in the mmap
	# record decides, not the name
	sed "s|- /opt/pie/app|$id2 /opt/pie/app|" ab.events > ab2.events
	run preagg -b "$APP" ab2.events
	[ "$status" -eq 0 ]
	! echo "$output" | grep -q "$id2"
}

@test "preagg: a forked child inherits the mapping until it execs" {
	m=$((16#$(main_addr)))
	h() { printf '%x' $((m + $1)); }
	{
		echo "# profpipe-events 1"
		echo "mmap 7 7 - 401000 1000 1000 r-xp - /bin/app"
		echo "fork 9 7 9 7 100"
		echo "sample 9 9 - cycles:u $(h 16) $(h 32)/$(h 48)/P"
		echo "comm 9 9 - 1 other"
		echo "sample 9 9 - cycles:u $(h 16) $(h 32)/$(h 48)/P"
	} > f.events
	run preagg --legacy -b "$APP" f.events
	[ "$status" -eq 0 ]
	[ "$output" = "B $(h 32) $(h 48) 1 0" ]
}

@test "preagg: with several parsing threads the error of the first bad line wins" {
	python3 "$DATA/preagg/randlbr.py" "$APP" 0 4242 3000 5 > t.events
	# 30000 samples, then bad branches at two lines far apart
	awk '/^sample/ { for (i = 0; i < 10; i++) print; next } { print }' t.events > big.events
	n=$(wc -l < big.events)
	[ "$n" -gt 30000 ]
	awk 'NR == 20001 { $8 = "401000/zz/P" } NR == 27001 { $7 = "1/2/Q" } { print }' \
	    big.events > bad.events
	for j in 1 2 4; do
		run preagg -j $j --legacy -b "$APP" -o out.pa bad.events
		[ "$status" -eq 1 ]
		[ "$output" = "preagg: bad.events:20001: bad branch '401000/zz/P'" ]
		[ ! -e out.pa ]
	done
	# a malformed sample head after a bad branch: the branch comes first
	awk 'NR == 25001 { $0 = "sample x" } { print }' bad.events > bad2.events
	run preagg -j 4 --legacy -b "$APP" bad2.events
	[ "$output" = "preagg: bad2.events:20001: bad branch '401000/zz/P'" ]
	awk 'NR == 25001 { $0 = "sample x" } { print }' big.events > bad3.events
	run preagg -j 4 --legacy -b "$APP" bad3.events
	[ "$status" -eq 1 ]
	[ "$output" = "preagg: bad3.events:25001: malformed sample record" ]
	# and the good stream gives the same through a pipe with any count
	preagg -j 1 --legacy -b "$APP" big.events > j1.pa
	cat big.events | preagg -j 4 --legacy -b "$APP" > j4.pa
	same_file j1.pa j4.pa
	[ "$(wc -l < j1.pa)" -gt 1000 ]
	# the current format, with every third sample without branch stack (S)
	awk '/^sample/ && n++ % 3 == 0 { $0 = $1 " " $2 " " $3 " " $4 " " $5 " " $6 } { print }' \
	    big.events > mixed.events
	preagg -j 1 -b "$APP" mixed.events > m1.pa
	preagg -j 4 -b "$APP" mixed.events > m4.pa
	same_file m1.pa m4.pa
	[ "$(grep -c '^S ' m1.pa)" -gt 10 ]
	[ "$(awk '$1 == "S" { s += $3 } END { print s }' m1.pa)" -eq 10000 ]
}

@test "preagg: 70000 short-lived children (many mapping contexts) sum as one process" {
	python3 "$DATA/preagg/randlbr.py" "$APP" 0 4242 3000 6 > t.events
	# every sample 24 times: from the parent, and each from its own
	# forked child, which inherits the parent's mapping
	awk '/^sample/ { for (i = 0; i < 24; i++) print; next } { print }' t.events > one.events
	awk '/^sample/ { for (i = 0; i < 24; i++) { c = 100000 + n++
		printf "fork %d 4242 %d 4242 5000\n", c, c
		$2 = c; $3 = c; print } next } { print }' t.events > kids.events
	[ "$(grep -c '^fork' kids.events)" -eq 72000 ]
	for fmt in --legacy ""; do
		preagg $fmt -b "$APP" one.events > one.pa
		preagg $fmt -j 1 -b "$APP" kids.events > kids1.pa
		preagg $fmt -j 3 -b "$APP" kids.events > kids3.pa
		[ "$(wc -l < one.pa)" -gt 1000 ]
		same_file one.pa kids1.pa
		same_file one.pa kids3.pa
	done
}

@test "preagg: bad input gives file:line and exit 1, and no output file" {
	printf '# profpipe-events 1\nbogus 1 2\n' > bad1
	run preagg -b "$APP" -o out.pa bad1
	[ "$status" -eq 1 ]
	[ "$output" = "preagg: bad1:2: unknown record 'bogus'" ]
	[ ! -e out.pa ]
	printf '# profpipe-events 1\nmmap 1 1 - zz 1000 0 r-xp - /bin/app\n' > bad2
	run preagg -b "$APP" bad2
	[ "$status" -eq 1 ]
	[ "$output" = "preagg: bad2:2: malformed mmap record" ]
	printf '# profpipe-events 1\nmmap 7 7 - 401000 1000 1000 r-xp - /bin/app\nsample 7 7 - cycles:u 401000 401000/40zz10/P\n' > bad3
	run preagg -b "$APP" bad3
	[ "$status" -eq 1 ]
	[ "$output" = "preagg: bad3:3: bad branch '401000/40zz10/P'" ]
	printf '# preagg 1\n' > bad4
	run preagg -b "$APP" bad4
	[ "$status" -eq 1 ]
	[ "$output" = "preagg: bad4:1: expected a 'profpipe-events' stream" ]
	# versions: 1 and 2 only; version 2's data address after the ip
	printf '# profpipe-events 3\nsample 7 7 - cycles:u 401000\n' > bad4b
	run preagg -b "$APP" bad4b
	[ "$status" -eq 1 ]
	[ "$output" = "preagg: bad4b:1: profpipe-events version '3': this preagg reads versions 1 and 2" ]
	printf '# profpipe-events 2\nmmap 7 7 - 401000 1000 1000 r-xp - /bin/app\nsample 7 7 - cycles:u 401000 4x4 401000/401010/P\n' > bad4c
	run preagg -b "$APP" bad4c
	[ "$status" -eq 1 ]
	[ "$output" = "preagg: bad4c:3: bad data address '4x4'" ]
	# a version 1 line (no address) read as version 2: its first branch
	# is no address
	printf '# profpipe-events 2\nmmap 7 7 - 401000 1000 1000 r-xp - /bin/app\nsample 7 7 - cycles:u 401000 401000/401010/P\n' > bad4d
	run preagg -b "$APP" bad4d
	[ "$status" -eq 1 ]
	[ "$output" = "preagg: bad4d:3: bad data address '401000/401010/P'" ]
	printf 'B 1 2 18446744073709551615 0\nB 1 2 1 0\n' > bad5
	run preagg --merge bad5
	[ "$status" -eq 1 ]
	[ "$output" = "preagg: bad5:2: count overflows" ]
	# the overflow is found first even with a bad line after it
	printf 'B 1 2 18446744073709551615 0\nB 1 2 1 0\nB 3 4 x 0\n' > bad5b
	run preagg --merge bad5b
	[ "$status" -eq 1 ]
	[ "$output" = "preagg: bad5b:2: count overflows" ]
	printf 'Q 1 2 3\n' > bad6
	run preagg --merge bad6
	[ "$status" -eq 1 ]
	[ "$output" = "preagg: bad6:1: unknown entry type 'Q'" ]
	printf 'F 1 2\n' > bad7
	run preagg --merge bad7
	[ "$status" -eq 1 ]
	[ "$output" = "preagg: bad7:1: F entry: missing count" ]
	# no mapping of the binary: the names that were mapped
	printf '# profpipe-events 1\nmmap 7 7 - 401000 1000 1000 r-xp - /opt/app.orig\nmmap 7 7 - 7f0000000000 1000 0 r--p - /lib/data.bin\nsample 7 7 - cycles:u 401000\n' > other.events
	run preagg -b "$APP" other.events
	[ "$status" -eq 0 ]
	[ "$output" = "preagg: no samples of the selected binaries (1 samples read; code mapped from app.orig)" ]
	run preagg -b /nonexistent x
	[ "$status" -eq 1 ]
	run preagg
	[ "$status" -eq 2 ]
}

@test "preagg: a sample before its mapping in file order but not in time is attributed, as perf script orders it" {
	m=$((16#$(main_addr)))
	h() { printf '%x' $((m + $1)); }
	{
		echo "# profpipe-events 1"
		# written by another CPU's buffer first: two samples after the
		# mmap in time, one before it
		echo "sample 7 7 2000 cpu-clock:u $(h 16)"
		echo "sample 7 7 3000 cpu-clock:u $(h 16) $(h 32)/$(h 48)/P"
		echo "sample 7 7 500 cpu-clock:u $(h 20)"
		echo "comm 7 7 900 1 app"
		echo "mmap 7 7 1000 401000 1000 1000 r-xp - /bin/app"
		echo "sample 7 7 4000 cpu-clock:u $(h 16)"
		# another process, never mapping the binary: nothing
		echo "sample 9 9 5000 cpu-clock:u $(h 16)"
	} > late.events
	run preagg -b "$APP" late.events
	[ "$status" -eq 0 ]
	expected="T $(h 32) $(h 48) ffffffffffffffff 1
E cpu-clock:u
S $(h 16) 2"
	[ "$output" = "$expected" ]
	# a forked child's early samples, from the fork's time on
	{
		echo "# profpipe-events 1"
		echo "mmap 7 7 1000 401000 1000 1000 r-xp - /bin/app"
		echo "sample 8 8 2500 cpu-clock:u $(h 16)"
		echo "sample 8 8 1500 cpu-clock:u $(h 20)"
		echo "fork 8 7 8 7 2000"
	} > forklate.events
	run preagg -b "$APP" forklate.events
	[ "$status" -eq 0 ]
	[ "$output" = "E cpu-clock:u
S $(h 16) 1" ]
}

@test "preagg: several binaries: a sample of a process before its library's mapping in file order, not in time, counts for the library as with that binary alone" {
	L="$BATS_FILE_TMPDIR/libfoo.so"
	m=$((16#$(main_addr)))
	h() { printf '%x' $((m + $1)); }
	f=$((16#$(llvm-nm-19 "$L" | awk '$2 == "T" { print $1; exit }')))
	base=$((0x7f1200000000))
	# the library's executable segment: file offset and address
	seg=$(readelf -lW "$L" | awk '$1 == "LOAD" && / R E / { print $2, $3 }')
	off=${seg% *}
	va=${seg#* }
	lx() { printf '%x' $((base + f + $1)); }
	{
		echo "# profpipe-events 1"
		echo "comm 7 7 900 1 app"
		echo "mmap 7 7 1000 401000 1000 1000 r-xp - /bin/app"
		# one CPU's buffer first: a call from main into the library
		# and samples in it, after the library's mapping in time, and
		# one before it (not the library's)
		echo "sample 7 7 3000 cpu-clock:u $(lx 4) $(lx 0)/$(h 48)/P $(h 16)/$(lx 0)/M"
		echo "sample 7 7 3100 cpu-clock:u $(lx 4)"
		echo "sample 7 7 1500 cpu-clock:u $(lx 4)"
		# the other's: the library mapped at 2000
		printf 'mmap 7 7 2000 %x 1000 %x r-xp - /lib/libfoo.so\n' $((base + va)) $((off))
		echo "sample 7 7 4000 cpu-clock:u $(lx 8)"
		echo "sample 7 7 4100 cpu-clock:u $(h 20)"
	} > two.events
	preagg -b "$APP" -b "$L" two.events > two.pa
	cat two.pa
	# the library's entries: the call into it, its return, two samples
	[ "$(grep -c "^S .*:$(printf '%x' $((f + 4))) 1\$" two.pa)" -eq 1 ]
	[ "$(grep -c '^S ' two.pa)" -eq 3 ]
	# each binary's profile from the stream of both is its profile
	# from the stream of it alone
	for b in "$APP" "$L"; do
		preagg -b "$b" two.events > one.pa
		fdatawrite "$b" one.pa | sort > one.s
		fdatawrite "$b" two.pa | sort > both.s
		cat both.s
		[ "$(grep -c . one.s)" -ge 2 ]
		same_file one.s both.s
	done
	# nothing is counted twice: four traces, an E line, three samples
	[ "$(grep -c . two.pa)" -eq 8 ]
}

@test "preagg: a process's state outlives its exit record for a while, then goes; a thread's exit is not its process's" {
	m=$((16#$(main_addr)))
	h() { printf '%x' $((m + $1)); }
	{
		echo "# profpipe-events 1"
		echo "mmap 7 7 1000 401000 1000 1000 r-xp - /bin/app"
		echo "exit 7 1 8 1 1100"
		echo "sample 7 7 1200 cpu-clock:u $(h 16)"
		echo "exit 7 1 7 1 1300"
		# late in file order, after the exit
		echo "sample 7 7 1250 cpu-clock:u $(h 16)"
	} > exit1.events
	run preagg -b "$APP" exit1.events
	[ "$status" -eq 0 ]
	[ "$output" = "E cpu-clock:u
S $(h 16) 2" ]
	# 4096 more processes exit: pid 7 is forgotten, and a new process
	# that reuses it without mapping the binary gets nothing
	{
		cat exit1.events
		awk 'BEGIN { for (i = 0; i < 4096; i++) printf "exit %d 1 %d 1 %d\n", 100000 + i, 100000 + i, 2000 + i }'
		echo "comm 7 7 9000 1 other"
		echo "sample 7 7 9100 cpu-clock:u $(h 16)"
	} > exit2.events
	run preagg -b "$APP" exit2.events
	[ "$status" -eq 0 ]
	[ "$output" = "E cpu-clock:u
S $(h 16) 2" ]
	# malformed exit and fork records are errors
	printf '# profpipe-events 1\nexit 7 1 7\n' > bad.events
	run preagg -b "$APP" bad.events
	[ "$status" -eq 1 ]
	[ "$output" = "preagg: bad.events:2: malformed exit record" ]
}

@test "preagg: every field at the limits of its range" {
	m=$((16#$(main_addr)))
	h() { printf '%x' $((m + $1)); }
	{
		echo "# profpipe-events 1"
		# u64 times (the largest), pid and tid at 2^32 - 1
		echo "comm 4294967295 4294967295 18446744073709551615 1 app"
		echo "mmap 4294967295 4294967295 18446744073709551615 401000 1000 1000 r-xp - /bin/app"
		echo "fork 4294967294 4294967295 4294967294 4294967295 18446744073709551615"
		echo "sample 4294967295 4294967295 18446744073709551615 cpu-clock:u $(h 16)"
		echo "sample 4294967294 4294967294 0 cpu-clock:u $(h 16)"
		# -1 pids (a sample of no process: never attributed), no time
		echo "sample -1 -1 - cpu-clock:u $(h 16)"
		echo "mmap -1 -1 - 401000 1000 1000 r-xp - /bin/app"
		echo "exit 4294967294 4294967295 4294967294 4294967295 18446744073709551615"
		echo "lost 18446744073709551615"
	} > limits.events
	run preagg -b "$APP" limits.events
	[ "$status" -eq 0 ]
	[ "$output" = "E cpu-clock:u
S $(h 16) 2" ]
	# one past each limit is an error with its line
	bad() {	# bad LINE RECORD
		printf '# profpipe-events 1\n%s\n' "$1" > b.events
		run preagg -b "$APP" b.events
		[ "$status" -eq 1 ] && [ "$output" = "preagg: b.events:2: malformed $2 record" ] ||
		    { echo "$1: $output"; return 1; }
	}
	bad "comm 4294967296 1 1 1 app" comm
	bad "comm 1 1 18446744073709551616 1 app" comm
	bad "comm 1 1 1 2 app" comm
	bad "comm -2 1 1 1 app" comm
	bad "mmap 1 1 1 10000000000000000 1000 0 r-xp - /bin/app" mmap
	bad "mmap 1 1 1 401000 1000 0 r-x - /bin/app" mmap
	bad "fork 1 2 1 2 18446744073709551616" fork
	bad "fork 1 2 1 2 1 9" fork
	bad "exit 1 2 1 2" exit
	bad "sample 1 1 184467440737095516160 cpu-clock:u 401000" sample
	bad "sample 1 1 1 cpu-clock:u" sample
}

@test "preagg --legacy on a BOLTed binary with BAT: perf2bolt's Skylake workaround for 32-entry stacks, same fdata as perf2bolt -p" {
	need_tool llvm-bolt perf2bolt
	"$LLVM_BIN/llvm-bolt" "$APP" -o app.bolt --enable-bat > bolt.log 2>&1
	[ "$(llvm-readelf-19 -S app.bolt | grep -c 'note.bolt_bat')" -eq 1 ]
	# randlbr writes stacks of 4 to 32 entries: from the first 32-entry
	# one on, perf2bolt drops the two newest entries of every stack
	python3 "$DATA/preagg/randlbr.py" app.bolt 0 4242 3000 7 "$PWD/app.bolt" > bolt.events
	grep -q "^sample \([^ ]* \)\{5\}\([^ ]* \)\{31\}[^ ]*$" bolt.events
	mkperfdata -o bolt.data bolt.events
	"$LLVM_BIN/perf2bolt" -p bolt.data -o ref.fdata app.bolt > p2b.log 2>&1
	perfdecode bolt.data | preagg --legacy -b app.bolt > bolt.pa
	"$LLVM_BIN/perf2bolt" --pa -p bolt.pa -o our.fdata app.bolt > pa.log 2>&1
	sort ref.fdata > ref.sorted
	sort our.fdata > our.sorted
	[ "$(wc -l < ref.sorted)" -ge 1000 ]
	same_file ref.sorted our.sorted
	# -j is overridden: one parser, so "from the first on" is input order
	perfdecode bolt.data | preagg -j 4 --legacy -b app.bolt > bolt4.pa
	same_file bolt.pa bolt4.pa
}
