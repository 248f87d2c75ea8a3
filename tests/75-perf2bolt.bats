#!/usr/bin/env bats
# profpipe-perf2bolt: perf2bolt's command line over the filters.  The
# same arguments given to perf2bolt-19 and to profpipe-perf2bolt write
# the same fdata (sorted) and the same YAML profile as data, hashes
# included (tests/data/yamlwrite/yamlcmp.py), for
# branch-stack recordings that follow the programs' real control flow
# (cfgwalk), real cpu-clock recordings (-nl), several recordings (their
# sum: perf2bolt-19 keeps the last -p, so the reference is the sum of
# one perf2bolt-19 run per recording), pre-aggregated input, a BOLTed
# binary, and several binaries at once (a program and its shared
# library at a random address), each as perf2bolt-19 profiles it alone.

load common
bats_require_minimum_version 1.5.0

P2B=/usr/lib/llvm-19/bin/perf2bolt	# perf2bolt-19 on PATH is not recognised as perf2bolt

setup() {
	setup_tmp
	CMP="$DATA/yamlwrite/yamlcmp.py"
	SW="$DATA/fdatawrite/sw.c"
	PD="$DATA/perf2bolt"
}

walk() {	# walk BIN N [cfgwalk options]: a cfgwalk perf.data of N samples
	local b=$1 n=$2
	shift 2
	cfgwalk -n "$n" "$@" -o "$b.events" "$b"
	mkperfdata -o "$b.data" "$b.events"
}

# sum fdata files as LLVM main's perf2bolt sums several -p (and its
# merge-fdata: merge-fdata-19 does not add mispredictions, llvm#119652):
# counts and mispredictions of equal lines added, sorted
fsum() {
	awk 'NF == 8 && $1 ~ /^[0-9]$/ && $4 ~ /^[0-9]$/ {
		k = $1 " " $2 " " $3 " " $4 " " $5 " " $6; m[k] += $7; c[k] += $8; next }
	    NF == 4 && $1 ~ /^[0-9]$/ { k = $1 " " $2 " " $3; c[k] += $4; next }
	    { h[$0] = 1 }
	    END { for (x in h) print x
		for (k in c) print k, ((k in m) ? m[k] " " : "") c[k] }' "$@" | sort
}

# same ARGS...: perf2bolt-19 ARGS and profpipe-perf2bolt ARGS, with -o
# (and -w, when ARGS has -w) renamed: the same sorted fdata or the same
# YAML; the fdata holds at least $MIN lines
same() {
	local fmt=fdata a
	for a in "$@"; do
		case $a in --profile-format=yaml) fmt=yaml ;; esac
	done
	"$P2B" "$@" -o ref.out > p2b.log 2>&1 || { tail -5 p2b.log >&2; return 1; }
	profpipe-perf2bolt "$@" -o ours.out
	if [ $fmt = yaml ]; then
		python3 "$CMP" ref.out ours.out
	else
		sort ref.out > ref.s
		sort ours.out > ours.s
		echo "$(grep -c . ref.s) lines" >&2
		[ "$(grep -c . ref.s)" -ge "${MIN:-1}" ]
		same_file ref.s ours.s
	fi
}

@test "profpipe-perf2bolt: branch stacks of a non-PIE and a PIE: perf2bolt-19's fdata and YAML; -v prints the pipeline, which runs as printed" {
	need_tool perf2bolt clang-19 gcc
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw1
	gcc -O2 -fpie -pie "$SW" -o sw2
	walk sw1 3000 -s 7
	walk sw2 3000 -s 8 -b 5581a2c4d000
	for b in sw1 sw2; do
		MIN=20 same -p $b.data $b
		same -p $b.data --profile-format=yaml $b
		# -o and -w from one pass
		"$P2B" -p $b.data -o r.fdata -w r.yaml $b > log 2>&1
		profpipe-perf2bolt -p $b.data -o o.fdata -w o.yaml $b
		sort r.fdata > r.s
		sort o.fdata > o.s
		same_file r.s o.s
		python3 "$CMP" r.yaml o.yaml
	done
	# -v: the pipeline on the standard error, as a command that runs
	run --separate-stderr profpipe-perf2bolt -v -p sw1.data -o v.fdata -w v.yaml sw1
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	echo "$stderr"
	[ "$stderr" = "profpipe-perf2bolt: perfdecode sw1.data | preagg -b sw1 --branches -M v.fdata.mem | tee >(yamlwrite sw1 > v.yaml) | fdatawrite -M v.fdata.mem sw1 > v.fdata" ]
	[ ! -e v.fdata.mem ]
	mkdir byhand
	(cd byhand && cp ../sw1 ../sw1.data . &&
	    bash -o pipefail -c "${stderr#profpipe-perf2bolt: }; wait")
	cmp v.fdata byhand/v.fdata
	# the >(yamlwrite) of the printed command may still run after the
	# pipeline ends (bash waits for no process substitution; yamlwrite
	# starts LLVM's MC layer for its hashes): its output, once complete
	for i in $(seq 300); do
		cmp -s v.yaml byhand/v.yaml && break
		sleep 0.1
	done
	cmp v.yaml byhand/v.yaml
	run --separate-stderr profpipe-perf2bolt -v=0 -p sw1.data -o v.fdata sw1
	[ "$stderr" = "" ]
}

