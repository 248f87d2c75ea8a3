#!/bin/sh
# mkcorpus.sh MKPERFDATA: write corpus/, the seeds of the fuzz_perfdata
# harness: 12 random samples of 4 branches (randev.pl) in 13 layouts of
# mkperfdata.  Run from the top of the tree:
#	tests/data/perfdecode/mkcorpus.sh build/testbin/mkperfdata
set -eu
mk=$1
d=tests/data/perfdecode
i=0
while read -r ev opts; do
	i=$((i + 1))
	[ "$ev" = - ] && ev=
	# shellcheck disable=SC2046,SC2086
	perl "$d/randev.pl" --samples 12 --branches 4 $(echo "$ev" | tr , ' ') |
	    "$mk" -q -T -M -Y $opts -o "$d/corpus/seed$i.data"
done <<'LIST'
- -r 5
- -B
- -p
- -p -B
- -H -K
--two -i
- -z -C 100
- -z --zstd-cut 50 --compressed2 -B
--addr -X
--addr,--two -X -p -B
--lost,3 -U -A
--buildid -F BUILD_ID,HOSTNAME
- -n
LIST
