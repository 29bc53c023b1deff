#!/usr/bin/env python3
"""perf script output to folded stacks, for checking fctrace's flame graphs
against perf's own DWARF unwinding (docs/flame-graphs.md).

Usage: perf script -F comm,tid,event,trace,ip,sym,dso | perf_collapse.py [--sleeps]
One line per distinct user stack, root first, "comm;frame;...;frame count":
kernel frames are left out, a frame without a symbol is "dso+0xADDR".
--sleeps keeps only sched_switch events that put the thread to sleep
(prev_state S or D), as fctrace's wait stacks are.
"""
import collections
import os
import sys


def frames_of(lines):
    out = []
    for ln in lines:
        parts = ln.strip().split(None, 1)
        if len(parts) < 2 or "kernel.kallsyms" in parts[1]:
            continue
        sym, _, dso = parts[1].rpartition(" (")
        dso = os.path.basename(dso.rstrip(")"))
        sym = sym.replace(" (inlined)", "").strip()
        if sym in ("", "[unknown]"):
            sym = "%s+0x%s" % (dso, parts[0])
        out.append(sym.split("@")[0].replace(";", ":"))
    return out[::-1]


def main(argv):
    sleeps = "--sleeps" in argv
    counts = collections.Counter()
    block = []
    for line in list(sys.stdin) + ["\n"]:
        if line.strip():
            block.append(line)
            continue
        if block:
            head = block[0]
            if not sleeps or ("prev_state=S" in head or "prev_state=D" in head):
                counts[";".join([head.split()[0]] + frames_of(block[1:]))] += 1
        block = []
    for stack, n in counts.most_common():
        print(stack, n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
