#!/usr/bin/env bats
# yamlwrite: the pipeline perfdecode | preagg | yamlwrite against
# perf2bolt-19 --profile-format=yaml on the same perf.data, compared as
# data (tests/data/yamlwrite/yamlcmp.py: every function and block hash
# included, calls and successors of a block as multisets, an empty
# function list fails), from both pre-aggregated forms; llvm-bolt-19
# reads our YAML, without --profile-ignore-hash, as it reads perf2bolt's.  Branch stacks follow the
# programs' real control flow: cfgwalk walks their code, brtrace records a
# real run.

load common
bats_require_minimum_version 1.5.0

P2B=/usr/lib/llvm-19/bin/perf2bolt
BOLT=/usr/lib/llvm-19/bin/llvm-bolt

setup() {
	setup_tmp
	SRC="$DATA/functab"
	SW="$DATA/fdatawrite/sw.c"
	CMP="$DATA/yamlwrite/yamlcmp.py"
}

# compare BIN PERFDATA: yamlwrite on the default pre-aggregated form
# (T, R, B entries) equals perf2bolt's YAML
compare() {
	local bin=$1 data=$2
	"$P2B" -p "$data" --profile-format=yaml -o "$bin.ref.yaml" "$bin" \
	    > "$bin.p2b.log" 2>&1
	perfdecode "$data" | preagg -b "$bin" > "$bin.pa"
	yamlwrite -o "$bin.yaml" "$bin" "$bin.pa"
	python3 "$CMP" ${CMPOPT:-} "$bin.ref.yaml" "$bin.yaml"
}

# compare_legacy BIN PERFDATA: the same, and from the --legacy form LLVM
# 19 reads (B, F, f entries) too
compare_legacy() {
	compare "$1" "$2"
	perfdecode "$2" | preagg --legacy -b "$1" | yamlwrite "$1" > "$1.leg.yaml"
	python3 "$CMP" ${CMPOPT:-} "$1.ref.yaml" "$1.leg.yaml"
}

walk() {	# walk BIN N: a cfgwalk perf.data of N samples
	cfgwalk -n "$2" -s 7 -o "$1.events" "$1"
	mkperfdata -o "$1.data" "$1.events"
}

# bolt BIN [llvm-bolt options]: llvm-bolt-19 reads our YAML as it reads
# perf2bolt's (BIN.ref.yaml), neither with --profile-ignore-hash: the
# function hashes match BOLT's own, so it prints the same log (its
# profile statistics, dyno stats and warnings); every profiled function
# matched, none stale
bolt() {
	local bin=$1
	shift
	"$BOLT" "$bin" -o "$bin.ref.bolt" -data "$bin.ref.yaml" -dyno-stats "$@" \
	    > "$bin.bref.log" 2>&1
	"$BOLT" "$bin" -o "$bin.bolt" -data "$bin.yaml" -dyno-stats "$@" \
	    > "$bin.bour.log" 2>&1
	grep 'BOLT-INFO: [1-9][0-9]* out of [0-9]* functions in the binary .* have non-empty execution profile' "$bin.bour.log"
	run grep -Ei 'stale|did not match|mismatch|invalid profile|no profile' "$bin.bour.log"
	[ "$status" -eq 1 ]
	sed "s/$bin\.ref\.bolt/OUT/g; s/$bin\.ref\.yaml/DATA/g" "$bin.bref.log" > a.log
	sed "s/$bin\.bolt/OUT/g; s/$bin\.yaml/DATA/g" "$bin.bour.log" > b.log
	same_file a.log b.log
}

@test "yamlwrite: switch jump tables and a computed goto: clang-19 non-PIE and PIE, gcc without relocations" {
	need_tool perf2bolt clang-19 gcc
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw1
	clang-19 -O2 -fpie -pie -Wl,--emit-relocs "$SW" -o sw2
	gcc -O2 "$SW" -o sw3
	for b in sw1 sw2 sw3; do
		walk $b 2000
	done
	compare_legacy sw1 sw1.data
	compare sw2 sw2.data
	compare sw3 sw3.data
	# the jump table's targets are successors of its block
	python3 - sw1.yaml <<'PY'
import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))
op = [f for f in p['functions'] if f['name'] == 'op/1'][0]
assert max(len(b.get('succ', [])) for b in op['blocks']) >= 8
PY
}

