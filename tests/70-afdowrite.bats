#!/usr/bin/env bats
# afdowrite: perfdecode | preagg | afdowrite against
# llvm-profgen-19 --format=text --binary B --perfdata P on the same
# perf.data, byte for byte.  The programs (tests/data/afdowrite: a C
# program of two units, a C++ one) are built here with clang-19 and gcc in
# the forms clang's sample PGO is used with: -g (DWARF 5 and 4),
# -gline-tables-only -fdebug-info-for-profiling, -funique-internal-
# linkage-names, PIE and not, hot/cold split functions (gcc's .cold
# parts, clang's -fsplit-machine-functions), --gc-sections (code the
# linker discards, left at address 0 in the DWARF).  Branch stacks follow
# the programs' real control flow (cfgwalk) or a real run (brtrace, whose
# stacks hold the branches through the PLT, libc and the dynamic loader);
# basic samples are real perf record -e cpu-clock recordings.  Then what
# clang does with both profiles, what llvm-profgen's input handling
# changes (afdowrite(1), DIFFERENCES FROM LLVM-PROFGEN), refusals,
# damaged input and the fuzz harness.

load common
bats_require_minimum_version 1.5.0

L=/usr/lib/llvm-19/bin
PROFGEN=$L/llvm-profgen

setup_file() {
	local d="$BATS_FILE_TMPDIR" s="$TOP/tests/data/afdowrite"
	[ -x "$L/clang" ] || return 0
	cd "$d" || return 1
	export PATH="$PROFPIPE_BIN:$PROFPIPE_TESTBIN:$PATH"
	# C: -g is DWARF 5 by default
	$L/clang -O2 -g -fdebug-info-for-profiling -o c5 "$s/afdo.c" "$s/afdo2.c"
	$L/clang -O2 -g -gdwarf-4 -fdebug-info-for-profiling -o c4 "$s/afdo.c" "$s/afdo2.c"
	$L/clang -O2 -g -fno-pie -no-pie -o cnp "$s/afdo.c" "$s/afdo2.c"
	$L/clang -O2 -gline-tables-only -fdebug-info-for-profiling -o clt "$s/afdo.c" "$s/afdo2.c"
	$L/clang -O2 -g -funique-internal-linkage-names -o cuniq "$s/afdo.c" "$s/afdo2.c"
	$L/clang -O2 -g -ffunction-sections -Wl,--gc-sections -o cgc "$s/afdo.c" "$s/afdo2.c"
	gcc -O2 -g -o cgcc "$s/afdo.c" "$s/afdo2.c"
	# C++
	$L/clang++ -O2 -g -o x5 "$s/afdo.cc"
	$L/clang++ -O2 -g -gdwarf-4 -fno-pie -no-pie -o x4np "$s/afdo.cc"
	$L/clang++ -O2 -gline-tables-only -fdebug-info-for-profiling \
	    -funique-internal-linkage-names -o xlt "$s/afdo.cc"
	$L/clang++ -O2 -g -ffunction-sections -fuse-ld=lld -Wl,--gc-sections -o xlld "$s/afdo.cc"
	g++ -O2 -g -o xgcc "$s/afdo.cc"
}

setup() {
	setup_tmp
	cd "$BATS_FILE_TMPDIR" || return 1
}

# walk BIN N SEED: a cfgwalk perf.data of N samples, BIN.SEED.data
walk() {
	cfgwalk -n "$2" -s "$3" -o "$1.$3.events" "$1"
	mkperfdata -o "$1.$3.data" "$1.$3.events"
}

# same_profgen BIN DATA MIN [PREAGG-OPTS...]: afdowrite on preagg's
# output equals llvm-profgen-19's text profile of DATA, which has at least
# MIN lines
same_profgen() {
	local bin=$1 data=$2 min=$3
	shift 3
	"$PROFGEN" --format=text --binary "$bin" --perfdata "$data" \
	    -o "$data.ref" 2> "$data.referr"
	perfdecode "$data" | preagg -b "$bin" "$@" > "$data.pa"
	afdowrite -o "$data.prof" "$bin" "$data.pa"
	echo "$bin $data: $(wc -l < "$data.ref") lines, $(grep -c '^[^ ]' "$data.ref") functions from llvm-profgen" >&2
	[ "$(wc -l < "$data.ref")" -ge "$min" ]
	same_file "$data.ref" "$data.prof"
}

