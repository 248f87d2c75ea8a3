#!/bin/sh
# build.sh DIR: the AArch64 test programs of tests/52-aarch64.bats and
# tests/53-aarch64-cfg.bats, cross-built into DIR by clang-19
# --target=aarch64-linux-gnu against Debian's arm64 cross libc: lld for
# non-PIE and the veneers, GNU ld for PIE, as Debian links (its
# executable segment starts the file).  An lld PIE has a read-only
# segment there, in the same 64 KiB page as its code, and perf2bolt-19
# takes that one for the base of the code's mapping and finds no sample
# in the binary: f2, a PIE by lld, is linked with
# separate-loadable-segments.
#
#   sw1 sw2 sw3  sw.c: switch tables, a computed goto (non-PIE, PIE,
#                non-PIE without relocations)
#   x1 x2        exc.cc: exceptions, virtual calls (PIE, non-PIE)
#   h1 h2 h3     main.c, shapes.s: hand-written shapes (non-PIE, the
#                same without relocations, PIE)
#   f1 f2 f3     far.c, far.lds: a callee 256 MB away, reached through
#                lld's thunks (non-PIE, PIE) and GNU ld's veneer (PIE)
#   b1 b2 b3     bad_main.c, bad.s: bad code (non-PIE; the same with its
#                $d mapping symbols stripped; PIE)
set -eu
[ $# -eq 1 ] || { echo "usage: build.sh DIR" >&2; exit 2; }
S=$(cd "$(dirname "$0")" && pwd)
L=/usr/lib/llvm-19/bin
X="$L/clang --target=aarch64-linux-gnu"
XX="$L/clang++ --target=aarch64-linux-gnu"
cd "$1"
$X -O2 -fno-pie -no-pie -fuse-ld=lld -Wl,--emit-relocs "$S/sw.c" -o sw1
$X -O2 -fpie -pie -Wl,--emit-relocs "$S/sw.c" -o sw2
$X -O2 -fno-pie -no-pie -fuse-ld=lld "$S/sw.c" -o sw3
$XX -O2 -fpie -pie -Wl,--emit-relocs "$S/exc.cc" -o x1
$XX -O2 -fno-pie -no-pie -fuse-ld=lld -Wl,--emit-relocs "$S/exc.cc" -o x2
$X -O1 -march=armv8.3-a -fno-pie -no-pie -fuse-ld=lld -Wl,--emit-relocs \
    "$S/main.c" "$S/shapes.s" -o h1
$X -O1 -march=armv8.3-a -fno-pie -no-pie -fuse-ld=lld "$S/main.c" \
    "$S/shapes.s" -o h2
$X -O1 -march=armv8.3-a -fpie -pie -Wl,--emit-relocs "$S/main.c" \
    "$S/shapes.s" -o h3
$X -O2 -fno-pie -no-pie -fuse-ld=lld -Wl,--emit-relocs -Wl,-T,"$S/far.lds" \
    "$S/far.c" -o f1
$X -O2 -fpie -pie -fuse-ld=lld -Wl,-z,separate-loadable-segments -Wl,--emit-relocs \
    -Wl,-T,"$S/far.lds" "$S/far.c" -o f2
$X -O2 -fpie -pie -Wl,--emit-relocs -Wl,-T,"$S/far.lds" "$S/far.c" -o f3
$X -O1 -fno-builtin -fno-pie -no-pie -fuse-ld=lld -Wl,--emit-relocs \
    "$S/bad_main.c" "$S/bad.s" -o b1
$L/llvm-objcopy --wildcard --strip-symbol='$d*' b1 b2
$X -O1 -fno-builtin -fpie -pie -Wl,--emit-relocs "$S/bad_main.c" "$S/bad.s" -o b3
