# bench/lib.sh: helpers the benchmarks share (sourced, not run).
top=$(cd "$(dirname "$0")/.." && pwd)
B=$top/build/bin
T=$top/build/testbin
L=/usr/lib/llvm-19/bin
# measure NAME CMD...: run CMD (a shell command line) $REPS times (default
# 3) and record its median wall time and the largest max-RSS of the
# processes it ran, in kB.  The same number of runs for the reference tool
# and for profpipe; the median keeps one disturbed run of a shared machine
# from deciding a ratio.
REPS=${REPS:-3}
measure() {
	name=$1
	shift
	walls=
	rss=0
	r=0
	while [ "$r" -lt "$REPS" ]; do
		rm -f "$work"/rss.*
		s=$(date +%s.%N)
		sh -c "$*"
		e=$(date +%s.%N)
		walls="$walls $(printf '%.3f' "$(echo "$e - $s" | bc)")"
		x=$(cat "$work"/rss.* 2>/dev/null | sort -n | tail -1)
		[ "${x:-0}" -gt "$rss" ] && rss=$x
		r=$((r + 1))
	done
	wall=$(echo $walls | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	eval "wall_$name=$wall rss_$name=$rss"
	printf '  %-34s %8.3f s %9d kB   (median of %d:%s)\n' "$name" "$wall" "$rss" "$REPS" "$walls"
}
# T_ wraps one process of a command line so that its max RSS is recorded
tm() {
	echo "/usr/bin/time -f %M -o $work/rss.$1"
}
ratio() {	# ratio A B: A / B with two decimals
	echo "scale=2; $1 / $2" | bc
}

# large_work [BUILD]: the tools and a large program built (tests/large/
# BUILD, default build-large.sh, once for all), then a scratch
# directory, $work, as the current one, removed at exit
large_work() {
	make -s -C "$top" all testbins
	"$top/tests/large/${1:-build-large.sh}" "$top/build/large"
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	cd "$work"
}

# walk_data BIN [CFGWALK-OPTION...]: w.data, $NSAMPLES samples of
# 32-deep branch stacks that follow BIN's control flow (tests/tools/
# cfgwalk -D $DIST, default skewed), as mkperfdata writes them
walk_data() {
	b=$1
	shift
	"$T/cfgwalk" -D "${DIST:-skewed}" -n "$NSAMPLES" -s 1 "$@" -o w.events "$b"
	"$T/mkperfdata" -o w.data w.events
	rm -f w.events
}

# in_turn REF OURS: $REPS pairs of runs of two shell command lines, the
# reference's then ours (on a shared machine whose load drifts, the
# ratio of each pair), and the median of the pairs' ratios REF / OURS
in_turn() {
	ratios=
	r=0
	while [ "$r" -lt "$REPS" ]; do
		s=$(date +%s.%N)
		sh -c "$1"
		m=$(date +%s.%N)
		sh -c "$2"
		e=$(date +%s.%N)
		ratios="$ratios $(echo "scale=2; ($m - $s) / ($e - $m)" | bc)"
		r=$((r + 1))
	done
	echo "  end to end, in turn: $(echo $ratios | tr ' ' '\n' | sort -n |
	    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')x faster" \
	    "(median of the pairs:$ratios)"
}
