#!/usr/bin/env bats
# bbmap --dump against llvm-readobj-19 --bb-addr-map on programs built here
# with clang-19 (executables and .o files, plain, with the PGO analysis
# map, with split functions), and on our own yaml2obj-19 objects of every
# case LLVM's llvm-readobj tests build (tests/data/bbmap/maps.yaml: several
# map sections, 32 and 64 bits, both byte orders, the PGO map, relocatable
# objects, truncated and malformed sections, versions 0 to 5); what
# llvm-readobj-19 cannot decode (versions 3 to 5, the newer feature bits,
# the legacy section type) against what the documents describe.
# Compressed map sections (zlib, zstd) against the same uncompressed.
# Damaged sections: clear errors, the other sections still dumped; a fuzz
# run of the decoder.  The graphs of tools/bbmap/bbcfg.c against
# llvm-readobj-19's decoding.  Mapping: a real branch trace and a real
# cpu-clock recording.  The large program's comparisons are in
# tests/large/45-bbmap-large.bats.
#
# Every program, every llvm-readobj-19 view and every YAML object is made
# once in setup_file, the Python conversions in one interpreter
# (tests/data/bbmap/pybatch.py): on a loaded 2-core machine each Python
# start costs about half a second of CPU.

load common

L=/usr/lib/llvm-19/bin
D="$TOP/tests/data/bbmap"

# our objects (tests/data/bbmap/maps.yaml) that llvm-readobj-19 reads,
# each as a case of its tests (llvm/test/tools/llvm-readobj/ELF/
# bb-addr-map*.test): NAME DOCNUM NAME=VALUE...
OBJS='multi64 1 BITS=64 ADDR=0x1234567890
multi32 1 BITS=32
multi64be 1 BITS=64 DATA=MSB ADDR=0x1234567890
multi32be 1 BITS=32 DATA=MSB
multicut 1 BITS=32 SIZE=20
multimd 1 MD=0x20
pgo64 2 BITS=64 ADDR=0x987654321
pgo32 2 BITS=32
pgocut 2 SIZE=30
pgoft 2 FEATURE=0x2
rel 3
relnorela 4
relmissing 5
relbadinfo 6
dyn 7
versions 8
featwarn 10'

# those it cannot read, compared with what the document describes
DESCRIBED='v0 9
newer64 11 BITS=64 ADDR=0x123456789
newer32 11 BITS=32'

# compressed with llvm-objcopy-19 --compress-sections, zlib and zstd
COMPRESSED="multi64 multi32be pgo64 rel newer32 v0"

# the programs built here whose llvm-readobj-19 view the tests compare
PROGS="demo demo.o demo-fs.o demo-lld eh eh.o demo-pgo eh-pgo.o eh-pgo-fs.o
demo-split eh-split eh-split.o eh-split-pgo flow"

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
		printf '%s.yaml\t-\t%s\t%s\t%s\t%s\n' "$n" "$D/bamyaml.py" \
		    "$D/maps.yaml" "$t" "$(echo $a | tr ' ' '\t')" >> jobs
	done <<< "$OBJS
$DESCRIBED"
	while read -r n t a; do
		printf '%s.exp\t-\t%s\t--describe\t%s\t%s\t%s\n' "$n" \
		    "$D/bamyaml.py" "$D/maps.yaml" "$t" "$(echo $a | tr ' ' '\t')" >> jobs
	done <<< "$DESCRIBED"
	python3 "$D/pybatch.py" jobs
	while read -r n t a; do
		"$L/yaml2obj" "$n.yaml" -o "$n"
		"$L/llvm-readobj" --bb-addr-map "$n" > "$n.ro" 2> "$n.ro.err" || true
	done <<< "$OBJS
