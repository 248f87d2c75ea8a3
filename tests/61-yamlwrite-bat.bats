#!/usr/bin/env bats
# yamlwrite --bat: a profile of a BOLTed binary, through
# perfdecode | preagg -b BOLTED | batmap BOLTED INPUT | yamlwrite --bat
# BOLTED INPUT, against perf2bolt-19 -p perf.data --profile-format=yaml on
# BOLTED (DataAggregator::writeBATYAML), compared as data
# (tests/data/yamlwrite-bat/cmpyaml.py: every field, calls and successors
# of a block as multisets, an empty profile fails).  The programs are
# built here with clang-19 -Wl,--emit-relocs and BOLTed by llvm-bolt-19
# --enable-bat with hot/cold splitting, as tests/40-batmap.bats does: a C
# program with a local function and cold fragments, and a C++ PIE with
# exceptions.  Branch stacks follow the BOLTed programs' real control
# flow (cfgwalk) or a real run (brtrace); basic samples are a real
# perf record -e cpu-clock.
#
# Functions without BAT tables (PLT entries; code BOLT left in place,
# which perf2bolt disassembles and hashes with LLVM's opcode tables)
# are compared in every field but the hashes: cmpyaml finds them from
# the symbols and the tables, and says how many (nobat=, nobatcfg=) and
# how many of their blocks, successors and calls it compared (gblocks=,
# gsucc=, gcalls=).  A third program, a C one BOLTed with a real
# cpu-clock recording of one mode of it, keeps the code of its other
# mode in place, a function with two entry points among it.

load common
bats_require_minimum_version 1.5.0

P2B=/usr/lib/llvm-19/bin/perf2bolt
BOLT=/usr/lib/llvm-19/bin/llvm-bolt
BOLTOPTS="--enable-bat -reorder-blocks=ext-tsp -split-functions -split-all-cold -reorder-functions=hfsort"

setup_file() {
	local d="$BATS_FILE_TMPDIR" L=/usr/lib/llvm-19/bin
	[ -x "$L/clang" ] && [ -x "$L/llvm-bolt" ] || return 0
	cd "$d" || return 1
	export PATH="$PROFPIPE_BIN:$PROFPIPE_TESTBIN:$PATH"
	# C: a switch, rare error paths, static helpers; BOLTed with a
	# profile along its control flow
	$L/clang -O2 -fno-pie -no-pie -Wl,--emit-relocs -o sw "$TOP/tests/data/batmap/sw.c"
	cfgwalk -n 300 -D skewed -o sw.events sw
	mkperfdata -o sw.data sw.events
	$L/perf2bolt -p sw.data -o sw.fdata sw > sw.p2b.log 2>&1
	$L/llvm-bolt sw -data sw.fdata -o sw.bolt $BOLTOPTS > sw.bolt.log 2>&1
	# C++ with exceptions, position-independent, BOLTed with a real
	# cpu-clock recording: landing pads in cold fragments, the functions
	# it did not sample left in place (without tables)
	$L/clang++ -O2 -fPIE -pie -Wl,--emit-relocs -o exc "$TOP/tests/data/batmap/exc.cpp"
	perf record -q -e cpu-clock -o exc.perf ./exc 3000000 > /dev/null 2>&1 || true
	$L/perf2bolt -nl -p exc.perf -o exc.fdata exc > exc.p2b.log 2>&1
	$L/llvm-bolt exc -data exc.fdata -o exc.bolt $BOLTOPTS > exc.bolt.log 2>&1
	# C, BOLTed with a real recording of its first mode: the second
	# mode's functions (one with a second entry point) left in place
	$L/clang -O2 -fno-pie -no-pie -Wl,--emit-relocs -o ip "$TOP/tests/data/yamlwrite-bat/inplace.c"
	perf record -q -e cpu-clock -o ip.perf ./ip 5000000 > /dev/null 2>&1 || true
	$L/perf2bolt -nl -p ip.perf -o ip.fdata ip > ip.p2b.log 2>&1
	$L/llvm-bolt ip -data ip.fdata -o ip.bolt $BOLTOPTS > ip.bolt.log 2>&1
	for p in sw exc ip; do
		batmap --dump $p.bolt > $p.dump
		llvm-readelf-19 -sW $p.bolt > $p.syms
	done
}

