"""Hand-made sensed directories bound to a sense attempt, as the sensor binds its own
(argus.evidence.attempt): a record of the attempt and meta.json naming the view and the hash of
every evidence file, so the CLI takes them as the view's latest successful sense."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from argus.sense.attempt import begin_attempt, seal_attempt
from argus.spec import View


def seal_sensed(directory: Path, view: View, meta: dict[str, Any] | None = None) -> Path:
    """Bind the evidence files already in ``directory`` to a new successful attempt."""
    attempt = begin_attempt(directory)
    record = {"version": 1, "view": {**view.__dict__, "slug": view.slug}, **(meta or {})}
    (directory / "meta.json").write_text(json.dumps(record), encoding="utf-8")
    seal_attempt(directory, attempt)
    return directory
