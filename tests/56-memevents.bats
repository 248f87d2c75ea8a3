#!/usr/bin/env bats
# Memory events (the fdata format's memory lines): perfdecode carries a
# sample's data address, preagg -M writes the samples of memory events
# (mem-loads) of the selected binaries as a profpipe-mem(5) stream, and
# fdatawrite -M names each sample's function and data object as
# perf2bolt-19 does (DataAggregator::processMemEvents, BOLT's BinaryData:
# symbols, SYMBOLat, DATAat, FUNCat, jump tables, entry points, holes and
# their hashes).  Compared with perf2bolt-19 -p on perf.data files that
# mkperfdata writes (every byte of the program's data and code as a
# sampled address) and on real recordings (perf record -d, page faults
# of the programs, named mem-loads as perf mem's event is); the data
# objects themselves against llvm-bolt-19 --print-globals.

load common
load memevents

setup_file() {
	local d="$BATS_FILE_TMPDIR" L=/usr/lib/llvm-19/bin
	cd "$d" || return 1
	# relocations kept (clang: SYMBOLat and DATAat objects, a jump
	# table named over its SYMBOLat), none (gcc: .LC string labels, a
	# jump table of its own), a PIE (a PIC table over its DATAat), gcc's
	# notrack jumps (-fcf-protection: through no table BOLT knows)
	$L/clang -O2 -fno-pie -no-pie -Wl,--emit-relocs -o memc "$TOP/tests/data/fdatawrite/mem.c"
	cc -O2 -fno-pie -no-pie -o memg "$TOP/tests/data/fdatawrite/mem.c"
	$L/clang -O2 -fPIE -pie -o memp "$TOP/tests/data/fdatawrite/mem.c"
	cc -O2 -fno-pie -no-pie -fcf-protection=full -Wl,--emit-relocs -o memn "$TOP/tests/data/fdatawrite/mem.c"
	# a PIE with relocations, packed (RELR) dynamic ones: no SYMBOLat
	# where a dynamic relocation is
	cc -O2 -fPIE -pie -Wl,--emit-relocs -Wl,-z,pack-relative-relocs -o memr "$TOP/tests/data/fdatawrite/mem.c"
	# gcc's cold fragments: branches back into their parent (FUNCat), a
	# split jump table's entries in op.cold (__ENTRY_)
	cc -O2 -Wl,--emit-relocs -o split "$TOP/tests/data/fdatawrite/split.c"
}

setup() {
	setup_tmp
	need_tool perf2bolt llvm-bolt-19 llvm-readelf-19 llvm-nm-19 perf cc python3
	D="$BATS_FILE_TMPDIR"
	export ASAN_OPTIONS="detect_leaks=1:exitcode=86" UBSAN_OPTIONS="exitcode=86"
}

# probe BIN: a version 2 event stream of BIN, p.events: branch stacks
# along its control flow (cfgwalk; their data address 0), then a
# mem-loads sample at every byte of its loaded segments (every 97th of
# its code), from the ips of its functions in turn
probe() {
	cfgwalk -n 200 -d 16 -s 4 -o w.events "$1"
	mem_samples w.events "$1" 97 1 > p.events
}

# ours BIN DATA: the fdata of perfdecode | preagg | fdatawrite -M, sorted
ours() {
	perfdecode "$2" | preagg ${3:-} -b "$1" -M m.mem > m.pa
	fdatawrite -M m.mem "$1" m.pa | sort
}

@test "memory events: the data objects of the test programs are llvm-bolt-19's (--print-globals)" {
	for b in memc memg memp memn memr split; do
		bolt_globals "$D/$b" > want
		datatest list "$D/$b" > got
		echo "$b: $(grep -c . got) objects, $(grep -c '^HOLEat_' got) holes hashed, $(grep -c '^SYMBOLat\|^DATAat' got) made from references"
		[ "$(grep -c . want)" -ge 40 ]
		same_file want got
	done
	grep -q '^SYMBOLat0x' <(datatest list "$D/memc")
	grep -q '^DATAat0x' <(datatest list "$D/memc")
	grep -q '^FUNCat0x' <(datatest list "$D/split")
	grep -q '^__ENTRY_op.cold/1@0x' <(datatest list "$D/split")
	for b in memc memg memp; do
		grep -q '^JUMP_TABLE/step[^ ]*\.0 ' <(datatest list "$D/$b")
	done
	run grep -c '^JUMP_TABLE/' <(datatest list "$D/memn")
	[ "$output" = 0 ]
}

