"""Live progress of a run: a table per view on a terminal, plain lines everywhere else.

On a terminal (and not under CI) a rich Live table shows each view's iteration, the phase it
is in and its last result; in CI or a pipe each event is one plain line, so logs stay
greppable. Progress goes to stderr; the final summary goes to stdout.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from typing import TextIO

from rich import box
from rich.console import Console
from rich.live import Live
from rich.table import Table

from argus.loop.engine.progress import Progress


class PlainProgress:
    """One line per event: ``[list-populated-light] iteration 2: gates red (console)``."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def _line(self, text: str) -> None:
        print(text, file=self.stream, flush=True)

    def view_started(self, slug: str) -> None:
        self._line(f"[{slug}] started")

    def phase(self, slug: str, iteration: int, phase: str) -> None:
        # Phases change several times a second; plain output keeps only the results.
        pass

    def iteration_done(self, slug: str, iteration: int, result: str) -> None:
        self._line(f"[{slug}] iteration {iteration}: {result}")

    def view_done(self, slug: str, status: str, detail: str) -> None:
        self._line(f"[{slug}] {status}: {detail}" if detail else f"[{slug}] {status}")

    def note(self, text: str) -> None:
        self._line(text)

    def close(self) -> None:
        pass


@dataclass
class _Row:
    iteration: int = 0
    phase: str = "waiting"
    last: str = ""
    status: str = ""
    started: float = 0.0
    finished: float = 0.0


class LiveProgress:
    """A rich Live table, one row per view, redrawn as the loop moves."""

    def __init__(self, stream: TextIO) -> None:
        self.console = Console(file=stream)
        self.rows: dict[str, _Row] = {}
        self.notes: list[str] = []
        self.live = Live(self._table(), console=self.console, refresh_per_second=8, transient=False)
        self.live.start()

    def _table(self) -> Table:
        # No vertical rules and no edge padding: an 80-column terminal still has room for the
        # last result.
        table = Table(title="argus loop", box=box.SIMPLE_HEAD, pad_edge=False, expand=False)
        # The view and status never wrap; the last result gives way on a narrow terminal.
        slug_width = max((len(slug) for slug in self.rows), default=4)
        table.add_column("view", no_wrap=True, min_width=slug_width)
        table.add_column("iter", justify="right", no_wrap=True)
        table.add_column("phase", no_wrap=True)
        table.add_column("status", no_wrap=True)
        table.add_column("time", justify="right", no_wrap=True)
        table.add_column("last result", overflow="ellipsis")
        now = time.monotonic()
        for slug, row in self.rows.items():
            end = row.finished or now
            elapsed = f"{end - row.started:.0f}s" if row.started else ""
            table.add_row(slug, str(row.iteration or ""), row.phase, row.status, elapsed, row.last)
        return table

    def _redraw(self) -> None:
        self.live.update(self._table())

    def view_started(self, slug: str) -> None:
        self.rows[slug] = _Row(phase="starting", started=time.monotonic())
        self._redraw()

    def phase(self, slug: str, iteration: int, phase: str) -> None:
        row = self.rows.setdefault(slug, _Row(started=time.monotonic()))
        row.iteration = iteration
        row.phase = phase
        self._redraw()

    def iteration_done(self, slug: str, iteration: int, result: str) -> None:
        row = self.rows.setdefault(slug, _Row(started=time.monotonic()))
        row.iteration = iteration
        row.last = result
        self._redraw()

    def view_done(self, slug: str, status: str, detail: str) -> None:
        row = self.rows.setdefault(slug, _Row(started=time.monotonic()))
        row.phase = "done"
        row.status = status
        row.finished = time.monotonic()
        self._redraw()

    def note(self, text: str) -> None:
        self.live.console.print(text)

    def close(self) -> None:
        self._redraw()
        self.live.stop()


def use_live_display(stream: TextIO) -> bool:
    """A live display only on a real terminal outside CI."""
    ci = os.environ.get("CI", "").strip().lower()
    return stream.isatty() and ci in ("", "0", "false", "no")


def make_progress(stream: TextIO | None = None) -> Progress:
    stream = stream or sys.stderr
    if use_live_display(stream):
        return LiveProgress(stream)
    return PlainProgress(stream)
