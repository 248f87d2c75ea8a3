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
stamp=$(cat "$0" "$here/objdump-build.sh" "$tarball" | sha256sum | cut -c1-64)
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

# the kit: the compiler command of each file (libtool's own, for a
# library's), its dependency file's includes
: > objdump-g.cmds
: > kitfiles
sed -e 's/^libtool: compile: *//' \
    -e "s/\`test -f '[^']*' || echo '\([^']*\)'\`/\1/" b/make.log |
    grep -v -e '--mode=compile' > cmds.all
for s in binutils/objdump.c opcodes/i386-dis.c; do
	d=${s%/*}
	cmd=$(grep -e " -c .*\.\./\.\./binutils-2\.40/$s\( \|$\)" cmds.all | head -1)
	o=$(echo "$cmd" | sed -n 's/.* -o \([^ ]*\)\.l\{0,1\}o\( .*\)\{0,1\}$/\1/p')
	dep=
	for x in Po Plo; do
		[ -n "$o" ] && [ -f "b/$d/.deps/$o.$x" ] && dep=b/$d/.deps/$o.$x
	done
	[ -n "$cmd" ] && [ -n "$dep" ] ||
		{ echo "build-large-afdo.sh: no compiler command for $s" >&2; exit 1; }
	cmd=$(echo "$cmd" | sed -e 's/ -MT [^ ]*//' -e 's/ -MD//' -e 's/ -MP//' \
	    -e 's/ -MF [^ ]*//' -e 's/ -o [^ ]*//' -e 's/ *&& *\\$//')
	echo "$d $cmd" >> objdump-g.cmds
	tr ' \\' '\n\n' < "$dep" | grep -v -e ':$' -e '^/' -e '^$' |
	while read -r h; do
		realpath -m --relative-to="$tmp" "$tmp/b/$d/$h"
	done >> kitfiles
	echo "binutils-2.40/$s" >> kitfiles
done
cp objdump-g.cmds b/
echo b/objdump-g.cmds >> kitfiles
LC_ALL=C sort -u kitfiles | grep -v '^\.\.' > kitfiles.u
tar cf objdump-g.kit.tar -T kitfiles.u
for f in objdump-g objdump-g-input objdump-g.kit.tar objdump-g.cmds; do
	mv -f "$f" "$out/$f"
done
echo "$stamp" > "$out/stamp-afdo"
