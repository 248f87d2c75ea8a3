#!/usr/bin/env bats
# libbolt's pre-aggregated reader and writer (pa.c), through pacat (a
# test program that reads a stream with pa_next and writes every entry
# back with pa_put_entry) and preagg --merge, which is built on them.
# The grammar is LLVM main's bolt/docs/profiles.md.

load ../common

setup() {
	setup_tmp
}

@test "pa: every entry type of LLVM main's profiles.md reads and writes back" {
	cat > in.pa <<'EOF'
# a comment, then a blank line

E cycles:u
S 401000 3
S deadbeef:10 5
S X:7f0000001000 1
E br_inst_retired.near_taken
S 41be60 6
T 4b196f 4b19e0 4b19ef 2
T 4b196f 4b19e0 -1 2 1
R 0 401000 401010 7
R 401200 401000 401010 7 3
B 4b1942 39b57f0 3 0
B X:12 ab:34 18446744073709551615 18446744073709551615
F 41be50 41be50 3
f 41be90 41be90 4
r 401000 401010 5
T -2 401000 401010 1
R -3 401000 401010 1
T 0x10 0X20 FFFFFFFFFFFFFFFF 1 0
EOF
	# the canonical form: constants and 0x prefixes as plain 64-bit hex,
	# a mispredict count kept where it was given
	cat > want.pa <<'EOF'
E cycles:u
S 401000 3
S deadbeef:10 5
S X:7f0000001000 1
E br_inst_retired.near_taken
S 41be60 6
T 4b196f 4b19e0 4b19ef 2
T 4b196f 4b19e0 ffffffffffffffff 2 1
R 0 401000 401010 7
R 401200 401000 401010 7 3
B 4b1942 39b57f0 3 0
B X:12 ab:34 18446744073709551615 18446744073709551615
F 41be50 41be50 3
f 41be90 41be90 4
r 401000 401010 5
T fffffffffffffffe 401000 401010 1
R fffffffffffffffd 401000 401010 1
T 10 20 ffffffffffffffff 1 0
EOF
	run pacat in.pa
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" > got.pa
	same_file want.pa got.pa
	# and the canonical form is a fixed point
	pacat got.pa > again.pa
	same_file want.pa again.pa
}

@test "pa: damaged lines stop with file:line and a safe quote of the junk" {
	check() {	# check LINE MESSAGE: LINE as line 3 of a stream
		printf 'B 1 2 3 0\n# ok\n%b\nF 1 2 3\n' "$1" > bad
		run pacat bad
		[ "$status" -eq 1 ] || { echo "status $status for $1"; return 1; }
		[ "$output" = "pacat: bad:3: $2" ] ||
		    { echo "got: $output"; echo "want: pacat: bad:3: $2"; return 1; }
	}
	check 'Q 1 2 3' "unknown entry type 'Q'"
	check 'BB 1 2 3 0' "unknown entry type 'BB'"
	check 'F 1 2' 'F entry: missing count'
	check 'F 1' 'F entry: missing location 2 of 2'
	check 'T 1 2 3' 'T entry: missing count'
	check 'B 1 2 3' 'B entry: missing mispredict count'
	check 'F 1 2 3 4' "F entry: extra field '4'"
	check 'S 1 2 3' "S entry: extra field '3'"
	check 'T 1 2 3 4 5 6' "T entry: extra field '6'"
	check 'B 1 2 18446744073709551616 0' "B entry: bad count '18446744073709551616'"
	check 'B 1 2 1 184467440737095516150' "B entry: bad mispredict count '184467440737095516150'"
	check 'F 1 10000000000000000 3' "F entry: bad location '10000000000000000'"
	check 'F 1 -4 3' "F entry: bad location '-4'"
	check 'F zz 2 3' "F entry: bad location 'zz'"
	check 'F :1 2 3' "F entry: bad location ':1'"
	check 'F 1: 2 3' "F entry: bad location '1:'"
	check 'F nothex:1 2 3' "F entry: bad location 'nothex:1'"
	check 'F 1 2 -3' "F entry: bad count '-3'"
	check 'F 1 2 3x' "F entry: bad count '3x'"
	check 'E' 'bad event line: an E entry takes one event name'
	check 'E a b' 'bad event line: an E entry takes one event name'
	# bytes that are not printable come out as \xNN, not raw
	check 'F 1 2 \x1b[31m\x80' "F entry: bad count '\\x1b[31m\\x80'"
	# a long junk token is cut
	long=$(printf 'z%.0s' $(seq 300))
	printf 'F 1 2 %s\n' "$long" > bad
	run pacat bad
	[ "$status" -eq 1 ]
	[ "${#output}" -lt 140 ]
	echo "$output" | grep -q "^pacat: bad:1: F entry: bad count 'zzz.*\.\.\.'$"
}

