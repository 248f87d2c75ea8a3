#!/usr/bin/env bats
# perfdecode against perf script 6.1 on the same files: real cpu-clock
# recordings (file, pipe, zstd, --threads) and synthetic branch-stack
# files (no LBR hardware here): random streams from
# tests/data/perfdecode/randev.pl written by mkperfdata (gen below).
# perf's output goes through tests/data/perfdecode/perf2events.pl, which
# changes spacing and number notation only.  perf script sorts samples
# by time and perfdecode keeps file order, so both sides are sorted.

load common

PD="$DATA/perfdecode"

setup_file() {
	need_tool perf cc perl || return 1
	cd "$BATS_FILE_TMPDIR" || return 1
	cat > busy.c <<'EOF'
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static volatile unsigned long sink;
static void spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * 7; }
int main(int argc, char **argv) {
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 20000000;
	pid_t p = fork();
	spin(n);
	if (p == 0) return 0;
	wait(0);
	return 0;
}
EOF
	cc -O1 -o busy busy.c
	# a sample per 100 us of CPU, over a thousand per process: at 10 us
	# a loaded VM spends its time in the sampling itself (minutes, 300 MB)
	n=100000000
	perf record -q -e cpu-clock -c 100000 -o f.data ./busy $n 2>/dev/null
	perf record -q -e cpu-clock -c 100000 -o - ./busy $n > p.data 2>/dev/null
	perf record -q -z -e cpu-clock -c 100000 -o z.data ./busy $n 2>/dev/null
	perf record -q --threads -e cpu-clock -c 100000 -o thr.data \
	    ./busy $n 2>/dev/null
	gen -o lbr.data --samples 400 --branches 16
}

setup() {
	setup_tmp
	F="$BATS_FILE_TMPDIR"
}

# perf's view of FILE as profpipe-events lines, sorted
perf_view() {
	local f=$1
	shift
	perf script -i "$f" --ns "$@" | perl "$PD/perf2events.pl" | sort
}

# the same with the samples' data addresses (-F ...,addr,...)
perf_view_addr() {
	local f=$1
	shift
	perf script -i "$f" --ns "$@" | perl "$PD/perf2events.pl" --addr | sort
}

# our records (no comment or buildid lines), sorted
our_view() {
	perfdecode "$@" | grep -v -e '^#' -e '^buildid ' | sort
}

# gen -o FILE [randev.pl options] [mkperfdata options]: a perf.data file
# of random samples, written with branch types and cycles, build-ids in
# MMAP2 when the stream has one, a FINISHED_ROUND every 17 samples; the
# stream is kept as FILE.ev
gen() {
	local out= ev=() mk=()
	while [ $# -gt 0 ]; do
		case $1 in
		-o) out=$2; shift ;;
		--samples|--branches|--lost|--seed) ev+=("$1" "$2"); shift ;;
		--two|--buildid|--addr) ev+=("$1") ;;
		*) mk+=("$1") ;;
		esac
		shift
	done
	perl "$PD/randev.pl" "${ev[@]}" > "$out.ev"
	mkperfdata -q -T -M -Y -r 17 "${mk[@]}" -o "$out" "$out.ev"
}

@test "perfdecode: --help and --version" {
	run perfdecode --help
	[ "$status" -eq 0 ]
	[[ "$output" == usage:* ]]
	[[ "$output" == *--allow-truncated* ]]
	run perfdecode --version
	[ "$status" -eq 0 ]
	[[ "$output" == "perfdecode (profpipe) "* ]]
	run perfdecode --no-such-option
	[ "$status" -eq 2 ]
	run perfdecode -k bogus "$F/f.data"
	[ "$status" -eq 2 ]
}

