"""Progress for many views: a live bar on a terminal, one plain line per view elsewhere (CI)."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from argus.sense.result import SenseResult


def describe(result: SenseResult) -> str:
    if not result.ok:
        return f"{result.view.slug}: FAILED: {result.error}"
    total = result.timings_ms.get("total") or sum(result.timings_ms.values())
    note = "" if result.settled is not False else f" (never settled in {result.attempts} shots)"
    return f"{result.view.slug}: sensed in {total:.0f} ms{note}"


def live_display_wanted(stream: TextIO) -> bool:
    return stream.isatty() and os.environ.get("CI", "").lower() not in {"true", "1"}


@contextmanager
def progress(total: int, stream: TextIO | None = None) -> Iterator[Callable[[SenseResult], None]]:
    """Yield a callback to call with each finished view's result."""
    out = stream or sys.stderr
    lock = threading.Lock()
    if not live_display_wanted(out):

        def plain(result: SenseResult) -> None:
            with lock:
                print(describe(result), file=out, flush=True)

        yield plain
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(file=out)
    with Progress(
        TextColumn("sensing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=console,
        transient=False,
    ) as bar:
        task = bar.add_task("", total=total)

        def live(result: SenseResult) -> None:
            with lock:
                bar.console.print(describe(result), markup=False, highlight=False)
                bar.update(task, advance=1, description=result.view.slug)

        yield live
