#!/usr/bin/env bats
# The conventions every tool keeps (options, messages, exit statuses,
# output files), the man pages and the build.  The libraries are
# tests/lib/.

load common

TOOLS="perfdecode preagg prfraw2idx bbmap batmap fdatawrite yamlwrite profpipe-perf2bolt afdowrite heatmap"

setup() {
	setup_tmp
}

@test "every tool: --help on stdout, --version, bad usage exits 2" {
	for t in $TOOLS; do
		run "$t" --help
		[ "$status" -eq 0 ]
		echo "$output" | grep -qi "usage: $t"
		run "$t" -h
		[ "$status" -eq 0 ]
		run "$t" --version
		[ "$status" -eq 0 ]
		[ "$output" = "$t (profpipe) $(sed -n 's/.*PROFPIPE_VERSION "\(.*\)".*/\1/p' "$TOP/libutil/util.h")" ]
		run "$t" --no-such-option
		[ "$status" -eq 2 ]
	done
}

@test "every tool: -q and -v, the same words in every usage" {
	for t in $TOOLS; do
		run "$t" --help
		[ "$status" -eq 0 ]
		# perf2bolt's own spellings: -v prints the pipeline
		[ "$t" = profpipe-perf2bolt ] && continue
		echo "$output" | grep -q -- '^  -q, --quiet  *no warnings'
		echo "$output" | grep -q -- '^  -v, --verbose  *[a-z]'
	done
}

@test "every tool: a full disk is an error, not a success" {
	[ -w /dev/full ] || skip "no /dev/full"
	run sh -c 'perfdecode --help > /dev/full'
	[ "$status" -eq 1 ]
	run sh -c 'preagg --help > /dev/full'
	[ "$status" -eq 1 ]
	for t in $TOOLS; do
		run sh -c "$t --help > /dev/full"
		[ "$status" -eq 1 ]
	done
}

