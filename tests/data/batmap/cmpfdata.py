#!/usr/bin/env python3
"""cmpfdata.py: compare perf2bolt's fdata of a BOLTed binary with the
fdata perf2bolt --pa writes from batmap's translation for the input.

usage: cmpfdata.py BAT.fdata PA.fdata DUMP

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
other in the input (BAT.fdata credits "start of A -> start of B"; in the
input that is a jump perf2bolt never saw).  Prints the numbers; exits 1
if any other line differs.
"""
import collections
import re
import sys


def name(n):
    return re.sub(r"^(.*?)/[^/]*/([0-9]+)$", r"\1/\2", n)


def main():
    fa, fb, dump = sys.argv[1:4]
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

    def load(path):
        c = collections.Counter()
        for line in open(path):
            f = line.split()
            if len(f) != 8:
                continue
            f[1], f[4] = name(f[1]), name(f[4])
            off = int(f[2], 16)
            if f[0] == "1" and f[3] == "1" and f[1] == f[4]:
                off = bstart(f[1], off)
            c[(f[0], f[1], off, f[3], f[4], int(f[5], 16), int(f[6]))] += int(f[7])
        return c

    a, b = load(fa), load(fb)
    same = nonadj = 0
    bad = []
    for k in sorted(set(a) | set(b), key=str):
        if a[k] == b[k]:
            same += 1
            continue
        fn, off, to = k[1], k[2], k[5]
        bare = fn.split("/")[0]
        s = starts.get(bare, [])
        # a fall-through (mispreds 0) from a block start to a block start
        # that is not the next block in the input
        if (k[0] == "1" and k[3] == "1" and k[1] == k[4] and k[6] == 0 and
                off in s and to in s and b[k] == 0 and
                (s.index(off) + 1 >= len(s) or s[s.index(off) + 1] != to)):
            nonadj += 1
            continue
        bad.append("%s: %d in the BAT fdata, %d through batmap" % (" ".join(map(str, k)), a[k], b[k]))
    print("lines=%d same=%d nonadjacent-fallthroughs=%d differ=%d" %
          (len(set(a) | set(b)), same, nonadj, len(bad)))
    for x in bad[:20]:
        print(x, file=sys.stderr)
    sys.exit(1 if bad else 0)


main()
