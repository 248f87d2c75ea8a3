#!/usr/bin/env bats
# AArch64: programs cross-built here with clang-19 --target=aarch64-linux-gnu
# against Debian's arm64 cross libc (tests/data/a64/build.sh),
# run under qemu-aarch64, and their profiles as perf2bolt-19 on this
# x86-64 machine reads them.  Branch stacks follow the programs' real
# control flow: cfgwalk walks their code, qtrace records a real run
# under qemu.  tests/data/a64: sw.c (switch tables, a computed goto),
# exc.cc (exceptions, virtual calls), far.c and far.lds (a callee 256 MB
# away: veneers), shapes.s and main.c (hand-written shapes: conditional
# tail calls, traps, entries, its own address, literal pools, NOPs,
# pointer authentication, references into code from code and data).

load common

P2B=/usr/lib/llvm-19/bin/perf2bolt	# perf2bolt-19 on PATH is not recognised as perf2bolt
SYSROOT=/usr/aarch64-linux-gnu

# the programs, once for the file
setup_file() {
	[ -x /usr/lib/llvm-19/bin/clang ] && [ -e $SYSROOT/lib/libc.so.6 ] || return 0
	"$TOP/tests/data/a64/build.sh" "$BATS_FILE_TMPDIR"
}

setup() {
	setup_tmp
	need_tool "$P2B" clang-19 qemu-aarch64
	if [ ! -e $SYSROOT/lib/libc.so.6 ]; then
		[ "${CI:-}" != true ] || { echo "arm64 cross libc missing under CI" >&2; return 1; }
		skip "libc6-dev-arm64-cross not installed"
	fi
	D="$BATS_FILE_TMPDIR"
}

# run BIN ARGS...: BIN under qemu-aarch64
qrun() {
	qemu-aarch64 -L $SYSROOT "$@"
}

# walk BIN N SEED [BIAS]: a cfgwalk perf.data of N samples of BIN
walk() {
	cfgwalk -n "$2" -s "$3" ${4:+-b "$4"} -o "$1.events" "$D/$1"
	mkperfdata -a aarch64 -o "$1.data" "$1.events"
}

# same_p2b BIN DATA MIN: perfdecode | preagg --legacy through
# perf2bolt-19 --pa writes the fdata perf2bolt-19 -p writes, at least MIN
# lines, and no trace mismatches the code (the walks are real control
# flow)
same_p2b() {
	local bin=$1 data=$2 min=$3
	"$P2B" -p "$data" -o "$bin.ref" "$D/$bin" > "$bin.p2b.log" 2>&1
	perfdecode "$data" | preagg --legacy -b "$D/$bin" > "$bin.lpa"
	"$P2B" --pa -p "$bin.lpa" -o "$bin.pa.fdata" "$D/$bin" > "$bin.pa.log" 2>&1
	sort "$bin.ref" > "$bin.ref.s"
	sort "$bin.pa.fdata" > "$bin.pa.s"
	echo "$bin: $(wc -l < "$bin.ref.s") lines from perf2bolt" >&2
	[ "$(wc -l < "$bin.ref.s")" -ge "$min" ]
	grep -q 'traces mismatching disassembled function contents: 0 ' "$bin.p2b.log"
	same_file "$bin.ref.s" "$bin.pa.s"
}

@test "aarch64: the programs run under qemu-aarch64" {
	[ "$(qrun "$D/sw1" 300)" = "$(qrun "$D/sw2" 300)" ]
	[ "$(qrun "$D/sw1" 300)" = "$(qrun "$D/sw3" 300)" ]
	[ "$(qrun "$D/x1" 200)" = "$(qrun "$D/x2" 200)" ]
	[ "$(qrun "$D/h1" 50)" = "$(qrun "$D/h2" 50)" ]
	[ "$(qrun "$D/h1" 50)" = "$(qrun "$D/h3" 50)" ]
	[ "$(qrun "$D/f1" 20)" = "$(qrun "$D/f2" 20)" ]
	[ "$(qrun "$D/f1" 20)" = "$(qrun "$D/f3" 20)" ]
	# the veneers are there: lld's thunks, GNU ld's veneer
	llvm-nm-19 "$D/f1" | grep -q ' __AArch64AbsLongThunk_farf$'
	llvm-nm-19 "$D/f2" | grep -q ' __AArch64ADRPThunk_farf$'
	llvm-nm-19 "$D/f3" | grep -q ' __farf_veneer$'
}

