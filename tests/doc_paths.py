#!/usr/bin/env python3
"""doc_paths.py - every path a doc or a code comment cites exists (make test runs it).

It reads README.md and docs/*.md whole, and the comments of the sources in
bpf/, user/, workloads/ and tests/ (C, Java and bpftrace comments; the
comment lines and docstrings of shell and Python scripts), and finds
  - repository paths: user/x/y.c, bpf/x.h, workloads/x.c, tests/x, docs/x,
    completions/x, .ci/x; under user/, a stage folder's own name is
    enough (join/semlock.c, trace/usym.c);
  - source file names alone (held.c, wl_loop.h, jvm.bpf.c, seed003.py),
    which must name a file somewhere in the repository;
  - in the Markdown files, the links [text](target): the target, relative
    to the file that links it, must exist, and its #anchor, if any, must
    be a heading of the file it names (as GitHub makes anchors);
and fails on each one that names nothing. A path with a placeholder in it
(TARGET, FILE, NAME, a *, $ or ...) or a build product (.output/..., a
*.skel.h) is not checked; names of files that are not ours (system and
library headers, generated ones) are listed in NOT_OURS.

  doc_paths.py [ROOT]        check ROOT (default: the repository)
  doc_paths.py --self-test   check that a stale path is caught and a good one is not
"""
import ast
import io
import os
import re
import sys
import tempfile
import tokenize

TOP = ("user", "bpf", "workloads", "tests", "docs", "completions", ".ci")
STAGES = ("cli", "report", "session", "explain", "join", "trace", "base")
SRC_DIRS = ("bpf", "user", "workloads", "tests")
SRC_EXT = (".c", ".h", ".py", ".sh", ".java", ".bt")
# a path: a top folder, then name components
PATH = re.compile(r"(?<![\w./$-])((?:%s)/[\w.+-]+(?:/[\w.+-]+)*/?)" % "|".join(
    re.escape(t) for t in TOP + STAGES))
# a file name alone: our sources' kinds
NAME = re.compile(r"(?<![\w./$-])([A-Za-z_][\w+-]*\.(?:bpf\.c|bpf\.h|c|h|py|sh|bt|java|md))\b(?![/\w])")
# files cited that are not ours: system, library and generated headers, tools
NOT_OURS = {
    "vmlinux.h", "jvmti.h", "jni.h", "bpf_helpers.h", "bpf_tracing.h", "bpf_core_read.h",
    "bpf_endian.h", "libbpf.h", "bpf.h", "btf.h", "stdio.h", "stdlib.h", "string.h",
    "unistd.h", "pthread.h", "errno.h", "fcntl.h", "stdint.h", "stdbool.h", "stddef.h",
    "limits.h", "signal.h", "time.h", "sched.h", "cmocka.h", "elfutils.h", "libdwfl.h",
    "libdw.h", "libelf.h", "gelf.h", "zlib.h", "json.h", "json-c.h", "argp.h", "dirent.h",
    "assert.h", "inttypes.h", "setjmp.h", "stdarg.h", "math.h", "ctype.h", "poll.h",
    "linux/futex.h", "futex.h", "profile.pb-c.h", "profile.pb-c.c", "stdatomic.h",
    "memory.h", "syscall.h", "unistd_64.h", "asm/unistd_64.h", "ptrace.h", "utsname.h",
    "flamegraph.pl", "stackcollapse.pl", "dtrace.h", "usdt.h", "sdt.h", "usdt.bpf.h",
}
# names that stand for any file in an example (a call site's file and line,
# a script of the reader's own) and words that read like paths (user/sys time)
EXAMPLES = {"File.java", "file.c", "store.c", "crowd.py", "dropper.py", "stem.h", "stem_part.c"}
WORDS = {"user/sys", "user/kernel"}
# a built program cited by its path: its source has one of these endings
BUILT_FROM = ("", ".c", ".bpf.c", ".java", ".py", ".sh")
PLACEHOLDER = re.compile(r"(^|/)[A-Z][A-Z0-9_]*(\.|/|$)|[*$…{}<>]|\.\.\.")


def comments(path, text):
    """The comment text of a source file (its non-comment parts blanked)."""
    if path.endswith((".c", ".h", ".java", ".bt")):
        parts = re.findall(r"/\*.*?\*/|//[^\n]*", text, re.S)
        return "\n".join(parts)
    if path.endswith(".py"):
        parts = [t.string for t in tokenize.generate_tokens(io.StringIO(text).readline)
                 if t.type == tokenize.COMMENT]
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)):
                parts.append(ast.get_docstring(node) or "")
        return "\n".join(parts)
    return "\n".join(re.findall(r"(?m)(?:^|\s)#[^\n]*$", text))


def sources(root):
    for d in SRC_DIRS:
        for dirpath, dirnames, files in os.walk(os.path.join(root, d)):
            dirnames[:] = [n for n in dirnames if n not in ("corpus", "fixtures")]
            for f in sorted(files):
                if f.endswith(SRC_EXT):
                    yield os.path.join(dirpath, f)


def docs(root):
    out = [os.path.join(root, "README.md")]
    ddir = os.path.join(root, "docs")
    if os.path.isdir(ddir):
        out += [os.path.join(ddir, f) for f in sorted(os.listdir(ddir)) if f.endswith(".md")]
    return [p for p in out if os.path.exists(p)]


def all_names(root):
    names = set()
    for dirpath, dirnames, files in os.walk(root):
        dirnames[:] = [n for n in dirnames if not n.startswith(".") or n == ".ci"]
        names.update(files)
    return names


