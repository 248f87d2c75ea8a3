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

# large_work: the tools and the large program built (tests/large/
# build-large.sh, once for all), then a scratch directory, $work, as
# the current one, removed at exit
large_work() {
	make -s -C "$top" all testbins
	"$top/tests/large/build-large.sh" "$top/build/large"
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	cd "$work"
}
