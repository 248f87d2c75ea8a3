#!/usr/bin/env bats
# fdatawrite: the pipeline perfdecode | preagg | fdatawrite against
# perf2bolt-19 on the same perf.data, line for line after sorting, from
# both pre-aggregated forms (the default T/R/B form and --legacy B/F/f).
# Branch stacks follow the programs' real control flow: cfgwalk walks
# their code, brtrace records a real run.  llvm-bolt-19 optimizes the
# programs with our fdata and with perf2bolt's and must say the same.

load common
bats_require_minimum_version 1.5.0

P2B=/usr/lib/llvm-19/bin/perf2bolt

setup() {
	setup_tmp
	SRC="$DATA/functab"
	SW="$DATA/fdatawrite/sw.c"
}

# lines of an fdata whose two ends lie in one function (intra-function
# branches and fall-throughs)
intra() {
	awk '$1 == 1 && $4 == 1 && $2 == $5' "$1" | wc -l
}

# compare BIN PERFDATA MIN: both forms through fdatawrite equal
# perf2bolt -p, with at least MIN intra-function lines
compare() {
	local bin=$1 data=$2 min=$3
	"$P2B" -p "$data" -o "$bin.ref" "$bin" > "$bin.p2b.log" 2>&1
	sort "$bin.ref" > "$bin.ref.s"
	perfdecode "$data" | preagg --legacy -b "$bin" | fdatawrite "$bin" > "$bin.leg"
	perfdecode "$data" | preagg -b "$bin" > "$bin.pa"
	fdatawrite -o "$bin.cur" "$bin" "$bin.pa"
	sort "$bin.leg" > "$bin.leg.s"
	sort "$bin.cur" > "$bin.cur.s"
	local n eq
	n=$(intra "$bin.ref.s")
	eq=$(comm -12 "$bin.ref.s" "$bin.cur.s" | wc -l)
	echo "$bin: $(wc -l < "$bin.ref.s") lines from perf2bolt ($n intra-function), $eq equal" >&2
	[ "$n" -ge "$min" ]
	same_file "$bin.ref.s" "$bin.leg.s"
	same_file "$bin.ref.s" "$bin.cur.s"
}

# bolt_same BIN MIN ARGS...: llvm-bolt-19 BIN with BIN.ref (perf2bolt's
# fdata) and with BIN.cur (ours), block reordering, function splitting
# and, in relocation mode, function reordering: BOLT prints the same
# (functions with profile, stale profiles, dyno stats before and after),
# at least MIN functions have a profile, it reorders blocks of some, and
# the optimized BIN prints what BIN prints when run with ARGS
bolt_same() {
	local bin=$1 min=$2 n opts
	shift 2
	opts="-reorder-blocks=ext-tsp -split-functions -dyno-stats"
	if readelf -SW "$bin" | grep -q '[.]rela[.]text'; then
		opts="$opts -reorder-functions=hfsort"
	fi
	"$LLVM_BIN/llvm-bolt" "$bin" -o "$bin.refbolt" -data "$bin.ref" $opts > "$bin.refbolt.log" 2>&1
	"$LLVM_BIN/llvm-bolt" "$bin" -o "$bin.bolt" -data "$bin.cur" $opts > "$bin.bolt.log" 2>&1
	grep -E 'non-empty execution profile|stale|could not be optimized|modified layout' "$bin.bolt.log" >&2 || true
	same_file "$bin.refbolt.log" "$bin.bolt.log"
	n=$(sed -n 's/^BOLT-INFO: \([0-9]*\) out of [0-9]* functions .* have non-empty execution profile$/\1/p' "$bin.bolt.log")
	[ "${n:-0}" -ge "$min" ]
	grep -q 'basic block reordering modified layout of [1-9]' "$bin.bolt.log"
	[ "$(grep -c ': executed instructions' "$bin.bolt.log")" -eq 2 ]
	"./$bin" "$@" > "$bin.out" 2>&1
	"./$bin.bolt" "$@" > "$bin.bolt.out" 2>&1
	[ -s "$bin.out" ]
	same_file "$bin.out" "$bin.bolt.out"
}

