"""A Ctrl-C whose KeyboardInterrupt Python drops (it lands in a weakref callback or a
``__del__``) still ends the command: raised again where the main thread waits for a sensor, and
as the command ends, so it exits 130 with one line instead of running on to exit 0."""

from __future__ import annotations

import asyncio
import signal
import sys
import weakref
from typing import Any

import pytest

from argus._interrupt import interrupts, raise_if_interrupted
from argus.config import ProjectConfig
from argus.sense import Sensor
from argus.sense.controls_choice import GATES
from tests.conftest import REPO_ROOT


class _Freed:
    pass


def ctrl_c_python_drops(dropped: list[Any]) -> None:
    """SIGINT delivered while a weakref callback runs: its KeyboardInterrupt is unraisable."""
    thing = _Freed()
    weakref.finalize(thing, signal.raise_signal, signal.SIGINT)
    del thing  # the finalizer raises the signal; the handler's error is dropped in it


@pytest.fixture
def dropped(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    seen: list[Any] = []
    monkeypatch.setattr("sys.unraisablehook", seen.append)
    return seen


def test_a_dropped_ctrl_c_is_raised_again_and_the_handler_restored(dropped: list[Any]) -> None:
    before = signal.getsignal(signal.SIGINT)
    with interrupts():
        ctrl_c_python_drops(dropped)
        assert dropped == []  # not reported as "Exception ignored": it is raised again
        with pytest.raises(KeyboardInterrupt):
            raise_if_interrupted()
    assert signal.getsignal(signal.SIGINT) is before
    assert sys.unraisablehook == dropped.append  # the reporting hook there was, back
    with interrupts():
        raise_if_interrupted()  # each block starts with none received


def test_a_command_that_ran_through_a_dropped_ctrl_c_exits_130(
    dropped: list[Any], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import argus.cli._schema
    from argus.cli import main

    def dropped_then_done(args: object) -> int:
        ctrl_c_python_drops(dropped)
        return 0

    monkeypatch.setattr(argus.cli._schema, "run", dropped_then_done)
    assert main(["schema"]) == 130
    assert capsys.readouterr().err == "argus: interrupted\n"


def test_the_sensor_raises_it_once_its_call_returns_and_still_closes(dropped: list[Any]) -> None:
    with interrupts():
        sensor = Sensor(ProjectConfig(root=REPO_ROOT), controls=GATES).__enter__()
        try:
            ctrl_c_python_drops(dropped)
            with pytest.raises(KeyboardInterrupt):
                sensor._call(asyncio.sleep(0))
        finally:
            sensor.close()  # winds down without raising it again
    assert sensor._loop is None
