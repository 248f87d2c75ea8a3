#!/usr/bin/env bats
# bbmap --dump against llvm-readobj-19 --bb-addr-map on programs built here
# with clang-19 (executables and .o files, plain, with the PGO analysis
# map, with split functions), and against LLVM's own tests for what
# llvm-readobj-19 cannot decode (versions 0 and 3 to 5, the newer feature
# bits): their YAML inputs (tests/data/bbmap/llvm/, each naming its source)
# built by yaml2obj-19, and the values their CHECK lines expect.  Damaged
# sections: clear errors; a fuzz run of the decoder.  The graphs of
# tools/bbmap/bbcfg.c against llvm-readobj-19's decoding.  Mapping: a real
# branch trace and a real cpu-clock recording.  The large program's
# comparisons are in tests/large/45-bbmap-large.bats.
#
# Every program, every llvm-readobj-19 view and every YAML object is made
# once in setup_file, the Python conversions in one interpreter
# (tests/data/bbmap/pybatch.py): on a loaded 2-core machine each Python
# start costs about half a second of CPU.

load common

L=/usr/lib/llvm-19/bin
D="$TOP/tests/data/bbmap"

# the LLVM tests' YAML objects: NAME TEST DOCNUM NAME=VALUE...
YAMLS='y-bam64 readobj-bb-addr-map.test 1 BITS=64 ADDR=0x999999999
y-bam32 readobj-bb-addr-map.test 1 BITS=32
y-bam32-cut7 readobj-bb-addr-map.test 1 BITS=32 SIZE=7
y-bam32-md readobj-bb-addr-map.test 1 BITS=32 METADATA=0xF000002
y-pgo64 readobj-pgo-analysis-map.test 1 BITS=64 ADDR=0x999999999
y-pgo32 readobj-pgo-analysis-map.test 1 BITS=32
y-pgo32-ft2 readobj-pgo-analysis-map.test 1 BITS=32 FEATURE=0x2
y-pgo32-cut24 readobj-pgo-analysis-map.test 1 BITS=32 SIZE=24
y-skip64 readobj-skip-bb-entries.test 1 BITS=64
y-skip32 readobj-skip-bb-entries.test 1 BITS=32
y-rel1 readobj-relocatable.test 1
y-rel2 readobj-relocatable.test 2
y-rel3 readobj-relocatable.test 3
y-unit1 unittest-read-bb-addr-map.test 1'

# the lines their CHECK lines describe: NAME TEST PREFIXES NAME=VALUE...
EXPECTS='e-bam64 readobj-bb-addr-map.test CHECK,TRUNCATED ADDR=0x999999999
e-bam32 readobj-bb-addr-map.test CHECK,TRUNCATED ADDR=0x11111
e-pgo64 readobj-pgo-analysis-map.test CHECK,RAW,TRUNCATED ADDR=0x999999999
e-pgo32 readobj-pgo-analysis-map.test CHECK,RAW,TRUNCATED ADDR=0x11111
e-skip readobj-skip-bb-entries.test CHECK
e-rel readobj-relocatable.test CHECK'

# the programs built here whose llvm-readobj-19 view the tests compare
PROGS="demo demo.o demo-fs.o demo-lld eh eh.o demo-pgo eh-pgo.o eh-pgo-fs.o
demo-split eh-split eh-split.o eh-split-pgo flow y-rel1 y-unit1"

