#!/usr/bin/env python3
"""checkdump.py: check `batmap --dump` against the binaries themselves.

usage: checkdump.py DUMP BOLTED INPUT BOLT_LOG|- [YAML]

An independent reading of what the BAT tables claim, from llvm-nm-19 and
llvm-objdump-19 of both binaries, llvm-bolt-19's own log and, if given,
the YAML profile perf2bolt-19 -w writes for the BOLTed binary (its
function and block hashes come from BAT):

  - every fragment starts at a function symbol of the BOLTed binary
    with the dumped name; a cold fragment X.cold.N has X as parent;
  - every block entry is an instruction start of the BOLTed binary (or
    the fragment's end: BOLT's entries for deleted blocks); every branch
    entry is an instruction start;
  - every input offset, added to the parent's address in INPUT, is an
    instruction start of INPUT inside that function; a branch entry's
    instruction has the same mnemonic in both binaries (jumps: both
    jumps, BOLT may invert or relax them);
  - the counts llvm-bolt-19 printed: BAT maps, function and block hashes;
  - the YAML's function hashes, block counts and (index, hash) pairs.

Prints a summary line; exits 1 with the first few problems otherwise.
"""
import re
import subprocess
import sys

L = "/usr/lib/llvm-19/bin/"


def syms(binp):
    out = subprocess.run([L + "llvm-nm", "-nS", "--defined-only", binp],
                         capture_output=True, text=True, check=True).stdout
    byaddr, byname = {}, {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tTwW":
            a, s = int(f[0], 16), int(f[1], 16)
            byaddr.setdefault(a, []).append((f[3], s))
            byname.setdefault(f[3], []).append((a, s))
    return byaddr, byname


def insns(binp):
    out = subprocess.run([L + "llvm-objdump", "-d", "--no-show-raw-insn", binp],
                         capture_output=True, text=True, check=True).stdout
    ins = {}
    for line in out.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(\S+)", line)
        if m:
            ins[int(m.group(1), 16)] = m.group(2)
    return ins


def main():
    dump, bolted, inp, log = sys.argv[1:5]
    yaml = sys.argv[5] if len(sys.argv) > 5 else None
    bsyms, _ = syms(bolted)
    _, isyms = syms(inp)
    bins, iins = insns(bolted), insns(inp)
    errs = []
    frags = []          # [kind, addr, name, parentaddr, hash, nblocks, entries]
    header = {}
    for line in open(dump):
        f = line.split()
        if line.startswith("# "):
            for kv in f[1:]:
                if "=" in kv:
                    k, v = kv.split("=", 1)
                    header[k] = v
        elif f[0] == "hot":
            frags.append(["hot", int(f[1], 16), f[6], int(f[1], 16), int(f[2], 16), int(f[3]), []])
        elif f[0] == "cold":
            frags.append(["cold", int(f[1], 16), f[5], int(f[2], 16), None, None, []])
        elif f[0] in ("block", "branch"):
            e = (f[0], int(f[1], 16), int(f[2], 16), int(f[3], 16))
            if f[0] == "block":
                e += (int(f[4]), int(f[5], 16))
            frags[-1][6].append(e)
    hotname = {fr[1]: fr[2] for fr in frags if fr[0] == "hot"}
    nblock = nbranch = nin = 0
    for kind, addr, name, parent, _, _, ents in frags:
        names = [n for n, _ in bsyms.get(addr, [])]
        if name not in names:
            errs.append("fragment 0x%x: dump says %s, symbols say %s" % (addr, name, names))
            continue
        size = dict(bsyms[addr])[name]
        pname = hotname.get(parent)
        if kind == "cold":
            m = re.match(r"(.*)\.cold(\.[0-9]+)?$", name)
            if not m or m.group(1) != pname:
                errs.append("cold %s at 0x%x: parent %s" % (name, addr, pname))
                continue
        # the input function: the parent's name in INPUT (skip names
        # that several locals share)
        cands = isyms.get(pname, [])
        ifunc = cands[0] if len(cands) == 1 else None
        for e in ents:
            a = e[1]
            if e[0] == "block":
                nblock += 1
                if a not in bins and a != addr + size:
                    errs.append("%s: block at 0x%x is no instruction start" % (name, a))
            else:
                nbranch += 1
                if a not in bins:
                    errs.append("%s: branch at 0x%x is no instruction start" % (name, a))
            if ifunc is None:
                continue
            ia = ifunc[0] + e[3]
            if ia not in iins or (ifunc[1] and e[3] >= ifunc[1]):
                errs.append("%s: input offset 0x%x (0x%x) is no instruction of %s in the input" %
                            (name, e[3], ia, pname))
                continue
            nin += 1
            if e[0] == "branch" and a in bins:
                mo, mi = bins[a], iins[ia]
                if (mo[0] == "j") != (mi[0] == "j") or (mo[0] != "j" and mo != mi):
                    errs.append("%s: branch entry 0x%x %s <- input 0x%x %s" % (name, a, mo, ia, mi))
    # llvm-bolt's own counts ("-": no log)
    text = open(log).read() if log != "-" else ""
    if log == "-":
        nmaps = len(frags)
        m = None
    else:
        m = re.search(r"Wrote (\d+) BAT maps", text)
        nmaps = int(m.group(1)) if m else -1
    if nmaps != len(frags):
        errs.append("llvm-bolt wrote %d BAT maps, the dump has %d fragments" % (nmaps, len(frags)))
    m = re.search(r"Wrote (\d+) function and (\d+) basic block hashes", text)
    nhot = sum(1 for fr in frags if fr[0] == "hot")
    sumbb = sum(fr[5] for fr in frags if fr[0] == "hot")
    if log != "-" and (not m or int(m.group(1)) != nhot or int(m.group(2)) != sumbb):
        errs.append("llvm-bolt's hash counts %s, the dump has %d functions, %d blocks" %
                    (m.groups() if m else None, nhot, sumbb))
    # perf2bolt's YAML: hashes from BAT
    ny = nyb = 0
    if yaml:
        byname = {}
        for fr in frags:
            if fr[0] == "hot":
                byname[fr[2]] = fr
        blocks = {}
        for fr in frags:
            for e in fr[6]:
                if e[0] == "block" and e[5] != 0:
                    blocks.setdefault(fr[3], {})[e[4]] = e[5]
        cur = None
        for line in open(yaml):
            m = re.match(r"  - name:\s+'?([^'/\s]+)", line)
            if m:
                cur = byname.get(m.group(1))
                if cur:
                    ny += 1
                continue
            if cur is None:
                continue
            m = re.match(r"    (hash|nblocks):\s+(\S+)", line)
            if m:
                v = int(m.group(2), 0)
                want = cur[4] if m.group(1) == "hash" else cur[5]
                if v != want:
                    errs.append("yaml %s of %s: %x, dump %x" % (m.group(1), cur[2], v, want))
                continue
            m = re.match(r"      - bid:\s+(\d+)", line)
            if m:
                bid = int(m.group(1))
                continue
            m = re.match(r"        hash:\s+(\S+)", line)
            if m:
                nyb += 1
                got = blocks.get(cur[1], {}).get(bid)
                if got != int(m.group(1), 0):
                    errs.append("yaml block %d of %s: hash %s, dump %s" %
                                (bid, cur[2], m.group(1), got and hex(got)))
    print("fragments=%d blocks=%d branches=%d inputs=%d maps=%d yaml-functions=%d yaml-blocks=%d" %
          (len(frags), nblock, nbranch, nin, nmaps, ny, nyb))
    if errs:
        for e in errs[:20]:
            print(e, file=sys.stderr)
        print("%d problems" % len(errs), file=sys.stderr)
        sys.exit(1)


main()