setup() {
	setup_tmp
	need_tool "$P2B" llvm-bolt-19 clang-19 clang++-19 llvm-readelf-19 llvm-nm-19 \
	    perf python3
	D="$BATS_FILE_TMPDIR"
	CMP="$DATA/yamlwrite-bat/cmpyaml.py"
	export ASAN_OPTIONS="detect_leaks=1:exitcode=86" UBSAN_OPTIONS="exitcode=86"
}

# field NAME: the value of NAME= in $output
field() {
	echo "$output" | tail -1 | sed -n "s/.*\\<$1=\\([0-9]*\\).*/\\1/p"
}

# compare P DATA [legacy]: perf2bolt's YAML of DATA on P.bolt and ours
# (also from preagg's legacy form and with build-ids when asked); $output
# holds cmpyaml's last report
compare() {
	local p=$1 data=$2
	"$P2B" -p "$data" --profile-format=yaml -o ref.yaml "$D/$p.bolt" > p2b.log 2>&1
	perfdecode "$data" | preagg -b "$D/$p.bolt" > b.pa
	batmap "$D/$p.bolt" "$D/$p" b.pa > in.pa
	yamlwrite --bat "$D/$p.bolt" -o ours.yaml "$D/$p" in.pa
	# the binary's name as given, like perf2bolt's
	run python3 "$CMP" ours.yaml ref.yaml --nobat "$D/$p.syms" "$D/$p.dump"
	echo "$p: $output"
	[ "$status" -eq 0 ]
	[ -n "${3:-}" ] || return 0
	# the legacy form (B and F entries), through pipes
	perfdecode "$data" | preagg --legacy -b "$D/$p.bolt" |
	    batmap "$D/$p.bolt" "$D/$p" | yamlwrite -b "$D/$p.bolt" "$D/$p" > leg.yaml
	run python3 "$CMP" leg.yaml ref.yaml --nobat "$D/$p.syms" "$D/$p.dump"
	echo "$p legacy: $output"
	[ "$status" -eq 0 ]
	# the binaries named by build-id (preagg -B)
	perfdecode "$data" | preagg -B -b "$D/$p.bolt" > bid.pa
	grep -q '^[TB] [0-9a-f]*:' bid.pa
	batmap "$D/$p.bolt" "$D/$p" bid.pa | yamlwrite -b "$D/$p.bolt" "$D/$p" > bid.yaml
	run python3 "$CMP" bid.yaml ref.yaml --nobat "$D/$p.syms" "$D/$p.dump"
	echo "$p build-ids: $output"
	[ "$status" -eq 0 ]
}

@test "yamlwrite --bat: in the usage; usage errors" {
	run yamlwrite --help
	[ "$status" -eq 0 ]
	[[ "$output" == *--bat* ]]
	run yamlwrite --bat
	[ "$status" -eq 2 ]
	run yamlwrite --bat "$D/sw.bolt"
	[ "$status" -eq 2 ]
}

@test "yamlwrite --bat: the test programs have cold fragments, a local function, functions without tables" {
	[ "$(grep -c '^cold ' "$D/sw.dump")" -ge 1 ]
	[ "$(grep -c '^cold ' "$D/exc.dump")" -ge 1 ]
	grep -q '^hot .* step$' "$D/sw.dump"
	grep -q ' LOCAL .* step$' "$D/sw.syms"
}

# the statistics llvm-bolt-19 prints about a profile
bolt_stats() {
	"$BOLT" "$1" -data "$2" -o "$3" -reorder-blocks=ext-tsp -split-functions \
	    > "$3.log" 2>&1
	grep -E 'have non-empty execution profile|invalid \(possibly stale\)|stale functions' \
	    "$3.log" | grep -v 'belong to functions'
}

