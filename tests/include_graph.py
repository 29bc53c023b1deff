#!/usr/bin/env python3
"""include_graph.py - no circles among fctrace's files (make test runs it).

A module is a file stem in one directory: user/trace/kview.h and
user/trace/kview.c are the module user/trace/kview; bpf/common.bpf.h and
bpf/common.bpf.c are bpf/common.
The graph's nodes are files, its arrows
  - F includes H;
  - H's inline bodies or macros call a function defined in C.c of
    another module (H needs C, declared or not);
  - H, the header of a module that has its own .c, declares a function
    that another module's C.c defines (H promises what C keeps).
It fails on any circle: headers including each other, runner.c using
wl_loop.h's inline loop while that loop calls functions of runner.c, or
fcp_map.c including fcp_pool.h to define a function fcp_pool.h declares
while fcp_pool.c includes fcp_map.h. An interface header with no .c of
its own (workload.h) may declare functions that several .c files
define; a file stem_part.c belongs to stem.h's module.

Arrows also run one way between the stages of user/ (docs/code-layout.md):
a file in one of STAGES may use only its own folder and the
folders listed after it, then workloads/ and bpf/; workloads/ never uses
user/, and every user/ file sits in a stage folder. An arrow the other
way is an arrow up, and fails like a circle.

The JVM is one folder, user/jvm/, a stage of its own below trace/: the
tracer attaches its probes, the join reads its view, the session drives
its agent, and jvm/ itself uses only base/ (and bpf/). Its JVMTI agent,
user/jvm/agent/, is a build product of its own (a shared object loaded
into a JVM): a file there includes nothing of fctrace's outside that
folder, and no file outside includes one of it.

Below session/ the stages are the same for every subject (issue 38): a
file in explain/, join/, trace/, jvm/ or base/ that includes workloads/'
workload.h or names any of its wl_ or WL_ types, functions or constants
fails; what a workload says of itself reaches the join in the join's
words (join/subject.h), handed in by the workload driver.

  include_graph.py [ROOT]      check ROOT (default: the repository)
  include_graph.py --self-test  check that each kind of circle is caught
"""
import os
import re
import sys
import tempfile

DIRS = ("user", "workloads", "bpf")
# user/'s stage folders, a run's walk from the command line to the kernel
# view's reader; report/ prints what session/ produced, so it sits above it;
# jvm/ (HotSpot: its probes' view, its memory, its attach protocol, the
# agent's socket) sits below trace/, whose loader attaches jvm.bpf.c's
# programs, and join/, whose join_jvm.c reads the JVM's view.
STAGES = ("cli", "report", "session", "explain", "join", "trace", "jvm", "base")
# the JVMTI agent's sources: a shared object of its own, nothing of fctrace's
AGENT_DIR = "user/jvm/agent"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# the stages that know nothing of who wrote the program, and the workload
# library's names, which they may not use
SUBJECT_NEUTRAL = ("explain", "join", "trace", "jvm", "base")
WORKLOAD_NAME = re.compile(r"\b(?:wl|WL)_\w+")
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
FUNC_HEAD = re.compile(r"\b([A-Za-z_]\w*)\s*\((?:[^()]|\([^()]*\))*\)\s*(?:__attribute__\s*\(\(.*\)\))?\s*$", re.S)


def strip(text):
    """Comments and string/char literals blanked, newlines kept; the
    names of #include "..." lines kept."""
    out = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)
    out = re.sub(r"//[^\n]*", "", out)
    lines = out.split("\n")
    for i, l in enumerate(lines):
        if not INCLUDE.match(l):
            lines[i] = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'', '""', l)
    return "\n".join(lines)


def module_of(path):
    d, f = os.path.split(path)
    stem = f.split(".")[0]
    return d + "/" + stem


def top_level_blocks(code):
    """(head, body) for each {...} at depth 0; head is the text since the
    previous ; or } at depth 0 (preprocessor lines dropped)."""
    blocks, depth, start, head_from = [], 0, 0, 0
    for i, c in enumerate(code):
        if c == "{":
            if depth == 0:
                head = code[head_from:i]
                head = "\n".join(l for l in head.split("\n") if not l.lstrip().startswith("#"))
                start = i
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                blocks.append((head, code[start:i + 1]))
                head_from = i + 1
        elif c == ";" and depth == 0:
            head_from = i + 1
    return blocks