@test "aarch64: a64dec reads every word as LLVM 19's disassembler does (real code, libc, random words)" {
	run a64dectest -n 300000 -s 7 "$D/sw1" "$D/x1" "$D/h1" "$D/f1" \
	    $SYSROOT/lib/libc.so.6 $SYSROOT/lib/libstdc++.so.6
	echo "$output"
	[ "$status" -eq 0 ]
	# every kind of word met
	echo "$output" | awk '/words,/ { for (i = 7; i <= NF; i += 2) if ($(i + 1) + 0 < 1) exit 1 }'
}

@test "aarch64: fuzz harness of the AArch64 reading against LLVM 19" {
	mkdir corpus
	local b
	for b in sw1 x1 h1; do
		llvm-objcopy-19 -O binary -j .text "$D/$b" "$b.text"
		split -b 1024 -a 3 "$b.text" "corpus/$b."
	done
	[ "$(ls corpus | wc -l)" -ge 4 ]
	fuzz_briefly a64dec 1000 corpus
}

@test "aarch64: functions, their names and sizes as perf2bolt-19 finds them (mapping symbols, PLT, veneers, FDE-only code, aliases, labels)" {
	local b n
	for b in sw1 sw2 sw3 x1 x2 h1 h2 h3 f1 f2 f3 b1 b2 b3; do
		# every address of the code: the function perf2bolt names
		functest probe "$D/$b" > $b.pa
		functest expect "$D/$b" | sort > $b.exp
		"$P2B" --pa -p $b.pa -o $b.fdata "$D/$b" > $b.log 2>&1
		sort $b.fdata > $b.ref
		n=$(wc -l < $b.ref)
		echo "$b: $n lines" >&2
		[ "$n" -ge 300 ]
		same_file $b.exp $b.ref
		# Address, Size and MaxSize of every function it disassembles
		"$P2B" --pa -p "$DATA/functab/empty.pa" -o /dev/null "$D/$b" --print-all > $b.all 2>&1
		awk -f "$DATA/functab/p2bfuncs.awk" $b.all | sort > $b.sz
		functest list "$D/$b" | awk 'NR > 1 && $1 != "entry" { print $1, $2, $3, $5 }' |
		    sort > $b.ours
		comm -23 $b.sz $b.ours > $b.missing
		[ "$(wc -l < $b.sz)" -ge 9 ]
		[ ! -s $b.missing ]
	done
	# the PLT entries by name, the mapping symbols in no function's name
	grep -q ' printf@PLT ' sw1.ref
	grep -q ' __cxa_throw@PLT ' x1.ref
	run ! grep -q '[$][xd]' h1.ref
	grep -q ' __AArch64ADRPThunk_farf/1 ' f2.ref
}

@test "aarch64: perfdecode | preagg on branch stacks along the real control flow (cfgwalk; qtrace under qemu): perf2bolt-19's fdata" {
	walk sw1 3000 7
	same_p2b sw1 sw1.data 20
	walk sw2 3000 7 5500000000
	same_p2b sw2 sw2.data 20
	walk h1 3000 5
	same_p2b h1 h1.data 40
	walk f1 1000 3
	same_p2b f1 f1.data 5
	walk f2 1000 3 5500000000
	same_p2b f2 f2.data 5
	# real runs: qemu's trace of every instruction
	qtrace -m -p 23 -o sw2.q "$D/sw2" 2000 > /dev/null
	mkperfdata -a aarch64 -o sw2q.data sw2.q
	same_p2b sw2 sw2q.data 20
	qtrace -m -p 5 -o x1.q "$D/x1" 150 > /dev/null
	mkperfdata -a aarch64 -o x1q.data x1.q
	same_p2b x1 x1q.data 20
	# the exceptions were thrown: calls into the unwinder
	grep -q ' __cxa_throw@PLT ' x1.ref.s
}

