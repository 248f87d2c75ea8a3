#!/usr/bin/env python3
"""randlbr.py: a synthetic LBR profile of a binary, as a profpipe-events stream.

usage: randlbr.py BINARY LOADBIAS PID NSAMPLES SEED [PATH]

Branch sources are real branch, call and return instructions of BINARY and
targets real instruction starts (from llvm-objdump-19), with about a tenth
of the targets and a twentieth of the sources outside the binary (as a
library would be) and a few kernel entries, so that every rule of BOLT's
aggregation is exercised: traces inside one function, across functions
and out of range, branches with one end unknown, PLT stubs.  LOADBIAS is
added to every address (0 for a fixed-address executable, the load base of
a PIE).  The executable PT_LOAD segment is written as the mmap, as perf
records it.  Deterministic for a given SEED.
"""
import random
import re
import subprocess
import sys

def main():
    binp, bias, pid, nsamp, seed = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    path = sys.argv[6] if len(sys.argv) > 6 else "/opt/app/" + binp.split("/")[-1]
    rnd = random.Random(seed)
    dis = subprocess.run(["/usr/lib/llvm-19/bin/llvm-objdump", "-d", "--no-show-raw-insn", binp],
                         capture_output=True, text=True, check=True).stdout
    ins, br = [], []
    for line in dis.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(\S+)", line)
        if m:
            a = int(m.group(1), 16)
            ins.append(a)
            if m.group(2).startswith(("j", "call", "ret")):
                br.append(a)
    ph = subprocess.run(["/usr/lib/llvm-19/bin/llvm-readelf", "-lW", binp],
                        capture_output=True, text=True, check=True).stdout
    seg = None
    for line in ph.splitlines():
        f = line.split()
        if f and f[0] == "LOAD" and "E" in f[6:-1]:
            seg = (int(f[1], 16), int(f[2], 16), int(f[5], 16))  # offset, vaddr, memsz
            break
    off, vaddr, memsz = seg
    page = 0x1000
    start = (vaddr & ~(page - 1)) + bias
    pgoff = off & ~(page - 1)
    length = ((vaddr + memsz + page - 1) & ~(page - 1)) - (vaddr & ~(page - 1))
    out = sys.stdout
    out.write("# profpipe-events 1\n# event=cycles:u\n")
    out.write("comm %d %d 1000 1 %s\n" % (pid, pid, path.split("/")[-1]))
    out.write("mmap %d %d 1001 %x %x %x r-xp - %s\n" % (pid, pid, start, length, pgoff, path))
    lib = 0x7f0000001000
    for i in range(nsamp):
        n = rnd.choice([4, 8, 16, 32])
        ents, nxt = [], None
        for _ in range(n):
            if nxt is not None and rnd.random() < 0.7:
                near = [b for b in br if b <= nxt and nxt - b < 64]
                f = rnd.choice(near) if near else rnd.choice(br)
            else:
                f = rnd.choice(br)
            t = rnd.choice(ins)
            fa, ta = f + bias, t + bias
            r = rnd.random()
            if r < 0.1:
                ta = lib + rnd.randrange(4096)
            elif r < 0.15:
                fa = lib + 0x1000 + rnd.randrange(4096)
            elif r < 0.16:
                fa = 0xffffffff81000000 + rnd.randrange(4096)
            ents.append("%x/%x/%s" % (fa, ta, rnd.choice("PPPPM")))
            nxt = t
        out.write("sample %d %d %d cycles:u %x %s\n" % (pid, pid, 2000 + i, rnd.choice(ins) + bias, " ".join(ents)))

main()
