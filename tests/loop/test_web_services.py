"""ArgusServices without a browser: the loop's snapshot gate compares only if a baseline exists."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from argus.config import load_config
from argus.diff import baseline_path
from argus.loop.engine.web_services import ArgusServices
from argus.loop.records.layout import RunLayout
from argus.schemas import load_rubric
from argus.spec import View, load_spec
from tests.gates.test_cli_update_snapshots import snapshot_project

VIEW = View("habits", "list", "populated", "light")


def services(root: Path) -> ArgusServices:
    spec = load_spec(root / "argus/specs/habits/spec.json")
    return ArgusServices(spec, load_config(root), load_rubric(None), RunLayout(spec.spec_dir))


def test_a_missing_baseline_before_sign_off_is_not_red(tmp_path: Path) -> None:
    # Even with updates off in the project ("none": a missing baseline fails in `argus gates`),
    # the loop's iterations only compare if present: no baseline yet is expected.
    root, sensed = snapshot_project(tmp_path, config_update="none")
    report = services(root).gates(VIEW, sensed, iteration=1)
    snapshot = report.data["details"]["snapshot"]
    # Not red; but with the snapshot the only gate, nothing was measured, so not green either.
    assert report.red_gates == () and snapshot["status"] == "skip" and not report.all_green
    spec_dir = root / "argus/specs/habits"
    assert not baseline_path(spec_dir, "list", "populated", "light").exists()


def test_an_existing_baseline_is_still_compared(tmp_path: Path) -> None:
    root, sensed = snapshot_project(tmp_path, config_update="none")
    baseline = baseline_path(root / "argus/specs/habits", "list", "populated", "light")
    baseline.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (1280, 800), (0, 0, 0)).save(baseline)
    report = services(root).gates(VIEW, sensed, iteration=1)
    assert not report.all_green and "snapshot" in report.red_gates
    assert json.loads((sensed / "gate-result.json").read_text())["gates"]["snapshot"] == "diff"


def test_sign_off_writes_the_baseline_with_the_platform_suffix(tmp_path: Path) -> None:
    root, sensed = snapshot_project(tmp_path, config_update="missing")
    config = root / "argus.toml"
    config.write_text(config.read_text() + 'platform = "ci-linux"\n')  # in [gates.snapshot]
    written = services(root).write_baseline(VIEW, sensed / "render.png")
    assert written == "argus/specs/habits/__snapshots__/list-populated-light-ci-linux.png"
    assert (root / written).is_file()


def test_files_left_by_a_failed_sense_are_never_gated_or_judged(tmp_path: Path) -> None:
    import pytest

    from argus.errors import InputError
    from argus.sense.attempt import begin_attempt, fail_attempt

    root, sensed = snapshot_project(tmp_path, config_update="none")
    fail_attempt(sensed, begin_attempt(sensed), "list-populated-light: the page errored")
    for call in (
        lambda: services(root).gates(VIEW, sensed, iteration=2),
        lambda: services(root).judge(VIEW, sensed, None),  # type: ignore[arg-type]
    ):
        with pytest.raises(InputError, match="failed: list-populated-light: the page errored"):
            call()
    assert not (sensed / "gate-result.json").exists()
