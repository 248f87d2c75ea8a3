#!/usr/bin/env python3
# cmpyaml.py OURS REF [--nobat NAMES]: compare two BOLT YAML profiles as
# data (python3-yaml): the header field by field; the functions as a set
# keyed by name, each with fid, hash, exec, nblocks and its blocks by
# bid; a block's hash, insns, exec and events, its succ and its calls as
# multisets (perf2bolt-19 orders them by a sort on names and by hash-table
# order, which carries no meaning).  Prints "functions=N blocks=B succ=S
# calls=C" and exits 0 when equal; a difference, or a profile without a
# function with blocks, exits 1.
#
# --nobat FILE: the names (one a line) of functions perf2bolt-19 writes
# from its own disassembly of the BOLTed binary (no BAT tables, code BOLT
# left in place): for those only name, fid and exec are compared, and
# the function must be in ours with hash 0 and no blocks.
import sys
import yaml

def load(p):
    with open(p, 'rb') as f:
        d = yaml.load(f, Loader=getattr(yaml, 'CSafeLoader', yaml.SafeLoader))
    if not isinstance(d, dict) or 'header' not in d:
        sys.exit('%s: not a BOLT YAML profile' % p)
    return d

def key(x):
    return tuple(sorted((str(k), repr(v)) for k, v in x.items()))

def norm_block(b):
    b = dict(b)
    b['succ'] = sorted((key(s) for s in b.get('succ') or []))
    b['calls'] = sorted((key(c) for c in b.get('calls') or []))
    return b

def main():
    args = sys.argv[1:]
    nobat = set()
    if '--nobat' in args:
        i = args.index('--nobat')
        with open(args[i + 1]) as f:
            nobat = set(l.rstrip('\n') for l in f if l.strip())
        del args[i:i + 2]
    ours, ref = load(args[0]), load(args[1])
    bad = 0
    def diff(what, a, b):
        nonlocal bad
        bad += 1
        if bad <= 20:
            print('differs: %s: ours %r, perf2bolt %r' % (what, a, b))
    oh, rh = dict(ours['header']), dict(ref['header'])
    for k in sorted(set(oh) | set(rh)):
        if oh.get(k) != rh.get(k):
            diff('header ' + k, oh.get(k), rh.get(k))
    of = {f['name']: f for f in ours.get('functions') or []}
    rf = {f['name']: f for f in ref.get('functions') or []}
    if len(of) != len(ours.get('functions') or []) or \
       len(rf) != len(ref.get('functions') or []):
        diff('duplicate function names', len(of), len(rf))
    nb = ns = nc = nf = 0
    for n in sorted(set(of) | set(rf)):
        if n not in of or n not in rf:
            diff('function ' + n, n in of, n in rf)
            continue
        a, b = of[n], rf[n]
        if n in nobat:
            for k in ('fid', 'exec'):
                if a.get(k) != b.get(k):
                    diff('%s %s' % (n, k), a.get(k), b.get(k))
            if a.get('hash') != 0 or a.get('blocks'):
                diff('%s without tables' % n, a.get('hash'), 0)
            continue
        nf += 1
        for k in ('fid', 'hash', 'exec', 'nblocks'):
            if a.get(k) != b.get(k):
                diff('%s %s' % (n, k), a.get(k), b.get(k))
        ab = {x['bid']: norm_block(x) for x in a.get('blocks') or []}
        bb = {x['bid']: norm_block(x) for x in b.get('blocks') or []}
        if [x['bid'] for x in a.get('blocks') or []] != \
           [x['bid'] for x in b.get('blocks') or []]:
            diff('%s block order' % n, list(ab), list(bb))
        for i in sorted(set(ab) | set(bb)):
            if ab.get(i) != bb.get(i):
                diff('%s block %d' % (n, i), ab.get(i), bb.get(i))
            elif i in ab:
                nb += 1
                ns += len(ab[i]['succ'])
                nc += len(ab[i]['calls'])
    print('functions=%d blocks=%d succ=%d calls=%d differences=%d' %
          (nf, nb, ns, nc, bad))
    if bad or nb == 0:
        sys.exit(1)

main()
