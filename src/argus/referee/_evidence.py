"""Reading one evidence file for the referee: what is wrong with it decides the gate's state.

Every evidence source is optional, so a file the config names that does not exist is not
captured yet (``not_captured``, reason ``missing``), never a refusal of the whole verdict. A
non-finite number anywhere in it (``NaN``, ``Infinity``, a number overflowing to infinity) is
corrupt evidence: a determinate ``error`` (reason ``non_finite``) in a written verdict. What
remains is bad input (exit 2): a file over 5 MiB, not a regular file, unreadable, or not JSON,
except for a source whose contract says an unparseable file is not captured (the design
schema), which passes ``malformed="not_captured"``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.io import NonFiniteNumber, read_json

MISSING = "missing"
NON_FINITE = "non_finite"
UNPARSEABLE = "unparseable"


class Unusable(Exception):
    """The evidence cannot be graded; the gate is ``status`` for ``reason`` (fixed words)."""

    def __init__(self, status: str, reason: str) -> None:
        super().__init__(f"{status}: {reason}")
        self.status = status
        self.reason = reason


def require_present(path: Path) -> None:
    """For evidence read by something else (a PNG, the layout linter): absent is not captured."""
    if not path.exists():
        raise Unusable("not_captured", MISSING)


def read_evidence(path: Path, what: str, *, malformed: str | None = None) -> Any:
    """The parsed JSON of one evidence file (see the module's docstring for what is not)."""
    try:
        return read_json(path, what=what)
    except InputError as exc:
        cause = exc.__cause__  # argus.io names the underlying fault as the cause
        if isinstance(cause, FileNotFoundError):
            raise Unusable("not_captured", MISSING) from exc
        if isinstance(cause, NonFiniteNumber):
            raise Unusable("error", NON_FINITE) from exc
        if malformed and isinstance(cause, ValueError | RecursionError):
            raise Unusable(malformed, UNPARSEABLE) from exc
        raise