@test "perfdecode: real file-mode recording, samples and side-band as perf script" {
	need_tool perf
	perf_view "$F/f.data" -F pid,tid,time,event,ip \
	    --show-mmap-events --show-task-events > want
	our_view "$F/f.data" > got
	[ "$(grep -c '^sample' got)" -gt 1000 ]
	grep -q '^mmap .* r-xp - .*/busy$' got
	grep -q '^fork ' got
	grep -q '^comm .* 1 busy$' got
	same_file want got
}

@test "perfdecode: real pipe-mode recording, as a file and on stdin" {
	need_tool perf
	perf_view "$F/p.data" -G -F pid,tid,time,event,ip \
	    --show-mmap-events --show-task-events > want
	our_view -q "$F/p.data" > got
	[ "$(grep -c '^sample' got)" -gt 1000 ]
	same_file want got
	perfdecode -q < "$F/p.data" | grep -v -e '^#' -e '^buildid ' |
	    sort > got2
	same_file want got2
	cat "$F/p.data" | perfdecode -q | grep -v -e '^#' -e '^buildid ' |
	    sort > got3
	same_file want got3
}

@test "perfdecode: --ordered gives perf script's order, unsorted" {
	need_tool perf
	perf script -i "$F/f.data" --ns -F pid,tid,time,event,ip \
	    --show-mmap-events --show-task-events |
	    perl "$PD/perf2events.pl" > want
	perfdecode --ordered "$F/f.data" | grep -v -e '^#' -e '^buildid ' > got
	same_file want got
	perf script -i "$F/z.data" --ns -F pid,tid,time,event,ip |
	    perl "$PD/perf2events.pl" > want
	perfdecode -O -s "$F/z.data" | grep -v '^#' > got
	same_file want got
	perf script -i "$F/p.data" -G --ns -F pid,tid,time,event,ip |
	    perl "$PD/perf2events.pl" > want
	perfdecode -q -O -s < "$F/p.data" | grep -v '^#' > got
	same_file want got
	perf script -i "$F/lbr.data" --ns -F pid,tid,time,event,ip,brstack |
	    perl "$PD/perf2events.pl" > want
	perfdecode -O -s "$F/lbr.data" | grep -v '^#' > got
	same_file want got
	# whether a recording's file order is its time order depends on
	# the scheduling: a file written in reverse time order is sure not to be
	perfdecode "$F/lbr.data" > ev
	{ grep -v '^sample' ev; grep '^sample' ev | tac; } > rev.ev
	mkperfdata -o rev.data rev.ev
	perf script -i rev.data --ns -F pid,tid,time,event,ip,brstack |
	    perl "$PD/perf2events.pl" > want
	perfdecode -O -s rev.data | grep -v '^#' > got
	same_file want got
	perfdecode -s rev.data | grep -v '^#' > fileorder
	[ "$(wc -l < fileorder)" -ge 400 ]
	run ! cmp -s fileorder got
}

@test "perfdecode: file-mode perf.data through a pipe is spooled" {
	need_tool perf
	our_view "$F/f.data" > want
	cat "$F/f.data" | perfdecode | grep -v -e '^#' -e '^buildid ' |
	    sort > got
	same_file want got
}