$DESCRIBED"
	for n in $COMPRESSED; do
		for z in zlib zstd; do
			"$L/llvm-objcopy" --compress-sections ".llvm_bb_addr_map*=$z" "$n" "$n.$z"
		done
	done
	: > jobs
	for f in $PROGS; do
		"$L/llvm-readobj" --bb-addr-map "$f" > "$f.ro" 2>/dev/null
		printf '%s.ref\t%s.ro\t%s\n' "$f" "$f" "$D/readobj2lines.py" >> jobs
		printf '%s.cfg\t%s.ro\t%s\n' "$f" "$f" "$D/readobj2cfg.py" >> jobs
	done
	while read -r n t a; do
		printf '%s.ref\t%s.ro\t%s\n' "$n" "$n" "$D/readobj2lines.py" >> jobs
	done <<< "$OBJS"
	printf 'null\t-\t%s\t%s\tdmg\n' "$D/damage.py" "$d/eh" >> jobs
	printf 'null\t-\t%s\t%s\tchdmg64\n' "$D/chdamage.py" "$d/multi64.zlib" >> jobs
	printf 'null\t-\t%s\t%s\tchdmg32\n' "$D/chdamage.py" "$d/multi32be.zstd" >> jobs
	python3 "$D/pybatch.py" jobs
}

setup() {
	setup_tmp
	need_tool "$L/llvm-readobj" "$L/clang" "$L/yaml2obj" "$L/llvm-objcopy" python3
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

@test "bbmap: our objects of each case LLVM's llvm-readobj tests build: llvm-readobj-19's functions, the same sections left out, the errors at its offsets" {
	# llvm-readobj-19 prints each map section that decodes and warns for
	# one that does not (all of it left out), going on with the next;
	# bbmap --dump prints the same functions, then an error for each
	# section left out, and exits 1
	local n t a nobj=0 nbad=0 nblocks=0 want got
	while read -r n t a; do
		nobj=$((nobj + 1))
		ours "$B/$n" > ours.txt
		grep . "$B/$n.ref" > ref.txt || true
		same_file ours.txt ref.txt
		bbmap --dump "$B/$n" > /dev/null 2> err.txt && st=0 || st=$?
		# the sections readobj leaves out, and the file it cannot read
		want=$(sed -n 's/.*\(unable to dump\|unable to get relocation section for\) SHT_LLVM_BB_ADDR_MAP section with index \([0-9]*\).*/\2/p' "$B/$n.ro.err" | sort | tr '\n' ' ')
		got=$(sed -n 's/.*(section \([0-9]*\)).*/\1/p; s/.*: map section \([0-9]*\) .*/\1/p' err.txt | sort | tr '\n' ' ')
		echo "$n: readobj leaves out [$want], we [$got], status $st" >&2
		[ "$want" = "$got" ]
		if grep -q 'failed to get SHT_LLVM_BB_ADDR_MAP section(s)' "$B/$n.ro.err"; then
			[ "$st" -eq 1 ]
			[ ! -s ours.txt ]
			grep -q 'applies to section 127, past the' err.txt
			nbad=$((nbad + 1))
		elif [ -n "$want" ]; then
			[ "$st" -eq 1 ]
			[ "$(grep -c . err.txt)" -eq "$(echo $want | wc -w)" ]
			nbad=$((nbad + 1))
		else
			[ "$st" -eq 0 ]
			[ ! -s err.txt ]
			grep -q '^block ' ours.txt
		fi
		nblocks=$((nblocks + $(grep -c '^block ' ours.txt || true)))
		# where readobj names the offset of the fault in the section,
		# ours is the same
		sed -n 's/.*with index \([0-9]*\): unable to decode LEB128 at offset 0x0*\([0-9a-f]*\):.*/\1 \2/p
		    s/.*with index \([0-9]*\): failed to get relocation data for offset: \([0-9a-f]*\) .*/\1 \2/p' \
		    "$B/$n.ro.err" | while read -r sec off; do
			grep -q "(section $sec) offset 0x$off: " err.txt
		done
	done <<< "$OBJS"
	echo "$nobj objects, $nbad with a section left out, $nblocks blocks" >&2
	[ "$nobj" -ge 17 ] && [ "$nbad" -ge 8 ] && [ "$nblocks" -ge 60 ]
	# the first function of multi64 lies above 4 GiB; multi*be are
	# big-endian; relocatable addresses are the addends
	grep -q '^function 1234567890 2 8 MultiBBRange -$' <(bbmap --dump "$B/multi64be")
	grep -qx 'function 20 2 0 - second' <(bbmap --dump "$B/rel")
	# what the errors say
	run bbmap --dump "$B/multimd"
	[[ "$output" == *"(section 3) offset 0xf: invalid block metadata 0x20 (unknown bits 0x20)" ]]
	run bbmap --dump "$B/relnorela"
	[[ "$output" == *": map section 2 of a relocatable object: no RELA section applies to it" ]]
	run bbmap --dump "$B/relmissing"
	[[ "$output" == *"(section 2) offset 0x11: no relocation for the address field of a relocatable object"* ]]
	run bbmap --dump "$B/pgoft"
	[[ "$output" == *"(section 5) offset 0x14: section ends inside the ULEB128 block frequency" ]]
}

@test "bbmap: versions 3 to 5, their features and the legacy section type, which llvm-readobj-19 cannot read: as our documents describe them" {
	local n t a
	while read -r n t a; do
		[ -s "$B/$n.exp" ]
		bbmap --dump "$B/$n" | grep -v '^#' > got.txt
		same_file got.txt "$B/$n.exp"
	done <<< "$DESCRIBED"
	# llvm-readobj-19 reads none of newer's functions, and not the
	# legacy-type section of v0 (one function of three)
	run ! grep -q 'Function {' "$B/newer64.ro"
	[ "$(grep -c 'Function {' "$B/v0.ro")" -eq 1 ]
	[ "$(grep -c '^function' "$B/v0.exp")" -eq 3 ]
	# callsite end offsets (cumulative, in the size), hashes, two ranges,
	# the two-byte feature field with post-link counts, omitted blocks
	grep -qx 'block 0 0 c F 5,9' "$B/newer32.exp"
	grep -qx 'block 3 0 2 R - fedcba9876543210' "$B/newer32.exp"
	grep -qx 'function 52000 5 87 FuncEntryCount,BBFreq,BrProb,PostLinkCfg -' "$B/newer32.exp"
	grep -qx 'pgo 300 12 2:80000000:9' "$B/newer32.exp"
	grep -qx 'range 52100 3 omitted' "$B/newer32.exp"
	grep -q '^function 123456789 3 20 ' "$B/newer64.exp"
	# a feature its version cannot have: each of the three sections fails
	# alone, at its feature field
	run bbmap --dump "$B/featwarn"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 6 ]
	[[ "${lines[3]}" == *"(section 1) offset 0x1: feature 0x20 (callsite end offsets) needs version >= 3, found version 2" ]]
	[[ "${lines[4]}" == *"(section 2) offset 0x1: feature 0x40 (block hashes) needs version >= 4, found version 3" ]]
	[[ "${lines[5]}" == *"(section 3) offset 0x1: feature 0x80 (post-link CFG) needs version >= 5, found version 4" ]]
}

