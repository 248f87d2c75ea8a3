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

# globals BIN: llvm-bolt-19's data objects, "name start end depth"
globals() {
	"$LLVM_BIN/llvm-bolt" "$1" -o /dev/null --print-globals 2>&1 |
	    python3 -c '
import re, sys
for l in sys.stdin:
    m = re.match(r"BOLT-INFO: ( *)\(object: (.*?)(?: \(parent: .*)?, 0x([0-9a-f]+):0x([0-9a-f]+)/", l)
    if m:
        print(m.group(2), m.group(3), m.group(4), len(m.group(1)) // 2)'
}

@test "memory events, large programs: the data objects are llvm-bolt-19's (--print-globals), with and without relocations" {
	secs=$(readelf -SW "$LARGE/app" | grep -oE '\.rela\.[A-Za-z_.0-9]+' |
	    grep -vxE '\.rela\.(dyn|plt)' | sort -u | sed 's/^/-R /')
	objcopy $secs "$LARGE/app" norel
	for b in "$LARGE/app" "$LARGE/app-pie" norel "$LARGE/objdump-bb"; do
		globals "$b" > want
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
	llvm-nm-19 --defined-only app | awk '$2 ~ /[tT]/ { print $1 }' > ips
	llvm-readelf-19 -lW app > segs
	python3 - w.events ips segs > p.events <<'EOF'
import re, sys
ev, ips, segs = sys.argv[1:4]
ip = [int(l, 16) for l in open(ips)]
print("# profpipe-events 2")
last = None
for l in open(ev):
    f = l.split()
    if not f or f[0] == '#':
        continue
    if f[0] == 'exit':
        last = l
        continue
    if f[0] == 'sample':
        f.insert(6, '0')
        l = ' '.join(f) + '\n'
    sys.stdout.write(l)
t, c = 5000000000, 0
for l in open(segs):
    m = re.match(r'\s*LOAD\s+\S+\s+0x([0-9a-f]+)\s+\S+\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(.*?)\s+0x', l)
    if not m or 'E' in m.group(4):
        continue
    lo, fsz, msz = (int(m.group(k), 16) for k in (1, 2, 3))
    # every byte of the file's data, every 61st of .bss
    for a in list(range(lo, lo + fsz)) + list(range(lo + fsz, lo + msz, 61)):
        print("sample 4242 4242 %d mem-loads %x %x" % (t, ip[c % len(ip)] + 1, a))
        t += 1
        c += 1
if last:
    sys.stdout.write(last)
EOF
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
