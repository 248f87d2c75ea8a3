#!/bin/sh
# objdump-build.sh DIR CFLAGS LDFLAGS: configure and compile GNU objdump
# from binutils 2.40 (the source tarball Debian 12's binutils-source ships,
# /usr/src/binutils) with clang-19, the part build-large-src.sh and
# build-large-prof.sh share.
#
# In DIR (an empty scratch directory, the caller's) it unpacks the sources
# into DIR/binutils-2.40, configures them in DIR/b for the x86-64 host
# targets only (no shared libraries, no NLS, no plugins, no zstd, no
# debuginfod; the tools other than objdump disabled) with CC clang-19,
# CFLAGS "CFLAGS -ffile-prefix-map=DIR=." (so the binary does not depend
# on where DIR is) and LDFLAGS, and compiles every file of bfd, opcodes,
# libiberty, libsframe, zlib and binutils that objdump needs, verbosely
# (V=1: DIR/b/make.log holds the commands), leaving DIR/b/binutils/objdump.
# On failure it prints the end of the log and exits 1.
set -eu
[ $# -eq 3 ] || { echo "usage: objdump-build.sh DIR CFLAGS LDFLAGS" >&2; exit 2; }
dir=$1
cflags=$2
ldflags=$3
L=/usr/lib/llvm-19/bin
tarball=/usr/src/binutils/binutils-2.40.tar.xz
cd "$dir"
tar xf "$tarball"
mkdir b
cd b
../binutils-2.40/configure CC="$L/clang" \
    CFLAGS="$cflags -ffile-prefix-map=$dir=." \
    LDFLAGS="$ldflags" \
    --disable-shared --disable-nls --disable-werror --disable-gdb \
    --disable-gdbserver --disable-gprofng --disable-gprof --disable-ld \
    --disable-gold --disable-gas --disable-sim --disable-libctf \
    --disable-plugins --without-zstd --without-debuginfod > configure.log 2>&1 ||
	{ tail -20 configure.log >&2; exit 1; }
# objdump only: ar's lexer would need flex
j=$(nproc)
make -j"$j" V=1 configure-binutils all-zlib all-libiberty all-libsframe all-bfd \
    all-opcodes > make.log 2>&1 || { tail -30 make.log >&2; exit 1; }
make -j"$j" V=1 -C binutils objdump >> make.log 2>&1 || { tail -30 make.log >&2; exit 1; }
