#!/usr/bin/env python3
"""samplecheck.py DUMP PREAGG BB: every block's sample count in BB
(bbmap's profpipe-bb output) is the sum of the S counts of PREAGG (plain
addresses) inside the block's range, the ranges from DUMP (bbmap --dump
of the same binary), and the other blocks have none; more than 5 blocks
and 100 samples.  Prints "N blocks, M samples"; exits 1 otherwise."""
import bisect
import collections
import sys

dump, pa, bbf = sys.argv[1:4]
ranges = []
base = None
for l in open(dump):
    f = l.split()
    if f[0] == "range":
        base = int(f[1], 16)
    elif f[0] == "block":
        ranges.append((base + int(f[2], 16), int(f[3], 16)))
s = collections.Counter()
for l in open(pa):
    f = l.split()
    if f[0] == "S" and ":" not in f[1]:
        s[int(f[1], 16)] += int(f[2])
addrs = sorted(s)
want = {}
for start, size in ranges:
    i = bisect.bisect_left(addrs, start)
    n = 0
    while i < len(addrs) and addrs[i] < start + size:
        n += s[addrs[i]]
        i += 1
    if n:
        want[start] = n
got = {}
for l in open(bbf):
    f = l.split()
    if f[0] == "block" and int(f[6]):
        got[int(f[3], 16)] = int(f[6])
if not (len(want) > 5 and sum(want.values()) > 100):
    sys.exit("too few samples in blocks: %r" % want)
if got != want:
    bad = sorted(set(got.items()) ^ set(want.items()))[:10]
    sys.exit("differ (address, count), first ten: %r" % bad)
print(len(want), "blocks,", sum(want.values()), "samples")
