#!/usr/bin/env bats
# afdowrite on the large program with DWARF (build-large-afdo.sh: GNU
# objdump, clang-19 -O2 -g -fdebug-info-for-profiling, about 2000
# functions): perfdecode | preagg | afdowrite against llvm-profgen-19
# --format=text on branch stacks along its control flow (cfgwalk, both
# distributions) and on a real perf record -e cpu-clock of its workload
# (--leading-ip-only); clang-19 -fprofile-sample-use compiles two of its
# files to the same IR with both profiles, and llvm-profdata-19 converts
# both to the same extensible binary profile.

load ../common
bats_require_minimum_version 1.5.0

L=/usr/lib/llvm-19/bin
PROFGEN=$L/llvm-profgen
OUT="$TOP/build/large"

setup_file() {
	[ -x "$L/clang" ] && [ -e /usr/src/binutils/binutils-2.40.tar.xz ] || return 0
	"$TOP/tests/large/build-large-afdo.sh" "$OUT"
}

setup() {
	setup_tmp
	need_tool llvm-profgen perf clang
	[ -x "$OUT/objdump-g" ]
	cp "$OUT/objdump-g" objdump-g
}

# same_profgen DATA MINFUNCS [PROFGEN-OPTS]: afdowrite on preagg's
# output is llvm-profgen-19's text profile of DATA, with at least
# MINFUNCS functions
same_profgen() {
	local data=$1 min=$2
	shift 2
	"$PROFGEN" --format=text --binary objdump-g --perfdata "$data" -o ref.prof "$@" 2> pg.log
	perfdecode "$data" | preagg -b objdump-g | afdowrite -o our.prof objdump-g
	echo "$(wc -l < ref.prof) lines, $(grep -c '^[^ ]' ref.prof) functions from llvm-profgen" >&2
	[ "$(grep -c '^[^ ]' ref.prof)" -ge "$min" ]
	same_file ref.prof our.prof
}

@test "afdowrite large: objdump -g, cfgwalk branch stacks, uniform and skewed: the same bytes as llvm-profgen-19" {
	cfgwalk -D uniform -n 30000 -s 3 -o u.events objdump-g
	mkperfdata -o u.data u.events
	same_profgen u.data 1500
	cfgwalk -D skewed -n 30000 -s 4 -o s.events objdump-g
	mkperfdata -o s.data s.events
	same_profgen s.data 500
}

@test "afdowrite large: objdump -g, a real cpu-clock recording of its workload: llvm-profgen-19 --leading-ip-only's profile" {
	cp "$OUT/objdump-g-input" .
	perf record -q -e cpu-clock -c 50000 -o cc.data ./objdump-g -d -r -t -s objdump-g-input > /dev/null 2>&1
	perfdecode cc.data > cc.events
	# llvm-profgen reads sample addresses only beside branch stacks
	awk '/^# profpipe-events 2/ { v2 = 1 }
		    $1 == "sample" && NF == 6 + v2 && $6 != "-" { print $0 " " $6 "/" $6 "/-"; next } { print }' \
	    cc.events > ip.events
	mkperfdata -o ip.data ip.events
	"$PROFGEN" --format=text --binary objdump-g --perfdata ip.data -o ref.prof --leading-ip-only 2> pg.log
	preagg -b objdump-g < cc.events | afdowrite -o our.prof objdump-g
	echo "$(grep -c '^sample' cc.events) samples; $(grep -c '^[^ ]' ref.prof) functions" >&2
	[ "$(grep -c '^[^ ]' ref.prof)" -ge 20 ]
	same_file ref.prof our.prof
}

@test "afdowrite large: clang-19 -fprofile-sample-use compiles objdump.c and i386-dis.c to the same IR with both profiles; extbinary conversions byte-equal" {
	need_tool llvm-profdata
	cfgwalk -D skewed -n 30000 -s 5 -o s.events objdump-g
	mkperfdata -o s.data s.events
	same_profgen s.data 500
	mkdir kit
	tar xf "$OUT/objdump-g.kit.tar" -C kit
	[ -s kit/b/objdump-g.cmds ]
	local n=0 d cmd p
	while read -r d cmd; do
		n=$((n + 1))
		for p in ref our; do
			(cd "kit/b/$d" && eval "$cmd" -fprofile-sample-use="$TMP/$p.prof" \
			    -S -emit-llvm -o "$TMP/$p.$n.ll")
		done
		echo "$d: $cmd" >&2
		# the profile was used: entry counts and branch weights
		grep -q 'function_entry_count", i64 [1-9][0-9]' our.$n.ll
		grep -q 'branch_weights' our.$n.ll
		same_file ref.$n.ll our.$n.ll
	done < kit/b/objdump-g.cmds
	[ "$n" -eq 2 ]
	for p in ref our; do
		$L/llvm-profdata merge --sample --extbinary -o $p.extbin $p.prof
	done
	same_file ref.extbin our.extbin
}