@test "bbmap: compressed map sections (zlib and zstd; 32 and 64 bits, both byte orders, relocatable, every version): as uncompressed; damaged compression: an error, the other sections dumped" {
	local n z f
	for n in $COMPRESSED; do
		bbmap --dump "$B/$n" | grep -v '^# file=' > plain.txt
		[ "$(grep -c '^block' plain.txt)" -ge 3 ]
		for z in zlib zstd; do
			[ "$("$L/llvm-readobj" -S "$B/$n.$z" | grep -c SHF_COMPRESSED)" -ge 1 ]
			bbmap --dump "$B/$n.$z" | grep -v '^# file=' > packed.txt
			same_file plain.txt packed.txt
		done
	done
	# llvm-readobj-19 decodes the compressed bytes themselves
	run ! grep -q 'Function {' <("$L/llvm-readobj" --bb-addr-map "$B/pgo64.zlib" 2>/dev/null)
	# a compressed section that fails: it alone is left out, the other
	# (also compressed) printed; offsets in the decompressed bytes
	bbmap --dump "$B/multi64" | sed -n '/^function 70000 /,$p' > second.txt
	[ "$(grep -c '^block' second.txt)" -eq 3 ]
	for f in "$B"/chdmg64/* "$B"/chdmg32/*; do
		run bbmap --dump -o out.txt "$f"
		[ "$status" -eq 1 ]
		[ ! -e out.txt ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == "bbmap: $f: offset 0x"*": compressed map section 3: "* ]]
		bbmap --dump "$f" 2>/dev/null | grep -v '^#' > got.txt || true
		same_file got.txt second.txt
	done
	[ "$(ls "$B"/chdmg64 | wc -l)" -eq 7 ]
	run bbmap --dump "$B/chdmg64/huge"
	[[ "$output" == *"an uncompressed size of 0x10000000000 bytes from "*" compressed bytes (more than 1032 times as many)" ]]
	run bbmap --dump "$B/chdmg32/type"
	[[ "$output" == *"compression type 9 (known: 1 zlib, 2 zstd)" ]]
	run bbmap --dump "$B/chdmg32/flip"
	[[ "$output" == *"zstd data does not decompress to the 0x"*" bytes its header says: "* ]]
	run bbmap --dump "$B/chdmg64/more"
	[[ "$output" == *"decompressed to 0x"*" bytes, its header says 0x"* ]]
	# a fault inside the decompressed bytes: the offset is in them
	"$L/llvm-objcopy" --compress-sections '.llvm_bb_addr_map*=zlib' "$B/multicut" cut.zlib
	run bbmap --dump cut.zlib
	[ "$status" -eq 1 ]
	[[ "$output" == *"(section 3) decompressed, offset 0x14: section ends inside the ULEB128 number of blocks" ]]
}

@test "bbmap: a damaged map: --dump prints the sections that decode, then the error; mapping a profile refuses it" {
	printf 'B 70000 70007 5 0\nF 70007 70020 5\n' > p.pa
	bbmap -q "$B/multi32" p.pa > good.bb
	grep -q . good.bb
	run bbmap "$B/multicut" p.pa
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "bbmap: $B/multicut: offset 0x"*"(section 3) offset 0x14: section ends inside the ULEB128 number of blocks" ]]
	run bbmap -o out.bb "$B/multicut" p.pa
	[ "$status" -eq 1 ]
	[ ! -e out.bb ]
	# --dump: the functions first (standard output), the error last
	st=0
	bbmap --dump "$B/multicut" > d.txt 2> e.txt || st=$?
	[ "$st" -eq 1 ]
	[ "$(grep -c '^function' d.txt)" -eq 1 ]
	grep -q '^function 70000 2 0 - hot$' d.txt
	[ "$(grep -c . e.txt)" -eq 1 ]
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
		# (the dump's # lines first: the file has no other section)
		[[ "$output" == "# bbmap-dump 1"*"
bbmap: bad: offset 0x"*"(section "*") offset 0x0: unsupported BB address map version $((0x$v))"* ]]
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
	# compressed sections (0x10: the harness inflates them first), zlib
	# and zstd, 64-bit little-endian and 32-bit big-endian
	for f in multi64.zlib pgo64.zstd newer32.zlib multi32be.zstd; do
		"$L/llvm-objcopy" --dump-section .llvm_bb_addr_map=s.bin "$B/$f" /dev/null
		case $f in
		*32be*)	printf '\227' ;;	# 0x80 0x10 4 2 1
		*32*)	printf '\223' ;;	# 0x80 0x10 2 1
		*)	printf '\221' ;;	# 0x80 0x10 1
		esac > "corpus/$f"
		cat s.bin >> "corpus/$f"
	done
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
	bbmap -v flow cur.pa > cur.bb 2> cur.err
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
	bbmap -v flowd cc.pa > cc.bb 2> cc.err
	cat cc.err
	bbmap --dump flowd > d.txt
	python3 "$D/samplecheck.py" d.txt cc.pa cc.bb
	grep -q "^bbmap: samples [0-9]*: in blocks" cc.err
	# the counts only with -v
	bbmap flowd cc.pa 2> cc2.err > /dev/null
	run grep -c "^bbmap: samples " cc2.err
	[ "$output" = 0 ]
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
