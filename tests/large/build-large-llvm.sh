#!/bin/sh
# build-large-llvm.sh OUTDIR: build the LLVM test program into OUTDIR.
#
# What it is: tests/large/yamlio.cpp, a driver of ours (clang++-19 -O2)
# that writes and reads back YAML with LLVM's YAML I/O, linked by
# clang-19 with -Wl,--emit-relocs, non-PIE, against Debian 12's prebuilt
# static LLVM 19 libraries (llvm-19-dev, compiled by clang with -fPIC),
# the archives of Support, MC, MC's assembly parser and TextAPI taken
# whole:
#
#   llvm       8204 function symbols, .text 3.0 MiB; its switches are
#              PIC jump tables in .rodata (4-byte entries relative to the
#              table), placed one after another, after the constant-pool
#              labels (.LCPI*) the symbol table keeps.  Where one
#              function's table ends, another function's table begins:
#              BOLT 19 ends a table at the next table of the binary
#              (BinaryContext::populateJumpTables), and the entries of
#              the next one, read relative to the first, often still
#              land on the first function's instructions.
#   llvm.expected  what `llvm 200` prints
#
# Idempotent (OUTDIR/stamp-llvm), flock-safe like build-large.sh.  Build
# time about 5 s.  Needs clang-19 and llvm-19-dev (scripts/install-deps).
set -eu
[ $# -eq 1 ] || { echo "usage: build-large-llvm.sh OUTDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
out=$(cd "$out" && pwd)
L=/usr/lib/llvm-19
whole="Support TextAPI MCParser MC"
rest="DebugInfoCodeView BinaryFormat TargetParser Demangle"
libs=
for l in $whole $rest; do
	libs="$libs $L/lib/libLLVM$l.a"
done
for f in $libs "$L/bin/clang" "$L/bin/clang++" "$L/include/llvm/Support/YAMLTraits.h"; do
	[ -e "$f" ] || { echo "build-large-llvm.sh: $f missing (run scripts/install-deps)" >&2; exit 1; }
done
stamp=$(cat "$0" "$here/yamlio.cpp" $libs | sha256sum | cut -c1-64)
exec 9>"$out/.lock-llvm"
flock 9
if [ -f "$out/stamp-llvm" ] && [ "$(cat "$out/stamp-llvm")" = "$stamp" ]; then
	exit 0
fi
rm -f "$out/stamp-llvm"
tmp=$(mktemp -d "$out/.build-llvm.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
"$L/bin/clang++" -O2 -std=c++17 -fno-exceptions -fno-rtti -I"$L/include" \
    -fno-pie -c -o yamlio.o "$here/yamlio.cpp"
wl=
for l in $whole; do
	wl="$wl -lLLVM$l"
done
nl=
for l in $rest; do
	nl="$nl -lLLVM$l"
done
"$L/bin/clang++" -fno-pie -no-pie -Wl,--emit-relocs -o llvm yamlio.o \
    -L"$L/lib" -Wl,--whole-archive $wl -Wl,--no-whole-archive $nl \
    -lz3 -lz -lzstd -ltinfo -lpthread
./llvm 200 > llvm.expected
mv -f llvm llvm.expected "$out/"
echo "$stamp" > "$out/stamp-llvm"
