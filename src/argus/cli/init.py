"""`argus init FEATURE`: scaffold argus/specs/FEATURE/ from the shipped templates."""

from __future__ import annotations

import argparse
from pathlib import Path

from argus.spec import find_repo_root
from argus.spec.scaffold import init_feature


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "init",
        help="scaffold a feature spec under argus/specs/FEATURE/",
        description="Create argus/specs/FEATURE/ with spec.json, spec.md, tokens.json and "
        "contrast-pairs.json, and .gitignore rules that keep run artefacts out of git. "
        "Never overwrites an existing feature.",
    )
    parser.add_argument("feature", metavar="FEATURE", help="feature slug, e.g. 'habits'")
    parser.add_argument(
        "--rubric",
        action="store_true",
        help="also copy the default rubric.json into the feature, to tune it",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    root = find_repo_root(Path.cwd())
    scaffold = init_feature(root, args.feature, with_rubric=args.rubric)
    for path in scaffold.written:
        print(f"wrote {path.relative_to(root)}")
    feature_dir = scaffold.feature_dir.relative_to(root)
    print(
        f"next: describe the feature in {feature_dir}/spec.md and spec.json, put your design "
        f"tokens in tokens.json, add a reference image under {feature_dir}/references/ "
        "(or let 'argus loop' render a candidate), then run 'argus lint'"
    )
    return 0
