#!/usr/bin/env python3
"""damage.py BIN OUTDIR: damaged copies of BIN (an ELF64 little-endian file
with a .llvm_bb_addr_map section), for bbmap's error tests:
  flipNN   1 to 3 random bytes of the map section xor-ed with random bits
  ffNN     a run of 2 to 16 bytes of 0xff somewhere in the section
  fftailNN the section from a random offset to its end set to 0xff
  cutNN    the section's sh_size made smaller (1 to 40 bytes less)
  grow     sh_size running past the end of the file
  far      sh_offset past the end of the file
  cut1     sh_size one byte smaller
The fftail, cut1, grow and far copies cannot decode; the others may.
Random choices come from a fixed seed."""
import os
import random
import struct
import sys

src, outdir = sys.argv[1], sys.argv[2]
data = bytearray(open(src, "rb").read())
assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1
shoff, = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum = struct.unpack_from("<HH", data, 0x3a)
for i in range(shnum):
    h = shoff + i * shentsize
    if struct.unpack_from("<I", data, h + 4)[0] == 0x6fff4c0a:
        break
else:
    sys.exit("damage.py: no SHT_LLVM_BB_ADDR_MAP section in " + src)
off, size = struct.unpack_from("<QQ", data, h + 0x18)
rng = random.Random(45)
os.makedirs(outdir, exist_ok=True)


def write(name, d):
    open(os.path.join(outdir, name), "wb").write(d)


for n in range(14):
    d = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        d[off + rng.randrange(size)] ^= rng.randint(1, 255)
    write("flip%02d" % n, d)
for n in range(8):
    d = bytearray(data)
    ln = rng.randint(2, 16)
    at = rng.randrange(size - ln)
    d[off + at:off + at + ln] = b"\xff" * ln
    write("ff%02d" % n, d)
for n in range(4):
    d = bytearray(data)
    at = rng.randrange(size)
    d[off + at:off + size] = b"\xff" * (size - at)
    write("fftail%02d" % n, d)
for n in range(4):
    d = bytearray(data)
    struct.pack_into("<Q", d, h + 0x20, size - rng.randint(1, min(40, size)))
    write("cut%02d" % n, d)
d = bytearray(data)
struct.pack_into("<Q", d, h + 0x20, len(data) - off + 1)
write("grow", d)
d = bytearray(data)
struct.pack_into("<Q", d, h + 0x18, len(data) + 16)
write("far", d)
d = bytearray(data)
struct.pack_into("<Q", d, h + 0x20, size - 1)
write("cut1", d)
