#!/usr/bin/env python3
"""Validates TOML files against openurld's JSON Schema (Debian python3-jsonschema, Python 3.11+ tomllib).

usage: validate_config.py SCHEMA.json FILE.toml...
Prints "FILE: ok" or "FILE: invalid: PATH: MESSAGE" per file; exits 1 if any file is invalid.
"""
import json
import sys
import tomllib

import jsonschema


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    failed = False
    for path in sys.argv[2:]:
        with open(path, "rb") as f:
            document = tomllib.load(f)
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        if errors:
            failed = True
            for error in errors:
                where = ".".join(str(p) for p in error.absolute_path) or "(top)"
                print(f"{path}: invalid: {where}: {error.message}")
        else:
            print(f"{path}: ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
