#!/usr/bin/env python3
"""yaml2objcases.py TEST OUTDIR: from LLVM's yaml2obj test of the map
(tests/data/bbmap/llvm/yaml2obj-bb-addr-map.yaml), for each case N of its
CHECK lines: OUTDIR/N.bin, the section's bytes yaml2obj writes (the
SectionData lines), and OUTDIR/N.exp, what `bbmap --dump` must print for
the entries the case's YAML describes (function, range and block lines,
the name "-"), or the single word "error" when the description cannot
decode: a range with fewer blocks than its count says (case 6), an entry
without ranges (7: no address follows; 8: a MultiBBRange count of 0)."""
import os
import re
import sys

import yaml

path, outdir = sys.argv[1], sys.argv[2]
os.makedirs(outdir, exist_ok=True)
text = open(path).read()

# the bytes: "# Case N:" then SectionData lines up to ")"
case = None
data = {}
for line in text.splitlines():
    m = re.match(r"#\s*Case (\d+):", line)
    if m:
        case = int(m.group(1))
        data[case] = b""
        continue
    m = re.match(r"#\s*CHECK-NEXT:\s+[0-9a-f]{4}: ([0-9A-Fa-f ]+)$", line)
    if m and case is not None:
        data[case] += bytes.fromhex(m.group(1).replace(" ", ""))

NAMES = ["FuncEntryCount", "BBFreq", "BrProb", "MultiBBRange",
         "OmitBBEntries", "CallsiteEndOffsets", "BBHash", "PostLinkCfg"]
doc = yaml.safe_load(text[text.index("--- !ELF"):].replace("--- !ELF", "", 1))
for sec in doc["Sections"]:
    n = int(re.search(r"\((\d+)\)", sec["Name"]).group(1))
    open(os.path.join(outdir, "%d.bin" % n), "wb").write(data[n])
    out = []
    for e in sec["Entries"]:
        ver, feat = e["Version"], e.get("Feature", 0)
        ranges = e["BBRanges"]
        if not ranges or any(r.get("NumBlocks", len(r["BBEntries"])) !=
                             len(r["BBEntries"]) for r in ranges):
            out = ["error"]
            break
        names = ",".join(NAMES[i] for i in range(8) if feat >> i & 1) or "-"
        out.append("function %x %d %x %s -" % (ranges[0].get("BaseAddress", 0),
                                               ver, feat, names))
        for r in ranges:
            out.append("range %x %d" % (r.get("BaseAddress", 0), len(r["BBEntries"])))
            end = 0
            for b in r["BBEntries"]:
                md = b["Metadata"]
                fl = "".join(c for i, c in enumerate("RTEFI") if md >> i & 1) or "-"
                off = end + b["AddressOffset"]
                cs = b.get("CallsiteEndOffsets", [])
                size = b["Size"] + (cs[-1] if cs else 0)
                end = off + size
                line = "block %d %x %x %s" % (b["ID"], off, size, fl)
                if feat & 0x20:
                    line += " " + (",".join("%x" % c for c in cs) or "-")
                if feat & 0x40:
                    line += " %x" % b["Hash"]
                out.append(line)
    open(os.path.join(outdir, "%d.exp" % n), "w").write("\n".join(out) + "\n")
