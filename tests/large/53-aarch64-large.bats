#!/usr/bin/env bats
# AArch64, large program: GNU objdump cross-built from Debian's
# binutils-source (tests/large/build-large-a64.sh: about 2350 functions,
# 1.1 MB of .text, non-PIE with relocations), run under qemu-aarch64,
# against perf2bolt-19 on this x86-64 machine:
#  - every function's graph as perf2bolt-19 --print-all builds it;
#  - fdatawrite's fdata and yamlwrite's YAML (as data, hashes included)
#    equal perf2bolt-19's on cfgwalk branch stacks (uniform, skewed), a
#    real run under qemu (qtrace), basic samples (-nl), every
#    instruction to the next three (--pa), the copy without relocations;
#  - llvm-bolt-19 prints the same with our fdata as with perf2bolt's, and
#    the optimized program prints what the original prints;
#  - objdump-a64.bolt (BOLTed with BAT, hot and cold fragments): batmap
#    --past-end | fdatawrite --bolted --past-end, and the driver, write
#    perf2bolt-19's fdata, every line (those past the end of an input
#    function, which no pre-aggregated entry of the input can name,
#    beside the stream); llvm-bolt-19 reads the same from both.  (Its
#    YAML is not compared: perf2bolt-19 writing BAT YAML on this binary
#    stops with a segmentation fault, whatever the profile.)

load ../common
bats_require_minimum_version 1.5.0

LARGE="$TOP/build/large"
SYSROOT=/usr/aarch64-linux-gnu
P2B=/usr/lib/llvm-19/bin/perf2bolt
BOLT=/usr/lib/llvm-19/bin/llvm-bolt

setup_file() {
	[ -e $SYSROOT/lib/libc.so.6 ] || return 0
	PROFPIPE_TESTBIN="$PROFPIPE_TESTBIN" "$TOP/tests/large/build-large-a64.sh" "$LARGE"
	# a small AArch64 program, the workload of the real runs
	/usr/lib/llvm-19/bin/clang --target=aarch64-linux-gnu -O2 -fno-pie -no-pie \
	    -fuse-ld=lld -o "$BATS_FILE_TMPDIR/small" "$TOP/tests/data/a64/sw.c"
}

setup() {
	setup_tmp
	need_tool "$P2B" "$BOLT" qemu-aarch64 python3
	if [ ! -e $SYSROOT/lib/libc.so.6 ]; then
		[ "${CI:-}" != true ] || { echo "arm64 cross libc missing under CI" >&2; return 1; }
		skip "libc6-dev-arm64-cross not installed"
	fi
	B="$LARGE/objdump-a64"
	S="$BATS_FILE_TMPDIR/small"
}

# compare DATA BIN [real]: perf2bolt-19 -p's fdata and YAML of DATA on BIN
# against the pipeline's (fdata from both pre-aggregated forms)
compare() {
	local data=$1 bin=$2 real=${3:-}
	"$P2B" -p "$data" -o want.fdata -w want.yaml "$bin" > p2b.log 2>&1
	perfdecode "$data" | preagg -b "$bin" > cur.pa
	fdatawrite -o cur.fdata "$bin" cur.pa
	perfdecode "$data" | preagg --legacy -b "$bin" | fdatawrite "$bin" > leg.fdata
	yamlwrite -o cur.yaml "$bin" cur.pa
	sort want.fdata > want.s
	sort cur.fdata > cur.s
	sort leg.fdata > leg.s
	echo "$(wc -l < want.s) lines from perf2bolt" >&2
	[ "$(wc -l < want.s)" -ge 1000 ]
	[ -n "$real" ] ||
	    grep -Eq 'traces mismatching disassembled function contents: 0( |$)' p2b.log
	same_file want.s cur.s
	same_file want.s leg.s
	run python3 "$DATA/yamlwrite/yamlcmp.py" want.yaml cur.yaml
	echo "$output" | tail -2 >&2
	[ "$status" -eq 0 ]
}

