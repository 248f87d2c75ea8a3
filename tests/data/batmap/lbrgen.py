#!/usr/bin/env python3
"""lbrgen.py: a synthetic LBR profile of a fixed-address executable with
several code segments (a BOLTed binary), as a profpipe-events stream.

usage: lbrgen.py BINARY NSAMPLES SEED

After tests/data/preagg/randlbr.py: branch sources are real branch, call
and return instructions of BINARY (llvm-objdump-19), targets real
instruction starts, most of them a short way before the next source so
that fall-throughs stay inside functions; a tenth of the targets and a
twentieth of the sources are outside the binary, a few in the kernel.
Every executable PT_LOAD segment is written as an mmap.  The input's
code that BOLT leaves behind (.bolt.org.text, never run) is left out.  Stacks are 4, 8,
16 or 31 deep, never 32: perf2bolt drops two entries of every stack of a
BOLTed binary once it sees one of 32 (its Skylake workaround), which the
comparison is not about.  Deterministic for a given SEED.
"""
import random
import re
import subprocess
import sys


def main():
    binp, nsamp, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    pid = 4242
    rnd = random.Random(seed)
    dis = subprocess.run(["/usr/lib/llvm-19/bin/llvm-objdump", "-d", "--no-show-raw-insn", binp],
                         capture_output=True, text=True, check=True).stdout
    ins, br = [], []
    skip = False
    for line in dis.splitlines():
        # the input's code BOLT left in place (.bolt.org.text) never runs
        if line.startswith("Disassembly of section "):
            skip = ".bolt.org." in line
        if skip:
            continue
        m = re.match(r"\s+([0-9a-f]+):\s+(\S+)", line)
        if m:
            a = int(m.group(1), 16)
            ins.append(a)
            if m.group(2).startswith(("j", "call", "ret")):
                br.append(a)
    ph = subprocess.run(["/usr/lib/llvm-19/bin/llvm-readelf", "-lW", binp],
                        capture_output=True, text=True, check=True).stdout
    out = sys.stdout
    out.write("# profpipe-events 1\n# event=cycles:u\n")
    out.write("comm %d %d 1000 1 %s\n" % (pid, pid, binp.split("/")[-1]))
    page = 0x1000
    for line in ph.splitlines():
        f = line.split()
        if f and f[0] == "LOAD" and "E" in f[6:-1]:
            off, vaddr, memsz = int(f[1], 16), int(f[2], 16), int(f[5], 16)
            start = vaddr & ~(page - 1)
            length = ((vaddr + memsz + page - 1) & ~(page - 1)) - start
            out.write("mmap %d %d 1001 %x %x %x r-xp - %s\n" %
                      (pid, pid, start, length, off & ~(page - 1), binp))
    lib = 0x7f0000001000
    ins.sort()
    import bisect
    for i in range(nsamp):
        n = rnd.choice([4, 8, 16, 31])
        ents, nxt = [], None
        for _ in range(n):
            if nxt is not None and rnd.random() < 0.8:
                j = bisect.bisect_left(br, nxt)
                near = br[j:j + 3]
                f = rnd.choice(near) if near else rnd.choice(br)
            else:
                f = rnd.choice(br)
            t = rnd.choice(ins)
            fa, ta = f, t
            r = rnd.random()
            if r < 0.1:
                ta = lib + rnd.randrange(4096)
            elif r < 0.15:
                fa = lib + 0x1000 + rnd.randrange(4096)
            elif r < 0.16:
                fa = 0xffffffff81000000 + rnd.randrange(4096)
            ents.append("%x/%x/%s" % (fa, ta, rnd.choice("PPPPM")))
            nxt = t
        # most recent first, as perf writes them: the walk above went
        # forward in time
        ents.reverse()
        out.write("sample %d %d %d cycles:u %x %s\n" % (pid, pid, 2000 + i, rnd.choice(ins), " ".join(ents)))


main()