@test "profpipe-perf2bolt: -nl on real cpu-clock recordings and on branch-stack samples' ips: perf2bolt-19 -nl's fdata and YAML" {
	need_tool perf2bolt clang-19 perf
	clang-19 -O2 -fpie -pie -Wl,--emit-relocs -fno-inline "$SW" -o sw
	n=0
	while [ "$n" -lt 300 ]; do
		perf record -q -e cpu-clock -c 20000 -o cpu.data -- ./sw 2000000 > /dev/null 2>&1
		n=$(perf script -i cpu.data 2>/dev/null | wc -l)
	done
	for a in -nl --nl=1; do
		MIN=10 same $a -p cpu.data sw
	done
	# LLVM main's spellings of -nl
	for a in --ba -basic-events; do
		profpipe-perf2bolt $a -p cpu.data -o ba.fdata sw
		cmp ba.fdata ours.out
	done
	same -nl -p cpu.data --profile-format=yaml sw
	# -nl on a branch-stack recording: the samples' ips
	walk sw 2000 -s 9 -b 55d0e1f2a000
	MIN=10 same -nl -p sw.data sw
	# without -nl, a recording without branch stacks gives what
	# perf2bolt-19 gives: nothing
	MIN=0 same -p cpu.data sw
	[ ! -s ours.out ]
	run ! grep -q no_lbr ours.out
}

@test "profpipe-perf2bolt: several recordings are their sum (-p a -p b, -p a,b), as LLVM main reads them; each a recording of its own" {
	need_tool perf2bolt clang-19
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	# two recordings of different processes that reuse one pid, mapped
	# at different places (the second run at another address: a PIE)
	clang-19 -O2 -fpie -pie -Wl,--emit-relocs "$SW" -o pie
	cfgwalk -n 1500 -s 1 -p 777 -b 555555554000 -o a.events pie
	cfgwalk -n 1700 -s 2 -p 777 -b 7f2222221000 -o b.events pie
	mkperfdata -o a.data a.events
	mkperfdata -o b.data b.events
	walk sw 1000 -s 3
	for d in a b; do
		"$P2B" -p $d.data -o $d.fdata pie > $d.log 2>&1
		"$P2B" -p $d.data -o $d.yaml --profile-format=yaml pie > $d.ylog 2>&1
	done
	fsum a.fdata b.fdata > want.s
	[ "$(grep -c . want.s)" -ge 20 ]
	profpipe-perf2bolt -p a.data -p b.data -o ab.fdata pie
	sort ab.fdata > ab.s
	same_file want.s ab.s
	profpipe-perf2bolt --perfdata=a.data,b.data -o ab2.fdata pie
	sort ab2.fdata > ab2.s
	same_file want.s ab2.s
	# three: the same one twice counts twice
	fsum a.fdata b.fdata a.fdata > want3.s
	profpipe-perf2bolt -p a.data -p b.data -p a.data -o ab3.fdata pie
	sort ab3.fdata | cmp - want3.s
	# a file whose name holds a comma is one recording
	cp a.data 'a,b.data'
	profpipe-perf2bolt -p 'a,b.data' -o c.fdata pie
	sort c.fdata | cmp - <(sort a.fdata)
	# the YAML of the sum: each function's counts are the sums
	profpipe-perf2bolt -p a.data -p b.data --profile-format=yaml -o ab.yaml pie
	python3 - a.yaml b.yaml ab.yaml <<'PY'
import sys, yaml
def load(p):
    d = yaml.safe_load(open(p))
    return {f['name']: f for f in d['functions']}
a, b, ab = load(sys.argv[1]), load(sys.argv[2]), load(sys.argv[3])
assert set(ab) == set(a) | set(b), (set(ab) ^ (set(a) | set(b)))
for n, f in ab.items():
    want = a.get(n, {}).get('exec', 0) + b.get(n, {}).get('exec', 0)
    assert f['exec'] == want, (n, f['exec'], want)
    cnt = lambda g: sum(s['cnt'] for bl in g.get('blocks', []) or [] for s in bl.get('succ', []) or [])
    assert cnt(f) == cnt(a.get(n, {})) + cnt(b.get(n, {})), n
print(len(ab), 'functions summed')
PY
}

@test "profpipe-perf2bolt: --pa input (LLVM 19's form and ours): perf2bolt-19 --pa's fdata and YAML; several are summed" {
	need_tool perf2bolt clang-19
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	walk sw 3000 -s 4
	perfdecode sw.data | preagg --legacy -b sw > leg.pa
	MIN=20 same --pa -p leg.pa sw
	same --pa -p leg.pa --profile-format=yaml sw
	# our default form, which perf2bolt-19 does not read: the same as
	# perf2bolt -p on the recording
	perfdecode sw.data | preagg -b sw > cur.pa
	"$P2B" -p sw.data -o want.fdata sw > log 2>&1
	profpipe-perf2bolt --pa -p cur.pa -o cur.fdata sw
	sort want.fdata > want.s
	sort cur.fdata | cmp - want.s
	# two: summed (preagg --merge)
	run --separate-stderr profpipe-perf2bolt -v --pa -p leg.pa -p cur.pa -o two.fdata sw
	[ "$stderr" = "profpipe-perf2bolt: preagg --merge leg.pa cur.pa | fdatawrite sw > two.fdata" ]
	fsum want.fdata want.fdata > want2.s
	sort two.fdata | cmp - want2.s
	# --profile-format=preagg: the stream itself
	profpipe-perf2bolt -p sw.data --profile-format=preagg -o s.pa sw
	cmp s.pa <(perfdecode sw.data | preagg -b sw --branches)
}