@test "perfdecode: an input that is no file (a device, a FIFO, the standard input, a directory): its magic first, then no more than its format says" {
	# timeout: a regression fails rather than hangs; the reader must not
	# copy /dev/zero into a temporary file before it looks at it
	run timeout 20 perfdecode /dev/zero
	[ "$status" -eq 1 ]
	[ "$output" = "perfdecode: /dev/zero: offset 0x0: bad magic 0x0000000000000000, not a perf.data file" ]
	run timeout 20 perfdecode -o out < /dev/zero
	[ "$status" -eq 1 ]
	[ "$output" = "perfdecode: <stdin>: offset 0x0: bad magic 0x0000000000000000, not a perf.data file" ]
	[ ! -e out ]
	run timeout 20 perfdecode /dev/urandom
	[ "$status" -eq 1 ]
	[[ "$output" == "perfdecode: /dev/urandom: offset 0x0: bad magic 0x"*", not a perf.data file" ]]
	mkfifo zero.fifo
	cat /dev/zero > zero.fifo 2>/dev/null &
	run timeout 20 perfdecode zero.fifo
	[ "$status" -eq 1 ]
	[ "$output" = "perfdecode: zero.fifo: offset 0x0: bad magic 0x0000000000000000, not a perf.data file" ]
	wait
	run timeout 20 perfdecode /dev/null
	[ "$status" -eq 1 ]
	[ "$output" = "perfdecode: /dev/null: offset 0x0: empty input, no perf.data header" ]
	mkdir dir
	run timeout 20 perfdecode < dir
	[ "$status" -eq 1 ]
	[ "$output" = "perfdecode: <stdin>: offset 0x0: read: Is a directory" ]
	run timeout 20 perfdecode dir
	[ "$status" -eq 1 ]
	[ "$output" = "perfdecode: dir: offset 0x0: dir/data: No such file or directory" ]
	# a file-format header, then zeros without end: the copy stops at the
	# first record (mkperfdata's data section starts at 0x100)
	gen -o t.data --samples 20 -n
	run timeout 20 sh -c '{ head -c 256 t.data; cat /dev/zero; } | perfdecode -o out'
	[ "$status" -eq 1 ]
	[ "$output" = "perfdecode: <stdin>: offset 0x100: record size 0 < 8" ]
	[ ! -e out ]
	# a header whose data section is not where one is: refused on a pipe
	# (data size 0, a data offset past what attrs and ids can take)
	cp t.data z.data
	printf '\0\0\0\0\0\0\0\0' | dd of=z.data bs=1 seek=48 conv=notrunc 2>/dev/null
	run timeout 20 sh -c 'cat z.data | perfdecode'
	[ "$status" -eq 1 ]
	[[ "$output" == *"offset 0x30: data size is 0 (perf record did not finish): such a recording is read from its file, not from a pipe" ]]
	cp t.data far.data
	printf '\0\0\0\0\0\0\0\1' | dd of=far.data bs=1 seek=40 conv=notrunc 2>/dev/null
	run timeout 20 sh -c '{ cat far.data; cat /dev/zero; } | perfdecode'
	[ "$status" -eq 1 ]
	[[ "$output" == *"offset 0x28: data section (offset 0x100000000000000, "*" bytes) is not where a recording read from a pipe has it" ]]
}

@test "perfdecode: a file-format recording through a pipe decodes as the file: every variant, cut at any point, AUXTRACE payloads" {
	local v cut
	for v in "" "-z" "-B" "-U -A" "-z -C 64" "-F EVENT_DESC"; do
		# shellcheck disable=SC2086
		gen -o t.data --samples 60 --branches 4 --lost 2 $v
		perfdecode -q t.data > want
		[ "$(grep -c '^sample' want)" -eq 60 ]
		cat t.data | perfdecode -q | sed 's|^# source=<stdin>$|# source=t.data|' > got
		same_file want got
		for cut in 200 300 1000 $(($(stat -c %s t.data) - 100)); do
			head -c "$cut" t.data > cut.data
			run --separate-stderr perfdecode cut.data
			fst=$status ferr=$stderr
			echo "$output" > want
			run --separate-stderr sh -c 'cat cut.data | perfdecode'
			echo "variant '$v' cut at $cut: $fst $ferr / $status $stderr"
			[ "$status" -eq "$fst" ]
			[ "${stderr//<stdin>/cut.data}" = "$ferr" ]
			echo "$output" | sed 's|^# source=<stdin>$|# source=cut.data|' > got
			same_file want got
		done
	done
}

@test "perfdecode: perf record -z (zstd) recording" {
	need_tool perf
	perf_view "$F/z.data" -F pid,tid,time,event,ip \
	    --show-mmap-events --show-task-events > want
	our_view "$F/z.data" > got
	[ "$(grep -c '^sample' got)" -gt 1000 ]
	same_file want got
}