@test "afdowrite: C, clang-19 -g DWARF 5 and 4, PIE and not, -gline-tables-only -fdebug-info-for-profiling, -funique-internal-linkage-names: cfgwalk branch stacks, same as llvm-profgen-19" {
	need_tool llvm-profgen perf clang
	for b in c5 c4 cnp clt cuniq; do
		walk $b 4000 1
		same_profgen $b $b.1.data 40
	done
	# the static function both units name step: one profile
	grep -q '^step:' c5.1.data.prof
	# discriminators, duplication factors among them, and inlined
	# callees
	grep -q '^ [0-9]*\.[0-9]*: ' c5.1.data.prof
	grep -q '^ [0-9.]*: clamp:' c5.1.data.prof
	# names with the unique suffix are kept
	grep -q '__uniq' cuniq.1.data.prof
}

@test "afdowrite: C++ templates, lambdas, virtual calls, exceptions, static initializers: clang-19 -g DWARF 5 and 4, -gline-tables-only, g++; cfgwalk, same as llvm-profgen-19" {
	need_tool llvm-profgen perf clang g++
	for b in x5 x4np xlt xgcc; do
		walk $b 20000 2
		same_profgen $b $b.2.data 300
	done
	# lambdas, templates, anonymous namespaces by their linkage names
	grep -q '^_ZZ4mainENK3\$_0' x5.2.data.prof || grep -q 'Z4mainE' x5.2.data.prof
	grep -q '_ZN12_GLOBAL__N_14bumpEi' x5.2.data.prof
	# the profiles of __cxx_global_var_init and __tls_init are dropped,
	# by llvm-profgen too, though they ran (calls to them remain)
	grep -q ' __cxx_global_var_init[.0-9]*:[1-9]' x5.2.data.prof
	run grep -c '^__cxx_global_var_init\|^__tls_init' x5.2.data.prof
	[ "$output" = 0 ]
}

@test "afdowrite: hot/cold split functions: gcc's .cold parts and clang-19 -fsplit-machine-functions; same as llvm-profgen-19" {
	need_tool llvm-profgen perf clang gcc
	local s="$TOP/tests/data/afdowrite"
	# gcc splits the unlikely paths of main into main.cold
	nm cgcc | grep -q 'main\.cold'
	walk cgcc 4000 3
	same_profgen cgcc cgcc.3.data 20
	# machine function splitting, with an instrumentation profile: the
	# cold blocks of main and sum_weights in .cold parts, one function
	# of two ranges each in the DWARF
	$L/clang -O2 -fprofile-generate -o cinst "$s/afdo.c" "$s/afdo2.c"
	LLVM_PROFILE_FILE=c.profraw ./cinst 300 > /dev/null
	prfraw2idx -o c.profdata c.profraw
	$L/clang -O2 -g -fdebug-info-for-profiling -fprofile-use=c.profdata \
	    -fsplit-machine-functions -o cmfs "$s/afdo.c" "$s/afdo2.c"
	nm cmfs | grep -q ' main\.cold$'
	walk cmfs 4000 4
	same_profgen cmfs cmfs.4.data 20
}

@test "afdowrite: --gc-sections (ld.bfd; lld with DWARF 5): discarded code at 0, searched in the line table as LLVM searches it; same as llvm-profgen-19" {
	need_tool llvm-profgen perf clang
	walk cgc 4000 5
	same_profgen cgc cgc.5.data 40
	walk xlld 20000 5
	same_profgen xlld xlld.5.data 300
}

@test "afdowrite: real runs under brtrace: stacks through the PLT, libc and the dynamic loader, PIE and not; same as llvm-profgen-19" {
	need_tool llvm-profgen perf clang
	for b in c5 cnp; do
		brtrace -m -o $b.bt.events -p 7 -d 32 -- "$BATS_FILE_TMPDIR/$b" 40 > /dev/null
		mkperfdata -o $b.bt.data $b.bt.events
		# branches to PLT entries and into libc are in the stacks
		grep -q ' 7ff' $b.bt.events
		same_profgen $b $b.bt.data 20
	done
}

