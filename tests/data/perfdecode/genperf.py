#!/usr/bin/env python3
# genperf.py: synthetic perf.data files with branch stacks, for the
# perfdecode tests (no LBR hardware here).  Written from the format facts
# in perf's tools/perf/Documentation/perf.data-file-format.txt and
# include/uapi/linux/perf_event.h; perf script 6.1 reads every variant
# except -z, whose chunks are cut at fixed sizes (perf wants each chunk
# to decompress to at least one byte; perfdecode does not care).
import argparse, struct, random, subprocess
ap = argparse.ArgumentParser()
ap.add_argument('-o', required=True)
ap.add_argument('--be', action='store_true')
ap.add_argument('--pipe', action='store_true')
ap.add_argument('--hw-index', action='store_true')
ap.add_argument('--two', action='store_true')
ap.add_argument('--buildid', action='store_true')
ap.add_argument('-z', action='store_true')
ap.add_argument('--samples', type=int, default=50)
ap.add_argument('--branches', type=int, default=8)
ap.add_argument('--chunk', type=int, default=100)
ap.add_argument('--seed', type=int, default=1)
ap.add_argument('--no-features', action='store_true')
ap.add_argument('--unknown', action='store_true', help='add records of unknown types')
ap.add_argument('--aux', action='store_true', help='add an AUXTRACE record with payload')
ap.add_argument('--lost', type=int, default=0, help='add a LOST record of N events')
ap.add_argument('--extra', action='store_true', help='every other sample_type field around the branch stack')
ap.add_argument('--counters', action='store_true', help='branch counters (PERF_SAMPLE_BRANCH_COUNTERS)')
ap.add_argument('--z2', action='store_true', help='with -z: COMPRESSED2 records (perf >= 6.15)')
a = ap.parse_args()
E = '>' if a.be else '<'
rnd = random.Random(a.seed)
def p(fmt, *v): return struct.pack(E + fmt, *v)
def flags_word(bits):
    if not a.be:
        v = 0
        for b in bits: v |= 1 << b
        return struct.pack('<Q', v)
    by = bytearray(8)
    for b in bits: by[b // 8] |= 0x80 >> (b % 8)
    return bytes(by)
IP, TID, TIME, BRS, IDENT = 1, 2, 4, 1 << 11, 1 << 16
# ADDR READ CALLCHAIN ID CPU PERIOD STREAM_ID RAW | REGS_USER STACK_USER
# WEIGHT DATA_SRC TRANSACTION REGS_INTR PHYS_ADDR CGROUP DATA_PAGE_SIZE
# CODE_PAGE_SIZE
EXTRA = sum(1 << b for b in (3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 17, 18, 19, 21, 22, 23))
REGS_USER_MASK, REGS_INTR_MASK = 0x0f, 0x3
def attr(config, brs):
    st = IP | TID | TIME | (BRS if brs else 0) | (IDENT if a.two else 0) | (EXTRA if a.extra else 0)
    bst = (0x9 | ((1 << 17) if a.hw_index else 0) | ((1 << 19) if a.counters else 0)) if brs else 0
    fl = flags_word([0, 1, 8, 9, 13, 18, 20, 23, 24])
    rf = 7 if a.extra else 0    # TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID
    ru, ri, su = (REGS_USER_MASK, REGS_INTR_MASK, 64) if a.extra else (0, 0, 0)
    b = p('IIQQQQ', 0, 128, config, 0, st, rf) + fl + p('IIQQQQIiQIHHIIQ', 0, 0, 0, 0, bst, ru, su, 0, ri, 0, 0, 0, 0, 0, 0)
    assert len(b) == 128, len(b)
    return b
attrs = [(attr(0, True), [100])]
if a.two: attrs.append((attr(1, False), [200]))
def rec(t, misc, body):
    return p('IHH', t, misc, 8 + len(body)) + body
def trailer(pid, tid, time, idv=100):
    # sample_id_all: TID TIME ID STREAM_ID CPU IDENTIFIER
    t = p('IIQ', pid, tid, time)
    if a.extra: t += p('QQII', idv, idv + 1, 1, 0)
    return t + (p('Q', idv) if a.two else b'')
def pad8(s):
    b = s.encode() + b'\0'
    return b + b'\0' * (-len(b) % 8)
recs = []
pid = 4242
t = 1000000000
recs.append(rec(3, 2 | (1 << 13), p('II', pid, pid) + pad8('bench') + trailer(pid, pid, t)))
t += 1
bid = bytes(range(0x01, 0x15))
if a.buildid:
    body = p('IIQQQ', pid, pid, 0x400000, 0x2000, 0) + bytes([20, 0, 0, 0]) + bid + p('II', 5, 2) + pad8('/tmp/bench')
    recs.append(rec(10, 2 | (1 << 14), body + trailer(pid, pid, t)))
else:
    body = p('IIQQQ', pid, pid, 0x400000, 0x2000, 0) + p('IIQQ', 254, 0, 1234, 5) + p('II', 5, 2) + pad8('/tmp/bench')
    recs.append(rec(10, 2, body + trailer(pid, pid, t)))
t += 1
recs.append(rec(7, 0, p('IIIIQ', pid + 1, pid, pid + 1, pid, t) + trailer(pid + 1, pid + 1, t)))
for i in range(a.samples):
    t += 1000 + rnd.randrange(100)
    ev = 1 if (a.two and i % 3 == 2) else 0
    sp = pid + (i % 2)
    ip = 0x400100 + rnd.randrange(0x1000)
    idv = [100, 200][ev]
    body = (p('Q', idv) if a.two else b'') + p('QIIQ', ip, sp, sp, t)
    if a.extra:
        body += p('QQQIIQ', 0xdead0000 + i, idv, idv + 1, 1, 0, 10000)    # addr id stream_id cpu period
        body += p('QQQQ', 1000 + i, 900, 800, idv)                      # read: value enabled running id
        body += p('Q', 3) + p('QQQ', 0xffffffffffffff80, ip, ip + 0x40)  # callchain
        body += p('I', 12) + bytes(range(12))                           # raw: u32 + data, 8-aligned
    if ev == 0:
        n = a.branches if i % 10 else 0
        body += p('Q', n)
        if a.hw_index: body += p('Q', n - 1 if n else 0)
        for k in range(n):
            mis = rnd.randrange(3)
            ty = rnd.choice([0, 0, 1, 2, 4, 6])
            if a.be:
                fl = (1 << 63 if mis == 1 else 0) | (1 << 62 if mis == 2 else 0) | (ty << 40)
            else:
                fl = (1 if mis == 1 else 0) | (2 if mis == 2 else 0) | (ty << 20) | (rnd.randrange(100) << 4)
            body += p('QQQ', 0x400000 + rnd.randrange(0x2000), 0x400000 + rnd.randrange(0x2000), fl)
        if a.counters:
            body += b''.join(p('Q', k + 1) for k in range(n))
    if a.extra:
        body += p('Q', 2) + b''.join(p('Q', 0x1111 * (k + 1)) for k in range(4))   # regs_user abi 64
        stk = bytes(range(64))
        body += p('Q', len(stk)) + stk + p('Q', 48)                     # stack_user size data dyn_size
        body += p('QQQ', 33, 0x4000, 0)                                 # weight data_src transaction
        body += p('Q', 2) + p('QQ', 7, 8)                               # regs_intr
        body += p('QQQQ', 0x123000, 1, 4096, 4096)                      # phys cgroup data/code page size
    recs.append(rec(9, 2, body))
    if i == 3 and a.unknown:
        recs.append(rec(1000, 0, b'\xee' * 24))
        recs.append(rec(40, 0, b'\xee' * 16 + trailer(pid, pid, t)))
    if i == 4 and a.aux:
        pay = bytes(range(256)) * 3
        recs.append(rec(71, 0, p('QQQIIII', len(pay), 0, 0, 0, pid, 0, 0)) + pay)
    if i == 5 and a.lost:
        recs.append(rec(2, 0, p('QQ', 100, a.lost) + trailer(pid, pid, t)))
    if i % 17 == 16: recs.append(rec(68, 0, b''))
t += 5
recs.append(rec(4, 0, p('IIIIQ', pid + 1, pid, pid + 1, pid, t) + trailer(pid + 1, pid + 1, t)))
recs.append(rec(68, 0, b''))
data = b''.join(recs)
if a.z:
    zs = subprocess.run(['zstd', '-q', '-c', '--no-check'], input=data, capture_output=True, check=True).stdout
    out = []
    for o in range(0, len(zs), a.chunk):
        c = zs[o:o + a.chunk]
        if a.z2:
            padded = c + b'\0' * (-len(c) % 8)
            out.append(p('IHHQ', 83, 0, 16 + len(padded), len(c)) + padded)
        else:
            out.append(p('IHH', 81, 0, 8 + len(c)) + c)
    data = b''.join(out)
MAGIC = b'PERFILE2' if not a.be else b'2ELIFREP'
def hstr(s):
    b = s.encode() + b'\0'
    b += b'\0' * (-len(b) % 64)
    return p('I', len(b)) + b
bidrec = p('IHHi', 0, 2 | (1 << 15), 0, pid) + bid + bytes([20, 0, 0, 0]) + pad8('/tmp/bench').ljust(64, b'\0')
bidrec = bidrec[:6] + p('H', len(bidrec)) + bidrec[8:]
feats = {}
if not a.no_features:
    feats[3] = hstr('synthetic')
    feats[15] = b''
    if a.buildid: feats[2] = bidrec
if a.z: feats[27] = p('IIIII', 1, 1, 1, 8, 528384)
if a.pipe:
    out = MAGIC + p('Q', 16)
    for ab, ids in attrs:
        out += rec(64, 0, ab + b''.join(p('Q', x) for x in ids))
    for f, pay in sorted(feats.items()):
        if f == 2: continue
        out += rec(80, 0, p('Q', f) + pay)
    if a.buildid: out += bidrec[:0] + p('I', 67) + bidrec[4:]
    out += data
    open(a.o, 'wb').write(out)
else:
    ids_off = 104
    idsb = b''
    sect = []
    for ab, ids in attrs:
        sect.append((ids_off + len(idsb), 8 * len(ids)))
        idsb += b''.join(p('Q', x) for x in ids)
    attr_off = ids_off + len(idsb)
    attrb = b''.join(ab + p('QQ', *sect[i]) for i, (ab, ids) in enumerate(attrs))
    data_off = attr_off + len(attrb)
    feat_off = data_off + len(data)
    bits = [0, 0, 0, 0]
    for f in feats: bits[f // 64] |= 1 << (f % 64)
    ftab = b''
    fpay = b''
    base = feat_off + 16 * len(feats)
    for f in sorted(feats):
        ftab += p('QQ', base + len(fpay), len(feats[f]))
        fpay += feats[f]
    hdr = MAGIC + p('QQQQQQQQ', 104, 144, attr_off, len(attrb), data_off, len(data), 0, 0) + p('QQQQ', *bits)
    assert len(hdr) == 104
    open(a.o, 'wb').write(hdr + idsb + attrb + data + ftab + fpay)
