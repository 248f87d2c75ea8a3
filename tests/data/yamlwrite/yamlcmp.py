#!/usr/bin/env python3
# yamlcmp.py REF OURS: two BOLT YAML profiles equal as data, hashes
# excluded (function hash, block hash), calls and successors of a block
# compared as multisets (BOLT's order there carries no meaning: the
# reader matches them by bid and offset).  Fails on an empty function
# list in REF, so that two empty profiles never pass.  Prints the first
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


def norm_block(b):
    calls = sorted((c['off'] if 'off' in c else c[False], c['fid'], c.get('disc', 0), c['cnt'],
                    c.get('mis', 0)) for c in b.get('calls', []) or [])
    succ = sorted((s['bid'], s['cnt'], s.get('mis', 0))
                  for s in b.get('succ', []) or [])
    return {'insns': b['insns'], 'exec': b.get('exec', 0),
            'events': b.get('events', 0), 'calls': calls, 'succ': succ}


def norm(p):
    h = dict(p['header'])
    funcs = {}
    for f in p.get('functions') or []:
        key = f['name']
        if key in funcs:
            sys.exit('duplicate function %r' % key)
        funcs[key] = {
            'fid': f['fid'], 'exec': f['exec'], 'nblocks': f['nblocks'],
            'blocks': {b['bid']: norm_block(b)
                       for b in f.get('blocks', []) or []}}
    return h, funcs


def main():
    ref, ours = load(sys.argv[1]), load(sys.argv[2])
    rh, rf = norm(ref)
    oh, of = norm(ours)
    bad = []
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
        for k in ('fid', 'exec', 'nblocks'):
            if a[k] != b[k]:
                bad.append('%s: %s %r != %r' % (n, k, a[k], b[k]))
        for bid in sorted(set(a['blocks']) | set(b['blocks'])):
            x, y = a['blocks'].get(bid), b['blocks'].get(bid)
            if x != y:
                bad.append('%s: block %d: %r != %r' % (n, bid, x, y))
    nb = sum(len(f['blocks']) for f in rf.values())
    print('%d functions, %d blocks in the reference; %d differences' %
          (len(rf), nb, len(bad)), file=sys.stderr)
    for m in bad[:30]:
        print(m, file=sys.stderr)
    sys.exit(1 if bad else 0)


main()
