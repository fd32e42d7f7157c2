"""Arguments several subcommands share: the view they work on, the repository root, the spec.

add_view_arguments(parser)                          # --feature --target --state --appearance
add_view_arguments(parser, view_required=False)     # --state/--appearance optional
add_root_argument(parser)                           # --root DIR
root = repo_root(args); spec = feature_spec(root, args.feature)
"""

from __future__ import annotations

import argparse
from pathlib import Path

from argus.errors import InputError
from argus.spec import Spec, find_repo_root, find_specs, load_spec
from argus.spec.paths import SPECS_DIR


def add_view_arguments(
    parser: argparse.ArgumentParser,
    *,
    target_required: bool = True,
    view_required: bool = True,
    target_help: str = "target id from the spec",
    state_dest: str = "state",
) -> None:
    """``--feature`` (always required), ``--target``, ``--state`` and ``--appearance``.

    ``view_required=False`` makes ``--state`` and ``--appearance`` optional (they still go
    together: the command checks that); ``state_dest`` renames ``args.state`` where a
    subcommand already uses that name."""
    pair = "" if view_required else " (with --appearance)"
    parser.add_argument("--feature", required=True, help="feature name (argus/specs/FEATURE)")
    parser.add_argument("--target", required=target_required, help=target_help)
    parser.add_argument(
        "--state",
        required=view_required,
        dest=state_dest,
        metavar="STATE",
        help=f"state of the target{pair}",
    )
    parser.add_argument(
        "--appearance",
        required=view_required,
        help="appearance, e.g. light or dark" + ("" if view_required else " (with --state)"),
    )


def add_root_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", type=Path, help="repository root (default: found from cwd)")


def repo_root(args: argparse.Namespace) -> Path:
    """``--root``, else the repository holding the current directory."""
    root: Path | None = args.root
    return root.resolve() if root is not None else find_repo_root(Path.cwd())


def feature_spec(root: Path, feature: str) -> Spec:
    """The feature's loaded spec; an unknown feature names the ones there are."""
    path = root / SPECS_DIR / feature / "spec.json"
    if not path.is_file():
        known = ", ".join(p.parent.name for p in find_specs(root)) or "none"
        raise InputError(f"{path}: no feature '{feature}' here (features: {known})")
    return load_spec(path)
