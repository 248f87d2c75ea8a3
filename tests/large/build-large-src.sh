#!/bin/sh
# build-large-src.sh OUTDIR: build the large benchmark program compiled
# from source by clang-19, with -fbasic-block-address-map, into OUTDIR.
#
# What it is: GNU objdump from binutils 2.40, the source tarball Debian 12's
# binutils-source package ships (/usr/src/binutils), configured for the
# x86-64 host targets only, every file of bfd, opcodes, libiberty,
# libsframe, zlib and binutils compiled by clang-19 -O2 -fno-pie
# -fbasic-block-address-map and linked non-PIE with -Wl,--emit-relocs
# (objdump-build.sh, shared with build-large-prof.sh).
# Its workload is `objdump-bb -d -r -t -s objdump-input`, run in OUTDIR
# (objdump prints the input name as given; about 0.5 s;
# objdump-input is a frozen copy of objdump-bb, so every build of the
# program reads the same input).
#
#   objdump-bb       2173 function symbols (llvm-bolt-19 counts 2174
#                    functions; 2165 with a bb-addr-map
#                    entry, llvm-readobj-19 --bb-addr-map), .text
#                    1,046,381 bytes, .llvm_bb_addr_map 247,133 bytes
#   objdump-input    the workload's input
#   objdump-bb.fdata perf2bolt-19 -p profile of 20000 cfgwalk samples
#                    (skewed, seed 1)
#   objdump-bb.bolt  llvm-bolt-19 --enable-bat -reorder-blocks=ext-tsp
#                    -split-functions -split-all-cold
#                    -reorder-functions=hfsort of objdump-bb with it
#   objdump.expected md5sum of the workload's output (both binaries)
#
# Slow: configure and compile take 7 minutes of CPU (31 minutes on a 2-core
# machine shared with five other builds; done once;
# when OUTDIR/stamp-src matches this script and the tarball, it returns at
# once).  Several callers may run it on one OUTDIR at the same time
# (flock).  Needs binutils-source, clang-19, bolt-19, linux-perf
# (scripts/install-deps), cfgwalk and mkperfdata (make testbins).
set -eu
[ $# -eq 1 ] || { echo "usage: build-large-src.sh OUTDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
T=${PROFPIPE_TESTBIN:-$here/../../build/testbin}
out=$1
mkdir -p "$out"
out=$(cd "$out" && pwd)
L=/usr/lib/llvm-19/bin
tarball=/usr/src/binutils/binutils-2.40.tar.xz
for f in "$tarball" "$L/clang" "$L/perf2bolt" "$L/llvm-bolt"; do
	[ -e "$f" ] || { echo "build-large-src.sh: $f missing (run scripts/install-deps)" >&2; exit 1; }
done
for f in "$T/cfgwalk" "$T/mkperfdata"; do
	[ -x "$f" ] || { echo "build-large-src.sh: $f missing (run make testbins)" >&2; exit 1; }
done
stamp=$(cat "$0" "$here/objdump-build.sh" "$tarball" "$here/../tools/cfgwalk.c" | sha256sum | cut -c1-64)
exec 9>"$out/.lock-src"
flock 9
if [ -f "$out/stamp-src" ] && [ "$(cat "$out/stamp-src")" = "$stamp" ]; then
	exit 0
fi
rm -f "$out/stamp-src"
tmp=$(mktemp -d "$out/.build-src.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$here/objdump-build.sh" "$tmp" "-O2 -fno-pie -fbasic-block-address-map" \
    "-no-pie -Wl,--emit-relocs"
cd "$tmp"
cp b/binutils/objdump objdump-bb
cp objdump-bb objdump-input
./objdump-bb -d -r -t -s objdump-input | md5sum | cut -c1-32 > objdump.expected
"$T/cfgwalk" -D skewed -n 20000 -s 1 -o walk.events objdump-bb
"$T/mkperfdata" -o perf.data walk.events
"$L/perf2bolt" -p perf.data -o objdump-bb.fdata objdump-bb > p2b.log 2>&1 ||
	{ cat p2b.log >&2; exit 1; }
"$L/llvm-bolt" objdump-bb -o objdump-bb.bolt -data objdump-bb.fdata --enable-bat \
    -reorder-blocks=ext-tsp -split-functions -split-all-cold \
    -reorder-functions=hfsort > bolt.log 2>&1 || { cat bolt.log >&2; exit 1; }
./objdump-bb.bolt -d -r -t -s objdump-input | md5sum | cut -c1-32 |
	cmp -s - objdump.expected ||
	{ echo "build-large-src.sh: objdump-bb.bolt differs from objdump-bb" >&2; exit 1; }
for f in objdump-bb objdump-input objdump-bb.fdata objdump-bb.bolt objdump.expected; do
	mv -f "$f" "$out/$f"
done
echo "$stamp" > "$out/stamp-src"