@test "afdowrite: basic samples of a real cpu-clock recording: llvm-profgen-19 refuses it; the profile it writes with --leading-ip-only once each sample has a branch stack; preagg -S on branch stacks is its --leading-ip-only" {
	need_tool llvm-profgen perf clang
	for b in c5 x5; do
		perf record -q -e cpu-clock -c 20000 -o $b.cc.data ./$b 200000 > /dev/null 2>&1
		run "$PROFGEN" --format=text --binary $b --perfdata $b.cc.data -o $b.cc.ref --leading-ip-only
		[ "$status" -ne 0 ]
		[[ "$output" == *"Invalid perf script input"* ]]
		# the same samples, each with a one-entry branch stack from its ip
		perfdecode $b.cc.data > $b.cc.events
		awk '/^# profpipe-events 2/ { v2 = 1 }
		    $1 == "sample" && NF == 6 + v2 && $6 != "-" { print $0 " " $6 "/" $6 "/-"; next } { print }' \
		    $b.cc.events > $b.ip.events
		mkperfdata -o $b.ip.data $b.ip.events
		"$PROFGEN" --format=text --binary $b --perfdata $b.ip.data -o $b.ip.ref --leading-ip-only
		preagg -b $b < $b.cc.events > $b.cc.pa
		grep -q '^E ' $b.cc.pa
		grep -q '^S ' $b.cc.pa
		afdowrite -o $b.cc.prof $b $b.cc.pa
		[ "$(wc -l < $b.ip.ref)" -ge 5 ]
		same_file $b.ip.ref $b.cc.prof
		# no head samples, no call targets
		run grep -c '^[^ ].*:[1-9][0-9]*$' $b.cc.prof
		[ "$output" = 0 ]
		# -e names the event
		ev=$(sed -n 's/^E //p' $b.cc.pa | head -1)
		afdowrite -e "$ev" $b $b.cc.pa | cmp - $b.cc.prof
	done
	# on a recording with branch stacks --leading-ip-only reads each
	# sample's address: preagg -S writes those
	walk c5 3000 11
	"$PROFGEN" --format=text --binary c5 --perfdata c5.11.data -o c5.lip.ref --leading-ip-only
	perfdecode c5.11.data | preagg -S -b c5 | afdowrite -o c5.lip.prof c5
	[ "$(wc -l < c5.lip.ref)" -ge 10 ]
	same_file c5.lip.ref c5.lip.prof
	run afdowrite -e no-such-event c5 c5.cc.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"no E no-such-event line"* ]]
}

@test "afdowrite: stacks that touch the kernel: with preagg --kernel-lbr llvm-profgen-19's profile; without, the interrupted instruction counts once" {
	need_tool llvm-profgen perf clang
	# an interrupt at the start of the fall-through between the second
	# and third newest branches of every third sample (user to kernel,
	# within the kernel, back), as a recording without -j any,u has them
	walk c5 3000 6
	awk '$1 == "sample" && NF >= 9 { n++; if (n % 3 == 0) { split($8, b, "/"); p = b[2];
	    out = $1; for (i = 2; i <= 7; i++) out = out " " $i;
	    out = out " ffffffff81a00010/" p "/P ffffffff81a00000/ffffffff81a00008/P " p "/ffffffff81a00000/P";
	    for (i = 8; i <= NF; i++) out = out " " $i; print out; next } } { print }' \
	    c5.6.events > c5.k.events
	grep -q ffffffff81a00010 c5.k.events
	mkperfdata -o c5.k.data c5.k.events
	same_profgen c5 c5.k.data 40 --kernel-lbr
	# without: the kernel entries dropped, the fall-through one range
	perfdecode c5.k.data | preagg -b c5 > c5.k.nok.pa
	[ "$(wc -l < c5.k.data.pa)" -gt "$(wc -l < c5.k.nok.pa)" ]
	afdowrite -o c5.k.nok c5 c5.k.nok.pa
	run cmp -s c5.k.nok c5.k.data.ref
	[ "$status" -ne 0 ]
	run preagg --kernel-lbr --legacy -b c5 c5.k.events
	[ "$status" -eq 2 ]
}

@test "afdowrite: processes: llvm-profgen-19 leaves out a child forked without a mapping of its own; preagg -p keeps what it keeps" {
	need_tool llvm-profgen perf clang
	walk cnp 2000 7
	pid=$(awk '$1 == "mmap" { print $2; exit }' cnp.7.events)
	# a child of that process, forked without exec once it mapped the
	# binary, samples the same code
	awk -v pid="$pid" '{ print }
	    $1 == "sample" { n++; if (n % 2 == 0) { $2 = pid + 1; $3 = pid + 1; print } }
	    $1 == "mmap" && !f { f = 1; print "fork " pid + 1 " " pid " " pid + 1 " " pid " " $4 + 1 }' \
	    cnp.7.events > cnp.f.events
	mkperfdata -o cnp.f.data cnp.f.events
	"$PROFGEN" --format=text --binary cnp --perfdata cnp.f.data -o cnp.f.ref
	perfdecode cnp.f.data | preagg -b cnp | afdowrite -o cnp.f.all cnp
	run cmp -s cnp.f.all cnp.f.ref
	[ "$status" -ne 0 ]
	same_profgen cnp cnp.f.data 40 -p "$pid"
}