setup_file() {
	local d="$BATS_FILE_TMPDIR" cc="$L/clang" cxx="$L/clang++" f n t a
	local bam="-fbasic-block-address-map"
	local pgo="-mllvm -pgo-analysis-map=func-entry-count,bb-freq,br-prob"
	local demo="$TOP/tests/data/progs/demo.c" eh="$D/eh.cpp"
	local list="-fbasic-block-sections=list=list"
	cd "$d" || return 1
	# each source compiled once per set of flags: the executables and
	# the .o files of one set come from the same object
	$cc -O2 $bam -c -o demo.o "$demo"
	$cc -O2 $bam -o demo demo.o
	$cc -fuse-ld=lld -no-pie -o demo-lld demo.o
	$cc -O2 $bam -ffunction-sections -c -o demo-fs.o "$demo"
	$cxx -O2 $bam -c -o eh.o "$eh"
	$cxx -o eh eh.o
	$cc -O2 $bam $pgo -o demo-pgo "$demo"
	$cxx -O2 $bam $pgo -c -o eh-pgo.o "$eh"
	$cxx -O2 $bam $pgo -ffunction-sections -c -o eh-pgo-fs.o "$eh"
	printf 'v1\nf main\nc 0\nf _Z7guardedi\nc 0 1\nf add\nc 0\n' > list
	$cc -O2 $bam $list -o demo-split "$demo"
	$cxx -O2 $bam $list -c -o eh-split.o "$eh"
	$cxx -o eh-split eh-split.o
	$cxx -O2 $bam $pgo $list -o eh-split-pgo "$eh"
	# the mapping tests' program: a static PIE with the PGO analysis map
	# for brtrace, at -O0 for a stale profile, a dynamic one for perf
	$cc -O2 -static-pie -fpie $bam $pgo -o flow "$D/flow.c"
	$cc -O0 -static-pie -fpie $bam -o flow0 "$D/flow.c"
	$cc -O2 $bam -o flowd "$D/flow.c"

	# the Python conversions, all in one interpreter
	: > jobs
	while read -r n t a; do
		printf '%s.yaml\t-\t%s\t%s\t%s\n' "$n" "$D/bamyaml.py" "$D/llvm/$t" \
		    "$(echo $a | tr ' ' '\t')" >> jobs
	done <<< "$YAMLS"
	while read -r n t a; do
		printf '%s\t%s\t%s\t%s\n' "$n" "$D/llvm/$t" "$D/readobj2lines.py" \
		    "$(echo $a | tr ' ' '\t')" >> jobs
	done <<< "$EXPECTS"
	python3 "$D/pybatch.py" jobs
	while read -r n t a; do
		"$L/yaml2obj" "$n.yaml" -o "$n"
	done <<< "$YAMLS"
	: > jobs
	for f in $PROGS; do
		"$L/llvm-readobj" --bb-addr-map "$f" > "$f.ro" 2>/dev/null
		printf '%s.ref\t%s.ro\t%s\n' "$f" "$f" "$D/readobj2lines.py" >> jobs
		printf '%s.cfg\t%s.ro\t%s\n' "$f" "$f" "$D/readobj2cfg.py" >> jobs
	done
	printf 'null\t-\t%s\t%s\tdmg\n' "$D/damage.py" "$d/eh" >> jobs
	printf 'null\t-\t%s\t%s\ty2o\n' "$D/yaml2objcases.py" \
	    "$D/llvm/yaml2obj-bb-addr-map.yaml" >> jobs
	python3 "$D/pybatch.py" jobs
}

setup() {
	setup_tmp
	need_tool "$L/llvm-readobj" "$L/clang" "$L/yaml2obj" python3
	B="$BATS_FILE_TMPDIR"
}

# ours FILE: bbmap --dump reduced to what llvm-readobj shows (no version,
# feature or block counts; no "-" for a block without callsites)
ours() {
	bbmap --dump "$1" | awk '
		/^#/ { next }
		$1 == "function" { print $1, $2, $6; next }
		$1 == "range" { print $1, $2; next }
		$1 == "block" && $6 == "-" {
			s = $1; for (i = 2; i <= NF; i++) if (i != 6) s = s " " $i
			print s; next }
		{ print }'
}

# same_as_readobj FILE...: equal to llvm-readobj-19's view (setup_file
# made it), and not trivially so
same_as_readobj() {
	local f
	for f in "$@"; do
		ours "$B/$f" > ours.txt
		[ "$(grep -c '^block ' "$B/$f.ref")" -gt 3 ]
		same_file ours.txt "$B/$f.ref"
	done
}

