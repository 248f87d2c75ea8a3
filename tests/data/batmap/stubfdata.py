#!/usr/bin/env python3
"""stubfdata.py INPUT FDATA: perf2bolt's fdata of a BOLTed binary as
llvm-bolt reads it on INPUT, the binary BOLT optimized, in the form
batmap | fdatawrite writes it.

perf2bolt names code BOLT left at a moved function's old address (the
jump patched over the old entry, foo.org.0, or an old body,
__BOLT_FDE_FUNCat<hex>) as a function; INPUT has no function of that
name, so llvm-bolt takes such an end for an unknown location, which
batmap writes as 0 and fdatawrite as "0 [unknown] 0".  Each such end is
rewritten so, a line with no end left in a function of INPUT is dropped
(it says nothing of INPUT), and equal lines are summed (mispredictions,
counts).  INPUT's names are those our function table gives it, as BOLT
names its functions (functest list, from $PROFPIPE_TESTBIN).  Prints the
lines; the number of rewritten lines on the standard error as
"stub-lines=N".
"""
import os
import subprocess
import sys


def input_names(inp):
    """The names of INP's functions as BOLT writes them in fdata (both
    forms of a local's: name/N and name/file/N), from our own function
    table (functest list, checked against perf2bolt in lib/30-functab)."""
    exe = os.path.join(os.environ.get("PROFPIPE_TESTBIN", "build/testbin"),
                       "functest")
    out = subprocess.run([exe, "list", inp], capture_output=True, text=True,
                         check=True).stdout
    have = set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 7 and not line.startswith("#"):
            have.add(f[4])
            have.add(f[5])
    return have


def absenter(inp):
    """absent(kind, name): an fdata location that names a function INP
    does not have"""
    have = input_names(inp)

    def absent(kind, fn):
        return kind == "1" and fn.replace("\\ ", " ") not in have
    return absent


def main():
    inp, path = sys.argv[1:3]
    absent = absenter(inp)

    out, order, n = {}, [], 0
    for line in open(path):
        f = line.split()
        if len(f) != 8:
            print(line, end="")         # boltedcollection, no_lbr
            continue
        if absent(f[0], f[1]) or absent(f[3], f[4]):
            n += 1
            for i in (0, 3):
                if absent(f[i], f[i + 1]):
                    f[i:i + 3] = ["0", "[unknown]", "0"]
            if f[0] != "1" and f[3] != "1":
                continue
        k = " ".join(f[:6])
        if k not in out:
            out[k] = [0, 0]
            order.append(k)
        out[k][0] += int(f[6])
        out[k][1] += int(f[7])
    for k in order:
        print("%s %d %d" % (k, out[k][0], out[k][1]))
    print("stub-lines=%d" % n, file=sys.stderr)


if __name__ == "__main__":
    main()
