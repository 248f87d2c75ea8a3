# Shared helpers for the bats suite.  Sourced by every tests/NN-*.bats.
#
# PROFPIPE_BIN      sanitized tools (make check sets it)
# PROFPIPE_FASTBIN  optimized tools, for the few tests that time things
# PROFPIPE_TESTBIN  helper programs built from tests/tools/*.c
# CI=true           reference-tool tests fail instead of skipping

# "run ! cmd" (a status that must not be 0) needs bats 1.5
bats_require_minimum_version 1.5.0

TOP="$(cd "$(dirname "${BATS_TEST_FILENAME}")/.." && pwd)"
[ -f "$TOP/Makefile" ] || TOP="$(cd "$TOP/.." && pwd)"	# tests/large/*.bats
: "${PROFPIPE_BIN:=$TOP/build/san/bin}"
: "${PROFPIPE_FASTBIN:=$TOP/build/bin}"
: "${PROFPIPE_TESTBIN:=$TOP/build/testbin}"
LLVM_BIN=/usr/lib/llvm-19/bin
PATH="$PROFPIPE_BIN:$PROFPIPE_TESTBIN:$PATH"
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
