#!/bin/sh
# build-large.sh OUTDIR: build the large benchmark program into OUTDIR.
#
# What it is: tests/large/sqlwork.c, a driver of ours (clang-19 -O2) that
# runs a deterministic SQL and compression workload (about one second at
# the default 24 rounds; `app N` runs N rounds, `app 1` about 50 ms) on
# Debian 12's static libraries libsqlite3.a (libsqlite3-dev 3.40.1) and
# libzstd.a (libzstd-dev 1.5.4), both compiled by Debian's gcc 12 -O2
# (so the binary has gcc's .cold fragments, 13 of them in sqlite), linked
# whole by clang-19 with -Wl,--emit-relocs.
#
#   app        non-PIE: 3495 function symbols (llvm-bolt-19 counts 3494
#              functions), .text 1,657,318 bytes (1.58 MiB)
#   app-pie    the same, position-independent (-fPIE -pie)
#   app.fdata  perf2bolt-19 -p profile of 20000 samples of 32-deep branch
#              stacks that cfgwalk (tests/tools) writes for app, skewed,
#              seed 1 (used to optimize app.bolt; deterministic: 2903 of
#              3494 functions profiled, about 4800 BAT maps, hot/cold split)
#   app.bolt   llvm-bolt-19 --enable-bat -reorder-blocks=ext-tsp
#              -split-functions -split-all-cold -reorder-functions=hfsort
#              of app with app.fdata: a BOLTed copy with a BAT section
#   expected   what `app 1` prints (every build above prints the same)
#
# Tests and benches share $TOP/build/large as OUTDIR.
# Idempotent: when OUTDIR already holds a build made by this same script
# from the same sources and libraries (OUTDIR/stamp), it returns at once.
# Several callers may run it on one OUTDIR at the same time (flock).
# Build time about 15 s.  Needs libsqlite3-dev, libzstd-dev, clang-19,
# bolt-19 and linux-perf (scripts/install-deps), and cfgwalk and mkperfdata
# from `make testbins` (in $PROFPIPE_TESTBIN, else build/testbin).
set -eu
[ $# -eq 1 ] || { echo "usage: build-large.sh OUTDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
T=${PROFPIPE_TESTBIN:-$here/../../build/testbin}
out=$1
mkdir -p "$out"
out=$(cd "$out" && pwd)
L=/usr/lib/llvm-19/bin
LIB=/usr/lib/x86_64-linux-gnu
libs="$LIB/libsqlite3.a $LIB/libzstd.a"
for f in $libs "$L/clang" "$L/perf2bolt" "$L/llvm-bolt"; do
	[ -e "$f" ] || { echo "build-large.sh: $f missing (run scripts/install-deps)" >&2; exit 1; }
done
for f in "$T/cfgwalk" "$T/mkperfdata"; do
	[ -x "$f" ] || { echo "build-large.sh: $f missing (run make testbins)" >&2; exit 1; }
done
stamp=$(cat "$0" "$here/sqlwork.c" "$here/../tools/cfgwalk.c" $libs | sha256sum | cut -c1-64)
exec 9>"$out/.lock"
flock 9
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ]; then
	exit 0
fi
rm -f "$out/stamp"
tmp=$(mktemp -d "$out/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
link() {	# link OUTPUT CFLAG LDFLAG
	"$L/clang" -O2 -g -ffile-prefix-map="$tmp"=. -ffile-prefix-map="$here"=tests/large "$2" -c -o "$1.o" "$here/sqlwork.c"
	"$L/clang" "$3" -Wl,--emit-relocs -o "$1" "$1.o" \
	    -Wl,--whole-archive $libs -Wl,--no-whole-archive -lm -lpthread -ldl
}
link app -fno-pie -no-pie
link app-pie -fPIE -pie
./app 1 > expected
./app-pie 1 | cmp -s - expected || { echo "build-large.sh: app-pie differs from app" >&2; exit 1; }
"$T/cfgwalk" -D skewed -n 20000 -s 1 -o walk.events app
"$T/mkperfdata" -o perf.data walk.events
"$L/perf2bolt" -p perf.data -o app.fdata app > p2b.log 2>&1 ||
	{ cat p2b.log >&2; exit 1; }
"$L/llvm-bolt" app -o app.bolt -data app.fdata --enable-bat \
    -reorder-blocks=ext-tsp -split-functions -split-all-cold \
    -reorder-functions=hfsort > bolt.log 2>&1 || { cat bolt.log >&2; exit 1; }
./app.bolt 1 | cmp -s - expected || { echo "build-large.sh: app.bolt differs from app" >&2; exit 1; }
for f in app app-pie app.fdata app.bolt bolt.log expected; do
	mv -f "$f" "$out/$f"
done
echo "$stamp" > "$out/stamp"
