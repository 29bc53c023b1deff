#!/usr/bin/env python3
"""Every key the documents write is described by the schema, and every
property the schema describes is written by one of them
(--written-only: the first half alone, for documents that cannot be all
the kinds of run, such as without root).

Usage: schema_coverage.py [--written-only] SCHEMA FILE...
Exit status: 0 both hold, 1 a key is undescribed or a property unwritten
(each printed), 2 bad usage or an unreadable file, 3 the jsonschema
module is missing (tests skip on 3).

schema_check.py says whether a document is valid; most of the schema's
objects leave additionalProperties open (a newer fctrace's run must still
validate), so validity says nothing of a key the schema forgot. This walk
follows each document and the schema together and says, of every key
path, whether a property (or a schema for any key, such as the syscalls
by name) describes it. Then, of every property the schema holds, whether
a document wrote it: a property nothing writes is the schema's drift the
other way. NEVER_WRITTEN lists, with why, the ones the test's runs cannot
make.
"""
import json
import re
import sys

try:
    import jsonschema
except ImportError:
    print("schema_coverage: the python3 jsonschema module is not installed", file=sys.stderr)
    sys.exit(3)

# Properties no run the test makes can write, by their place in the schema
# ("DEF.key" or "DEF.a.b.key": the $defs entry, then the properties on the
# way). Each is written only in a condition named beside it.
NEVER_WRITTEN = {
}


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"schema_coverage: {path}: {e}", file=sys.stderr)
        sys.exit(2)


class Walk:
    def __init__(self, schema):
        self.root = schema
        self.cls = jsonschema.validators.validator_for(schema)
        self.written = set()            # schema places a document wrote
        self.undescribed = set()        # document paths no property describes

    def resolve(self, s, place):
        """s without its $ref, and the place ("DEF") its properties are named by."""
        seen = 0
        while isinstance(s, dict) and "$ref" in s and seen < 32:
            name = s["$ref"].rsplit("/", 1)[-1]
            s, place, seen = self.root["$defs"][name], name, seen + 1
        return s, place

    def valid(self, s, v):
        # the subschema with the root's $defs, which its $refs name
        return self.cls(dict(s, **{"$defs": self.root["$defs"]})).is_valid(v)

    def branches(self, s, place, v):
        """The subschemas that describe v: s and what it combines, the
        branches of oneOf/anyOf and if/then/else that v takes."""
        s, place = self.resolve(s, place)
        if not isinstance(s, dict):
            return []
        out = [(s, place)]
        for b in s.get("allOf", []):
            out += self.branches(b, place, v)
        for key in ("oneOf", "anyOf"):
            alts = s.get(key, [])
            taken = [b for b in alts if self.valid(b, v)] or alts
            for b in taken:
                out += self.branches(b, place, v)
        if "if" in s:
            b = s.get("then") if self.valid(s["if"], v) else s.get("else")
            if b is not None:
                out += self.branches(b, place, v)
        return out

    def walk(self, s, place, v, path):
        subs = self.branches(s, place, v)
        if isinstance(v, dict):
            for key, child in v.items():
                self.walk_member(subs, key, child, f"{path}.{key}" if path else key)
        elif isinstance(v, list):
            for i, child in enumerate(v):
                for sub, where in subs:
                    if isinstance(sub.get("items"), dict):
                        self.walk(sub["items"], where, child, f"{path}[]")

    def walk_member(self, subs, key, child, path):
        found = False
        for sub, where in subs:
            props = sub.get("properties", {})
            if key in props:
                found = True
                self.written.add(f"{where}.{key}")
                self.walk(props[key], f"{where}.{key}", child, path)
            for pattern, ps in sub.get("patternProperties", {}).items():
                if re.search(pattern, key):
                    found = True
                    self.walk(ps, where, child, path)
            extra = sub.get("additionalProperties")
            if isinstance(extra, dict) and key not in props:
                found = True    # a schema for any key: the syscalls by name, the locks
                self.walk(extra, where, child, path)
        if not found:
            self.undescribed.add(re.sub(r"\.(?=[^.]*\[\])", ".", path))

    def described(self):
        """Every property of the schema, by its place."""
        places = set()

        def visit(s, place, depth):
            if depth > 40:
                return
            if isinstance(s, dict):
                if "$ref" in s:
                    return      # named where its $defs entry is visited
                for key, ps in s.get("properties", {}).items():
                    places.add(f"{place}.{key}")
                    visit(ps, f"{place}.{key}", depth + 1)
                for key, ps in s.items():
                    # an "if"'s properties test a document, they describe nothing
                    if key in ("properties", "$defs", "const", "enum", "default", "examples",
                               "if"):
                        continue
                    if isinstance(ps, (dict, list)):
                        visit(ps, place, depth + 1)
            elif isinstance(s, list):
                for ps in s:
                    visit(ps, place, depth + 1)

        for name, d in self.root.get("$defs", {}).items():
            visit(d, name, 0)
        visit({k: v for k, v in self.root.items() if k != "$defs"}, "(top)", 0)
        return places


def main(argv):
    written_only = len(argv) > 1 and argv[1] == "--written-only"
    if written_only:
        argv = argv[:1] + argv[2:]
    if len(argv) < 3:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    w = Walk(load(argv[1]))
    for path in argv[2:]:
        w.walk(w.root, "(top)", load(path), "")
    bad = 0
    for p in sorted(w.undescribed):
        print(f"schema_coverage: written but not in the schema: {p}")
        bad += 1
    unwritten = set() if written_only else w.described() - w.written - set(NEVER_WRITTEN)
    for p in sorted(unwritten):
        print(f"schema_coverage: in the schema but written by none of the runs: {p}")
        bad += 1
    for p in sorted(set(NEVER_WRITTEN) & w.written if not written_only else ()):
        print(f"schema_coverage: {p} was written: take it off NEVER_WRITTEN")
        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
