"""Progress output: a live table on a terminal, plain lines in CI or a pipe."""

from __future__ import annotations

import io

import pytest

from argus.loop.terminal.progress import (
    LiveProgress,
    PlainProgress,
    make_progress,
    use_live_display,
)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("tty", "ci", "live"),
    [(True, None, True), (True, "true", False), (True, "1", False), (False, None, False),
     (True, "false", True)],
)  # fmt: skip
def test_live_only_on_a_terminal_outside_ci(
    monkeypatch: pytest.MonkeyPatch, tty: bool, ci: str | None, live: bool
) -> None:
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    stream = _Tty() if tty else io.StringIO()
    assert use_live_display(stream) is live
    progress = make_progress(stream)
    assert isinstance(progress, LiveProgress if live else PlainProgress)
    progress.close()


def test_plain_lines_carry_view_iteration_and_result() -> None:
    stream = io.StringIO()
    progress = PlainProgress(stream)
    progress.view_started("list-populated-light")
    progress.phase("list-populated-light", 1, "sense")
    progress.iteration_done("list-populated-light", 1, "gates red (console)")
    progress.view_done("list-populated-light", "DONE", "signed off after 3 iterations")
    assert stream.getvalue().splitlines() == [
        "[list-populated-light] started",
        "[list-populated-light] iteration 1: gates red (console)",
        "[list-populated-light] DONE: signed off after 3 iterations",
    ]


def test_live_table_shows_each_view(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    stream = _Tty()
    progress = LiveProgress(stream)
    progress.view_started("list-populated-light")
    progress.phase("list-populated-light", 2, "judge")
    progress.iteration_done("list-populated-light", 2, "judged pass")
    progress.view_started("list-empty-dark")
    progress.view_done("list-populated-light", "DONE", "")
    progress.close()
    text = stream.getvalue()
    assert "list-populated-light" in text and "list-empty-dark" in text
    assert "judged pass" in text and "DONE" in text
