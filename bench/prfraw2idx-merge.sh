#!/bin/sh
# prfraw2idx-merge.sh: prfraw2idx against llvm-profdata-19 merge (and
# merge --num-threads=1) on two inputs: 1000 raw profiles of a generated C
# program of 1600 functions (one run each, different inputs; kept in
# build/bench-cache/ between runs), and the 200 raw profiles of the large
# program, GNU objdump built by clang-19 -fprofile-generate from Debian's
# binutils-source, from its workload of objdump runs with different
# options and inputs (tests/large/build-large-prof.sh, built once into
# build/large).  Each checks that prfraw2idx -j 1 gives the bytes of
# merge --num-threads=1.  Target: 3x faster with less memory.
set -e
. "$(dirname "$0")/lib.sh"
make -s -C "$top" all
"$top/tests/large/build-large-prof.sh" "$top/build/large"
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
# compare NAME DIR: the three merges of the raw files in DIR, NAME a prefix
# of the measures' names
compare() {
	p=$1
	d=$2
	measure ${p}_llvm_profdata "$(tm 1) $L/llvm-profdata merge -o a.profdata $d"
	measure ${p}_llvm_profdata_1thread "$(tm 1) $L/llvm-profdata merge --num-threads=1 -o a1.profdata $d"
	measure ${p}_prfraw2idx "$(tm 1) $B/prfraw2idx -o b.profdata $d"
	# where an indirect-call site has more than 255 targets (the
	# generated program's), llvm-profdata's multi-threaded result varies
	# from run to run: compare the deterministic single-threaded merges
	# byte for byte
	$B/prfraw2idx -j 1 -o b1.profdata $d
	if [ -s a1.profdata ] && cmp -s a1.profdata b1.profdata; then
		echo "  output: byte-identical to llvm-profdata-19 merge --num-threads=1" \
		    "($(wc -c < a1.profdata) bytes)"
	else
		echo "  output: DIFFERENT"
	fi
	eval "wa=\$wall_${p}_llvm_profdata w1=\$wall_${p}_llvm_profdata_1thread" \
	    "wb=\$wall_${p}_prfraw2idx ra=\$rss_${p}_llvm_profdata rb=\$rss_${p}_prfraw2idx"
	echo "prfraw2idx vs llvm-profdata ($p): $(ratio "$wa" "$wb")x faster" \
	    "($(ratio "$w1" "$wb")x against --num-threads=1)," \
	    "$(ratio "$ra" "$rb")x less memory (target 3x)"
}
echo "generated program: $(ls "$cache/raw" | wc -l) raw files, $(du -sm "$cache/raw" | cut -f1) MB, 1600 functions"
cat "$cache"/raw/* > /dev/null
cd "$work"
compare gen "$cache/raw"
raw=$top/build/large/objdump-prof.raw
echo "large program (objdump, instrumented): $(ls "$raw" | wc -l) raw files," \
    "$(du -sm "$raw" | cut -f1) MB, $($L/llvm-profdata show "$raw/r001.profraw" |
    sed -n 's/^Total functions: //p') functions"
cat "$raw"/* > /dev/null
compare large "$raw"
