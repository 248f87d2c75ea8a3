#!/usr/bin/env python3
"""bamyaml.py [--describe] FILE DOCNUM [NAME=VALUE...]: YAML document
DOCNUM (from 1) of FILE (tests/data/bbmap/maps.yaml), with yaml2obj's
[[NAME=default]] macros expanded, ready for yaml2obj-19.

--describe prints instead what `bbmap --dump` must print for the map
sections the document describes (without the # lines): the expectation
for what llvm-readobj-19 cannot read (versions 3 to 5, the features of
LLVM 20 and later, the legacy section type), derived from the YAML and
not from the bytes.  Only for documents whose every section decodes, of
executables (addresses as written).

  yaml2obj-19 cannot write the BB address map entries of
LLVM 20 and later (versions 3 to 5, feature bits above MultiBBRange, block
hashes, callsite end offsets, post-link counts): for a map section holding
any of those, the section's Entries/PGOAnalyses become the Content bytes
that LLVM main's yaml2obj writes for them, transcribed from
llvm/include/llvm/ObjectYAML/BBAddrMapYAMLEmitter.h (encodePayload):
  u8 version, u8 feature (u16 from version 5); [uleb NumBBRanges if
  MultiBBRange]; per range: address, uleb NumBlocks, and unless
  OmitBBEntries per block: [uleb ID if version > 1], uleb AddressOffset,
  [uleb count + uleb callsite end offsets if CallsiteEndOffsets], uleb Size,
  uleb Metadata, [u64 Hash if BBHash]; then [uleb FuncEntryCount], per
  PGO block [uleb BBFreq] [uleb post-link freq if PostLinkCfg]
  [uleb nsucc, per successor uleb ID, uleb BrProb, [uleb post-link freq]]."""
import re
import struct
import sys

import yaml

describe = len(sys.argv) > 1 and sys.argv[1] == "--describe"
if describe:
    del sys.argv[1]
path, docnum = sys.argv[1], int(sys.argv[2])
defs = dict(a.split("=", 1) for a in sys.argv[3:] if a)
NONE = "__none__"

text = open(path).read()
docs = re.split(r"^--- !ELF\s*$", text, flags=re.M)[1:]
doc = docs[docnum - 1]
doc = re.split(r"^---\s*$", doc, flags=re.M)[0]


def macro(m):
    name, _, dflt = m.group(1).partition("=")
    v = defs.get(name, dflt if m.group(1).find("=") >= 0 else None)
    if v is None:
        sys.exit("bamyaml.py: macro %s has no value" % name)
    return NONE if v == "<none>" else v


doc = re.sub(r"\[\[([^\]]+)\]\]", macro, doc)
y = yaml.safe_load(doc)


def prune(o):
    if isinstance(o, dict):
        return {k: prune(v) for k, v in o.items() if v != NONE}
    if isinstance(o, list):
        return [prune(v) for v in o]
    return o


y = prune(y)
le = y["FileHeader"]["Data"] == "ELFDATA2LSB"
asz = 8 if y["FileHeader"]["Class"] == "ELFCLASS64" else 4
E = "<" if le else ">"


def uleb(v):
    b = bytearray()
    while True:
        c = v & 0x7F
        v >>= 7
        b.append(c | (0x80 if v else 0))
        if not v:
            return bytes(b)


def needs_encoding(sec):
    """what yaml2obj-19 cannot write: LLVM 20+ versions and features, the
    form of LLVM 17 and older (Address and BBEntries, no BBRanges), and any
    entry of the legacy SHT_LLVM_BB_ADDR_MAP_V0 type"""
    if sec.get("Type") == "SHT_LLVM_BB_ADDR_MAP_V0" and sec.get("Entries"):
        return True     # yaml2obj-19 has no Entries for the legacy type
    for e in sec.get("Entries") or []:
        if e.get("Version", 0) > 2 or e.get("Feature", 0) & ~0xF:
            return True
        if "BBRanges" not in e and ("BBEntries" in e or "Address" in e):
            return True
    return False


def encode(sec):
    out = bytearray()
    pgos = sec.get("PGOAnalyses")
    for idx, e in enumerate(sec.get("Entries") or []):
        ver, feat = e.get("Version", 0), e.get("Feature", 0)
        if sec["Type"] == "SHT_LLVM_BB_ADDR_MAP":
            out += struct.pack("B", ver)
            out += struct.pack(E + ("B" if ver < 5 else "H"), feat)
        ranges = e.get("BBRanges")
        if ranges is None and ("BBEntries" in e or "Address" in e):
            ranges = [{"BaseAddress": e.get("Address", 0),
                       "BBEntries": e.get("BBEntries")}]
        multi = bool(feat & 8) or (ranges is not None and len(ranges) != 1) \
            or e.get("NumBBRanges", 1) != 1
        if multi:
            out += uleb(e.get("NumBBRanges", len(ranges or [])))
        if ranges is None:
            continue
        total = 0
        emit_cs = bool(feat & 0x20) or any(
            "CallsiteEndOffsets" in b for r in ranges for b in r.get("BBEntries") or [])
        for r in ranges:
            out += struct.pack(E + ("Q" if asz == 8 else "I"),
                               r.get("BaseAddress", 0) & ((1 << 8 * asz) - 1))
            bbs = r.get("BBEntries") or []
            out += uleb(r.get("NumBlocks", len(bbs)))
            if feat & 0x10:
                continue
            for b in bbs:
                total += 1
                if ver > 1:
                    out += uleb(b.get("ID", 0))
                out += uleb(b["AddressOffset"])
                if emit_cs:
                    cs = b.get("CallsiteEndOffsets") or []
                    out += uleb(len(cs))
                    for c in cs:
                        out += uleb(c)
                out += uleb(b["Size"])
                out += uleb(b["Metadata"])
                if feat & 0x40 or "Hash" in b:
                    out += struct.pack(E + "Q", b.get("Hash", 0))
        if pgos is None:
            continue
        p = pgos[idx]
        if "FuncEntryCount" in p:
            out += uleb(p["FuncEntryCount"])
        pbs = p.get("PGOBBEntries")
        if pbs is None:
            continue
        if len(pbs) != total:
            continue	# yaml2obj warns and writes nothing more
        for pb in pbs:
            if "BBFreq" in pb:
                out += uleb(pb["BBFreq"])
            pl = pb.get("PostLinkBBFreq", pb.get("PropellerBBFreq"))
            if feat & 0x80 or pl is not None:
                out += uleb(pl or 0)
            if "Successors" in pb:
                succ = pb["Successors"] or []
                out += uleb(len(succ))
                for s in succ:
                    out += uleb(s["ID"]) + uleb(s["BrProb"])
                    spl = s.get("PostLinkBrFreq", s.get("PropellerBrFreq"))
                    if feat & 0x80 or spl is not None:
                        out += uleb(spl or 0)
    return bytes(out)


