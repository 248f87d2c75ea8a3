#!/usr/bin/env python3
"""mkraw.py PROGRAM OUT [COUNTS]: the raw profile (.profraw, version 10)
that PROGRAM would write on exit, made without running it.

PROGRAM is an ELF executable, 32- or 64-bit little-endian, built with
clang-19 -fprofile-generate (or -fprofile-instr-generate) and linked
-no-pie, so that the addresses in its file are the addresses it runs at.
The script does what compiler-rt's writer (InstrProfilingWriter.c,
lprofWriteDataImpl) does at exit, with the sections as the file holds them:
header, build-id, __llvm_prf_data as it is, the counters, the bitmap
bytes, __llvm_prf_names as it is, with the runtime's padding.

The counters and bitmap bytes are those a run would have filled in: they
are taken from COUNTS, a raw profile of the same source written by a run
of a 64-bit build, matched by function (name and hash); without COUNTS,
each counter is a fixed value made from its position.  This is how the
suite gets a 32-bit raw profile on a kernel that runs no 32-bit program
(tests/data/prfraw2idx/build.sh); the suite also checks that, on a 64-bit
build that does run, this script writes byte for byte the file the
program writes itself.

Value profiling is not modelled: a function with value sites is an error
(build with -mllvm -disable-vp).
"""
import struct
import sys

RAW_VERSION = 10
MAGIC = {64: 0xFF6C70726F667281, 32: 0xFF6C70726F665281}
NKINDS = 3  # IPVK_Last + 1 in version 10


def die(msg):
    sys.exit("mkraw.py: " + msg)


def pad8(n):
    return 7 & (8 - n % 8)


class Elf:
    def __init__(self, path):
        self.path = path
        self.d = d = open(path, "rb").read()
        if d[:4] != b"\x7fELF" or d[5] != 1:
            die(path + ": not a little-endian ELF file")
        self.bits = {1: 32, 2: 64}[d[4]]
        if self.bits == 64:
            etype, = struct.unpack_from("<H", d, 16)
            shoff, = struct.unpack_from("<Q", d, 40)
            shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 58)
            fmt = "<IIQQQQIIQQ"
        else:
            etype, = struct.unpack_from("<H", d, 16)
            shoff, = struct.unpack_from("<I", d, 32)
            shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 46)
            fmt = "<IIIIIIIIII"
        if etype != 2:
            die(path + ": not an ET_EXEC executable (link it with -no-pie)")
        self.secs = []
        for i in range(shnum):
            f = struct.unpack_from(fmt, d, shoff + i * shentsize)
            # name, type, flags, addr, offset, size, link, info, align, entsize
            self.secs.append(f)
        strtab = self.secs[shstrndx]
        self.byname = {}
        for s in self.secs:
            o = strtab[4] + s[0]
            name = d[o:d.index(b"\0", o)].decode()
            self.byname[name] = s

    def section(self, name):
        """(address, bytes) of a section, (0, b'') if it is absent"""
        s = self.byname.get(name)
        if s is None:
            return 0, b""
        if s[1] == 8:  # SHT_NOBITS
            return s[3], bytes(s[5])
        return s[3], self.d[s[4]:s[4] + s[5]]

    def symbol(self, name):
        """the 8 bytes at a symbol's address, None if it is not defined"""
        s = self.byname.get(".symtab")
        if s is None:
            die(self.path + ": no symbol table (do not strip it)")
        strs = self.secs[s[6]]
        ent = 16 if self.bits == 32 else 24
        for o in range(s[4], s[4] + s[5], ent):
            if self.bits == 64:
                nm, _info, _oth, shndx, val, _sz = struct.unpack_from("<IBBHQQ", self.d, o)
            else:
                nm, val, _sz, _info, _oth, shndx = struct.unpack_from("<IIIBBH", self.d, o)
            p = strs[4] + nm
            if self.d[p:self.d.index(b"\0", p)] == name.encode() and 0 < shndx < len(self.secs):
                sec = self.secs[shndx]
                off = sec[4] + val - sec[3]
                return struct.unpack_from("<Q", self.d, off)[0]
        return None

    def build_ids(self):
        out = b""
        for name, s in self.byname.items():
            if s[1] != 7:  # SHT_NOTE
                continue
            d, o, end = self.d, s[4], s[4] + s[5]
            while o + 12 <= end:
                nsz, dsz, typ = struct.unpack_from("<III", d, o)
                o += 12
                nm = d[o:o + nsz]
                o += (nsz + 3) & ~3
                desc = d[o:o + dsz]
                o += (dsz + 3) & ~3
                if typ == 3 and nm == b"GNU\0":
                    out += struct.pack("<Q", len(desc)) + desc + bytes(pad8(len(desc)))
        return out


