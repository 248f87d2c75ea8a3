#!/bin/sh
# build.sh DIR: build the prfraw2idx test programs with clang-19 and run
# them to make raw profiles in DIR (deterministic programs, fixed inputs).
# It runs no 32-bit program (some kernels run none): the 32-bit programs
# are built, and mkraw.py writes the raw profiles they would write.
set -e
src=$(cd "$(dirname "$0")" && pwd)
demo=$src/../progs/demo.c
cc=/usr/lib/llvm-19/bin/clang
cxx=/usr/lib/llvm-19/bin/clang++
out=$1
mkdir -p "$out"
cd "$out"
run() {	# run NAME PROFRAW ARGS...
	prog=$1 raw=$2
	shift 2
	LLVM_PROFILE_FILE=$raw ./$prog "$@" > /dev/null
}
# C, IR instrumentation, three runs
$cc -O2 -fprofile-generate -o c "$demo"
run c c1.profraw 1; run c c2.profraw 2; run c c3.profraw 3
# C++ with virtual and indirect calls and memcpy (value profiles, vtables)
$cxx -O2 -fprofile-generate -mllvm -enable-vtable-value-profiling -o cpp "$src/vcall.cpp"
run cpp cpp1.profraw 1; run cpp cpp2.profraw 2
# front-end instrumentation with coverage and MC/DC bitmaps
$cc -O1 -fprofile-instr-generate -fcoverage-mapping -fcoverage-mcdc -o fe "$src/mcdc.c"
run fe fe1.profraw 1; run fe fe2.profraw 3
# 32-bit, never run: mkraw.py writes what the -no-pie 32-bit build would
# write, with the counters of the same source's 64-bit -no-pie run; on the
# 64-bit builds it must give the runs' own files byte for byte (the test
# checks), so g64.profraw and gfe.profraw are its output to compare
$cc -O2 -no-pie -fprofile-generate -o n64 "$demo"
run n64 n64.profraw 2
$cc -O2 -m32 -no-pie -fprofile-generate -o m32 "$demo"
$cc -O1 -no-pie -fprofile-instr-generate -fcoverage-mapping -fcoverage-mcdc -o fe64 "$src/mcdc.c"
run fe64 fe64.profraw 3
$cc -O1 -m32 -no-pie -fprofile-instr-generate -fcoverage-mapping -fcoverage-mcdc -o fe32 "$src/mcdc.c"
mkdir -p mkraw
python3 "$src/mkraw.py" n64 mkraw/g64.profraw n64.profraw
python3 "$src/mkraw.py" fe64 mkraw/gfe.profraw fe64.profraw
python3 "$src/mkraw.py" m32 m32.profraw n64.profraw
python3 "$src/mkraw.py" fe32 m32fe.profraw fe64.profraw
python3 "$src/mkraw.py" m32 m32fixed.profraw
# static functions of the same name in two files
$cc -O0 -fprofile-generate -o st "$src/s1.c" "$src/s2.c"
run st st.profraw 20
# many runs of one program
mkdir -p many
i=1
while [ $i -le 24 ]; do
	run c many/r$i.profraw $i
	i=$((i + 1))
done
# binary correlation: the raw file holds counters only
$cc -O2 -fprofile-generate -mllvm -profile-correlate=binary -mllvm -disable-vp -o corr "$demo"
run corr corr.profraw 1
