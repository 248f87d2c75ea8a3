#!/usr/bin/env python3
# yamlcmp.py [--sum-calls] [--no-calls] [--no-hashes] REF OURS: two BOLT
# YAML profiles equal as data, every function and block hash included,
# calls and successors of a block compared as multisets (BOLT's order
# there carries no meaning: the reader matches them by bid and offset).
# --sum-calls sums a block's calls of one offset and callee (fid, disc):
# llvm-bolt writes one entry per target name of an indirect call, and
# targets it finds in no function (fid 0) are one unknown callee however
# they were named.  --no-calls leaves calls out: the counts of functions
# and blocks and the successors only (a block with none of these is no
# difference).  --no-hashes leaves the hashes out.  Fails on an empty
# function list in REF, so that two empty profiles never pass.  Prints
# the counts compared (and of the hashes equal) and the first
# differences.  Used by tests/60-yamlwrite.bats and the large tests.
import sys
import yaml


def load(path):
    with open(path, 'rb') as f:
        data = f.read()
    if not data.startswith(b'---\n'):
        sys.exit('%s: does not start with "---": llvm-bolt would not '
                 'take it for YAML' % path)
    return yaml.load(data, Loader=yaml.CSafeLoader
                     if hasattr(yaml, 'CSafeLoader') else yaml.SafeLoader)


SUM_CALLS = False
NO_CALLS = False
HASHES = True


def norm_block(b):
    calls = sorted((c['off'] if 'off' in c else c[False], c['fid'], c.get('disc', 0), c['cnt'],
                    c.get('mis', 0)) for c in b.get('calls', []) or [])
    if NO_CALLS:
        calls = []
    if SUM_CALLS:
        tot = {}
        for off, fid, disc, cnt, mis in calls:
            t = tot.setdefault((off, fid, disc), [0, 0])
            t[0] += cnt
            t[1] += mis
        calls = sorted(k + tuple(v) for k, v in tot.items())
    succ = sorted((s['bid'], s['cnt'], s.get('mis', 0))
                  for s in b.get('succ', []) or [])
    return {'insns': b['insns'], 'hash': b.get('hash', 0),
            'exec': b.get('exec', 0),
            'events': b.get('events', 0), 'calls': calls, 'succ': succ}


def norm(p):
    h = dict(p['header'])
    funcs = {}
    for f in p.get('functions') or []:
        key = f['name']
        if key in funcs:
            sys.exit('duplicate function %r' % key)
        funcs[key] = {
            'fid': f['fid'], 'hash': f['hash'], 'exec': f['exec'],
            'nblocks': f['nblocks'],
            'blocks': {b['bid']: norm_block(b)
                       for b in f.get('blocks', []) or []}}
        if NO_CALLS:
            # a block written only for its calls
            funcs[key]['blocks'] = {
                k: v for k, v in funcs[key]['blocks'].items()
                if v['exec'] or v['events'] or v['succ']}
    return h, funcs


def main():
    global SUM_CALLS, NO_CALLS, HASHES
    args = sys.argv[1:]
    while args and args[0] in ('--sum-calls', '--no-calls', '--no-hashes'):
        if args[0] == '--sum-calls':
            SUM_CALLS = True
        elif args[0] == '--no-hashes':
            HASHES = False
        else:
            NO_CALLS = True
        args = args[1:]
    ref, ours = load(args[0]), load(args[1])
    rh, rf = norm(ref)
    oh, of = norm(ours)
    bad = []
    nexec = 0
    if not rf:
        bad.append('the reference has no functions')
    for k in sorted(set(rh) | set(oh)):
        if rh.get(k) != oh.get(k):
            bad.append('header %s: %r != %r' % (k, rh.get(k), oh.get(k)))
    for n in sorted(set(rf) | set(of)):
        if n not in of:
            bad.append('function %r only in the reference' % n)
            continue
        if n not in rf:
            bad.append('function %r only in ours' % n)
            continue
        a, b = rf[n], of[n]
        nexec += a['exec'] != b['exec']
        for k in ('fid', 'exec', 'nblocks') + (('hash',) if HASHES else ()):
            if a[k] != b[k]:
                bad.append('%s: %s %r != %r' % (n, k, a[k], b[k]))
        for bid in sorted(set(a['blocks']) | set(b['blocks'])):
            x, y = a['blocks'].get(bid), b['blocks'].get(bid)
            if not HASHES and x and y:
                x, y = dict(x, hash=0), dict(y, hash=0)
            if x != y:
                bad.append('%s: block %d: %r != %r' % (n, bid, x, y))
    nb = sum(len(f['blocks']) for f in rf.values())
    fh = sum(1 for n in rf if n in of and rf[n]['hash'] == of[n]['hash'])
    bh = sum(1 for n in rf if n in of for b in rf[n]['blocks']
             if b in of[n]['blocks'] and rf[n]['blocks'][b]['hash'] ==
             of[n]['blocks'][b]['hash'])
    print('%d functions, %d blocks in the reference; hashes equal: %d '
          'functions, %d blocks; %d differences; exec-differs=%d' %
          (len(rf), nb, fh, bh, len(bad), nexec), file=sys.stderr)
    for m in bad[:30]:
        print(m if len(m) < 400 else m[:400] + '...', file=sys.stderr)
    sys.exit(1 if bad else 0)


main()
