"""Build a view's GateInputs from a repository: spec, config, tokens, sensed files."""

from __future__ import annotations

from pathlib import Path

from argus.config import ProjectConfig, load_config
from argus.errors import InputError
from argus.evidence.attempt import require_fresh
from argus.gates.base import GateInputs, SensedFiles
from argus.io import read_json
from argus.sense.views import check_view
from argus.spec import Spec, View, load_spec
from argus.spec.model import view_slug
from argus.spec.paths import SPECS_DIR
from argus.tokens import load_tokens

RUNS_DIR = ".argus-runs"


def spec_path(root: Path, feature: str) -> Path:
    return root / SPECS_DIR / feature / "spec.json"


def view_dir(spec: Spec, view: View) -> Path:
    """The view's run directory: ``argus/specs/{feature}/.argus-runs/{slug}/``."""
    return spec.spec_dir / RUNS_DIR / view.slug


def check_sensed_view(sensed_dir: Path, view: View) -> None:
    """InputError unless the directory's meta.json says it holds this view's files.

    Without a readable record of the view (meta.json missing, empty, not an object, or with no
    ``view`` object) nothing proves the files belong to this view, so they are refused: every
    sensor, web or adapter, writes one. Files that are not all of the view's last successful
    sense are refused too (argus.evidence.attempt).
    """
    meta_path = sensed_dir / "meta.json"
    redo = "sense the view again (argus gates --sense; argus sense when it is to be judged)"
    if not meta_path.is_file():
        raise InputError(
            f"{sensed_dir}: no meta.json, so nothing says which view these files are of; {redo}"
        )
    meta = read_json(meta_path, what="meta.json")
    recorded = meta.get("view") if isinstance(meta, dict) else None
    if not isinstance(recorded, dict):
        raise InputError(f"{meta_path}: meta.json records no 'view' object; {redo}")
    fields = ("feature", "target", "state", "appearance")
    found = tuple(str(recorded.get(k, "")) for k in fields)
    if found != (view.feature, view.target, view.state, view.appearance):
        other = f"{found[0]} {view_slug(*found[1:])}"
        raise InputError(
            f"{sensed_dir}: holds the sensed files of {other}, not {view.feature} {view.slug}; "
            "gate the view it holds, or sense this one (argus gates --sense)"
        )
    # And they are all of the view's last sense, which succeeded: never an older render left
    # behind by a sense that failed, or files of two attempts side by side.
    require_fresh(sensed_dir, meta, f"{view.feature} {view.slug}")


def gate_inputs(
    spec: Spec,
    view: View,
    sensed_dir: Path,
    *,
    config: ProjectConfig,
    run_dir: Path | None = None,
) -> GateInputs:
    """Inputs for one view; InputError when the view is not in the spec."""
    check_view(spec, view)
    tokens = load_tokens(spec.tokens_path)
    tokens.require_appearance(view.appearance)
    return GateInputs(
        spec=spec,
        target=spec.target(view.target),
        view=view,
        tokens=tokens,
        sensed=SensedFiles(sensed_dir),
        run_dir=run_dir or sensed_dir,
        config=config,
        root=config.root,
    )


def load_view_inputs(
    root: Path,
    feature: str,
    target: str,
    state: str,
    appearance: str,
    sensed_dir: Path | None = None,
    run_dir: Path | None = None,
) -> GateInputs:
    """Everything from disk: the feature's spec, the project config, the sensed directory
    (default: the view's run directory)."""
    config = load_config(root)
    spec = load_spec(spec_path(config.root, feature))
    view = View(spec.feature, target, state, appearance)
    sensed = sensed_dir or view_dir(spec, view)
    return gate_inputs(spec, view, sensed, config=config, run_dir=run_dir)
