#!/usr/bin/env python3
# srcgen.py [--no-mid] CFGTEST NM INSNS: pre-aggregated B entries from many
# instructions of every block of a binary's simple functions to the
# start of a successor of the block: from the block's first 8
# instructions, its last 4, its NOPs, and from inside its first
# instruction (no instruction starts there).  Each entry of a block has a
# count of its own bit (1, 2, 4, ...), so the count of the block's edge
# in a YAML profile says exactly which entries BOLT took as from the
# block: DataReader::recordBranch drops a branch whose source is an
# offset BOLT keeps no instruction at.  --no-mid: not from inside an
# instruction.
#   CFGTEST: cfgtest BIN (blocks: "  START-END last LAST ... -> SUCC...")
#   NM:      llvm-nm -S --defined-only BIN
#   INSNS:   llvm-objdump -d --no-show-raw-insn BIN, "ADDR MNEMONIC" lines
import bisect
import collections
import sys

args = sys.argv[1:]
mid = True
if args and args[0] == '--no-mid':
    mid = False
    args = args[1:]
cfgpath, nmpath, inspath = args[:3]
addrs = collections.defaultdict(set)
for line in open(nmpath):
    p = line.split()
    if len(p) == 4 and p[2] in 'tTwW':
        addrs[p[3]].add(int(p[0], 16))
ins, mn = [], {}
for line in open(inspath):
    p = line.split()
    if len(p) >= 2:
        a = int(p[0], 16)
        ins.append(a)
        mn[a] = p[1]
ins.sort()

funcs, cur = [], None
for line in open(cfgpath):
    if line.startswith('function '):
        p = line.split()
        cur = None
        base = p[1].split('/')[0]
        if p[2] == 'simple' and len(addrs.get(base, ())) == 1:
            cur = (next(iter(addrs[base])), [])
            funcs.append(cur)
    elif cur is not None and line.startswith('  '):
        p = line.split()
        s, e = (int(x, 16) for x in p[0].split('-'))
        succ = [int(x, 16) for x in line.split('->')[1].split()]
        cur[1].append((s, e, succ))

n = 0
for addr, blocks in funcs:
    for s, e, succ in blocks:
        to = [t for t in succ if t != s]
        if not to:
            continue
        i = bisect.bisect_left(ins, addr + s)
        j = bisect.bisect_left(ins, addr + e)
        bl = ins[i:j]
        if not bl or bl[0] != addr + s:
            continue
        src = set(bl[:8]) | set(bl[-4:])
        src |= set([a for a in bl if mn[a].startswith('nop')][:4])
        src = sorted(src)
        if mid and len(bl) > 1 and bl[1] - bl[0] > 1:
            src.append(bl[0] + 1)
        for bit, a in enumerate(src):
            print('B %x %x %d 0' % (a, addr + to[0], 1 << bit))
            n += 1
print('srcgen: %d entries, %d functions' % (n, len(funcs)), file=sys.stderr)
