#!/usr/bin/env bats
# batmap on the large benchmark program (tests/large/build-large.sh: 3494
# functions, 1.6 MB of .text; app.bolt is its llvm-bolt-19 --enable-bat
# copy with hot/cold splitting, about 4800 BAT maps): the tables checked against
# both binaries and re-encoded to the section's bytes, and the
# translation of a branch-stack profile of app.bolt against perf2bolt-19.

load ../common

LARGE="$TOP/build/large"

setup_file() {
	PROFPIPE_TESTBIN="$PROFPIPE_TESTBIN" "$TOP/tests/large/build-large.sh" "$LARGE"
	# GNU objdump from Debian's binutils sources, BOLTed with BAT
	PROFPIPE_TESTBIN="$PROFPIPE_TESTBIN" "$TOP/tests/large/build-large-src.sh" "$LARGE"
}

setup() {
	setup_tmp
	need_tool perf2bolt llvm-objcopy-19 llvm-objdump-19 python3
	export ASAN_OPTIONS="detect_leaks=0:exitcode=86" UBSAN_OPTIONS="exitcode=86"
}

@test "batmap --dump, large program: every entry against both binaries, the section's very bytes" {
	batmap --dump "$LARGE/app.bolt" > app.dump
	sed -n 3p app.dump
	[ "$(grep -c '^hot ' app.dump)" -ge 2000 ]
	[ "$(grep -c '^cold ' app.dump)" -ge 500 ]
	run python3 "$DATA/batmap/checkdump.py" app.dump "$LARGE/app.bolt" "$LARGE/app" -
	echo "$output"
	[ "$status" -eq 0 ]
	# the maps build-large.sh's llvm-bolt run wrote (its log)
	maps=$(sed -n 's/^BOLT-INFO: Wrote \([0-9]*\) BAT maps$/\1/p' "$LARGE/bolt.log")
	[ "$maps" -ge 2000 ]
	[ "$(echo "$output" | sed -n 's/^fragments=\([0-9]*\) .*/\1/p')" -eq "$maps" ]
	llvm-objcopy-19 --dump-section .note.bolt_bat=app.sec "$LARGE/app.bolt" /dev/null
	python3 "$DATA/batmap/batenc.py" app.dump > app.enc
	same_file app.sec app.enc
}

@test "batmap, large program: a profile of app.bolt along its real control flow, translated: the fdata of perf2bolt-19 -p" {
	cp "$LARGE/app.bolt" "$LARGE/app" .
	# 24 deep: perf2bolt drops two entries of every stack of a BOLTed
	# binary once it sees one of 32 (its Skylake workaround)
	cfgwalk -n 20000 -d 24 -D skewed -s 1 -o c.events app.bolt
	mkperfdata -o c.data c.events
	"$LLVM_BIN/perf2bolt" -p c.data -o a.fdata app.bolt > a.log 2>&1
	grep -q 'traces mismatching disassembled function contents: 0 ' a.log
	perfdecode c.data | preagg --legacy -b app.bolt > bolted.pa
	batmap -v app.bolt app bolted.pa > input.pa 2> v.txt
	cat v.txt
	"$LLVM_BIN/perf2bolt" --pa -p input.pa -o b.fdata app > b.log 2>&1
	batmap --dump app.bolt > app.dump
	run python3 "$DATA/batmap/cmpfdata.py" a.fdata b.fdata app.dump app
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | sed -n 's/.* same=\([0-9]*\).*/\1/p')" -ge 20000 ]
}

@test "batmap, large program: random taken branches of app.bolt, the fdata of perf2bolt-19 --pa" {
	cp "$LARGE/app.bolt" "$LARGE/app" .
	python3 "$DATA/batmap/lbrgen.py" app.bolt 5000 1 > g.events
	mkperfdata -o g.data g.events
	perfdecode g.data | preagg --legacy -b app.bolt | grep '^B ' > b.pa
	batmap app.bolt app b.pa > bin.pa
	"$LLVM_BIN/perf2bolt" --pa -p b.pa -o a.fdata app.bolt > a.log 2>&1
	"$LLVM_BIN/perf2bolt" --pa -p bin.pa -o b.fdata app > b.log 2>&1
	batmap --dump app.bolt > app.dump
	run python3 "$DATA/batmap/cmpfdata.py" a.fdata b.fdata app.dump app
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | sed -n 's/.* same=\([0-9]*\).*/\1/p')" -ge 50000 ]
}

