#!/usr/bin/env bats
# AArch64 graphs and the profiles written from them: the programs of
# tests/data/a64/build.sh (switch tables and a computed goto, C++ with
# exceptions, hand-written shapes, veneers, bad code; PIE and non-PIE,
# with and without relocations), cross-built and run under qemu-aarch64.
#  - every function's blocks and successors (tests/tools/cfgtest) as
#    perf2bolt-19 --print-all builds them (tests/data/a64/p2bcfg.py,
#    cfgcmp.py);
#  - perfdecode | preagg | fdatawrite (both pre-aggregated forms) writes
#    the fdata of perf2bolt-19 -p, yamlwrite the YAML of perf2bolt-19 -w
#    as data, BOLT's function and block hashes included
#    (tests/data/yamlwrite/yamlcmp.py), on branch stacks along the
#    programs' real control flow (cfgwalk walks their code, qtrace
#    records a real run under qemu) and on basic samples (qtrace -i,
#    perf2bolt -nl);
#  - llvm-bolt-19 prints the same with our profile as with perf2bolt's
#    (fdata; YAML, its hashes checked), and the optimized programs print
#    what the originals print;
#  - BOLTed with BAT: batmap | fdatawrite --bolted writes perf2bolt-19's
#    fdata on the BOLTed binary, yamlwrite --bat its YAML;
#  - bad code and damaged binaries: perf2bolt's graphs, or a clear
#    message, never a crash.

load common

P2B=/usr/lib/llvm-19/bin/perf2bolt	# perf2bolt-19 on PATH is not recognised as perf2bolt
BOLT=/usr/lib/llvm-19/bin/llvm-bolt
SYSROOT=/usr/aarch64-linux-gnu
PROGS="sw1 sw2 sw3 x1 x2 h1 h2 h3 f1 f2 f3 b1 b2 b3"
# llvm-bolt-19 --enable-bat with splitting.  crti.o's call_weak_fn starts
# at a $x mapping symbol, before any FILE symbol; split, BOLT writes its
# cold fragment's symbol twice, once as a FUNC named $x.cold.0, and
# perf2bolt-19 then stops on the BOLTed binary ("owning FILE symbol not
# found for symbol $x.cold.0"): call_weak_fn is left alone
BATOPTS="--enable-bat -reorder-blocks=ext-tsp -split-functions -split-all-cold -reorder-functions=hfsort -skip-funcs=call_weak_fn/1"

setup_file() {
	[ -x /usr/lib/llvm-19/bin/clang ] && [ -e $SYSROOT/lib/libc.so.6 ] || return 0
	"$TOP/tests/data/a64/build.sh" "$BATS_FILE_TMPDIR"
}

setup() {
	setup_tmp
	need_tool "$P2B" "$BOLT" clang-19 qemu-aarch64 python3
	if [ ! -e $SYSROOT/lib/libc.so.6 ]; then
		[ "${CI:-}" != true ] || { echo "arm64 cross libc missing under CI" >&2; return 1; }
		skip "libc6-dev-arm64-cross not installed"
	fi
	D="$BATS_FILE_TMPDIR"
	YCMP="$DATA/yamlwrite/yamlcmp.py"
}

qrun() {
	qemu-aarch64 -L $SYSROOT "$@"
}

# walk BIN N SEED [BIAS]: a cfgwalk perf.data of N samples of BIN
walk() {
	cfgwalk -n "$2" -s "$3" ${4:+-b "$4"} -o "$1.events" "$D/$1"
	mkperfdata -a aarch64 -o "$1.data" "$1.events"
}

# qwalk BIN SEED ARGS...: a qtrace perf.data of a real run of BIN
qwalk() {
	local b=$1 s=$2
	shift 2
	qtrace -m -p "$s" -o "$b.events" "$D/$b" "$@" > /dev/null
	mkperfdata -a aarch64 -o "$b.data" "$b.events"
}

