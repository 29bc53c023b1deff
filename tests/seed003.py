#!/usr/bin/env python3
"""seed003.py - Lucene's NioFile block cache benchmark's matrix, run by
fctrace and printed in the original's layout (docs/benchmarks.md).

Runs non-cached (nio: a read of a handle kept open, as the original's
NioFile with its cache off) and cached (the bcache workloads) at 1 and 3
threads, with 4 MiB files: "separate" (--files T, a handle per file) and
"shared" (--shared-file: one handle seeked and read under its lock as
Java's RandomAccessFile, one per thread, or one shared by pread). fc
(Wicket's FileChannelPool benchmark's open+pread+close) runs beside them for reference. Each cell runs
--reps times, interleaved (all cells once, then again), so the machine's
noise hits every cell alike; the median is printed with the range.
The kernel's figures (user and syscall CPU per op, lock wait, run queue)
come from each run's JSON; --no-bpf gives wall times only.

  sudo tests/seed003.py [--ops N] [--reps N] [--chunk B] [--csv F] [--json F]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

SEED = {  # the original (Java, 2005): time ms, avg ms, hits, misses; 1M reads per thread
    ("separate", 1, "non-cached"): (10578, 0.010578, None, None),
    ("separate", 3, "non-cached"): (32094, 0.010698, None, None),
    ("separate", 1, "cached"): (6125, 0.006125, 996365, 3635),
    ("separate", 3, "cached"): (20734, 0.0069113333333333336, 3989089, 10911),
    ("shared", 1, "non-cached"): (10594, 0.010594, None, None),
    ("shared", 3, "non-cached"): (42110, 0.014036666666666666, None, None),
    ("shared", 1, "cached"): (6047, 0.006047, 996827, 3173),
    ("shared", 3, "cached"): (20079, 0.006693, 3995776, 4224),
}
CACHES = ["bcache", "bcache-rw", "bcache-sharded", "bcache-chm"]
BASES = ["nio", "fc"]
HANDLES = ["locked", "per-thread", "shared"]


def cells(handles):
    for test in ("separate", "shared"):
        for threads in (1, 3):
            for wl in BASES + CACHES:
                # separate: the original's threads had a file and handle each, so
                # no lock was shared; here threads pick any of T files: pread
                for h in (handles if test == "shared" else ["shared"]):
                    yield test, threads, wl, h


def run_one(binary, args, test, threads, wl, handle):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        cmd = [binary, "run", "--workload", wl, "--threads", str(threads),
               "--ops", str(args.ops), "--file-size", "4M", "--chunk", str(args.chunk),
               "--json", out.name, "-q"]
        if test == "separate":
            cmd += ["--files", str(threads), "--handle", handle]
        else:
            cmd += ["--shared-file", "--handle", handle]
        if args.no_bpf:
            cmd.append("--no-bpf")
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode:
            sys.exit(f"seed003: {' '.join(cmd)} failed: {r.stderr.strip()}")
        return json.load(open(out.name))


def figures(doc):
    """The per-run figures: wall, kernel account per op, cache counters."""
    ops = doc["ops"] or 1
    acct = {}
    for t in doc["threads"]:
        for k, v in (t.get("account_ns") or {}).items():
            acct[k] = acct.get(k, 0) + v
    twall = sum(t["wall_ns"] for t in doc["threads"]) or 1
    cache = doc.get("cache") or {}
    return {
        "wall_ms": doc["wall_ns"] / 1e6,
        "user_us_op": acct.get("cpu_user", 0) / ops / 1e3,
        "sys_us_op": acct.get("cpu_sys", 0) / ops / 1e3,
        "lock_share": acct.get("lock_wait", 0) / twall,
        "runq_share": acct.get("runqueue", 0) / twall,
        "preads": doc["syscalls"]["pread64"]["count"] if doc.get("syscalls") else 0,
        "hits": cache.get("hits"), "misses": cache.get("misses"),
        "traced": bool(acct),
    }


def summarise(runs):
    s = {}
    for k in runs[0]:
        vals = [r[k] for r in runs]
        if isinstance(vals[0], bool) or vals[0] is None:
            s[k] = vals[0]
        else:
            s[k] = statistics.median(vals)
            s[k + "_min"], s[k + "_max"] = min(vals), max(vals)
    return s


def print_seed_layout(res, args):
    print("Lucene's NioFile block cache benchmark, measured here (median of %d; time = wall ms, avg = ms per read, "
          "%d reads per thread, %d-byte reads)" % (args.reps, args.ops, args.chunk))
    for test, handles in (("separate", ["shared"]), ("shared", HANDLES)):
        for h in handles:
            print("\n%s test, %s: filesize is 4194304" % (test, {
                "shared": "handles read by pread (no lock)" if test == "separate" else
                "one handle read by pread (no lock)",
                "locked": "one handle, seek + read under its lock (RandomAccessFile)",
                "per-thread": "a handle per thread"}[h]))
            for wl in BASES + CACHES:
                for t in (1, 3):
                    s = res[(test, t, wl, h)]
                    what = {"nio": "non-cached", "fc": "fc (open+pread+close)"}.get(wl, wl) + (
                        " threaded (3 threads)" if t == 3 else "")
                    print("  %-44s time = %.0f (%.0f-%.0f), avg = %.6f" % (
                        what, s["wall_ms"], s["wall_ms_min"], s["wall_ms_max"],
                        s["wall_ms"] / (t * args.ops)))
                    if wl not in BASES:
                        print("  %-44s cache hits %d cache misses %d" % (
                            "", s["hits"], s["misses"]))


def print_kernel(res, args):
    print("\nThe kernel's figures per cell (medians): user and syscall CPU per read, "
          "share of thread time waiting on the workload's locks and for a CPU, preads")
    print("  %-10s %-10s %2s %-15s %9s %8s %8s %7s %7s %9s" % (
        "test", "handle", "T", "workload", "wall ms", "user/op", "sys/op", "lock",
        "runq", "preads"))
    for (test, t, wl, h), s in res.items():
        if not s["traced"]:
            continue
        print("  %-10s %-10s %2d %-15s %9.1f %6.2fus %6.2fus %6.1f%% %6.1f%% %9d" % (
            test, h, t, wl, s["wall_ms"], s["user_us_op"], s["sys_us_op"],
            100 * s["lock_share"], 100 * s["runq_share"], s["preads"]))


def print_seed(args):
    print("\nThe original (Java, 2005, 1M reads per thread):")
    for (test, t, what), (ms, avg, hits, misses) in SEED.items():
        print("  %-9s %-11s %d thread%s  time = %5d, avg = %.6f%s" % (
            test, what, t, "s" if t > 1 else " ", ms, avg,
            "" if hits is None else "  hits %d misses %d" % (hits, misses)))


def main():
    p = argparse.ArgumentParser(description="Lucene's NioFile block cache benchmark's matrix in the original's layout")
    p.add_argument("--fctrace", default=os.path.join(os.path.dirname(__file__), "..", "fctrace"))
    p.add_argument("--ops", type=int, default=200000)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--chunk", type=int, default=1024)
    p.add_argument("--no-bpf", action="store_true")
    p.add_argument("--csv")
    p.add_argument("--json")
    args = p.parse_args()
    keys = list(cells(HANDLES))
    runs = {k: [] for k in keys}
    for rep in range(args.reps):
        for k in keys:
            runs[k].append(figures(run_one(args.fctrace, args, *k)))
        print("seed003: round %d of %d done" % (rep + 1, args.reps), file=sys.stderr)
    res = {k: summarise(v) for k, v in runs.items()}
    print_seed_layout(res, args)
    print_kernel(res, args)
    print_seed(args)
    rows = [dict(test=k[0], threads=k[1], workload=k[2], handle=k[3], **v)
            for k, v in res.items()]
    if args.csv:
        with open(args.csv, "w") as f:
            cols = list(rows[0].keys())
            f.write(",".join(cols) + "\n")
            for r in rows:
                f.write(",".join("" if r[c] is None else str(r[c]) for c in cols) + "\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"command": "seed003", "ops": args.ops, "reps": args.reps,
                       "chunk": args.chunk, "cells": rows,
                       "raw": [dict(test=k[0], threads=k[1], workload=k[2], handle=k[3],
                                    runs=v) for k, v in runs.items()]}, f, indent=1)


if __name__ == "__main__":
    main()
