#!/bin/sh
# prfraw2idx-merge.sh: prfraw2idx against llvm-profdata-19 merge on 1000
# raw profiles of a generated C program of 1600 functions (one run each,
# different inputs).  Target: 3x faster with less memory.  The raw files
# are kept in build/bench-cache/ between runs.
set -e
. "$(dirname "$0")/lib.sh"
make -s -C "$top" all
cache=$top/build/bench-cache/prfraw
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ ! -f "$cache/done" ]; then
	rm -rf "$cache"
	mkdir -p "$cache/raw"
	python3 - > "$cache/big.c" <<'PY'
n = 1600
print("#include <stdio.h>\n#include <stdlib.h>")
for i in range(n):
    print("__attribute__((noinline)) long f%d(long x) { if (x %% %d == 0) return x / 3 + %d; for (int k = 0; k < (x & 3); k++) x ^= x << 1; return x + %d; }" % (i, i % 7 + 2, i, i))
print("long (*tab[%d])(long) = {" % n + ",".join("f%d" % i for i in range(n)) + "};")
print("int main(int argc, char **argv) { long s = 0, a = argc > 1 ? atol(argv[1]) : 1;")
print("  for (long i = 0; i < 4000; i++) s += tab[(i * a + i / 7) %% %d](i + a);" % n)
print('  printf("%ld\\n", s); return 0; }')
PY
	$L/clang -O1 -fprofile-generate -o "$cache/big" "$cache/big.c"
	i=1
	while [ $i -le 1000 ]; do
		LLVM_PROFILE_FILE="$cache/raw/r$i.profraw" "$cache/big" $i > /dev/null
		i=$((i + 1))
	done
	touch "$cache/done"
fi
echo "input: $(ls "$cache/raw" | wc -l) raw files, $(du -sm "$cache/raw" | cut -f1) MB, 1600 functions"
cat "$cache"/raw/* > /dev/null
cd "$work"
measure llvm_profdata "$(tm 1) $L/llvm-profdata merge -o a.profdata $cache/raw"
measure llvm_profdata_1thread "$(tm 1) $L/llvm-profdata merge --num-threads=1 -o a1.profdata $cache/raw"
measure prfraw2idx "$(tm 1) $B/prfraw2idx -o b.profdata $cache/raw"
# the program's indirect-call sites have more than 255 targets, where
# llvm-profdata's multi-threaded result varies from run to run: compare
# the deterministic single-threaded merges byte for byte
$B/prfraw2idx -j 1 -o b1.profdata $cache/raw
if cmp -s a1.profdata b1.profdata; then
	echo "  output: byte-identical to llvm-profdata-19 merge --num-threads=1"
else
	echo "  output: DIFFERENT"
fi
echo "prfraw2idx vs llvm-profdata: $(ratio "$wall_llvm_profdata" "$wall_prfraw2idx")x faster" \
    "($(ratio "$wall_llvm_profdata_1thread" "$wall_prfraw2idx")x against --num-threads=1)," \
    "$(ratio "$rss_llvm_profdata" "$rss_prfraw2idx")x less memory (target 3x)"
