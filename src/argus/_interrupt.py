"""A Ctrl-C Python swallowed, raised again where Argus can act on it.

Python runs a signal's handler in the main thread at the next bytecode, wherever that is. When
it is a weakref callback or a ``__del__`` (a task or a future freed at that moment), the
handler's ``KeyboardInterrupt`` is printed as "Exception ignored in ..." and dropped, and the
command would run on to its end and exit 0. ``interrupts()`` installs a handler that also
remembers the signal; ``raise_if_interrupted()``, called where the main thread waits for
work (a sensor's calls) and once more as the command ends, raises it again.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sys import UnraisableHookArgs

_received = False


def _handler(signum: int, frame: FrameType | None) -> None:
    global _received
    _received = True
    raise KeyboardInterrupt


@contextmanager
def interrupts() -> Iterator[None]:
    """Remember every SIGINT for the block (main thread only; elsewhere Python delivers none),
    keep a dropped one's "Exception ignored" report off standard error, and restore both
    hooks afterwards."""
    global _received
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _received = False
    previous = signal.signal(signal.SIGINT, _handler)
    reporting = sys.unraisablehook

    def report(unraisable: UnraisableHookArgs) -> None:
        if not (_received and isinstance(unraisable.exc_value, KeyboardInterrupt)):
            reporting(unraisable)  # the dropped Ctrl-C is raised again, not printed

    sys.unraisablehook = report
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if sys.unraisablehook is report:
            sys.unraisablehook = reporting


def raise_if_interrupted() -> None:
    """``KeyboardInterrupt`` when a SIGINT arrived in the block and was swallowed."""
    if _received:
        raise KeyboardInterrupt
