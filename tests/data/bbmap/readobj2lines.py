#!/usr/bin/env python3
"""readobj2lines.py < text: llvm-readobj --bb-addr-map output (LLVM style)
as the lines `bbmap --dump` prints, reduced to what readobj shows:

  function ADDR NAME            (NAME "-" for readobj's <?>)
  range BASE
  block ID OFFSET SIZE FLAGS [CALLSITES] [HASH]
  entrycount N
  pgo FREQ|- [POSTLINK] ID:PROB[:POSTLINK]...

Hex numbers lowercase without 0x, flags from the letters RTEFI or "-"."""
import re
import sys

FLAGS = [("HasReturn", "R"), ("HasTailCall", "T"), ("IsEHPad", "E"),
         ("CanFallThrough", "F"), ("HasIndirectBranch", "I")]


def hx(s):
    return "%x" % int(s, 16)


out = []
func_at = None
have_range = False
block = None
pgo = None
succ = None
in_pgo = False


def flush_block():
    global block
    if block is None:
        return
    fl = "".join(l for k, l in FLAGS if block.get(k) == "Yes") or "-"
    line = "block %s %s %s %s" % (block["ID"], block["Offset"], block["Size"], fl)
    if "cs" in block:
        line += " " + block["cs"]
    if "Hash" in block:
        line += " " + block["Hash"]
    out.append(line)
    block = None


def flush_pgo():
    global pgo
    if pgo is None:
        return
    line = "pgo " + pgo.get("freq", "-")
    if "pl" in pgo:
        line += " " + pgo["pl"]
    for s in pgo["succ"]:
        line += " %s:%s" % (s["ID"], s["Prob"])
        if "pl" in s:
            line += ":" + s["pl"]
    out.append(line)
    pgo = None


for raw in sys.stdin:
    line = raw.rstrip("\n")
    if "warning:" in line:
        continue
    t = line.strip()
    m = re.match(r"([A-Za-z][A-Za-z ]*): (.*)$", t)
    key, val = (m.group(1), m.group(2)) if m else (t, None)
    if t == "Function {":
        flush_block()
        flush_pgo()
        func_at = None
        have_range = False
        in_pgo = False
    elif key == "At":
        func_at = hx(val)
    elif key == "Name":
        out.append("function %s %s" % (func_at, "-" if val == "<?>" else val))
    elif key == "Base Address":
        flush_block()
        out.append("range " + hx(val))
        have_range = True
    elif t == "BB entries [" and not have_range:
        out.append("range " + func_at)	# LLVM 17's form, one range
    elif t == "{" and pgo is not None and succ is None and "inlist" in pgo:
        succ = {}
    elif key == "ID" and not in_pgo:
        flush_block()
        block = {"ID": val}
    elif key == "ID" and succ is not None:
        succ["ID"] = val
    elif key == "Offset" and block is not None:
        block["Offset"] = hx(val)
    elif key == "Size" and block is not None:
        block["Size"] = hx(val)
    elif key == "Hash" and block is not None:
        block["Hash"] = hx(val)
    elif key == "Callsite End Offsets":
        v = val.strip("[]").replace(" ", "")
        block["cs"] = ",".join("%x" % int(x) for x in v.split(",") if x) or "-"
    elif block is not None and key in dict(FLAGS):
        block[key] = val
    elif t == "PGO analyses {":
        flush_block()
        in_pgo = True
    elif key == "FuncEntryCount":
        out.append("entrycount " + val)
    elif t == "{" and in_pgo and succ is None:
        flush_pgo()
        pgo = {"succ": []}
    elif key == "Frequency" and pgo is not None:
        pgo["freq"] = val
    elif key in ("Propeller Frequency", "Post Link Frequency") and pgo is not None:
        pgo["pl"] = val
    elif t == "Successors [" and pgo is not None:
        pgo["inlist"] = True
    elif key == "Probability" and succ is not None:
        succ["Prob"] = hx(val.split()[0])
    elif key in ("Propeller Probability", "Post Link Probability") and succ is not None:
        succ["pl"] = val
    elif t == "}" and succ is not None:
        pgo["succ"].append(succ)
        succ = None
    elif t == "]" and pgo is not None and succ is None and "inlist" in pgo:
        del pgo["inlist"]
    elif t == "}" and pgo is not None and succ is None and "inlist" not in pgo:
        flush_pgo()
    elif t == "}" and block is not None:
        flush_block()
flush_block()
flush_pgo()
print("\n".join(out))
