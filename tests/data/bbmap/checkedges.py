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
Prints the number of edges checked and exits 1 listing any others.
checkedges.py [--cfgwalk] BINARY DUMP BB: see below."""
import re
import subprocess
import sys

JUMP = re.compile(r"^j")

# --cfgwalk: the stacks come from tests/tools/cfgwalk, a random walk of
# the disassembly with three made-up kinds of branch, each accepted and
# counted on stderr rather than a fault:
#  - a join of two walks: past a budget, or when a walk's first function
#    returns, the next branch goes to the entry of the next walk's
#    function, which Propeller's rule makes a call: a call edge to a
#    function entry that no call or jump of its source explains;
#  - a return from a call the compiler knows never returns (the block
#    has no F): Propeller's rule adds a fall-through from the block, which
#    ends in a call, to the next;
#  - an indirect jump (a jump table) taken as a return to the caller: a
#    ret edge from a block ending in an indirect branch (I) to a block
#    holding a call.
cfgwalk = "--cfgwalk" in sys.argv
args = [a for a in sys.argv[1:] if a != "--cfgwalk"]
binary, dump, bb = args[:3]
noreturn = 0
joins = 0
indret = 0
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
        if (not ok and cfgwalk and "F" not in src["md"] and
                src["fid"] == dst["fid"] and dst["idx"] == src["idx"] + 1 and
                insns(src) and ins[insns(src)[-1]][0].startswith("call")):
            ok = True
            noreturn += 1
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
    if (not ok and cfgwalk and kind == "ret" and src is not None and
            "I" in src["md"] and
            any(ins[a][0].startswith("call") for a in insns(dst))):
        ok = True
        indret += 1
    if not ok and cfgwalk and kind == "call" and \
            funcs[dst["fid"]]["addr"] == dst["start"]:
        ok = True
        joins += int(f[6])
    if not ok:
        bad.append(line.strip())
print(n)
if cfgwalk:
    print("walk joins: weight %d" % joins, file=sys.stderr)
    print("indirect jumps taken as returns: %d" % indret, file=sys.stderr)
if noreturn:
    print("fall-throughs after calls that do not return: %d" % noreturn,
          file=sys.stderr)
for b in bad:
    print("not a successor:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