@test "profpipe-perf2bolt: a BOLTed binary with BAT, its input found from .note.bolt_info: perf2bolt-19's boltedcollection fdata and BAT YAML, hashes included" {
	need_tool perf2bolt llvm-bolt clang-19
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	walk sw 3000 -s 5
	"$P2B" -p sw.data -o sw.fdata sw > log 2>&1
	mkdir -p opt
	(cd opt && /usr/lib/llvm-19/bin/llvm-bolt ../sw -o sw.bolt -data ../sw.fdata \
	    --enable-bat -reorder-blocks=ext-tsp -split-functions -split-all-cold > bolt.log 2>&1)
	cfgwalk -n 3000 -d 24 -s 3 -o b.events opt/sw.bolt
	mkperfdata -o b.data b.events
	MIN=20 same -p b.data opt/sw.bolt
	grep -q boltedcollection ours.out
	# YAML: BOLT's hashes, from the tables or (code BOLT left in place)
	# from LLVM's MC layer, compared by yamlcmp.py
	"$P2B" -p b.data -o r.fdata -w r.yaml opt/sw.bolt > log 2>&1
	profpipe-perf2bolt -v -p b.data -o o.fdata -w o.yaml opt/sw.bolt 2> v.txt
	grep -q 'batmap opt/sw.bolt opt/../sw' v.txt
	python3 "$CMP" r.yaml o.yaml
	# -nl on it: perf2bolt-19 -nl's fdata
	MIN=5 same -nl -p b.data opt/sw.bolt
	# the input named, and checked
	profpipe-perf2bolt --bat-input=sw -p b.data -o n.fdata opt/sw.bolt
	cmp n.fdata o.fdata
	run profpipe-perf2bolt --bat-input=opt/sw.bolt -p b.data -o x.fdata opt/sw.bolt
	[ "$status" -eq 1 ]
	[[ "$output" == *"not the input of opt/sw.bolt"* ]]
	run profpipe-perf2bolt --bat-input=sw -p b.data -o x.fdata sw
	[ "$status" -eq 1 ]
	[[ "$output" == *"no BOLT address translation tables"* ]]
	# the input gone: said, and how to name it
	mv sw sw.away
	run profpipe-perf2bolt -p b.data -o x.fdata opt/sw.bolt
	[ "$status" -eq 1 ]
	[[ "$output" == *"--bat-input"* ]]
	[ ! -e x.fdata ]
}

