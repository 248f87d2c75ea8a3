#!/bin/sh
# preagg-scale.sh: pre-aggregation (perfdecode | preagg, and the whole
# profpipe-perf2bolt to fdata) of LBR perf.data files of 2, 4 and 8 GB
# (SIZES, in GB) of the large program (tests/large/build-large.sh: 3494
# functions), written here by mkperfdata --repeat from 250,000 cfgwalk
# samples of 32-deep branch stacks: the time should grow linearly with
# the size and the peak memory stay flat.  perf2bolt-19 -p on the
# smallest file, once, for reference, and the fdata of both compared.
# Each file is written, measured and removed before the next; the bench
# needs twice the largest size free on the scratch file system and says
# so otherwise.
set -e
. "$(dirname "$0")/lib.sh"
SIZES=${SIZES:-"2 4 8"}
large_work
cp "$top/build/large/app" app
"$T/cfgwalk" -D skewed -n 250000 -s 1 -m "$work/app" -o w.events app
"$T/mkperfdata" -o unit.data w.events
unit=$(stat -c %s unit.data)
rm unit.data
max=0
for g in $SIZES; do [ "$g" -gt "$max" ] && max=$g; done
free=$(df -Pk "$work" | awk 'NR == 2 { print $4 }')
if [ "$free" -lt $((max * 2 * 1024 * 1024)) ]; then
	echo "preagg-scale: $((free / 1024 / 1024)) GB free in $work, ${max} GB files need twice that: skipped"
	exit 0
fi
first=
for g in $SIZES; do
	rep=$(( (g * 1024 * 1024 * 1024 + unit - 1) / unit ))
	"$T/mkperfdata" -q --repeat "$rep" -o big.data w.events
	mb=$(( $(stat -c %s big.data) / 1024 / 1024 ))
	echo "${g} GB: $mb MB perf.data, $((rep * 250000)) samples of 32 branches"
	# reading the file alone: on a shared machine the page cache may
	# not hold the largest, and the pre-aggregation can go no faster
	measure read_$g "cat big.data > /dev/null"
	measure preagg_$g "$(tm 1) $B/perfdecode big.data | $(tm 2) $B/preagg -b app > p.$g"
	# the processor time of both stages, which the load of a shared
	# machine and its page cache do not stretch
	/usr/bin/time -f '%U %S' -o cpu.1 "$B/perfdecode" big.data |
	    /usr/bin/time -f '%U %S' -o cpu.2 "$B/preagg" -b app > /dev/null
	eval "cpu_$g=$(cat cpu.1 cpu.2 | awk '{ s += $1 + $2 } END { print s }')"
	measure driver_$g "$(tm 1) $B/profpipe-perf2bolt -p big.data -o d$g.fdata app"
	eval "w=\$wall_preagg_$g r=\$rss_preagg_$g"
	echo "  pre-aggregation: $(echo "scale=0; $mb / $w" | bc) MB/s, $r kB peak"
	if [ -z "$first" ]; then
		first=$g
		# once: it takes minutes
		reps=$REPS
		REPS=1
		measure perf2bolt_$g "$(tm 1) $L/perf2bolt -p big.data -o r.fdata app > p2b.log 2>&1"
		REPS=$reps
		eval "w=\$wall_preagg_$g r=\$rss_preagg_$g wp=\$wall_perf2bolt_$g" \
		    "rp=\$rss_perf2bolt_$g wd=\$wall_driver_$g rd=\$rss_driver_$g"
		echo "  perf2bolt-19 -p: $(ratio "$wp" "$w")x the pre-aggregation's time," \
		    "$(ratio "$rp" "$r")x its memory; the driver to fdata" \
		    "$(ratio "$wp" "$wd")x faster, $(ratio "$rp" "$rd")x less memory"
		sort r.fdata > r.s
		sort "d$g.fdata" > d.s
		if [ -s r.s ] && cmp -s r.s d.s; then
			echo "  fdata: the same $(wc -l < r.s) lines"
		else
			echo "  fdata: DIFFERENT ($(comm -3 r.s d.s | wc -l) lines)"
		fi
		rm -f r.fdata r.s d.s
	fi
	rm -f big.data
done
echo "time per GB and peak memory by size:"
for g in $SIZES; do
	eval "w=\$wall_preagg_$g r=\$rss_preagg_$g wd=\$wall_driver_$g rd=\$rss_driver_$g" \
	    "c=\$cpu_$g wr=\$wall_read_$g"
	echo "  ${g} GB: pre-aggregation $(echo "scale=2; $w / $g" | bc) s/GB" \
	    "(reading the file alone $(echo "scale=2; $wr / $g" | bc) s/GB)," \
	    "$(echo "scale=2; $c / $g" | bc) CPU s/GB, $r kB peak;" \
	    "the driver to fdata $(echo "scale=2; $wd / $g" | bc) s/GB, $rd kB peak"
done
# the same samples repeated: every size writes the same entries, counts
# scaled
for g in $SIZES; do
	awk '{ print $1 }' "p.$g" | sort | uniq -c > "k.$g"
done
for g in $SIZES; do
	cmp -s "k.$first" "k.$g" || echo "  entries of ${g} GB: DIFFERENT kinds from ${first} GB"
done