@test "perfdecode: perf record --threads directory" {
	need_tool perf
	[ -d "$F/thr.data" ] && [ -f "$F/thr.data/data.0" ]
	perf_view "$F/thr.data" -F pid,tid,time,event,ip > want
	our_view -k sample "$F/thr.data" > got
	[ "$(grep -c '^sample' got)" -gt 1000 ]
	same_file want got
}

@test "perfdecode: build-ids as perf buildid-list" {
	need_tool perf
	perf buildid-list -i "$F/f.data" | sort > want
	perfdecode -k buildid "$F/f.data" | grep '^buildid ' |
	    cut -d' ' -f3- | sort > got
	[ -s got ]
	same_file want got
	# pipe mode: HEADER_BUILD_ID records, both byte orders
	gen -o pb.data -p --buildid --samples 5
	perf buildid-list -i pb.data > want
	perfdecode -k buildid pb.data | grep '^buildid ' | cut -d' ' -f3- > got
	same_file want got
	perfdecode -k buildid pb.data | grep -qx 'buildid 4242 0102030405060708090a0b0c0d0e0f1011121314 /tmp/bench'
	gen -o pbe.data -p -B --buildid --samples 5
	perfdecode -k buildid pbe.data | grep -qx 'buildid 4242 0102030405060708090a0b0c0d0e0f1011121314 /tmp/bench'
}

@test "perfdecode: branch stacks, little and big endian, HW_INDEX, two events" {
	need_tool perf
	local v
	for v in "" "-B" "-H" "--two" "-B -H --two" \
	    "--buildid" "-B --buildid" "-n"; do
		# shellcheck disable=SC2086
		gen -o t.data --samples 300 --branches 12 $v
		perf_view t.data -F pid,tid,time,event,ip,brstack \
		    --show-mmap-events --show-task-events > want
		our_view t.data > got
		echo "variant '$v'"
		if [[ "$v" == *-B* ]]; then
			# perf 6.1 does not swap MMAP2 prot and flags in
			# big-endian files (prints ---p): compare without
			grep -q '^mmap .* r-xp ' got
			sed -i -E 's/^(mmap( [^ ]+){6}) [^ ]+ /\1 PROT /' want got
		fi
		[ "$(grep -c '^sample .* .*/.*/' got)" -gt 150 ]
		same_file want got
	done
	# the build-id form of MMAP2 (randev.pl's are bytes 01..14)
	gen -o t.data --buildid
	perfdecode t.data | grep -qx 'mmap 4242 4242 1000000001 400000 2000 0 r-xp 0102030405060708090a0b0c0d0e0f1011121314 /tmp/bench'
	perfdecode t.data | grep -qx 'buildid 4242 0102030405060708090a0b0c0d0e0f1011121314 /tmp/bench'
	gen -o t.data --two
	perfdecode t.data | grep -q '^sample .* instructions '
	perfdecode t.data | grep -q '^# event=cycles$'
	perfdecode t.data | grep -q '^# event=instructions$'
}

@test "perfdecode: branch stacks in pipe mode (perf needs -G)" {
	need_tool perf
	local v
	for v in "-p" "-p -H" "-p --two"; do
		# shellcheck disable=SC2086
		gen -o t.data --samples 200 $v
		perf_view t.data -G -F pid,tid,time,event,ip,brstack > want
		our_view -k sample t.data > got
		echo "variant '$v'"
		same_file want got
	done
	# perf 6.1 leaves needs_swap unset for big-endian pipe files and
	# prints every branch flag as -: compare from/to only there, and
	# the flags against the same file in file mode
	gen -o t.data --samples 200 -p -B
	perf script -i t.data -G --ns -F pid,tid,time,event,ip,brstack |
	    perl "$PD/perf2events.pl" --noflags | sort > want
	our_view -k sample t.data | sed -E 's#(/[0-9a-f]+)/[MP-](/[A-Z_]+)?#\1#g' > got
	same_file want got
	gen -o fm.data --samples 200 -B
	our_view -k sample fm.data > want
	our_view -k sample t.data > got
	same_file want got
}