@test "yamlwrite --bat: C, branch stacks along the BOLTed program's control flow (32 deep): perf2bolt-19's YAML, the same llvm-bolt-19 statistics" {
	cfgwalk -n 3000 -D skewed -s 3 -o c.events "$D/sw.bolt"
	mkperfdata -o c.data c.events
	compare sw c.data legacy
	[ "$(field functions)" -ge 5 ] && [ "$(field blocks)" -ge 20 ]
	[ "$(field succ)" -ge 10 ] && [ "$(field calls)" -ge 10 ]
	# the local's name with its file, as BOLT names it under BAT
	grep -q "^- name: 'step/sw.c/1'" ours.yaml
	grep -q "^  - name: *'step/sw.c/1'" ref.yaml
	# llvm-bolt-19 optimizing the input binary: every profiled function
	# has tables or is a PLT entry here, so the very same statistics
	bolt_stats "$D/sw" ref.yaml a.out > a.txt
	bolt_stats "$D/sw" ours.yaml b.out > b.txt
	cat a.txt b.txt
	grep -q 'have non-empty execution profile' a.txt
	same_file a.txt b.txt
	run ! grep -q 'stale' b.txt
	"$D/sw" 1000 > want.txt 2>&1 || true
	./b.out 1000 > got.txt 2>&1 || true
	same_file want.txt got.txt
	# the comparison sees one successor count changed
	awk '!done && /cnt: [0-9]+/ && /bid:/ { sub(/cnt: [0-9]+/, "cnt: 999999"); done = 1 } { print }' \
	    ours.yaml > m1.yaml
	run ! cmp -s ours.yaml m1.yaml
	run python3 "$CMP" m1.yaml ref.yaml --nobat "$D/sw.syms" "$D/sw.dump"
	[ "$status" -eq 1 ]
	# ... a block dropped
	python3 -c '
import yaml
d = yaml.safe_load(open("ours.yaml"))
f = [f for f in d["functions"] if f.get("blocks")][-1]
f["blocks"].pop()
yaml.safe_dump(d, open("m2.yaml", "w"))'
	run python3 "$CMP" m2.yaml ref.yaml --nobat "$D/sw.syms" "$D/sw.dump"
	[ "$status" -eq 1 ]
	# ... and fails on no functions at all, even on both sides
	python3 -c '
import yaml
d = yaml.safe_load(open("ours.yaml"))
d["functions"] = []
yaml.safe_dump(d, open("m3.yaml", "w"))'
	run python3 "$CMP" m3.yaml m3.yaml
	[ "$status" -eq 1 ]
}

@test "yamlwrite --bat: C, a real branch trace of the BOLTed program: perf2bolt-19's YAML" {
	brtrace -o t.events -- "$D/sw.bolt" 60 > /dev/null 2>&1
	mkperfdata -o t.data t.events
	compare sw t.data
	[ "$(field functions)" -ge 2 ] && [ "$(field blocks)" -ge 15 ]
	[ "$(field succ)" -ge 5 ]
}

@test "yamlwrite --bat: C++ PIE with exceptions: perf2bolt-19's YAML; llvm-bolt-19 finds stale what it finds stale with perf2bolt's and functions without tables" {
	cfgwalk -n 3000 -D skewed -s 6 -o c.events "$D/exc.bolt"
	mkperfdata -o c.data c.events
	compare exc c.data
	[ "$(field functions)" -ge 4 ] && [ "$(field blocks)" -ge 30 ]
	[ "$(field calls)" -ge 20 ]
	# code BOLT left in place is in the profile: compared with its hashes
	[ "$(field nobatcfg)" -ge 1 ] && [ "$(field gblocks)" -ge 1 ]
	python3 "$CMP" ours.yaml ref.yaml --nobat "$D/exc.syms" "$D/exc.dump" \
	    --nobatcfg-list nobatcfg.txt
	for y in ref ours; do
		"$BOLT" "$D/exc" -data $y.yaml -o $y.out -report-stale \
		    -reorder-blocks=ext-tsp -split-functions > $y.log 2>&1
		grep 'have non-empty execution profile' $y.log > $y.prof
		sed -n '/Functions with stale profile:/,/^BOLT/p' $y.log |
		    sed -n 's/^  //p' > $y.stale
	done
	cat ref.prof ours.prof
	[ -s ref.prof ]
	same_file ref.prof ours.prof
	run python3 "$DATA/yamlwrite-bat/stale.py" ref.stale ours.stale nobatcfg.txt
	echo "$output"
	[ "$status" -eq 0 ]
	# those hashes are perf2bolt's: the very same functions stale
	same_file ref.stale ours.stale
}