@test "memory events: every byte of the test programs sampled, with branch stacks: the whole fdata is perf2bolt-19's" {
	for b in memc memg memn; do
		probe "$D/$b"
		mkperfdata -o p.data p.events
		"$LLVM_BIN/perf2bolt" -p p.data -o a.fdata "$D/$b" > a.log 2>&1
		grep -q 'memory objects to' a.log
		sort a.fdata > a.s
		n=$(grep -c '^4 ' a.s)
		echo "$b: $n memory lines, $(grep -vc '^4 ' a.s) others"
		[ "$n" -ge 1000 ]
		[ "$b" = memn ] || grep -q '^4 .* 4 JUMP_TABLE/' a.s
		[ "$(grep -vc '^4 ' a.s)" -ge 20 ]
		# both forms of the pre-aggregated profile
		ours "$D/$b" p.data --legacy > f.s
		same_file a.s f.s
		ours "$D/$b" p.data > f.s
		same_file a.s f.s
	done
}

@test "memory events: real page faults (perf record -d), named mem-loads: the whole fdata is perf2bolt-19's" {
	for b in memc memg; do
		perf record -q -d -e minor-faults/name=mem-loads/ -c 1 -o pf.data "$D/$b" 200000 > /dev/null 2>&1 || true
		"$LLVM_BIN/perf2bolt" -p pf.data -o a.fdata "$D/$b" > a.log 2>&1
		sort a.fdata > a.s
		echo "$b: $(grep -c . a.s) memory lines"
		[ "$(grep -c '^4 ' a.s)" -ge 3 ]
		ours "$D/$b" pf.data > f.s
		same_file a.s f.s
		# the samples of events other than mem-loads are no memory
		# samples: perf2bolt writes none, nor do we
		perf record -q -d -e minor-faults -c 1 -o pf2.data "$D/$b" 2000 > /dev/null 2>&1 || true
		perfdecode pf2.data | preagg -b "$D/$b" -M m2.mem > /dev/null
		run grep -c '^mem ' m2.mem
		[ "$output" = 0 ]
	done
}

@test "memory events: a PIE: perf2bolt-19 rebases no memory sample's ip and writes no line; ours name the objects at their link-time addresses" {
	perf record -q -d -e minor-faults/name=mem-loads/ -c 1 -o pf.data "$D/memp" 200000 > /dev/null 2>&1 || true
	"$LLVM_BIN/perf2bolt" -p pf.data -o a.fdata "$D/memp" > a.log 2>&1
	run grep -c '^4 ' a.fdata
	[ "$output" = 0 ]
	perfdecode pf.data | preagg -b "$D/memp" -M m.mem > m.pa
	grep -q '^mem ' m.mem
	fdatawrite -M m.mem "$D/memp" m.pa > f.fdata
	# lines naming the program's objects (its static and global data,
	# its code), at offsets inside them
	llvm-nm-19 -S "$D/memp" | awk 'NF == 4 { print $4, $2 }' > sizes
	cat f.fdata
	python3 - sizes f.fdata <<'EOF'
import sys
sz = dict((l.split()[0], int(l.split()[1], 16)) for l in open(sys.argv[1]))
n = 0
for l in open(sys.argv[2]):
    f = l.split()
    o = f[4].split('/')[0]
    if f[0] == '4' and o in sz and sz[o] > 0:
        assert int(f[5], 16) < sz[o], l
        n += 1
assert n >= 2, n
EOF
}

@test "memory events: preagg -M's stream: buildid header, locations and counts summed; -M with build-id locations; usage" {
	probe "$D/memc"
	mkperfdata -o p.data p.events
	perfdecode p.data | preagg -b "$D/memc" -M m.mem > /dev/null
	[ "$(sed -n 1p m.mem)" = "# profpipe-mem 1" ]
	bid=$(llvm-readelf-19 -n "$D/memc" | sed -n 's/.*Build ID: //p')
	[ "$(sed -n 2p m.mem)" = "# buildid=$bid" ]
	# one line per (ip, address), the count of its samples
	[ "$(grep -c '^mem ' m.mem)" -eq "$(grep -c ' mem-loads ' p.events)" ]
	# twice the recording: every count doubled
	perfdecode p.data > e1
	preagg -b "$D/memc" -M m2.mem e1 e1 > /dev/null
	awk 'FNR == NR { c[$2 " " $3] = $4; next } $1 == "mem" && c[$2 " " $3] * 2 != $4 { bad++ }
	    END { exit bad > 0 }' m.mem m2.mem
	# build-id locations (-B): the same fdata
	perfdecode p.data | preagg -B -b "$D/memc" -M mb.mem > mb.pa
	grep -q "^mem $bid:" mb.mem
	fdatawrite -M mb.mem "$D/memc" mb.pa | sort > b.s
	perfdecode p.data | preagg -b "$D/memc" -M m.mem > m.pa
	fdatawrite -M m.mem "$D/memc" m.pa | sort > a.s
	same_file a.s b.s
	run preagg --merge -M x.mem m.pa
	[ "$status" -eq 2 ]
	run preagg -b "$D/memc" -M same -o same p.events
	[ "$status" -eq 2 ]
	run preagg -b "$D/memc" -M - p.events
	[ "$status" -eq 2 ]
	# a version 1 stream has no data addresses: said, an empty stream
	printf '# profpipe-events 1\n' > v1.events
	run preagg -b "$D/memc" -M v1.mem -o v1.pa v1.events
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "preagg: v1.events: a profpipe-events 1 stream has no data addresses: no memory samples for --mem" ]
	[ "$(grep -c '^mem' v1.mem)" -eq 0 ]
	# a BOLTed binary's memory samples are not translated
	run fdatawrite --bolted -M m.mem "$D/memc" m.pa
	[ "$status" -eq 2 ]
	[[ "$output" == *"--mem with --bolted"* ]]
}