@test "perfdecode: sampled data addresses (perf record -d), real recordings: as perf script -F addr" {
	need_tool perf cc
	cat > touch.c <<'EOF'
#include <stdlib.h>
static char big[1 << 22];
int main(int argc, char **argv) {
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 1000, s = 0;
	for (unsigned long i = 0; i < n; i++) { big[(i * 4099) % sizeof(big)]++; s += big[i % 4096]; }
	return (int)(s & 1);
}
EOF
	cc -O1 -no-pie -o touch touch.c
	# a page fault's data address is the faulting one; cpu-clock's is 0
	# on this machine, the field present all the same; pipe mode too
	perf record -q -d -e page-faults -c 1 -o pf.data ./touch 3000 2>/dev/null || true
	perf record -q -d -e cpu-clock -c 100000 -o cc.data ./touch 30000000 2>/dev/null || true
	perf record -q -d -e page-faults -c 1 -o - ./touch 3000 > pp.data 2>/dev/null || true
	for f in pf cc pp; do
		g=
		[ $f = pp ] && g=-G
		# shellcheck disable=SC2086
		perf_view_addr $f.data $g -F pid,tid,time,event,addr,ip \
		    --show-mmap-events --show-task-events > want
		our_view -q $f.data > got
		echo "$f: $(grep -c '^sample' got) samples"
		[ "$(grep -c '^sample' got)" -ge 100 ]
		same_file want got
	done
	# the faults on big[] have addresses in the program's .bss
	lo=$(nm touch | awk '$3 == "big" { print $1 }')
	[ -n "$lo" ]
	hi=$(printf '%016x' $((0x$lo + (1 << 22))))
	perfdecode -q pf.data | awk -v lo="$lo" -v hi="$hi" '$1 == "sample" {
		a = sprintf("%16s", $7); gsub(/ /, "0", a)
		if (a >= lo && a < hi) n++ }
	    END { exit n < 100 }'
	# without -d the field is '-'
	perfdecode "$F/f.data" | awk '$1 == "sample" && $7 != "-" { bad++ }
	    END { exit bad > 0 }'
}

@test "perfdecode: round trip through mkperfdata, every variant" {
	local v
	grep -v '^#' "$PD/small.ev" > want
	for v in "-T -M" "-T -M -B" "-T -M -p" "-T -M -p -B" "-T -M -z" \
	    "-T -M -z -B -C 100" "-T -M -p -z -C 64" "-T -M -H" \
	    "-T -M -B -H" "-T -M -n" "-T -M -P -c -I" "-T -M -i" \
	    "-T -M -r 1" "-T -M -F EVENT_DESC"; do
		# shellcheck disable=SC2086
		mkperfdata -q $v -o t.data "$PD/small.ev"
		echo "variant '$v'"
		perfdecode -q t.data | grep -v -e '^#' -e '^buildid ' > got
		same_file want got
	done
	# without -T no branch types, without -M no build-id in MMAP2
	mkperfdata -q -o t.data "$PD/small.ev"
	perfdecode -q t.data | grep -v '^#' > got
	sed -E -e 's#(/[MP-])/[A-Z_]+#\1#g' \
	    -e 's/^(mmap( [^ ]+){7}) [0-9a-f]{40} /\1 - /' want > want2
	same_file want2 got
}

