#!/usr/bin/env bats
# bbmap on the large program compiled from source with
# -fbasic-block-address-map (tests/large/build-large-src.sh: objdump-bb,
# GNU objdump from Debian's binutils-source, about 2170 functions with a
# map each, 1 MB of .text): --dump against llvm-readobj-19 --bb-addr-map,
# the graphs of tools/bbmap/bbcfg.c against llvm-readobj-19's decoding, and
# the mapping of branch stacks that follow its real control flow
# (tests/tools/cfgwalk) and of a real cpu-clock recording of its workload.

load ../common

LARGE="$TOP/build/large"
D="$TOP/tests/data/bbmap"

setup_file() {
	PROFPIPE_TESTBIN="$PROFPIPE_TESTBIN" "$TOP/tests/large/build-large-src.sh" "$LARGE"
}

setup() {
	setup_tmp
	need_tool llvm-readobj-19 llvm-objdump-19 python3
}

@test "bbmap-large: --dump of objdump-bb equals llvm-readobj-19 --bb-addr-map" {
	"$LLVM_BIN/llvm-readobj" --bb-addr-map "$LARGE/objdump-bb" > ro.txt
	python3 "$D/readobj2lines.py" < ro.txt > ref.txt
	bbmap --dump "$LARGE/objdump-bb" > d.txt
	awk '/^#/ { next }
	    $1 == "function" { print $1, $2, $6; next }
	    $1 == "range" { print $1, $2; next }
	    $1 == "block" && $6 == "-" {
		s = $1; for (i = 2; i <= NF; i++) if (i != 6) s = s " " $i
		print s; next }
	    { print }' d.txt > ours.txt
	[ "$(grep -c '^function ' ref.txt)" -ge 2000 ]
	[ "$(grep -c '^block ' ref.txt)" -ge 40000 ]
	same_file ours.txt ref.txt
	# every function named, as llvm-readobj names them
	[ "$(grep -c '^function .* -$' ours.txt)" -eq 0 ]
	# the graphs: blocks, flags and fall-through successors as
	# llvm-readobj's decoding describes them
	python3 "$D/readobj2cfg.py" < ro.txt > ref.cfg
	bbcfgtest "$LARGE/objdump-bb" > got.cfg
	[ "$(grep -c '^block .* -> [0-9]' ref.cfg)" -ge 20000 ]
	same_file got.cfg ref.cfg
}

@test "bbmap-large: cfgwalk branch stacks: flow conservation, every edge a real successor" {
	cp "$LARGE/objdump-bb" objdump-bb
	cfgwalk -D skewed -n 3000 -s 7 -m "$PWD/objdump-bb" -o w.events objdump-bb
	mkperfdata -o w.data w.events
	perfdecode w.data | preagg -b objdump-bb > w.pa
	"$PROFPIPE_FASTBIN/bbmap" -v objdump-bb w.pa > w.bb 2> w.err
	cat w.err
	# the sanitized build on the same input: the same stream
	bbmap -q objdump-bb w.pa > w-san.bb
	same_file w.bb w-san.bb
	run python3 "$D/flowcheck.py" w.bb w.err w.events
	echo "imbalance bound total: $output"
	[ "$status" -eq 0 ]
	"$PROFPIPE_FASTBIN/bbmap" --dump objdump-bb > d.txt
	# every edge a real successor, but for cfgwalk's three made-up
	# kinds of branch (checkedges.py --cfgwalk says which), counted
	# apart: the walk joins, calls to function entries no call or jump
	# explains, are bounded (a walk here is short, a few dozen branches,
	# each in two stacks on average: about a tenth of the branch weight)
	python3 "$D/checkedges.py" --cfgwalk objdump-bb d.txt w.bb \
	    > n.txt 2> ce.err || { head -c 2000 ce.err; false; }
	cat n.txt ce.err
	[ "$(cat n.txt)" -gt 1000 ]
	local j
	j=$(sed -n 's/^walk joins: weight //p' ce.err)
	[ -n "$j" ]
	[ "$j" -lt $((96000 / 5)) ]
	for k in br ft call ret; do
		grep -q "^edge $k " w.bb
	done
	# cfgwalk follows the disassembly: almost no branch lands mid-block
	grep -q '^bbmap: branches [0-9]*: edges [0-9]* ([0-9.]*%), of them mid-block [0-9]* (0\.[0-9]%)' w.err
}

@test "bbmap-large: a cpu-clock recording of the workload: each block's samples are the S counts in its range" {
	need_tool perf
	cp "$LARGE/objdump-bb" "$LARGE/objdump-input" .
	perf record -q -e cpu-clock -c 200000 -o cc.data ./objdump-bb -d -r -t -s objdump-input > /dev/null 2>&1 || true
	perfdecode cc.data | preagg -b objdump-bb > cc.pa
	[ "$(grep -c '^S ' cc.pa)" -gt 100 ]
	"$PROFPIPE_FASTBIN/bbmap" -v objdump-bb cc.pa > cc.bb 2> cc.err
	cat cc.err
	"$PROFPIPE_FASTBIN/bbmap" --dump objdump-bb > d.txt
	run python3 "$D/samplecheck.py" d.txt cc.pa cc.bb
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q "^bbmap: samples [0-9]*: in blocks" cc.err
}
