"""`argus design diff|extract`: design systems compared, and extracted from a rendered page."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from argus.cli._args import add_root_argument, repo_root
from argus.cli._types import fraction, side
from argus.errors import InputError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "design",
        help="design systems: extract one from a rendered page, compare two",
        description="Design-schema files (docs/design.md).",
    )
    actions = parser.add_subparsers(dest="design_action", metavar="ACTION", required=True)
    diff = actions.add_parser(
        "diff",
        help="what CANDIDATE lacks of REFERENCE's design system",
        description="Asymmetric per-dimension diff (spacing base unit, type ratio, elevation "
        "levels, breakpoints, components): prints {status, deltas}. Exit 0 pass, 1 the "
        "candidate lacks something, 2 unreadable, partial or unrecognised files.",
    )
    diff.add_argument("candidate", type=Path, metavar="CANDIDATE")
    diff.add_argument("reference", type=Path, metavar="REFERENCE")
    diff.add_argument(
        "--tolerance", type=fraction, default=0.05, help="type ratio tolerance (relative, 0.05)"
    )
    diff.set_defaults(func=run_diff)
    extract = actions.add_parser(
        "extract",
        help="render a page and write design-schema.json from its computed styles",
        description="Render URL (or a feature's view, its web server started as for `argus "
        "sense`) in Argus's Chromium and write design-schema.json: spacing fitted to a base "
        "unit, font sizes to a ratio, breakpoints from media queries, the shadow ramp and "
        "component recipes. Exit 0 written, 2 bad input or the page could not be rendered.",
    )
    extract.add_argument("url", nargs="?", metavar="URL", help="an http(s) URL to render")
    extract.add_argument("--feature", help="feature name (argus/specs/FEATURE)")
    extract.add_argument("--target", help="target id from the spec")
    extract.add_argument("--state", help="state (default: the target's first)")
    extract.add_argument("--appearance", help="appearance (default: the target's first)")
    extract.add_argument("--base-url", help="override base_url (no web server is started)")
    extract.add_argument("--width", type=side, default=1280, help="viewport width for a URL")
    extract.add_argument("--height", type=side, default=800, help="viewport height for a URL")
    extract.add_argument(
        "--out",
        type=Path,
        help="where to write (inside the repository; default: the view's .argus-runs entry "
        "for a feature, standard output for a URL)",
    )
    add_root_argument(extract)
    extract.set_defaults(func=run_extract)


def run_diff(args: argparse.Namespace) -> int:
    from argus.design.diff import diff_documents
    from argus.io import read_json

    candidate = read_json(args.candidate, what="candidate design schema")
    reference = read_json(args.reference, what="reference design schema")
    result = diff_documents(candidate, reference, args.tolerance)
    if result.status == "not_captured":
        raise InputError(f"{args.candidate} vs {args.reference}: {result.reason}")
    print(json.dumps(result.to_json(), indent=2))
    return 0 if result.status == "pass" else 1


def _inside(root: Path, path: Path) -> Path:
    resolved = (Path.cwd() / path).resolve()
    if not resolved.is_relative_to(root):
        raise InputError(f"{path}: --out must be inside the repository {root}")
    return resolved


def run_extract(args: argparse.Namespace) -> int:
    from argus.cli._view import served_view
    from argus.config import load_config
    from argus.design.extract import build_schema, measure
    from argus.io import atomic_write_json
    from argus.sense.browser import discover_browser

    root = repo_root(args)
    if (args.url is None) == (args.feature is None):
        raise InputError("design extract: give a URL or --feature F --target T, not both")
    out: Path | None
    if args.url is not None:
        if not args.url.startswith(("http://", "https://")):
            raise InputError(f"{args.url}: design extract renders http(s) URLs only")
        out = _inside(root, args.out) if args.out else None
        browser = discover_browser(load_config(root))
        raw = measure(args.url, width=args.width, height=args.height, browser=browser)
        url = args.url
    else:
        if not args.target:
            raise InputError("design extract: --feature needs --target")
        browser = discover_browser(load_config(root))
        with served_view(root, args) as view:
            out = _inside(root, args.out) if args.out else view.out_dir / "design-schema.json"
            raw = measure(
                view.url,
                width=view.viewport.width,
                height=view.viewport.height,
                browser=browser,
                color_scheme=view.color_scheme,
            )
            url = view.url
    schema = build_schema(raw, url)
    spacing, types = schema["spacing"], schema["type_scale"]
    summary = (
        f"base unit {spacing['base_unit']}, type ratio {types['ratio']}, "
        f"{len(schema['grid']['breakpoints'])} breakpoint(s), "
        f"{len(schema['elevation']['shadows'])} shadow(s), "
        f"components {', '.join(schema['components']) or 'none'}"
    )
    # The schema is the output: to stdout, or to the file named; what happened goes to stderr,
    # so `argus design extract URL > schema.json` captures JSON and nothing else.
    if out is None:
        print(json.dumps(schema, indent=2))
        print(f"argus: design schema of {url}: {summary}", file=sys.stderr)
    else:
        atomic_write_json(out, schema)
        print(f"argus: wrote {out}: {summary}", file=sys.stderr)
    return 0
