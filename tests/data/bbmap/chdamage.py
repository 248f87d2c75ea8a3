#!/usr/bin/env python3
"""chdamage.py BIN OUTDIR: damaged copies of BIN, an ELF file (32 or 64
bits, either byte order) whose first SHT_LLVM_BB_ADDR_MAP section is
compressed (SHF_COMPRESSED: an Elf32/64_Chdr, then a zlib or zstd
stream), for bbmap's tests; only that section is damaged, the file's
other map sections stay whole:
  short    sh_size smaller than the compression header
  type     ch_type 9, no compression anyone defines
  huge     ch_size 2^40: more than any stream of that length holds
  less     ch_size one less than the stream holds
  more     ch_size one more
  flip     the stream's first byte inverted (zlib's header, zstd's magic)
  cut      sh_size 3 bytes short: the stream ends early
Each copy fails to decode that section."""
import os
import struct
import sys

src, outdir = sys.argv[1], sys.argv[2]
data = bytearray(open(src, "rb").read())
assert data[:4] == b"\x7fELF"
is64, E = data[4] == 2, "<" if data[5] == 1 else ">"
if is64:
    shoff, = struct.unpack_from(E + "Q", data, 0x28)
    shentsize, shnum = struct.unpack_from(E + "HH", data, 0x3a)
else:
    shoff, = struct.unpack_from(E + "I", data, 0x20)
    shentsize, shnum = struct.unpack_from(E + "HH", data, 0x2e)
for i in range(shnum):
    h = shoff + i * shentsize
    typ, = struct.unpack_from(E + "I", data, h + 4)
    if is64:
        flags, = struct.unpack_from(E + "Q", data, h + 8)
        off, size = struct.unpack_from(E + "QQ", data, h + 0x18)
    else:
        flags, = struct.unpack_from(E + "I", data, h + 8)
        off, size = struct.unpack_from(E + "II", data, h + 0x10)
    if typ == 0x6fff4c0a and flags & 0x800:
        break
else:
    sys.exit("chdamage.py: no compressed map section in " + src)
hdr = 24 if is64 else 12
sizeat = h + (0x20 if is64 else 0x14)
fsize = E + ("Q" if is64 else "I")
chsize = off + (8 if is64 else 4)
usize, = struct.unpack_from(fsize, data, chsize)
os.makedirs(outdir, exist_ok=True)


def write(name, d):
    open(os.path.join(outdir, name), "wb").write(d)


d = bytearray(data)
struct.pack_into(fsize, d, sizeat, hdr - 2)
write("short", d)
d = bytearray(data)
struct.pack_into(E + "I", d, off, 9)
write("type", d)
if is64:
    d = bytearray(data)
    struct.pack_into(fsize, d, chsize, 1 << 40)
    write("huge", d)
for name, n in (("less", usize - 1), ("more", usize + 1)):
    d = bytearray(data)
    struct.pack_into(fsize, d, chsize, n)
    write(name, d)
d = bytearray(data)
d[off + hdr] ^= 0xff
write("flip", d)
d = bytearray(data)
struct.pack_into(fsize, d, sizeat, size - 3)
write("cut", d)