# fdata BIN DATA MIN [real]: perf2bolt-19 -p's fdata (BIN.ref) and the
# pipeline's from both pre-aggregated forms (BIN.cur, BIN.leg) are equal,
# at least MIN lines; no trace of a walk mismatches perf2bolt's graphs
# (a real run's may: code such as a fall-through into the next function
# is none of BOLT's graphs)
fdata() {
	local b=$1 data=$2 min=$3 real=${4:-}
	"$P2B" -p "$data" -o "$b.ref" "$D/$b" > "$b.p2b.log" 2>&1
	perfdecode "$data" | preagg -b "$D/$b" > "$b.pa"
	fdatawrite -o "$b.cur" "$D/$b" "$b.pa"
	perfdecode "$data" | preagg --legacy -b "$D/$b" | fdatawrite "$D/$b" > "$b.leg"
	sort "$b.ref" > "$b.ref.s"
	sort "$b.cur" > "$b.cur.s"
	sort "$b.leg" > "$b.leg.s"
	echo "$b: $(wc -l < "$b.ref.s") lines from perf2bolt" >&2
	[ "$(wc -l < "$b.ref.s")" -ge "$min" ]
	[ -n "$real" ] ||
	    grep -Eq 'traces mismatching disassembled function contents: 0( |$)' "$b.p2b.log"
	same_file "$b.ref.s" "$b.cur.s"
	same_file "$b.ref.s" "$b.leg.s"
}

# yaml BIN DATA [perf2bolt options]: perf2bolt-19's YAML and yamlwrite's
# from both forms are equal as data
yaml() {
	local b=$1 data=$2
	shift 2
	"$P2B" "$@" -p "$data" --profile-format=yaml -o "$b.ref.yaml" "$D/$b" \
	    > "$b.yp.log" 2>&1
	if [ "${1:-}" = -nl ]; then
		perfdecode "$data" | preagg --basic -b "$D/$b" | yamlwrite -o "$b.yaml" "$D/$b"
		python3 "$YCMP" "$b.ref.yaml" "$b.yaml"
		return
	fi
	perfdecode "$data" | preagg -b "$D/$b" | yamlwrite -o "$b.yaml" "$D/$b"
	perfdecode "$data" | preagg --legacy -b "$D/$b" | yamlwrite -o "$b.leg.yaml" "$D/$b"
	python3 "$YCMP" "$b.ref.yaml" "$b.yaml"
	python3 "$YCMP" "$b.ref.yaml" "$b.leg.yaml"
}

# bolt_same BIN MIN RUNARGS [llvm-bolt options]: llvm-bolt-19 on BIN with
# BIN.ref (perf2bolt's fdata) and with BIN.cur (ours) prints the same, at
# least MIN functions have a profile, and the optimized BIN prints under
# qemu what BIN prints with RUNARGS
bolt_same() {
	local b=$1 min=$2 args=$3 opts n
	shift 3
	opts="-reorder-blocks=ext-tsp -split-functions -dyno-stats"
	if llvm-readelf-19 -SW "$D/$b" | grep -q '[.]rela[.]text'; then
		opts="$opts -reorder-functions=hfsort"
	fi
	# shellcheck disable=SC2086
	"$BOLT" "$D/$b" -o "$b.refbolt" -data "$b.ref" $opts "$@" > "$b.refbolt.log" 2>&1
	# shellcheck disable=SC2086
	"$BOLT" "$D/$b" -o "$b.bolt" -data "$b.cur" $opts "$@" > "$b.bolt.log" 2>&1
	sed "s/$b[.]refbolt/OUT/g" "$b.refbolt.log" > a.log
	sed "s/$b[.]bolt/OUT/g" "$b.bolt.log" > b.log
	same_file a.log b.log
	n=$(sed -n 's/^BOLT-INFO: \([0-9]*\) out of [0-9]* functions .* have non-empty execution profile$/\1/p' b.log)
	echo "$b: ${n:-0} functions with profile" >&2
	[ "${n:-0}" -ge "$min" ]
	grep -q 'basic block reordering modified layout of [1-9]' b.log
	# shellcheck disable=SC2086
	qrun "$D/$b" $args > "$b.out" 2>&1
	# shellcheck disable=SC2086
	qrun "./$b.bolt" $args > "$b.bolt.out" 2>&1
	[ -s "$b.out" ]
	same_file "$b.out" "$b.bolt.out"
}