@test "perfdecode: mkperfdata branch-stack files as perf script reads them" {
	need_tool perf
	local v g nf
	grep '^sample' "$PD/lbr.ev" | sort > orig
	[ "$(grep -c '/M' orig)" -gt 100 ]
	for v in "-T -M" "-T -M -B" "-T -H" "-T -B -H" "-T -z -C 1000" \
	    "-T -z -B -C 300" "-T -n" "-T -P -c -I" "-T -p" "-T -p -H" \
	    "-T -p -z" "-T -p -B"; do
		# shellcheck disable=SC2086
		mkperfdata -q $v -o t.data "$PD/lbr.ev"
		g=; nf=
		[[ "$v" == *-p* ]] && g=-G
		# perf 6.1 loses branch flags of big-endian pipe files
		[[ "$v" == *-p*-B* ]] && nf=--noflags
		echo "variant '$v'"
		# shellcheck disable=SC2086
		perf script -i t.data $g --ns -F pid,tid,time,event,ip,brstack |
		    perl "$PD/perf2events.pl" $nf | sort > want
		perfdecode -q -s t.data | grep -v '^#' | sort > got
		if [ -n "$nf" ]; then
			sed -i -E 's#(/[0-9a-f]+)/[MP-](/[A-Z_]+)?#\1#g' got
		else
			same_file orig got
		fi
		same_file want got
	done
}

@test "perfdecode: every sample_type field around the branch stack, as perf script" {
	need_tool perf
	local v g
	# ADDR READ CALLCHAIN ID CPU PERIOD STREAM_ID RAW before the branch
	# stack; REGS_USER STACK_USER WEIGHT DATA_SRC TRANSACTION REGS_INTR
	# PHYS_ADDR CGROUP and the page sizes after it; the sample_id_all
	# trailer then holds ID, STREAM_ID and CPU too
	for v in "-X --addr" "-X --addr --two -H" "-X --addr -p" \
	    "-X --addr -B --two -H"; do
		# shellcheck disable=SC2086
		gen -o t.data --samples 200 $v
		echo "variant '$v'"
		perf_view_addr t.data -G -F pid,tid,time,event,addr,ip,brstack \
		    --show-mmap-events --show-task-events > want
		our_view t.data > got
		[ "$(grep -c '^sample .*/' got)" -gt 100 ]
		# ADDR among them: a data address after the ip
		grep -Eq '^sample( [^ ]+){5} [0-9a-f]+ ' got
		if [[ "$v" == *-B* ]]; then
			# perf 6.1 does not swap MMAP2 prot in big-endian files
			sed -i -E 's/^(mmap( [^ ]+){6}) [^ ]+ /\1 PROT /' want got
		fi
		same_file want got
	done
}

@test "perfdecode: branch counters and COMPRESSED2 (newer than perf 6.1)" {
	gen -o plain.data --samples 200 -H
	gen -o cntr.data --samples 200 -H -K
	gen -o cntrbe.data --samples 200 -H -K -B
	gen -o z2.data --samples 200 -H -z --zstd-cut 50 --compressed2
	gen -o z2be.data --samples 200 -H -z --zstd-cut 50 --compressed2 -B
	our_view plain.data > want
	[ "$(grep -c '^sample .*/' want)" -gt 100 ]
	our_view cntr.data > got
	same_file want got
	our_view cntrbe.data > got
	same_file want got
	our_view z2.data > got
	same_file want got
	our_view z2be.data > got
	same_file want got
}

@test "perfdecode: zstd-compressed records straddling chunks, file and pipe" {
	local v
	for v in "" "-B" "-p" "-p -B --two"; do
		# shellcheck disable=SC2086
		gen -o plain.data --samples 300 $v
		# compressed bytes cut every 77: records and zstd blocks
		# straddle the COMPRESSED records
		# shellcheck disable=SC2086
		gen -o z.data --samples 300 -z --zstd-cut 77 $v
		our_view plain.data > want
		our_view z.data > got
		echo "variant '$v'"
		[ "$(grep -c '^sample' got)" -eq 300 ]
		same_file want got
	done
}

