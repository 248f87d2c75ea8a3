#!/usr/bin/env bats
# yamlwrite: the pipeline perfdecode | preagg | yamlwrite against
# perf2bolt-19 --profile-format=yaml on the same perf.data, compared as
# data (tests/data/yamlwrite/yamlcmp.py: hashes excluded, calls and
# successors of a block as multisets, an empty function list fails).
# Branch stacks follow the programs' real control flow: cfgwalk walks
# their code, brtrace records a real run.

load common
bats_require_minimum_version 1.5.0

P2B=/usr/lib/llvm-19/bin/perf2bolt
BOLT=/usr/lib/llvm-19/bin/llvm-bolt

setup() {
	setup_tmp
	SRC="$DATA/functab"
	SW="$DATA/fdatawrite/sw.c"
	CMP="$DATA/yamlwrite/yamlcmp.py"
}

# compare BIN PERFDATA [perf2bolt options]: both pre-aggregated forms
# through yamlwrite equal perf2bolt's YAML
compare() {
	local bin=$1 data=$2
	shift 2
	"$P2B" "$@" -p "$data" --profile-format=yaml -o "$bin.ref.yaml" "$bin" \
	    > "$bin.p2b.log" 2>&1
	perfdecode "$data" | preagg -b "$bin" > "$bin.pa"
	yamlwrite -o "$bin.yaml" "$bin" "$bin.pa"
	python3 "$CMP" "$bin.ref.yaml" "$bin.yaml"
	perfdecode "$data" | preagg --legacy -b "$bin" | yamlwrite "$bin" > "$bin.leg.yaml"
	python3 "$CMP" "$bin.ref.yaml" "$bin.leg.yaml"
}

walk() {	# walk BIN N: a cfgwalk perf.data of N samples
	cfgwalk -n "$2" -s 7 -o "$1.events" "$1"
	mkperfdata -o "$1.data" "$1.events"
}

@test "yamlwrite: switch jump tables and a computed goto: clang-19 non-PIE, gcc without relocations" {
	need_tool perf2bolt clang-19 gcc
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw1
	gcc -O2 "$SW" -o sw3
	for b in sw1 sw3; do
		walk $b 3000
		compare $b $b.data
	done
	# the jump table's targets are successors, the indirect jump's calls
	# are written
	python3 - sw1.yaml <<'PY'
import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))
op = [f for f in p['functions'] if f['name'] == 'op/1'][0]
assert max(len(b.get('succ', [])) for b in op['blocks']) >= 8
PY
}

@test "yamlwrite: bad inputs are clear errors and leave no -o file" {
	clang-19 -O2 -o prog "$SW"
	printf 'B 401000 401010 1 0\nQ 1 2\n' > bad.pa
	run yamlwrite -o out.yaml prog bad.pa
	[ "$status" -eq 1 ]
	[[ "$output" == "yamlwrite: bad.pa:2: "* ]]
	[ ! -e out.yaml ]
	printf 'F 401000\n' > cut.pa
	run yamlwrite -o out.yaml prog cut.pa
	[ "$status" -eq 1 ]
	[[ "$output" == "yamlwrite: cut.pa:1: "* ]]
	[ ! -e out.yaml ]
	printf 'B 1%064d 2 1 0\n' 0 > big.pa
	run yamlwrite -o out.yaml prog big.pa
	[ "$status" -eq 1 ]
	[ ! -e out.yaml ]
	echo hello > notelf
	run yamlwrite notelf bad.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"not an ELF file"* ]]
	run yamlwrite
	[ "$status" -eq 2 ]
	run yamlwrite prog missing.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"missing.pa"* ]]
}
