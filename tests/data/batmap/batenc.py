#!/usr/bin/env python3
"""batenc.py: write a .note.bolt_bat section from a `batmap --dump`.

usage: batenc.py [--v19-index] DUMP > section

An encoder of our own, written from BOLT's writer (BoltAddressTranslation
.cpp, writeMaps in LLVM 19 and main): ULEB/SLEB deltas over one running
output address, function hash and block count, equal-offset runs with
the branch bitmask, block hashes and index deltas mod 2^64, secondary
entry points, the cold skew; the note header and padding to 4 bytes.
If the dump was read right, the bytes equal the binary's section (the
tests compare them with llvm-objcopy-19 --dump-section).  The cold
fragments' parent index is LLVM main's (index among hot fragments), or
with --v19-index LLVM 19's (index among all fragments by address).
"""
import struct
import sys

M64 = (1 << 64) - 1


def uleb(v):
    v &= M64
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def sleb(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        done = (v == 0 and not b & 0x40) or (v == -1 and b & 0x40)
        out.append(b | (0 if done else 0x80))
        if done:
            return bytes(out)


def main():
    args = sys.argv[1:]
    v19 = args and args[0] == "--v19-index"
    if v19:
        args = args[1:]
    frags = []
    for line in open(args[0]):
        f = line.split()
        if not f or f[0] == "#":
            continue
        if f[0] == "hot":
            frags.append({"cold": False, "addr": int(f[1], 16), "hash": int(f[2], 16),
                          "nblocks": int(f[3]), "ents": [], "sec": []})
        elif f[0] == "cold":
            frags.append({"cold": True, "addr": int(f[1], 16), "parent": int(f[2], 16),
                          "skew": int(f[3], 16), "ents": [], "sec": []})
        elif f[0] == "block":
            frags[-1]["ents"].append((int(f[2], 16), int(f[3], 16) << 1, int(f[4]), int(f[5], 16)))
        elif f[0] == "branch":
            frags[-1]["ents"].append((int(f[2], 16), (int(f[3], 16) << 1) | 1, None, None))
        elif f[0] == "entry":
            frags[-1]["sec"].append(int(f[1], 16))
    hot = [fr["addr"] for fr in frags if not fr["cold"]]
    alladdr = sorted(fr["addr"] for fr in frags)
    out = bytearray()
    prev = 0
    for cold in (False, True):
        tab = [fr for fr in frags if fr["cold"] == cold]
        out += uleb(len(tab))
        previdx = 0
        for fr in tab:
            addr = fr["addr"]
            out += uleb(addr - prev)
            prev = addr
            skew = 0
            if cold:
                idx = (alladdr if v19 else hot).index(fr["parent"])
                out += uleb(idx - previdx)
                previdx = idx
                skew = fr["skew"]
                out += uleb(skew)
            else:
                out += struct.pack("<Q", fr["hash"])
                out += uleb(fr["nblocks"])
                out += uleb(len(fr["sec"]))
            ents = fr["ents"]
            out += uleb(len(ents))
            neq = 0
            for o, v, _, _ in ents:
                if o == ((v >> 1) - skew) & 0xffffffff:
                    neq += 1
                else:
                    break
            out += uleb(neq)
            if neq:
                mask = 0
                for j in range(neq):
                    mask |= (ents[j][1] & 1) << j
                out += mask.to_bytes((neq + 7) // 8, "little")
            inoff = 0
            previndex = 0
            for j, (o, v, index, h) in enumerate(ents):
                oa = o + addr
                out += uleb(oa - prev)
                prev = oa
                if j >= neq:
                    out += sleb(v - inoff)
                inoff = v
                if not v & 1:
                    out += struct.pack("<Q", h)
                    out += uleb(index - previndex)
                    previndex = index
            p = 0
            for s in fr["sec"]:
                out += uleb((s - p) & 0xffffffff)
                p = s
    note = struct.pack("<III", 5, len(out), 1) + b"BOLT\0\0\0\0" + bytes(out)
    note += b"\0" * (-len(note) % 4)
    sys.stdout.buffer.write(note)


main()