@test "profpipe-perf2bolt: a program and its shared library in one pass: each profile is perf2bolt-19's for that binary alone (a real cpu-clock recording; branch stacks with the library at a random address)" {
	need_tool perf2bolt clang-19 perf
	clang-19 -O2 -fPIC -shared -Wl,--emit-relocs -o libfoo.so "$PD/foo.c"
	clang-19 -O2 -fpie -pie -Wl,--emit-relocs -o prog "$PD/prog.c" -L. -lfoo \
	    -Wl,-rpath,'$ORIGIN'
	# a real recording: the library wherever the loader put it
	n=0
	while [ "$n" -lt 300 ]; do
		perf record -q -e cpu-clock -c 20000 -o real.data -- ./prog 200000 > /dev/null 2>&1
		n=$(perf script -i real.data 2>/dev/null | wc -l)
	done
	profpipe-perf2bolt -nl -p real.data -o nl -w nly prog libfoo.so
	for b in prog libfoo.so; do
		"$P2B" -nl -p real.data -o $b.nl.fdata -w $b.nl.yaml $b > $b.log 2>&1
		sort $b.nl.fdata > r.s
		sort nl/$b.fdata > o.s
		echo "$b: $(grep -c . r.s) lines" >&2
		[ "$(grep -c . r.s)" -ge 3 ]
		same_file r.s o.s
		python3 "$CMP" $b.nl.yaml nly/$b.yaml
	done
	# branch stacks of both in one process, the library at a random
	# page-aligned address (away from cfgwalk's 7f3a1... library calls)
	lib=$(printf '%x' $((0x7f5000000000 + (RANDOM << 24) + (RANDOM << 12))))
	echo "library at $lib" >&2
	cfgwalk -n 2000 -s 5 -p 4242 -b 555555554000 -o p.ev prog
	cfgwalk -n 2000 -s 6 -p 4242 -b "$lib" -o l.ev libfoo.so
	{ grep -v '^exit\|^sample' p.ev; grep '^mmap' l.ev; grep '^sample' p.ev
	  grep '^sample' l.ev; grep '^exit' p.ev; } > m.ev
	mkperfdata -o m.data m.ev
	mkdir bins
	cp prog libfoo.so bins/
	profpipe-perf2bolt -v -p m.data -o lbr -w lbry bins 2> v.txt
	# one decoder, one aggregation, a writer per profile
	[ "$(grep -o perfdecode v.txt | wc -l)" -eq 1 ]
	[ "$(grep -o 'preagg ' v.txt | wc -l)" -eq 1 ]
	[ "$(grep -o fdatawrite v.txt | wc -l)" -eq 2 ]
	for b in prog libfoo.so; do
		"$P2B" -p m.data -o $b.fdata -w $b.yaml bins/$b > $b.log 2>&1
		sort $b.fdata > r.s
		sort lbr/$b.fdata > o.s
		echo "$b: $(grep -c . r.s) lines" >&2
		[ "$(grep -c . r.s)" -ge 15 ]
		same_file r.s o.s
		python3 "$CMP" $b.yaml lbry/$b.yaml
	done
	# two binaries of one name cannot share a directory
	run profpipe-perf2bolt -p m.data -o x prog bins/prog
	[ "$status" -eq 1 ]
	# the writers themselves: one pass over one stream with build-id
	# locations, a profile per binary (-d), each perf2bolt-19's
	perfdecode m.data | preagg -b bins/prog -b bins/libfoo.so --branches > m.pa
	grep -q '^[BFT] [0-9a-f]*:' m.pa
	fdatawrite -v -d fdd bins < m.pa 2> fv.txt
	yamlwrite -d ydd bins/prog bins/libfoo.so < m.pa
	for b in prog libfoo.so; do
		grep -q "^fdatawrite: bins/$b: [1-9][0-9]* entries" fv.txt
		sort $b.fdata > r.s
		sort fdd/$b.fdata > o.s
		same_file r.s o.s
		python3 "$CMP" $b.yaml ydd/$b.yaml
	done
	[ "$(ls fdd | wc -l)" -eq 2 ]
	perfdecode real.data | preagg -b prog -b libfoo.so --basic > nl.pa
	fdatawrite -d nfd prog libfoo.so < nl.pa
	yamlwrite -d nyd prog libfoo.so < nl.pa
	for b in prog libfoo.so; do
		sort $b.nl.fdata > r.s
		sort nfd/$b.fdata > o.s
		same_file r.s o.s
		python3 "$CMP" $b.nl.yaml nyd/$b.yaml
	done
	# a bare address names none of several binaries: refused, with the
	# line, and no profile written
	printf 'B 1000 2000 1 0\n' > bare.pa
	for w in fdatawrite yamlwrite; do
		run $w -d bare prog libfoo.so < bare.pa
		[ "$status" -eq 1 ]
		[[ "$output" == "$w: <stdin>:1: a bare address (1000) with several binaries"* ]]
		[ ! -e bare/prog.fdata ]
		[ ! -e bare/prog.yaml ]
		run $w -d x -o y prog < bare.pa
		[ "$status" -eq 2 ]
		run $w bins < bare.pa
		[ "$status" -eq 2 ]
		[[ "$output" == *"a directory: give -d"* ]]
		run $w -d x prog bins/prog < m.pa
		[ "$status" -eq 1 ]
		[[ "$output" == *"two binaries of one name"* ]]
	done
}

@test "profpipe-perf2bolt: --pid and the build-id: perf2bolt-19's choices" {
	need_tool perf2bolt clang-19
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	cfgwalk -n 800 -s 1 -p 100 -o a.ev sw
	cfgwalk -n 900 -s 2 -p 200 -o b.ev sw
	{ grep -v '^sample\|^exit' a.ev; grep '^comm\|^mmap' b.ev
	  grep '^sample' a.ev; grep '^sample' b.ev; grep '^exit' a.ev
	  grep '^exit' b.ev; } > ab.ev
	mkperfdata -o ab.data ab.ev
	MIN=10 same -p ab.data sw
	MIN=10 same -p ab.data --pid=200 sw
	MIN=10 same -p ab.data --pid 100 sw
	# a recording of another build of the program, under its name
	clang-19 -O1 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o other
	bid=$(readelf -n other | awk '/Build ID/ { print $3 }')
	awk -v b="$bid" 'NR == 2 { print "buildid -1 " b " sw" } { print }' ab.ev > bid.ev
	grep -q "^buildid -1 $bid sw" bid.ev
	mkperfdata -o bid.data bid.ev
	run "$P2B" -p bid.data -o r.fdata sw
	[ "$status" -ne 0 ]
	run profpipe-perf2bolt -p bid.data -o o.fdata sw
	[ "$status" -eq 1 ]
	[[ "$output" == *"build-id"*"--ignore-build-id"* ]]
	[ ! -e o.fdata ]
	MIN=10 same --ignore-build-id -p bid.data sw
}

