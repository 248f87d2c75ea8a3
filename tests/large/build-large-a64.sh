#!/bin/sh
# build-large-a64.sh OUTDIR: build the large AArch64 program into OUTDIR:
# GNU objdump from binutils 2.40, the source tarball Debian 12's
# binutils-source ships (/usr/src/binutils), cross-built for
# aarch64-linux-gnu by clang-19 --target=aarch64-linux-gnu -O2 -fno-pie
# against Debian's arm64 cross libc, configured for the aarch64 targets
# only (no shared libraries, no NLS, no plugins, no zstd, no debuginfod;
# the tools other than objdump disabled), every file of bfd, opcodes,
# libiberty, libsframe, zlib and binutils that objdump needs, linked
# non-PIE by lld with --emit-relocs.  It runs under qemu-aarch64.
# (The configure line is objdump-build.sh's for another host; that
# script is left as it is, so that the x86-64 programs keep their stamps.)
#
#   objdump-a64          about 2350 function symbols, .text about 1.1 MB
#   objdump-a64-input    the workload's input: a frozen copy of
#                        objdump-a64 (the workload, run in OUTDIR, is
#                        `objdump-a64 -d -r objdump-a64-input`)
#   objdump-a64.fdata    perf2bolt-19 -p profile of 20000 cfgwalk samples
#                        (skewed, seed 1)
#   objdump-a64.bolt     llvm-bolt-19 --enable-bat -reorder-blocks=ext-tsp
#                        -split-functions -split-all-cold
#                        -reorder-functions=hfsort of objdump-a64 with it,
#                        call_weak_fn left alone (-skip-funcs): it starts
#                        at crti.o's $x mapping symbol, before any FILE
#                        symbol, and split, BOLT names its cold fragment
#                        $x.cold.0 too, where perf2bolt-19 then stops
#                        ("owning FILE symbol not found")
#   objdump-a64.expected md5sum of the workload's output (both binaries)
#
# Configure and compile take 1 to 2 minutes of CPU; done once: when
# OUTDIR/stamp-a64 matches this script, the tarball and cfgwalk.c, it
# returns at once.  Several callers may run it on one OUTDIR at the same
# time (flock).  Needs binutils-source, clang-19, lld-19, llvm-19,
# bolt-19, the arm64 cross libc and qemu-user (scripts/install-deps),
# cfgwalk and mkperfdata (make testbins).
set -eu
[ $# -eq 1 ] || { echo "usage: build-large-a64.sh OUTDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
T=${PROFPIPE_TESTBIN:-$here/../../build/testbin}
out=$1
mkdir -p "$out"
out=$(cd "$out" && pwd)
L=/usr/lib/llvm-19/bin
tarball=/usr/src/binutils/binutils-2.40.tar.xz
sysroot=/usr/aarch64-linux-gnu
for f in "$tarball" "$L/clang" "$L/ld.lld" "$L/llvm-ar" "$L/perf2bolt" \
    "$L/llvm-bolt" "$sysroot/lib/libc.so.6"; do
	[ -e "$f" ] || { echo "build-large-a64.sh: $f missing (run scripts/install-deps)" >&2; exit 1; }
done
command -v qemu-aarch64 > /dev/null ||
	{ echo "build-large-a64.sh: qemu-aarch64 missing (run scripts/install-deps)" >&2; exit 1; }
for f in "$T/cfgwalk" "$T/mkperfdata"; do
	[ -x "$f" ] || { echo "build-large-a64.sh: $f missing (run make testbins)" >&2; exit 1; }
done
stamp=$(cat "$0" "$tarball" "$here/../tools/cfgwalk.c" | sha256sum | cut -c1-64)
exec 9>"$out/.lock-a64"
flock 9
if [ -f "$out/stamp-a64" ] && [ "$(cat "$out/stamp-a64")" = "$stamp" ]; then
	exit 0
fi
rm -f "$out/stamp-a64"
tmp=$(mktemp -d "$out/.build-a64.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
tar xf "$tarball"
mkdir b
cd b
../binutils-2.40/configure --host=aarch64-linux-gnu --target=aarch64-linux-gnu \
    CC="$L/clang --target=aarch64-linux-gnu" \
    CFLAGS="-O2 -fno-pie -ffile-prefix-map=$tmp=." \
    LDFLAGS="-fuse-ld=lld -no-pie -Wl,--emit-relocs" \
    AR="$L/llvm-ar" RANLIB="$L/llvm-ranlib" \
    --disable-shared --disable-nls --disable-werror --disable-gdb \
    --disable-gdbserver --disable-gprofng --disable-gprof --disable-ld \
    --disable-gold --disable-gas --disable-sim --disable-libctf \
    --disable-plugins --without-zstd --without-debuginfod > configure.log 2>&1 ||
	{ tail -20 configure.log >&2; exit 1; }
j=$(nproc)
make -j"$j" V=1 configure-binutils all-zlib all-libiberty all-libsframe all-bfd \
    all-opcodes > make.log 2>&1 || { tail -30 make.log >&2; exit 1; }
make -j"$j" V=1 -C binutils objdump >> make.log 2>&1 || { tail -30 make.log >&2; exit 1; }
cd "$tmp"
cp b/binutils/objdump objdump-a64
cp objdump-a64 objdump-a64-input
qemu-aarch64 -L "$sysroot" ./objdump-a64 -d -r objdump-a64-input | md5sum |
    cut -c1-32 > objdump-a64.expected
"$T/cfgwalk" -D skewed -n 20000 -s 1 -o walk.events objdump-a64
"$T/mkperfdata" -a aarch64 -o perf.data walk.events
"$L/perf2bolt" -p perf.data -o objdump-a64.fdata objdump-a64 > p2b.log 2>&1 ||
	{ cat p2b.log >&2; exit 1; }
"$L/llvm-bolt" objdump-a64 -o objdump-a64.bolt -data objdump-a64.fdata --enable-bat \
    -reorder-blocks=ext-tsp -split-functions -split-all-cold \
    -reorder-functions=hfsort -skip-funcs=call_weak_fn/1 > bolt.log 2>&1 ||
	{ cat bolt.log >&2; exit 1; }
qemu-aarch64 -L "$sysroot" ./objdump-a64.bolt -d -r objdump-a64-input | md5sum |
    cut -c1-32 | cmp -s - objdump-a64.expected ||
	{ echo "build-large-a64.sh: objdump-a64.bolt differs from objdump-a64" >&2; exit 1; }
for f in objdump-a64 objdump-a64-input objdump-a64.fdata objdump-a64.bolt \
    objdump-a64.expected; do
	mv -f "$f" "$out/$f"
done
echo "$stamp" > "$out/stamp-a64"