def defined_functions(code):
    """Names of the non-static functions a .c file defines."""
    names = set()
    for head, _ in top_level_blocks(code):
        h = head.strip()
        if "=" in h or re.match(r"(static|struct|union|enum|typedef)\b", h):
            continue
        m = FUNC_HEAD.search(h)
        if m:
            names.add(m.group(1))
    return names


def used_in_header(code):
    """Functions called by a header's inline bodies and macros."""
    used = set()
    for head, body in top_level_blocks(code):
        if FUNC_HEAD.search(head.strip()):
            used |= set(CALL.findall(body))
    for line in re.findall(r"^\s*#\s*define\s+\w+(?:\([^)]*\))?(.*(?:\\\n.*)*)", code, re.M):
        used |= set(CALL.findall(line))
    return used


def scan(root):
    files = {}
    for d in DIRS:
        full = os.path.join(root, d)
        if not os.path.isdir(full):
            continue
        for here, _, names in sorted(os.walk(full)):
            for f in sorted(names):
                if f.endswith((".c", ".h")):
                    path = os.path.relpath(os.path.join(here, f), root)
                    with open(os.path.join(here, f), errors="replace") as fh:
                        files[path] = strip(fh.read())
    return files


def resolve(name, src, files):
    for base in (os.path.dirname(src),) + DIRS:	# the Makefile's -I order
        p = os.path.normpath(os.path.join(base, name))
        if p in files:
            return p
    return None	# generated (the skeleton) or a system header


def rank(path):
    """A file's place in the layering: stages of user/ first, then
    workloads/, then bpf/; None for a user/ file outside every stage."""
    parts = path.split("/")
    if parts[0] == "user":
        return STAGES.index(parts[1]) if len(parts) > 2 and parts[1] in STAGES else None
    return len(STAGES) + DIRS.index(parts[0]) - 1


def arrows_up(g):
    """Every arrow from a file to one in a folder above its own."""
    out = []
    for a in sorted(g):
        for b in sorted(g[a]):
            ra, rb = rank(a), rank(b)
            if ra is not None and rb is not None and rb < ra:
                out.append("arrow up: %s" % g[a][b])
    return out


