#!/usr/bin/env python3
"""pacases.py BINARY: pre-aggregated B, F and f entries of BINARY
(the form perf2bolt-19 --pa reads) for each kind of location the
pre-aggregated inputs of LLVM BOLT's X86 tests hold, on our own program:
llvm/llvm-project bolt/test/X86/pre-aggregated-perf.test (an external
source returning into a function, a PLT stub jumping out, calls into the
PLT, branches with mispredicts, a fall-through), its build-id variant
(foreign build-ids before external addresses, at either end),
callcont-fallthru.s (a kernel address as a plain source and as a
fall-through's end, fall-throughs that run backwards, empty ones at a
function's start and at a call's return point, external origins there),
and the BAT tests (blarge.bat.preagg: an external start of a fall-through,
externals at both ends).  Also what none of them holds but the format
allows: X: and a foreign build-id before an address inside the binary,
both ends outside, an address 0.

Addresses are the binary's own, from its disassembly (llvm-objdump-19;
a BOLTed binary's code in every segment, not what llvm-bolt left of its
input).  The output is deterministic."""
import re
import subprocess
import sys

binp = sys.argv[1]
dis = subprocess.run(["/usr/lib/llvm-19/bin/llvm-objdump", "-d",
                      "--no-show-raw-insn", binp],
                     capture_output=True, text=True, check=True).stdout

funcs = []          # (start, name)
insns = []          # (addr, mnemonic, operand text)
sec = ""
for line in dis.splitlines():
    m = re.match(r"Disassembly of section (\S+):", line)
    if m:
        sec = m.group(1)
        continue
    # the input's code llvm-bolt left behind never runs
    if ".bolt.org" in sec:
        continue
    m = re.match(r"([0-9a-f]+) <(.+)>:$", line)
    if m:
        funcs.append((int(m.group(1), 16), m.group(2), sec))
        continue
    m = re.match(r"\s+([0-9a-f]+):\s+(\S+)\s*(.*)", line)
    if m:
        insns.append((int(m.group(1), 16), m.group(2), m.group(3), sec))

plt = [a for a, n, s in funcs if n.endswith("@plt")]
text = [(a, n) for a, n, s in funcs if not n.endswith("@plt") and
        s.startswith(".text") and not n.startswith("_")]
if not plt or not text:
    sys.exit("pacases.py: %s: no PLT stubs or no functions" % binp)

# call sites of PLT stubs and the instruction after each (return point);
# branch sources inside functions with their next instruction
calls, fcalls, jumps = [], [], []
for i, (a, mn, ops, s) in enumerate(insns[:-1]):
    m = re.match(r"(?:0x)?([0-9a-f]+) <(.+)>", ops)
    if mn.startswith("call") and m and m.group(2).endswith("@plt"):
        calls.append((a, int(m.group(1), 16), insns[i + 1][0]))
    elif mn.startswith("call") and m and s.startswith(".text"):
        fcalls.append((a, int(m.group(1), 16), insns[i + 1][0]))
    elif mn.startswith("j") and m and s.startswith(".text"):
        jumps.append((a, int(m.group(1), 16), insns[i + 1][0]))
if not calls or not fcalls or len(jumps) < 4:
    sys.exit("pacases.py: %s: too few calls or jumps" % binp)

ext = 0x7f36d18d60c0
kern = 0xffffffff81e01006
out = []


def B(f, t, n, m=0):
    out.append("B %s %s %d %d" % (f, t, n, m))


def F(f, t, n, kind="F"):
    out.append("%s %s %s %d" % (kind, f, t, n))


x = lambda a: "%x" % a
for k, (site, stub, ret) in enumerate(calls[:4]):
    e = ext + 0x1000 * k
    B(x(site), x(stub), 5 + k)                         # call into the PLT
    B(x(stub), "X:%x" % e, 5 + k)                      # the stub jumps out
    B("X:%x" % (e + 0xab), x(ret), 5 + k, k % 2)       # the return comes back
    B("deadbeefaabbccdd:%x" % (e + 0xac), x(ret), 3)   # foreign build-ids
    B(x(stub), "cafebabe01234567:%x" % (e + 8), 2)
    B(x(kern), x(ret), 8)                              # from the kernel
    B(x(ret), x(kern), 1)                              # into it
    F("X:%x" % e, x(ret), 1)                           # fall-throughs from outside
    F("X:%x" % e, x(ret), 2, "f")
    F(x(ret), x(kern), 7)                              # into the kernel
    F(x(ret), x(ret), 4)                               # empty, at a return point
    F(x(ret), x(ret), 3, "f")                          # with an external origin
for k, (src, dst, nxt) in enumerate(jumps[:12]):
    B(x(src), x(dst), 30 + k, k % 3)                   # taken, some mispredicted
    F(x(dst), x(src), 20 + k)                          # back to the branch
    F(x(nxt), x(src), 2 + k)                           # backwards
    F(x(nxt), x(jumps[(k + 5) % len(jumps)][0]), 1)    # anywhere in the binary
    F(x(dst), x(dst), 1, "f")
for k, (a, n) in enumerate(text[:6]):
    F(x(a), x(a), 5 + k)                               # empty, at a start
    B("X:%x" % a, x(calls[0][2]), 2)                   # X: inside the binary
    B("0123abcd:%x" % a, x(calls[0][2]), 1)            # a foreign id inside it
for site, callee, ret in fcalls[:6]:
    B(x(site), x(callee), 4)                           # calls into functions
    F(x(callee), x(callee), 4)
    B("X:%x" % (ext + 0x40), x(callee), 1)             # and from outside
    B("X:%x" % site, x(callee), 2)                     # X: and a foreign
    B("0123abcd:%x" % site, x(callee), 1)              # id at a call site
B("X:%x" % ext, "X:%x" % (ext + 0x10), 3)              # both ends outside
B("0", x(text[0][0]), 1)
B(x(calls[0][0]), "0", 2)
print("\n".join(out))