@test "batmap, large program: perfdecode | preagg | batmap | fdatawrite --bolted, the very fdata of perf2bolt-19 -p on app.bolt; llvm-bolt-19 optimizes app with it as with perf2bolt's, and with plain fdatawrite's ordinary form, the same log" {
	cp "$LARGE/app.bolt" "$LARGE/app" .
	cfgwalk -n 20000 -d 24 -D skewed -s 1 -o c0.events app.bolt
	# returns typed as perf record -j any,save_type types them: preagg's
	# current format writes R entries
	llvm-objdump-19 -d --no-show-raw-insn app.bolt |
	    awk '$2 ~ /^ret/ { sub(":", "", $1); print $1 }' > rets
	awk 'FNR == NR { r[$1] = 1; next }
	    $1 == "sample" { for (i = 7; i <= NF; i++) { split($i, b, "/")
		if (b[1] in r) $i = $i "/RET" } } { print }' rets c0.events > c.events
	mkperfdata -T -o c.data c.events
	"$LLVM_BIN/perf2bolt" -p c.data -o a.fdata app.bolt > a.log 2>&1
	perfdecode c.data | preagg -b app.bolt > cur.pa
	grep -q '^R ' cur.pa
	grep -Eq '^T( [0-9a-f]+){3} [0-9]+ [0-9]+$' cur.pa
	batmap -v app.bolt app cur.pa > in.pa 2> v.txt
	cat v.txt
	fdatawrite --bolted app in.pa > f.fdata
	# perf2bolt's fdata as llvm-bolt reads it on app: code BOLT left at
	# a moved function's old address (__BOLT_FDE_FUNCat..., foo.org.0),
	# which app lacks, an unknown location (tests/40-batmap.bats has
	# walks through that code)
	python3 "$DATA/batmap/stubfdata.py" app a.fdata | sort > a.s
	sort f.fdata > f.s
	[ "$(grep -c . a.s)" -ge 10000 ]
	same_file a.s f.s
	# the same with the legacy format
	perfdecode c.data | preagg --legacy -b app.bolt | batmap app.bolt app |
	    fdatawrite --bolted app | sort > l.s
	same_file a.s l.s
	# llvm-bolt-19 on app with either: the same log (profiled
	# functions, stale ones, dyno stats); app optimized with ours runs
	# the workload as app does
	BOLTOPTS="--enable-bat -reorder-blocks=ext-tsp -split-functions -split-all-cold -reorder-functions=hfsort -dyno-stats"
	"$LLVM_BIN/llvm-bolt" app -data a.fdata -o app.a2 $BOLTOPTS > a.blog 2>&1
	"$LLVM_BIN/llvm-bolt" app -data f.fdata -o app.f2 $BOLTOPTS > f.blog 2>&1
	grep -E 'non-empty execution profile|stale|executed instructions' f.blog
	grep -Eq 'BOLT-INFO: [0-9]{4} out of [0-9]+ functions in the binary .* non-empty execution profile' f.blog
	grep -Eq '[1-9][0-9]* : executed instructions' f.blog
	# (perf2bolt's lines naming code BOLT left in place name objects
	# llvm-bolt ignores: they count in that line only)
	grep -v 'objects was ignored' a.blog > a2.blog
	grep -v 'objects was ignored' f.blog > f2.blog
	same_file a2.blog f2.blog
	./app.f2 1 > out.txt
	same_file "$LARGE/expected" out.txt
	# the ordinary form (plain fdatawrite): llvm-bolt-19's very log
	# (profiled functions, stale ones, every dyno stat) but the line
	# that names the boltedcollection mode
	fdatawrite app in.pa > t.fdata
	run ! grep -q boltedcollection t.fdata
	"$LLVM_BIN/llvm-bolt" app -data t.fdata -o app.t2 $BOLTOPTS > t.blog 2>&1
	grep -v 'profile collection done on a binary already processed' f.blog > f3.blog
	same_file f3.blog t.blog
	# with --literal (as perf2bolt --pa writes batmap's entries),
	# llvm-bolt-19 finds many functions stale
	fdatawrite --literal app in.pa > l.fdata
	"$LLVM_BIN/llvm-bolt" app -data l.fdata -o app.l2 $BOLTOPTS > l.blog 2>&1
	nstale=$(sed -n 's/.*WARNING: \([0-9]*\) (.*functions\{0,1\} have invalid.*/\1/p' l.blog)
	echo "stale with --literal: $nstale"
	[ "${nstale:-0}" -ge 100 ]
	./app.t2 1 > out.txt
	same_file "$LARGE/expected" out.txt
	# yamlwrite on the translation: --literal is perf2bolt-19 --pa -w's
	# YAML; by default llvm-bolt-19 reads it (its hashes BOLT's own) as
	# plain fdatawrite's fdata: the same functions profiled, none stale,
	# every dyno stat
	"$LLVM_BIN/perf2bolt" --pa -p in.pa -w pa.yaml -o pa.fdata app > pa.log 2>&1
	yamlwrite --literal app in.pa > lit.yaml
	run python3 "$DATA/yamlwrite/yamlcmp.py" pa.yaml lit.yaml
	echo "$output" | head -3
	[ "$status" -eq 0 ]
	yamlwrite app in.pa > t.yaml
	"$LLVM_BIN/llvm-bolt" app -data t.yaml -o app.y2 $BOLTOPTS > y.blog 2>&1
	grep -E 'non-empty execution profile|stale|^ +[0-9]+ : ' t.blog > t.stats
	grep -E 'non-empty execution profile|stale|^ +[0-9]+ : ' y.blog > y.stats
	grep -Eq '[1-9][0-9]* : executed instructions' y.stats
	run ! grep -q stale y.stats
	same_file t.stats y.stats
	./app.y2 1 > out.txt
	same_file "$LARGE/expected" out.txt
}

