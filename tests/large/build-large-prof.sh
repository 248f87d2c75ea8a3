#!/bin/sh
# build-large-prof.sh OUTDIR: build the large benchmark program compiled
# from source by clang-19 with -fprofile-generate (LLVM's IR
# instrumentation), run it on a workload and keep its raw profiles, into
# OUTDIR.
#
# What it is: GNU objdump from binutils 2.40 as build-large-src.sh builds
# it (objdump-build.sh: the same sources and configuration), every file
# compiled by clang-19 -O2 -fno-pie -fprofile-generate and linked non-PIE.
# Its workload is NRUNS (200) runs of objdump-prof, each with its own
# LLVM_PROFILE_FILE: one option set of -d, -d -r, -t, -s, -x, -h, -r -t,
# -d -M intel, -s -j .text, -D on one of the build's own object files (its
# bfd, opcodes, libiberty, binutils objects, in turn), and a few runs of
# -d -r -t -s on the static libraries and on objdump-prof itself.
#
#   objdump-prof            the instrumented objdump (2226 functions with
#                           counters, 2730 indirect-call and 368 memop
#                           sites; .text 1,677,438 bytes)
#   objdump-prof.raw/       its NRUNS raw profiles, r001.profraw ...
#                           (version 9 of the raw format, 440 kB each, 88 MB;
#                           merged: 268 functions with nonzero counts, 151
#                           indirect-call sites with targets)
#   objdump-prof.kit.tar    what it takes to compile a few of its source
#                           files again with -fprofile-use: the files they
#                           include (from their .deps files), the generated
#                           headers, and objdump-prof.cmds
#   objdump-prof.cmds       for each of those files, a line "DIR CMD": the
#                           directory under b/ make compiled it in and its
#                           exact compiler command, with -fprofile-generate
#                           as it was, without -o and the dependency flags
#
# Slow: configure, compile and workload take 8 minutes of CPU (19 minutes
# on a 2-core machine shared with other builds, load 7-9; done once; when
# OUTDIR/stamp-prof matches this script, objdump-build.sh, objdump-kit.sh
# and the tarball, it returns at once).  Several callers may run it on one
# OUTDIR at the same time (flock).  Needs binutils-source, clang-19 and
# libclang-rt-19-dev (scripts/install-deps).
set -eu
[ $# -eq 1 ] || { echo "usage: build-large-prof.sh OUTDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
out=$(cd "$out" && pwd)
L=/usr/lib/llvm-19/bin
tarball=/usr/src/binutils/binutils-2.40.tar.xz
NRUNS=200
for f in "$tarball" "$L/clang"; do
	[ -e "$f" ] || { echo "build-large-prof.sh: $f missing (run scripts/install-deps)" >&2; exit 1; }
done
stamp=$(cat "$0" "$here/objdump-build.sh" "$here/objdump-kit.sh" "$tarball" |
    sha256sum | cut -c1-64)
exec 9>"$out/.lock-prof"
flock 9
if [ -f "$out/stamp-prof" ] && [ "$(cat "$out/stamp-prof")" = "$stamp" ]; then
	exit 0
fi
rm -f "$out/stamp-prof"
tmp=$(mktemp -d "$out/.build-prof.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# configure's test programs are instrumented too: their profiles go here
LLVM_PROFILE_FILE=$tmp/configure-%p.profraw
export LLVM_PROFILE_FILE
"$here/objdump-build.sh" "$tmp" "-O2 -fno-pie -fprofile-generate" "-no-pie"
cd "$tmp"
cp b/binutils/objdump objdump-prof

# the workload
mkdir raw in
find b/bfd b/opcodes b/libiberty b/binutils -name '*.o' | LC_ALL=C sort > objs
nobj=$(wc -l < objs)
[ "$nobj" -ge 100 ] || { echo "build-large-prof.sh: only $nobj objects" >&2; exit 1; }
cp b/bfd/libbfd.a b/opcodes/libopcodes.a b/libiberty/libiberty.a in/
i=1
while [ "$i" -le "$NRUNS" ]; do
	n=$(printf '%03d' "$i")
	case $((i % 25)) in
	0) opts="-d -r -t -s"; f=in/libbfd.a ;;
	12) opts="-d -r -t -s"; f=in/libopcodes.a ;;
	24) opts="-d -r -t -s"; f=objdump-prof ;;
	*)
		case $((i % 10)) in
		0) opts="-d" ;; 1) opts="-d -r" ;; 2) opts="-t" ;; 3) opts="-s" ;;
		4) opts="-x" ;; 5) opts="-h" ;; 6) opts="-r -t" ;;
		7) opts="-d -M intel" ;; 8) opts="-s -j .text" ;; *) opts="-D" ;;
		esac
		f=$(sed -n "$(( (i * 7) % nobj + 1 ))p" objs)
		;;
	esac
	# shellcheck disable=SC2086
	LLVM_PROFILE_FILE=raw/r$n.profraw ./objdump-prof $opts "$f" > /dev/null ||
		{ echo "build-large-prof.sh: objdump-prof $opts $f failed" >&2; exit 1; }
	[ -s raw/r$n.profraw ] ||
		{ echo "build-large-prof.sh: no raw profile from run $i" >&2; exit 1; }
	i=$((i + 1))
done

# the kit: a few source files to compile again with -fprofile-use
"$here/objdump-kit.sh" "$tmp" objdump-prof binutils/objdump.c \
    binutils/bucomm.c opcodes/i386-dis.c bfd/elf64-x86-64.c
rm -rf "$out/objdump-prof.raw"
mv raw "$out/objdump-prof.raw"
for f in objdump-prof objdump-prof.kit.tar objdump-prof.cmds; do
	mv -f "$f" "$out/$f"
done
echo "$stamp" > "$out/stamp-prof"
