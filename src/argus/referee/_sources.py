"""The referee's evidence sources, each read into one gate: pass, fail, error, not_captured or
degraded, with numbers and fixed words only (never text from a page or a report).

- ``gates``: an Argus gate-result.json (the deterministic gates of one view);
- ``console``: a console capture (``{"messages": [{"level": ...}]}``, Argus's console.json too),
  counted by argus.console_policy as the console gate counts it; no text is ever copied out;
- ``lighthouse``: a Lighthouse report's ``categories.*.score`` (0..1), each category against
  its own minimum (accessibility, performance, best-practices, seo);
- ``ssim``: either ``{"render", "reference"}`` PNGs, compared by Argus itself out of the page,
  or a captured ``{"ssim_score": x}``; a score that is not a finite number in [0, 1] is an error;
- ``parity``: see argus.referee._parity (PBIR visual against a known-good exemplar);
- ``design_schema``: the asymmetric diff over declared design systems (argus.design.diff):
  spacing base unit, type ratio within a tolerance, elevation levels, breakpoints, components.

Files are read by argus.referee._evidence: a missing one is ``not_captured``, a non-finite number
in one is an ``error``, both with the reason (the referee turns them into the gate).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from argus.console_policy import ConsolePolicy
from argus.errors import InputError
from argus.referee._evidence import read_evidence, require_present

_KEY_SAFE = re.compile(r"[^A-Za-z0-9_.$\[\]-]")
MAX_LISTED = 20


@dataclass(frozen=True)
class Gate:
    name: str
    status: str  # pass | fail | error | not_captured | degraded
    measured: Mapping[str, Any] = field(default_factory=dict)
    thresholds: Mapping[str, Any] = field(default_factory=dict)
    deltas: tuple[Mapping[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "status": self.status}
        if self.measured:
            out["measured"] = dict(self.measured)
        if self.thresholds:
            out["thresholds"] = dict(self.thresholds)
        if self.deltas:
            out["deltas"] = [dict(d) for d in self.deltas]
        return out


def _safe_key(path: str) -> str:
    """A structural key path as data: only name characters, at most 120 of them."""
    return _KEY_SAFE.sub("_", path)[:120]


def _score(value: Any) -> float | None:
    """A 0..1 score, or None when it is not a finite number in that domain."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) and 0.0 <= number <= 1.0 else None


def gates_gate(path: Path) -> Gate:
    from argus.verdict import normalize_gate_result

    result = normalize_gate_result(read_evidence(path, "gate result"), source=path)
    red = len(result.red_gates)
    measured = {"gates": len(result.gates), "red": red}
    if not red and result.nothing_measured:
        # Every gate skipped: no evidence either way, and never a pass.
        return Gate("gates", "error", {**measured, "nothing_measured": True})
    return Gate("gates", "pass" if result.all_green else "fail", measured)


def console_gate(path: Path, max_errors: int, policy: ConsolePolicy) -> Gate:
    data = read_evidence(path, "console capture")
    if not isinstance(data, dict) or "messages" not in data:
        # A capture without its messages list is no evidence of a clean console.
        return Gate("console", "error", {"readable": False})
    try:
        counts = policy.count(data)
    except InputError:
        return Gate("console", "error", {"readable": False})
    errors = counts.console_errors + counts.page_errors
    status = "pass" if errors <= max_errors else "fail"
    return Gate("console", status, {"errors": errors}, {"max_console_errors": max_errors})


def lighthouse_gate(path: Path, minimums: Mapping[str, float]) -> Gate:
    """Each category present in the report against its own minimum (argus.lighthouse.score)."""
    from argus.lighthouse.score import grade, overall

    data = read_evidence(path, "Lighthouse report")
    categories = data.get("categories") if isinstance(data, dict) else None
    if not isinstance(categories, dict):
        return Gate("lighthouse", "error", {"readable": False})
    graded = [g for g in grade(data, minimums) if g.status != "not_captured"]
    if not graded:
        return Gate("lighthouse", "not_captured")
    measured = {g.category: g.score for g in graded}
    thresholds = {f"{k}_min": v for k, v in minimums.items()}
    return Gate("lighthouse", overall(tuple(graded)), measured, thresholds)


def ssim_gate(spec: Any, resolve: Callable[[Any, str], Path], minimum: float) -> Gate:
    thresholds = {"ssim_min": minimum}
    if isinstance(spec, dict):  # two renders: Argus measures, out of the page
        render_path = resolve(spec.get("render"), "ssim.render")
        reference_path = resolve(spec.get("reference"), "ssim.reference")
        require_present(render_path)
        require_present(reference_path)
        from argus.diff.png import decode_png
        from argus.diff.pngcheck import read_png_bytes
        from argus.judge.picture import Picture

        # Read once, capped, and refused when not a regular file (a FIFO would never end).
        render_bytes, reference_bytes = read_png_bytes(render_path), read_png_bytes(reference_path)
        if render_bytes == reference_bytes:
            # A render compared with itself (or a copy) proves nothing about fidelity.
            return Gate("ssim", "not_captured", {"self_reference": True}, thresholds)
        render = Picture(decode_png(render_bytes, render_path))
        reference = Picture(decode_png(reference_bytes, reference_path))
        score = render.ssim(reference.fitted(render.shape))
        source = "measured"
        if not math.isfinite(score):  # never compared, never a pass
            return Gate("ssim", "error", {"valid": False, "source": source}, thresholds)
    else:
        data = read_evidence(resolve(spec, "ssim"), "SSIM capture")
        raw = data.get("ssim_score") if isinstance(data, dict) else None
        if raw is None:
            return Gate("ssim", "not_captured", thresholds=thresholds)
        checked = _score(raw)
        if checked is None:
            return Gate("ssim", "error", {"valid": False}, thresholds)
        score, source = checked, "captured"
    status = "pass" if score >= minimum else "fail"
    return Gate("ssim", status, {"ssim_score": round(score, 4), "source": source}, thresholds)


def _clean(value: Any) -> Any:
    """A delta value as data: numbers as they are, names reduced to name characters."""
    if isinstance(value, list):
        return [_safe_key(str(v)) for v in value]
    return value


def design_gate(candidate: Path, reference: Path, tolerance: float) -> Gate:
    """Declared design systems compared (argus.design.diff): seed or flat shape."""
    from argus.design.diff import diff_documents

    # The seed's contract: a design schema that cannot be parsed is not captured, not bad input.
    ref = read_evidence(reference, "reference design schema", malformed="not_captured")
    cand = read_evidence(candidate, "candidate design schema", malformed="not_captured")
    result = diff_documents(cand, ref, tolerance)
    thresholds = {"type_ratio_tolerance": tolerance}
    if result.status == "not_captured":
        return Gate("design_schema", "not_captured", {"reason": result.reason}, thresholds)
    deltas = tuple({k: _clean(v) for k, v in d.items()} for d in result.deltas)
    measured = {"differences": len(deltas)}
    return Gate("design_schema", result.status, measured, thresholds, deltas)


def require_mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{what} must be an object")
    return value