@test "profpipe-perf2bolt: perf2bolt's spellings; options it does not honour refused by name with exit 2 (every option perf2bolt-19 parses); usage errors" {
	need_tool perf2bolt clang-19 llvm-bolt-19
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	walk sw 1000 -s 6
	"$P2B" -p sw.data -o ref.fdata sw > log 2>&1
	sort ref.fdata > ref.s
	i=0
	for args in "-p=sw.data -o=x.fdata sw" "--p sw.data --o x.fdata sw" \
	    "--perfdata=sw.data -o x.fdata sw" "-perfdata sw.data -o x.fdata -- sw" \
	    "-p sw.data -o y.fdata -o x.fdata sw" "-p sw.data -o x.fdata -nl=0 sw" \
	    "-p sw.data -o x.fdata --nl=false --pa=FALSE --aggregate-only sw" \
	    "-p sw.data -o x.fdata --ignore-interrupt-lbr=true --parse-mem-profile=0 --filter-mem-profile sw" \
	    "-p sw.data -o x.fdata --profile-format fdata --pid=0 sw"; do
		rm -f x.fdata
		# perf2bolt-19 takes each of these (but LLVM main's flags)
		case $args in *parse-mem*) ;; *)
			"$P2B" $args > log 2>&1
			sort x.fdata | cmp - ref.s ;;
		esac
		rm -f x.fdata
		profpipe-perf2bolt $args
		sort x.fdata | cmp - ref.s
		i=$((i + 1))
	done
	# a response file, GNU-split
	printf -- '-p sw.data\n-o "r s.fdata"\nsw\n' > args.rsp
	profpipe-perf2bolt @args.rsp
	sort 'r s.fdata' | cmp - ref.s
	# refused by name, exit 2, nothing written
	for o in --itrace=i100usl --spe --use-event-pc --autofdo --max-samples=10 \
	    --time-aggr --impute-trace-fall-through --perfdata-jobs=2 -pj=2 \
	    --filter-mem-profile=false --generate-perf-script --perf-script-events=x \
	    --heatmap=h --bolt-info --log-file=l --print-options \
	    --print-all-options --ignore-interrupt-lbr=false; do
		run profpipe-perf2bolt -p sw.data -o z.fdata $o sw
		[ "$status" -eq 2 ]
		name=${o%%=*}
		[[ "$output" == *"option '$name' is not supported: "* ]] ||
		    [[ "$output" == *"option '$o' is not supported: "* ]]
		[ ! -e z.fdata ]
	done
	run profpipe-perf2bolt -p sw.data -o z.fdata --itrace=i100 sw
	[[ "$output" == *"perf inject --itrace"* ]]
	# every option the installed perf2bolt-19 parses (its own and
	# llvm-bolt's, which it parses whatever its mode): honoured, or
	# refused by name with exit 2 and nothing written, never "unknown"
	{ "$P2B" --help-list-hidden; llvm-bolt-19 --help-list-hidden; } |
	    sed -n 's/^  \(--*[A-Za-z0-9][-A-Za-z0-9_.]*\).*/\1/p' |
	    sort -u > p2bopts
	[ "$(wc -l < p2bopts)" -gt 250 ]
	nok=0
	nref=0
	while read -r o; do
		# -p, -o, -w, --pa: their values are files, tested above
		case $o in -p|--perfdata|--pa|-o|-w) continue ;; esac
		rm -f z.fdata
		run profpipe-perf2bolt -p sw.data -o z.fdata "$o=1" sw
		echo "$o: $status: ${lines[0]}"
		if [ "$status" -eq 0 ]; then
			nok=$((nok + 1))
			continue
		fi
		[ "$status" -eq 2 ]
		[[ "$output" == *"${o#-}"* ]]
		[[ "$output" != *"unknown option"* ]]
		[ ! -e z.fdata ]
		nref=$((nref + 1))
	done < p2bopts
	rm -f z.fdata
	echo "perf2bolt-19's options: $nok honoured, $nref refused by name" >&2
	[ "$nok" -ge 5 ]
	[ "$nref" -gt 200 ]
	run profpipe-perf2bolt -p sw.data -o z.fdata --lite sw
	[ "$status" -eq 2 ]
	[[ "$output" == *"option '--lite' is not supported: perf2bolt-19 takes it (an llvm-bolt option)"* ]]
	# unknown, glued values, bad values, missing -p, -o or binary
	for args in "-p sw.data -o z.fdata --frobnicate sw" "-psw.data -o z.fdata sw" \
	    "-p sw.data -oz.fdata sw" "-p sw.data -o z.fdata --nl=maybe sw" \
	    "-p sw.data -o z.fdata --pid=abc sw" "-p sw.data -o z.fdata --profile-format=YAML sw" \
	    "-o z.fdata sw" "-p sw.data sw" "-p sw.data -o z.fdata" \
	    "-p sw.data -o z.fdata -data=x sw" "-p sw.data -o z.fdata -o"; do
		run profpipe-perf2bolt $args
		[ "$status" -eq 2 ]
		[ ! -e z.fdata ]
	done
	run profpipe-perf2bolt -p sw.data -o z.fdata -psw.data sw
	[[ "$output" == *"unknown option '-psw.data'"* ]]
	run profpipe-perf2bolt --help
	[ "$status" -eq 0 ]
	[[ "$output" == usage:* ]]
	run profpipe-perf2bolt -h
	[ "$status" -eq 0 ]
	run profpipe-perf2bolt --version
	[ "$status" -eq 0 ]
	[[ "$output" == "profpipe-perf2bolt (profpipe) "* ]]
}

