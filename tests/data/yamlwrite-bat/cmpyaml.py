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
# --nobat SYMS DUMP: the functions without BAT tables, those perf2bolt-19
# writes from its own disassembly of the BOLTed binary (PLT entries, code
# BOLT left in place): the names of perf2bolt's YAML none of whose
# symbols (SYMS: llvm-readelf-19 -sW of the BOLTed binary; a local's
# source file is the FILE symbol before it) starts a hot fragment of the
# tables (DUMP: batmap --dump).  For those every field is compared too,
# the hashes perf2bolt computes with LLVM's MC layer included (ours come
# from the same layer, libbolt/llvm/mcx86.cc); their count is printed as
# nobat=N, that of those with blocks in perf2bolt's (code it
# disassembled, not PLT entries) as nobatcfg=N, and their blocks,
# successors and calls as gblocks, gsucc, gcalls.
#
# --nobatcfg-list FILE: write the names of those nobatcfg functions there.
#
# With --nobat, a function of perf2bolt's that we do not have and that
# is no symbol of the BOLTed binary, or (--input INSYMS: llvm-readelf-19
# -sW of the input binary) no symbol of the input, is apart, not a
# difference: code BOLT left at a moved function's old address, where
# code it did not rewrite still branches, which perf2bolt names after
# its .eh_frame entry (__BOLT_FDE_FUNCat...) or its symbol (the jump BOLT
# patched over the old entry, foo.org.0/bolt-pseudo.o/1).  The input has
# no such function: batmap writes an end there as unknown, so a call
# into it is a call to fid 0 in ours (but from code without tables, where
# both read the callee from the instruction); calls to it are taken as
# calls to fid 0 on both sides, and a block's calls to fid 0 from one offset are summed (one
# unknown callee however many stubs perf2bolt named).  Their count is
# printed as stubs=N.
#
# --input-funcs FILE: the names of the input binary's functions, one a
# line, without their /file/N suffixes (cfgtest's, as BOLT 19 finds
# them).  A function of perf2bolt's that we do not have and whose name is
# none of them is a stub as above: BOLT names a function without a symbol
# after its section (farsec/1, the old code of a callee a long-jump stub
# reaches), which the input lacks, and batmap writes an end there as
# unknown (the same substitution tests/53-aarch64-cfg.bats makes in the
# fdata).
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
    calls, unk = [], {}
    for c in b.get('calls') or []:
        if c.get('fid') != 0:
            calls.append(c)
            continue
        # 'off' reads as the boolean False in YAML 1.1
        k = (c.get('off', c.get(False)), c.get('disc', 0))
        t = unk.setdefault(k, [0, 0])
        t[0] += c.get('cnt', 0)
        t[1] += c.get('mis', 0)
    for (off, disc), (cnt, mis) in unk.items():
        c = {False: off, 'fid': 0, 'cnt': cnt}
        if disc:
            c['disc'] = disc
        if mis:
            c['mis'] = mis
        calls.append(c)
    b['calls'] = sorted((key(c) for c in calls))
    return b

# name -> addresses, and name/file -> addresses for locals, from
# llvm-readelf -sW
def readsyms(path):
    addrs = {}
    with open(path) as f:
        tab = cur = None
        for l in f:
            if l.startswith('Symbol table'):
                tab = l.split("'")[1]
                cur = None
                continue
            p = l.split()
            if tab != '.symtab' or len(p) < 8 or not p[0][:-1].isdigit():
                continue
            if p[3] == 'FILE':
                cur = p[7]
                continue
            a = int(p[1], 16)
            addrs.setdefault(p[7], set()).add(a)
            if p[4] == 'LOCAL' and cur:
                addrs.setdefault(p[7] + '/' + cur, set()).add(a)
    return addrs

def symkey(n):
    n = n.split('/')
    return '/'.join(n[:2]) if len(n) == 3 else n[0]

def main():
    args = sys.argv[1:]
    nobat = set()
    nmf = dumpf = listf = None
    if '--nobatcfg-list' in args:
        i = args.index('--nobatcfg-list')
        listf = args[i + 1]
        del args[i:i + 2]
    cfgnames = []
    inaddrs = infuncs = None
    if '--input-funcs' in args:
        i = args.index('--input-funcs')
        with open(args[i + 1]) as f:
            infuncs = set(l.strip() for l in f)
        del args[i:i + 2]
    if '--input' in args:
        i = args.index('--input')
        inaddrs = readsyms(args[i + 1])
        del args[i:i + 2]
    if '--nobat' in args:
        i = args.index('--nobat')
        nmf, dumpf = args[i + 1], args[i + 2]
        del args[i:i + 3]
    ours, ref = load(args[0]), load(args[1])
    if nmf:
        hot = set()
        with open(dumpf) as f:
            for l in f:
                p = l.split()
                if p and p[0] == 'hot':
                    hot.add(int(p[1], 16))
        addrs = readsyms(nmf)
        for fn in ref.get('functions') or []:
            if not (addrs.get(symkey(fn['name']), set()) & hot):
                nobat.add(fn['name'])
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
    stubs = set()
    if nmf:
        stubs = set(n for n in rf if n not in of and
                    (n.split('/')[0] not in addrs or
                     (inaddrs is not None and symkey(n) not in inaddrs) or
                     (infuncs is not None and n.split('/')[0] not in
                      infuncs)))
        sfid = set(rf[n].get('fid') for n in stubs)
        for n in stubs:
            del rf[n]
        # (ours names a stub as perf2bolt does where it reads the callee
        # from the instruction: in code without tables)
        for f in list(rf.values()) + list(of.values()):
            for x in f.get('blocks') or []:
                for c in x.get('calls') or []:
                    if c.get('fid') in sfid:
                        c['fid'] = 0
    nb = ns = nc = nf = ncfg = gb = gs = gc = 0
    for n in sorted(set(of) | set(rf)):
        if n not in of or n not in rf:
            diff('function ' + n, n in of, n in rf)
            continue
        a, b = of[n], rf[n]
        g = n in nobat
        if g:
            if b.get('nblocks', 0) > 0:
                ncfg += 1
                cfgnames.append(n)
        else:
            nf += 1
        for k in ('fid', 'exec', 'nblocks', 'hash'):
            if a.get(k) != b.get(k):
                diff('%s %s' % (n, k), a.get(k), b.get(k))
        ab = {x['bid']: norm_block(x)
              for x in a.get('blocks') or []}
        bb = {x['bid']: norm_block(x)
              for x in b.get('blocks') or []}
        if [x['bid'] for x in a.get('blocks') or []] != \
           [x['bid'] for x in b.get('blocks') or []]:
            diff('%s block order' % n, list(ab), list(bb))
        for i in sorted(set(ab) | set(bb)):
            if ab.get(i) != bb.get(i):
                diff('%s block %d' % (n, i), ab.get(i), bb.get(i))
            elif i in ab and g:
                gb += 1
                gs += len(ab[i]['succ'])
                gc += len(ab[i]['calls'])
            elif i in ab:
                nb += 1
                ns += len(ab[i]['succ'])
                nc += len(ab[i]['calls'])
    print('functions=%d blocks=%d succ=%d calls=%d nobat=%d nobatcfg=%d '
          'gblocks=%d gsucc=%d gcalls=%d stubs=%d differences=%d'
          % (nf, nb, ns, nc, len(nobat), ncfg, gb, gs, gc, len(stubs), bad))
    if listf:
        with open(listf, 'w') as f:
            for n in cfgnames:
                f.write(n + '\n')
    if bad or nb == 0:
        sys.exit(1)

main()
