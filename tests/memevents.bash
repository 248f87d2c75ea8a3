# Helpers of tests/56-memevents.bats and tests/large/56-memevents-large.bats
# (loaded after common.bash).

# bolt_globals BIN: llvm-bolt-19's data objects of BIN (--print-globals),
# a line "name start end depth" each
bolt_globals() {
	"$LLVM_BIN/llvm-bolt" "$1" -o /dev/null --print-globals 2>&1 |
	    python3 -c '
import re, sys
for l in sys.stdin:
    m = re.match(r"BOLT-INFO: ( *)\(object: (.*?)(?: \(parent: .*)?, 0x([0-9a-f]+):0x([0-9a-f]+)/", l)
    if m:
        print(m.group(2), m.group(3), m.group(4), len(m.group(1)) // 2)'
}

# mem_samples EVENTS BIN CODESTEP BSSSTEP: the stream EVENTS (cfgwalk's,
# of BIN) as version 2 (data address 0), then a mem-loads sample at every
# byte of the file data of BIN's loaded segments, every BSSSTEP-th byte
# after it (.bss), and every CODESTEP-th byte of an executable segment
# (none if 0), from the ips of BIN's functions in turn; EVENTS' exit last
mem_samples() {
	llvm-nm-19 --defined-only "$2" | awk '$2 ~ /[tT]/ { print $1 }' > ips
	llvm-readelf-19 -lW "$2" > segs
	python3 - "$1" ips segs "$3" "$4" <<'PY'
import re, sys
ev, ips, segs = sys.argv[1:4]
codestep, bssstep = int(sys.argv[4]), int(sys.argv[5])
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
    if not m:
        continue
    lo, fsz, msz = (int(m.group(k), 16) for k in (1, 2, 3))
    if 'E' in m.group(4):
        if not codestep:
            continue
        addrs = range(lo, lo + msz, codestep)
    else:
        addrs = list(range(lo, lo + fsz)) + list(range(lo + fsz, lo + msz, bssstep))
    for a in addrs:
        print("sample 4242 4242 %d mem-loads %x %x" % (t, ip[c % len(ip)] + 1, a))
        t += 1
        c += 1
if last:
    sys.stdout.write(last)
PY
}
