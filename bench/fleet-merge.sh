#!/bin/sh
# fleet-merge.sh: the merge throughput of a fleet's pre-aggregated
# profiles, NPROF (100) profiles of NLINES (60,000) entries each
# (tests/data/fleet/genprof.py: every entry type, build-ids, overlapping
# keys): one local preagg --merge, and scripts/fleet-merge on a Dask
# distributed cluster of a scheduler and WORKERS (3) workers started here
# on 127.0.0.1 (the recipe of profpipe(7), on one machine: its rate is
# the engine's overhead, the same work spread over machines).  Prints MB/s
# of input and checks that both write the same sum.
set -e
. "$(dirname "$0")/lib.sh"
NPROF=${NPROF:-100}
NLINES=${NLINES:-60000}
WORKERS=${WORKERS:-3}
make -s -C "$top" all
work=$(mktemp -d)
pids=
trap 'for p in $pids; do kill "$p" 2> /dev/null; done; rm -rf "$work"' EXIT
cd "$work"
/usr/bin/python3 "$top/tests/data/fleet/genprof.py" prof "$NPROF" "$NLINES" 1
mb=$(du -cm prof | tail -1 | cut -f1)
echo "input: $NPROF profiles, $mb MB, $(cat prof/*.preagg | wc -l) entries"
cat prof/*.preagg > /dev/null
measure local_merge "$(tm 1) $B/preagg --merge prof/*.preagg > local.pa"
echo "  preagg --merge: $(echo "scale=1; $mb / $wall_local_merge" | bc) MB/s," \
    "$(wc -l < local.pa) entries out"
if ! /usr/bin/python3 -c 'import distributed' 2> /dev/null; then
	echo "fleet-merge: python3-distributed is not installed: the cluster run skipped"
	exit 0
fi
dask-scheduler --host 127.0.0.1 --port 0 --dashboard-address 127.0.0.1:0 \
    --scheduler-file s.json > sched.log 2>&1 &
pids="$!"
i=0
while [ "$i" -lt "$WORKERS" ]; do
	dask-worker --scheduler-file s.json --nthreads 1 --no-nanny \
	    --host 127.0.0.1 --dashboard-address 127.0.0.1:0 \
	    --local-directory "w$i" > "w$i.log" 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done
/usr/bin/python3 -c "
import time
from distributed import Client
for _ in range(120):
    try:
        c = Client(scheduler_file='s.json', timeout=5)
        break
    except Exception:
        time.sleep(0.5)
c.wait_for_workers($WORKERS, timeout=120)
c.close()"
measure dask_merge "/usr/bin/python3 $top/scripts/fleet-merge -s s.json -k 8 -P $B/preagg -o fleet.pa prof/*.preagg"
echo "  fleet-merge, $WORKERS workers: $(echo "scale=1; $mb / $wall_dask_merge" | bc) MB/s" \
    "($(nproc) CPUs here; the client's start and the scheduler's round trips included)"
if cmp -s local.pa fleet.pa; then
	echo "  the same sum"
else
	echo "  DIFFERENT sums"
fi