@test "yamlwrite: C++ with exceptions, virtual calls and .cold fragments (g++ with relocations, clang++ PIE); llvm-bolt-19 takes it" {
	need_tool perf2bolt llvm-bolt g++ clang++-19
	g++ -O2 -Wl,--emit-relocs "$SRC/cxx.cc" "$SRC/same1.c" -o x1
	clang++-19 -O2 -fpie -pie -Wl,--emit-relocs -x c++ "$SRC/cxx.cc" -x none "$SRC/same1.c" -o x3
	for b in x1 x3; do
		walk $b 2000
		compare $b $b.data
	done
	# landing pads, fragments and calls are in the profile
	grep -q "main.cold/1" x1.yaml
	[ "$(grep -c 'calls:' x1.yaml)" -ge 5 ]
	bolt x1 -reorder-blocks=ext-tsp -split-functions
	[ "$(./x1.bolt 2>&1)" = "$(./x1 2>&1)" ]
}

@test "yamlwrite in a pipeline: the graphs and hashes made while the standard input has nothing yet give the same YAML, warnings and -v counts as from a file" {
	need_tool perf2bolt g++ clang-19 gcc
	g++ -O2 -Wl,--emit-relocs "$SRC/cxx.cc" "$SRC/same1.c" -o x1
	clang-19 -O2 -fpie -pie -Wl,--emit-relocs "$SW" -o sw2
	gcc -O2 "$SW" -o sw3
	for b in x1 sw2 sw3; do
		walk $b 2000
		compare $b $b.data
		yamlwrite -v -o $b.file.yaml $b $b.pa 2> $b.file.err
		# the input comes a second later: the code is read meanwhile
		# (relocation mode; sw3 has none: its graphs wait for the
		# profile)
		(sleep 1; cat $b.pa) | yamlwrite -v -o $b.pipe.yaml $b \
		    2> $b.pipe.err
		cmp $b.yaml $b.file.yaml
		cmp $b.file.yaml $b.pipe.yaml
		cmp $b.file.err $b.pipe.err
		grep -q ' entries, ' $b.pipe.err
	done
	grep -q "main.cold/1" x1.pipe.yaml
}

@test "yamlwrite: static functions of the same name, labels, FDE-only code, hand-written shapes (CTC, entries, own-code address, jcc;jmp)" {
	need_tool perf2bolt gcc clang-19
	gcc -O2 -Wl,--emit-relocs "$SRC/same_main.c" "$SRC/same1.c" "$SRC/same2.c" "$SRC/labels.s" -o a1
	clang-19 -O2 -fno-pie -no-pie "$SRC/same_main.c" "$SRC/same1.c" "$SRC/same2.c" "$SRC/fdeonly.s" -o a2
	gcc -O1 -fno-pie -no-pie -Wl,--emit-relocs "$DATA/fdatawrite/shapes_main.c" "$DATA/fdatawrite/shapes.s" -o h1
	gcc -O1 -fno-pie -no-pie "$DATA/fdatawrite/shapes_main.c" "$DATA/fdatawrite/shapes.s" -o h2
	for b in a1 a2 h1 h2; do
		walk $b 1500
		compare $b $b.data
	done
	# fids of FDE-only code (numbered after the PLT) and calls into a
	# secondary entry point (disc) are BOLT's
	grep -q '__BOLT_FDE_FUNCat' a2.yaml
	grep -q 'disc: 1' h2.yaml
}

# srcgen BIN: B entries from many instructions of every block of BIN's
# simple functions, each of a block's with a bit of its own as count
# (tests/data/yamlwrite/srcgen.py), in BIN.sg.pa
srcgen() {
	cfgtest "$1" > "$1.cfg"
	llvm-nm-19 -S --defined-only "$1" > "$1.nm"
	llvm-objdump-19 -d --no-show-raw-insn "$1" |
	    awk '/^ +[0-9a-f]+:/ { sub(":", "", $1); print $1, $2 }' > "$1.insns"
	python3 "$DATA/yamlwrite/srcgen.py" "$1.cfg" "$1.nm" "$1.insns" > "$1.sg.pa"
}