@test "perfdecode: unknown record types and AUXTRACE payloads are skipped, LOST counted" {
	gen -o a.data --samples 50
	gen -o b.data --samples 50 -U -A --lost 7
	our_view a.data > want
	run perfdecode -o got.txt b.data
	[ "$status" -eq 0 ]
	[[ "$output" == "perfdecode: b.data: 7 events lost" ]]
	grep -qx 'lost 7' got.txt
	grep -v -e '^#' -e '^buildid ' -e '^lost ' got.txt | sort > got
	same_file want got
	run perfdecode -q -o /dev/null b.data
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# -v: the samples decoded, the 50 written
	run perfdecode -v -o /dev/null b.data
	[ "$status" -eq 0 ]
	[[ "$output" == *"perfdecode: b.data: 50 samples decoded"* ]]
	run perfdecode -qv -o /dev/null b.data
	[ "$output" = "perfdecode: b.data: 50 samples decoded" ]
}

@test "perfdecode: file cut mid-record: every whole record, offset, exit 1" {
	local size cut full
	cp "$F/lbr.data" t.data
	perfdecode t.data | sed 's/^# source=.*/# source=cut.data/' > full.txt
	size=$(stat -c %s t.data)
	for cut in 300 1000 4099 12345 $((size / 2)) $((size - 3000)); do
		head -c "$cut" t.data > cut.data
		run perfdecode cut.data
		echo "cut at $cut: $output"
		[ "$status" -eq 1 ]
		[[ "$output" == *"perfdecode: cut.data: offset 0x"* ]]
		perfdecode cut.data 2>/dev/null > part.txt || true
		# the output is the full output up to the cut
		head -n "$(wc -l < part.txt)" full.txt > want
		same_file want part.txt
		[ "$(wc -l < part.txt)" -gt 4 ]
		# allowed: the same records, a warning, exit 0
		run perfdecode --allow-truncated -o ok.txt cut.data
		[ "$status" -eq 0 ]
		[[ "$output" == *warning*offset\ 0x* ]]
		same_file part.txt ok.txt
	done
	# the last whole sample before a cut inside a sample is written
	full=$(grep -c '^sample' full.txt)
	head -c $((size - 3000)) t.data > cut.data
	[ "$(perfdecode cut.data 2>/dev/null | grep -c '^sample')" -lt "$full" ]
}

@test "perfdecode: data size 0 (perf record killed): records to end of file" {
	gen -o t.data --samples 80 -n
	perfdecode t.data > want
	cp t.data z.data
	# data.size is the u64 at offset 48
	printf '\0\0\0\0\0\0\0\0' | dd of=z.data bs=1 seek=48 conv=notrunc 2>/dev/null
	run perfdecode -o got z.data
	[ "$status" -eq 0 ]
	[[ "$output" == *"data size is 0"* ]]
	sed 's/^# source=z.data/# source=t.data/' got > got2
	same_file want got2
}