@test "bbmap: clang-19 -fbasic-block-address-map executables and objects equal llvm-readobj-19" {
	same_as_readobj demo demo.o demo-fs.o demo-lld eh eh.o
	# the program has landing pads, a jump table and tail calls
	bbmap --dump "$B/eh" > d.txt
	awk '$1 == "block" && $5 ~ /E/' d.txt | grep -q .
	awk '$1 == "block" && $5 ~ /I/' d.txt | grep -q .
	awk '$1 == "block" && $5 ~ /T/' d.txt | grep -q .
	# one map section per function with -ffunction-sections, each with
	# its RELA section: section-relative addresses
	[ "$(sed -n 's/^# sections=//p' <(bbmap --dump "$B/eh-pgo-fs.o"))" -ge 4 ]
}

@test "bbmap: the PGO analysis map (func-entry-count, bb-freq, br-prob) equals llvm-readobj-19" {
	same_as_readobj demo-pgo eh-pgo.o eh-pgo-fs.o
	bbmap --dump "$B/demo-pgo" > d.txt
	grep -q '^function [0-9a-f]* 2 7 FuncEntryCount,BBFreq,BrProb ' d.txt
	grep -q '^pgo [0-9]* [0-9]*:[0-9a-f]*' d.txt
}

@test "bbmap: split functions (-fbasic-block-sections=list=) equal llvm-readobj-19" {
	same_as_readobj demo-split eh-split eh-split.o eh-split-pgo
	bbmap --dump "$B/eh-split" > d.txt
	grep -q '^function [0-9a-f]* 2 8 MultiBBRange _Z7guardedi$' d.txt
	grep -q '^function [0-9a-f]* 2 f FuncEntryCount,BBFreq,BrProb,MultiBBRange main$' <(bbmap --dump "$B/eh-split-pgo")
	[ "$(awk '/^function/ { f = $6 } /^range/ && f == "main" { n++ } END { print n }' d.txt)" -eq 2 ]
}

@test "bbmap: version 4 (MultiBBRange, CallsiteEndOffsets, BBHash) as LLVM's readobj test expects" {
	# llvm/test/tools/llvm-readobj/ELF/bb-addr-map.test, RUN lines 1 and 3
	ours "$B/y-bam64" > ours.txt
	[ -s "$B/e-bam64" ]
	same_file ours.txt "$B/e-bam64"
	grep -qx 'block 2 3 7 REI 1,3 123' ours.txt
	ours "$B/y-bam32" > ours.txt
	[ -s "$B/e-bam32" ]
	same_file ours.txt "$B/e-bam32"
	bbmap --dump "$B/y-bam32" | grep -qx 'function 11111 4 68 MultiBBRange,CallsiteEndOffsets,BBHash -'
}

@test "bbmap: version 5 (two-byte feature, PostLinkCfg) and PGO maps as LLVM's readobj test expects" {
	# llvm/test/tools/llvm-readobj/ELF/bb-addr-map-pgo-analysis-map.test
	ours "$B/y-pgo64" > ours.txt
	[ -s "$B/e-pgo64" ]
	same_file ours.txt "$B/e-pgo64"
	ours "$B/y-pgo32" > ours.txt
	[ -s "$B/e-pgo32" ]
	same_file ours.txt "$B/e-pgo32"
	bbmap --dump "$B/y-pgo32" > d.txt
	grep -qx 'function 11111 5 87 FuncEntryCount,BBFreq,BrProb,PostLinkCfg -' d.txt
	grep -qx 'pgo 100 10 2:80000000:7' d.txt
}

@test "bbmap: OmitBBEntries as LLVM's readobj test expects" {
	# llvm/test/tools/llvm-readobj/ELF/bb-addr-map-skip-bb-entries.test
	[ -s "$B/e-skip" ]
	for bits in 64 32; do
		ours "$B/y-skip$bits" > ours.txt
		same_file ours.txt "$B/e-skip"
	done
	bbmap --dump "$B/y-skip32" | grep -qx 'range 11111 0 omitted'
}

