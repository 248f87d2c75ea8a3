#!/bin/sh
# preagg-procs.sh: preagg's time against the number of short-lived
# processes in a recording, as in a system-wide recording of a software
# build.  Streams of 50,000, 100,000 and 200,000 processes, each a fork,
# an exec (comm), the mmap of the large benchmark program
# (tests/large/build-large.sh) and three samples with 8-deep branch
# stacks over its real control flow (taken from tests/tools/cfgwalk), then
# an exit, go through `preagg -b app` as profpipe-events text.  The cost
# must grow linearly: target 200k/100k at most 2.5 (issue 13).  There is no
# reference tool to compare with here (perf2bolt takes minutes on such
# recordings), so this prints preagg's times, peak memory and the ratio.
set -e
. "$(dirname "$0")/lib.sh"
large_work
cp "$top/build/large/app" app
"$T/cfgwalk" -D skewed -n 3000 -d 8 -s 1 -m "$work/app" -o walk.events app
# procs.awk N: the stream; pids from 100000 up, all children of pid 1000;
# the samples of process i are templates 3i..3i+2 (mod the count)
cat > procs.awk <<'AWK'
$1 == "mmap" { mm = $0; sub(/^mmap [0-9]+ [0-9]+ [0-9]+ /, "", mm) }
$1 == "sample" { s = $0; sub(/^sample [0-9]+ [0-9]+ [0-9]+ /, "", s); tpl[nt++] = s }
END {
	print "# profpipe-events 1"
	print "# event=cycles:u"
	t = 1000000	# times below 2^31: mawk prints larger ones as 1e+09
	print "comm 1000 1000 " t " 1 make"
	for (i = 0; i < n; i++) {
		p = 100000 + i
		print "fork " p " 1000 " p " 1000 " (t += 100)
		print "comm " p " " p " " (t += 100) " 1 app"
		print "mmap " p " " p " " (t += 100) " " mm
		for (k = 0; k < 3; k++)
			print "sample " p " " p " " (t += 100) " " tpl[(3 * i + k) % nt]
		print "exit " p " 1000 " p " 1000 " (t += 100)
	}
}
AWK
for n in 50000 100000 200000; do
	awk -v n=$n -f procs.awk walk.events > procs$n.events
done
echo "input: $(du -m procs200000.events | cut -f1) MB of events for 200k processes"
for n in 50000 100000 200000; do
	cat procs$n.events > /dev/null
	measure preagg_$n "$(tm 1) $B/preagg -b app procs$n.events > p$n.out"
	[ -s p$n.out ] || { echo "preagg wrote nothing for $n processes" >&2; exit 1; }
done
echo "preagg, 50k/100k/200k processes: $wall_preagg_50000 s, $wall_preagg_100000 s," \
    "$wall_preagg_200000 s; 200k/100k = $(ratio "$wall_preagg_200000" "$wall_preagg_100000")" \
    "(target at most 2.5: linear)"