@test "perfdecode: corrupt files: clear message with offset, exit 1" {
	# mkperfdata's single-event layout: header 104, ids 8, attr 144,
	# so the data section starts at 0x100: COMM (40 bytes), MMAP2
	# (104), FORK (48), then the first sample at 0x1c0 whose branch
	# count is at 0x1e0.
	gen -o t.data --samples 20 -n
	cp t.data zero.data
	printf '\0\0' | dd of=zero.data bs=1 seek=$((0x100 + 6)) conv=notrunc 2>/dev/null
	run perfdecode -o out.txt zero.data
	[ "$status" -eq 1 ]
	[ "$output" = "perfdecode: zero.data: offset 0x100: record size 0 < 8" ]
	[ ! -e out.txt ]

	cp t.data nr.data
	printf '\377\377\377\377\377\377\377\177' |
	    dd of=nr.data bs=1 seek=$((0x1e0)) conv=notrunc 2>/dev/null
	run perfdecode nr.data
	[ "$status" -eq 1 ]
	[[ "$output" == *"offset 0x1c0: branch stack of 9223372036854775807 entries does not fit the sample" ]]

	cp t.data big.data
	printf '\370\377' | dd of=big.data bs=1 seek=$((0x1c0 + 6)) conv=notrunc 2>/dev/null
	run perfdecode big.data
	[ "$status" -eq 1 ]
	[[ "$output" == *"offset 0x1c0: input ends inside a record of type 9: 65528 bytes"* ]]

	printf 'NOTPERF!%s' "$(head -c 200 /dev/zero | tr '\0' x)" > magic.data
	run perfdecode magic.data
	[ "$status" -eq 1 ]
	[[ "$output" == "perfdecode: magic.data: offset 0x0: bad magic"* ]]

	: > empty.data
	run perfdecode empty.data
	[ "$status" -eq 1 ]
	[[ "$output" == *"offset 0x0: empty input"* ]]

	# attr section past the end of the file
	cp t.data attr.data
	printf '\377\377\0\0' | dd of=attr.data bs=1 seek=32 conv=notrunc 2>/dev/null
	run perfdecode attr.data
	[ "$status" -eq 1 ]
	[[ "$output" == *"offset 0x18: attr section"*"past the end of the file" ]]

	# header only
	head -c 104 t.data > hdr.data
	run perfdecode hdr.data
	[ "$status" -eq 1 ]
	[[ "$output" == *"offset 0x"* ]]

	run perfdecode no-such-file
	[ "$status" -eq 1 ]
}

@test "perfdecode: filters --pid --comm --event --kinds --samples-only" {
	gen -o t.data --samples 60 --two
	perfdecode t.data > all
	perfdecode --pid 4243 t.data > p
	[ "$(grep -c '^sample 4243 ' p)" -eq "$(grep -c '^sample 4243 ' all)" ]
	run ! grep -q '^sample 4242 ' p
	grep -q '^fork 4243 ' p
	run ! grep -q '^comm ' p
	perfdecode -p 4242,4243 t.data > p2
	perfdecode -p 4242 -p 4243 t.data > p3
	same_file all p2
	same_file all p3
	# the child 4243 inherits comm "bench" at the fork
	perfdecode --comm bench t.data > c
	same_file all c
	perfdecode --comm other t.data > c2
	run ! grep -q '^sample' c2
	perfdecode --event instructions t.data > e
	[ "$(grep -c '^sample' e)" -eq "$(grep -c '^sample .* instructions ' all)" ]
	[ "$(grep -c '^sample' e)" -gt 5 ]
	run ! grep -q '^sample .* cycles ' e
	perfdecode -s t.data > s
	grep '^sample' all > want
	grep -v '^#' s > got
	same_file want got
	perfdecode -k mmap,fork t.data | grep -v '^#' > k
	grep -e '^mmap' -e '^fork' all > want
	same_file want k
}

@test "perfdecode: -o writes a file, leaves none on failure" {
	perfdecode -o out.txt "$F/lbr.data"
	perfdecode "$F/lbr.data" > want
	same_file want out.txt
	head -c 5000 "$F/lbr.data" > cut.data
	run perfdecode -o out2.txt cut.data
	[ "$status" -eq 1 ]
	[ ! -e out2.txt ]
	ls -a > files
	run ! grep -q 'out2' files
}

@test "perfdecode: stream header lines" {
	perfdecode "$F/lbr.data" > out
	[ "$(sed -n 1p out)" = "# profpipe-events 2" ]
	grep -qx '# source=.*lbr.data' out
	grep -qx '# byte-order=little' out
	grep -qx '# event=cycles' out
	gen -o be.data -B --samples 3
	perfdecode be.data | grep -qx '# byte-order=big'
}

@test "perfdecode: fuzz harness over the seed corpus" {
	# about 300 runs a second here (pd_init per run): a few seconds
	fuzz_briefly perfdata 2000 "$PD/corpus"
}
