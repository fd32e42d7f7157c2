"""The referee's evidence sources, each read into one gate: pass, fail, error, not_captured or
degraded, with numbers and fixed words only (never text from a page or a report).

- ``gates``: an Argus gate-result.json (the deterministic gates of one view);
- ``console``: a console capture (``{"messages": [{"level": ...}]}``, Argus's console.json too),
  counted by argus.console_policy as the console gate counts it; no text is ever copied out;
- ``lighthouse``: a Lighthouse report's ``categories.*.score`` (0..1), against thresholds;
- ``ssim``: either ``{"render", "reference"}`` PNGs, compared by Argus itself out of the page,
  or a captured ``{"ssim_score": x}``; a score that is not a finite number in [0, 1] is an error;
- ``parity``: a structural diff of a candidate JSON against a known-good exemplar: what the
  candidate is missing fails, additions pass;
- ``design_schema``: the same asymmetric diff over declared design systems (spacing base unit,
  type ratio within a tolerance, elevation levels, breakpoints, components).
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
from argus.io import read_json

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

    result = normalize_gate_result(read_json(path, what="gate result"), source=path)
    red = len(result.red_gates)
    measured = {"gates": len(result.gates), "red": red}
    return Gate("gates", "pass" if result.all_green else "fail", measured)


def console_gate(path: Path, max_errors: int, policy: ConsolePolicy) -> Gate:
    data = read_json(path, what="console capture")
    try:
        counts = policy.count(data if isinstance(data, dict) else {"messages": None})
    except InputError:
        return Gate("console", "error", {"readable": False})
    errors = counts.console_errors + counts.page_errors
    status = "pass" if errors <= max_errors else "fail"
    return Gate("console", status, {"errors": errors}, {"max_console_errors": max_errors})


LIGHTHOUSE = ("accessibility", "performance", "best-practices")


def lighthouse_gate(path: Path, minimums: Mapping[str, float]) -> Gate:
    data = read_json(path, what="Lighthouse report")
    categories = data.get("categories") if isinstance(data, dict) else None
    if not isinstance(categories, dict):
        return Gate("lighthouse", "error", {"readable": False})
    measured: dict[str, Any] = {}
    status = "pass"
    for name in LIGHTHOUSE:
        entry = categories.get(name)
        if entry is None:
            continue
        score = _score(entry.get("score") if isinstance(entry, dict) else None)
        if score is None:  # corrupt or hostile: never rescaled into a pass
            measured[name] = None
            status = "error"
            continue
        measured[name] = round(score * 100, 1)
        if status == "pass" and measured[name] < minimums[name]:
            status = "fail"
    if not measured:
        return Gate("lighthouse", "not_captured")
    return Gate("lighthouse", status, measured, {f"{k}_min": v for k, v in minimums.items()})


def ssim_gate(spec: Any, resolve: Callable[[Any, str], Path], minimum: float) -> Gate:
    thresholds = {"ssim_min": minimum}
    if isinstance(spec, dict):  # two renders: Argus measures, out of the page
        render_path = resolve(spec.get("render"), "ssim.render")
        reference_path = resolve(spec.get("reference"), "ssim.reference")
        if render_path.read_bytes() == reference_path.read_bytes():
            # A render compared with itself (or a copy) proves nothing about fidelity.
            return Gate("ssim", "not_captured", {"self_reference": True}, thresholds)
        from argus.diff.png import load_png
        from argus.judge.picture import Picture

        render = Picture(load_png(render_path))
        reference = Picture(load_png(reference_path))
        score = render.ssim(reference.fitted(render.shape))
        source = "measured"
    else:
        data = read_json(resolve(spec, "ssim"), what="SSIM capture")
        raw = data.get("ssim_score") if isinstance(data, dict) else None
        if raw is None:
            return Gate("ssim", "not_captured", thresholds=thresholds)
        checked = _score(raw)
        if checked is None:
            return Gate("ssim", "error", {"valid": False}, thresholds)
        score, source = checked, "captured"
    status = "pass" if score >= minimum else "fail"
    return Gate("ssim", status, {"ssim_score": round(score, 4), "source": source}, thresholds)


def _missing(reference: Any, candidate: Any, at: str, out: list[str]) -> None:
    """Paths ``reference`` has and ``candidate`` lacks (arrays: by position)."""
    if isinstance(reference, dict):
        if not isinstance(candidate, dict):
            out.append(at or "$")
            return
        for key, value in reference.items():
            here = f"{at}.{key}" if at else str(key)
            if key not in candidate:
                out.append(here)
            else:
                _missing(value, candidate[key], here, out)
    elif isinstance(reference, list) and isinstance(candidate, list):
        for i, value in enumerate(reference[: len(candidate)]):
            _missing(value, candidate[i], f"{at}[{i}]", out)
        if len(candidate) < len(reference):
            out.append(f"{at}[{len(candidate)}:]")


def parity_gate(candidate: Path, reference: Path) -> Gate:
    if candidate.resolve() == reference.resolve():
        return Gate("parity", "not_captured", {"self_reference": True})
    ref = read_json(reference, what="parity reference")
    cand = read_json(candidate, what="parity candidate")
    if not isinstance(ref, dict) or not ref:
        return Gate("parity", "not_captured", {"degenerate_reference": True})
    missing: list[str] = []
    _missing(ref, cand, "", missing)
    deltas = tuple({"missing": _safe_key(m)} for m in missing[:MAX_LISTED])
    return Gate("parity", "fail" if missing else "pass", {"missing": len(missing)}, deltas=deltas)


DESIGN_KEYS = ("spacing_base", "type_ratio", "elevation_levels", "breakpoints", "components")


def design_gate(candidate: Path, reference: Path, tolerance: float) -> Gate:
    ref = read_json(reference, what="reference design schema")
    cand = read_json(candidate, what="candidate design schema")
    if not isinstance(ref, dict) or not isinstance(cand, dict):
        return Gate("design_schema", "not_captured", {"readable": False})
    if not any(k in ref for k in DESIGN_KEYS):
        return Gate("design_schema", "not_captured", {"schema": False})
    deltas: list[dict[str, Any]] = []

    def number(doc: Mapping[str, Any], key: str) -> float | None:
        value = doc.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        return float(value) if math.isfinite(value) else None

    for key in ("spacing_base", "elevation_levels"):
        want, got = number(ref, key), number(cand, key)
        if want is None or got == want:
            continue
        if key == "elevation_levels" and got is not None and got >= want:
            continue  # more levels than the exemplar: an addition, not a loss
        deltas.append({"dimension": key, "expected": want, "actual": got})
    want, got = number(ref, "type_ratio"), number(cand, "type_ratio")
    if want is not None and (got is None or abs(got - want) > tolerance * want):
        deltas.append({"dimension": "type_ratio", "expected": want, "actual": got})
    for key in ("breakpoints", "components"):
        wanted, have = ref.get(key), cand.get(key)
        if isinstance(wanted, list | dict):
            have_names = {str(h) for h in have} if isinstance(have, list | dict) else set()
            lacking = [str(w) for w in wanted if str(w) not in have_names]
            if lacking:
                deltas.append(
                    {"dimension": key, "missing": [_safe_key(x) for x in lacking[:MAX_LISTED]]}
                )
    status = "fail" if deltas else "pass"
    thresholds = {"type_ratio_tolerance": tolerance}
    return Gate("design_schema", status, {"differences": len(deltas)}, thresholds, tuple(deltas))


def require_mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"{what} must be an object")
    return value
