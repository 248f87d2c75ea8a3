#!/usr/bin/env bats
# profpipe-perf2bolt against perf2bolt-19 with the same arguments on the
# large benchmark program (tests/large/build-large.sh: about 3500
# functions, 1.6 MB of .text) and its BOLTed build (app.bolt, with BAT):
# branch stacks along its real control flow (cfgwalk), the fixed-address
# build and the PIE at a random base; fdata, YAML (-w and
# --profile-format=yaml, as data, hashes aside but from BAT), -nl on a
# real cpu-clock recording of the program, several recordings (against
# the sum of one perf2bolt-19 run each), --pa input, and the BOLTed
# binary.

load ../common
bats_require_minimum_version 1.5.0

LARGE="$TOP/build/large"
P2B="$LLVM_BIN/perf2bolt"

setup_file() {
	PROFPIPE_TESTBIN="$PROFPIPE_TESTBIN" "$TOP/tests/large/build-large.sh" "$LARGE"
}

setup() {
	setup_tmp
	need_tool perf perf2bolt
	CMP="$DATA/yamlwrite/yamlcmp.py"
}

# same_fdata REF OURS MIN: equal after sorting, at least MIN lines
same_fdata() {
	sort "$1" > ref.s
	sort "$2" > ours.s
	echo "$(wc -l < ref.s) lines from perf2bolt" >&2
	[ "$(wc -l < ref.s)" -ge "$3" ]
	same_file ref.s ours.s
}

walk() {	# walk BINARY BIAS N SEED DEPTH OUT
	cfgwalk -D skewed -b "$2" -n "$3" -s "$4" -d "$5" -m "$PWD/$1" -o w.events "$1"
	mkperfdata -o "$6" w.events
	rm w.events
}

@test "profpipe-perf2bolt, large program: branch stacks of the fixed-address build and of the PIE: perf2bolt-19's fdata and YAML" {
	cp "$LARGE/app" "$LARGE/app-pie" .
	walk app 0 20000 3 32 a.data
	walk app-pie 5612a0000000 20000 4 32 p.data
	for b in app:a app-pie:p; do
		bin=${b%:*} d=${b#*:}.data
		"$P2B" -p $d -o ref.fdata -w ref.yaml $bin > p2b.log 2>&1
		profpipe-perf2bolt -p $d -o ours.fdata -w ours.yaml $bin
		same_fdata ref.fdata ours.fdata 10000
		python3 "$CMP" ref.yaml ours.yaml
		"$P2B" -p $d --profile-format=yaml -o ref2.yaml $bin > p2b.log 2>&1
		profpipe-perf2bolt -p $d --profile-format=yaml -o ours2.yaml $bin
		python3 "$CMP" ref2.yaml ours2.yaml
	done
}

@test "profpipe-perf2bolt, large program: -nl on a real cpu-clock recording; several recordings; --pa" {
	cp "$LARGE/app" .
	perf record -q -e cpu-clock -c 50000 -o cpu.data -- ./app 8 > /dev/null 2>&1
	"$P2B" -nl -p cpu.data -o ref.fdata -w ref.yaml app > p2b.log 2>&1
	profpipe-perf2bolt -nl -p cpu.data -o ours.fdata -w ours.yaml app
	same_fdata ref.fdata ours.fdata 100
	python3 "$CMP" ref.yaml ours.yaml
	# two recordings: the sum of perf2bolt-19's
	walk app 0 8000 5 32 x.data
	walk app 0 9000 6 16 y.data
	"$P2B" -p x.data -o x.fdata app > p2b.log 2>&1
	"$P2B" -p y.data -o y.fdata app > p2b.log 2>&1
	awk 'NF == 8 { k = $1 " " $2 " " $3 " " $4 " " $5 " " $6; m[k] += $7; c[k] += $8 }
	    END { for (k in c) print k, m[k], c[k] }' x.fdata y.fdata > sum.fdata
	profpipe-perf2bolt -p x.data -p y.data -o xy.fdata app
	same_fdata sum.fdata xy.fdata 10000
	# --pa: LLVM 19's form, perf2bolt-19 --pa's fdata
	perfdecode x.data | preagg --legacy -b app > x.pa
	"$P2B" --pa -p x.pa -o pa.fdata app > p2b.log 2>&1
	profpipe-perf2bolt --pa -p x.pa -o ourpa.fdata app
	same_fdata pa.fdata ourpa.fdata 5000
	same_fdata x.fdata ourpa.fdata 5000
}

@test "profpipe-perf2bolt, large program: the BOLTed build (BAT): perf2bolt-19's boltedcollection fdata and YAML, hashes from the tables" {
	cp "$LARGE/app" "$LARGE/app.bolt" .
	walk app.bolt 0 20000 7 24 b.data
	"$P2B" -p b.data -o ref.fdata -w ref.yaml app.bolt > p2b.log 2>&1
	profpipe-perf2bolt -v -p b.data -o ours.fdata -w ours.yaml app.bolt 2> v.txt
	grep -q 'batmap app.bolt app ' v.txt
	head -1 ours.fdata | grep -qx boltedcollection
	# perf2bolt names the code BOLT left at a moved function's old
	# address (__BOLT_FDE_FUNCat...), which the input binary has not:
	# batmap writes that end as the unknown location 0 (batmap(1));
	# every other line is perf2bolt's
	n=$(grep -c '__BOLT_FDE_FUNCat' ref.fdata || true)
	echo "$n lines with BOLT's stubs" >&2
	[ "$n" -le 5 ]
	sed 's/1 __BOLT_FDE_FUNCat[0-9a-f]* [0-9a-f]*/0 [unknown] 0/g' ref.fdata > ref2.fdata
	same_fdata ref2.fdata ours.fdata 10000
	# the same in the YAML: the stubs' own entries (calls into them
	# keep their fid, as perf2bolt's)
	python3 - ref.yaml > ref2.yaml <<'PY'
import sys, yaml
r = yaml.safe_load(open(sys.argv[1]))
r['functions'] = [f for f in r['functions']
                  if not f['name'].startswith('__BOLT_FDE_FUNCat')]
print('---\n' + yaml.safe_dump(r), end='')
PY
	python3 "$CMP" ref2.yaml ours.yaml
	python3 - ref.yaml ours.yaml <<'PY'
import sys, yaml
r, o = (yaml.safe_load(open(p)) for p in sys.argv[1:])
hr = {f['name']: f['hash'] for f in r['functions']}
n = sum(1 for f in o['functions'] if f['hash'] != 0 and hr[f['name']] == f['hash'])
bad = [f['name'] for f in o['functions'] if f['hash'] != 0 and hr[f['name']] != f['hash']]
assert not bad, bad[:5]
assert n > 1000, n
print(n, 'function hashes equal')
PY
}