@test "aarch64, large program: every function's graph as perf2bolt-19 --print-all builds it" {
	"$P2B" --pa -p "$DATA/functab/empty.pa" -o /dev/null "$B" --print-all > all.txt 2>&1
	python3 "$DATA/a64/p2bcfg.py" all.txt > p2b.cfg
	cfgtest "$B" > ours.cfg
	run python3 "$DATA/a64/cfgcmp.py" p2b.cfg ours.cfg
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^function ' p2b.cfg)" -ge 2000 ]
	# functions BOLT 19 leaves non-simple (switch tables)
	[ "$(grep -c '^function .* nonsimple' p2b.cfg)" -ge 20 ]
}

@test "aarch64, large program: skewed and uniform branch stacks: perf2bolt-19's fdata and YAML; llvm-bolt-19 prints the same with both fdata, the optimized program prints the same" {
	cfgwalk -D skewed -n 20000 -s 1 -o w.events "$B"
	mkperfdata -a aarch64 -o w.data w.events
	compare w.data "$B"
	"$BOLT" "$B" -o ref.bolt -data want.fdata -reorder-blocks=ext-tsp -split-functions \
	    -reorder-functions=hfsort -dyno-stats > ref.log 2>&1
	"$BOLT" "$B" -o our.bolt -data cur.fdata -reorder-blocks=ext-tsp -split-functions \
	    -reorder-functions=hfsort -dyno-stats > our.log 2>&1
	sed -i 's/ref[.]bolt/OUT/g; s/want[.]fdata/DATA/g' ref.log
	sed -i 's/our[.]bolt/OUT/g; s/cur[.]fdata/DATA/g' our.log
	same_file ref.log our.log
	n=$(sed -n 's/^BOLT-INFO: \([0-9]*\) out of [0-9]* functions .* have non-empty execution profile$/\1/p' our.log)
	[ "${n:-0}" -ge 1500 ]
	# the workload names its input: run where the script ran it
	(cd "$LARGE" && qemu-aarch64 -L $SYSROOT "$TMP/our.bolt" -d -r objdump-a64-input) |
	    md5sum | cut -c1-32 > our.md5
	same_file "$LARGE/objdump-a64.expected" our.md5
	cfgwalk -D uniform -n 20000 -s 2 -o u.events "$B"
	mkperfdata -a aarch64 -o u.data u.events
	compare u.data "$B"
}

@test "aarch64, large program: a real run under qemu (qtrace), branch stacks and basic samples (-nl): perf2bolt-19's fdata and YAML" {
	qtrace -m -p 97 -o r.events -- "$B" -d -r "$S" > /dev/null
	mkperfdata -a aarch64 -o r.data r.events
	compare r.data "$B" real
	qtrace -i -m -p 997 -o i.events -- "$B" -d -r "$S" > /dev/null
	mkperfdata -a aarch64 -o i.data i.events
	"$P2B" -nl -p i.data -o want.fdata -w want.yaml "$B" > p2b.log 2>&1
	perfdecode i.data | preagg --basic -b "$B" > i.pa
	fdatawrite "$B" i.pa | sort > cur.s
	yamlwrite -o cur.yaml "$B" i.pa
	sort want.fdata > want.s
	echo "-nl: $(wc -l < want.s) lines from perf2bolt" >&2
	[ "$(wc -l < want.s)" -ge 500 ]
	same_file want.s cur.s
	python3 "$DATA/yamlwrite/yamlcmp.py" want.yaml cur.yaml
}

