"""Progress output: plain lines off a terminal or in CI, a live bar on a terminal."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from argus.sense.progress import describe, live_display_wanted, progress
from argus.sense.result import SenseResult
from argus.spec import View

VIEW = View("habits", "list", "empty", "dark")


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


SETTLED = SenseResult(VIEW, Path(), settled=True, timings_ms={"total": 512.4})
UNSETTLED = SenseResult(VIEW, Path(), settled=False, attempts=5, timings_ms={"total": 900})
FAILED = SenseResult(VIEW, Path(), error="x did not answer")


@pytest.mark.parametrize(
    ("result", "line"),
    [
        (SETTLED, "list-empty-dark: sensed in 512 ms"),
        (UNSETTLED, "never settled in 5 shots"),
        (FAILED, "list-empty-dark: FAILED: x did not answer"),
    ],
)
def test_describe(result: SenseResult, line: str) -> None:
    assert line in describe(result)


def test_plain_lines_when_not_a_terminal() -> None:
    out = io.StringIO()
    with progress(2, out) as done:
        done(SenseResult(VIEW, Path(), settled=True, timings_ms={"total": 10}))
    assert out.getvalue() == "list-empty-dark: sensed in 10 ms\n"


def test_ci_means_plain_lines_even_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    assert not live_display_wanted(FakeTty())
    monkeypatch.delenv("CI")
    assert live_display_wanted(FakeTty())


def test_live_bar_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    out = FakeTty()
    with progress(2, out) as done:
        done(SenseResult(VIEW, Path(), settled=True, timings_ms={"total": 10}))
        done(SenseResult(VIEW, Path(), error="[bold]page text[/bold] is not markup"))
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.getvalue())
    assert "list-empty-dark: sensed in 10 ms" in text and "2/2" in text
    assert "[bold]page text[/bold] is not markup" in text
