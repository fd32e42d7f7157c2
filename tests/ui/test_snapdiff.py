"""The review page's render-against-baseline comparison agrees with the snapshot gate on masks
that hide the view."""

from __future__ import annotations

import json
from pathlib import Path

from argus.diff import save_png
from argus.gates.comparison import Comparison
from argus.ui._snapdiff import snapshot_diff
from tests.diff.conftest import page


def _sensed(tmp_path: Path, cover: dict[str, float]) -> Path:
    """A render of the small page with a probe whose '.ticker' mask lies at ``cover``."""
    run = tmp_path / "run"
    run.mkdir(parents=True)
    render = run / "render.png"
    shown = page()
    shown[4:8, 4:20, :3] = 0  # the dark bar changed
    save_png(render, shown)
    probe = {"viewport": {"width": 64, "height": 48}, "elements": [], "masks": {".ticker": [cover]}}
    (run / "probe.json").write_text(json.dumps(probe))
    return render


def test_masks_newly_hiding_most_of_the_view_are_a_change_as_in_the_gate(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.png"
    save_png(baseline, page())
    comparison = Comparison(masks=(".ticker",))
    whole = {"x": 0, "y": 0, "width": 64, "height": 48}
    found = snapshot_diff(_sensed(tmp_path, whole), baseline, comparison)
    assert found.changed and found.mismatch == 0
    assert found.summary.startswith("the masks cover 3072 pixels (100.0% of the view) that")
    bar = {"x": 4, "y": 4, "width": 16, "height": 4}  # only the volatile part: 64 pixels
    masked = snapshot_diff(_sensed(tmp_path / "b", bar), baseline, comparison)
    assert not masked.changed and masked.mismatch == 0