@test "bbmap: relocatable objects: addresses from RELA addends as LLVM's tests expect" {
	# llvm/test/tools/llvm-readobj/ELF/bb-addr-map-relocatable.test
	ours "$B/y-rel1" > ours.txt
	[ -s "$B/e-rel" ]
	same_file ours.txt "$B/e-rel"
	same_file ours.txt "$B/y-rel1.ref"
	# no RELA and no entries: nothing to relocate, nothing printed
	bbmap --dump "$B/y-rel2" > d.txt
	[ "$(grep -vc '^#' d.txt)" -eq 0 ]
	# entries but no relocation for the address: LLVM's
	# MISSING-RELOCATION case, "failed to get relocation data for offset: 2"
	cp "$B/y-rel3" obj
	run bbmap --dump obj
	[ "$status" -eq 1 ]
	[[ "$output" == "bbmap: obj: offset 0x"*": .llvm_bb_addr_map (section 2) offset 0x2: no relocation for the address"* ]]
}

@test "bbmap: versions 0 and 1 and the legacy SHT_LLVM_BB_ADDR_MAP_V0 type as LLVM's unit test expects" {
	# llvm/unittests/Object/ELFObjectFileTest.cpp, ReadBBAddrMap
	ours "$B/y-unit1" > ours.txt
	sed -n 's/^# EXPECT: //p' "$D/llvm/unittest-read-bb-addr-map.test" > exp.txt
	[ -s exp.txt ]
	same_file ours.txt exp.txt
	bbmap --dump "$B/y-unit1" > d.txt
	grep -qx 'function 33333 1 0 - -' d.txt
	grep -qx 'function 44444 0 0 - -' d.txt
	# llvm-readobj-19 agrees on the versioned sections (it skips the V0 one)
	head -9 ours.txt > ours9.txt
	same_file ours9.txt "$B/y-unit1.ref"
}

@test "bbmap: the bytes LLVM's yaml2obj writes for its test's descriptions decode to them" {
	# llvm/test/tools/yaml2obj/ELF/bb-addr-map.yaml, cases 5 to 10:
	# each case's section bytes (its CHECK lines) in a real program's map
	# section; what bbmap prints from them is what the case's YAML
	# describes (tests/data/bbmap/yaml2objcases.py), or an error where
	# the description cannot decode
	local n nok=0 nerr=0
	for n in 5 6 7 8 9 10; do
		[ -s "$B/y2o/$n.bin" ]
		objcopy --update-section .llvm_bb_addr_map="$B/y2o/$n.bin" "$B/demo" c$n
		run bbmap --dump c$n
		if [ "$(cat "$B/y2o/$n.exp")" = error ]; then
			[ "$status" -eq 1 ]
			[[ "$output" == "bbmap: c$n: offset 0x"*"(section "*") offset 0x"*": "* ]]
			nerr=$((nerr + 1))
		else
			[ "$status" -eq 0 ]
			echo "$output" | grep -v '^#' > got.txt
			same_file got.txt "$B/y2o/$n.exp"
			nok=$((nok + 1))
		fi
	done
	[ "$nok" -eq 3 ] && [ "$nerr" -eq 3 ]
	run bbmap --dump c8
	[[ "$output" == *"offset 0x2: zero number of BB ranges" ]]
	run bbmap --dump c6
	[[ "$output" == *"offset 0xf: section ends inside the ULEB128 block ID" ]]
}