@test "yamlwrite --bat: C, code BOLT left in place (a function with two entry points among it): perf2bolt-19's YAML but for the hashes, calls into a secondary entry of a function without tables" {
	# the program as BOLTed: work has tables, the second mode's code
	# none (twoentry, rare, rare2)
	grep -q '^hot .* work$' "$D/ip.dump"
	run ! grep -qE '^hot .* (twoentry|rare|rare2)$' "$D/ip.dump"
	"$D/ip.bolt" 20 x > got.txt
	"$D/ip" 20 x > want.txt
	same_file want.txt got.txt
	cfgwalk -n 3000 -D skewed -s 3 -o c.events "$D/ip.bolt"
	mkperfdata -o c.data c.events
	compare ip c.data legacy
	[ "$(field functions)" -ge 1 ] && [ "$(field blocks)" -ge 5 ]
	[ "$(field nobatcfg)" -ge 4 ] && [ "$(field gblocks)" -ge 10 ]
	[ "$(field gsucc)" -ge 10 ] && [ "$(field gcalls)" -ge 5 ]
	# the function with two entries has a graph in BAT mode; calls into
	# its second entry, from work (tables) and rare2 (none), say so
	python3 - ours.yaml ref.yaml <<'EOF'
import sys, yaml
for p in sys.argv[1:]:
    d = yaml.safe_load(open(p))
    f = {x['name'].split('/')[0]: x for x in d['functions']}
    assert f['twoentry']['nblocks'] >= 4, (p, f['twoentry'])
    for caller in ('work', 'rare2'):
        discs = [c for b in f[caller]['blocks'] for c in b.get('calls') or []
                 if c['fid'] == f['twoentry']['fid'] and c.get('disc') == 1]
        assert discs, (p, caller)
EOF
}

@test "yamlwrite --bat: basic samples (-nl) of the BOLTed program: perf2bolt-19 writes no function; ours, each block's samples" {
	perf record -q -e cpu-clock -o s.perf "$D/sw.bolt" 30000000 > /dev/null 2>&1 || true
	"$P2B" -nl -p s.perf --profile-format=yaml -o ref.yaml "$D/sw.bolt" > p.log 2>&1
	grep -qx 'functions: *\[\]' ref.yaml
	grep -q "profile-flags: *\[ sample \]" ref.yaml
	# perf2bolt's own translation of the samples (fdata, boltedcollection)
	"$P2B" -nl -p s.perf -o ref.fdata "$D/sw.bolt" > p2.log 2>&1
	perfdecode s.perf | preagg -b "$D/sw.bolt" | batmap "$D/sw.bolt" "$D/sw" |
	    yamlwrite --bat "$D/sw.bolt" -o ours.yaml "$D/sw"
	llvm-nm-19 -S "$D/sw" > nm.txt
	# each block's events: perf2bolt's samples in the block of the
	# tables holding them (those past the end of the input's function
	# are dropped, as batmap drops them: tests/40-batmap.bats)
	run python3 - ours.yaml ref.fdata "$D/sw.dump" nm.txt <<'EOF'
import sys, yaml
ours = yaml.safe_load(open(sys.argv[1]))
assert ours['header']['profile-flags'] == ['sample'], ours['header']
assert ours['header']['profile-events'] == 'cpu-clock:', ours['header']
size = {}
for l in open(sys.argv[4]):
    p = l.split()
    if len(p) == 4:
        size[p[3]] = int(p[1], 16)
blocks, cur = {}, None
for l in open(sys.argv[3]):
    p = l.split()
    if p[0] == 'hot':
        cur = p[6]
        blocks[cur] = []
    elif p[0] == 'cold':
        cur = p[5][:p[5].index('.cold')]
    elif p[0] == 'block':
        blocks[cur].append((int(p[3], 16), int(p[4])))
want = {}
for l in open(sys.argv[2]):
    p = l.split()
    if len(p) != 4 or p[0] != '1':
        continue
    name, off, cnt = p[1].split('/')[0], int(p[2], 16), int(p[3])
    if name not in blocks or off >= size.get(name, 0):
        continue
    bb = sorted(b for b in blocks[name])
    bid = [b for b in bb if b[0] <= off][-1][1]
    want[(name, bid)] = want.get((name, bid), 0) + cnt
got = {}
for f in ours['functions']:
    for b in f.get('blocks') or []:
        if b.get('events'):
            got[(f['name'].split('/')[0], b['bid'])] = b['events']
print('blocks=%d samples=%d' % (len(got), sum(got.values())))
if got != want:
    print('ours', sorted(got.items()))
    print('perf2bolt', sorted(want.items()))
    sys.exit(1)
EOF
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(field blocks)" -ge 2 ] && [ "$(field samples)" -ge 50 ]
	# llvm-bolt-19 takes it: the sampled functions have a profile
	"$BOLT" "$D/sw" -data ours.yaml -o o.bolt -reorder-blocks=ext-tsp > o.log 2>&1
	n=$(sed -n 's/BOLT-INFO: \([0-9]*\) out of .* have non-empty execution profile/\1/p' o.log)
	[ "$n" -ge 2 ]
	run ! grep -q 'stale' o.log
}

