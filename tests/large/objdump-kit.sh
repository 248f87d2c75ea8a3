#!/bin/sh
# objdump-kit.sh DIR NAME SRC...: after objdump-build.sh DIR, write
# DIR/NAME.cmds and DIR/NAME.kit.tar, what it takes to compile the source
# files SRC (paths under binutils-2.40/, as binutils/objdump.c) again, the
# part build-large-afdo.sh and build-large-prof.sh share.
#
# NAME.cmds has a line "DIR CMD" a file: the directory under b/ make
# compiled it in and its exact compiler command from DIR/b/make.log
# (libtool's own, for a library's file), without -o and the dependency
# flags.  NAME.kit.tar holds every file those include (from the .deps
# files make wrote), the SRC files and b/NAME.cmds, as paths relative to
# DIR.  Exits 1 when a SRC has no compiler command.
set -eu
[ $# -ge 3 ] || { echo "usage: objdump-kit.sh DIR NAME SRC..." >&2; exit 2; }
dir=$(cd "$1" && pwd)
name=$2
shift 2
cd "$dir"
: > "$name.cmds"
: > kitfiles
# make.log's compiler commands (libtool's own, for a library's files),
# automake's `test -f FILE || echo DIR/`FILE resolved to DIR/FILE
sed -e 's/^libtool: compile: *//' \
    -e "s/\`test -f '[^']*' || echo '\([^']*\)'\`/\1/" b/make.log |
    grep -v -e '--mode=compile' > cmds.all
for s in "$@"; do
	d=${s%/*}
	cmd=$(grep -e " -c .*\.\./\.\./binutils-2\.40/$s\( \|$\)" cmds.all | head -1)
	# its dependency file: .deps/OBJ.Po, or .Plo for libtool's
	o=$(echo "$cmd" | sed -n 's/.* -o \([^ ]*\)\.l\{0,1\}o\( .*\)\{0,1\}$/\1/p')
	dep=
	for x in Po Plo; do
		[ -n "$o" ] && [ -f "b/$d/.deps/$o.$x" ] && dep=b/$d/.deps/$o.$x
	done
	[ -n "$cmd" ] && [ -n "$dep" ] ||
		{ echo "objdump-kit.sh: no compiler command for $s" >&2; exit 1; }
	cmd=$(echo "$cmd" | sed -e 's/ -MT [^ ]*//' -e 's/ -MD//' -e 's/ -MP//' \
	    -e 's/ -MF [^ ]*//' -e 's/ -o [^ ]*//' -e 's/ *&& *\\$//')
	echo "$d $cmd" >> "$name.cmds"
	# every file it includes, from the dependency file make wrote
	tr ' \\' '\n\n' < "$dep" | grep -v -e ':$' -e '^/' -e '^$' |
	while read -r h; do
		realpath -m --relative-to="$dir" "$dir/b/$d/$h"
	done >> kitfiles
	echo "binutils-2.40/$s" >> kitfiles
done
cp "$name.cmds" b/
echo "b/$name.cmds" >> kitfiles
LC_ALL=C sort -u kitfiles | grep -v '^\.\.' > kitfiles.u
tar cf "$name.kit.tar" -T kitfiles.u
