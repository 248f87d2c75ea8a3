# bench/lib.sh: helpers the benchmarks share (sourced, not run).
top=$(cd "$(dirname "$0")/.." && pwd)
B=$top/build/bin
T=$top/build/testbin
L=/usr/lib/llvm-19/bin
# measure NAME CMD...: run CMD (a shell command line) $REPS times (default
# 3) and record its median wall time, the largest max-RSS of the
# processes it ran, in kB, and the median of their user + system CPU
# seconds (what a loaded machine does not stretch as it stretches the
# wall time: cpu_NAME).  The same number of runs for the reference tool
# and for profpipe; the median keeps one disturbed run of a shared
# machine from deciding a ratio.
REPS=${REPS:-3}
measure() {
	name=$1
	shift
	walls=
	cpus=
	rss=0
	r=0
	while [ "$r" -lt "$REPS" ]; do
		rm -f "$work"/rss.*
		s=$(date +%s.%N)
		sh -c "$*"
		e=$(date +%s.%N)
		walls="$walls $(printf '%.3f' "$(echo "$e - $s" | bc)")"
		# each file's last line (time writes a line of its own
		# before it when the command fails): RSS, user, system
		x=$(for f in "$work"/rss.*; do [ -f "$f" ] && tail -n 1 "$f"; done |
		    awk '$1 > m { m = $1 } END { print m + 0 }')
		[ "${x:-0}" -gt "$rss" ] && rss=$x
		cpus="$cpus $(for f in "$work"/rss.*; do [ -f "$f" ] && tail -n 1 "$f"; done |
		    awk '{ c += $2 + $3 } END { printf "%.2f", c }')"
		r=$((r + 1))
	done
	wall=$(echo $walls | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	cpu=$(echo $cpus | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	eval "wall_$name=$wall rss_$name=$rss cpu_$name=$cpu"
	printf '  %-34s %8.3f s %9d kB %7.2f s CPU   (median of %d:%s)\n' "$name" "$wall" "$rss" "$cpu" "$REPS" "$walls"
}
# tm N wraps one process of a command line so that its max RSS and CPU
# time are recorded
tm() {
	echo "/usr/bin/time -f '%M %U %S' -o $work/rss.$1"
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