@test "pa: a line cut anywhere is read whole or rejected, never half" {
	line='T deadbeef:4b196f X:4b19e0 4b19ef 12345 678'
	i=1
	while [ "$i" -lt "${#line}" ]; do
		printf '%s\n' "${line:0:$i}" > cut
		run pacat cut
		# a prefix is either a complete shorter entry or an error
		if [ "$status" -eq 0 ]; then
			case $output in
			"T deadbeef:4b196f X:4b19e0 4b19ef "[0-9]*) ;;
			*) echo "prefix $i read as: $output"; return 1 ;;
			esac
		else
			[ "$status" -eq 1 ]
			echo "$output" | grep -q '^pacat: cut:1: '
		fi
		i=$((i + 1))
	done
}

@test "pa: 10000 distinct build-ids merge in any order to the same sums" {
	# three inputs over 10000 build-ids, every build-id in two of them
	awk 'BEGIN {
		for (i = 0; i < 10000; i++) {
			id = sprintf("%040x", i * 2654435761 % 4294967296 + i * 4294967296)
			printf "S %s:%x %d\n", id, i, 1 + i % 7 > ("p" (i % 3))
			printf "B %s:%x X:%x %d %d\n", id, i, i, 2, i % 2 > ("p" ((i + 1) % 3))
		}
	}'
	# what the sums must be, by awk
	cat p0 p1 p2 | awk '{ k = $1 " " $2 " " $3; if ($1 == "B") { c[k] += $4; m[k] += $5 } else c[$1 " " $2] += $3 }
	    END { n = 0; for (k in c) n++; print n }' > nkeys
	[ "$(cat nkeys)" -eq 20000 ]
	for order in "0 1 2" "2 1 0" "1 2 0"; do
		set -- $order
		preagg --merge p$1 p$2 p$3 > m.$1$2$3
	done
	same_file m.012 m.210
	same_file m.012 m.120
	[ "$(grep -c '^S ' m.012)" -eq 10000 ]
	[ "$(grep -c '^B ' m.012)" -eq 10000 ]
	# every sum equals awk's
	sort p0 p1 p2 | awk '$1 == "S" { c[$2] += $3 } $1 == "B" { b[$2 " " $3] += $4; m[$2 " " $3] += $5 }
	    END { for (k in c) print "S", k, c[k]; for (k in b) print "B", k, b[k], m[k] }' | sort > want
	sort m.012 > got
	same_file want got
	# the build-ids come out sorted, whatever the input order
	grep '^S ' m.012 | cut -d' ' -f2 | cut -d: -f1 > ids
	sort -c ids
}

@test "pa: fuzz harness over the reader and writer" {
	command -v clang-19 >/dev/null || need_tool clang-19
	(cd "$TOP" && make -s fuzz >/dev/null)
	[ -x "$TOP/build/fuzz/fuzz_preagg" ]
	mkdir corpus
	printf 'E cycles\nS 41be50 3\nT 4b196f 4b19e0 -1 2 1\nB X:1 ab:2 3 4\nr 1 2 3\n' > corpus/a
	printf 'R -3 1 2 3\nF 1 2 3\nf 1 2 3\n# c\n' > corpus/b
	run "$TOP/build/fuzz/fuzz_preagg" -seed=1 -runs=200000 -max_total_time=20 corpus
	[ "$status" -eq 0 ]
}