@test "aarch64 graphs: every function's blocks and successors as perf2bolt-19 --print-all builds them" {
	local b
	for b in $PROGS; do
		"$P2B" --pa -p "$DATA/functab/empty.pa" -o /dev/null "$D/$b" --print-all \
		    > $b.all 2>&1
		python3 "$DATA/a64/p2bcfg.py" $b.all > $b.p2b
		cfgtest "$D/$b" > $b.cfg
		run python3 "$DATA/a64/cfgcmp.py" $b.p2b $b.cfg
		echo "$b: $output"
		[ "$status" -eq 0 ]
		[ "$(grep -c '^function ' $b.p2b)" -ge 10 ]
	done
	# BOLT 19 reads no AArch64 jump table: the switch is not simple (its
	# table dispatch takes the address of its own code); the computed
	# goto's indirect branch goes to the blocks data references (with
	# relocations), without them the function is not simple
	grep -q '^function op nonsimple reference to its own code' sw1.cfg
	grep -q '^  34-48 last 44 -> 24 48 58 6c$' sw1.cfg
	grep -q '^function run nonsimple unknown indirect jump' sw3.cfg
	# a literal pool lies in the block before it; pointer
	# authentication's return ends a block
	grep -A1 '^function island simple' h1.cfg | grep -q '^  0-14 last 8 entry -> 14$'
	grep -A3 '^function pac simple' h1.cfg | grep -q '^  10-1c last 18 ->$'
	# bad code: a function ending 2 bytes into its last word is read
	# to MaxSize; an undecodable word, data read as code where its
	# mapping symbol is gone
	grep -q '^  c-e last c ->$' b2.cfg
	grep -q '^function undec ignored' b1.cfg
	grep -q '^function pool simple' b1.cfg
	grep -q '^function pool ignored' b2.cfg
}

@test "aarch64 fdatawrite: the fdata of perf2bolt-19 -p on walks of every program (PIE and non-PIE, with and without relocations, veneers, bad code) and real runs under qemu" {
	walk sw1 3000 7
	fdata sw1 sw1.data 40
	walk sw2 3000 7 5500000000
	fdata sw2 sw2.data 40
	walk sw3 2000 3
	fdata sw3 sw3.data 40
	walk x1 3000 5 5500000000
	fdata x1 x1.data 40
	walk x2 3000 5
	fdata x2 x2.data 40
	walk h1 3000 5
	fdata h1 h1.data 60
	walk h2 2000 6
	fdata h2 h2.data 60
	walk f1 1000 3
	fdata f1 f1.data 10
	walk f2 1000 3 5500000000
	fdata f2 f2.data 10
	walk f3 1000 3 5500000000
	fdata f3 f3.data 10
	walk b1 1000 2
	fdata b1 b1.data 20
	walk b2 1000 2
	fdata b2 b2.data 20
	walk b3 1000 2 5500000000
	fdata b3 b3.data 20
	# branches into and out of veneers, exceptions thrown
	grep -q '__AArch64ADRPThunk_farf' f2.ref
	grep -q '__farf_veneer' f3.ref
	qwalk x1 5 150
	fdata x1 x1.data 40 real
	grep -q ' __cxa_throw@PLT ' x1.ref
	qwalk sw2 23 2000
	fdata sw2 sw2.data 40 real
	qwalk h3 9 60
	fdata h3 h3.data 40 real
}

@test "aarch64 fdatawrite: every instruction to the next five, hand-made, against perf2bolt-19 --pa (every program)" {
	local b
	for b in $PROGS; do
		llvm-objdump-19 -d --no-show-raw-insn "$D/$b" |
		    awk '/^ +[0-9a-f]+:/ { sub(":", "", $1); print $1 }' |
		    awk '{ a[NR] = $1 } END { for (i = 1; i <= NR; i++)
			for (j = 1; j <= 5 && i + j <= NR; j++) {
				print "F", a[i], a[i + j], 1
				print "f", a[i], a[i + j], 2 } }' > $b.pa
		"$P2B" --pa -p $b.pa -o $b.want "$D/$b" > $b.log 2>&1
		fdatawrite -o $b.cur "$D/$b" $b.pa
		sort $b.want > want.s
		sort $b.cur > cur.s
		echo "$b: $(wc -l < $b.pa) entries, $(wc -l < want.s) lines" >&2
		[ "$(wc -l < want.s)" -ge 10 ]
		same_file want.s cur.s
	done
}