@test "aarch64, large program: every instruction to the next three, hand-made, against perf2bolt-19 --pa: with and without relocations" {
	cp "$B" rel
	llvm-objcopy-19 --remove-section='.rela.text*' --remove-section='.rela.data*' \
	    --remove-section='.rela.rodata*' --remove-section='.rela.eh_frame' rel norel
	run bash -c "llvm-readelf-19 -SW norel | grep -q '[.]rela[.]text'"
	[ "$status" -ne 0 ]
	for b in rel norel; do
		llvm-objdump-19 -d --no-show-raw-insn "$b" |
		    awk '/^ +[0-9a-f]+:/ { sub(":", "", $1); print $1 }' |
		    awk '{ a[NR] = $1 } END { for (i = 1; i <= NR; i++)
			for (j = 1; j <= 3 && i + j <= NR; j++) {
				print "F", a[i], a[i + j], 1
				print "f", a[i], a[i + j], 2 } }' > "$b.pa"
		"$P2B" --pa -p "$b.pa" -o "$b.want" "$b" > p2b.log 2>&1
		fdatawrite -o "$b.cur" "$b" "$b.pa"
		sort "$b.want" > want.s
		sort "$b.cur" > cur.s
		echo "$b: $(wc -l < "$b.pa") entries, $(wc -l < want.s) lines from perf2bolt" >&2
		[ "$(wc -l < want.s)" -ge 30000 ]
		same_file want.s cur.s
	done
}

@test "aarch64, large program: the BOLTed binary with BAT, branch stacks through batmap --past-end | fdatawrite --bolted --past-end (both forms) and the driver: perf2bolt-19's fdata, every line" {
	local bo="$LARGE/objdump-a64.bolt" n
	batmap --dump "$bo" | grep -q '^cold '
	# stacks of 24: perf2bolt-19 drops two entries of every stack of a
	# BOLTed binary once it sees one of 32 (tests/40-batmap.bats)
	cfgwalk -d 24 -n 5000 -s 3 -o b.events "$bo"
	mkperfdata -a aarch64 -o b.data b.events
	"$P2B" -p b.data -o want.fdata "$bo" > p2b.log 2>&1
	# a branch BOLT made to a block of its own after a return (a jump to
	# a cold block the conditional cannot reach) has no BAT entry: its
	# target takes the offset past the return, the end of the input's
	# function, which no pre-aggregated entry of the input can name:
	# batmap writes those branches as fdata lines beside its stream
	perfdecode b.data | preagg --legacy -b "$bo" |
	    batmap -v --past-end leg.pe "$bo" "$B" 2> v.txt |
	    fdatawrite --bolted --past-end leg.pe "$B" > leg.fdata
	perfdecode b.data | preagg -b "$bo" | batmap --past-end cur.pe "$bo" "$B" |
	    fdatawrite --bolted --past-end cur.pe "$B" > cur.fdata
	profpipe-perf2bolt --bat-input="$B" -p b.data -o drv.fdata "$bo"
	sort want.fdata > want.s
	sort leg.fdata > leg.s
	sort cur.fdata > cur.s
	sort drv.fdata > drv.s
	n=$(sed -n 's/.*--past-end: \([0-9]*\) lines.*/\1/p' v.txt)
	echo "$(wc -l < want.s) lines from perf2bolt, $n past the end of an input function" >&2
	[ "$(wc -l < want.s)" -ge 10000 ]
	[ "${n:-0}" -ge 10 ]
	same_file want.s cur.s
	same_file want.s leg.s
	same_file want.s drv.s
	# llvm-bolt-19 reads the same profile from both (perf2bolt's lines
	# past the end are mismatches that make functions stale: without
	# them it finds fewer stale functions)
	"$BOLT" "$B" -o r1.bolt -data want.fdata -reorder-blocks=ext-tsp > r1.log 2>&1
	"$BOLT" "$B" -o r2.bolt -data cur.fdata -reorder-blocks=ext-tsp > r2.log 2>&1
	sed -i 's/r1[.]bolt/OUT/g; s/want[.]fdata/DATA/g' r1.log
	sed -i 's/r2[.]bolt/OUT/g; s/cur[.]fdata/DATA/g' r2.log
	same_file r1.log r2.log
	grep -q 'have invalid (possibly stale) profile' r2.log
}
