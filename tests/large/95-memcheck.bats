#!/usr/bin/env bats
# Every tool under valgrind memcheck, over real inputs: what ASan and
# UBSan cannot see (a branch on uninitialised bytes, such as the padding
# of a struct compared with memcmp, which is how functab's section sort
# once remapped its indices).  The optimized build (make all) runs here,
# as users run it; --error-exitcode makes any error fail the test.
#
# The inputs: a real perf record -e cpu-clock recording of the bundled
# example, made here; an LBR perf.data of branch stacks along its control
# flow (cfgwalk, mkperfdata); the example BOLTed by llvm-bolt-19
# --enable-bat, profiled, through batmap, fdatawrite --bolted and
# yamlwrite --bat; the example built with -fbasic-block-address-map
# through bbmap; .profraw files of the example built with
# -fprofile-generate through prfraw2idx (indexed, both text forms, and
# back from text); an AArch64 program (LLVM 19's disassembler loaded by
# the tools) run under qemu (qtrace), then BOLTed with BAT and walked;
# the example built with -g through afdowrite, from branch stacks and
# from the cpu-clock recording.

load ../common

L=/usr/lib/llvm-19/bin
VG="valgrind --tool=memcheck --error-exitcode=99 --track-origins=yes --quiet --suppressions=$TOP/tests/data/valgrind/ldso.supp"
F="$PROFPIPE_FASTBIN"

setup_file() {
	local d="$BATS_FILE_TMPDIR" src="$TOP/tests/data/progs/demo.c" i
	cd "$d" || return 1
	$L/clang -O2 -fno-pie -no-pie -Wl,--emit-relocs -o app "$src"
	$L/clang -O2 -fbasic-block-address-map -o app-bam "$src"
	$L/clang -O2 -fprofile-generate -o app-inst "$src"
	$L/clang -O2 -g -fdebug-info-for-profiling -o app-g "$src"
	for i in 1 2 3; do
		LLVM_PROFILE_FILE="run$i.profraw" ./app-inst "$i" > /dev/null
	done
	# branch stacks along app's control flow
	"$PROFPIPE_TESTBIN/cfgwalk" -n 2000 -D skewed -o app.events app
	"$PROFPIPE_TESTBIN/mkperfdata" -o lbr.data app.events
	# BOLTed with BAT from that profile, then profiled itself
	"$F/perfdecode" lbr.data | "$F/preagg" -l -b app > app.pa
	$L/llvm-bolt app --pa -p app.pa -o app.bolt --enable-bat \
	    -reorder-blocks=ext-tsp -split-functions > bolt.log 2>&1
	"$PROFPIPE_TESTBIN/cfgwalk" -n 2000 -D skewed -s 2 -o bolt.events app.bolt
	"$PROFPIPE_TESTBIN/mkperfdata" -o bolt.data bolt.events
	# the bb-addr-map program's own branch stacks
	"$PROFPIPE_TESTBIN/cfgwalk" -n 1000 -o bam.events app-bam
	"$PROFPIPE_TESTBIN/mkperfdata" -o bam.data bam.events
}

setup() {
	setup_tmp
	need_tool valgrind "$L/clang" "$L/llvm-bolt" perf
	D="$BATS_FILE_TMPDIR"
	[ -x "$F/perfdecode" ]
}

# vg TOOL ARGS...: TOOL of the optimized build under memcheck; its
# standard output in $out (a file), its status checked by the caller
vg() {
	local t=$1
	shift
	$VG "$F/$t" "$@"
}

@test "memcheck: perfdecode and preagg on a real cpu-clock recording" {
	# ten runs of a few milliseconds, a sample every 20 us
	perf record -q -e cpu-clock -c 20000 -o rec.data -- sh -c \
	    'for i in 1 2 3 4 5 6 7 8 9 10; do "$0" $i; done' "$D/app" > /dev/null 2>&1
	[ -s rec.data ]
	vg perfdecode -o rec.events rec.data
	[ "$(grep -c '^sample' rec.events)" -gt 10 ]
	vg preagg -b "$D/app" -o rec.pa rec.events
	[ "$(grep -c '^S' rec.pa)" -gt 10 ]
	# no-LBR fdata and YAML of the samples
	vg fdatawrite -o rec.fdata "$D/app" rec.pa
	head -1 rec.fdata | grep -q '^no_lbr'
	vg yamlwrite -o rec.yaml "$D/app" rec.pa
	grep -q '^functions:' rec.yaml
}

@test "memcheck: the LBR pipeline, perfdecode to fdatawrite and yamlwrite" {
	vg perfdecode -o lbr.events "$D/lbr.data"
	vg perfdecode -O -s -o /dev/null "$D/lbr.data"
	vg preagg -b "$D/app" -o lbr.pa lbr.events
	vg preagg -l -b "$D/app" -o lbr.lpa lbr.events
	vg preagg -m -o merged.pa lbr.pa lbr.pa
	[ "$(grep -c '^B' lbr.lpa)" -gt 20 ]
	vg fdatawrite -o lbr.fdata "$D/app" lbr.pa
	[ "$(wc -l < lbr.fdata)" -gt 20 ]
	# the walk split among three processes (memcheck follows the
	# workers the parent forks): the same bytes
	vg fdatawrite -j 3 -o lbr3.fdata "$D/app" lbr.pa
	cmp lbr.fdata lbr3.fdata
	vg yamlwrite -o lbr.yaml "$D/app" lbr.pa
	grep -q 'succ:' lbr.yaml
}

