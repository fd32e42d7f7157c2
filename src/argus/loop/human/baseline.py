"""Write a view's snapshot baseline from one render: the single code path for every writer.

The loop calls it at sign-off (update mode ``changed``: the signed-off render replaces a
baseline only when it moved beyond the tolerance), and a person accepting a render as the new
baseline (``argus approve --baseline`` or the review page) calls it with ``all``. Both resolve
the target's masks through the render's probe and scale them by its device pixel ratio, so a
baseline is written the same way, masks painted, whoever asks.
"""

from __future__ import annotations

from pathlib import Path

from argus.config import ProjectConfig
from argus.diff import baseline_path, compare_to_baseline
from argus.diff.snapshot import SnapshotOutcome, UpdateMode
from argus.errors import InputError
from argus.evidence.attempt import stale_reason
from argus.gates import configured_gates
from argus.gates.baseline_browser import record_browser
from argus.gates.comparison import comparison_for
from argus.gates.inputs import gate_inputs
from argus.io import read_json
from argus.spec.model import Spec, View


def view_baseline(spec: Spec, config: ProjectConfig, view: View) -> Path:
    """Where the view's snapshot baseline lives."""
    return baseline_path(
        spec.spec_dir,
        view.target,
        view.state,
        view.appearance,
        config.gates.snapshot.platform_suffix,
    )


def keeps_baselines(spec: Spec, config: ProjectConfig, view: View, sensed: Path) -> bool:
    """Whether the view's gates include the snapshot gate (else there is no baseline to keep)."""
    inputs = gate_inputs(spec, view, sensed, config=config)
    return "snapshot" in configured_gates(inputs)


def write_baseline(
    spec: Spec, config: ProjectConfig, view: View, render: Path, mode: UpdateMode
) -> SnapshotOutcome:
    """Compare ``render`` (beside its probe.json) with the view's baseline and write it as
    ``mode`` says (``changed`` or ``all``). A render whose sense did not succeed (or whose
    files are not all of it) never becomes the baseline: InputError, one line."""
    stale = stale_reason(render.parent, f"{view.feature} {view.slug}")
    if stale is not None:
        raise InputError(f"not taken as the baseline: {stale}")
    comparison = comparison_for(config, spec, view)
    probe = read_json(render.parent / "probe.json", what="probe.json")
    boxes, scale = comparison.masks_on(render, probe if isinstance(probe, dict) else {})
    baseline = view_baseline(spec, config, view)
    outcome = compare_to_baseline(render, baseline, comparison.tolerance, boxes, mode, scale=scale)
    if outcome.written or outcome.updated:
        meta_file = render.parent / "meta.json"
        meta = read_json(meta_file, what="meta.json") if meta_file.is_file() else {}
        record_browser(baseline, meta if isinstance(meta, dict) else {})
    return outcome