walk() {	# walk BIN N: a cfgwalk perf.data of N samples
	cfgwalk -n "$2" -s 7 -o "$1.events" "$1"
	mkperfdata -o "$1.data" "$1.events"
}

@test "fdatawrite: switch jump tables and a computed goto: clang-19 non-PIE and PIE, gcc without relocations; llvm-bolt-19 on both fdata" {
	need_tool perf2bolt llvm-bolt clang-19 gcc
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw1
	clang-19 -O2 -fpie -pie -Wl,--emit-relocs "$SW" -o sw2
	gcc -O2 "$SW" -o sw3
	for b in sw1 sw2 sw3; do
		walk $b 4000
		compare $b $b.data 12
	done
	# llvm-bolt-19 on the two fdata: relocation and non-relocation mode
	bolt_same sw1 3 3000
	bolt_same sw3 2 3000
	# the dispatch blocks of the table really have their successors
	cfgtest sw1 op/1 > cfg
	[ "$(grep -c '^  ' cfg)" -ge 9 ]
}

@test "fdatawrite: C++ with exceptions and virtual calls; gcc's .cold fragments with and without relocations; llvm-bolt-19 on both fdata" {
	need_tool perf2bolt llvm-bolt g++ clang++-19
	g++ -O2 -Wl,--emit-relocs "$SRC/cxx.cc" "$SRC/same1.c" -o x1
	g++ -O2 "$SRC/cxx.cc" "$SRC/same1.c" -o x2
	clang++-19 -O2 -fpie -pie -Wl,--emit-relocs -x c++ "$SRC/cxx.cc" -x none "$SRC/same1.c" -o x3
	# (8 intra-function lines are all x2's walks reach)
	for b in x1 x2 x3; do
		walk $b 4000
		compare $b $b.data 8
	done
	bolt_same x1 8
	bolt_same x3 8
	# the fragments have lines of their own with relocations
	grep -q ' main.cold/1 ' x1.ref.s
	# landing pads found from the LSDA
	cfgtest x1 _Z4workP4Basei | grep -q lpad
}

@test "fdatawrite in a pipeline: what is gathered while the standard input has nothing yet gives the same fdata, warnings and -v counts as from a file" {
	need_tool perf2bolt g++ clang-19 gcc
	g++ -O2 -Wl,--emit-relocs "$SRC/cxx.cc" "$SRC/same1.c" -o x1
	clang-19 -O2 -fpie -pie -Wl,--emit-relocs "$SW" -o sw2
	gcc -O2 "$SW" -o sw3
	gcc -O1 -fno-pie -no-pie -Wl,--emit-relocs "$DATA/fdatawrite/shapes_main.c" "$DATA/fdatawrite/shapes.s" -o h1
	for b in x1 sw2 sw3 h1; do
		walk $b 2000
		compare $b $b.data 4
		fdatawrite -v -o $b.file $b $b.pa 2> $b.file.err
		# the input comes a second later: the code is read meanwhile
		# (relocation mode; sw3 has none: what its graphs take from
		# the rest waits for the profile)
		(sleep 1; cat $b.pa) | fdatawrite -v -o $b.pipe $b 2> $b.pipe.err
		cmp $b.cur $b.file
		cmp $b.file $b.pipe
		cmp $b.file.err $b.pipe.err
		grep -q ' entries, ' $b.pipe.err
	done
	grep -q ' main.cold/1 ' x1.pipe
}

@test "fdatawrite: static functions of the same name, labels, FDE-only code" {
	need_tool perf2bolt gcc clang-19
	gcc -O2 -Wl,--emit-relocs "$SRC/same_main.c" "$SRC/same1.c" "$SRC/same2.c" "$SRC/labels.s" -o a1
	clang-19 -O2 -fno-pie -no-pie "$SRC/same_main.c" "$SRC/same1.c" "$SRC/same2.c" "$SRC/fdeonly.s" -o a2
	for b in a1 a2; do
		walk $b 3000
		compare $b $b.data 6
	done
	grep -q ' helper/2 ' a1.ref.s
}

