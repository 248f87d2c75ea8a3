#!/usr/bin/env python3
"""readobj2cfg.py < text: the control-flow graphs that the output of
`llvm-readobj-19 --bb-addr-map` (LLVM style) describes, in the lines
`bbcfgtest FILE` prints (tests/tools/bbcfgtest.c), for checking
tools/bbmap/bbcfg.c against LLVM's own decoding of the map:

  function ADDR SIZE simple|-     ADDR the lowest range base holding blocks
  block START END ID FLAGS -> SUCCID...

Blocks in address order (ranges by base address, layout order inside a
range); FLAGS: N entry (first block of the first range), R HasReturn
without HasTailCall, T HasTailCall, E IsEHPad, F CanFallThrough,
I HasIndirectBranch, K the successors are the PGO analysis map's
(Successors lists present), or "-".  Successors: the listed IDs (the
first block with the ID; IDs no block has are dropped; repeats once),
then the next block of the same range when the block can fall through."""
import re
import sys

funcs = []
f = None
blk = None
pgo = None
depth_succ = False
for raw in sys.stdin:
    t = raw.strip()
    m = re.match(r"([A-Za-z][A-Za-z ]*): (.*)$", t)
    key, val = (m.group(1), m.group(2)) if m else (t, None)
    if t == "Function {":
        f = {"at": None, "ranges": [], "pgo": [], "succlists": False}
        funcs.append(f)
        blk = pgo = None
        in_pgo = False
    elif f is None:
        continue
    elif key == "At":
        f["at"] = int(val, 16)
    elif key == "Base Address":
        f["ranges"].append({"base": int(val, 16), "blocks": []})
    elif t == "BB Entries [" and not f["ranges"]:
        f["ranges"].append({"base": f["at"], "blocks": []})
    elif t == "PGO analyses {":
        in_pgo = True
    elif key == "ID" and not in_pgo:
        blk = {"id": int(val)}
        f["ranges"][-1]["blocks"].append(blk)
    elif key == "Offset" and blk is not None:
        blk["off"] = int(val, 16)
    elif key == "Size" and blk is not None:
        blk["size"] = int(val, 16)
    elif blk is not None and key in ("HasReturn", "HasTailCall", "IsEHPad",
                                     "CanFallThrough", "HasIndirectBranch"):
        blk[key] = val == "Yes"
    elif in_pgo and t == "{" and not depth_succ:
        pgo = []
        f["pgo"].append(pgo)
    elif in_pgo and t == "Successors [":
        depth_succ = True
        f["succlists"] = True
    elif in_pgo and depth_succ and key == "ID":
        pgo.append(int(val))
    elif in_pgo and depth_succ and t == "]":
        depth_succ = False

out = []
for f in funcs:
    blocks = []
    n = 0
    for r, rg in enumerate(f["ranges"]):
        for k, b in enumerate(rg["blocks"]):
            b["start"] = rg["base"] + b["off"]
            b["range"] = r
            b["layout"] = n
            b["rangebase"] = rg["base"]
            n += 1
            blocks.append(b)
    if not blocks:
        out.append("function %x 0 -" % f["at"])
        continue
    order = sorted(blocks, key=lambda b: (b["rangebase"], b["range"], b["layout"]))
    lo = min(rg["base"] for rg in f["ranges"] if rg["blocks"])
    hi = max(b["start"] + b["size"] for b in blocks)
    out.append("function %x %x simple" % (lo, hi - lo))
    known = f["succlists"] and len(f["pgo"]) == len(blocks)
    first = {}
    for b in blocks:
        first.setdefault(b["id"], b)
    for i, b in enumerate(order):
        fl = ""
        fl += "N" if b["layout"] == 0 else ""
        fl += "R" if b["HasReturn"] and not b["HasTailCall"] else ""
        fl += "T" if b["HasTailCall"] else ""
        fl += "E" if b["IsEHPad"] else ""
        fl += "F" if b["CanFallThrough"] else ""
        fl += "I" if b.get("HasIndirectBranch") else ""
        fl += "K" if known else ""
        succ = []
        if known:
            for sid in f["pgo"][b["layout"]]:
                if sid in first and first[sid] not in succ:
                    succ.append(first[sid])
        nxt = order[i + 1] if i + 1 < len(order) else None
        if (b["CanFallThrough"] and nxt is not None and nxt["range"] == b["range"]
                and nxt["layout"] == b["layout"] + 1 and nxt not in succ):
            succ.append(nxt)
        out.append("block %x %x %d %s ->%s" % (
            b["start"], b["start"] + b["size"], b["id"], fl or "-",
            "".join(" %d" % s["id"] for s in succ)))
print("\n".join(out))
