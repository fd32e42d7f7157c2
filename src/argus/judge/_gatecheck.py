"""The gate result in a packet must prove something about the render being judged.

The judge runs only on a green floor. A gate result proves that only when gates actually ran
(an empty ``gates`` map, or one where every gate was skipped, is green by arithmetic and means
nothing), when it is about this view, and when it checked this very render and probe: the gates
runner records the sha256 of both (``inputs``), and they must equal those of the files handed to
the judge. When the caller knows the configured gate list, every configured gate must be in it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from argus.errors import JudgeError
from argus.verdict import normalize_gate_result

VIEW_KEYS = ("feature", "target", "state", "appearance")


def check_gate_result(
    raw: Any,
    source: Path | str,
    *,
    view: Mapping[str, str],
    render_sha256: str,
    probe_sha256: str,
    required: Sequence[str] | None = None,
) -> None:
    """JudgeError (one line) unless ``raw`` is a green gate result about this render."""
    if isinstance(raw, Mapping) and raw.get("gates") == {}:
        raise JudgeError(
            f"{source}: no gate ran, and an empty gate result proves nothing; "
            "run argus gates on this view"
        )
    result = normalize_gate_result(raw, source=source)
    if not result.red_gates and result.nothing_measured:
        raise JudgeError(
            f"{source}: every gate was skipped, which proves nothing; enable gates "
            "([gates] enabled) and run argus gates on this view"
        )
    if not result.all_green:
        raise JudgeError(
            f"{source}: {result.not_green_reason}; the judge runs only on an "
            "all-green view (fix the gates, then judge)"
        )
    claimed = tuple(str(raw.get(key)) for key in VIEW_KEYS)
    wanted = tuple(view[key] for key in VIEW_KEYS)
    if claimed != wanted:
        raise JudgeError(
            f"{source}: the gate result is for {'/'.join(claimed)}, not for "
            f"{'/'.join(wanted)}; run argus gates on this view"
        )
    inputs = raw.get("inputs")
    if (
        not isinstance(inputs, Mapping)
        or inputs.get("render_sha256") != render_sha256
        or inputs.get("probe_sha256") != probe_sha256
    ):
        raise JudgeError(
            f"{source}: the gate result is not about this render (it does not name the sha256 "
            "of this render.png and probe.json); run argus gates on the render being judged"
        )
    if required is not None:
        ran = {g.name for g in result.gates}
        missing = [name for name in dict.fromkeys(required) if name not in ran]
        if missing:
            raise JudgeError(
                f"{source}: configured gate(s) {', '.join(missing)} did not run; run argus gates "
                "with the project's gate list"
            )
