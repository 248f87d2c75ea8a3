#!/usr/bin/env python3
# genprof.py DIR N LINES SEED: N pre-aggregated profiles DIR/pNNN.preagg
# of about LINES entries each, as a fleet's hosts would send them: every
# entry type of LLVM main's profiles.md (E S T R B F f r), plain,
# buildid: and X: locations, the constants, mispredict counts on some
# T/R, drawn from one key space so that the hosts' profiles overlap (the
# sums are what a merge gets wrong), counts up to 2^40 so that the sums
# carry.  For tests/80-fleet.bats and bench/fleet-merge.sh.
import os
import random
import sys

d, n, lines, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rnd = random.Random(seed)
bids = ['%040x' % rnd.getrandbits(160) for _ in range(5)]
events = ['cycles:u', 'cpu-clock:u', 'br_inst_retired.near_taken']
consts = ['ffffffffffffffff', 'fffffffffffffffe', 'fffffffffffffffd']
nkeys = max(lines * 3, 1000)


def loc(r):
    k = r.randrange(100)
    a = 0x400000 + r.randrange(nkeys) * 16
    if k < 55:
        return '%x' % a
    if k < 90:
        return '%s:%x' % (bids[r.randrange(len(bids))], a - 0x400000)
    return 'X:%x' % (0x7f0000000000 + r.randrange(nkeys) * 64)


os.makedirs(d, exist_ok=True)
for i in range(n):
    r = random.Random(seed * 1000003 + i)
    ents = []
    for _ in range(lines):
        # keys from a shared sequence, so hosts repeat each other's
        kr = random.Random(r.randrange(nkeys))
        t = kr.choice('TTTTRBBFfrS')
        c = r.randrange(1, 1 << (40 if r.random() < 0.01 else 20))
        if t in 'TR':
            a = [loc(kr), loc(kr), loc(kr) if kr.random() < 0.9 else kr.choice(consts)]
            mis = ' %d' % r.randrange(c + 1) if kr.random() < 0.3 else ''
            ents.append('%s %s %s %s %d%s' % (t, a[0], a[1], a[2], c, mis))
        elif t == 'B':
            ents.append('B %s %s %d %d' % (loc(kr), loc(kr), c, r.randrange(c + 1)))
        elif t in 'Ffr':
            ents.append('%s %s %s %d' % (t, loc(kr), loc(kr), c))
        else:
            ents.append('E %s\nS %s %d' % (kr.choice(events), loc(kr), c))
    with open(os.path.join(d, 'p%03d.preagg' % i), 'w') as f:
        f.write('\n'.join(ents) + '\n')
