"""What the engine reports while a run goes on, and the silent default.

The engine only calls these methods; argus.loop.terminal renders them (a live table on a
terminal, plain lines elsewhere), so the engine imports no display code.
"""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def view_started(self, slug: str) -> None: ...

    def phase(self, slug: str, iteration: int, phase: str) -> None: ...

    def iteration_done(self, slug: str, iteration: int, result: str) -> None: ...

    def view_done(self, slug: str, status: str, detail: str) -> None: ...

    def note(self, text: str) -> None: ...

    def close(self) -> None: ...


class SilentProgress:
    """For library callers and tests that want no output."""

    def view_started(self, slug: str) -> None:
        pass

    def phase(self, slug: str, iteration: int, phase: str) -> None:
        pass

    def iteration_done(self, slug: str, iteration: int, result: str) -> None:
        pass

    def view_done(self, slug: str, status: str, detail: str) -> None:
        pass

    def note(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass
