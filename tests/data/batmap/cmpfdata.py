#!/usr/bin/env python3
"""cmpfdata.py: compare perf2bolt's fdata of a BOLTed binary with the
fdata perf2bolt --pa writes from batmap's translation for the input.

usage: cmpfdata.py BAT.fdata PA.fdata DUMP INPUT

BAT.fdata is `perf2bolt-19 -p perf.data BOLTED` (BAT mode: a
"boltedcollection" header, local names name/file/N, a fall-through's
source at its block's start); PA.fdata is `perf2bolt-19 --pa -p
translated INPUT` (local names name/N, a fall-through's source at its
block's last instruction).  DUMP is `batmap --dump BOLTED`, whose blocks
(input offsets) say where the input's blocks start.  Both files are
brought to one form: names name/N, the source of every line inside one
function moved to the start of its input block; then the counts of equal
lines are compared.

What PA.fdata cannot hold is reported apart, not as a difference: a
fall-through in BOLT's layout between two blocks that do not follow each
other in the input (BAT.fdata credits "start of A -> start of B"; from
the F entry perf2bolt --pa walks the input's blocks from A to B, each
step an edge of its graph, or drops the entry: the lines of the steps
must lie between none and all such walks), a line with an offset
past the end of the input's function (a BOLTed function can be longer
than its input; batmap drops such entries).  Prints the numbers; exits 1
if any other line differs.

A function the input does not have (perf2bolt's name for code BOLT left
at a moved function's old address, __BOLT_FDE_FUNCat... or foo.org.0)
is, for llvm-bolt reading BAT.fdata on the input, no function: batmap
writes such an end as the unknown location 0, which PA.fdata writes as
"0 [unknown] 0".  BAT.fdata's ends there are read so (its lines with no
end left in a function of the input dropped) before the comparison;
their number is printed as stub-lines.
"""
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stubfdata  # noqa: E402


# BAT fdata names a local name/file/N, fdata without BAT name/M, where N
# counts the locals of that name in that file and M those of that name,
# in address order (BOLT's NameResolver); filled from the input's symbols
LOCAL = {}


def local_names(inp):
    out = subprocess.run(["/usr/lib/llvm-19/bin/llvm-readelf", "-sW", inp],
                         capture_output=True, text=True, check=True).stdout
    syms, cur = [], ""
    for line in out.splitlines():
        f = line.split()
        if len(f) < 8 or not f[0].endswith(":"):
            continue
        if f[3] == "FILE":
            cur = f[7]
        elif f[3] == "FUNC" and f[4] == "LOCAL" and f[6] != "UND":
            syms.append((int(f[1], 16), f[7], cur))
    syms.sort(key=lambda x: x[0])
    byname, byfile = collections.Counter(), collections.Counter()
    for _, n, fl in syms:
        byname[n] += 1
        byfile[(n, fl)] += 1
        LOCAL["%s/%s/%d" % (n, fl, byfile[(n, fl)])] = "%s/%d" % (n, byname[n])


def name(n):
    if n in LOCAL:
        return LOCAL[n]
    return re.sub(r"^(.*?)/[^/]*/([0-9]+)$", r"\1/\2", n)


def main():
    fa, fb, dump, inp = sys.argv[1:5]
    local_names(inp)
    # the input's function sizes (MaxSize: to the next function)
    nm = subprocess.run(["/usr/lib/llvm-19/bin/llvm-nm", "-n", "--defined-only", inp],
                        capture_output=True, text=True, check=True).stdout
    addrs = []
    for line in nm.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTwW":
            addrs.append((int(f[0], 16), f[2]))
    secs = []
    sh = subprocess.run(["/usr/lib/llvm-19/bin/llvm-readelf", "-SW", inp],
                        capture_output=True, text=True, check=True).stdout
    for line in sh.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if m:
            secs.append((int(m.group(2), 16), int(m.group(3), 16)))
    size = {}
    for i, (ad, n) in enumerate(addrs):
        nxt = [x for x, _ in addrs[i + 1:] if x > ad]
        end = nxt[0] if nxt else 1 << 62
        for sa, ss in secs:
            if sa <= ad < sa + ss:
                end = min(end, sa + ss)
        size.setdefault(n, end - ad)
    # input block starts per function name (hot fragments and the cold
    # fragments of the same parent)
    starts = collections.defaultdict(set)
    hot = {}
    cur = None
    for line in open(dump):
        f = line.split()
        if f[0] == "hot":
            hot[f[1]] = f[6]
            cur = f[6]
        elif f[0] == "cold":
            cur = hot.get(f[2])
        elif f[0] == "block" and cur is not None:
            starts[cur].add(int(f[3], 16))
    starts = {k: sorted(v) for k, v in starts.items()}

    def bstart(fn, off):
        bare = fn.split("/")[0]
        s = starts.get(bare)
        if not s:
            return off
        b = [x for x in s if x <= off]
        return b[-1] if b else off

    # each line of a file: (normalized key, raw source offset, count,
    # mispredictions)
    absent = stubfdata.absenter(inp)

    nstub = 0

    def lines(path, stubs=False):
        nonlocal nstub
        for line in open(path):
            f = line.split()
            if len(f) != 8:
                continue
            if stubs and (absent(f[0], f[1]) or absent(f[3], f[4])):
                nstub += 1
                for i in (0, 3):
                    if absent(f[i], f[i + 1]):
                        f[i:i + 3] = ["0", "[unknown]", "0"]
                if f[0] != "1" and f[3] != "1":
                    continue
            f[1], f[4] = name(f[1]), name(f[4])
            raw = off = int(f[2], 16)
            if f[0] == "1" and f[3] == "1" and f[1] == f[4]:
                off = bstart(f[1], off)
            yield (f[0], f[1], off, f[3], f[4], int(f[5], 16)), raw, int(f[7]), int(f[6])

    # a branch and a fall-through from one block are one line in the
    # input's form: counts and mispredictions summed per normalized key
    exp = collections.defaultdict(lambda: [0, 0])
    b = collections.defaultdict(lambda: [0, 0])
    cand = collections.Counter()        # BAT pairs the input may not take
    chained = collections.Counter()     # the most their walks can add
    nonadj = chains = 0
    for k, raw, n, m in lines(fa, True):
        exp[k][0] += n
        exp[k][1] += m
        s = starts.get(k[1].split("/")[0], [])
        to = k[5]
        if (k[0] == "1" and k[3] == "1" and k[1] == k[4] and m == 0 and
                raw in s and to in s and
                (s.index(raw) + 1 == len(s) or s[s.index(raw) + 1] != to)):
            nonadj += 1
            cand[k] += n
            if raw < to:
                chain = [x for x in s if raw <= x <= to]
                for x, y in zip(chain, chain[1:]):
                    chained[(k[0], k[1], x, k[3], k[4], y)] += n
                chains += 1
    for k, raw, n, m in lines(fb):
        b[k][0] += n
        b[k][1] += m
    same = walked = beyond = 0
    bad = []
    for k in sorted(set(exp) | set(b) | set(chained), key=str):
        e, g = exp[k], b[k]
        if e == g:
            same += 1
            continue
        # a BAT pair of blocks that do not follow each other in the input:
        # perf2bolt walks the input's blocks from the first to the second,
        # each step an edge of its graph, or drops the entry
        if g[1] == e[1] and e[0] - cand[k] <= g[0] <= e[0] + chained[k]:
            walked += 1
            continue
        fn, off, to = k[1], k[2], k[5]
        bare = fn.split("/")[0]
        # an offset past the input's function: batmap drops the line
        if g == [0, 0] and ((k[0] == "1" and off >= size.get(bare, 1 << 62)) or
                            (k[3] == "1" and to >= size.get(k[4].split("/")[0], 1 << 62))):
            beyond += 1
            continue
        bad.append("%s: %s (count, mispreds) in the BAT fdata, %s through batmap" %
                   (" ".join(map(str, k)), e, g))
    print("lines=%d same=%d nonadjacent-fallthroughs=%d (forward %d, %d lines within their walks) past-input-function=%d stub-lines=%d differ=%d" %
          (len(set(exp) | set(b)), same, nonadj, chains, walked, beyond, nstub, len(bad)))
    for x in bad[:20]:
        print(x, file=sys.stderr)
    sys.exit(1 if bad else 0)


main()