@test "man pages: one per tool, mandoc -Tlint clean" {
	need_tool mandoc
	for t in $TOOLS; do
		[ -f "$TOP/man/$t.1" ]
	done
	[ -f "$TOP/man/profpipe.7" ]
	run mandoc -Tlint -W warning "$TOP"/man/*.[157]
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "build: no warnings with clang-19 either" {
	need_tool clang-19
	# clang's warnings come from its front end: -O0 finds the same ones
	run make -C "$TOP" -s -j2 CC=clang-19 CFLAGS=-O0 BUILD="$TMP/clang" all testbins
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "make install puts tools and man pages under DESTDIR" {
	# the optimized build make check made (nothing is built again)
	run make -C "$TOP" -s install BUILD="$(dirname "$PROFPIPE_FASTBIN")" DESTDIR="$TMP/root" PREFIX=/usr
	echo "$output"
	[ "$status" -eq 0 ]
	for t in $TOOLS; do
		[ -x "$TMP/root/usr/bin/$t" ]
		[ -f "$TMP/root/usr/share/man/man1/$t.1" ]
	done
	[ -f "$TMP/root/usr/share/man/man7/profpipe.7" ]
	[ -f "$TMP/root/usr/share/man/man5/profpipe-events.5" ]
	"$TMP/root/usr/bin/perfdecode" --version
}

# bare_bangs FILE...: the lines "! cmd" that are not the last command of
# their block (test or function), as FILE:LINE.  bats 1.8 runs a test
# under set -e, which ignores the status of a "!" command, so such a
# line asserts nothing; only a block's last command gives its status.
bare_bangs() {
	awk 'FNR == 1 { p = 0 }
	/^[[:space:]]*(#|$)/ { next }
	p && !/^}/ { print at }
	{ p = 0 }
	/^[[:space:]]+! / { p = 1; at = FILENAME ":" FNR }' "$@"
}

@test "tests: no bare '! cmd' that cannot fail a test" {
	# the check finds the pattern (and not a last command, nor "run !")
	printf '@test "x" {\n\t! grep -q a f\n\n\t# c\n\ttrue\n}\n@test "y" {\n\trun ! grep -q a f\n\t! grep -q a f\n}\n' > t.bats
	[ "$(bare_bangs t.bats)" = "t.bats:2" ]
	files=$(for f in "$TOP"/tests/*.bats "$TOP"/tests/*.bash "$TOP"/tests/lib/*.bats "$TOP"/tests/large/*.bats; do
		[ ! -f "$f" ] || echo "$f"
	done)
	[ "$(echo "$files" | wc -l)" -ge 5 ]
	run bare_bangs $files
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "every tool: an option without its argument, an unknown option, a file that does not open" {
	for t in $TOOLS; do
		for a in -o --output; do
			run "$t" $a
			echo "$output"
			[ "$status" -eq 2 ]
			[ "${lines[0]}" = "$t: option '$a' needs an argument" ]
			[ "${lines[1]}" = "Try '$t --help' for more information." ]
			[ "${#lines[@]}" -eq 2 ]
		done
		run "$t" -o "$TMP/never" -Z
		[ "$status" -eq 2 ]
		[ "$output" = "$t: unknown option '-Z'
Try '$t --help' for more information." ]
		run "$t" --no-such-option=1
		[ "$status" -eq 2 ]
		[ "${lines[0]}" = "$t: unknown option '--no-such-option'" ]
		run "$t" --help=1
		[ "$status" -eq 2 ]
		[ "${lines[0]}" = "$t: option '--help' takes no argument" ]
		# the first file each tool opens
		case $t in
		preagg) run "$t" --merge "$TMP/missing" ;;
		batmap) run "$t" --dump "$TMP/missing" ;;
		*) run "$t" "$TMP/missing" ;;
		esac
		[ "$status" -eq 1 ]
		[ "$output" = "$t: $TMP/missing: No such file or directory" ]
	done
	run preagg -b "$TMP/missing"
	[ "$status" -eq 1 ]
	[ "$output" = "preagg: $TMP/missing: No such file or directory" ]
	run prfraw2idx -f "$TMP/missing"
	[ "$status" -eq 1 ]
	[ "$output" = "prfraw2idx: $TMP/missing: No such file or directory" ]
}

@test "man pages: EXIT STATUS says the same in every page" {
	for f in "$TOP"/man/*.1 "$TOP"/man/profpipe.7; do
		echo "$f"
		[ "$(sed -n '/^\.Sh EXIT STATUS/{n;p;}' "$f")" = \
		    "0 on success, 1 on bad input or an I/O error, 2 on bad usage." ]
	done
}

@test "build: perfdecode links with -pthread, only the helpers that disassemble with Capstone" {
	run make -C "$TOP" -n -B BUILD="$TMP/b" "$TMP/b/bin/perfdecode" testbins
	[ "$status" -eq 0 ]
	# one line per command
	echo "$output" | sed -e :a -e '/\\$/N; s/\\\n//; ta' > cmds
	grep -- "-o $TMP/b/bin/perfdecode " cmds | grep -q -- ' -pthread'
	n=0
	for c in "$TOP"/tests/tools/*.c; do
		b=$(basename "$c" .c)
		grep -q -- "-o $TMP/b/testbin/$b " cmds
		# Capstone directly, or through libbolt's disassembly (cfgdis)
		if grep -q 'capstone\|cfgdis' "$c"; then
			grep -- "-o $TMP/b/testbin/$b " cmds | grep -q -- '-lcapstone'
			n=$((n + 1))
		else
			run grep -- "-o $TMP/b/testbin/$b .*-lcapstone" cmds
			[ "$status" -eq 1 ]
		fi
	done
	[ "$n" -ge 1 ]
}

@test "layers: no include or call against their order (scripts/layercheck)" {
	# the optimized build's objects: make check builds them first
	obj="$(dirname "$PROFPIPE_FASTBIN")/obj"
	[ -d "$obj/libbolt" ] && [ -d "$obj/tools" ]
	run "$TOP/scripts/layercheck" "$TOP" "$obj"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "layers: layercheck finds an arrow up, across tools and between architectures" {
	mkdir -p t/libutil t/libbolt/prof t/libbolt/elf t/libbolt/cfg/x86 \
	    t/libbolt/cfg/a64 t/tools/a t/tools/b
	printf 'int f(void);\n' > t/libbolt/prof/pa.h
	printf 'int g(void);\n' > t/tools/b/b.h
	printf 'int h(void);\n' > t/libbolt/cfg/a64/a64.h
	printf '#include "util.h"\n' > t/libutil/util.h
	printf '#include "util.h"\n#include <stdio.h>\n' > t/libbolt/elf/ok.c
	run "$TOP/scripts/layercheck" t
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	printf '#include "pa.h"\n' > t/libutil/up.c
	printf '#include "pa.h"\n' > t/libbolt/elf/up.c
	printf '#include "../b/b.h"\n' > t/tools/a/main.c
	printf '#include "a64.h"\n' > t/libbolt/cfg/x86/x86.c
	run "$TOP/scripts/layercheck" t
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 4 ]
	[[ "$output" == *"libutil/up.c: includes libbolt/prof/pa.h"* ]]
	[[ "$output" == *"libbolt/elf/up.c: includes libbolt/prof/pa.h"* ]]
	[[ "$output" == *"tools/a/main.c: includes tools/b/b.h: a tool uses another tool"* ]]
	[[ "$output" == *"libbolt/cfg/x86/x86.c: includes libbolt/cfg/a64/a64.h"* ]]
}

# the operands of tool $1 with binary $2 and input $3 (preagg: a stream
# of events, batmap: the BOLTed binary first; none read before the
# binary is opened or the files are checked)
operands() {
	case $1 in
	perfdecode|prfraw2idx) echo "$3" ;;
	preagg) echo "-b $2 $3" ;;
	batmap) echo "$2 $2 $3" ;;
	profpipe-perf2bolt) echo "-p $3 $2" ;;
	*) echo "$2 $3" ;;
	esac
}

@test "every tool that takes a binary: a relocatable object, a core file or an ELF file without PT_LOAD is refused, exit 1" {
	need_tool cc
	printf 'int f(int x) { return x + 1; }\nint main(void) { return f(1); }\n' > x.c
	cc -c -o x.o x.c
	cc -o x x.c
	# a core file: a binary's header with e_type ET_CORE (it has
	# PT_LOAD); an executable whose program headers are gone
	python3 - x <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
open('core', 'wb').write(b[:16] + struct.pack('<H', 4) + b[18:])
nophdr = bytearray(b)
struct.pack_into('<H', nophdr, 56, 0)	# e_phnum
open('nophdr', 'wb').write(nophdr)
PY
	: > empty
	n=0
	for t in preagg fdatawrite yamlwrite batmap bbmap afdowrite profpipe-perf2bolt heatmap; do
		for f in x.o core nophdr; do
			run --separate-stderr "$t" -o out $(operands $t $f empty) < /dev/null
			echo "$t $f: $status: $stderr"
			[ "$status" -eq 1 ]
			case $f in
			core) [ "$stderr" = "$t: core: a core file: not an executable or shared object" ] ;;
			*) [ "$stderr" = "$t: $f: no PT_LOAD program header: not an executable or shared object" ] ;;
			esac
			[ ! -e out ]
			n=$((n + 1))
		done
	done
	[ "$n" -eq 24 ]
	# a directory of binaries: its objects are none of them
	mkdir bins
	cp x x.o core bins/
	run fdatawrite -d prof bins < /dev/null
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(ls prof)" = x.fdata ]
	# bbmap --dump reads the maps of object files, as llvm-readobj does
	bbmap --dump x.o > /dev/null
}

@test "every tool: an output that is one of its inputs (by name, ./name, a hard or symbolic link, the standard input), or two outputs that are one file: refused before anything is read, exit 2" {
	need_tool cc
	printf 'int main(void) { return 0; }\n' > x.c
	cc -o bin x.c
	echo 'not read' > in
	cp in keep
	ln in hard
	ln -s in soft
	n=0
	for t in $TOOLS; do
		for o in in ./in hard soft "$TMP/in" ../"$(basename "$TMP")"/in; do
			run "$t" -o "$o" $(operands $t bin in) < /dev/null
			echo "$t -o $o: $status: $output"
			[ "$status" -eq 2 ]
			[[ "${lines[0]}" == "$t: $o: the same file as the input "*": a tool never writes over its input" ]]
			cmp in keep
			n=$((n + 1))
		done
		# the binary
		[ $t = perfdecode ] || [ $t = prfraw2idx ] || {
			cp bin bin.keep
			run "$t" -o bin $(operands $t bin in) < /dev/null
			echo "$t -o bin: $status: $output"
			[ "$status" -eq 2 ]
			[ "${lines[0]}" = "$t: bin: the same file as the input bin: a tool never writes over its input" ]
			cmp bin bin.keep
		}
		# the standard input
		case $t in
		profpipe-perf2bolt) args="-p - bin" ;;
		preagg) args="-b bin" ;;
		perfdecode|prfraw2idx) args= ;;
		batmap) args="bin bin" ;;
		*) args=bin ;;
		esac
		run "$t" -o in $args < in
		echo "$t -o in < in: $status: $output"
		[ "$status" -eq 2 ]
		[ "${lines[0]}" = "$t: in: the same file as the standard input: a tool never writes over its input" ]
		cmp in keep
		[ -z "$(ls -A | grep profpipe)" ]
	done
	[ "$n" -eq $((6 * $(echo $TOOLS | wc -w))) ]
	# the second output of a tool that writes two
	run preagg -b bin -o m.pa -M ./m.pa in
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "preagg: ./m.pa: the same file as the output m.pa: two outputs cannot be one file" ]
	run batmap --past-end soft -o out bin bin in
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "batmap: soft: the same file as the input in: a tool never writes over its input" ]
	run profpipe-perf2bolt -p in -o out -w ./out bin
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "profpipe-perf2bolt: ./out: the same file as the output out: two outputs cannot be one file" ]
	# devices are written in place: -o and -w may both be /dev/null
	run profpipe-perf2bolt -p in -o /dev/null -w /dev/null bin
	[[ "$output" != *"the same file"* ]]
	cmp in keep
}
