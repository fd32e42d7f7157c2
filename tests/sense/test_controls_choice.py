"""Each path's dead-control probe choice, without a browser: where the files a path senses
are thrown away (the demo's candidate references), the Sensor it opens is checked instead.
The paths whose files stay are checked on meta.json in test_controls_choice_browser.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest

import argus.sense.sensor as sensor_module
from argus.cli._demo import approve_missing_references
from argus.errors import ArgusError
from argus.sense.controls_choice import (
    DEMO,
    GATES,
    LOOP,
    NO_CONTROLS,
    SENSE_CLI,
    SNAPSHOT_ONLY,
    ControlsChoice,
    controls_record,
)
from argus.sense.result import SenseResult
from argus.sense.web import effective_controls
from tests.support.habits import copy_habits


class _Refusing:
    """A Sensor that records the choice it was opened with and renders nothing."""

    opened: ClassVar[list[ControlsChoice]] = []

    def __init__(self, config: Any, root: Path | None = None, **kwargs: Any) -> None:
        self.opened.append(kwargs["controls"])

    def __enter__(self) -> _Refusing:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def sense(self, spec: Any, view: Any, out_dir: Path, **kwargs: Any) -> SenseResult:
        return SenseResult(view=view, out_dir=out_dir, error="not rendered in this test")


def test_the_demo_renders_candidate_references_without_the_probe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_habits(tmp_path)
    _Refusing.opened = []
    monkeypatch.setattr(sensor_module, "Sensor", _Refusing)
    with pytest.raises(ArgusError, match="could not render"):
        approve_missing_references(root)
    assert _Refusing.opened == [DEMO] and not DEMO.run


def test_the_sense_itself_can_only_leave_the_probe_out() -> None:
    assert effective_controls(LOOP, probe=True, max_controls=8) == LOOP
    assert effective_controls(SENSE_CLI, probe=False, max_controls=8) == SNAPSHOT_ONLY
    assert effective_controls(LOOP, probe=True, max_controls=0) == NO_CONTROLS
    # A path that leaves it out keeps its own reason, whatever the config says.
    assert effective_controls(GATES, probe=True, max_controls=0) == GATES
    assert effective_controls(GATES, probe=True, max_controls=8) == GATES
    assert controls_record(GATES) == {"ran": False, "why": "no reader: gates only (argus gates)"}