def exists(root, p):
    p = p.rstrip("/")
    for base in (root, os.path.join(root, "user")):
        if base != root and p.split("/")[0] not in STAGES:
            continue
        if any(os.path.exists(os.path.join(base, p + ext)) for ext in BUILT_FROM):
            return True
    return False


def stale_in(root, rel, text, names):
    out = []
    for m in PATH.finditer(text):
        p = m.group(1).rstrip(".,;:")
        if text[m.end():m.end() + 1] in ("*", "{", "$", "<"):
            continue
        if PLACEHOLDER.search(p) or ".output" in p or p.endswith(".skel.h") or p in WORDS:
            continue
        if p.split("/")[0] in STAGES and "/" not in p.rstrip("/"):
            continue
        if not exists(root, p):
            out.append("%s: cites %s, which does not exist" % (rel, p)
                       if rel.endswith(".md") else "%s (comment): cites %s, which does not exist" % (rel, p))
    if rel.endswith(".md"):
        text = LINK.sub("]()", text)  # a link's target is checked as a link
    for m in NAME.finditer(text):
        n = m.group(1)
        if n in NOT_OURS or n in EXAMPLES or n.endswith(".skel.h") \
                or (PLACEHOLDER.search(n) and not n.endswith(".md")):  # NOTES.md is a name
            continue
        if n not in names:
            out.append("%s%s: names %s, which is no file here" % (rel, "" if rel.endswith(".md") else " (comment)", n))
    return out


LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(path):
    """The anchors GitHub gives a Markdown file's headings."""
    out, fence = set(), False
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("```"):
                fence = not fence
            m = None if fence else re.match(r"#{1,6} (.*)", line)
            if m:
                a = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
                out.add(a)
    return out


def bad_links(root, rel, text):
    out = []
    for m in LINK.finditer(text):
        target = m.group(1)
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(root, os.path.dirname(rel), path)) if path else os.path.join(root, rel)
        if not os.path.exists(full):
            out.append("%s: links %s, which does not exist" % (rel, target))
        elif anchor and full.endswith(".md") and anchor not in anchors(full):
            out.append("%s: links %s, a heading %s does not have" % (rel, target, os.path.relpath(full, root)))
    return out


def check(root):
    names = all_names(root)
    problems = []
    for p in docs(root):
        with open(p, errors="replace") as f:
            text = f.read()
        problems += stale_in(root, os.path.relpath(p, root), text, names)
        problems += bad_links(root, os.path.relpath(p, root), text)
    for p in sources(root):
        if os.path.basename(p) == "doc_paths.py":  # its examples are stale on purpose
            continue
        with open(p, errors="replace") as f:
            problems += stale_in(root, os.path.relpath(p, root), comments(p, f.read()), names)
    return sorted(set(problems))


def self_test():
    tree = {
        "README.md": "See `user/join/join.c`, `join/join.h` and `docs/guide.md`; and `tests/fuzz/TARGET.dict`.\n",
        "docs/guide.md": "The model lives in `user/explain/model.c` (stale); `store.c:34` is an example.\n"
                         "## The `--x` flag: yes\n[r](../README.md), [m](#the---x-flag-yes), [g](guide2.md)"
                         " (stale), [a](../README.md#nowhere) (stale), [w](https://example.org/x)\n",
        "user/join/join.c": "/* joined as join_jvm.c says (stale); see bpf/fctrace.h */\nint x = 0; // user/gone.h (stale)\n",
        "user/join/join.h": "/* from workloads/workload.h */\n",
        "bpf/fctrace.h": "struct s; /* docs/fctrace.1 (stale) */\n",
        "workloads/workload.h": "/* user/trace/ */\n",
        "tests/run.sh": "# runs tests/run.sh; see tests/none.py (stale)\necho tests/none2.py\n",
        "tests/prog.c": "/* built as tests/prog; user/sys time; a site as file.c:12; as NOTES.md says (stale) */\n",
        "tests/t.py": '"""t.py - reads tests/prog and tests/gone.sh (stale)."""\nx = "#include tests/no.h"  # not tests/no2.h (stale)\n',
    }
    want = {
        "docs/guide.md: cites user/explain/model.c, which does not exist",
        "docs/guide.md: links guide2.md, which does not exist",
        "docs/guide.md: links ../README.md#nowhere, a heading README.md does not have",
        "user/join/join.c (comment): names join_jvm.c, which is no file here",
        "user/join/join.c (comment): cites user/gone.h, which does not exist",
        "bpf/fctrace.h (comment): cites docs/fctrace.1, which does not exist",
        "tests/run.sh (comment): cites tests/none.py, which does not exist",
        "tests/t.py (comment): cites tests/gone.sh, which does not exist",
        "tests/prog.c (comment): names NOTES.md, which is no file here",
        "tests/t.py (comment): cites tests/no2.h, which does not exist",
        "user/trace (stage dir)",
    }
    with tempfile.TemporaryDirectory() as d:
        for path, text in tree.items():
            os.makedirs(os.path.join(d, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(d, path), "w") as f:
                f.write(text)
        os.makedirs(os.path.join(d, "user/trace"))
        got = set(check(d))
    want.discard("user/trace (stage dir)")
    if got != want:
        print("doc_paths self-test: expected\n  %s\ngot\n  %s" % ("\n  ".join(sorted(want)), "\n  ".join(sorted(got))))
        return 1
    print("doc_paths self-test: %d stale paths caught, the good ones passed" % len(want))
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    problems = check(root)
    for p in problems:
        print("doc_paths: " + p, file=sys.stderr)
    if not problems:
        print("doc paths: every path README.md, docs/*.md and the comments in %s cite exists"
              % ", ".join(d + "/" for d in SRC_DIRS))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
