#!/usr/bin/env bats
# The fleet recipe (scripts/fleet-merge, profpipe(7)): a hundred hosts'
# pre-aggregated profiles reduced on a real Dask distributed cluster (a
# scheduler and three workers started here on 127.0.0.1) with preagg
# --merge as combiner and reducer, equal to one local preagg --merge;
# and the same with GNU parallel.

load common

setup_file() {
	# Debian's python3, which has python3-distributed
	if /usr/bin/python3 -c 'import distributed' 2> /dev/null &&
	    command -v dask-scheduler > /dev/null; then
		:
	elif [ "${CI:-}" = true ]; then
		echo "python3-distributed missing under CI" >&2
		return 1
	else
		return 0
	fi
	C="$BATS_FILE_TMPDIR/cluster"
	mkdir -p "$C"
	cd "$C" || return 1
	dask-scheduler --host 127.0.0.1 --port 0 --dashboard-address 127.0.0.1:0 \
	    --scheduler-file s.json > sched.log 2>&1 &
	echo $! > sched.pid
	for i in 1 2 3; do
		# each worker its own process, one thread, no nanny: three
		# workers the scheduler hands tasks to
		dask-worker --scheduler-file s.json --nthreads 1 --no-nanny \
		    --host 127.0.0.1 --dashboard-address 127.0.0.1:0 \
		    --local-directory "w$i" > "w$i.log" 2>&1 &
		echo $! > "w$i.pid"
	done
	/usr/bin/python3 - <<'PY'
import time
from distributed import Client
for _ in range(120):
    try:
        c = Client(scheduler_file='s.json', timeout=5)
        break
    except Exception:
        time.sleep(0.5)
c.wait_for_workers(3, timeout=120)
c.close()
PY
}

teardown_file() {
	local f
	for f in "$BATS_FILE_TMPDIR"/cluster/*.pid; do
		[ -f "$f" ] && kill "$(cat "$f")" 2> /dev/null
	done
	return 0
}

setup() {
	setup_tmp
	if [ ! -f "$BATS_FILE_TMPDIR/cluster/s.json" ]; then
		skip "python3-distributed (Dask) not installed"
	fi
	S="$BATS_FILE_TMPDIR/cluster/s.json"
	FM="$TOP/scripts/fleet-merge"
}

@test "fleet: a hundred profiles reduced on a Dask cluster of three workers on 127.0.0.1 equal one local preagg --merge; pinned to their host too" {
	python3 "$DATA/fleet/genprof.py" prof 100 3000 7
	preagg --merge prof/*.preagg > local.pa
	[ "$(grep -c . local.pa)" -ge 5000 ]
	# every entry type survived the sum
	for t in E S T R B F f r; do grep -q "^$t " local.pa; done
	grep -q ' X:' local.pa
	run --separate-stderr /usr/bin/python3 "$FM" -v -s "$S" -k 4 \
	    -P "$PROFPIPE_BIN/preagg" -o fleet.pa prof/*.preagg
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ "$stderr" == "fleet-merge: 100 files, "*" MB/s; "* ]]
	cmp local.pa fleet.pa
	# the three workers ran tasks: 25 leaves of 4 files and 10
	# reductions (the task stream may miss the last as it ends)
	[[ "$stderr" =~ \;\ 3[45]\ tasks\ on\ 3\ workers\; ]]
	# another fan-in, another grouping: the same sum
	/usr/bin/python3 "$FM" -s "$S" -k 7 -P "$PROFPIPE_BIN/preagg" prof/*.preagg > k7.pa
	cmp local.pa k7.pa
	# files named by their host: read by that host's workers
	/usr/bin/python3 "$FM" -s "$S" -P "$PROFPIPE_BIN/preagg" -o pinned.pa \
	    $(for f in prof/*.preagg; do echo "127.0.0.1:$PWD/$f"; done)
	cmp local.pa pinned.pa
	run /usr/bin/python3 "$FM" -s "$S" -P "$PROFPIPE_BIN/preagg" -o x.pa nohost.invalid:/x
	[ "$status" -ne 0 ]
	[ ! -e x.pa ]
}

@test "fleet: a damaged profile fails the reduction with preagg's message, and no output is written" {
	python3 "$DATA/fleet/genprof.py" prof 10 200 3
	echo 'T 1 2 zz 4' >> prof/p004.preagg
	run /usr/bin/python3 "$FM" -s "$S" -P "$PROFPIPE_BIN/preagg" -o out.pa prof/*.preagg
	[ "$status" -ne 0 ]
	[[ "$output" == *"p004.preagg:"*"T entry"* ]]
	[ ! -e out.pa ]
	[ -z "$(ls -A | grep profpipe)" ]
}

@test "fleet: GNU parallel as the engine: the hosts' shares combined apart, then reduced, the same sum" {
	need_tool parallel
	python3 "$DATA/fleet/genprof.py" prof 100 500 11
	preagg --merge prof/*.preagg > local.pa
	# -S : runs on this machine; -S host1,host2 runs the same over ssh
	ls prof/*.preagg | parallel -X -j 4 -S : preagg --merge | preagg --merge > par.pa
	cmp local.pa par.pa
}
