# Shared helpers for the bats suite.  Sourced by every tests/NN-*.bats.
#
# PROFPIPE_BIN      sanitized tools (make check sets it)
# PROFPIPE_FASTBIN  optimized tools, for the few tests that time things
# PROFPIPE_TESTBIN  helper programs built from tests/tools/*.c
# PROFPIPE_FUZZBIN  libFuzzer harnesses (make check builds them: make fuzz)
# CI=true           reference-tool tests fail instead of skipping

# "run ! cmd" (a status that must not be 0) needs bats 1.5
bats_require_minimum_version 1.5.0

TOP="$(cd "$(dirname "${BATS_TEST_FILENAME}")/.." && pwd)"
[ -f "$TOP/Makefile" ] || TOP="$(cd "$TOP/.." && pwd)"	# tests/large/*.bats
: "${PROFPIPE_BIN:=$TOP/build/san/bin}"
: "${PROFPIPE_FASTBIN:=$TOP/build/bin}"
: "${PROFPIPE_TESTBIN:=$TOP/build/testbin}"
: "${PROFPIPE_FUZZBIN:=$TOP/build/fuzz}"
LLVM_BIN=/usr/lib/llvm-19/bin
PATH="$PROFPIPE_BIN:$PROFPIPE_TESTBIN:$PATH"
# python3 is Debian's (where scripts/install-deps puts python3-yaml), not
# a version manager's shim found first on PATH, which costs a third of a
# second each time a test starts Python
if [ -x /usr/bin/python3 ] && [ -n "${BATS_RUN_TMPDIR:-}" ]; then
	_pybin="$BATS_RUN_TMPDIR/profpipe-python"
	mkdir -p "$_pybin"
	[ -e "$_pybin/python3" ] || ln -s /usr/bin/python3 "$_pybin/python3" 2>/dev/null
	PATH="$_pybin:$PATH"
fi
export PATH LC_ALL=C
DATA="$TOP/tests/data"

# need_tool NAME...: the reference tools a test compares against.  Outside
# CI a missing one skips the test; under CI it is a failure, because CI
# installs them with scripts/install-deps.
need_tool() {
	local t
	for t in "$@"; do
		if ! command -v "$t" >/dev/null 2>&1 && [ ! -x "$LLVM_BIN/$t" ]; then
			if [ "${CI:-}" = true ]; then
				echo "reference tool '$t' missing under CI" >&2
				return 1
			fi
			skip "$t not installed"
		fi
	done
}

# a fresh scratch directory per test
setup_tmp() {
	TMP="$BATS_TEST_TMPDIR"
	cd "$TMP" || return 1
}

# compare two files and show a short diff when they differ
same_file() {
	if ! cmp -s "$1" "$2"; then
		echo "files differ: $1 $2" >&2
		diff -u "$1" "$2" | head -40 >&2
		return 1
	fi
}

# fuzz_briefly NAME RUNS FILE|DIR...: the harness fuzz_NAME (fuzz/fuzz_NAME.c,
# built by make check) over a copy of the files (a DIR's own files), a fixed
# seed, RUNS runs and at most 20 seconds: a smoke test of the harness and
# of the parser on mutated inputs.  Long fuzzing is `make fuzz` and a run
# by hand.  Sets $output; fails on a crash, a leak or a timeout.
fuzz_briefly() {
	local h="$PROFPIPE_FUZZBIN/fuzz_$1" runs=$2 d
	shift 2
	if [ ! -x "$h" ]; then
		echo "$h is not built: run make fuzz (make check does)" >&2
		return 1
	fi
	mkdir -p "$BATS_TEST_TMPDIR/fuzzcorpus"
	for d in "$@"; do
		if [ -d "$d" ]; then
			find "$d" -maxdepth 1 -type f -exec cp {} "$BATS_TEST_TMPDIR/fuzzcorpus/" \;
		else
			cp "$d" "$BATS_TEST_TMPDIR/fuzzcorpus/"
		fi
	done
	[ -n "$(ls "$BATS_TEST_TMPDIR/fuzzcorpus")" ] || return 1
	run "$h" -seed=1 -runs="$runs" -max_total_time=20 -rss_limit_mb=1024 \
	    "$BATS_TEST_TMPDIR/fuzzcorpus"
	echo "$output" | tail -5
	[ "$status" -eq 0 ] && [[ "$output" == *"Done "* ]]
}

# damage_stream FILE N: N damaged copies d000.pa ... of a pre-aggregated
# stream (1 to 8 bytes set to characters of its own syntax or junk, every
# third copy also cut), the same for a given FILE and N (seed 5)
damage_stream() {
	python3 - "$1" "$2" <<'PY'
import random, sys
random.seed(5)
data = open(sys.argv[1], 'rb').read()
for i in range(int(sys.argv[2])):
    b = bytearray(data)
    for k in range(random.randint(1, 8)):
        p = random.randrange(len(b))
        b[p] = random.choice(b'0123456789abcdefTRBFfrSEX:- \n\xff')
    if i % 3 == 0:
        b = b[:random.randrange(len(b))]
    open('d%03d.pa' % i, 'wb').write(b)
PY
}
