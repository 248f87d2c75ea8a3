#!/usr/bin/env python3
"""cfgcmp.py P2B OURS: the graphs of perf2bolt-19 --print-all (P2B, as
p2bcfg.py writes them) against tests/tools/cfgtest's (OURS): each of
perf2bolt's graphs is one of ours of the same name, block for block,
successors in order, simple or not (cfgtest's flags left out); each
function cfgtest calls simple has a simple graph in P2B.  Prints the
count and the first differences; exit 1 if any differ or none is
compared."""
import re, sys


def load(path, ours):
    d = {}
    cur = None
    for line in open(path):
        line = line.rstrip('\n')
        if ours:
            if line.startswith('  '):
                line = re.sub(r' (entry|lpad|call|tail|falls)', '', line)
            else:
                line = re.sub(r'^(function \S+) (simple|nonsimple|ignored)( .*)?$',
                              r'\1 \2', line)
        if line.startswith('function '):
            cur = line.split()[1]
            d.setdefault(cur, []).append([line])
        elif cur is not None:
            d[cur][-1].append(line)
    return d


ref, ours = load(sys.argv[1], False), load(sys.argv[2], True)
bad = n = 0
for name, gs in sorted(ref.items()):
    for g in gs:
        n += 1
        og = ours.get(name, [])
        if g not in og:
            bad += 1
            if bad <= 5:
                print('DIFF %s\n  perf2bolt:\n    %s\n  ours:\n    %s' % (
                    name, '\n    '.join(g),
                    '\n    '.join(og[0]) if og else None))
for name, gs in sorted(ours.items()):
    for g in gs:
        if g[0].endswith(' simple') and [g] != [x for x in ref.get(name, []) if x == g][:1]:
            bad += 1
            if bad <= 5:
                print('SIMPLE %s: no such graph from perf2bolt' % name)
print('%d graphs, %d differ' % (n, bad))
sys.exit(1 if bad or n == 0 else 0)