@test "yamlwrite --bat: damaged BAT sections in a whole ELF: a clear message, exit 1, no output file; never a crash" {
	echo "B 401000 401010 1 0" > one.pa
	# no tables at all
	run yamlwrite --bat "$D/sw" -o out.yaml "$D/sw" one.pa
	[ "$status" -eq 1 ]
	[[ "$output" == "yamlwrite: $D/sw: no .note.bolt_bat section"* ]]
	[ ! -e out.yaml ]
	mkdir dmg
	python3 "$DATA/batmap/damage.py" "$D/sw.bolt" dmg 12 11 > dmg.list
	local rejected=0 f desc rc
	while read -r f desc; do
		rc=0
		yamlwrite --bat "$f" -o out.yaml "$D/sw" one.pa 2> err.txt || rc=$?
		if grep -q 'Sanitizer\|runtime error' err.txt || [ $rc -gt 1 ]; then
			echo "$f ($desc): exit $rc" >&2
			head -5 err.txt >&2
			return 1
		fi
		if [ $rc -eq 1 ]; then
			[ "$(wc -l < err.txt)" -eq 1 ]
			grep -q "^yamlwrite: $f: " err.txt
			[ ! -e out.yaml ]
			rejected=$((rejected + 1))
		fi
		rm -f out.yaml
	done < dmg.list
	echo "rejected $rejected of 12"
	[ "$rejected" -ge 8 ]
	# the section's counts set to all ones: the decoder's message, with
	# the section offset and the producer
	cp "$D/sw.bolt" big.bolt
	python3 - big.bolt <<'EOF'
import struct, sys
p = sys.argv[1]
d = bytearray(open(p, 'rb').read())
shoff, = struct.unpack_from('<Q', d, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
stroff, = struct.unpack_from('<Q', d, shoff + shstrndx * shentsize + 0x18)
for i in range(shnum):
    h = shoff + i * shentsize
    n, = struct.unpack_from('<I', d, h)
    if d[stroff + n:stroff + n + 15] == b'.note.bolt_bat\0':
        off, = struct.unpack_from('<Q', d, h + 0x18)
        # after the note header and "BOLT\0\0\0\0": the hot table's count
        d[off + 20:off + 30] = b'\xff' * 9 + b'\x01'
open(p, 'wb').write(d)
EOF
	run yamlwrite --bat big.bolt -o out.yaml "$D/sw" one.pa
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == "yamlwrite: big.bolt: offset 0x"*"(.note.bolt_bat+0x"*"(written by BOLT revision: <unknown>)" ]]
	[ ! -e out.yaml ]
}
