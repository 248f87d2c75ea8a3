#!/usr/bin/env bats
# Real recordings through the pipeline: `perf record -e cpu-clock` of real
# programs (a fixed-address one built by clang-19, a PIE built by gcc, and
# a shell loop that runs one of them many times), recorded to a file, with
# -z, to a pipe and with --threads; `perfdecode | preagg -b` must give S
# entries equal to perf script's samples of the binary, address for
# address and count for count.  perf script's addresses are rebased the
# way BOLT rebases them: through the mapping's start and page offset and
# the executable segment's address and offset.

load common

setup_file() {
	need_tool perf clang-19 gcc
	W="$BATS_FILE_TMPDIR"
	cd "$W" || return 1
	clang-19 -O2 -DNWORDS=3000000 -fno-pie -no-pie -o fixed "$DATA/progs/demo.c"
	gcc -O2 -fpie -pie -DNWORDS=3000000 -o pie "$DATA/progs/demo.c"
	clang-19 -O2 -DNWORDS=300000 -fno-pie -no-pie -o small "$DATA/progs/demo.c"
	export W
}

setup() {
	setup_tmp
}

# perf script's samples of BIN in INPUT as "address count", link-time
# addresses, sorted
ref_samples() {	# ref_samples INPUT BIN [perf script input options]
	local input=$1 bin=$2 delta
	delta=$(python3 -c "
import subprocess
out = subprocess.run(['$LLVM_BIN/llvm-readelf', '-lW', '$bin'], capture_output=True, text=True).stdout
for l in out.splitlines():
    f = l.split()
    if f and f[0] == 'LOAD' and 'E' in f[6:-1]:
        print(int(f[2], 16) - int(f[1], 16)); break")
	shift 2
	perf script -F pid,ip --show-mmap-events "$@" -i "$input" 2>/dev/null |
	    awk -v name="$(basename "$bin")" -v delta="$delta" '
	    function hex(s,   i, v, c) { v = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
		return v }
	    /PERF_RECORD_MMAP2/ {
		n = split($NF, p, "/"); if (p[n] != name || $(NF-1) !~ /x/) next
		split($3, pt, "/"); pid = pt[1]
		match($0, /\[0x[0-9a-f]+\(0x[0-9a-f]+\) @ 0x[0-9a-f]+/)
		m = substr($0, RSTART + 1, RLENGTH - 1); gsub(/[()@]/, " ", m); split(m, v, " ")
		if (!(pid in start)) { start[pid] = hex(v[1]); len[pid] = hex(v[2]); pgoff[pid] = hex(v[3]) }
		next }
	    /PERF_RECORD/ { next }
	    NF == 2 { pid = $1; ip = hex($2)
		if (!(pid in start) || ip < start[pid] || ip >= start[pid] + len[pid]) next
		c[sprintf("%x", ip - start[pid] + pgoff[pid] + delta)]++ }
	    END { for (a in c) print a, c[a] }' | sort
}

our_samples() {	# our_samples INPUT BIN
	perfdecode "$1" | preagg -b "$2" | awk '$1 == "S" { print $2, $3 }' | sort
}

compare() {	# compare INPUT BIN MINSAMPLES
	ref_samples "$1" "$2" > ref
	our_samples "$1" "$2" > ours
	n=$(awk '{ s += $2 } END { print s + 0 }' ref)
	echo "$n samples of $2 in $1" >&2
	[ "$n" -ge "$3" ]
	same_file ref ours
}

@test "real recordings: a fixed-address program, recorded to a file" {
	perf record -q -e cpu-clock:u -F 20000 -o perf.data -- "$W/fixed" > /dev/null
	compare perf.data "$W/fixed" 200
}

@test "real recordings: a gcc PIE, rebased to link-time addresses" {
	perf record -q -e cpu-clock:u -F 20000 -o perf.data -- "$W/pie" > /dev/null
	compare perf.data "$W/pie" 200
}

@test "real recordings: zstd-compressed records (perf record -z)" {
	perf record -q -z -e cpu-clock:u -F 20000 -o perf.data -- "$W/fixed" > /dev/null
	compare perf.data "$W/fixed" 200
}

@test "real recordings: pipe mode (perf record -o -)" {
	perf record -q -e cpu-clock:u -F 20000 -o - -- "$W/pie" > pipe.data 2> /dev/null
	compare pipe.data "$W/pie" 200
}

@test "real recordings: perf record --threads (a directory of data files)" {
	perf record -q --threads -e cpu-clock:u -F 20000 -o perf.data -- "$W/fixed" > /dev/null
	[ -d perf.data ]
	compare perf.data "$W/fixed" 200
}

@test "real recordings: many processes of one binary from a shell loop" {
	perf record -q -e cpu-clock:u -F 20000 -o perf.data -- \
	    sh -c "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do '$W/small' \$i; done" > /dev/null
	[ "$(perf script -F pid -i perf.data 2>/dev/null | sort -u | wc -l)" -ge 12 ]
	compare perf.data "$W/small" 100
}

@test "real recordings: a stripped system binary (the shell), functions from .eh_frame as BOLT --allow-stripped finds them" {
	sh_bin=$(readlink -f /bin/sh)
	run llvm-readelf-19 -S "$sh_bin"
	echo "$output" | grep -q ' .eh_frame '
	run ! grep -q ' .symtab ' <<< "$output"
	perf record -q -e cpu-clock:u -F 20000 -o perf.data -- \
	    "$sh_bin" -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done' > /dev/null
	compare perf.data "$sh_bin" 200
}