@test "batmap, large program: branches from the first eight, the last four and the NOPs of every block of app.bolt (srcgen): batmap | fdatawrite --bolted is perf2bolt-19 --pa's fdata on app.bolt, yamlwrite --bat its YAML, but what batmap drops past the end of an input function" {
	cp "$LARGE/app.bolt" "$LARGE/app" .
	cfgtest app.bolt > b.cfg
	llvm-nm-19 -S --defined-only app.bolt > b.nm
	llvm-objdump-19 -d --no-show-raw-insn app.bolt |
	    awk '/^ +[0-9a-f]+:/ { sub(":", "", $1); print $1, $2 }' > b.insns
	python3 "$DATA/yamlwrite/srcgen.py" --no-mid b.cfg b.nm b.insns > sg.pa
	[ "$(grep -c '^B ' sg.pa)" -ge 50000 ]
	"$LLVM_BIN/perf2bolt" --pa -p sg.pa -o a.fdata -w a.yaml app.bolt > a.log 2>&1
	batmap -v app.bolt app sg.pa > in.pa 2> v.txt
	cat v.txt
	fdatawrite --bolted app in.pa | sort > f.s
	# every line of ours is perf2bolt's (code BOLT left at a moved
	# function's old address an unknown location, as llvm-bolt reads
	# it on app); perf2bolt's others end past the end of the input's
	# function (its symbol's size: batmap drops and counts them), no
	# more of them than batmap dropped
	python3 "$DATA/batmap/stubfdata.py" app a.fdata | sort > a.s
	[ "$(grep -c . a.s)" -ge 40000 ]
	comm -23 f.s a.s > extra
	comm -13 f.s a.s > missing
	[ ! -s extra ]
	llvm-nm-19 -S --defined-only app | awk 'NF == 4 { print $4, $2 }' > sizes
	python3 - sizes missing <<'PY'
import sys
sz = {}
for l in open(sys.argv[1]):
    n, s = l.split()
    sz[n] = max(sz.get(n, 0), int(s, 16))
for l in open(sys.argv[2]):
    p = l.split()
    t = p[4].split('/')[0]
    assert p[3] == '1' and sz.get(t, 0) > 0 and int(p[5], 16) > sz[t], l
PY
	echo "past the end: $(grep -c . missing)"
	[ "$(grep -c . missing)" -le "$(sed -n 's/.* \([0-9]*\) past the end.*/\1/p' v.txt)" ]
	# yamlwrite --bat: perf2bolt's YAML but those
	batmap --dump app.bolt > app.dump
	llvm-readelf-19 -sW app.bolt > app.syms
	llvm-readelf-19 -sW app > in.syms
	yamlwrite --bat app.bolt app in.pa > ours.yaml
	run python3 "$DATA/yamlwrite-bat/cmpyaml.py" ours.yaml a.yaml --nobat app.syms app.dump --input in.syms
	echo "$output" | tail -3
	[ "$(echo "$output" | tail -1 | sed -n 's/.* differences=\([0-9]*\).*/\1/p')" -le "$(grep -c . missing)" ]
}