@test "memory events: damaged memory streams are errors with file and line; a stream of another binary is refused; no output left" {
	bid=$(llvm-readelf-19 -n "$D/memc" | sed -n 's/.*Build ID: //p')
	main=$(llvm-nm-19 "$D/memc" | awk '$3 == "main" { print $1 }')
	: > e.pa
	bad() {		# CONTENT MESSAGE
		printf "$1" > bad.mem
		run fdatawrite -M bad.mem -o out.fdata "$D/memc" e.pa
		echo "$output"
		[ "$status" -eq 1 ]
		[ "$output" = "fdatawrite: $2" ]
		[ ! -e out.fdata ]
	}
	bad 'mem 1 2 3\n' "bad.mem:1: expected a 'profpipe-mem' stream (preagg -M)"
	bad '# profpipe-mem 2\n' "bad.mem:1: profpipe-mem version '2': this fdatawrite reads version 1"
	bad '# profpipe-mem 1\nmem 1 2\n' "bad.mem:2: memory record: expected 'mem ip address count'"
	bad '# profpipe-mem 1\nmen 1 2 3\n' "bad.mem:2: unknown record 'men'"
	bad '# profpipe-mem 1\nmem 1 2 3 4\n' "bad.mem:2: memory record: trailing '4'"
	bad '# profpipe-mem 1\nmem zz 2 3\n' "bad.mem:2: bad location 'zz'"
	bad '# profpipe-mem 1\nmem 1 :2 3\n' "bad.mem:2: bad location ':2'"
	bad '# profpipe-mem 1\nmem 1 g0:2 3\n' "bad.mem:2: bad location 'g0:2'"
	bad '# profpipe-mem 1\nmem 1 2 -3\n' "bad.mem:2: bad count '-3'"
	bad '# profpipe-mem 1\nmem 1 2 0\n' "bad.mem:2: bad count '0'"
	bad '# profpipe-mem 1\nmem 1 2 99999999999999999999\n' "bad.mem:2: bad count '99999999999999999999'"
	bad '# profpipe-mem 1\n# buildid=0123\nmem 1 2 3\n' "bad.mem:2: memory samples of another binary (build-id 0123; $D/memc has $bid)"
	run fdatawrite -M nonexistent.mem "$D/memc" e.pa
	[ "$status" -eq 1 ]
	# other binaries' and external locations are skipped
	printf '# profpipe-mem 1\nmem X:%s X:404040 3\nmem 0123:%s 404040 3\n' "$main" "$main" > ok.mem
	fdatawrite -M ok.mem "$D/memc" e.pa > ok.fdata
	run grep -c '^4 ' ok.fdata
	[ "$output" = 0 ]
	# random damage: a clear message or a profile, never a crash
	probe "$D/memc"
	mkperfdata -o p.data p.events
	perfdecode p.data | preagg -b "$D/memc" -M m.mem > m.pa
	for i in $(seq 1 40); do
		python3 - m.mem $i > d.mem <<'EOF'
import random, sys
random.seed(int(sys.argv[2]))
b = bytearray(open(sys.argv[1], 'rb').read())
for _ in range(random.randint(1, 8)):
    b[random.randrange(len(b))] = random.choice(b' :-0123456789abcdefgxX#\n\t\x00\xff')
sys.stdout.buffer.write(b)
EOF
		run fdatawrite -M d.mem "$D/memc" m.pa
		[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
		[ "$status" -eq 0 ] || [[ "$output" == "fdatawrite: d.mem:"* ]]
	done
}