@test "yamlwrite --literal: branches from any instruction of a block, as perf2bolt-19 --pa -w takes them (from a branch, call, return, NOP, the block's last instruction or its last that is no NOP) or drops them; fdatawrite --literal, perf2bolt --pa's fdata" {
	need_tool perf2bolt clang-19 gcc g++ llvm-nm-19 llvm-objdump-19
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o s1
	gcc -O2 "$SW" -o s3
	g++ -O2 -Wl,--emit-relocs "$SRC/cxx.cc" "$SRC/same1.c" -o x1
	for b in s1 s3 x1; do
		srcgen $b
		[ "$(grep -c '^B ' $b.sg.pa)" -ge 50 ]
		"$P2B" --pa -p $b.sg.pa -w $b.ref.yaml -o $b.fdata $b > $b.log 2>&1
		yamlwrite --literal $b $b.sg.pa > $b.yaml
		run python3 "$CMP" $b.ref.yaml $b.yaml
		echo "$b: $output"
		[ "$status" -eq 0 ]
		# and fdatawrite --literal writes perf2bolt's very fdata: a
		# source inside an instruction whose bytes read as a return is
		# no return (perf2bolt asks the function it disassembled)
		fdatawrite --literal $b $b.sg.pa | sort > f.s
		sort $b.fdata > a.s
		same_file a.s f.s
		# perf2bolt took some of the entries and dropped others: the
		# edge counts hold part of the entries' bits
		python3 - $b.ref.yaml $b.sg.pa <<'PY'
import sys, yaml
y = yaml.safe_load(open(sys.argv[1]))
took = sum(s.get('cnt', 0) for f in y['functions'] for b in f.get('blocks', [])
           for s in b.get('succ', []))
given = sum(int(l.split()[3]) for l in open(sys.argv[2]))
print('took', took, 'of', given)
assert 0 < took < given
PY
	done
}

@test "yamlwrite: a real branch trace (brtrace of a static program); llvm-bolt-19 optimizes with it, the program prints the same" {
	need_tool perf2bolt llvm-bolt clang-19
	/usr/lib/llvm-19/bin/clang -O2 -static -DNWORDS=300 -Wl,--emit-relocs \
	    -o small "$DATA/progs/demo.c"
	brtrace -o small.events -- ./small > /dev/null
	mkperfdata -o small.data small.events
	compare_legacy small small.data
	bolt small -reorder-blocks=ext-tsp -split-functions -reorder-functions=hfsort
	[ "$(./small.bolt)" = "$(./small)" ]
	[ "$(./small.bolt 3)" = "$(./small 3)" ]
}

# stale BIN YAML OUT [llvm-bolt options]: llvm-bolt-19's log of BIN
# optimized with YAML, the file names made alike
stale() {
	local bin=$1 y=$2 out=$3
	shift 3
	"$BOLT" "$bin" -o "$out.bolt" -data "$y" -dyno-stats "$@" > "$out.log" 2>&1
	sed -i "s|$out\.bolt|OUT|g; s|$y|DATA|g" "$out.log"
}

@test "yamlwrite: stale matching (--infer-stale-profile) of a profile of one build on a build with a few functions edited: llvm-bolt-19's matching statistics and dyno stats from ours are those from perf2bolt-19's; --hash-func=std-hash read alike" {
	need_tool perf2bolt llvm-bolt clang-19
	local L=/usr/lib/llvm-19/bin
	# the demo (no inlining: each function its own), and a later build
	# with three functions edited: an immediate in hash() (the function
	# hash leaves operands out: not stale), add() and makeword() changed
	# (stale: their blocks matched by the block hashes)
	$L/clang -O2 -fno-inline -fno-pie -no-pie -Wl,--emit-relocs -o v1 "$DATA/progs/demo.c"
	sed -e 's/2166136261u/2166136263u/' \
	    -e 's/p->count++;/p->count += 1 + (npool \& 1);/' \
	    -e 's/int n = 1 + (int)(rnd() % 3), i;/int n = 2 + (int)(rnd() % 2), i;/' \
	    "$DATA/progs/demo.c" > demo2.c
	[ "$(diff "$DATA/progs/demo.c" demo2.c | grep -c '^>')" -eq 3 ]
	$L/clang -O2 -fno-inline -fno-pie -no-pie -Wl,--emit-relocs -o v2 demo2.c
	walk v1 3000
	compare v1 v1.data
	perfdecode v1.data | preagg -b v1 | yamlwrite --hash-func=std-hash -o v1.std.yaml v1
	grep -q '^  hash-func: *std-hash$' v1.std.yaml
	for o in "" "-reorder-blocks=ext-tsp -split-functions"; do
		stale v2 v1.ref.yaml ref --infer-stale-profile $o
		stale v2 v1.yaml ours --infer-stale-profile $o
		stale v2 v1.std.yaml std --infer-stale-profile $o
		# two stale functions, inferred, most blocks matched
		grep -q 'BOLT-WARNING: 2 (.*) functions have invalid (possibly stale) profile' ref.log
		grep -Eq 'BOLT-INFO: inferred profile for 2 \(.*of stale\) functions' ref.log
		grep -Eq 'inference found an exact match for [1-9][0-9.]*% of basic blocks' ref.log
		same_file ref.log ours.log
		same_file ref.log std.log
	done
	# on the build it was recorded on, std-hash's profile is not stale
	stale v1 v1.ref.yaml ref1
	stale v1 v1.std.yaml std1
	run grep -i stale std1.log
	[ "$status" -eq 1 ]
	same_file ref1.log std1.log
}