@test "aarch64 yamlwrite: the YAML of perf2bolt-19 -w, as data, on walks and real runs (C, C++ with exceptions, shapes, veneers, PIE)" {
	walk sw1 3000 7
	yaml sw1 sw1.data
	walk x2 3000 5
	yaml x2 x2.data
	walk h1 3000 5
	yaml h1 h1.data
	walk f2 1000 3 5500000000
	yaml f2 f2.data
	walk b1 1000 2
	yaml b1 b1.data
	qwalk x1 5 150
	yaml x1 x1.data
	qwalk sw2 23 2000
	yaml sw2 sw2.data
	# calls into a secondary entry point, landing pads
	grep -q 'disc: 1' h1.yaml
	grep -q '__cxa_throw@PLT' x1.yaml
}

@test "aarch64 -nl: basic samples of real runs under qemu (qtrace -i): the fdata and YAML of perf2bolt-19 -nl" {
	local b
	qtrace -i -m -p 23 -o sw2.events "$D/sw2" 2000 > /dev/null
	qtrace -i -m -p 5 -o x1.events "$D/x1" 150 > /dev/null
	qtrace -i -m -p 3 -o h1.events "$D/h1" 100 > /dev/null
	for b in sw2 x1 h1; do
		mkperfdata -a aarch64 -o $b.data $b.events
		"$P2B" -nl -p $b.data -o $b.ref "$D/$b" > $b.p2b.log 2>&1
		perfdecode $b.data | preagg --basic -b "$D/$b" | fdatawrite "$D/$b" | sort > $b.cur.s
		sort $b.ref > $b.ref.s
		echo "$b: $(wc -l < $b.ref.s) lines" >&2
		[ "$(wc -l < $b.ref.s)" -ge 50 ]
		same_file $b.ref.s $b.cur.s
		yaml $b $b.data -nl
	done
}

@test "aarch64 llvm-bolt-19: the same log with our fdata as with perf2bolt's; the optimized programs print what the originals print under qemu" {
	walk sw1 3000 7
	fdata sw1 sw1.data 40
	bolt_same sw1 3 300
	# GNU ld's PIE: llvm-bolt-19 cannot place the computed goto's
	# labels of run ("unable to get new address"), with either profile
	qwalk sw2 23 2000
	fdata sw2 sw2.data 40 real
	bolt_same sw2 3 300 -skip-funcs=run
	walk sw3 2000 3
	fdata sw3 sw3.data 40
	bolt_same sw3 3 300
	qwalk x1 5 150
	fdata x1 x1.data 40 real
	bolt_same x1 5 200
	walk x2 3000 5
	fdata x2 x2.data 40
	bolt_same x2 5 200
	walk h1 3000 5
	fdata h1 h1.data 60
	bolt_same h1 10 50
	walk f1 1000 3
	fdata f1 f1.data 10
	bolt_same f1 2 20
	walk f3 1000 3 5500000000
	fdata f3 f3.data 10
	bolt_same f3 2 20
}

@test "aarch64 llvm-bolt-19 with our YAML: the same log as with perf2bolt's, hashes checked" {
	local b o="-reorder-blocks=ext-tsp -split-functions -reorder-functions=hfsort -dyno-stats"
	walk sw1 3000 7
	walk x2 3000 5
	walk h1 3000 5
	for b in sw1 x2 h1; do
		yaml $b $b.data
		# shellcheck disable=SC2086
		"$BOLT" "$D/$b" -o $b.a -data $b.ref.yaml $o > a.log 2>&1
		# shellcheck disable=SC2086
		"$BOLT" "$D/$b" -o $b.b -data $b.yaml $o > b.log 2>&1
		sed -i "s/$b[.]ref[.]yaml/DATA/g; s/$b[.]a/OUT/g" a.log
		sed -i "s/$b[.]yaml/DATA/g; s/$b[.]b/OUT/g" b.log
		same_file a.log b.log
		grep -q 'BOLT-INFO: [1-9][0-9]* out of [0-9]* functions .* have non-empty execution profile' b.log
		run grep -Ei 'stale|did not match|mismatch|invalid profile' b.log
		[ "$status" -eq 1 ]
		[ "$(qrun "$D/$b" 50)" = "$(qrun ./$b.b 50)" ]
	done
}