@test "fdatawrite: hand-written shapes: CTC, jump past end, ud2/int3/hlt, entries, own-code address, loop, NOPs, jcc;jmp, a fragment named after an alias, loads from code" {
	need_tool perf2bolt gcc
	gcc -O1 -fno-pie -no-pie -Wl,--emit-relocs "$DATA/fdatawrite/shapes_main.c" "$DATA/fdatawrite/shapes.s" -o h1
	gcc -O1 -fno-pie -no-pie "$DATA/fdatawrite/shapes_main.c" "$DATA/fdatawrite/shapes.s" -o h2
	for b in h1 h2; do
		walk $b 3000
		compare $b $b.data 20
	done
	cfgtest h1 unkind lp multi > cfg
	grep -q '^function unkind nonsimple' cfg
	grep -q '^function lp ignored' cfg
	grep -q '^function multi simple' cfg
	cfgtest h2 multi | grep -q '^function multi nonsimple'
	# the fragment alia.cold names its parent by its second name
	cfgtest h1 alib | grep -q '^function alib simple'
	cfgtest h2 alib | grep -q '^function alib ignored'
	# loads from code: BOLT reads the relocated one (rref's, into rtgt)
	# from its relocation, the others as addresses (entry points in the
	# middle of an instruction)
	cfgtest h1 rtgt sref > cfg
	grep -q '^function rtgt simple' cfg
	grep -q '^function sref ignored' cfg
	cfgtest h2 rtgt sref > cfg
	grep -q '^function rtgt nonsimple' cfg
	grep -q '^function sref nonsimple' cfg
}

@test "fdatawrite: a real branch trace (brtrace of a static program), and llvm-bolt-19 on it" {
	need_tool perf2bolt llvm-bolt clang-19
	/usr/lib/llvm-19/bin/clang -O2 -static -DNWORDS=300 -Wl,--emit-relocs \
	    -o small "$DATA/progs/demo.c"
	brtrace -o small.events -- ./small > /dev/null
	mkperfdata -o small.data small.events
	compare small small.data 100
	bolt_same small 30
}

# every BIN: hand-made F and f entries from each instruction to each of
# the next five, equal to perf2bolt-19 --pa's on the same entries
every_insn() {
	local b
	for b in "$@"; do
		objdump -d --no-show-raw-insn "$b" |
		    awk '/^ +[0-9a-f]+:/ { sub(":", "", $1); print $1 }' |
		    awk '{ a[NR] = $1 } END { for (i = 1; i <= NR; i++)
			for (j = 1; j <= 5 && i + j <= NR; j++) {
				print "F", a[i], a[i + j], 1
				print "f", a[i], a[i + j], 2 } }' > "$b.every.pa"
		"$P2B" --pa -p "$b.every.pa" -o "$b.every.ref" "$b" > /dev/null 2>&1
		fdatawrite -o "$b.every.cur" "$b" "$b.every.pa"
		sort "$b.every.ref" > "$b.every.ref.s"
		sort "$b.every.cur" > "$b.every.cur.s"
		echo "$b: $(wc -l < "$b.every.pa") entries, $(wc -l < "$b.every.ref.s") lines from perf2bolt" >&2
		[ "$(wc -l < "$b.every.ref.s")" -ge 10 ]
		same_file "$b.every.ref.s" "$b.every.cur.s"
	done
}

@test "fdatawrite: every instruction to the next five, hand-made, against perf2bolt --pa: gcc's split jump tables, conditional tail calls before a call continuation, C and C++" {
	need_tool perf2bolt gcc clang-19 g++
	gcc -O2 -Wl,--emit-relocs "$DATA/fdatawrite/split.c" -o split
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw1
	g++ -O2 -Wl,--emit-relocs "$SRC/cxx.cc" "$SRC/same1.c" -o x1
	every_insn split sw1 x1
	# the fragment's entries: from the conditional tail call and from
	# the parent's table
	cfgtest split op.cold/1 > cfg
	[ "$(grep -c ' entry' cfg)" -eq 3 ]
	grep -q '^1 op.cold/1 5 1 op.cold/1 a ' split.every.cur.s
}

