#!/usr/bin/env python3
"""pybatch.py JOBS: run the Python scripts of this folder many times in one
interpreter (a Python start costs half a second of CPU on a loaded test
machine; tests/45-bbmap.bats needs dozens of runs).  Each line of JOBS is
tab-separated: OUT, IN ("-" for no input), the script's path, then its
arguments; the script runs as __main__ with sys.argv, stdin from IN and
stdout to OUT.  Exits 1 after all jobs if any failed, naming them."""
import io
import runpy
import sys

failed = []
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    if len(f) < 3:
        continue
    out, inp, script, args = f[0], f[1], f[2], f[3:]
    saved = sys.argv, sys.stdin, sys.stdout
    buf = io.StringIO()
    sys.argv = [script] + args
    sys.stdin = open(inp) if inp != "-" else io.StringIO("")
    sys.stdout = buf
    status = 0
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if e.code is not None and not isinstance(e.code, int):
            print(e.code, file=sys.stderr)
    finally:
        sys.stdin.close()
        sys.argv, sys.stdin, sys.stdout = saved
    with open(out, "w") as fp:
        fp.write(buf.getvalue())
    if status:
        failed.append("%s (status %s)" % (out, status))
if failed:
    sys.exit("pybatch.py: failed: " + ", ".join(failed))