# bat BIN: BIN BOLTed with --enable-bat and splitting (a real run's
# profile leaves blocks cold), BIN.bat, and a cfgwalk perf.data of it,
# BIN.bw.data; the BOLTed program prints what BIN prints (but b1: the
# bad code BOLTed by llvm-bolt-19 prints another sum, with perf2bolt's
# profile as with any)
bat() {
	local b=$1
	qwalk $b 3 100
	"$P2B" -p $b.data -o $b.fdata "$D/$b" > /dev/null 2>&1
	# shellcheck disable=SC2086
	"$BOLT" "$D/$b" -o $b.bat -data $b.fdata $BATOPTS > $b.bat.log 2>&1
	[ $b = b1 ] || [ "$(qrun "$D/$b" 50)" = "$(qrun ./$b.bat 50)" ]
	batmap --dump $b.bat > $b.dump
	# stacks of 24: perf2bolt-19 drops two entries of every stack of a
	# BOLTed binary once it sees one of 32 (tests/40-batmap.bats)
	cfgwalk -d 24 -n 3000 -s 9 -o $b.bw.events $b.bat
	mkperfdata -a aarch64 -o $b.bw.data $b.bw.events
}

@test "aarch64 BAT: BOLTed with --enable-bat and splitting, profiled, batmap --past-end | fdatawrite --bolted --past-end (both forms): perf2bolt-19's fdata on the BOLTed binary; llvm-bolt-19 reads it as perf2bolt's; f*: yamlwrite --bat --past-end and the driver's -w: perf2bolt-19 -w's YAML" {
	local b n
	# f1, f2, f3: a callee 256 MB away; BOLT puts a long-jump stub
	# (adrp x16; add x16; br x16) at the end of a function whose call
	# cannot reach it, with no BAT entry: a branch to it translates past
	# the end of the input's function, which batmap writes beside its
	# stream (--past-end).  There perf2bolt also names the function
	# holding the callee's old code, which the input lacks (farsec/1);
	# batmap writes that end as the unknown location 0, which llvm-bolt
	# reads alike (batmap(1)): compared with that name made 0
	for b in sw1 x2 f1 f2 f3; do
		bat $b
		grep -q '^cold ' $b.dump
		"$P2B" -p $b.bw.data -o $b.bref $b.bat > $b.bref.log 2>&1
		perfdecode $b.bw.data | preagg --legacy -b $b.bat |
		    batmap -v --past-end $b.pe1 $b.bat "$D/$b" 2> $b.v |
		    fdatawrite --bolted --past-end $b.pe1 "$D/$b" > $b.bcur
		perfdecode $b.bw.data | preagg -b $b.bat > $b.bw.pa
		batmap --past-end $b.pe2 $b.bat "$D/$b" $b.bw.pa |
		    fdatawrite --bolted --past-end $b.pe2 "$D/$b" > $b.bcur2
		# the functions of the input (cfgtest lists them by name, as
		# BOLT 19 finds them); a name of perf2bolt's that is none of
		# them made 0 (farsec/1: the old code, named after its section)
		cfgtest "$D/$b" | awk '$1 == "function" { sub(/\/.*/, "", $2); print $2 }' > $b.fns
		awk 'FNR == NR { have[$1] = 1; next }
		    { for (k = 1; k <= 4; k += 3) { n = $(k + 1); sub(/\/.*/, "", n)
			if ($k == 1 && !(n in have)) { $k = 0; $(k + 1) = "[unknown]"; $(k + 2) = 0 } }
		      print }' $b.fns $b.bref | sort > a.s
		sort $b.bcur > b.s
		sort $b.bcur2 > c.s
		n=$(sed -n 's/.*--past-end: \([0-9]*\) lines.*/\1/p' $b.v)
		echo "$b: $(wc -l < a.s) lines, $n past the end of an input function, $(comm -3 <(sort $b.bref) a.s | wc -l) names the input lacks" >&2
		[ "$(wc -l < a.s)" -ge 50 ]
		case $b in f*) [ "${n:-0}" -ge 1 ] ;; esac
		same_file a.s b.s
		same_file a.s c.s
		# llvm-bolt-19 optimizes the input with either
		"$BOLT" "$D/$b" -o $b.r1 -data $b.bref -reorder-blocks=ext-tsp -dyno-stats > r1.log 2>&1
		"$BOLT" "$D/$b" -o $b.r2 -data $b.bcur -reorder-blocks=ext-tsp -dyno-stats > r2.log 2>&1
		sed -i "s/$b[.]r1/OUT/g; s/$b[.]bref/DATA/g" r1.log
		sed -i "s/$b[.]r2/OUT/g; s/$b[.]bcur/DATA/g" r2.log
		# f*: perf2bolt's name of a function the input lacks is one
		# more object whose profile llvm-bolt ignores; the rest the same
		case $b in f*) sed -i '/^BOLT-INFO: profile for [0-9]* objects was ignored$/d' \
		    r1.log r2.log ;; esac
		same_file r1.log r2.log
		grep -q 'have non-empty execution profile' r2.log
		case $b in f*) ;; *) continue ;; esac
		# f*: the YAML of perf2bolt-19 -w through BAT.  writeBATYAML
		# puts a branch end past the end of an input function in the
		# function's last block (getBlock: the last block at or below
		# the offset): batmap --yaml --past-end | yamlwrite --bat
		# --past-end write it; without the lines the edges and calls
		# are missing.  farsec/1 as in the fdata: a function the input
		# lacks, calls to it calls to fid 0 (cmpyaml.py --input-funcs)
		"$P2B" -p $b.bw.data -o $b.wref -w $b.yref $b.bat > $b.w.log 2>&1
		batmap --yaml --past-end $b.pe3 $b.bat "$D/$b" $b.bw.pa > $b.ypa
		yamlwrite -v --bat $b.bat --past-end $b.pe3 -o $b.yaml "$D/$b" $b.ypa 2> $b.yv
		yamlwrite --bat $b.bat -o $b.nope.yaml "$D/$b" $b.ypa
		llvm-readelf-19 -sW $b.bat > $b.syms
		run python3 "$DATA/yamlwrite-bat/cmpyaml.py" $b.yaml $b.yref --nobat $b.syms $b.dump --input-funcs $b.fns
		echo "$b YAML: $(wc -l < $b.pe3) lines past the end: $(echo "$output" | tail -1)" >&2
		[ "$status" -eq 0 ]
		[[ "$output" == *" stubs=1 differences=0" ]]
		grep -q '^yamlwrite: --past-end: [1-9][0-9]* lines read' $b.yv
		run python3 "$DATA/yamlwrite-bat/cmpyaml.py" $b.nope.yaml $b.yref --nobat $b.syms $b.dump --input-funcs $b.fns
		[ "$status" -eq 1 ]
		# the driver: -o and -w share batmap's one --past-end file
		profpipe-perf2bolt --bat-input="$D/$b" -p $b.bw.data -o $b.dw -w $b.dy $b.bat
		python3 "$DATA/yamlwrite-bat/cmpyaml.py" $b.dy $b.yref --nobat $b.syms $b.dump --input-funcs $b.fns
		awk 'FNR == NR { have[$1] = 1; next }
		    { for (k = 1; k <= 4; k += 3) { n = $(k + 1); sub(/\/.*/, "", n)
			if ($k == 1 && !(n in have)) { $k = 0; $(k + 1) = "[unknown]"; $(k + 2) = 0 } }
		      print }' $b.fns $b.wref | sort > a.s
		sort $b.dw > b.s
		same_file a.s b.s
		profpipe-perf2bolt --bat-input="$D/$b" -p $b.bw.data --profile-format=yaml -o $b.dy2 $b.bat
		same_file $b.dy $b.dy2
		[ $b = f1 ] || continue
		# a damaged --past-end file: a clear message, no output
		for l in '1 main 10 1 main:not an fdata branch line' \
		    '1 nosuch 10 1 main 4 0 1:no function nosuch in the input binary' \
		    '1 main 10000000000000000 1 main 4 0 1:offset out of range' \
		    '1 main 10 1 main 4 0 99999999999999999999999:count out of range' \
		    '0 [unknown] 0 1 main 4 0 1x:not an fdata branch line'; do
			printf '%s\n' "${l%%:*}" > bad.pe
			run yamlwrite --bat $b.bat --past-end bad.pe -o bad.yaml "$D/$b" $b.ypa
			[ "$status" -eq 1 ]
			[[ "$output" == "yamlwrite: bad.pe:1: ${l#*:}"* ]]
			[ ! -e bad.yaml ]
		done
		run yamlwrite --past-end bad.pe "$D/$b" $b.ypa
		[ "$status" -eq 2 ]
	done
}