@test "fdatawrite: x86dec's table decoder agrees with Capstone on real code and random bytes (lengths, kinds, registers written)" {
	gcc -O2 -Wl,--emit-relocs "$SW" -o sw
	clang++-19 -O2 -x c++ "$SRC/cxx.cc" -x none "$SRC/same1.c" -o x
	libc=$(ldd ./sw | awk '/libc[.]so/ { print $3 }')
	run x86dectest -r 400000 7 sw x "$libc"
	echo "$output"
	[ "$status" -eq 0 ]
	# most instructions are the table's (else the test checks little)
	[ "$(echo "$output" | grep -c 'known to the table')" -eq 4 ]
	echo "$output" | awk '/instructions,/ { sub(/^[(]/, "", $5); if ($5 + 0 < 85) exit 1 }'
}

@test "fdatawrite: real perf record -e cpu-clock samples, as perf2bolt -nl writes them" {
	need_tool perf2bolt clang-19 perf
	/usr/lib/llvm-19/bin/clang -O1 -Wl,--emit-relocs -o spin "$DATA/fdatawrite/spin.c"
	perf record -q -e cpu-clock -o p.data -- ./spin 150000 > /dev/null 2>&1
	"$P2B" -nl -p p.data -o ref.fdata spin > p2b.log 2>&1
	perfdecode p.data | preagg -b spin | fdatawrite -o our.fdata spin
	sort ref.fdata > ref.s
	sort our.fdata > our.s
	[ "$(wc -l < ref.s)" -ge 5 ]
	head -1 our.fdata | grep -q '^no_lbr cpu-clock:$'
	same_file ref.s our.s
}

@test "fdatawrite: hand-made entries: the T, r and -1/-2 forms of B, F and f, build-id locations, other binaries, comments" {
	need_tool perf2bolt clang-19
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	walk sw 500
	perfdecode sw.data | preagg --legacy -b sw > leg.pa
	perfdecode sw.data | preagg -b sw > cur.pa
	# the same entries with every location as buildid:address
	bid=$(readelf -n sw | awk '/Build ID/ {print $3}')
	awk -v b="$bid" '{ n = ($1 == "T" || $1 == "R") ? 3 : ($1 == "S") ? 1 : ($1 == "E") ? 0 : 2
		for (i = 2; i <= n + 1; i++) if ($i !~ /:/ && $i !~ /^-/ && $i !~ /^ffffffffffffff/) $i = b ":" $i
		print }' cur.pa > bid.pa
	grep -q "^T $bid:" bid.pa
	fdatawrite sw cur.pa | sort > a
	fdatawrite sw bid.pa | sort > b
	[ "$(wc -l < a)" -gt 20 ]
	same_file a b
	# the legacy entries written as traces with BOLT's constants: B as
	# "T from to -1", F as "T -1 start end", f as "T -2 ..." and "r"
	awk '$1 == "B" { print "T", $2, $3, "ffffffffffffffff", $4, $5 }
	    $1 == "F" { print "T ffffffffffffffff", $2, $3, $4 }
	    $1 == "f" { print (NR % 2 ? "T fffffffffffffffe" : "r"), $2, $3, $4 }' leg.pa > const.pa
	grep -q '^r ' const.pa
	fdatawrite sw leg.pa | sort > l
	fdatawrite sw const.pa | sort > k
	[ "$(awk '$1 == 1 && $4 == 1 && $2 == $5' l | wc -l)" -gt 5 ]
	same_file l k
	# in the current form, an entry of another binary is external (in
	# the B/F/f form perf2bolt-19 --pa reads, the build-id is ignored:
	# the next test)
	a=$(nm sw | awk '$3 == "main" { print $1 }')
	printf 'B 0123abcd:%s %s 5 0\nT %s %s %s 1\n' $a $a $a $a $a > other.pa
	fdatawrite sw other.pa > o
	grep -qx "0 \[unknown\] 0 1 main 0 0 5" o
	# comments and blank lines
	(echo '# a comment'; echo; cat leg.pa) | fdatawrite sw | sort > c
	fdatawrite sw leg.pa | sort > d
	same_file c d
}

