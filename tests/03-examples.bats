#!/usr/bin/env bats
# Every example in the man pages (the "$ " lines of EXAMPLES) and in the
# README ("Using it") runs as written against the LLVM 19 tools, in a
# directory with the files the examples name: app (tests/data/progs/demo.c
# built with --emit-relocs and a basic-block address map) and app.c,
# perf.data (an LBR recording of app written by mkperfdata, pid 4242;
# app has DWARF, for afdowrite's examples),
# app.bat (app optimized by llvm-bolt-19 --enable-bat) and bat.data (an
# LBR recording of it), app.preagg, host*.preagg, raw instrumentation
# profiles (default.profraw, default_*.profraw, runs/, nightly/,
# profiles/).  The one command that cannot run here is `perf record -j
# any,u`: this machine has no branch-stack hardware, and the perf.data it
# would write is the fixture.  Last, scripts/demo, the README's main job.

load common

setup_file() {
	need_tool clang-19 llvm-bolt-19 perf
	F="$BATS_FILE_TMPDIR/fix"
	mkdir -p "$F" && cd "$F" || return 1
	cp "$TOP/tests/data/progs/demo.c" app.c
	# with DWARF for afdowrite's examples
	clang-19 -O2 -g -fdebug-info-for-profiling -fno-pie -no-pie \
	    -Wl,--emit-relocs -fbasic-block-address-map -o app app.c
	python3 "$DATA/preagg/randlbr.py" app 0 4242 3000 1 "$F/app" > app.events
	mkperfdata -o perf.data app.events
	perfdecode perf.data | preagg --legacy -b ./app > app.preagg
	# app.bat: app optimized with translation tables, and a recording
	# of it
	perfdecode perf.data | preagg -b ./app | fdatawrite -o app.fdata ./app
	llvm-bolt-19 app -data app.fdata -o app.bat --enable-bat \
	    -reorder-blocks=ext-tsp -split-functions > /dev/null 2>&1
	python3 "$DATA/preagg/randlbr.py" app.bat 0 4242 3000 1 "$F/app.bat" > bat.events
	mkperfdata -o bat.data bat.events
	rm app.fdata
	for h in 1 2 3; do
		python3 "$DATA/preagg/randlbr.py" app 0 4242 300 "$h" "$F/app" |
		    preagg -b ./app > host$h.preagg
	done
	# instrumentation: the same program, instrumented, run a few times
	clang-19 -O2 -fprofile-generate -o app.instr app.c
	mkdir runs nightly profiles
	LLVM_PROFILE_FILE=default.profraw ./app.instr > /dev/null
	LLVM_PROFILE_FILE=runs/a.profraw ./app.instr > /dev/null
	LLVM_PROFILE_FILE=nightly/b.profraw ./app.instr > /dev/null
	LLVM_PROFILE_FILE=profiles/c.profraw ./app.instr > /dev/null
	LLVM_PROFILE_FILE=default_1.profraw ./app.instr > /dev/null
	export F
}

# the examples of a man page, each ended by a NUL: in the page as mandoc
# renders it, a "$ " line of EXAMPLES and the lines indented deeper that
# continue it
man_examples() {
	mandoc -Tascii -Owidth=300 "$1" | col -bx |
	    awk '/^EXAMPLES/ { e = 1; next } /^[A-Z]/ { e = 0 }
	    function flush() { if (c != "") printf "%s%c", c, 0; c = "" }
	    !e { next }
	    /^ *\$ / { flush(); ind = index($0, "$"); c = substr($0, ind + 2); next }
	    c != "" && match($0, /^ +/) && RLENGTH > ind { c = c "\n" $0; next }
	    { flush() }
	    END { flush() }'
}

# run one example in a copy of the fixture; perf record with branch
# stacks is the one command this machine cannot run
run_example() {
	case $1 in
	"perf record"*"-j "*) return 0 ;;
	esac
	run bash -c "set -o pipefail; cd '$2' && $1" 2>&1
	# head closing the pipe early ends the stages before it with SIGPIPE,
	# as it is meant to
	case $1 in *"| head"*) [ "$status" -ne 141 ] || status=0 ;; esac
	if [ "$status" -ne 0 ]; then
		echo "example failed (status $status): $1" >&2
		echo "$output" | tail -5 >&2
		return 1
	fi
}

examples_of() {
	local f=$1 d=$BATS_TEST_TMPDIR/run n=0 cmd
	rm -rf "$d" && cp -a "$F" "$d"
	while IFS= read -r -d '' cmd; do
		run_example "$cmd" "$d" || return 1
		n=$((n + 1))
	done < <(man_examples "$f")
	echo "$n"
}

@test "examples: every command in the EXAMPLES of every man page runs" {
	total=0
	for f in "$TOP"/man/*.1 "$TOP"/man/*.7; do
		n=$(examples_of "$f") || { echo "in $f" >&2; return 1; }
		total=$((total + n))
	done
	# the pages hold examples: the count is not zero by accident
	[ "$total" -ge 10 ]
}

@test "examples: every command of the README's 'Using it' runs" {
	d=$BATS_TEST_TMPDIR/readme
	cp -a "$F" "$d"
	n=0
	while IFS= read -r cmd; do
		run_example "$cmd" "$d" || return 1
		n=$((n + 1))
	done < <(sed -n '/^Using it$/,/^Performance$/p' "$TOP/README" |
	    grep '^    [a-z]' | sed 's/^    //')
	[ "$n" -ge 10 ]
}

@test "examples: scripts/demo, the README's main job, runs every stage and agrees with the LLVM 19 tools, in under a minute" {
	need_tool perf2bolt llvm-bolt-19 llvm-profdata-19 python3
	local t0 t1
	t0=$(date +%s)
	run "$TOP/scripts/demo" "$BATS_TEST_TMPDIR/demo"
	t1=$(date +%s)
	echo "$output" | tail -15
	echo "scripts/demo: $((t1 - t0)) s" >&2
	[ "$status" -eq 0 ]
	# each check said so
	[ "$(echo "$output" | grep -c '^yes: [0-9]* identical lines$')" -eq 2 ]
	[[ "$output" == *"; 0 differences"* ]]
	[[ "$output" == *"app.bolt and app.ybolt print the same as app"* ]]
	[[ "$output" == *"prfraw2idx output is byte-identical to llvm-profdata-19 merge"* ]]
	[[ "$output" == *"clang-19 -fprofile-use built app.pgo with it"* ]]
	# bbmap's hottest blocks
	echo "$output" | grep -Eq '^[0-9]+ main block [0-9]+ at [0-9a-f]+$'
	# on a loaded shared machine the wall clock doubles: the bound is
	# twice the minute the README promises
	[ $((t1 - t0)) -lt 120 ]
}