@test "aarch64: perfdecode reads AArch64 recordings as perf script does (real runs, walks, basic samples, branch types)" {
	need_tool perf perl
	local PD="$DATA/perfdecode" f
	qtrace -m -p 17 -o r.ev "$D/sw2" 300 > /dev/null
	qtrace -i -m -p 7 -o i.ev "$D/x1" 40 > /dev/null
	walk h1 500 2
	# the returns typed as perf record -j any,save_type types them
	llvm-objdump-19 -d --no-show-raw-insn "$D/h1" |
	    awk '$2 ~ /^ret/ { sub(":", "", $1); print $1 }' > rets
	awk 'FNR == NR { r[$1] = 1; next }
	    $1 == "sample" { for (i = 7; i <= NF; i++) { split($i, b, "/")
		if (b[1] in r) $i = $i "/RET" } } { print }' rets h1.events > t.ev
	[ "$(grep -c '/RET' t.ev)" -ge 100 ]
	mkperfdata -a aarch64 -o r.data r.ev
	mkperfdata -a aarch64 -o i.data i.ev
	mkperfdata -a aarch64 -T -z -o t.data t.ev
	for f in r i t; do
		perf script -i $f.data --ns -F pid,tid,time,event,ip,brstack 2>/dev/null |
		    perl "$PD/perf2events.pl" | sort > $f.want
		perfdecode -s $f.data | grep -v '^#' | sort > $f.got
		[ "$(wc -l < $f.got)" -ge 100 ]
		same_file $f.want $f.got
	done
	grep -q '/RET' t.got
	# the recording says it is AArch64's
	perf report -i r.data --header-only 2>/dev/null | grep -q '^# arch : aarch64'
}

@test "aarch64: bbmap decodes AArch64 programs' basic-block address maps as llvm-readobj-19 does" {
	need_tool llvm-readobj-19 python3
	local L=/usr/lib/llvm-19/bin f
	local X="$L/clang --target=aarch64-linux-gnu" XX="$L/clang++ --target=aarch64-linux-gnu"
	$X -O2 -fbasic-block-address-map -fno-pie -no-pie -fuse-ld=lld \
	    -o demo "$DATA/progs/demo.c"
	$XX -O2 -fbasic-block-address-map -fpie -pie -o eh "$DATA/bbmap/eh.cpp"
	$XX -O2 -fbasic-block-address-map -mllvm \
	    -pgo-analysis-map=func-entry-count,bb-freq,br-prob -c -o eh.o "$DATA/bbmap/eh.cpp"
	for f in demo eh eh.o; do
		"$L/llvm-readobj" --bb-addr-map $f > $f.ro
		python3 "$DATA/bbmap/readobj2lines.py" < $f.ro > $f.ref
		bbmap --dump $f | awk '
			/^#/ { next }
			$1 == "function" { print $1, $2, $6; next }
			$1 == "range" { print $1, $2; next }
			$1 == "block" && $6 == "-" {
				s = $1; for (i = 2; i <= NF; i++) if (i != 6) s = s " " $i
				print s; next }
			{ print }' > $f.ours
		[ "$(grep -c '^block ' $f.ref)" -gt 10 ]
		same_file $f.ours $f.ref
	done
}

@test "aarch64: prfraw2idx on raw profiles of AArch64 programs run under qemu: llvm-profdata-19 merge's bytes" {
	need_tool llvm-profdata-19
	local L=/usr/lib/llvm-19/bin S="$DATA/a64"
	local X="$L/clang --target=aarch64-linux-gnu"
	# Debian has no AArch64 compiler-rt profile runtime: tests/data/a64/prfrt.c
	$X -O2 -c -o prfrt.o "$S/prfrt.c"
	$X -O2 -fprofile-generate -mllvm -disable-vp=true -c -o ir.o "$DATA/progs/demo.c"
	$X -o ir ir.o prfrt.o
	$X -O1 -fprofile-instr-generate -fcoverage-mapping -fcoverage-mcdc \
	    -mllvm -disable-vp=true -c -o fe.o "$DATA/prfraw2idx/mcdc.c"
	$X -o fe fe.o prfrt.o
	LLVM_PROFILE_FILE=ir1.profraw qrun ./ir 1 > /dev/null
	LLVM_PROFILE_FILE=ir2.profraw qrun ./ir 3 > /dev/null
	LLVM_PROFILE_FILE=fe1.profraw qrun ./fe 2 > /dev/null
	"$L/llvm-profdata" show ir1.profraw | grep -q '^Instrumentation level: IR'
	for a in "ir1.profraw" "ir1.profraw ir2.profraw" "fe1.profraw"; do
		# shellcheck disable=SC2086
		prfraw2idx -o ours.profdata $a
		# shellcheck disable=SC2086
		"$L/llvm-profdata" merge --num-threads=1 -o ref.profdata $a
		same_file ours.profdata ref.profdata
		[ "$("$L/llvm-profdata" show --all-functions ours.profdata | grep -c 'Hash:')" -ge 2 ]
	done
}