@test "fdatawrite, yamlwrite: every kind of location of BOLT's pre-aggregated X86 tests (external and kernel addresses, build-ids, at either end of B, F, f): perf2bolt-19 --pa's fdata and YAML" {
	# tests/data/fdatawrite/pacases.py writes the cases on our program
	# (non-PIE and PIE, with relocations): in this form perf2bolt-19 --pa
	# takes every location for its address (X: and build-ids ignored), an
	# end outside every function written with it
	need_tool perf2bolt clang-19 python3
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	clang-19 -O2 -fPIE -pie -Wl,--emit-relocs "$SW" -o swp
	local b n
	for b in sw swp; do
		python3 "$DATA/fdatawrite/pacases.py" $b > $b.pa
		grep -q '^B X:' $b.pa
		grep -q '^F X:' $b.pa
		grep -q '^B [0-9a-f]* [0-9a-f]*:7f' $b.pa
		"$P2B" --pa -p $b.pa -o $b.ref -w $b.ref.yaml $b > $b.log 2>&1
		sort $b.ref > $b.ref.s
		fdatawrite $b $b.pa | sort > $b.our.s
		n=$(grep -c '^0 \[unknown\] [1-9a-f][0-9a-f]* ' $b.ref.s)
		echo "$b: $(wc -l < $b.ref.s) lines, $n from unknown addresses" >&2
		[ "$n" -ge 8 ]
		grep -q ' 0 \[unknown\] [1-9a-f][0-9a-f]* [0-9]* [0-9]*$' $b.ref.s
		same_file $b.ref.s $b.our.s
		yamlwrite $b $b.pa > $b.yaml
		python3 "$DATA/yamlwrite/yamlcmp.py" $b.ref.yaml $b.yaml
		# one entry of the current form makes a stream perf2bolt-19
		# cannot read: its external ends are 0, as perf2bolt-19 -p
		# writes them, and X: or another binary's build-id is outside
		{ cat $b.pa; echo "T ffffffffffffffff $(awk '$1 == "F" && $2 !~ /:/ { print $2, $2; exit }' $b.pa) 1"; } > $b.cur.pa
		fdatawrite $b $b.cur.pa > $b.cur
		grep -q '^0 \[unknown\] 0 ' $b.cur
		run ! grep -q '\[unknown\] [1-9a-f]' $b.cur
		run ! grep -q '^1 op/1 0 1 main ' $b.cur
	done
	# what perf2bolt-19 refuses, we refuse: a bad address, an unknown
	# entry type, an empty build-id (pre-aggregated-bad-hex.txt,
	# -bad-type.txt, -buildid-empty.txt)
	for e in 'B nothex 401140 1 0' 'Z 401140 401150 1 0' 'B :401140 :401150 1 0'; do
		echo "$e" > bad.pa
		run "$P2B" --pa -p bad.pa -o bad.fdata sw
		[ "$status" -ne 0 ]
		run fdatawrite sw bad.pa
		[ "$status" -eq 1 ]
		[[ "$output" == "fdatawrite: bad.pa:1: "* ]]
		run yamlwrite sw bad.pa
		[ "$status" -eq 1 ]
	done
}

@test "fdatawrite --bolted: the boltedcollection form, file-qualified local names, F as given" {
	gcc -O2 -Wl,--emit-relocs "$SRC/same_main.c" "$SRC/same1.c" "$SRC/same2.c" -o s
	a=$(functest name s helper/2 | cut -d' ' -f1)
	printf 'F %x %x 7\nB %x %x 3 1\n' $((0x$a + 1)) $((0x$a + 4)) $((0x$a)) $((0x$a + 4)) > b.pa
	fdatawrite --bolted s b.pa > b.fdata
	cat b.fdata
	[ "$(head -1 b.fdata)" = boltedcollection ]
	grep -qx '1 helper/same2.c/1 1 1 helper/same2.c/1 4 0 7' b.fdata
	grep -qx '1 helper/same2.c/1 0 1 helper/same2.c/1 4 1 3' b.fdata
	[ "$(wc -l < b.fdata)" -eq 3 ]
}

