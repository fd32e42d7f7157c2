"""The asymmetric per-dimension diff of a candidate design system against a reference one.

"Does the candidate declare the same design system?" It fails on what the candidate is
missing relative to the reference: a different spacing base unit, a type ratio outside the
tolerance (relative, 5% by default), fewer elevation levels, a missing breakpoint or component
recipe. Additions pass (an extra breakpoint, component or shadow). A dimension the reference
does not declare is not compared. Each divergence is a ``{dimension, expected, actual}`` delta.

This is a structural floor, not visual fidelity: it never compares pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from argus.design._schema import DesignSystem, Unrecognised, read_design_system

MAX_LISTED = 20


@dataclass(frozen=True)
class DesignDiff:
    status: str  # pass | fail | not_captured
    reason: str | None
    deltas: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "deltas": [dict(d) for d in self.deltas]}
        if self.reason:
            out["reason"] = self.reason
        return out


def _lacking(want: tuple[str, ...] | None, have: tuple[str, ...] | None) -> list[str]:
    if not want:
        return []
    present = set(have or ())
    return [w for w in want if w not in present]


def compare(candidate: DesignSystem, reference: DesignSystem, tolerance: float) -> DesignDiff:
    deltas: list[dict[str, Any]] = []
    if reference.spacing_base is not None and candidate.spacing_base != reference.spacing_base:
        deltas.append(
            {
                "dimension": "spacing_base",
                "expected": reference.spacing_base,
                "actual": candidate.spacing_base,
            }
        )
    want, got = reference.type_ratio, candidate.type_ratio
    if want is not None and (got is None or abs(got - want) > tolerance * want):
        deltas.append({"dimension": "type_ratio", "expected": want, "actual": got})
    want_levels, got_levels = reference.elevation_levels, candidate.elevation_levels
    if want_levels and (got_levels is None or got_levels < want_levels):
        deltas.append(
            {"dimension": "elevation_levels", "expected": want_levels, "actual": got_levels}
        )
    for dimension in ("breakpoints", "components"):
        lacking = _lacking(getattr(reference, dimension), getattr(candidate, dimension))
        if lacking:
            deltas.append(
                {
                    "dimension": dimension,
                    "expected": list(getattr(reference, dimension))[:MAX_LISTED],
                    "actual": list(getattr(candidate, dimension) or ())[:MAX_LISTED],
                    "missing": lacking[:MAX_LISTED],
                }
            )
    return DesignDiff("fail" if deltas else "pass", None, tuple(deltas))


def diff_documents(candidate: Any, reference: Any, tolerance: float = 0.05) -> DesignDiff:
    """Read both documents and compare them; either unreadable is ``not_captured``."""
    cand, ref = read_design_system(candidate), read_design_system(reference)
    if isinstance(ref, Unrecognised):
        return DesignDiff("not_captured", f"reference {ref.reason}", ())
    if isinstance(cand, Unrecognised):
        return DesignDiff("not_captured", f"candidate {cand.reason}", ())
    return compare(cand, ref, tolerance)
