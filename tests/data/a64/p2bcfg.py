#!/usr/bin/env python3
"""p2bcfg.py FILE: the graphs in perf2bolt-19 --print-all's output FILE
as tests/tools/cfgtest prints them (without its flags): 'function NAME
simple|nonsimple', then per block in address order '  START-END last
LAST -> SUCC...' (hex offsets; a block ends where the next begins, the
last at the function's Size).  The 'while building cfg' dump prints
offsets recomputed from the instructions' sizes (constant islands left
out), so the true offset of each instruction is taken from the 'after
disassembly' dump of the same function, in the same order."""
import re, sys
disasm = {}
def flush(f):
    if not f: return
    offs = disasm.get(f['name'], [])
    k = 0
    for b in f['blocks']:
        n = b['n']
        if k + n > len(offs):
            sys.exit("%s: instructions do not match" % f['name'])
        b['start'], b['last'] = offs[k], offs[k + n - 1]
        k += n
    print("function %s %s" % (f['name'], "simple" if f['simple'] else "nonsimple"))
    bl = f['blocks']
    start = {b['label']: b['start'] for b in bl}
    for i, b in enumerate(bl):
        end = bl[i+1]['start'] if i + 1 < len(bl) else f['size']
        print("  %x-%x last %x ->%s" % (b['start'], end, b['last'],
              "".join(" %x" % start[s] for s in b['succ'])))
f = None
mode = None
for line in open(sys.argv[1], errors='replace'):
    line = line.rstrip('\n')
    m = re.match(r'^Binary Function "(.*)" (.*) \{$', line)
    if m:
        if mode == 'cfg': flush(f)
        f = None; mode = None
        name = re.sub(r'\(\*\d+\)$', '', m.group(1))
        if m.group(2) == 'after disassembly':
            mode = 'dis'; cur = disasm.setdefault(name, [])
            del cur[:]
        elif m.group(2) == 'while building cfg':
            mode = 'cfg'
            f = {'name': name, 'blocks': [], 'simple': 0, 'size': 0}
        continue
    if mode is None: continue
    if line.startswith('End of Function'):
        if mode == 'cfg': flush(f)
        f = None; mode = None; continue
    m = re.match(r'^    ([0-9a-f]{8}): \t(\S+)', line)
    if m and m.group(2) == '!CFI': continue
    if mode == 'dis':
        if m: cur.append(int(m.group(1), 16))
        continue
    mm = re.match(r'^  Size        : 0x([0-9a-f]+)', line)
    if mm: f['size'] = int(mm.group(1), 16); continue
    mm = re.match(r'^  IsSimple    : (\d)', line)
    if mm: f['simple'] = int(mm.group(1)); continue
    mm = re.match(r'^(\S+) \(\d+ instructions, align', line)
    if mm: f['blocks'].append({'label': mm.group(1), 'n': 0, 'succ': []}); continue
    if m and f['blocks']:
        f['blocks'][-1]['n'] += 1; continue
    mm = re.match(r'^  Successors: (.*)$', line)
    if mm and f['blocks']:
        s = re.sub(r' \([^)]*\)', '', mm.group(1))
        f['blocks'][-1]['succ'] = [x.strip() for x in s.split(',')]