FEATURES = ["FuncEntryCount", "BBFreq", "BrProb", "MultiBBRange",
            "OmitBBEntries", "CallsiteEndOffsets", "BBHash", "PostLinkCfg"]


def describe_map(y):
    """the lines bbmap --dump prints for the document's map sections"""
    if y["FileHeader"]["Type"] != "ET_EXEC":
        sys.exit("bamyaml.py: --describe knows executables only")
    mask = (1 << 8 * asz) - 1
    funcs = [s for s in y.get("Symbols") or [] if s.get("Type") == "STT_FUNC"]
    # yaml2obj writes the local symbols first; bbmap names a function
    # after the first symbol at its address
    funcs = [s for s in funcs if s.get("Binding", "STB_LOCAL") == "STB_LOCAL"] + \
        [s for s in funcs if s.get("Binding", "STB_LOCAL") != "STB_LOCAL"]

    def name(a):
        for s in funcs:
            if s.get("Value", 0) & mask == a:
                return s["Name"]
        return "-"

    out = []
    for sec in y.get("Sections", []):
        v0 = sec.get("Type") == "SHT_LLVM_BB_ADDR_MAP_V0"
        if sec.get("Type") != "SHT_LLVM_BB_ADDR_MAP" and not v0:
            continue
        pgos = sec.get("PGOAnalyses") or []
        for idx, e in enumerate(sec.get("Entries") or []):
            ver = 0 if v0 else e.get("Version", 0)
            feat = 0 if v0 else e.get("Feature", 0)
            ranges = e["BBRanges"]
            base = ranges[0].get("BaseAddress", 0) & mask
            names = ",".join(FEATURES[i] for i in range(8) if feat >> i & 1)
            out.append("function %x %d %x %s %s" % (base, ver, feat,
                                                    names or "-", name(base)))
            nblocks = 0
            for r in ranges:
                bbs = r.get("BBEntries") or []
                out.append("range %x %d%s" % (
                    r.get("BaseAddress", 0) & mask, r.get("NumBlocks", len(bbs)),
                    " omitted" if feat & 0x10 else ""))
                if feat & 0x10:
                    continue
                end = 0
                for i, b in enumerate(bbs):
                    cs, last = [], 0
                    for d in b.get("CallsiteEndOffsets") or []:
                        last += d
                        cs.append(last)
                    size = b["Size"] + last
                    # version 0: from the range's start; then from the
                    # previous block's end
                    off = b["AddressOffset"] + (end if ver >= 1 else 0)
                    end = off + size
                    md = b["Metadata"]
                    fl = "".join(c for k, c in enumerate("RTEFI")
                                 if md >> k & 1) or "-"
                    line = "block %d %x %x %s" % (b.get("ID", i) if ver >= 2
                                                  else i, off, size, fl)
                    if feat & 0x20:
                        line += " " + (",".join("%x" % c for c in cs) or "-")
                    if feat & 0x40:
                        line += " %x" % b.get("Hash", 0)
                    out.append(line)
                    nblocks += 1
            p = pgos[idx] if idx < len(pgos) else {}
            if feat & 1:
                out.append("entrycount %d" % p.get("FuncEntryCount", 0))
            if not feat & 6:
                continue
            for pb in p.get("PGOBBEntries") or []:
                line = "pgo " + ("%d" % pb.get("BBFreq", 0) if feat & 2 else "-")
                if feat & 0x80:
                    line += " %d" % pb.get("PostLinkBBFreq", 0)
                for sc in pb.get("Successors") or [] if feat & 4 else []:
                    line += " %d:%x" % (sc["ID"], sc["BrProb"])
                    if feat & 0x80:
                        line += ":%d" % sc.get("PostLinkBrFreq", 0)
                out.append(line)
    return out


if describe:
    print("\n".join(describe_map(y)))
    sys.exit(0)

for sec in y.get("Sections", []):
    if sec.get("Type") in ("SHT_LLVM_BB_ADDR_MAP", "SHT_LLVM_BB_ADDR_MAP_V0") \
            and needs_encoding(sec):
        sec["Content"] = encode(sec).hex()
        sec.pop("Entries", None)
        sec.pop("PGOAnalyses", None)
sys.stdout.write("--- !ELF\n" + yaml.safe_dump(y, sort_keys=False))
