#!/usr/bin/env bats
# heatmap: llvm-bolt-heatmap-22's five files, byte for byte, from a real
# `perf record -e cpu-clock` recording made here (basic events) and from
# LBR recordings that follow the programs' control flow (cfgwalk,
# mkperfdata), through the pipeline (perfdecode | preagg --heatmap) and
# from a pre-aggregated file (llvm-bolt-heatmap-22 --pa); --density
# against perf2bolt-22 --show-density; --svg as headless Chromium draws
# it, its pixels checked; options; damaged streams.

load common

H22=/usr/lib/llvm-22/bin/llvm-bolt-heatmap
P22=/usr/lib/llvm-22/bin/perf2bolt
FILES=("" .csv -section-hotness.csv -4096 -262144)

setup_file() {
	command -v clang-19 >/dev/null && command -v gcc >/dev/null || return 0
	W="$BATS_FILE_TMPDIR"
	cd "$W" || return 1
	clang-19 -O2 -DNWORDS=3000000 -fno-pie -no-pie -o fixed "$DATA/progs/demo.c"
	gcc -O2 -fpie -pie -DNWORDS=3000000 -o pie "$DATA/progs/demo.c"
	export W
}

setup() {
	setup_tmp
	need_tool "$H22" "$P22" perf clang-19 gcc mkperfdata cfgwalk
}

# same5 A B: the five files of prefixes A and B are the same, none empty
same5() {
	local f
	for f in "${FILES[@]}"; do
		[ -s "$1$f" ] || { echo "$1$f missing or empty" >&2; return 1; }
		same_file "$1$f" "$2$f" || return 1
	done
}

# walk BIN N SEED [BIAS]: an LBR perf.data of N samples of BIN
walk() {
	cfgwalk -D skewed -n "$2" -s "$3" ${4:+-b "$4"} -o "$1.events" "$W/$1"
	mkperfdata -o "$1.lbr" "$1.events"
}

@test "heatmap: basic samples of a real cpu-clock recording, through the pipeline and from the file, as llvm-bolt-heatmap-22 --basic-events" {
	for b in fixed pie; do
		perf record -q -e cpu-clock -o "$b.data" "$W/$b" > /dev/null 2>&1
		"$H22" "$W/$b" -p "$b.data" --basic-events -o "R$b" > ref.log 2>&1
		perfdecode "$b.data" | preagg --llvm=22 --heatmap --basic -b "$W/$b" > "$b.pa"
		grep -q '^S ' "$b.pa"
		run heatmap -o "O$b" "$W/$b" "$b.pa"
		[ "$status" -eq 0 ]
		same5 "R$b" "O$b"
		# the same stream read by llvm-bolt-heatmap-22 itself
		"$H22" "$W/$b" --pa -p "$b.pa" -o "Q$b" > pa.log 2>&1
		same5 "Q$b" "O$b"
	done
}

@test "heatmap: branch stacks (fixed and PIE), through the pipeline and from the file, as llvm-bolt-heatmap-22" {
	walk fixed 3000 3
	walk pie 3000 4 555555554000
	for b in fixed pie; do
		run "$H22" "$W/$b" -p "$b.lbr" -o "R$b"
		[ "$status" -eq 0 ]
		perfdecode "$b.lbr" | preagg --llvm=22 --heatmap -b "$W/$b" > "$b.pa"
		heatmap -o "O$b" "$W/$b" "$b.pa"
		same5 "R$b" "O$b"
		"$H22" "$W/$b" --pa -p "$b.pa" -o "Q$b" > pa.log 2>&1
		same5 "Q$b" "O$b"
		# and from the standard input
		heatmap -o "I$b" "$W/$b" < "$b.pa"
		same5 "R$b" "I$b"
	done
	# the stack ends are in the stream as S entries
	grep -q '^S ' fixed.pa
}

@test "heatmap --traces: the maps perf2bolt-22 --heatmap writes, branch stacks and basic samples" {
	walk fixed 2000 12
	perfdecode fixed.lbr | preagg --llvm=22 --heatmap -b "$W/fixed" > f.pa
	"$P22" "$W/fixed" -p fixed.lbr -o x.fdata --heatmap="$TMP/R" > ref.log 2>&1
	heatmap --traces -o O "$W/fixed" f.pa
	same5 R O
	perf record -q -e cpu-clock -o c.data "$W/pie" > /dev/null 2>&1
	perfdecode c.data | preagg --llvm=22 --heatmap --basic -b "$W/pie" > c.pa
	"$P22" "$W/pie" -p c.data --basic-events -o x.fdata --heatmap="$TMP/RC" > ref.log 2>&1
	heatmap -t -o OC "$W/pie" c.pa
	same5 RC OC
}