# same_jobs OUT ARGS...: fdatawrite -v ARGS in 1 to 4 processes (-j 1 is the
# walk in one): OUT.N each, the same bytes and the same warnings and
# counts on standard error
same_jobs() {
	local out=$1 j
	shift
	for j in 1 2 3 4; do
		fdatawrite -j $j -v -o "$out.$j" "$@" 2> "$out.$j.err"
		[ $j -eq 1 ] && continue
		same_file "$out.1" "$out.$j"
		same_file "$out.1.err" "$out.$j.err"
	done
	echo "$out: $(wc -l < "$out.1") lines" >&2
}

@test "fdatawrite -j: the walk split among 2 to 4 processes writes the bytes and counts of one: both forms, calls and returns between functions of different processes, fragments, C++, several binaries (-d), --bolted, -M, samples alone" {
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	gcc -O2 -Wl,--emit-relocs "$DATA/fdatawrite/split.c" -o split
	g++ -O2 -Wl,--emit-relocs "$SRC/cxx.cc" "$SRC/same1.c" -o x1
	for b in sw split x1; do
		walk $b 400
		perfdecode $b.data | preagg -b $b > $b.pa
		perfdecode $b.data | preagg --legacy -b $b > $b.leg
		# entries held until the end of the stream, where its form
		# says how they read: an end outside every function
		m=$(nm $b | awk '$3 == "main" { print $1 }')
		printf 'B 10 %s 2 0\nB %x 10 3 1\n' $m $((0x$m + 4)) >> $b.leg
		printf 'B 10 %x 5 0\n' $((0x$m + 1)) >> $b.pa
		perfdecode $b.data | preagg --basic -b $b > $b.s
		# each process owns the functions of 32 slices of the code the
		# entries touch, in turn: a call or a return between two of
		# them is an entry whose branch (the source's graph) and
		# fall-through (the target's) two processes walk
		same_jobs $b.cur $b $b.pa
		same_jobs $b.lg $b $b.leg
		same_jobs $b.bo --bolted $b $b.leg
		same_jobs $b.sa $b $b.s
		[ "$(wc -l < $b.cur.1)" -gt 20 ]
		[ "$(wc -l < $b.sa.1)" -gt 5 ]
		head -1 $b.sa.1 | grep -q '^no_lbr'
		head -1 $b.bo.1 | grep -q '^boltedcollection$'
	done
	grep -q '^0 \[unknown\] 10 1 main 0 0 2$' sw.lg.1
	grep -q '^0 \[unknown\] 0 1 main 1 0 5$' sw.cur.1
	# memory samples (-M): a data object of sw from main
	m=$(nm sw | awk '$3 == "main" { print $1 }')
	d=$(nm -S sw | awk '$3 ~ /^[dDbB]$/ && $2 != "" { print $1; exit }')
	[ -n "$d" ]
	printf '# profpipe-mem 1\nmem %x %s 3\nmem %x %s 4\n' $((0x$m + 1)) "$d" \
	    $((0x$m + 2)) "$d" > sw.mem
	same_jobs sw.mem.fd -M sw.mem sw sw.pa
	grep -q '^4 main ' sw.mem.fd.1
	# several binaries (-d): one stream, build-id locations
	for b in sw x1; do
		bid=$(readelf -n $b | awk '/Build ID/ {print $3}')
		awk -v b="$bid" '{ n = ($1 == "T" || $1 == "R") ? 3 : ($1 == "S") ? 1 : ($1 == "E") ? 0 : 2
			for (i = 2; i <= n + 1; i++) if ($i !~ /:/ && $i !~ /^-/ && $i !~ /^ffffffffffffff/) $i = b ":" $i
			print }' $b.pa
	done > two.pa
	for j in 1 2 3; do
		fdatawrite -j $j -v -d two.$j sw x1 < two.pa 2> two.$j.err
		[ $j -eq 1 ] && continue
		for b in sw x1; do
			same_file two.1/$b.fdata two.$j/$b.fdata
		done
		same_file two.1.err two.$j.err
	done
	for b in sw x1; do
		[ "$(wc -l < two.1/$b.fdata)" -gt 20 ]
	done
	# a function Capstone cannot decode (0x06 is no x86-64 opcode): one
	# process counts it when it gathers, at its first graph; with no
	# graph (samples alone, --bolted) nothing is gathered
	printf '%s\n' .text '.globl main' '.type main, @function' \
	    'main: call f2' 'xorl %eax, %eax' ret '.size main, .-main' \
	    '.globl f2' '.type f2, @function' 'f2: nop' '.byte 0x06' ret \
	    '.size f2, .-f2' > und.s
	gcc -nostartfiles -Wl,-e,main -Wl,--emit-relocs -no-pie -o und und.s
	m=$(nm und | awk '$3 == "main" { print $1 }')
	f=$(nm und | awk '$3 == "f2" { print $1 }')
	printf 'S %x 3\nS %s 2\n' $((0x$f + 1)) $m > und.s.pa
	printf 'T %s %s %x 4\nS %s 1\n' $m $f $((0x$f + 1)) $f > und.t.pa
	same_jobs und.s und und.s.pa
	same_jobs und.sb --bolted und und.s.pa
	same_jobs und.t und und.t.pa
	same_jobs und.tb --bolted und und.t.pa
	grep -q 'cannot decode' und.t.1.err
	[ "$(cat und.s.1.err und.sb.1.err und.tb.1.err | grep -c 'cannot decode')" -eq 0 ]
	# from a pipe whose data comes late, all functions are gathered
	# while it waits, and each process's first graph counts them
	for k in s sb t tb; do
		o=; [ ${k#?} = b ] && o=--bolted
		for j in 1 2 3; do
			(sleep 0.3; cat und.${k%b}.pa) |
			    fdatawrite $o -j $j -v -o und.$k.p$j und 2> und.$k.p$j.err
			same_file und.$k.1 und.$k.p$j
			same_file und.$k.1.err und.$k.p$j.err
		done
	done
}

@test "fdatawrite -j: a worker that fails (a signal, an exit status, results cut short) fails the run with a clear message, and no -o file; one that cannot start leaves its share to the parent" {
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	walk sw 300
	perfdecode sw.data | preagg -b sw > sw.pa
	fdatawrite -j 2 -o good.fdata sw sw.pa
	[ -s good.fdata ]
	# PROFPIPE_TEST_POOL=K:HOW makes worker K fail once its share is
	# walked (libutil/pool.c; the tests' build has the hook)
	for k in 1:kill 1:exit 1:short 2:kill; do
		PROFPIPE_TEST_POOL=$k run fdatawrite -j 3 -o out.fdata sw sw.pa
		echo "$k: $output"
		[ "$status" -eq 1 ]
		[[ "$output" == "fdatawrite: worker ${k%:*} of 2 (pid "* ]]
		[ ! -e out.fdata ]
		[ -z "$(ls -A | grep profpipe)" ]
	done
	PROFPIPE_TEST_POOL=1:kill run fdatawrite -j 2 -o out.fdata sw sw.pa
	[[ "$output" == *"was killed by signal 9"* ]]
	PROFPIPE_TEST_POOL=1:exit run fdatawrite -j 2 -o out.fdata sw sw.pa
	[[ "$output" == *"failed (exit status 3)"* ]]
	PROFPIPE_TEST_POOL=1:short run fdatawrite -j 2 -o out.fdata sw sw.pa
	[[ "$output" == *"its results did not all come"* ]]
	# a worker that cannot be started (a limit on processes): the
	# parent walks its share, the same bytes
	for k in 1 2 3; do
		PROFPIPE_TEST_POOL=$k:nofork fdatawrite -j 4 -o nf.$k.fdata sw sw.pa
		same_file good.fdata nf.$k.fdata
	done
	# in one process there is no worker to fail
	PROFPIPE_TEST_POOL=1:kill fdatawrite -j 1 -o one.fdata sw sw.pa
	same_file good.fdata one.fdata
	for j in 0 x -1 257; do
		run fdatawrite -j $j sw sw.pa
		[ "$status" -eq 2 ]
	done
}

@test "fdatawrite: bad inputs are clear errors and leave no -o file" {
	clang-19 -O2 -o prog "$SW"
	printf 'B 401000 401010 1 0\nQ 1 2\n' > bad.pa
	run fdatawrite -o out.fdata prog bad.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"bad.pa:2:"* ]]
	[ ! -e out.fdata ]
	printf 'F 401000\n' > cut.pa
	run fdatawrite -o out.fdata prog cut.pa
	[ "$status" -eq 1 ]
	[ ! -e out.fdata ]
	printf 'B 1%064d 2 1 0\n' 0 > big.pa
	run fdatawrite prog big.pa
	[ "$status" -eq 1 ]
	echo hello > notelf
	run fdatawrite notelf bad.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"not an ELF file"* ]]
	cp prog stripped
	strip stripped
	run fdatawrite stripped bad.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"no symbol table"* ]]
	run fdatawrite
	[ "$status" -eq 2 ]
	run fdatawrite --help
	[ "$status" -eq 0 ]
	[[ "$output" == *usage* ]]
	run fdatawrite prog missing.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"missing.pa"* ]]
	# a damaged --past-end file (batmap's fdata lines, checked over each
	# field's range as yamlwrite --bat checks them, tests/53); -j and its
	# bad counts
	local l
	for l in '1 main 10 1 main:not an fdata branch line' \
	    '1 main 10000000000000000 1 main 4 0 1:offset out of range' \
	    '1 main 10 1 main 4 0 99999999999999999999999:count out of range' \
	    '0 [unknown] 0 1 main 4 0 1x:not an fdata branch line' \
	    '1 main 10 1 main 4 0:not an fdata branch line'; do
		printf '%s\n' "${l%%:*}" > bad.pe
		run fdatawrite --bolted --past-end bad.pe -o out.fdata prog < /dev/null
		[ "$status" -eq 1 ]
		[[ "$output" == "fdatawrite: bad.pe:1: ${l#*:}"* ]]
		[ ! -e out.fdata ]
	done
	printf '1 main\\ x 10 0 [unknown] ffffffffffffffff 0 18446744073709551606\n' > good.pe
	fdatawrite --bolted --past-end good.pe -o out.fdata prog < /dev/null
	[ "$(tail -1 out.fdata)" = "$(cat good.pe)" ]
	rm -f out.fdata
	for l in 0 -1 x 1x; do
		run fdatawrite -j "$l" -o out.fdata prog < /dev/null
		[ "$status" -eq 2 ]
		[[ "$output" == *"bad process count '$l'"* ]]
		[ ! -e out.fdata ]
	done
}