@test "aarch64 BAT: perf2bolt-19 -w on the BOLTed binary (fdata and YAML in one run): batmap --yaml | fdatawrite --bolted, yamlwrite --bat, and the driver write both; perf2bolt -p -o without YAML: batmap | fdatawrite --bolted" {
	local b n
	# sw1 (C, switch tables), h1 and h3 (hand-written shapes, conditional
	# tail calls BOLT expands into two blocks of one input offset, an
	# untyped FDE-only function; non-PIE and PIE), b1 (data in code);
	# perf2bolt-19 -w crashes on the C++ programs (x1, x2) and on the
	# large program (segfault writing BAT YAML: tests/large)
	for b in sw1 h1 h3 b1; do
		bat $b
		# writing YAML on AArch64, perf2bolt disassembles the functions
		# with tables and no cold fragment, and finds no instruction in
		# those its mapping symbols make all data (every one up to the
		# first $d of the BOLTed code): no return there, and a branch
		# from one is kept, in its fdata too (batmap(1) --yaml)
		"$P2B" -p $b.bw.data -o $b.wref -w $b.yref $b.bat > $b.w.log 2>&1
		"$P2B" -p $b.bw.data -o $b.ref $b.bat > $b.r.log 2>&1
		perfdecode $b.bw.data | preagg -b $b.bat > $b.bw.pa
		batmap -v --yaml $b.bat "$D/$b" $b.bw.pa 2> $b.v > $b.ypa
		batmap $b.bat "$D/$b" $b.bw.pa | fdatawrite --bolted "$D/$b" | sort > o.s
		sort $b.ref > r.s
		echo "$b: $(wc -l < r.s) lines without -w, $(wc -l < $b.wref) with" >&2
		[ "$(wc -l < r.s)" -ge 50 ]
		same_file r.s o.s
		fdatawrite --bolted "$D/$b" $b.ypa | sort > o.s
		sort $b.wref > r.s
		same_file r.s o.s
		n=$(sed -n 's/.*--yaml: \([0-9]*\) branches from returns kept.*/\1/p' $b.v)
		echo "$b: $n branches from returns kept" >&2
		[ "${n:-0}" -ge 1 ]
		yamlwrite --bat $b.bat -o $b.yaml "$D/$b" $b.ypa
		llvm-readelf-19 -sW $b.bat > $b.syms
		run python3 "$DATA/yamlwrite-bat/cmpyaml.py" $b.yaml $b.yref --nobat $b.syms $b.dump
		echo "$output" | tail -3
		[ "$status" -eq 0 ]
		[[ "$output" == *" gblocks="[1-9]* ]]
		# the driver, with and without -w
		profpipe-perf2bolt --bat-input="$D/$b" -p $b.bw.data -o $b.dw -w $b.dy $b.bat
		sort $b.dw > o.s
		same_file r.s o.s
		python3 "$DATA/yamlwrite-bat/cmpyaml.py" $b.dy $b.yref --nobat $b.syms $b.dump
		profpipe-perf2bolt --bat-input="$D/$b" -p $b.bw.data -o $b.d $b.bat
		sort $b.d > o.s
		sort $b.ref > r.s
		same_file r.s o.s
	done
	# h1: functions with tables both without instructions and with
	python3 - "$DATA" h1 <<'PY'
import re, subprocess, sys
out = subprocess.run(['/usr/lib/llvm-19/bin/perf2bolt', '--pa', '-p', sys.argv[1] + '/functab/empty.pa',
                      '-o', '/dev/null', '-w', '/dev/null', sys.argv[2] + '.bat', '--print-disasm'],
                     capture_output=True, text=True).stdout
n = {}
cur = None
for l in out.splitlines():
    if l.startswith('  Address'):
        cur = int(l.split(':')[1], 16)
        n[cur] = 0
    elif cur is not None and re.match(r'^ +[0-9a-f]{8}: ', l):
        n[cur] += 1
hot = [int(l.split()[1], 16) for l in open(sys.argv[2] + '.dump') if l.startswith('hot ')]
empty = sum(1 for h in hot if n.get(h) == 0)
full = sum(1 for h in hot if n.get(h, 0) > 0)
print('h1: %d functions with tables disassembled empty, %d with instructions' % (empty, full), file=sys.stderr)
sys.exit(0 if empty >= 5 and full >= 5 else 1)
PY
}