@test "yamlwrite: names with quotes, spaces, colons, UTF-8 and bytes that are not UTF-8 round-trip through libyaml, printable ASCII ones through our writer" {
	need_tool perf2bolt llvm-bolt clang-19
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$DATA/yamlwrite/names.c" -o names
	walk names 2000
	compare names names.data
	python3 - names.yaml <<'PY'
import sys, yaml
names = {f['name'] for f in yaml.safe_load(open(sys.argv[1], 'rb'))['functions']}
want = {'it\'s "quoted"', 'with space: and colon', 'caf\u00e9_\u20ac',
        '- [dash], {brace} #hash', '123', 'bad\ufffd'}
assert want <= names, want - names
PY
	bolt names
	[ "$(./names.bolt 300)" = "$(./names 300)" ]
	# printable ASCII names only: yamlwrite writes the YAML itself,
	# without libyaml's events (quotes doubled, the rest as it is)
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs -DASCII_NAMES \
	    "$DATA/yamlwrite/names.c" -o anames
	walk anames 2000
	compare anames anames.data
	grep -qx -e "- name: '''cafe'' euro '''''" anames.yaml
	grep -qx -e "- name: 'bad: ''byte'' ]'" anames.yaml
	grep -qx -e "- name: 'it''s \"quoted\"'" anames.yaml
	python3 - anames.yaml <<'PY'
import sys, yaml
names = {f['name'] for f in yaml.safe_load(open(sys.argv[1], 'rb'))['functions']}
want = {'it\'s "quoted"', 'with space: and colon', "'cafe' euro ''",
        "bad: 'byte' ]", '- [dash], {brace} #hash', '123'}
assert want <= names, want - names
PY
	bolt anames
}

@test "yamlwrite: real perf record -e cpu-clock samples, as perf2bolt -nl writes them" {
	need_tool perf2bolt clang-19 perf
	/usr/lib/llvm-19/bin/clang -O1 -Wl,--emit-relocs -o spin "$DATA/fdatawrite/spin.c"
	perf record -q -e cpu-clock -o p.data -- ./spin 150000 > /dev/null 2>&1
	"$P2B" -nl -p p.data --profile-format=yaml -o spin.ref.yaml spin > p2b.log 2>&1
	perfdecode p.data | preagg -b spin | yamlwrite -o spin.yaml spin
	python3 "$CMP" spin.ref.yaml spin.yaml
	grep -q 'profile-flags: \[sample\]' spin.yaml
	grep -q "profile-events: 'cpu-clock:'" spin.yaml
}

@test "yamlwrite: bad inputs are clear errors and leave no -o file" {
	clang-19 -O2 -o prog "$SW"
	printf 'B 401000 401010 1 0\nQ 1 2\n' > bad.pa
	run yamlwrite -o out.yaml prog bad.pa
	[ "$status" -eq 1 ]
	[[ "$output" == "yamlwrite: bad.pa:2: "* ]]
	[ ! -e out.yaml ]
	printf 'F 401000\n' > cut.pa
	run yamlwrite -o out.yaml prog cut.pa
	[ "$status" -eq 1 ]
	[[ "$output" == "yamlwrite: cut.pa:1: "* ]]
	[ ! -e out.yaml ]
	printf 'B 1%064d 2 1 0\n' 0 > big.pa
	run yamlwrite -o out.yaml prog big.pa
	[ "$status" -eq 1 ]
	[[ "$output" == "yamlwrite: big.pa:1: "* ]]
	[ ! -e out.yaml ]
	printf 'T 401000 401010 401020 18446744073709551616\n' > cnt.pa
	run yamlwrite -o out.yaml prog cnt.pa
	[ "$status" -eq 1 ]
	[[ "$output" == "yamlwrite: cnt.pa:1: "* ]]
	[ ! -e out.yaml ]
	echo hello > notelf
	run yamlwrite notelf bad.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"not an ELF file"* ]]
	run yamlwrite
	[ "$status" -eq 2 ]
	run yamlwrite prog missing.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"missing.pa"* ]]
}