@test "afdowrite: clang-19 -fprofile-sample-use reads the same IR from both profiles; llvm-profdata-19 --extbinary conversions byte-equal" {
	need_tool llvm-profgen perf clang llvm-profdata
	local s="$TOP/tests/data/afdowrite"
	walk c5 4000 8
	same_profgen c5 c5.8.data 40
	walk x5 20000 8
	same_profgen x5 x5.8.data 300
	for p in ref prof; do
		$L/clang -O2 -g -fdebug-info-for-profiling -fprofile-sample-use=c5.8.data.$p \
		    -S -emit-llvm -o c5.$p.ll "$s/afdo.c"
		$L/clang++ -O2 -g -fprofile-sample-use=x5.8.data.$p -S -emit-llvm -o x5.$p.ll "$s/afdo.cc"
		for b in c5 x5; do
			$L/llvm-profdata merge --sample --extbinary -o $b.$p.extbin $b.8.data.$p
		done
	done
	for b in c5 x5; do
		# the profile is used: entry counts and branch weights
		grep -q 'function_entry_count", i64 [1-9][0-9]' $b.prof.ll
		grep -q 'branch_weights' $b.prof.ll
		same_file $b.ref.ll $b.prof.ll
		same_file $b.ref.extbin $b.prof.extbin
	done
}

@test "afdowrite: refused by name: pseudo probes, flow-sensitive discriminators, split DWARF, zstd-compressed DWARF, no DWARF, no symbol table, not x86-64; warned: no linkage names or decl lines" {
	need_tool clang
	local s="$TOP/tests/data/afdowrite"
	: > empty.pa
	$L/clang -O2 -g -fpseudo-probe-for-profiling -o cprobe "$s/afdo.c" "$s/afdo2.c"
	run afdowrite cprobe empty.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"pseudo-probe binary"* ]]
	$L/clang -O2 -g -fdebug-info-for-profiling -mllvm -enable-fs-discriminator=true \
	    -o cfs "$s/afdo.c" "$s/afdo2.c"
	run afdowrite cfs empty.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"flow-sensitive discriminators"* ]]
	$L/clang -O2 -g -gsplit-dwarf -o csplit "$s/afdo.c" "$s/afdo2.c"
	run afdowrite csplit empty.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"split DWARF"*"afdo"*".dwo"* ]]
	$L/clang -O2 -g -gz=zstd -o czstd "$s/afdo.c" "$s/afdo2.c"
	run afdowrite czstd empty.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"compressed with zstd"* ]]
	$L/clang -O2 -o cnodw "$s/afdo.c" "$s/afdo2.c"
	run afdowrite cnodw empty.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"no DWARF"* ]]
	cp c5 cstrip && strip cstrip
	run afdowrite cstrip empty.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"no symbol table"* ]]
	# a binary (a shared object: no C library to link with), not an
	# object file, which no tool takes for one
	$L/clang --target=aarch64-linux-gnu -O2 -g -shared -nostdlib \
	    -fuse-ld=lld -o arm.so "$s/afdo2.c"
	run afdowrite arm.so empty.pa
	[ "$status" -eq 1 ]
	[[ "$output" == *"only x86-64"* ]]
	# C++ with plain -gline-tables-only: no linkage names, no decl lines
	$L/clang++ -O2 -gline-tables-only -o xplain "$s/afdo.cc"
	run afdowrite xplain empty.pa
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning"*"no linkage name"* ]]
	[[ "$output" == *"warning"*"no DW_AT_decl_line"* ]]
	run afdowrite -q xplain empty.pa
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# and none for a binary with what clang needs
	run afdowrite x5 empty.pa
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "afdowrite: usage" {
	run afdowrite
	[ "$status" -eq 2 ]
	run afdowrite --bogus c5
	[ "$status" -eq 2 ]
	run afdowrite --help
	[ "$status" -eq 0 ]
	[[ "$output" == usage:* ]]
	run afdowrite --version
	[ "$status" -eq 0 ]
	[[ "$output" == "afdowrite (profpipe) "* ]]
	run afdowrite no-such-binary
	[ "$status" -eq 1 ]
	[[ "$output" == *"no-such-binary"* ]]
}

