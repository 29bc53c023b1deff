#!/usr/bin/env python3
"""Validate fctrace JSON documents against docs/fctrace.schema.json.

Usage: schema_check.py SCHEMA FILE...
Exit status: 0 all valid, 1 a document is invalid (each error printed),
2 bad usage or an unreadable file, 3 the jsonschema module is missing
(Debian: apt-get install python3-jsonschema) - tests skip on 3.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("schema_check: the python3 jsonschema module is not installed", file=sys.stderr)
    sys.exit(3)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"schema_check: {path}: {e}", file=sys.stderr)
        sys.exit(2)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    schema = load(argv[1])
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)        # a broken schema must not pass everything
    validator = cls(schema)
    bad = 0
    for path in argv[2:]:
        errors = sorted(validator.iter_errors(load(path)), key=lambda e: list(e.absolute_path))
        for e in errors:
            where = "/".join(str(p) for p in e.absolute_path) or "(top)"
            print(f"{path}: {where}: {e.message}")
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