@test "batmap, GNU objdump (2174 functions, BOLTed with BAT): fdatawrite --bolted is perf2bolt-19 -p's fdata; llvm-bolt-19 prints the same log with plain fdatawrite's" {
	cp "$LARGE/objdump-bb.bolt" objdump.bolt
	cp "$LARGE/objdump-bb" objdump
	cfgwalk -n 20000 -d 24 -D skewed -s 3 -o c.events objdump.bolt
	mkperfdata -o c.data c.events
	"$LLVM_BIN/perf2bolt" -p c.data -o a.fdata objdump.bolt > a.log 2>&1
	grep -q 'traces mismatching disassembled function contents: 0 ' a.log
	perfdecode c.data | preagg -b objdump.bolt | batmap -v objdump.bolt objdump > in.pa 2> v.txt
	cat v.txt
	fdatawrite --bolted objdump in.pa | sort > f.s
	python3 "$DATA/batmap/stubfdata.py" objdump a.fdata | sort > a.s
	[ "$(grep -c . a.s)" -ge 10000 ]
	same_file a.s f.s
	BOLTOPTS="--enable-bat -reorder-blocks=ext-tsp -split-functions -split-all-cold -reorder-functions=hfsort -dyno-stats"
	"$LLVM_BIN/llvm-bolt" objdump -data a.fdata -o a.out $BOLTOPTS > a.blog 2>&1
	fdatawrite objdump in.pa > t.fdata
	"$LLVM_BIN/llvm-bolt" objdump -data t.fdata -o t.out $BOLTOPTS > t.blog 2>&1
	grep -Eq 'BOLT-INFO: [0-9]{4} out of [0-9]+ functions in the binary .* non-empty execution profile' t.blog
	grep -v 'profile collection done on a binary already processed' a.blog > a2.blog
	same_file a2.blog t.blog
	./t.out -d -r -t -s "$LARGE/objdump-input" | md5sum | cut -c1-32 > out.md5
	./objdump -d -r -t -s "$LARGE/objdump-input" | md5sum | cut -c1-32 > want.md5
	same_file want.md5 out.md5
}

