"""The referee's ``parity`` gate: a PBIR ``visual.json`` against a known-good exemplar.

Asymmetric: the candidate fails (``match-reference-exemplar``) on what it is *missing*
relative to the exemplar of the same ``visualType``:

- a query role the exemplar binds (``query.queryState.<Role>`` with projections);
- a top-level ``objects`` key (a card that dropped ``labels``);
- a per-item identity (``$id``, or ``selector.id``) anywhere in the visual: under an
  ``objects`` or ``visualContainerObjects`` key, in a role's projections; a list the
  candidate matches only in part (two of the exemplar's three ids) is missing the third.

Additions pass (an extra object key, an extra optional role such as Tooltips), and formatting
property paths nested under ``objects`` are cosmetic detail, never missing structure. It is
``not_captured`` (never a false fail) for a non-PBIR shape, a different ``visualType``, a
candidate that is the exemplar itself, or a degenerate exemplar (a data visual with no bound
query role), which would otherwise launder a blank visual into a pass.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.layout.model import bound_roles, visual_body
from argus.layout.reference import ReferenceUnavailable, load_visual_types
from argus.referee._evidence import read_evidence
from argus.referee._sources import MAX_LISTED, Gate, _safe_key


def pbir_visual(doc: Any) -> Mapping[str, Any] | None:
    """The visual body of a visual container, a bare visual configuration or an item of the
    linter's own page format (``visualType``, ``queryState`` inline); None for other shapes."""
    if not isinstance(doc, dict):
        return None
    try:
        body = visual_body(doc, "parity")
    except InputError:
        return None  # two shapes at once: not a PBIR visual this gate can compare
    if isinstance(body, dict) and isinstance(body.get("visualType"), str):
        return body
    return None


def _item_ids(visual: Mapping[str, Any]) -> Counter[tuple[str, str]]:
    """Every per-item identity in the visual, wherever its list sits: ``(path, id)`` counted,
    the path made of object keys only (list positions dropped), the id from ``$id`` or
    ``selector.id``. Walked without recursion: a file may nest deeper than Python's stack."""
    found: Counter[tuple[str, str]] = Counter()
    stack: list[tuple[str, Any]] = [("", visual)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, list):
            stack.extend((path, item) for item in node)
            continue
        if not isinstance(node, dict):
            continue
        selector = node.get("selector")
        for value in (node.get("$id"), selector.get("id") if isinstance(selector, dict) else None):
            if isinstance(value, str | int) and not isinstance(value, bool):
                found[(path, str(value))] += 1
        stack.extend((f"{path}.{key}" if path else str(key), child) for key, child in node.items())
    return found


def missing_structure(candidate: Mapping[str, Any], reference: Mapping[str, Any]) -> list[str]:
    """What the candidate lacks: bound roles, top-level ``objects`` keys, then per-item ids
    (each id the exemplar holds at a path, as many times as it holds it), except those under
    a role or key already reported missing."""
    missing = [
        f"query.queryState.{role}"
        for role in sorted(bound_roles(reference) - bound_roles(candidate))
    ]
    ref_objects = reference.get("objects")
    cand_objects = candidate.get("objects")
    have = cand_objects if isinstance(cand_objects, dict) else {}
    for key in ref_objects if isinstance(ref_objects, dict) else {}:
        if key not in have:
            missing.append(f"objects.{key}")
    gone = tuple(missing)
    lacking = _item_ids(reference) - _item_ids(candidate)
    for path, item in sorted(lacking):
        if not any(path == g or path.startswith(f"{g}.") for g in gone):
            missing.append(f"{path}[$id:{item}]")
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