@test "aarch64 bad code: functions, graphs and profiles of damaged binaries and words no decoder reads: perf2bolt's, or a clear error, never a crash" {
	local f
	# every word of h1's code, one at a time at random, made one LLVM
	# cannot decode: perf2bolt ignores the function, so do we
	python3 - "$D/h1" <<'PY'
import random, struct, sys
random.seed(5)
data = open(sys.argv[1], 'rb').read()
# the .text section's file range from the section headers
shoff, = struct.unpack_from('<Q', data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
secs = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize) for i in range(shnum)]
strtab = secs[shstrndx][4]
def name(s):
    o = strtab + s[0]
    return data[o:data.index(b'\0', o)].decode()
text = [s for s in secs if name(s) == '.text'][0]
for i in range(6):
    b = bytearray(data)
    for k in range(8):
        o = text[4] + 4 * random.randrange(text[5] // 4)
        b[o:o + 4] = b'\xff\xff\xff\xff'
    open('u%d' % i, 'wb').write(b)
PY
	for f in u0 u1 u2 u3 u4 u5; do
		"$P2B" --pa -p "$DATA/functab/empty.pa" -o /dev/null $f --print-all > $f.all 2>&1
		python3 "$DATA/a64/p2bcfg.py" $f.all > $f.p2b
		cfgtest $f > $f.cfg
		python3 "$DATA/a64/cfgcmp.py" $f.p2b $f.cfg
		grep -q ' ignored undecodable' $f.cfg
	done
	# random bytes anywhere, and cut short: a message or a profile
	walk h1 500 3
	perfdecode h1.data | preagg -b "$D/h1" > good.pa
	python3 - "$D/h1" <<'PY'
import random, sys
random.seed(13)
data = open(sys.argv[1], 'rb').read()
for i in range(20):
    b = bytearray(data)
    for k in range(random.randint(1, 80)):
        b[random.randrange(len(b))] = random.randrange(256)
    open('d%02d' % i, 'wb').write(b)
for i, n in enumerate((64, 1000, len(data) // 3, len(data) // 2, len(data) - 100)):
    open('t%d' % i, 'wb').write(data[:n])
PY
	for f in d[0-9][0-9] t[0-9]; do
		for t in "fdatawrite -o $f.out $f good.pa" "yamlwrite -o $f.yaml $f good.pa" "cfgtest $f"; do
			# shellcheck disable=SC2086
			run $t
			[ "$status" -le 1 ]
			[[ "$output" != *Sanitizer* ]]
			[[ "$output" != *"runtime error"* ]]
		done
	done
	run fdatawrite -o t0.out t0 good.pa
	[ "$status" -eq 1 ]
	[[ "$output" == fdatawrite:* ]]
}

@test "aarch64: without the release's bridge, a clear message where it is needed; fdatawrite needs none for the words a64dec reads" {
	need_tool cc
	# the optimized build (the sanitizers' runtime would come before a
	# preloaded library): dlopen fails as it does where the release's
	# bridge (profpipe-llvm19.so) is not installed
	cat > nodl.c <<'EOF'
#include <stddef.h>
void *dlopen(const char *f, int m) { (void)f; (void)m; return NULL; }
char *dlerror(void) { return (char *)"cannot open shared object file"; }
EOF
	cc -shared -fPIC -o nodl.so nodl.c
	# a profile of nothing reads no word: no bridge
	run env LD_PRELOAD=$PWD/nodl.so "$PROFPIPE_FASTBIN/fdatawrite" "$D/h1" "$DATA/functab/empty.pa"
	echo "$output"
	[ "$status" -eq 0 ]
	# BOLT's hashes need the release's MC layer
	cfgwalk -n 300 -s 3 -o h1.events "$D/h1"
	mkperfdata -a aarch64 -o h1.data h1.events
	perfdecode h1.data | preagg -b "$D/h1" > h1.pa
	"$PROFPIPE_FASTBIN/fdatawrite" -o h1.fdata "$D/h1" h1.pa
	[ -s h1.fdata ]
	run env LD_PRELOAD=$PWD/nodl.so "$PROFPIPE_FASTBIN/yamlwrite" -o h1.yaml "$D/h1" h1.pa
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"LLVM 19's MC layer is not installed"*"llvm-19-dev"* ]]
	[ ! -e h1.yaml ]
}
