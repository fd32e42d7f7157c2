"""The report never shows an older render as the view's when the newest iteration's sense did
not succeed (argus.evidence.attempt): it says so instead."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from argus.report._view import ViewInputs, _pictures
from argus.report.rundir import ViewDir
from argus.sense.attempt import begin_attempt, fail_attempt
from argus.spec import View
from tests.support.sensed import seal_sensed

VIEW = View("habits", "list", "populated", "light")


def _inputs(path: Path) -> ViewInputs:
    return ViewInputs(
        slug=VIEW.slug,
        target=VIEW.target,
        state=VIEW.state,
        appearance=VIEW.appearance,
        events=(),
        directory=ViewDir(path, "run-1", {"iteration": 2}),
        record=None,
        reference=None,
        reference_label="Reference",
        signoff=None,
        run_id="run-1",
        run_finished=True,
    )


def _iteration(path: Path, n: int) -> Path:
    folder = path / f"iteration-{n}"
    folder.mkdir(parents=True)
    Image.new("RGB", (8, 8), (245, 246, 248)).save(folder / "render.png")
    (folder / "probe.json").write_text(json.dumps({"elements": []}))
    return seal_sensed(folder, VIEW)


def test_the_newest_successful_render_is_shown(tmp_path: Path) -> None:
    _iteration(tmp_path, 1)
    _iteration(tmp_path, 2)
    (render, *_), _ = _pictures(_inputs(tmp_path))
    assert render.label == "Render (iteration 2)" and render.data_uri is not None


def test_after_a_failed_sense_no_older_render_stands_in(tmp_path: Path) -> None:
    _iteration(tmp_path, 1)
    failed = _iteration(tmp_path, 2)  # its sense was retried in place and failed
    fail_attempt(failed, begin_attempt(failed), "list-populated-light: the page errored")
    (render, *_), _ = _pictures(_inputs(tmp_path))
    assert render.data_uri is None
    assert "the sense of iteration 2 did not succeed" in render.note
    assert "the page errored" in render.note
