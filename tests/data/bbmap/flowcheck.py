#!/usr/bin/env python3
"""flowcheck.py BB ERR EVENTS: flow conservation of a profpipe-bb stream
(bbmap's output BB, its stderr ERR) made from the branch stacks of the
profpipe-events stream EVENTS: the sum over blocks of |in - out| is
within the bound profpipe-bb(5) derives, 2 x stacks + loose ends, and
that bound is small against the flow (under a quarter), with more than
100 stacks.  Prints "imbalance bound total"; exits 1 if any fails."""
import collections
import re
import sys

bb, err, events = sys.argv[1:4]
inn, out = collections.Counter(), collections.Counter()
for l in open(bb):
    f = l.split()
    if f and f[0] == "edge":
        c = int(f[6])
        if f[2] != "-":
            out[(f[2], f[3])] += c
        inn[(f[4], f[5])] += c
imb = sum(abs(inn[b] - out[b]) for b in set(inn) | set(out))
loose = int(re.search(r"loose ends (\d+)", open(err).read()).group(1))
stacks = sum(1 for l in open(events) if l.startswith("sample"))
bound = 2 * stacks + loose
total = sum(inn.values())
print(imb, bound, total)
sys.exit(0 if imb <= bound and bound * 4 < total and stacks > 100 else 1)
