"""The review page never shows, compares or offers to accept a render whose sense did not
succeed (argus.evidence.attempt): it says why instead."""

from __future__ import annotations

from pathlib import Path

from argus.sense.attempt import begin_attempt, fail_attempt
from argus.ui._catalog import feature_runs
from tests.support.sensed import seal_sensed
from tests.ui.support import VIEW, changed_snapshot_repo


def test_a_render_left_by_a_failed_sense_is_not_shown(tmp_path: Path) -> None:
    root, render, _ = changed_snapshot_repo(tmp_path)
    seal_sensed(render.parent, VIEW)
    (card,) = feature_runs(root, "demo").views
    assert card.render == render and card.snapshot is not None and card.error == ""
    fail_attempt(render.parent, begin_attempt(render.parent), "list-a-light: the page errored")
    (card,) = feature_runs(root, "demo").views
    assert card.render is None and card.snapshot is None
    assert "failed: list-a-light: the page errored" in card.error


def test_a_render_left_by_a_failed_sense_is_never_accepted_as_the_baseline(
    tmp_path: Path,
) -> None:
    import pytest

    from argus.config import load_config
    from argus.errors import InputError
    from argus.loop.human.decisions import accept_baseline
    from argus.spec import load_spec

    root, render, baseline = changed_snapshot_repo(tmp_path)
    before = baseline.read_bytes()
    seal_sensed(render.parent, VIEW)
    fail_attempt(render.parent, begin_attempt(render.parent), "list-a-light: the page errored")
    spec = load_spec(root / "argus/specs/demo/spec.json")
    with pytest.raises(InputError, match=r"not taken as the baseline: .*the page errored"):
        accept_baseline(spec, load_config(root), VIEW, via="review page")
    assert baseline.read_bytes() == before
