# bench/lib.sh: helpers the benchmarks share (sourced, not run).
# measure NAME CMD...: run CMD (a shell command line) and record its wall
# time and the largest max-RSS of the processes it ran, in kB.
top=$(cd "$(dirname "$0")/.." && pwd)
B=$top/build/bin
T=$top/build/testbin
L=/usr/lib/llvm-19/bin
measure() {
	name=$1
	shift
	rm -f "$work"/rss.*
	s=$(date +%s.%N)
	sh -c "$*"
	e=$(date +%s.%N)
	wall=$(echo "$e - $s" | bc)
	rss=$(cat "$work"/rss.* 2>/dev/null | sort -n | tail -1)
	eval "wall_$name=$wall rss_$name=$rss"
	printf '  %-34s %8.3f s %9d kB\n' "$name" "$wall" "$rss"
}
# T_ wraps one process of a command line so that its max RSS is recorded
tm() {
	echo "/usr/bin/time -f %M -o $work/rss.$1"
}
ratio() {	# ratio A B: A / B with two decimals
	echo "scale=2; $1 / $2" | bc
}
