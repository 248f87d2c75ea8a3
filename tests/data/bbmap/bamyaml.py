#!/usr/bin/env python3
"""bamyaml.py FILE DOCNUM [NAME=VALUE...]: YAML document DOCNUM (from 1) of
an LLVM lit test, with yaml2obj's [[NAME=default]] macros expanded, ready
for yaml2obj-19.  yaml2obj-19 cannot write the BB address map entries of
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

path, docnum = sys.argv[1], int(sys.argv[2])
defs = dict(a.split("=", 1) for a in sys.argv[3:])
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
    """what yaml2obj-19 cannot write: LLVM 20+ versions and features, and
    the form of LLVM 17 and older (Address and BBEntries, no BBRanges)"""
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


for sec in y.get("Sections", []):
    if sec.get("Type") in ("SHT_LLVM_BB_ADDR_MAP", "SHT_LLVM_BB_ADDR_MAP_V0") \
            and needs_encoding(sec):
        sec["Content"] = encode(sec).hex()
        sec.pop("Entries", None)
        sec.pop("PGOAnalyses", None)
sys.stdout.write("--- !ELF\n" + yaml.safe_dump(y, sort_keys=False))