@test "profpipe-perf2bolt: a failed stage fails the run and leaves no output; an older profile stays as it was" {
	need_tool clang-19
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	walk sw 500 -s 6
	echo old > keep.fdata
	# a damaged recording: perfdecode says where and stops
	head -c 3000 sw.data > cut.data
	run profpipe-perf2bolt -p cut.data -o keep.fdata -w keep.yaml sw
	[ "$status" -eq 1 ]
	[[ "$output" == *"perfdecode: cut.data"* ]]
	[ "$(cat keep.fdata)" = old ]
	[ ! -e keep.yaml ]
	[ -z "$(ls -A | grep profpipe)" ]
	# a binary the writers cannot read (no symbol table)
	cp sw stripped
	strip stripped
	run profpipe-perf2bolt -p sw.data -o keep.fdata stripped
	[ "$status" -eq 1 ]
	[ "$(cat keep.fdata)" = old ]
	[ -z "$(ls -A | grep profpipe)" ]
	# a missing recording, a missing binary
	run profpipe-perf2bolt -p nothere.data -o keep.fdata sw
	[ "$status" -eq 1 ]
	run profpipe-perf2bolt -p sw.data -o keep.fdata nothere
	[ "$status" -eq 1 ]
	[ "$(cat keep.fdata)" = old ]
	# an output directory that cannot be written
	run profpipe-perf2bolt -p sw.data -o /nonexistent/dir/x.fdata sw
	[ "$status" -eq 1 ]
	# a device is written in place
	profpipe-perf2bolt -p sw.data -o /dev/null sw
	# the standard input (a pipe-mode recording)
	perfdecode sw.data > /dev/null
	profpipe-perf2bolt -p - -o stdin.fdata sw < sw.data
	profpipe-perf2bolt -p sw.data -o file.fdata sw
	cmp stdin.fdata file.fdata
}

@test "profpipe-perf2bolt: progress on a terminal's standard error, none otherwise or with -q" {
	need_tool clang-19 script
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	walk sw 20000 -s 6
	script -qec "profpipe-perf2bolt -p sw.data -o t.fdata sw" /dev/null > tty.txt
	grep -q 'perfdecode: sw.data: *[0-9]*%' tty.txt
	script -qec "profpipe-perf2bolt -q -p sw.data -o q.fdata sw" /dev/null > q.txt
	run ! grep -q '%' q.txt
	run --separate-stderr profpipe-perf2bolt -p sw.data -o n.fdata sw
	[ "$stderr" = "" ]
	cmp t.fdata n.fdata
}

@test "profpipe-perf2bolt: samples of memory events (perf record -d, mem-loads): perf2bolt-19's memory lines; --parse-mem-profile=false writes none" {
	need_tool perf2bolt clang-19 perf
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$DATA/fdatawrite/mem.c" -o memp
	perf record -q -d -e minor-faults/name=mem-loads/ -c 1 -o pf.data ./memp 200000 > /dev/null 2>&1 || true
	same -p pf.data memp
	grep -q '^4 ' ours.out
	profpipe-perf2bolt --parse-mem-profile=false -p pf.data -o nomem.fdata memp
	run ! grep -q '^4 ' nomem.fdata
	# many: the driver holds preagg's memory samples (here 400 kB) until
	# fdatawrite, which reads its profile first, asks for them
	python3 - memp > big.events <<'PY'
import subprocess, sys
out = subprocess.run(['llvm-nm-19', sys.argv[1]], capture_output=True, text=True).stdout
main = int([l.split()[0] for l in out.splitlines() if l.endswith(' main')][0], 16)
print('# profpipe-events 2\ncomm 4242 4242 1 1 memp')
print('mmap 4242 4242 2 401000 1000 1000 r-xp - memp')
for i in range(200000):
    print('sample 4242 4242 %d mem-loads %x %x' % (10 + i, main + i % 8, 0x400000 + (i * 7) % 0x5000))
PY
	mkperfdata -o big.data big.events
	perfdecode big.data | preagg -b memp --branches -M big.mem > /dev/null
	[ "$(wc -c < big.mem)" -gt 200000 ]
	MIN=5000 same -p big.data memp
}

# the stages the driver (pid $1) has started, once there are $2
stages_of() {
	local i kids
	for i in $(seq 100); do
		kids=$(pgrep -P "$1" | tr '\n' ' ')
		[ "$(echo $kids | wc -w)" -lt "$2" ] || break
		sleep 0.1
	done
	echo $kids
}

# whether process $1 runs (not ended, nor a zombie)
running() {
	[ -r "/proc/$1/stat" ] &&
	    [ "$(sed 's/.*) \([A-Za-z]\).*/\1/' "/proc/$1/stat" 2>/dev/null)" != Z ]
}

# which of the processes $@ still run after up to 10 seconds
alive_after() {
	local i k left
	for i in $(seq 100); do
		left=
		for k in "$@"; do
			if running "$k"; then
				left="$left $k"
			fi
		done
		[ -n "$left" ] || break
		sleep 0.1
	done
	echo $left
}

# WAITED: the exit status of background job $1, which must end within
# $2 seconds (else killed, and 255): a regression fails, never hangs
wait_for() {
	local i
	for i in $(seq $(($2 * 10))); do
		running "$1" || break
		sleep 0.1
	done
	WAITED=0
	if running "$1"; then
		kill -KILL "$1"
		wait "$1" || true
		WAITED=255
		return
	fi
	wait "$1" || WAITED=$?
}

teardown() {
	[ -z "${HOLD:-}" ] || kill "$HOLD" 2>/dev/null || true
}

@test "profpipe-perf2bolt: -w in a missing directory: exit 1, and -o's file is not left either" {
	need_tool clang-19
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	walk sw 500 -s 6
	# the named temporary files too (OUT_TEST_NAMED: a file system
	# without O_TMPFILE)
	for named in 0 1; do
		mkdir D
		run env OUT_TEST_NAMED=$named profpipe-perf2bolt -p sw.data -o D/a -w /missing/a.yaml sw
		[ "$status" -eq 1 ]
		[ "$output" = "profpipe-perf2bolt: /missing/a.yaml: No such file or directory" ]
		[ -z "$(ls -A D)" ]
		rmdir D
	done
}

