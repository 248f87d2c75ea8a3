#!/bin/sh
# bbmap.sh: bbmap --dump against llvm-readobj-19 --bb-addr-map on a large
# clang-19 program, and bbmap mapping a large branch-stack profile.
#
# The large program of the other benches (tests/large/build-large.sh) is
# Debian's gcc-built static libraries under a small clang driver: its
# basic-block address map would cover the driver only.  So this bench
# builds its own: objdump from Debian's binutils-source 2.40 (bfd,
# opcodes, libiberty, libsframe, libctf and objdump; 5 to 30 minutes on
# 2 cores depending on the load, once, into build/large-bbmap), all compiled by clang-19 -O2
# -fbasic-block-address-map, one binary with a map of every function.
# The profile: NSAMPLES samples of 32-deep branch stacks that follow
# objdump's real control flow (tests/tools/cfgwalk, skewed, seed 1),
# through perfdecode | preagg.  The --dump output is checked equal to
# llvm-readobj's (normalized by tests/data/bbmap/readobj2lines.py).
# Target (issue 16): --dump at least 5x faster than llvm-readobj-19.
set -e
. "$(dirname "$0")/lib.sh"
NSAMPLES=${NSAMPLES:-100000}
make -s -C "$top" all testbins
big=$top/build/large-bbmap
src=/usr/src/binutils/binutils-2.40.tar.xz
[ -f "$src" ] || { echo "bbmap.sh: $src missing (apt-get install binutils-source)" >&2; exit 1; }
# the build recipe's version and the source tarball
stamp=$( (echo objdump-bbaddrmap-1; cat "$src") | sha256sum | cut -c1-64)
if [ ! -f "$big/stamp" ] || [ "$(cat "$big/stamp")" != "$stamp" ]; then
	echo "building objdump from binutils-source with clang-19 -fbasic-block-address-map (once)"
	rm -rf "$big"
	mkdir -p "$big/src"
	tar -C "$big/src" --strip-components=1 -xJf "$src"
	(cd "$big/src" &&
	    CC=$L/clang CFLAGS="-O2 -fbasic-block-address-map" ./configure \
	    --disable-gdb --disable-gdbserver --disable-sim --disable-gprofng \
	    --disable-nls --disable-werror --disable-gold --disable-ld \
	    --without-zstd --without-debuginfod > ../configure.log 2>&1 &&
	    make -j"$(nproc)" configure-binutils all-libiberty all-bfd \
	    all-opcodes all-libsframe all-libctf > ../make.log 2>&1 &&
	    make -C binutils -j"$(nproc)" objdump >> ../make.log 2>&1)
	cp "$big/src/binutils/objdump" "$big/objdump"
	echo "$stamp" > "$big/stamp"
fi
# cpu CMD: CPU time (user + system) of CMD in ms, the mean of $REPS runs,
# which a loaded shared machine disturbs less than wall time
cpu() {
	perf stat -x, -e task-clock -r "$REPS" sh -c "$1" 2>&1 >/dev/null |
	    awk -F, '/task-clock/ { printf "%.1f", $1 }'
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$big/objdump" app
$B/bbmap --dump app > b.txt
secsize() {	# secsize NAME: the size of section NAME of app, decimal
	echo $((0x$($L/llvm-readelf -S -W app | awk -v n="$1" '$2 == n { print $6 }')))
}
echo "input: objdump (binutils 2.40, clang-19 -O2 -fbasic-block-address-map):" \
    "$(grep -c '^function' b.txt) functions, $(grep -c '^block' b.txt) blocks," \
    ".text $(secsize .text) bytes, .llvm_bb_addr_map $(secsize .llvm_bb_addr_map) bytes"
cat app > /dev/null
measure llvm_readobj "$(tm 1) $L/llvm-readobj --bb-addr-map app > r.txt"
measure bbmap_dump "$(tm 1) $B/bbmap --dump app > b.txt"
awk '/^#/ { next }
    $1 == "function" { print $1, $2, $6; next }
    $1 == "range" { print $1, $2; next }
    $1 == "block" && $6 == "-" { s = $1; for (i = 2; i <= NF; i++) if (i != 6) s = s " " $i; print s; next }
    { print }' b.txt > b.red
python3 "$top/tests/data/bbmap/readobj2lines.py" < r.txt > r.red
if [ -s r.red ] && cmp -s b.red r.red; then
	echo "  --dump = llvm-readobj --bb-addr-map ($(wc -l < r.red) lines)"
else
	echo "  --dump and llvm-readobj DIFFER ($(wc -l < b.red) and $(wc -l < r.red) lines)"
fi
c_ro=$(cpu "$L/llvm-readobj --bb-addr-map app > /dev/null")
c_bb=$(cpu "$B/bbmap --dump app > /dev/null")
echo "  CPU time: llvm-readobj $c_ro ms, bbmap --dump $c_bb ms"
echo "  --dump: $(ratio "$wall_llvm_readobj" "$wall_bbmap_dump")x faster (wall)," \
    "$(ratio "$c_ro" "$c_bb")x less CPU time," \
    "$(ratio "$rss_llvm_readobj" "$rss_bbmap_dump")x less memory than llvm-readobj-19 (target 5x faster)"
"$T/cfgwalk" -D skewed -n "$NSAMPLES" -s 1 -m "$work/app" -o p.events app
"$T/mkperfdata" -o p.data p.events
rm -f p.events
$B/perfdecode p.data | $B/preagg -b app > app.preagg
echo "profile: $NSAMPLES samples of 32 branches, $(wc -l < app.preagg) pre-aggregated lines"
measure bbmap_map "$(tm 1) $B/bbmap -q app app.preagg > app.bb"
echo "  CPU time: $(cpu "$B/bbmap -q app app.preagg > /dev/null") ms"
$B/bbmap app app.preagg 2>&1 > /dev/null | sed 's/^/  /'
echo "  mapping: $(grep -c '^func' app.bb) functions, $(grep -c '^block' app.bb) blocks," \
    "$(grep -c '^edge' app.bb) edges (no reference tool: Propeller's create_llvm_prof is not packaged)"
