"""`argus schema [NAME]`: print one of the JSON Schemas Argus validates its files with."""

from __future__ import annotations

import argparse
import json

from argus.schemas import SCHEMA_NAMES, schema


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "schema",
        help="print a JSON Schema (spec, rubric, verdict, ...)",
        description="Print one of Argus's JSON Schemas (draft 2020-12); "
        "without NAME, list the names.",
    )
    parser.add_argument("name", nargs="?", metavar="NAME", help=", ".join(SCHEMA_NAMES))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.name is None:
        print("\n".join(SCHEMA_NAMES))
        return 0
    print(json.dumps(schema(args.name), indent=2, ensure_ascii=False))
    return 0
