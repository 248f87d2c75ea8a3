#!/usr/bin/env bats
# Memory events on the large benchmark program (tests/large/build-large.sh:
# about 3500 functions, gcc's .cold fragments, jump tables, the PIE) and
# on GNU objdump (build-large-src.sh: -fcf-protection's notrack jumps):
# the data objects fdatawrite -M names samples by are those
# llvm-bolt-19 --print-globals prints, object for object (SYMBOLat,
# DATAat, FUNCat, jump tables, entry points, holes and their hashes),
# with and without relocations; and a memory sample at every byte of the
# program's data (every 61st of .bss) gives perf2bolt-19's memory lines,
# all of them.

load ../common
load ../memevents

LARGE="$TOP/build/large"

setup_file() {
	PROFPIPE_TESTBIN="$PROFPIPE_TESTBIN" "$TOP/tests/large/build-large.sh" "$LARGE"
	PROFPIPE_TESTBIN="$PROFPIPE_TESTBIN" "$TOP/tests/large/build-large-src.sh" "$LARGE"
}

setup() {
	setup_tmp
	need_tool perf2bolt llvm-bolt llvm-readelf-19 llvm-nm-19 objcopy python3
	export ASAN_OPTIONS="detect_leaks=0:exitcode=86" UBSAN_OPTIONS="exitcode=86"
}

@test "memory events, large programs: the data objects are llvm-bolt-19's (--print-globals), with and without relocations" {
	secs=$(readelf -SW "$LARGE/app" | grep -oE '\.rela\.[A-Za-z_.0-9]+' |
	    grep -vxE '\.rela\.(dyn|plt)' | sort -u | sed 's/^/-R /')
	objcopy $secs "$LARGE/app" norel
	for b in "$LARGE/app" "$LARGE/app-pie" norel "$LARGE/objdump-bb"; do
		bolt_globals "$b" > want
		datatest list "$b" > got
		echo "$b: $(grep -c . want) objects, $(grep -c '^JUMP_TABLE/' want) jump tables, $(grep -c '^FUNCat0x\|^__ENTRY_' want) FUNCat and entries, $(grep -c '^HOLEat_\|^SYMBOLat_\|^DATAat_' want) hashed"
		[ "$(grep -c . want)" -ge 5000 ]
		same_file want got
	done
}

@test "memory events, large program: every byte of its data sampled, the whole fdata is perf2bolt-19's" {
	cp "$LARGE/app" app
	# the mappings and a few branch stacks from cfgwalk, then a
	# mem-loads sample at every byte of the data segments' file data
	# (every 61st of .bss), from the functions' ips in turn
	cfgwalk -n 100 -s 5 -m "$PWD/app" -o w.events app
	mem_samples w.events app 0 61 > p.events
	mkperfdata -o p.data p.events
	"$LLVM_BIN/perf2bolt" -p p.data -o want.fdata app > p2b.log 2>&1
	perfdecode p.data | preagg -b app -M m.mem > m.pa
	fdatawrite -v -M m.mem app m.pa > got.fdata
	sort want.fdata > want.s
	sort got.fdata > got.s
	n=$(grep -c '^4 ' want.s)
	echo "$n memory lines from perf2bolt, $(grep -c ' 4 JUMP_TABLE/' want.s) in jump tables, $(grep -c ' 4 HOLEat_\| 4 SYMBOLat_\| 4 DATAat_' want.s) in hashed objects"
	[ "$n" -ge 100000 ]
	same_file want.s got.s
}
