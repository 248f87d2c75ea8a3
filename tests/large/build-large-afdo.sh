#!/bin/sh
# build-large-afdo.sh OUTDIR: the large program with DWARF, for
# afdowrite's large tests and benchmark, into OUTDIR.
#
# What it is: GNU objdump from binutils 2.40 (objdump-build.sh: Debian 12's
# binutils-source tarball, every file of bfd, opcodes, libiberty,
# libsframe, zlib and binutils compiled by clang-19) built as sample PGO
# builds are, -O2 -g -fdebug-info-for-profiling, non-PIE.
#
#   objdump-g        the program: about 2000 functions with DWARF, 1 MB of
#                    .text
#   objdump-g-input  a frozen copy of it, the workload's input
#                    (`objdump-g -d -r -t -s objdump-g-input`, run in
#                    OUTDIR)
#   objdump-g.kit.tar, objdump-g.cmds
#                    binutils/objdump.c and opcodes/i386-dis.c with every
#                    file they include and their compiler commands (as
#                    build-large-prof.sh packs them): to compile again with
#                    -fprofile-sample-use
#
# Slow: configure and compile take 7 minutes of CPU; done once, when
# OUTDIR/stamp-afdo does not match this script and the tarball.  Several
# callers may run it on one OUTDIR at the same time (flock).  Needs
# binutils-source and clang-19 (scripts/install-deps).
set -eu
[ $# -eq 1 ] || { echo "usage: build-large-afdo.sh OUTDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
out=$(cd "$out" && pwd)
L=/usr/lib/llvm-19/bin
tarball=/usr/src/binutils/binutils-2.40.tar.xz
for f in "$tarball" "$L/clang"; do
	[ -e "$f" ] || { echo "build-large-afdo.sh: $f missing (run scripts/install-deps)" >&2; exit 1; }
done
stamp=$(cat "$0" "$here/objdump-build.sh" "$here/objdump-kit.sh" "$tarball" |
    sha256sum | cut -c1-64)
exec 9>"$out/.lock-afdo"
flock 9
if [ -f "$out/stamp-afdo" ] && [ "$(cat "$out/stamp-afdo")" = "$stamp" ]; then
	exit 0
fi
rm -f "$out/stamp-afdo"
tmp=$(mktemp -d "$out/.build-afdo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$here/objdump-build.sh" "$tmp" "-O2 -g -fdebug-info-for-profiling -fno-pie" \
    "-no-pie"
cd "$tmp"
cp b/binutils/objdump objdump-g
cp objdump-g objdump-g-input
./objdump-g -d -r -t -s objdump-g-input > /dev/null ||
	{ echo "build-large-afdo.sh: objdump-g does not run" >&2; exit 1; }

# the kit: the compiler command of each file, the files it includes
"$here/objdump-kit.sh" "$tmp" objdump-g binutils/objdump.c opcodes/i386-dis.c
for f in objdump-g objdump-g-input objdump-g.kit.tar objdump-g.cmds; do
	mv -f "$f" "$out/$f"
done
echo "$stamp" > "$out/stamp-afdo"