@test "memcheck: a BOLTed binary through batmap, fdatawrite --bolted and yamlwrite --bat" {
	grep -q 'BAT' "$D/bolt.log"
	vg perfdecode -o bolt.events "$D/bolt.data"
	vg preagg -b "$D/app.bolt" -o bolt.pa bolt.events
	vg batmap --dump -o bat.txt "$D/app.bolt"
	[ "$(wc -l < bat.txt)" -gt 10 ]
	vg batmap -o back.pa "$D/app.bolt" "$D/app" bolt.pa
	[ "$(grep -c '^[BTF]' back.pa)" -gt 10 ]
	vg fdatawrite --bolted -o back.fdata "$D/app" back.pa
	[ "$(head -1 back.fdata)" = boltedcollection ]
	vg fdatawrite -o back2.fdata "$D/app" back.pa
	vg yamlwrite --bat "$D/app.bolt" -o back.yaml "$D/app" back.pa
	grep -q 'hash:' back.yaml
}

@test "memcheck: a bb-addr-map binary through bbmap" {
	vg bbmap --dump -o dump.txt "$D/app-bam"
	[ "$(grep -c '^block' dump.txt)" -gt 20 ]
	"$F/perfdecode" "$D/bam.data" | "$F/preagg" -b "$D/app-bam" > bam.pa
	vg bbmap -q -o bb.txt "$D/app-bam" bam.pa
	[ "$(grep -vc '^#' bb.txt)" -gt 10 ]
	vg bbmap -q -p -o bbp.txt "$D/app-bam" bam.pa
}

@test "memcheck: raw profiles through prfraw2idx" {
	vg prfraw2idx -o app.profdata "$D"/run1.profraw "$D"/run2.profraw "$D"/run3.profraw
	[ -s app.profdata ]
	vg prfraw2idx -t -o app.txt "$D"/run*.profraw
	vg prfraw2idx -l -o app.ltxt "$D"/run*.profraw
	vg prfraw2idx -o back.profdata app.txt
	cmp app.profdata back.profdata
}

@test "memcheck: AArch64 programs (LLVM 19's disassembler loaded): the LBR pipeline, a BOLTed binary through batmap, fdatawrite --bolted and yamlwrite --bat" {
	local S=/usr/aarch64-linux-gnu T="$PROFPIPE_TESTBIN"
	if [ ! -e $S/lib/libc.so.6 ]; then
		[ "${CI:-}" != true ] || { echo "arm64 cross libc missing under CI" >&2; return 1; }
		skip "libc6-dev-arm64-cross not installed"
	fi
	need_tool qemu-aarch64
	$L/clang --target=aarch64-linux-gnu -O2 -fno-pie -no-pie -fuse-ld=lld \
	    -Wl,--emit-relocs -o a64 "$TOP/tests/data/a64/sw.c"
	"$T/qtrace" -m -p 7 -o q.events ./a64 100 > /dev/null
	"$T/mkperfdata" -a aarch64 -o q.data q.events
	vg perfdecode -o q.ev q.data
	vg preagg -b a64 -o q.pa q.ev
	vg fdatawrite -o q.fdata a64 q.pa
	[ "$(wc -l < q.fdata)" -gt 20 ]
	vg yamlwrite -o q.yaml a64 q.pa
	grep -q 'succ:' q.yaml
	# BOLTed with BAT and split (call_weak_fn aside: tests/53-aarch64-cfg)
	$L/llvm-bolt a64 -data q.fdata -o a64.bolt --enable-bat -reorder-blocks=ext-tsp \
	    -split-functions -split-all-cold -skip-funcs=call_weak_fn/1 > bolt.log 2>&1
	"$T/cfgwalk" -d 24 -n 1000 -s 3 -o b.events a64.bolt
	"$T/mkperfdata" -a aarch64 -o b.data b.events
	"$F/perfdecode" b.data | "$F/preagg" -b a64.bolt > b.pa
	vg batmap --dump -o bat.txt a64.bolt
	grep -q '^cold ' bat.txt
	vg batmap -o back.pa a64.bolt a64 b.pa
	vg fdatawrite --bolted -o back.fdata a64 back.pa
	[ "$(head -1 back.fdata)" = boltedcollection ]
	vg yamlwrite --bat a64.bolt -o back.yaml a64 back.pa
	grep -q 'succ:' back.yaml
}

@test "memcheck: a binary with DWARF through afdowrite, from branch stacks and from basic samples" {
	"$PROFPIPE_TESTBIN/cfgwalk" -n 2000 -D skewed -o g.events "$D/app-g"
	"$PROFPIPE_TESTBIN/mkperfdata" -o g.data g.events
	"$F/perfdecode" g.data | "$F/preagg" -b "$D/app-g" > g.pa
	vg afdowrite -o g.prof "$D/app-g" g.pa
	[ "$(grep -c '^[^ ]' g.prof)" -ge 2 ]
	[ "$(wc -l < g.prof)" -gt 20 ]
	perf record -q -e cpu-clock -c 20000 -o rec.data -- sh -c \
	    'for i in 1 2 3 4 5 6 7 8 9 10; do "$0" $i; done' "$D/app-g" > /dev/null 2>&1
	"$F/perfdecode" rec.data | "$F/preagg" -b "$D/app-g" > rec.pa
	grep -q '^S' rec.pa
	vg afdowrite -o rec.prof "$D/app-g" rec.pa
	[ -s rec.prof ]
}
