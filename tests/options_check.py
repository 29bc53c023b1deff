#!/usr/bin/env python3
"""options_check.py FCTRACE - the man page, the README and the options
fuzzer's dictionary against fctrace's table of options (make test runs it).

`FCTRACE --list-options` prints the table (user/cli/option_table.c): each
option's long and short name, its value, and the commands that take it.
It fails on
  - an option of the table missing from the man page's OPTIONS, from the
    README's "Every flag" table or from tests/fuzz/fuzz_options.dict;
  - an option in the man page or the README that the table does not have
    (argp's own --help, --usage and --version aside);
  - a short name that differs;
  - commands that differ: the man page names an option's commands in
    "[...]" on the line after its name, or in its .SS heading's "(...)";
    the README in its table's commands column;
  - a command of `FCTRACE --help` without its entry in the man page's
    COMMANDS.

  options_check.py FCTRACE [ROOT]   ROOT: the repository (default: here)
"""
import os
import re
import subprocess
import sys

EVERY_RUN = ["run", "run -- CMD", "attach", "sweep", "compare", "report", "diff"]
ARGP_OWN = {"--help", "--usage", "--version"}
errors = []


def fail(msg):
    errors.append(msg)


def table(fctrace):
    """{--name: (short or None, value or None, [places])} from the binary."""
    out = subprocess.run([fctrace, "--list-options"], capture_output=True, text=True,
                         check=True).stdout
    rows = {}
    for line in out.splitlines():
        name, short, value, where = line.split("\t")
        rows[name] = (None if short == "-" else short, None if value == "-" else value,
                      where.split(","))
    if len(rows) < 10:
        sys.exit("options_check: %s --list-options printed %d rows" % (fctrace, len(rows)))
    return rows


def places(text):
    """[run, run -- CMD] from "run, run -- CMD" or "every command but list"."""
    text = text.strip()
    if text in ("every command but list", "all but list"):
        return EVERY_RUN
    return [p.strip() for p in text.split(",")]


def roff_plain(line):
    """A roff line as it reads: no escapes, fonts or macro names."""
    line = line.replace("\\-", "-").replace("\\(em", "-")
    line = re.sub(r"\\f[BIRP]", "", line)
    line = re.sub(r"^\.(B|I|BI|BR|IR|RB|RI|IB)\s+", "", line)
    return line.replace('"', "")


def section(lines, name):
    """The lines of .SH name, up to the next .SH."""
    start = next(i for i, l in enumerate(lines) if l.startswith(".SH " + name))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith(".SH ")),
               len(lines))
    return lines[start + 1:end]


def man_options(lines):
    """{--name: (short, [places] or None)} from the man page's OPTIONS."""
    found, scope = {}, None
    body = section(lines, "OPTIONS")
    for i, l in enumerate(body):
        if l.startswith(".SS"):
            m = re.search(r"\((.*)\)", roff_plain(l))
            scope = places(m.group(1)) if m else None
        if l != ".TP" or i + 1 >= len(body):
            continue
        tag = roff_plain(body[i + 1])
        longs = re.findall(r"--[a-z][a-z-]*", tag)
        if not longs:
            fail("man page: OPTIONS: an entry without a long option: %r" % body[i + 1])
            continue
        short = re.match(r"\s*(-[A-Za-z?])\s*,", tag)
        nxt = roff_plain(body[i + 2]) if i + 2 < len(body) else ""
        own = re.fullmatch(r"\[(.*)\]", nxt.strip())
        found[longs[0]] = (short.group(1) if short else None,
                           places(own.group(1)) if own else scope)
    return found


def man_commands(lines):
    """The first word of each entry of the man page's COMMANDS."""
    body = section(lines, "COMMANDS")
    return {roff_plain(body[i + 1]).split()[0] for i, l in enumerate(body)
            if l == ".TP" and i + 1 < len(body)}


def readme_options(text):
    """{--name: (short, [places])} from the README's "Every flag" table."""
    sec = text[text.index("## Every flag"):]
    sec = sec[:sec.index("\n#")] if "\n#" in sec else sec
    found = {}
    for line in sec.splitlines():
        m = re.match(r"\| `([^`]*)` \| ([^|]*) \|", line)
        if not m:
            continue
        flag, where = m.groups()
        name = re.search(r"--[a-z][a-z-]*", flag).group(0)
        short = re.match(r"(-[A-Za-z]),", flag)
        if name in found:
            fail("README: %s has two rows in \"Every flag\"" % name)
        found[name] = (short.group(1) if short else None, places(where.replace("`", "")))
    return found


def compare(what, rows, documented, check_places=True):
    for name, (short, _, where) in rows.items():
        if name not in documented:
            fail("%s: %s is missing (the table has it)" % (what, name))
            continue
        dshort, dwhere = documented[name]
        if dshort != short:
            fail("%s: %s's short name is %s, the table's %s" % (what, name, dshort, short))
        if not check_places:
            continue
        if dwhere is None:
            fail("%s: %s does not say which commands take it (the table: %s)"
                 % (what, name, ", ".join(where)))
        elif sorted(dwhere) != sorted(where):
            fail("%s: %s is taken by %s, the table says %s"
                 % (what, name, ", ".join(dwhere), ", ".join(where)))
    for name in documented:
        if name not in rows and name not in ARGP_OWN:
            fail("%s: %s is not an option of fctrace (not in the table)" % (what, name))


def help_commands(fctrace):
    out = subprocess.run([fctrace, "--help"], capture_output=True, text=True, check=True).stdout
    return re.findall(r"^  ([a-z]+)  +\S", out.split("Commands:")[1], re.M)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    fctrace, root = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "."
    rows = table(fctrace)
    with open(os.path.join(root, "docs/fctrace.1")) as f:
        man = f.read().split("\n")
    compare("man page", rows, man_options(man))
    missing = set(help_commands(fctrace)) - man_commands(man)
    for cmd in sorted(missing):
        fail("man page: COMMANDS has no entry for %s" % cmd)
    with open(os.path.join(root, "docs", "commands.md")) as f:
        compare("docs/commands.md", rows, readme_options(f.read()))
    with open(os.path.join(root, "tests/fuzz/fuzz_options.dict")) as f:
        words = set(re.findall(r'"(-[^"]*)"', f.read()))
    for name in rows:
        if name not in words:
            fail("tests/fuzz/fuzz_options.dict: %s is missing" % name)
    for e in errors:
        print("options_check: " + e, file=sys.stderr)
    if errors:
        sys.exit(1)
    print("options: %d in the table; the man page, the README and the fuzzer's dictionary "
          "agree" % len(rows))


if __name__ == "__main__":
    main()