@test "batmap, large program and GNU objdump: walks through code BOLT left at moved functions' old addresses (cfgwalk -S: foo.org.0 stubs, old bodies): fdatawrite is perf2bolt-19's fdata as llvm-bolt-19 reads it on the input; llvm-bolt-19 -w writes the same YAML from both; yamlwrite --bat is perf2bolt's YAML, and llvm-bolt-19 reads the same profile from both YAMLs" {
	cp "$LARGE/app.bolt" "$LARGE/app" .
	cp "$LARGE/objdump-bb.bolt" objdump.bolt
	cp "$LARGE/objdump-bb" objdump
	# app.bolt: a jump at most moved functions' old entries (code BOLT
	# left in place has references it could not rewrite)
	[ "$(llvm-nm-19 app.bolt | grep -c '\.org\.0$')" -ge 1000 ]
	for b in app.bolt:app objdump.bolt:objdump; do
		p=${b%:*} in=${b#*:}
		# a tenth of the walks' starts and indirect calls land on that
		# code, which is then walked
		cfgwalk -n 20000 -d 24 -D skewed -s 5 -S 10 -o s.events $p
		mkperfdata -o s.data s.events
		"$LLVM_BIN/perf2bolt" -p s.data -o a.fdata $p > a.log 2>&1
		"$LLVM_BIN/perf2bolt" -p s.data --profile-format=yaml -o ref.yaml $p > ref.log 2>&1
		grep -q 'traces mismatching disassembled function contents: 0 ' a.log
		perfdecode s.data | preagg -b $p > s.pa
		batmap -v $p $in s.pa > in.pa 2> v.txt
		cat v.txt
		n=$(grep -cE '\.org\.0|__BOLT_FDE_FUNCat' a.fdata)
		echo "$p: perf2bolt's lines naming such code: $n"
		[ "$n" -ge 1000 ]
		[ "$(sed -n 's/.* \([0-9]*\) branches with an end in a function .* lacks.*/\1/p' v.txt)" -ge 500 ]
		[ $p != app.bolt ] || grep -Eq '^1 [^ ]*\.org\.0/[^ ]* 0 1 [^ ]* 0 ' a.fdata
		# perf2bolt's fdata, that code an unknown location as llvm-bolt
		# reads it on the input: fdatawrite --bolted's, line for line
		fdatawrite --bolted $in in.pa > f.fdata
		fdatawrite $in in.pa > t.fdata
		python3 "$DATA/batmap/stubfdata.py" $in a.fdata | sort > a.s
		sort f.fdata > f.s
		[ "$(grep -c . a.s)" -ge 10000 ]
		same_file a.s f.s
		# llvm-bolt-19 on the input: the same profile (every function's
		# and block's count, successors, calls) from perf2bolt's fdata
		# and ours; from plain fdatawrite's, the same counts and
		# successors (it writes a tail call BOLT merged into a block of
		# its own from the tail call, where llvm-bolt credits the call
		# site: fdatawrite(1), BOLTED PROFILES)
		for f in a f t; do
			"$LLVM_BIN/llvm-bolt" $in -data $f.fdata -w $f.yaml -o /dev/null > $f.log 2>&1
		done
		python3 "$DATA/yamlwrite/yamlcmp.py" --sum-calls a.yaml f.yaml
		python3 "$DATA/yamlwrite/yamlcmp.py" --no-calls a.yaml t.yaml
		# yamlwrite --bat: perf2bolt's BAT YAML, but for the functions it
		# writes for that code, which the input lacks
		batmap --dump $p > p.dump
		llvm-readelf-19 -sW $p > p.syms
		llvm-readelf-19 -sW $in > in.syms
		yamlwrite --bat $p $in in.pa > y.yaml
		run python3 "$DATA/yamlwrite-bat/cmpyaml.py" y.yaml ref.yaml --nobat p.syms p.dump --input in.syms
		echo "$output"
		[ "$status" -eq 0 ]
		# llvm-bolt-19 on the input reads the same profile from
		# yamlwrite --bat's YAML as from perf2bolt's: every function's
		# exec (entries from that code included), every block
		for f in ref y; do
			"$LLVM_BIN/llvm-bolt" $in -data $f.yaml -w $f.in.yaml -o /dev/null > $f.in.log 2>&1
		done
		python3 "$DATA/yamlwrite/yamlcmp.py" --sum-calls ref.in.yaml y.in.yaml
	done
}
