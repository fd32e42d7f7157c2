"""Build a view's GateInputs from a repository: spec, config, tokens, sensed files."""

from __future__ import annotations

from pathlib import Path

from argus.config import ProjectConfig, load_config
from argus.gates.base import GateInputs, SensedFiles
from argus.sense.views import check_view
from argus.spec import Spec, View, load_spec
from argus.spec.paths import SPECS_DIR
from argus.tokens import load_tokens

RUNS_DIR = ".argus-runs"


def spec_path(root: Path, feature: str) -> Path:
    return root / SPECS_DIR / feature / "spec.json"


def view_dir(spec: Spec, view: View) -> Path:
    """The view's run directory: ``argus/specs/{feature}/.argus-runs/{slug}/``."""
    return spec.spec_dir / RUNS_DIR / view.slug


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