@test "profpipe-perf2bolt: an output that cannot be named (names of 256, 5,000 and 100,000 characters; a directory in its place at the end): exit 1, no file left" {
	need_tool clang-19
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	walk sw 500 -s 6
	ls -A > before
	for named in 0 1; do
		for n in 256 5000 100000; do
			long=$(printf "%${n}s" | tr ' ' n)
			run env OUT_TEST_NAMED=$named profpipe-perf2bolt -p sw.data -o "$long" sw
			[ "$status" -eq 1 ]
			[ "$output" = "profpipe-perf2bolt: $long: File name too long" ]
			run env OUT_TEST_NAMED=$named profpipe-perf2bolt -p sw.data -o ok.fdata -w "$long" sw
			[ "$status" -eq 1 ]
			[ "$output" = "profpipe-perf2bolt: $long: File name too long" ]
			ls -A | cmp - before
		done
		# the profile's name taken by a directory while the stages run:
		# the rename fails, exit 1, the YAML profile is not left either
		mkfifo in.fifo
		env OUT_TEST_NAMED=$named profpipe-perf2bolt -p - -o late.fdata -w late.yaml sw < in.fifo 2> err 3>&- &
		drv=$!
		exec 4> in.fifo
		[ "$(echo $(stages_of $drv 4) | wc -w)" -ge 4 ]
		mkdir late.fdata
		cat sw.data >&4
		exec 4>&-
		wait_for $drv 60
		cat err
		[ "$WAITED" -eq 1 ]
		[ "$(cat err)" = "profpipe-perf2bolt: late.fdata: Is a directory" ]
		[ -d late.fdata ]
		[ -z "$(ls -A late.fdata)" ]
		[ ! -e late.yaml ]
		rmdir late.fdata
		rm in.fifo err
		ls -A | cmp - before
	done
}

@test "profpipe-perf2bolt: -p /dev/zero, a FIFO of zeros, a directory, /dev/null: a clear message, exit 1, never a hang" {
	need_tool clang-19
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	# the first line perfdecode's (preagg may say then what it saw)
	run timeout 30 profpipe-perf2bolt -p /dev/zero -o z.fdata -w z.yaml sw
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "perfdecode: /dev/zero: offset 0x0: bad magic 0x0000000000000000, not a perf.data file" ]
	run timeout 30 profpipe-perf2bolt -p - -o z.fdata sw < /dev/zero
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "perfdecode: <stdin>: offset 0x0: bad magic 0x0000000000000000, not a perf.data file" ]
	mkfifo zero.fifo
	cat /dev/zero > zero.fifo 2>/dev/null 3>&- &
	run timeout 30 profpipe-perf2bolt -p zero.fifo -o z.fdata sw
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "perfdecode: zero.fifo: offset 0x0: bad magic 0x0000000000000000, not a perf.data file" ]
	wait
	mkdir dir
	run timeout 30 profpipe-perf2bolt -p dir -o z.fdata sw
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "perfdecode: dir: offset 0x0: dir/data: No such file or directory" ]
	run timeout 30 profpipe-perf2bolt -p /dev/null -o z.fdata sw
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "perfdecode: /dev/null: offset 0x0: empty input, no perf.data header" ]
	[ "$(ls -A)" = "$(printf 'dir\nsw\nzero.fifo')" ]
}

@test "profpipe-perf2bolt: killed (SIGTERM, SIGINT, SIGHUP, SIGKILL) while it reads a FIFO: every stage ends with it, no output or temporary file is left" {
	need_tool clang-19
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	for sig in TERM INT HUP KILL; do
		# named temporary files (OUT_TEST_NAMED=1), which a handler
		# removes; anonymous ones, which even SIGKILL leaves no trace of
		for named in 1 0; do
			[ $sig != KILL ] || [ $named = 0 ] || continue
			mkdir "k$sig$named"
			cd "k$sig$named"
			mkfifo in.fifo
			# a writer that never writes nor closes
			sleep 600 > in.fifo 2>/dev/null 3>&- &
			HOLD=$!
			# a background job of a shell ignores SIGINT: not this one
			env --default-signal=INT,TERM,HUP OUT_TEST_NAMED=$named \
			    profpipe-perf2bolt -p - -o out.fdata -w out.yaml ../sw \
			    < in.fifo 2> ../err 3>&- &
			drv=$!
			kids=$(stages_of $drv 4)
			echo "$sig $named: driver $drv, stages $kids"
			ps -o pid,comm -p "$(echo $kids | tr ' ' ,)" | tr '\n' ' '
			[ "$(echo $kids | wc -w)" -eq 4 ]
			# the stages block no signal the driver does not
			for k in $kids; do
				[ "$(grep SigBlk /proc/$k/status)" = "$(grep SigBlk /proc/$drv/status)" ]
			done
			[ $named = 0 ] || [ "$(ls -A | grep -c '^\.profpipe\.')" -eq 2 ]
			kill -$sig $drv
			wait_for $drv 10
			[ "$WAITED" -eq $((128 + $(kill -l $sig))) ]
			left=$(alive_after $kids)
			[ -z "$left" ] || { ps -o pid,comm,stat -p "$(echo $left | tr ' ' ,)"; kill -KILL $left; }
			[ -z "$left" ]
			kill $HOLD
			[ "$(ls -A)" = in.fifo ]
			cd ..
		done
	done
}