@test "afdowrite: damaged pre-aggregated streams: an error naming the line, or a profile; never a crash, and no output file on error" {
	need_tool clang
	walk c5 1000 9
	perfdecode c5.9.data | preagg -b c5 > c5.9.pa
	mkdir dmg && cd dmg
	damage_stream ../c5.9.pa 60
	local errs=0
	for f in d*.pa; do
		rm -f out.prof
		run afdowrite -o out.prof ../c5 "$f"
		case $status in
		0) [ -s out.prof ] || [ "$(grep -c '^[TRBFfrS] ' "$f")" -eq 0 ] ;;
		1) [[ "$output" == "afdowrite: $f:"[0-9]*": "* ]]
		   [ ! -e out.prof ]
		   errs=$((errs + 1)) ;;
		*) echo "$f: status $status: $output" >&2; return 1 ;;
		esac
	done
	[ "$errs" -ge 10 ]
}

# damage FILE SECTION OFF BYTES OUT: a copy of FILE with the BYTES (hex)
# written at offset OFF of SECTION
damage() {
	python3 - "$@" <<'PY'
import subprocess, sys
f, sec, off, hexbytes, out = sys.argv[1:]
data = bytearray(open(f, 'rb').read())
for line in subprocess.run(['readelf', '-SW', f], capture_output=True, text=True).stdout.splitlines():
    parts = line.replace('[ ', '[').split()
    if len(parts) > 5 and parts[1] == sec:
        base = int(parts[4], 16)
        break
else:
    sys.exit('no section ' + sec)
b = bytes.fromhex(hexbytes)
o = base + int(off, 0)
data[o:o + len(b)] = b
open(out, 'wb').write(data)
PY
}

@test "afdowrite: damaged DWARF: a clear error and no output file" {
	need_tool clang
	walk c5 1000 10
	perfdecode c5.10.data | preagg -b c5 > c5.10.pa
	# a line table of version 9
	damage c5 .debug_line 4 0900 bad1
	run afdowrite -o out1 bad1 c5.10.pa
	[ "$status" -eq 1 ]
	[[ "$output" == "afdowrite: bad1: DWARF: line table at 0x0: unsupported version 9" ]]
	[ ! -e out1 ]
	# a line table longer than its section
	damage c5 .debug_line 0 ffffff7f bad2
	run afdowrite -o out2 bad2 c5.10.pa
	[ "$status" -eq 1 ]
	[[ "$output" == "afdowrite: bad2: DWARF: line table at 0x0: length "*"past the end"* ]]
	[ ! -e out2 ]
	# a unit longer than .debug_info
	damage c5 .debug_info 0 ffffff7f bad3
	run afdowrite -o out3 bad3 c5.10.pa
	[ "$status" -eq 1 ]
	[[ "$output" == "afdowrite: bad3: "*"DWARF"* ]]
	[ ! -e out3 ]
	# abbreviations that do not parse
	damage c5 .debug_abbrev 0 ffffffffffffffffffff bad4
	run afdowrite -o out4 bad4 c5.10.pa
	[ "$status" -eq 1 ]
	[[ "$output" == "afdowrite: bad4: "* ]]
	[ ! -e out4 ]
	# random bytes over each debug section: a profile or an error, never
	# a crash or a hang
	local sec n=0 errs=0
	for sec in .debug_info .debug_line .debug_abbrev .debug_str_offsets .debug_rnglists .debug_addr; do
		for off in 0 8 40 100 333; do
			n=$((n + 1))
			damage c5 $sec $off a5a5ff00ff7e bad
			rm -f out
			run timeout 60 afdowrite -o out bad c5.10.pa
			case $status in
			0) [ -s out ] ;;
			1) [[ "$output" == "afdowrite: bad: "* ]]
			   [ ! -e out ]
			   errs=$((errs + 1)) ;;
			*) echo "$sec+$off: status $status: $output" >&2; return 1 ;;
			esac
		done
	done
	echo "$n damaged binaries, $errs refused" >&2
	[ "$errs" -ge 5 ]
}

@test "afdowrite: fuzz harness of the DWARF-facing code (ELF files, line tables), briefly" {
	need_tool clang
	mkdir -p corpus
	cp c5 cuniq corpus/
	fuzz_briefly afdodwarf 300 corpus
}