@test "heatmap: what preagg --heatmap adds is what the map needs (stack ends, code outside functions)" {
	walk fixed 2000 5
	perfdecode fixed.lbr | preagg --llvm=22 -b "$W/fixed" > plain.pa
	perfdecode fixed.lbr | preagg --llvm=22 --heatmap -b "$W/fixed" > h.pa
	"$H22" "$W/fixed" -p fixed.lbr -o R > /dev/null 2>&1
	heatmap -o P "$W/fixed" plain.pa
	heatmap -o O "$W/fixed" h.pa
	same5 R O
	# without --heatmap the ends of the stacks are not drawn
	run cmp -s R.csv P.csv
	[ "$status" -ne 0 ]
	# --heatmap leaves no stage's reading of branches changed: the same
	# T and B entries with the plain stream's ends in functions
	[ "$(grep -c '^T' h.pa)" -ge "$(grep -c '^T' plain.pa)" ]
	run preagg --heatmap --legacy -b "$W/fixed" < /dev/null
	[ "$status" -eq 2 ]
}

@test "heatmap: options --block-size, --line-size, --min-address, --max-address, --print-mappings as llvm-bolt-heatmap-22's" {
	walk fixed 2000 6
	perfdecode fixed.lbr | preagg --llvm=22 --heatmap -b "$W/fixed" > f.pa
	for opts in "--block-size=128,8K,1MiB" "--line-size=64 --print-mappings" \
	    "--min-address=0x401100 --max-address=4198912" \
	    "--block-size=32 --max-address=0x1ffffffff" \
	    "--block-size=4k,16kb --line-size=16"; do
		rm -f R* O*
		"$H22" "$W/fixed" --pa -p f.pa $opts -o R > ref.log 2>&1
		heatmap $opts -o O "$W/fixed" f.pa
		for f in R*; do
			[ -s "$f" ]
			same_file "$f" "O${f#R}"
		done
		[ "$(ls R* | wc -l)" -eq "$(ls O* | wc -l)" ]
	done
	# the zoomed-out maps are named by their sizes
	[ -s O-16384 ]
	# all on standard output when no prefix is given: the files in order
	heatmap "$W/fixed" f.pa > all.txt
	heatmap -o S "$W/fixed" f.pa
	cat S S.csv S-section-hotness.csv S-4096 S-262144 | cmp - all.txt
}

@test "heatmap: AArch64 programs, as llvm-bolt-heatmap-22 and perf2bolt-22 read them" {
	need_tool clang-19 qemu-aarch64
	[ -e /usr/aarch64-linux-gnu/lib/libc.so.6 ] || {
		[ "${CI:-}" != true ] || return 1
		skip "libc6-dev-arm64-cross not installed"
	}
	mkdir a64
	"$TOP/tests/data/a64/build.sh" "$TMP/a64" > /dev/null
	for b in sw1 x1; do
		bias=
		[ $b = x1 ] && bias="-b aaaaaaaa0000"
		cfgwalk -n 2000 -s 2 $bias -o $b.ev "a64/$b"
		mkperfdata -a aarch64 -o $b.data $b.ev
		"$H22" "a64/$b" -p $b.data -o R$b > ref.log 2>&1
		perfdecode $b.data | preagg --llvm=22 --heatmap -b "a64/$b" > $b.pa
		heatmap -o O$b "a64/$b" $b.pa
		same5 R$b O$b
		heatmap --density "a64/$b" $b.pa > ours.txt
		"$P22" "a64/$b" -p $b.data -o x.fdata --show-density 2>&1 |
		    grep -E 'density >=|more samples|profile is empty' > ref.txt
		[ -s ref.txt ]
		same_file ref.txt ours.txt
	done
}

# density CMD-ARGS: heatmap --density's lines against perf2bolt-22's
same_density() {	# same_density BIN PA [perf2bolt input args...]
	local bin=$1 pa=$2
	shift 2
	heatmap --density "$bin" "$pa" > ours.txt
	"$P22" "$bin" "$@" -o x.fdata --show-density < /dev/null 2>&1 |
	    grep -E 'density >=|more samples|profile is empty' > ref.txt
	[ -s ref.txt ]
	same_file ref.txt ours.txt
}