@test "profpipe-perf2bolt: an output that is an input (-p, the binary, the standard input, a response file; by name, ./name, a hard or symbolic link), or -o and -w one file: refused before anything runs, exit 2" {
	need_tool clang-19
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	walk sw 300 -s 6
	cp sw.data keep
	cp sw sw.keep
	ln sw.data hard
	ln -s sw.data soft
	ls -A > before
	for o in sw.data ./sw.data hard soft "$PWD/sw.data" ../"$(basename "$PWD")"/sw.data; do
		run profpipe-perf2bolt -p sw.data -o "$o" sw
		[ "$status" -eq 2 ]
		[ "${lines[0]}" = "profpipe-perf2bolt: $o: the same file as the input sw.data: a tool never writes over its input" ]
		run profpipe-perf2bolt -p sw.data -o x.fdata -w "$o" sw
		[ "$status" -eq 2 ]
		[ "${lines[0]}" = "profpipe-perf2bolt: $o: the same file as the input sw.data: a tool never writes over its input" ]
		run profpipe-perf2bolt --pa -p sw.data -o "$o" sw
		[ "$status" -eq 2 ]
	done
	run profpipe-perf2bolt -p sw.data -o ./sw sw
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "profpipe-perf2bolt: ./sw: the same file as the input sw: a tool never writes over its input" ]
	run profpipe-perf2bolt -p - -o hard sw < sw.data
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "profpipe-perf2bolt: hard: the same file as the standard input: a tool never writes over its input" ]
	printf -- '-p sw.data -o args.rsp sw\n' > args.rsp
	run profpipe-perf2bolt @args.rsp
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "profpipe-perf2bolt: args.rsp: the same file as the input args.rsp: a tool never writes over its input" ]
	rm args.rsp
	cmp sw.data keep
	cmp sw sw.keep
	# -o and -w: by name, the file not there yet
	for w in x.fdata ./x.fdata "$PWD/x.fdata"; do
		run profpipe-perf2bolt -p sw.data -o x.fdata -w "$w" sw
		[ "$status" -eq 2 ]
		[ "${lines[0]}" = "profpipe-perf2bolt: $w: the same file as the output x.fdata: two outputs cannot be one file" ]
	done
	# and by inode
	echo old > x.fdata
	ln x.fdata y.fdata
	run profpipe-perf2bolt -p sw.data -o x.fdata -w y.fdata sw
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "profpipe-perf2bolt: y.fdata: the same file as the output x.fdata: two outputs cannot be one file" ]
	[ "$(cat x.fdata)" = old ]
	rm x.fdata y.fdata
	# several binaries: a YAML profile per binary in -o and in -w
	mkdir bins
	cp sw bins/
	run profpipe-perf2bolt -p sw.data --profile-format=yaml -o P -w ./P bins
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "profpipe-perf2bolt: ./P/sw.yaml: the same file as the output P/sw.yaml: two outputs cannot be one file" ]
	[ ! -e P ]
	rm -r bins
	run profpipe-perf2bolt -p sw.data -o - -w - sw
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "profpipe-perf2bolt: -o and -w both name the standard output" ]
	ls -A | cmp - before
	# a device is written in place: -o and -w may both be /dev/null
	profpipe-perf2bolt -p sw.data -o /dev/null -w /dev/null sw
	# -o - is the standard output, as perf2bolt's
	profpipe-perf2bolt -p sw.data -o - sw > std.fdata
	profpipe-perf2bolt -p sw.data -o file.fdata sw
	cmp std.fdata file.fdata
}

@test "profpipe-perf2bolt: a relocatable object or a core file as the binary: refused as perf2bolt-19 refuses it, exit 1" {
	need_tool perf2bolt clang-19
	clang-19 -O2 -fno-pie -no-pie -Wl,--emit-relocs "$SW" -o sw
	clang-19 -O2 -c "$SW" -o sw.o
	walk sw 300 -s 6
	run "$P2B" -p sw.data -o r.fdata sw.o
	[ "$status" -ne 0 ]
	[[ "$output" == *"'sw.o': no PT_LOAD pheader seen"* ]]
	run profpipe-perf2bolt -p sw.data -o o.fdata sw.o
	[ "$status" -eq 1 ]
	[ "$output" = "profpipe-perf2bolt: sw.o: no PT_LOAD program header: not an executable or shared object" ]
	[ ! -e o.fdata ]
	python3 -c 'import sys; b = bytearray(open("sw", "rb").read()); b[16:18] = (4).to_bytes(2, "little"); open("core", "wb").write(b)'
	run profpipe-perf2bolt -p sw.data -o o.fdata sw core
	[ "$status" -eq 1 ]
	[ "$output" = "profpipe-perf2bolt: core: a core file: not an executable or shared object" ]
	[ ! -e o ]
	# in a directory of binaries, the objects are not among them
	mkdir bins
	cp sw sw.o core bins/
	profpipe-perf2bolt -p sw.data -o prof bins
	[ "$(ls prof)" = sw.fdata ]
	profpipe-perf2bolt -p sw.data -o one.fdata sw
	cmp one.fdata prof/sw.fdata
}