@test "bbmap: LLVM's failure cases: truncation, bad metadata, missing PGO data, at LLVM's offsets" {
	# bb-addr-map.test TRUNCATED: "unable to decode LEB128 at offset 0x00000007"
	cp "$B/y-bam32-cut7" obj
	run bbmap --dump obj
	[ "$status" -eq 1 ]
	[[ "$output" == "bbmap: obj: offset 0x"*": .llvm_bb_addr_map (section 3) offset 0x7: section ends inside the ULEB128"* ]]
	# INVALIDMD: "invalid encoding for BBEntry::Metadata: 0xf000002"
	cp "$B/y-bam32-md" obj
	run bbmap --dump obj
	[ "$status" -eq 1 ]
	[[ "$output" == *"(section 3) offset 0x"*": invalid block metadata 0xf000002"* ]]
	# bb-addr-map-pgo-analysis-map.test INVALIDFT: section with index 5,
	# "unable to decode LEB128 at offset 0x00000010"
	cp "$B/y-pgo32-ft2" obj
	run bbmap --dump obj
	[ "$status" -eq 1 ]
	[[ "$output" == *"(section 5) offset 0x10: section ends inside the ULEB128 block frequency" ]]
	# TRUNCATED (SIZE=24): the branch probability's LEB128 is cut.  LLVM's
	# test says offset 0x14, from when the version 5 feature field was
	# one byte; LLVM main writes two (".short 143 # feature" in
	# llvm/test/CodeGen/X86/basic-block-sections-pgo-features.ll), one more
	cp "$B/y-pgo32-cut24" obj
	run bbmap --dump obj
	[ "$status" -eq 1 ]
	[[ "$output" == *"(section 3) offset 0x15: section ends inside the ULEB128 branch probability" ]]
}

@test "bbmap: unknown versions and feature bits name them and their offset" {
	# the first entry of a clang-19 map with its version byte (offset 0)
	# or feature field (offset 1) replaced
	objcopy --dump-section .llvm_bb_addr_map=map.bin "$B/demo"
	for v in 06 ff; do
		{ printf "\\x$v"; tail -c +2 map.bin; } > m2.bin
		objcopy --update-section .llvm_bb_addr_map=m2.bin "$B/demo" bad
		run bbmap --dump bad
		[ "$status" -eq 1 ]
		[[ "$output" == "bbmap: bad: offset 0x"*"(section "*") offset 0x0: unsupported BB address map version $((0x$v))"* ]]
	done
	# version 2 with bits of versions 3, 4 and 5
	for f in 20 40 80; do
		{ head -c 1 map.bin; printf "\\x$f"; tail -c +3 map.bin; } > m2.bin
		objcopy --update-section .llvm_bb_addr_map=m2.bin "$B/demo" bad
		run bbmap --dump bad
		[ "$status" -eq 1 ]
		[[ "$output" == *"offset 0x1: feature 0x$f ("*") needs version >= "*", found version 2" ]]
	done
	# version 5 with a two-byte feature field holding bits no version defines
	{ printf '\x05\x00\x01'; tail -c +3 map.bin; } > m2.bin
	objcopy --update-section .llvm_bb_addr_map=m2.bin "$B/demo" bad
	run bbmap --dump bad
	[ "$status" -eq 1 ]
	[[ "$output" == *"offset 0x1: unknown feature bits 0x100 in feature 0x100 of a version 5 entry" ]]
}