@test "heatmap --density: perf2bolt-22 --show-density's lines, branch stacks and basic samples" {
	walk fixed 3000 7
	walk pie 3000 8 555555554000
	for b in fixed pie; do
		perfdecode "$b.lbr" | preagg --llvm=22 --heatmap -b "$W/$b" > "$b.pa"
		same_density "$W/$b" "$b.pa" -p "$b.lbr"
		same_density "$W/$b" "$b.pa" --pa -p "$b.pa"
		perf record -q -e cpu-clock -o "$b.data" "$W/$b" > /dev/null 2>&1
		perfdecode "$b.data" | preagg --llvm=22 --basic -b "$W/$b" > "$b.s"
		same_density "$W/$b" "$b.s" -p "$b.data" --basic-events
	done
}

@test "heatmap --density: the cut-off in integers, functions without executed bytes left out" {
	# one sample of one function: the sum reaches 990000 / 1000000 of
	# 1, rounded down, at once
	m=$(nm "$W/fixed" | awk '$3 == "main" { print $1 }')
	printf 'E cpu-clock\nS %x 1\n' "$((0x$m + 4))" > one.pa
	same_density "$W/fixed" one.pa --pa --basic-events -p one.pa
	grep -q 'profile is empty' ours.txt
	# a million branches from a function no trace ran through count
	# for nothing
	walk fixed 500 9
	perfdecode fixed.lbr | preagg --llvm=22 -b "$W/fixed" > f.pa
	m=$(nm "$W/fixed" | awk '$3 == "main" { print $1 }')
	printf 'B %x %s 1000000 0\n' "$((0x$m + 4))" "$m" >> f.pa
	same_density "$W/fixed" f.pa --pa -p f.pa
}

# png_check PNG SVG: the picture shows what the SVG draws: each coloured
# cell's centre in its colour, empty cells of the grids white, every
# legend colour present, several colours among the cells
png_check() {
	python3 - "$1" "$2" <<'PY'
import struct, sys, zlib
import xml.etree.ElementTree as ET

def png(path):
    d = open(path, 'rb').read()
    assert d[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    p, idat = 8, b''
    while p < len(d):
        n, t = struct.unpack('>I4s', d[p:p + 8])
        c = d[p + 8:p + 8 + n]
        if t == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', c[:10])
        elif t == b'IDAT':
            idat += c
        p += 12 + n
    assert depth == 8 and ctype in (2, 6), (depth, ctype)
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, lambda x, y: tuple(rows[y][x * bpp:x * bpp + 3])

def rgb(s):
    return tuple(int(s[i:i + 2], 16) for i in (1, 3, 5))

def near(a, b):
    return all(abs(x - y) <= 12 for x, y in zip(a, b))

w, h, px = png(sys.argv[1])
ns = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[2]).getroot()
cells, swatches, frames = [], [], []
for r in root.iter(ns + 'rect'):
    if r.find(ns + 'title') is not None:
        cells.append(r)
    elif r.get('class') == 'swatch':
        swatches.append(r)
    elif r.get('stroke') == '#999999':
        frames.append(r)
box = lambda r: [float(r.get(k)) for k in ('x', 'y', 'width', 'height')]
assert len(cells) > 0 and len(frames) > 0 and len(swatches) >= 3
bad = 0
for r in cells:
    x, y, cw, ch = box(r)
    got = px(int(x + cw / 2), int(y + ch / 2))
    if not near(got, rgb(r.get('fill'))) or near(got, (255, 255, 255)):
        bad += 1
assert bad == 0, '%d of %d cells not in their colour' % (bad, len(cells))
fills = {r.get('fill') for r in cells}
assert len(fills) >= 3, 'only %d colours' % len(fills)
for s in swatches:
    x, y, sw, sh = box(s)
    assert near(px(int(x + sw / 2), int(y + sh / 2)), rgb(s.get('fill'))), s.get('fill')
# the empty cells of the grids: the frame's cells without a rect
taken = {(int(box(r)[0]), int(box(r)[1])) for r in cells}
white = 0
for f in frames:
    x0, y0, fw, fh = box(f)
    for yy in range(int(y0), int(y0 + fh) - 7, 8):
        for xx in range(int(x0), int(x0 + fw) - 7, 8):
            if (xx, yy) not in taken:
                assert px(xx + 4, yy + 4) == (255, 255, 255), (xx, yy, px(xx + 4, yy + 4))
                white += 1
assert white > 0
print('cells %d colours %d white %d swatches %d' % (len(cells), len(fills), white, len(swatches)))
PY
}

