#!/usr/bin/env python3
"""damage.py: damaged copies of a BOLTed binary's .note.bolt_bat section.

usage: damage.py BOLTED OUTDIR COUNT SEED

Writes OUTDIR/dNNN, COUNT copies of BOLTED, each damaged one way, and
prints one line per copy: its name and what was done.  The kinds, in
turn: one to four bytes of the section flipped; a run of 0xff bytes; a
run of zero bytes; the note's descriptor size changed; the section's
size in the section header cut or grown (past the end of the file too);
the section's offset moved; the file cut inside the section; a LEB128
made endless (every byte with its high bit set).  Deterministic for a
given SEED.
"""
import random
import struct
import sys


def find_section(data, name):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    stroff, = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize + 0x18)
    for i in range(shnum):
        h = shoff + i * shentsize
        nameoff, = struct.unpack_from("<I", data, h)
        end = data.index(b"\0", stroff + nameoff)
        if data[stroff + nameoff:end] == name:
            off, size = struct.unpack_from("<QQ", data, h + 0x18)
            return h, off, size
    raise SystemExit("no section " + name.decode())


def main():
    src, outdir, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    orig = open(src, "rb").read()
    hdr, off, size = find_section(orig, b".note.bolt_bat")
    rnd = random.Random(seed)
    kinds = ["flip", "flip", "ff", "zero", "descsz", "shsize", "shoff", "cut", "leb", "flip"]
    for n in range(count):
        d = bytearray(orig)
        kind = kinds[n % len(kinds)]
        if kind == "flip":
            what = []
            for _ in range(rnd.randint(1, 4)):
                p = off + 20 + rnd.randrange(size - 20)
                d[p] ^= 1 << rnd.randrange(8)
                what.append("0x%x" % (p - off))
            desc = "flipped bits at " + ",".join(what)
        elif kind in ("ff", "zero"):
            p = 20 + rnd.randrange(size - 20)
            ln = rnd.randint(1, 24)
            for i in range(p, min(p + ln, size)):
                d[off + i] = 0xff if kind == "ff" else 0
            desc = "%d bytes of %s at 0x%x" % (ln, "0xff" if kind == "ff" else "zero", p)
        elif kind == "descsz":
            v = rnd.choice([0, 1, size - 21, size - 19, size + 100, 0xffffffff])
            struct.pack_into("<I", d, off + 4, v & 0xffffffff)
            desc = "descriptor size %d" % v
        elif kind == "shsize":
            v = rnd.choice([0, 5, 12, 19, size // 2, size - 1, size + 1, size + 4096,
                            len(orig) - off + 1, 1 << 40, (1 << 64) - 1])
            struct.pack_into("<Q", d, hdr + 0x20, v)
            desc = "section size %d" % v
        elif kind == "shoff":
            v = rnd.choice([off + 1, off - 1, len(orig) - size // 2, len(orig) + 8, (1 << 64) - 16])
            struct.pack_into("<Q", d, hdr + 0x18, v)
            desc = "section offset 0x%x" % v
        elif kind == "cut":
            p = off + rnd.randrange(size)
            d = d[:p]
            desc = "file cut at section offset 0x%x" % (p - off)
        else:
            p = 20 + rnd.randrange(size - 20)
            ln = rnd.randint(10, 40)
            for i in range(p, min(p + ln, size)):
                d[off + i] |= 0x80
            desc = "%d bytes with the high bit set at 0x%x" % (ln, p)
        name = "%s/d%03d" % (outdir, n)
        open(name, "wb").write(d)
        print(name, desc)


main()