def data_layout(bits):
    """struct format of one __llvm_profile_data record in version 10"""
    p = "Q" if bits == 64 else "I"
    fmt = "<QQ" + p * 4 + "I" + "H" * NKINDS
    size = struct.calcsize(fmt)
    fmt += "x" * (-(size) % 4) + "I"   # NumBitmapBytes, 4-aligned
    size = struct.calcsize(fmt)
    fmt += "x" * (-(size) % 8)           # the record is alignas(8)
    return fmt


def records(data, bits):
    fmt = data_layout(bits)
    size = struct.calcsize(fmt)
    if len(data) % size:
        die("data section size %d is not a multiple of %d" % (len(data), size))
    for i in range(len(data) // size):
        f = struct.unpack_from(fmt, data, i * size)
        yield i * size, {
            "ref": f[0], "hash": f[1], "cnt": f[2], "bmp": f[3],
            "vsites": f[7:7 + NKINDS], "ncnt": f[6], "nbmp": f[7 + NKINDS]}


def read_counts(path):
    """{(name ref, hash): (counters, bitmap bytes)} of a 64-bit raw profile"""
    d = open(path, "rb").read()
    h = struct.unpack_from("<16Q", d, 0)
    if h[0] != MAGIC[64] or h[1] & 0xFFFFFFFF != RAW_VERSION:
        die(path + ": not a little-endian 64-bit raw profile of version %d" % RAW_VERSION)
    rsize = struct.calcsize(data_layout(64))
    data = 128 + h[2]
    cnts = data + h[3] * rsize + h[4]
    bits = cnts + h[5] * 8 + h[6]
    out = {}
    for off, r in records(d[data:data + h[3] * rsize], 64):
        c = cnts + (r["cnt"] - (h[10] - off)) % (1 << 64)
        b = bits + (r["bmp"] - (h[11] - off)) % (1 << 64)
        out[r["ref"], r["hash"]] = (d[c:c + 8 * r["ncnt"]], d[b:b + r["nbmp"]])
    return out


def main():
    if len(sys.argv) not in (3, 4):
        die("usage: mkraw.py PROGRAM OUT [COUNTS]")
    elf = Elf(sys.argv[1])
    counts = read_counts(sys.argv[3]) if len(sys.argv) == 4 else None
    mask = (1 << elf.bits) - 1
    version = elf.symbol("__llvm_profile_raw_version")
    if version is None:
        version = RAW_VERSION  # front-end instrumentation: the runtime's own
    if version & 0xFFFFFFFF != RAW_VERSION:
        die("the program writes raw version %d, not %d" % (version & 0xFFFFFFFF, RAW_VERSION))
    if version >> 56 & ~1:
        die("variant flags 0x%x are not modelled" % (version >> 56))
    daddr, data = elf.section("__llvm_prf_data")
    caddr, cnts = elf.section("__llvm_prf_cnts")
    baddr, bmap = elf.section("__llvm_prf_bits")
    naddr, names = elf.section("__llvm_prf_names")
    if not data:
        die(elf.path + ": no __llvm_prf_data section")
    if elf.section("__llvm_prf_vtab")[1]:
        die(elf.path + ": vtable profiling is not modelled")
    cnts, bmap = bytearray(cnts), bytearray(bmap)
    for off, r in records(data, elf.bits):
        if any(r["vsites"]):
            die(elf.path + ": a function has value sites (build with -mllvm -disable-vp)")
        c = (daddr + off + r["cnt"] - caddr) & mask
        b = (daddr + off + r["bmp"] - baddr) & mask
        if counts is not None:
            key = (r["ref"], r["hash"])
            if key not in counts or len(counts[key][0]) != 8 * r["ncnt"]:
                die("COUNTS has no function of name ref 0x%x, hash 0x%x, %d counters"
                    % (r["ref"], r["hash"], r["ncnt"]))
            cnts[c:c + 8 * r["ncnt"]] = counts[key][0]
            bmap[b:b + r["nbmp"]] = counts[key][1]
        else:
            for j in range(r["ncnt"]):
                struct.pack_into("<Q", cnts, c + 8 * j, (off * 7 + j * 131) % 1009)
    ids = elf.build_ids()
    header = struct.pack(
        "<16Q", MAGIC[elf.bits], version, len(ids),
        len(data) // struct.calcsize(data_layout(elf.bits)),
        0, len(cnts) // 8, pad8(len(cnts)), len(bmap), pad8(len(bmap)),
        len(names), (caddr - daddr) & mask, (baddr - daddr) & mask, naddr,
        0, 0, NKINDS - 1)
    with open(sys.argv[2], "wb") as f:
        f.write(header + ids + data + cnts + bytes(pad8(len(cnts))) + bmap
                + bytes(pad8(len(bmap))) + names + bytes(pad8(len(names))))


main()