@test "yamlwrite: damaged streams never crash it, and what it writes parses" {
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs -o prog "$SW"
	walk prog 300
	perfdecode prog.data | preagg -b prog > good.pa
	damage_stream good.pa 14
	for f in d*.pa; do
		run yamlwrite -o "$f.yaml" prog "$f"
		[ "$status" -le 1 ]
		[[ "$output" != *Sanitizer* ]]
		[[ "$output" != *"runtime error"* ]]
		if [ "$status" -eq 1 ]; then
			[[ "$output" == "yamlwrite: $f:"* ]]
			[ ! -e "$f.yaml" ]
		else
			python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$f.yaml"
		fi
	done
}

# compare_rel REL BIN: yamlwrite --llvm=REL equals perf2bolt-REL's YAML
# on BIN.data (BIN.pa: its pre-aggregated form)
compare_rel() {
	local rel=$1 bin=$2
	"/usr/lib/llvm-$rel/bin/perf2bolt" -p "$bin.data" --profile-format=yaml \
	    -o "$bin.ref$rel.yaml" "$bin" > "$bin.p2b$rel.log" 2>&1
	yamlwrite --llvm="$rel" -o "$bin.our$rel.yaml" "$bin" "$bin.pa"
	python3 "$CMP" "$bin.ref$rel.yaml" "$bin.our$rel.yaml"
}

@test "yamlwrite --llvm: hashes of each release's MC layer and rules: an address inside another function's jump table, gcc's string labels with addends (relsym.s), on clang-19 and clang-22 builds, against perf2bolt-19 and -22" {
	need_tool perf2bolt clang-19 clang-22 /usr/lib/llvm-22/bin/perf2bolt
	for v in 19 22; do
		"clang-$v" -O1 -fno-pie -no-pie -Wl,--emit-relocs \
		    "$DATA/yamlwrite/relsym_main.c" "$DATA/yamlwrite/relsym.s" -o r$v
		walk r$v 1500
		perfdecode r$v.data | preagg -b r$v > r$v.pa
		for rel in 19 22; do
			compare_rel $rel r$v
		done
		# the release from the environment, as from --llvm
		PROFPIPE_LLVM=22 yamlwrite -o r$v.env.yaml r$v r$v.pa
		cmp r$v.env.yaml r$v.our22.yaml
	done
	# the releases differ here: 22's hash of strref is not 19's
	run cmp -s r19.our19.yaml r19.our22.yaml
	[ "$status" -eq 1 ]
	# an unknown release is a usage error
	run yamlwrite --llvm=21 r19 r19.pa
	[ "$status" -eq 2 ]
	[[ "$output" == *"unsupported LLVM release '21'"* ]]
}

@test "yamlwrite --llvm=22: the YAML of perf2bolt-22 on a clang-22 build (non-PIE with relocations) and a g++ one, llvm-bolt-22 reads it as it reads perf2bolt-22's: no stale function, the same statistics" {
	# (clang-22's PIE build of sw.c is left out: BOLT 22 builds another
	# graph of its computed goto, gotos/1, 11 blocks where 19 has 9: a
	# rule of the graph builder's, not of the hashes)
	need_tool clang-22 g++ /usr/lib/llvm-22/bin/perf2bolt /usr/lib/llvm-22/bin/llvm-bolt
	clang-22 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o s1
	g++ -O2 -Wl,--emit-relocs "$SRC/cxx.cc" "$SRC/same1.c" -o s3
	for b in s1 s3; do
		walk $b 2000
		perfdecode $b.data | preagg -b $b > $b.pa
		compare_rel 22 $b
	done
	BOLT=/usr/lib/llvm-22/bin/llvm-bolt
	cp s3.ref22.yaml s3.ref.yaml
	cp s3.our22.yaml s3.yaml
	bolt s3 -reorder-blocks=ext-tsp -split-functions
	[ "$(./s3.bolt 2>&1)" = "$(./s3 2>&1)" ]
}

@test "yamlwrite: the release's bridge missing is a clear error that names the package, and no -o file" {
	need_tool clang-19
	clang-19 -O1 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o s1
	walk s1 200
	perfdecode s1.data | preagg -b s1 > s1.pa
	# a copy of the tool beside no lib/ of bridges
	mkdir -p alone/bin
	cp "$(command -v yamlwrite)" alone/bin/
	mkdir o
	run alone/bin/yamlwrite --llvm=22 -o o/out.yaml s1 s1.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"LLVM 22's MC layer is not installed"*"llvm-22-dev"* ]]
	[ -z "$(ls -A o)" ]
}
