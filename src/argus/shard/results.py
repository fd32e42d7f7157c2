"""Per-view results a command leaves for ``argus merge``: one JSON file per shard.

A results file (schema ``argus-results/1``) names the command (sense, gates, loop), the
feature, the shard, every view the unsharded run would cover (``planned``) and one entry per
view this shard ran. ``argus merge`` checks that the shards fit together (same command,
feature and plan; every shard once; every planned view exactly once) and re-derives each
gates view's colour from its gate-result, so a results file that says "green" over a red
gate-result is corrected, not believed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.shard.split import Shard, view_key
from argus.spec.model import Spec, View

RESULTS_SCHEMA = "argus-results/1"
RESULTS_DIR = Path(".argus") / "results"
COMMANDS = ("sense", "gates", "loop")


def results_path(root: Path, command: str, feature: str, shard: Shard | None) -> Path:
    part = "all" if shard is None else f"shard-{shard.index}-of-{shard.total}"
    return root / RESULTS_DIR / f"{command}-{feature}-{part}.json"


@dataclass(frozen=True)
class ViewEntry:
    """One view's result: ``status`` is green/red (gates), sensed/failed (sense) or the
    loop's status word (loop)."""

    view: View
    status: str
    duration_ms: float = 0.0
    red_gates: tuple[str, ...] = ()
    error: str | None = None
    gate_result: Mapping[str, Any] | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "view": {
                "feature": self.view.feature,
                "target": self.view.target,
                "state": self.view.state,
                "appearance": self.view.appearance,
            },
            "slug": self.view.slug,
            "status": self.status,
            "duration_ms": round(self.duration_ms, 1),
            "red_gates": list(self.red_gates),
            "error": self.error,
            "gate_result": None if self.gate_result is None else dict(self.gate_result),
            "detail": dict(self.detail),
        }


@dataclass(frozen=True)
class ResultsFile:
    path: Path
    command: str
    feature: str
    target: str | None
    shard: Shard | None
    planned: tuple[str, ...]
    views: tuple[ViewEntry, ...]


def results_json(
    command: str,
    spec: Spec,
    target: str | None,
    shard: Shard | None,
    views: Sequence[View],
    entries: Mapping[str, ViewEntry],
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A results file's content: what ``parse_results`` reads back. ``planned`` is every view
    of ``target`` (the whole run's plan), ``views`` this shard's entries in spec order."""
    return {
        "schema": RESULTS_SCHEMA,
        "command": command,
        "feature": spec.feature,
        "target": target,
        "shard": None if shard is None else {"index": shard.index, "total": shard.total},
        "planned": [view_key(v) for v in spec.views(target)],
        "views": [entries[v.slug].to_json() for v in views if v.slug in entries],
        **(extra or {}),
    }


def parse_results(raw: object, path: Path) -> ResultsFile:
    """A results file read back; anything off is one InputError naming the file and field."""

    def bad(what: str) -> InputError:
        return InputError(f"{path}: not an argus results file: {what}")

    if not isinstance(raw, dict):
        raise bad("expected a JSON object")
    if raw.get("schema") != RESULTS_SCHEMA:
        raise bad(f"schema must be {RESULTS_SCHEMA!r} (got {raw.get('schema')!r})")
    command, feature, target = raw.get("command"), raw.get("feature"), raw.get("target")
    if command not in COMMANDS:
        raise bad(f"command must be one of {', '.join(COMMANDS)}")
    if not isinstance(feature, str) or not feature:
        raise bad("feature must be a non-empty string")
    if target is not None and not isinstance(target, str):
        raise bad("target must be a string or null")
    shard = _shard(raw.get("shard"), bad)
    planned = raw.get("planned")
    if not isinstance(planned, list) or not all(isinstance(p, str) for p in planned):
        raise bad("planned must be a list of view ids")
    if len(set(planned)) != len(planned):
        raise bad("planned lists a view twice")
    views = raw.get("views")
    if not isinstance(views, list):
        raise bad("views must be a list")
    entries = tuple(_entry(item, i, bad) for i, item in enumerate(views))
    return ResultsFile(path, command, feature, target, shard, tuple(planned), entries)


def _shard(value: object, bad: Any) -> Shard | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise bad("shard must be an object {index, total} or null")
    index, total = value.get("index"), value.get("total")
    if not (_is_int(index) and _is_int(total)) or not 1 <= index <= total:  # type: ignore[operator]
        raise bad("shard must have integers 1 <= index <= total")
    return Shard(int(index), int(total))  # type: ignore[arg-type]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _entry(item: object, index: int, bad: Any) -> ViewEntry:
    where = f"views[{index}]"
    if not isinstance(item, dict):
        raise bad(f"{where} must be an object")
    view = item.get("view")
    fields = ("feature", "target", "state", "appearance")
    if not isinstance(view, dict) or not all(isinstance(view.get(k), str) for k in fields):
        raise bad(f"{where}.view must name feature, target, state and appearance")
    status = item.get("status")
    if not isinstance(status, str) or not status:
        raise bad(f"{where}.status must be a non-empty string")
    duration = item.get("duration_ms", 0.0)
    if not isinstance(duration, int | float) or isinstance(duration, bool):
        raise bad(f"{where}.duration_ms must be a number")
    if not math.isfinite(duration) or duration < 0:
        raise bad(f"{where}.duration_ms must be finite and >= 0")
    red = item.get("red_gates", [])
    if not isinstance(red, list) or not all(isinstance(g, str) for g in red):
        raise bad(f"{where}.red_gates must be a list of gate names")
    error = item.get("error")
    if error is not None and not isinstance(error, str):
        raise bad(f"{where}.error must be a string or null")
    gate_result = item.get("gate_result")
    if gate_result is not None and not isinstance(gate_result, dict):
        raise bad(f"{where}.gate_result must be an object or null")
    detail = item.get("detail", {})
    if not isinstance(detail, dict):
        raise bad(f"{where}.detail must be an object")
    return ViewEntry(
        view=View(*(str(view[k]) for k in fields)),
        status=status,
        duration_ms=float(duration),
        red_gates=tuple(red),
        error=error,
        gate_result=gate_result,
        detail=detail,
    )
