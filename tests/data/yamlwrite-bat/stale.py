#!/usr/bin/env python3
# stale.py REF OURS NOBATCFG: the functions llvm-bolt-19 -report-stale
# lists for perf2bolt's YAML (REF) and for ours (OURS), against the
# functions without BAT tables that perf2bolt disassembled (NOBATCFG,
# from cmpyaml.py --nobatcfg-list), compared by symbol name (BOLT prints
# "name(*N)", the YAML "name/file/N"): ours must list all of perf2bolt's
# and no other function than those without tables (of which ours lists
# the ones with an exec count: with exec 0 and no blocks there is no
# profile to find stale).  Exit 1 otherwise.
import re
import sys

def base(n):
    return re.sub(r'\(\*[0-9]+\)$', '', n.strip()).split('/')[0]

ref, ours, cfg = ({base(l) for l in open(p) if l.strip()}
                  for p in sys.argv[1:4])
extra = sorted(ours - ref - cfg)
missing = sorted(ref - ours)
print('stale: perf2bolt %d, ours %d, without tables %d (stale in ours %d); '
      'unexplained %d, missing %d' % (len(ref), len(ours), len(cfg),
      len(cfg & ours), len(extra), len(missing)))
for n in extra[:10]:
    print('stale in ours only:', n)
for n in missing[:10]:
    print('not stale in ours:', n)
sys.exit(1 if extra or missing else 0)