def cycles(graph):
    """Tarjan: every strongly connected set of more than one node."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def declared_functions(code):
    """Names of the functions a header declares at top level."""
    names, depth = set(), 0
    for stmt in re.split(r"([{};])", code):
        if stmt == "{":
            depth += 1
        elif stmt == "}":
            depth -= 1
        elif depth == 0 and stmt not in (";",):
            h = "\n".join(l for l in stmt.split("\n") if not l.lstrip().startswith("#")).strip()
            if h and not re.match(r"(static|typedef)\b", h):
                m = FUNC_HEAD.search(h)
                if m:
                    names.add(m.group(1))
    return names


def part_of(c_file, header):
    """session_target.c is part of session.h's module; fcp_map.c is not fcp_pool.h's."""
    hs, cs = module_of(header), module_of(c_file)
    return cs == hs or cs.startswith(hs + "_")


def edges(files):
    """file -> {file: why}: includes, a header's calls into another
    module's .c, and a module header's promises kept by another module."""
    g = {}

    def add(a, b, why):
        g.setdefault(a, {}).setdefault(b, why)

    owner = {}
    for src, code in files.items():
        if src.endswith(".c"):
            for f in defined_functions(code):
                owner.setdefault(f, src)
        for name in INCLUDE.findall(code):
            dst = resolve(name, src, files)
            if dst and dst != src:
                add(src, dst, "%s includes %s" % (src, dst))
    for h, code in files.items():
        if not h.endswith(".h"):
            continue
        own_c = module_of(h) + ".c" in files
        for f in sorted(used_in_header(code)):
            if f in owner and not part_of(owner[f], h):
                add(h, owner[f], "%s calls %s(), defined in %s" % (h, f, owner[f]))
        for f in sorted(declared_functions(code)) if own_c else ():
            if f in owner and not part_of(owner[f], h):
                add(h, owner[f], "%s declares %s(), defined in %s" % (h, f, owner[f]))
    return g


def workload_uses(files):
    """Every file of a subject-neutral stage that uses the workload library."""
    out = []
    for f in sorted(files):
        parts = f.split("/")
        if parts[0] != "user" or len(parts) < 3 or parts[1] not in SUBJECT_NEUTRAL:
            continue
        code = files[f]
        if any(os.path.basename(n) == "workload.h" for n in INCLUDE.findall(code)):
            out.append("%s includes workload.h: below session/ no stage knows the "
                       "workload library (join/subject.h says it in the join's words)" % f)
        m = WORKLOAD_NAME.search(INCLUDE.sub("", code))
        if m:
            out.append("%s uses %s of the workload library: below session/ no stage "
                       "knows it (join/subject.h says it in the join's words)" % (f, m.group()))
    return out


def agent_apart(g):
    """Every arrow into or out of the JVMTI agent's folder: it is built
    alone, into a JVM, from its own sources."""
    out = []
    inside = lambda f: f.startswith(AGENT_DIR + "/")
    for a in sorted(g):
        for b in sorted(g[a]):
            if inside(a) != inside(b):
                out.append("the JVMTI agent is built alone (%s/): %s" % (AGENT_DIR, g[a][b]))
    return out


def check(root):
    files = scan(root)
    g = edges(files)
    problems = []
    for c in cycles({a: set(b) for a, b in g.items()}):
        kind = "headers including each other" if all(f.endswith(".h") for f in c) else "files in a circle"
        why = ["  " + g[a][b] for a in c for b in c if b in g.get(a, {})]
        problems.append("%s: %s\n%s" % (kind, " <-> ".join(c), "\n".join(why)))
    problems += arrows_up(g)
    problems += agent_apart(g)
    problems += workload_uses(files)
    problems += ["%s is in no stage folder of user/ (%s)" % (f, ", ".join(STAGES))
                 for f in sorted(files) if rank(f) is None]
    return problems, len(files)


LAYOUT = "docs/code-layout.md"


def layout_section(root):
    """The code layout's text (docs/code-layout.md under its "# Code
    layout" heading), or None."""
    try:
        with open(os.path.join(root, LAYOUT)) as f:
            text = f.read()
    except OSError:
        return None
    m = re.search(r"^# Code layout\n(.*)", text, re.M | re.S)
    return m.group(1) if m else None


def unnamed_in_layout(root, files):
    """Source files the code layout does not name: every .c, and every .h
    with no .c of its own stem beside it."""
    section = layout_section(root)
    if section is None:
        return ["%s has no \"# Code layout\" heading" % LAYOUT]
    named = set(re.findall(r"[\w.+-]+\.[ch]\b", section))
    out = []
    for f in sorted(files):
        base = os.path.basename(f)
        if base.endswith(".h") and module_of(f) + ".c" in files:
            continue
        if base not in named:
            out.append("%s does not name %s" % (LAYOUT, f))
    return out


def write_tree(root, tree):
    for path, text in tree.items():
        os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(root, path), "w") as f:
            f.write(text)