@test "fdatawrite: damaged streams never crash it" {
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs -o prog "$SW"
	walk prog 300
	perfdecode prog.data | preagg -b prog > good.pa
	damage_stream good.pa 30
	for f in d*.pa; do
		run fdatawrite -o "$f.out" prog "$f"
		[ "$status" -le 1 ]
		[[ "$output" != *Sanitizer* ]]
		[[ "$output" != *"runtime error"* ]]
		if [ "$status" -eq 1 ]; then [ ! -e "$f.out" ]; fi
	done
}

@test "fdatawrite: damaged binaries never crash it" {
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs -o prog "$SW"
	walk prog 200
	perfdecode prog.data | preagg -b prog > good.pa
	python3 - prog <<'PY'
import random, sys
random.seed(11)
data = open(sys.argv[1], 'rb').read()
for i in range(25):
    b = bytearray(data)
    for k in range(random.randint(1, 60)):
        b[random.randrange(len(b))] = random.randrange(256)
    open('b%02d' % i, 'wb').write(b)
PY
	for f in b[0-9][0-9]; do
		run fdatawrite -o "$f.out" "$f" good.pa
		[ "$status" -le 1 ]
		[[ "$output" != *Sanitizer* ]]
		[[ "$output" != *"runtime error"* ]]
	done
}
