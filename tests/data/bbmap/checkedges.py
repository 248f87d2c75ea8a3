#!/usr/bin/env python3
"""checkedges.py BINARY DUMP BB: every edge of bbmap's output BB (a
profpipe-bb stream) is a real successor, checked against the disassembly
(llvm-objdump-19 -d) and the map's metadata (DUMP, bbmap --dump output):
  ft    the target is the next block of the same range, and the source
        block can fall through (F)
  br    one of the jumps ending the source block goes to the target
        block's start, or is indirect (the block has I)
  jmp   the same, into another function
  call  the target is a function's entry block; the source block holds a
        call or ends in a jump (a tail call, T) to it, or an indirect one
  ret   the source block returns or tail-calls (R); the target block
        holds a call whose next instruction is in it or starts it, or
        starts right after one (a return redirected by Propeller's rule)
Prints the number of edges checked and exits 1 listing any others."""
import re
import subprocess
import sys

JUMP = re.compile(r"^j")

binary, dump, bb = sys.argv[1:4]
ins = {}	# address -> (mnemonic, target or None, next address)
order = []
out = subprocess.run(["/usr/lib/llvm-19/bin/llvm-objdump", "-d",
                      "--no-show-raw-insn", binary],
                     capture_output=True, text=True, check=True).stdout
for line in out.splitlines():
    m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
    if not m:
        continue
    a = int(m.group(1), 16)
    t = re.match(r"(?:0x)?([0-9a-f]+) <", m.group(3))
    ins[a] = [m.group(2), int(t.group(1), 16) if t else None, None]
    order.append(a)
for i in range(len(order) - 1):
    ins[order[i]][2] = order[i + 1]

funcs = []	# per function: list of ranges, each a list of blocks
byid = {}	# (fid, bbid) -> block
fid = -1
for line in open(dump):
    f = line.split()
    if not f or f[0].startswith("#"):
        continue
    if f[0] == "function":
        fid += 1
        funcs.append({"addr": int(f[1], 16), "ranges": []})
    elif f[0] == "range":
        base = int(f[1], 16)
        funcs[fid]["ranges"].append([])
    elif f[0] == "block":
        blk = {"fid": fid, "id": f[1], "start": base + int(f[2], 16),
               "size": int(f[3], 16), "md": f[4],
               "range": len(funcs[fid]["ranges"]) - 1,
               "idx": len(funcs[fid]["ranges"][-1])}
        funcs[fid]["ranges"][-1].append(blk)
        byid[(str(fid), f[1])] = blk


def insns(b):
    return [a for a in range(b["start"], b["start"] + b["size"]) if a in ins]


def terminators(b):
    """the jumps ending the block (a conditional one may precede the
    final unconditional one)"""
    t = []
    for a in reversed(insns(b)):
        if not JUMP.match(ins[a][0]):
            break
        t.append(ins[a])
    return t


bad = []
n = 0
for line in open(bb):
    f = line.split()
    if not f or f[0] != "edge":
        continue
    kind, sf, sb, df, db = f[1:6]
    dst = byid[(df, db)]
    src = byid.get((sf, sb))
    n += 1
    ok = False
    if kind == "ft":
        ok = (src["fid"] == dst["fid"] and src["range"] == dst["range"] and
              dst["idx"] == src["idx"] + 1 and "F" in src["md"])
    elif kind in ("br", "jmp"):
        ok = any(t[1] == dst["start"] or ("I" in src["md"] and t[1] is None)
                 for t in terminators(src))
        ok = ok and ((kind == "br") == (src["fid"] == dst["fid"]))
    elif kind == "call":
        entry = funcs[dst["fid"]]["addr"] == dst["start"]
        if src is None:
            ok = entry
        else:
            ok = entry and any(
                (ins[a][0].startswith("call") or ins[a][0].startswith("j")) and
                (ins[a][1] == dst["start"] or ins[a][1] is None)
                for a in insns(src))
    elif kind == "ret":
        ok = src is None or "R" in src["md"]
        calls = [a for a in insns(dst) if ins[a][0].startswith("call")]
        ok = ok and len(calls) > 0
    if not ok:
        bad.append(line.strip())
print(n)
for b in bad:
    print("not a successor:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