@test "bbmap: damaged map sections: clear errors, exit 1, never a crash" {
	cp -r "$B/dmg" dmg
	local f n=0 nfail=0 failed=
	for f in dmg/*; do
		# the dump to a file: bats need not split it into lines
		rm -f out.txt
		run bbmap --dump -o out.txt "$f"
		n=$((n + 1))
		case "$status" in
		0)	[ -z "$output" ]
			[ "$(head -1 out.txt)" = "# bbmap-dump 1" ] ;;
		1)	nfail=$((nfail + 1))
			failed="$failed ${f#dmg/}"
			[ "${#lines[@]}" -eq 1 ]
			[ ! -e out.txt ]
			[[ "$output" == "bbmap: $f: offset 0x"*": "* ]]
			[ "$f" != dmg/grow ] ||
			    [[ "$output" == *"runs past the end of the file" ]] ;;
		*)	echo "$f: status $status: $output"; return 1 ;;
		esac
	done
	[ "$n" -ge 30 ]
	[ "$nfail" -ge 15 ]
	# these cannot decode
	for f in dmg/fftail* dmg/cut1 dmg/grow dmg/far; do
		[[ " $failed " == *" ${f#dmg/} "* ]]
	done
	# a failed run leaves no output file
	run bbmap --dump -o out.txt dmg/cut1
	[ "$status" -eq 1 ]
	[ ! -e out.txt ]
}

@test "bbmap: fuzz harness over real map sections" {
	mkdir -p corpus
	local f
	for f in demo demo-pgo eh-split eh-split-pgo; do
		objcopy --dump-section .llvm_bb_addr_map=s.bin "$B/$f"
		{ printf '\201'; cat s.bin; } > "corpus/$f"
	done
	# a relocatable object's section, addresses from relocations
	objcopy --dump-section .llvm_bb_addr_map=s.bin "$B/eh-pgo.o"
	{ printf '\211'; cat s.bin; } > corpus/eh-pgo.o
	fuzz_briefly bbaddrmap 10000 corpus
}

@test "bbmap: options, usage errors, -o, missing files" {
	run bbmap --help
	[ "$status" -eq 0 ]
	[[ "$output" == "usage: bbmap"* ]]
	run bbmap --version
	[ "$status" -eq 0 ]
	[[ "$output" == "bbmap (profpipe) "* ]]
	run bbmap --bogus
	[ "$status" -eq 2 ]
	run bbmap --dump
	[ "$status" -eq 2 ]
	run bbmap --dump nonexistent
	[ "$status" -eq 1 ]
	[[ "$output" == "bbmap: nonexistent"* ]]
	bbmap --dump -o out.txt "$B/demo"
	bbmap --dump "$B/demo" | same_file out.txt -
	# a file without a map: no functions, not an error
	objcopy --remove-section .llvm_bb_addr_map "$B/demo" p
	bbmap --dump p > d.txt
	grep -qx '# sections=0' d.txt
	[ "$(grep -vc '^#' d.txt)" -eq 0 ]
}

@test "bbcfg: graphs from the map (blocks, flags, successors) as llvm-readobj-19's decoding describes them" {
	run bbcfgtest unit
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = ok ]
	# tests/data/bbmap/readobj2cfg.py builds them from llvm-readobj's view
	local f
	for f in demo eh.o demo-pgo eh-pgo.o eh-pgo-fs.o eh-split eh-split.o eh-split-pgo flow; do
		bbcfgtest "$B/$f" > got.txt
		[ "$(grep -c '^block .* -> [0-9]' "$B/$f.cfg")" -gt 3 ]
		same_file got.txt "$B/$f.cfg"
	done
	# the PGO map's successors: known (K), branches beside fall-throughs
	grep -q '^block .*K -> [0-9]* [0-9]' "$B/eh-split-pgo.cfg"
	# landing pads, tail calls and indirect branches among the flags
	cat "$B/eh.cfg" "$B/eh-split.cfg" > all.cfg
	for l in E T I; do
		grep -q "^block [0-9a-f]* [0-9a-f]* [0-9]* [A-Z]*$l" all.cfg
	done
	# split functions: one graph over both parts, far apart, and the hot
	# part's last block, though it can fall through, has no successor
	# there (the next block is in the other range)
	local t a b id fl e=-1 n=0
	while read -r t a b id fl; do
		if [ "$t" = function ]; then
			e=-1
		else
			[ "$e" -lt 0 ] || [ $((0x$a - e)) -le 64 ] || n=$((n + 1))
			e=$((0x$b))
		fi
	done < "$B/eh-split.cfg"
	[ "$n" -ge 2 ]
	grep -q '^block [0-9a-f]* [0-9a-f]* [0-9]* N\?F ->$' "$B/eh-split.cfg"
}

@test "bbmap: a real branch trace (brtrace) of a clang-19 PIE: flow conservation, real successors, every input form" {
	need_tool "$L/llvm-objdump"
	cp "$B/flow" "$B/flow0" .
	# 800 iterations of its loop (about 200 stacks; the default 1500
	# takes half as long again under ptrace)
	brtrace -p 61 -o flow.events -- ./flow 800 > /dev/null
	mkperfdata -o flow.data flow.events
	perfdecode flow.data > flow.ev
	preagg -b flow flow.ev > cur.pa
	preagg -B -b flow flow.ev > bid.pa
	preagg --legacy -b flow flow.ev > leg.pa
	grep -q '^T ' cur.pa
	grep -q '^[BT] [0-9a-f]*:[0-9a-f]* ' bid.pa
	grep -q '^F ' leg.pa
	bbmap flow cur.pa > cur.bb 2> cur.err
	cat cur.err
	[ "$(sed -n 1p cur.bb)" = "# profpipe-bb 1" ]
	# flow conservation within 2 x stacks + loose ends
	run python3 "$D/flowcheck.py" cur.bb cur.err flow.events
	echo "imbalance bound total: $output"
	[ "$status" -eq 0 ]
	# every edge a real successor, of every kind
	bbmap --dump flow > flow.dump
	run python3 "$D/checkedges.py" flow flow.dump cur.bb
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" -gt 30 ]
	for k in br ft call ret; do
		grep -q "^edge $k " cur.bb
	done
	# and, where the PGO analysis map lists them, among the compiler's
	# successors (the graph of tools/bbmap/bbcfg.c)
	grep -q "^bbmap: branches inside functions checked against the compiler's successors [1-9][0-9]*: not a successor 0 (0.0%)$" cur.err
	# buildid: locations and the legacy B/F/f form give the same blocks
	bbmap -q flow bid.pa > bid.bb
	same_file cur.bb bid.bb
	bbmap -q flow leg.pa > leg.bb
	same_file cur.bb leg.bb
	# the compiler's estimate beside the counts: the entry block's is its count
	bbmap -q --pgo flow cur.pa > pgo.bb
	[ "$(awk '$1 == "block" && $3 == 0 && $6 > 0 && $8 != $6' pgo.bb | wc -l)" -eq 0 ]
	[ "$(awk '$1 == "block" && $3 == 0 && $6 > 0' pgo.bb | wc -l)" -gt 3 ]
	[ "$(awk '$1 == "block" && NF != 8' pgo.bb | wc -l)" -eq 0 ]
	# the same profile on a build at -O0 lands mid-block: stale, an
	# error with --strict (no output file), not stale above its share
	run bbmap -o o1.bb flow0 cur.pa
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"bbmap: warning: "*"% of the mapped branch weight lands in the middle of blocks (more than 30%): the profile looks stale"* ]]
	run bbmap -s -o o2.bb flow0 cur.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"bbmap: flow0: the profile looks stale (--strict)" ]]
	[ ! -e o2.bb ]
	run bbmap -s -t 90 -o o3.bb flow0 cur.pa
	[ "$status" -eq 0 ]
	[[ "$output" != *"stale"* ]]
	run bbmap -s -o o4.bb flow cur.pa
	[ "$status" -eq 0 ]
}

@test "bbmap: a perf record -e cpu-clock recording: each block's samples are the S counts in its range" {
	need_tool perf
	cp "$B/flowd" .
	perf record -q -e cpu-clock -c 100000 -o cc.data ./flowd 3000000 2>/dev/null || true
	perfdecode cc.data | preagg -b flowd > cc.pa
	grep -q '^S ' cc.pa
	bbmap flowd cc.pa > cc.bb 2> cc.err
	cat cc.err
	bbmap --dump flowd > d.txt
	python3 "$D/samplecheck.py" d.txt cc.pa cc.bb
	grep -q "^bbmap: samples [0-9]*: in blocks" cc.err
}

@test "bbmap: malformed profile lines are errors with file and line" {
	cp "$B/flowd" p
	printf 'B 1000 1010 3 0\nB 1000 zz 1 0\n' > bad.pa
	run bbmap -o out.bb p bad.pa
	[ "$status" -eq 1 ]
	[[ "$output" == "bbmap: bad.pa:2: "* ]]
	[ ! -e out.bb ]
	printf 'Q 1 2\n' | { run bbmap p; [ "$status" -eq 1 ]; [[ "$output" == "bbmap: <stdin>:1: "* ]]; }
}