def self_test():
    """Each kind of circle fctrace had, in miniature; and their fixes."""
    cases = {
        "inline loop calls its user": ({
            "workloads/loop.h": "void sample(int n);\nstatic inline void loop(void) { sample(1); }\n",
            "workloads/runner.c": '#include "loop.h"\nvoid sample(int n) { }\nvoid run(void) { loop(); }\n',
        }, True),
        "declared in one module, defined in another that includes it": ({
            "workloads/pool.h": "int chan_fd(void);\n",
            "workloads/pool.c": '#include "pool.h"\n#include "map.h"\nint pool_get(void) { return map_find(); }\n',
            "workloads/map.h": "int map_find(void);\n",
            "workloads/map.c": '#include "map.h"\n#include "pool.h"\nint map_find(void) { return 0; }\nint chan_fd(void) { return 1; }\n',
        }, True),
        "headers including each other": ({
            "user/a.h": '#include "b.h"\n',
            "user/b.h": '#include "a.h"\n',
        }, True),
        "a stage that uses one above it": ({
            "user/trace/loader.h": '#include "join/timeline.h"\n',
            "user/join/timeline.h": "struct tl;\n",
        }, True),
        "a stage that calls into one above it": ({
            "user/session/sweep.h": "void sweep_print(void);\n",
            "user/session/sweep.c": '#include "session/sweep.h"\nvoid sweep_run(void) { }\n',
            "user/report/print.c": '#include "session/sweep.h"\nvoid sweep_print(void) { }\n',
        }, True),
        "a user file outside the stages": ({
            "user/loose.c": "int x;\n",
        }, True),
        "the join that includes the workload library": ({
            "user/join/join.h": '#include "workload.h"\n',
            "workloads/workload.h": "struct wl;\n",
        }, True),
        "a rule that reads a workload's type": ({
            "user/explain/rules.c": "/* wl_ in a comment is fine */ int f(const struct wl_config *c);\n",
        }, True),
        "the JVMTI agent that includes fctrace's": ({
            "user/jvm/agent/jvmti_agent.c": '#include "base/units.h"\n',
            "user/base/units.h": "int u;\n",
        }, True),
        "fctrace that includes the agent's": ({
            "user/jvm/jvm.c": '#include "jvm/agent/proto.h"\n',
            "user/jvm/agent/proto.h": "int p;\n",
        }, True),
        "the JVM's folder that uses the tracer": ({
            "user/jvm/jvm.c": '#include "trace/loader.h"\n',
            "user/trace/loader.h": "struct tracer;\n",
        }, True),
        "stages in order": ({
            "user/cli/main.c": '#include "report/report.h"\n#include "session/session.h"\n',
            "user/report/report.h": '#include "session/session.h"\n',
            "user/session/session.h": '#include "join/join.h"\n#include "fctrace.h"\n#include "workload.h"\n',
            "user/join/join.h": '#include "trace/kview.h"\n#include "join/subject.h"\n#include "jvm/jvm.h"\n',
            "user/jvm/jvm.h": '#include "base/hist.h"\n#include "fctrace.h"\n',
            "user/jvm/agent/jvmti_agent.c": '#include "own.h"\n',
            "user/jvm/agent/own.h": "int own;\n",
            "user/join/subject.h": "/* a workload's wl_thread_stats, in words */ struct thread_timings;\n",
            "user/trace/kview.h": '#include "base/hist.h"\n',
            "user/base/hist.h": "struct hist;\n",
            "workloads/workload.h": "struct wl;\n",
            "bpf/fctrace.h": "struct fct;\n",
        }, False),
        "the fixed loop: its callees in a file of its own": ({
            "workloads/loop.h": "void sample(int n);\nstatic inline void loop(void) { sample(1); }\n",
            "workloads/loop.c": '#include "loop.h"\nvoid sample(int n) { }\n',
            "workloads/runner.c": '#include "loop.h"\nvoid run(void) { loop(); }\n',
            "workloads/api.h": "void run(void);\nvoid sample(int n);\n",
        }, False),
    }
    failed = 0
    for name, (tree, bad) in cases.items():
        with tempfile.TemporaryDirectory() as d:
            write_tree(d, tree)
            problems, _ = check(d)
        if bool(problems) != bad:
            print("include_graph self-test: %s: %s" % (name, problems or "not caught"))
            failed = 1
    # the code layout names every file: one it does not name is caught
    layout = {
        "user/base/hist.h": "struct hist;\n",
        "user/base/hist.c": '#include "base/hist.h"\n',
        "user/base/units.c": "int u;\n",
        LAYOUT: "# Code layout\n\n| `user/base/` | `hist.c` |\n",
    }
    with tempfile.TemporaryDirectory() as d:
        write_tree(d, layout)
        got = unnamed_in_layout(d, scan(d))
    if got != ["%s does not name user/base/units.c" % LAYOUT]:
        print("include_graph self-test: a file the code layout does not name: %s" % (got or "not caught"))
        failed = 1
    if not failed:
        print("include_graph self-test: %d cases as expected, and the code layout's check" % len(cases))
    return failed


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    problems, n = check(root)
    problems += unnamed_in_layout(root, scan(root))
    for p in problems:
        print("include_graph: " + p, file=sys.stderr)
    if not problems:
        print("include graph: %d files in %s, no circles, no arrow up (%s)"
              % (n, "/".join(DIRS), " > ".join(STAGES)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