# render SVG PNG: headless Chromium's picture of SVG at its own size
render() {
	local size
	size=$(sed -n 's/.*<svg[^>]* width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/p' "$1")
	[ -n "$size" ]
	timeout 120 chromium-headless-shell --headless --no-sandbox --disable-gpu \
	    --disable-background-networking --no-first-run \
	    --disable-component-update --disable-sync \
	    --user-data-dir="$TMP/chromium" --window-size="$size" \
	    --screenshot="$2" "file://$1" > chromium.log 2>&1
	[ -s "$2" ]
}

@test "heatmap --svg: headless Chromium draws the heat where the samples are, white elsewhere, the legend and several colours" {
	need_tool chromium-headless-shell
	walk fixed 4000 10
	perfdecode fixed.lbr | preagg --llvm=22 --heatmap -b "$W/fixed" > f.pa
	run heatmap --svg "$TMP/f.svg" "$W/fixed" f.pa
	[ "$status" -eq 0 ]
	[ ! -e f ]
	# the title names the binary and the events, the sections with
	# samples and the hottest functions are named
	grep -q '<title>0x' f.svg
	grep -q 'Heat map of fixed: branch-stack (LBR) samples' f.svg
	grep -q '>.text</text>' f.svg
	grep -q '>main (' f.svg
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' f.svg
	render "$TMP/f.svg" f.png
	run png_check f.png f.svg
	echo "$output"
	[ "$status" -eq 0 ]
	# a basic profile's title names its event
	perf record -q -e cpu-clock -o c.data "$W/fixed" > /dev/null 2>&1
	perfdecode c.data | preagg --llvm=22 --heatmap --basic -b "$W/fixed" > c.pa
	heatmap --svg "$TMP/c.svg" -o C "$W/fixed" c.pa
	grep -q 'cpu-clock' c.svg
	[ -s C.csv ]
	render "$TMP/c.svg" c.png
	run png_check c.png c.svg
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "heatmap: damaged streams and bad options are refused with a message, no files left" {
	walk fixed 500 11
	perfdecode fixed.lbr | preagg --llvm=22 --heatmap -b "$W/fixed" > f.pa
	damage_stream f.pa 30
	n=0
	for d in d0*.pa; do
		rm -f O O.csv O-section-hotness.csv O-4096 O-262144
		run heatmap -o O "$W/fixed" "$d"
		if [ "$status" -ne 0 ]; then
			[ "$status" -eq 1 ]
			[[ "$output" == heatmap:* ]]
			[ ! -e O ]
			n=$((n + 1))
		fi
		run heatmap --density "$W/fixed" "$d"
		[ "$status" -eq 0 ] || { [ "$status" -eq 1 ] && [[ "$output" == heatmap:* ]]; }
	done
	[ "$n" -ge 10 ]
	run heatmap -o O "$W/fixed" /dev/null
	[ "$status" -eq 1 ]
	[[ "$output" == *"no samples"* ]]
	run heatmap -o O "$W/fixed" nonexistent.pa
	[ "$status" -eq 1 ]
	run heatmap --block-size=64,100 "$W/fixed" f.pa
	[ "$status" -eq 2 ]
	[[ "$output" == *"multiple of previous value"* ]]
	run heatmap --block-size=4x "$W/fixed" f.pa
	[ "$status" -eq 2 ]
	run heatmap --line-size=0 "$W/fixed" f.pa
	[ "$status" -eq 2 ]
	run heatmap --line-size=100000000 --block-size=4096 "$W/fixed" f.pa
	[ "$status" -eq 2 ]
	run heatmap -o O "$TMP/nonexistent-binary" f.pa
	[ "$status" -eq 1 ]
	# an address near 2^64 drawn: counted loops, no hang
	printf 'S ffffffffffffffc0 3\nF fffffffffffffff0 ffffffffffffffff 2\n' > top.pa
	run timeout 20 heatmap --max-address=0xffffffffffffffff --block-size=1 -o T "$W/fixed" top.pa
	[ "$status" -eq 0 ]
	[ -s T ]
}
