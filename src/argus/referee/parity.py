"""The referee's ``parity`` gate: a PBIR ``visual.json`` against a known-good exemplar.

Asymmetric: the candidate fails (``match-reference-exemplar``) on what it is *missing*
relative to the exemplar of the same ``visualType``:

- a query role the exemplar binds (``query.queryState.<Role>`` with projections);
- a top-level ``objects`` key (a card that dropped ``labels``);
- a per-item identity under an ``objects`` key (``$id``, or ``selector.id``).

Additions pass (an extra object key, an extra optional role such as Tooltips), and formatting
property paths nested under ``objects`` are cosmetic detail, never missing structure. It is
``not_captured`` (never a false fail) for a non-PBIR shape, a different ``visualType``, a
candidate that is the exemplar itself, or a degenerate exemplar (a data visual with no bound
query role), which would otherwise launder a blank visual into a pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from argus.layout.reference import ReferenceUnavailable, load_visual_types
from argus.referee.evidence import read_evidence
from argus.referee.sources import MAX_LISTED, Gate, _safe_key


def pbir_visual(doc: Any) -> Mapping[str, Any] | None:
    """The ``visual`` body of a visual container (or a bare visual configuration)."""
    if not isinstance(doc, dict):
        return None
    body = doc.get("visual", doc)
    if isinstance(body, dict) and isinstance(body.get("visualType"), str):
        return body
    return None


def bound_roles(visual: Mapping[str, Any]) -> set[str]:
    query = visual.get("query")
    state = query.get("queryState") if isinstance(query, dict) else None
    if not isinstance(state, dict):
        return set()
    return {
        str(role)
        for role, entry in state.items()
        if isinstance(entry, dict) and (entry.get("projections") or entry.get("fieldParameters"))
    }


def _item_ids(entries: Any) -> set[str]:
    ids: set[str] = set()
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        selector = entry.get("selector")
        for value in (entry.get("$id"), selector.get("id") if isinstance(selector, dict) else None):
            if isinstance(value, str | int) and not isinstance(value, bool):
                ids.add(str(value))
    return ids


def missing_structure(candidate: Mapping[str, Any], reference: Mapping[str, Any]) -> list[str]:
    missing = [
        f"query.queryState.{role}"
        for role in sorted(bound_roles(reference) - bound_roles(candidate))
    ]
    ref_objects = reference.get("objects")
    cand_objects = candidate.get("objects")
    have = cand_objects if isinstance(cand_objects, dict) else {}
    for key, entries in (ref_objects if isinstance(ref_objects, dict) else {}).items():
        if key not in have:
            missing.append(f"objects.{key}")
            continue
        for item in sorted(_item_ids(entries) - _item_ids(have[key])):
            missing.append(f"objects.{key}[$id:{item}]")
    return missing


def _is_data_visual(visual_type: str) -> bool:
    try:
        roles = load_visual_types().roles
    except ReferenceUnavailable:
        return True  # unknown: an exemplar without roles is suspect, not trusted
    return visual_type not in roles or bool(roles[visual_type])


def parity_gate(candidate: Path, reference: Path) -> Gate:
    if candidate.resolve() == reference.resolve():
        return Gate("parity", "not_captured", {"self_reference": True})
    ref = pbir_visual(read_evidence(reference, "parity reference"))
    cand = pbir_visual(read_evidence(candidate, "parity candidate"))
    if ref is None or cand is None:
        return Gate("parity", "not_captured", {"pbir_visual": False})
    if ref["visualType"] != cand["visualType"]:
        return Gate("parity", "not_captured", {"same_visual_type": False})
    if _is_data_visual(ref["visualType"]) and not bound_roles(ref):
        return Gate("parity", "not_captured", {"degenerate_reference": True})
    missing = missing_structure(cand, ref)
    deltas = tuple({"missing": _safe_key(m)} for m in missing[:MAX_LISTED])
    return Gate("parity", "fail" if missing else "pass", {"missing": len(missing)}, deltas=deltas)
