"""The typed checks of a state's expectations (argus.spec.typed), measured from the probe.

One module per check: ``alignment`` (numeric columns right-aligned), ``formats`` (dates and
numbers as the spec writes them), ``order`` (sort order), ``shown`` (an empty or error state's
element and text) and ``trap`` (a focus trap); ``values`` finds a column's cells or a list's
items. Each check is (what was checked, passed); not measured is never passed.
"""

from __future__ import annotations

import re
from typing import Any

from argus.errors import InputError
from argus.judge.metric._context import MetricContext
from argus.judge.metric.checks._alignment import numeric_column_check
from argus.judge.metric.checks._formats import format_check
from argus.judge.metric.checks._order import sort_check
from argus.judge.metric.checks._shown import shown_check
from argus.judge.metric.checks._trap import trap_check
from argus.judge.metric.checks._values import Tree

__all__ = ["typed_checks"]


def typed_checks(
    ctx: MetricContext, expectations: dict[str, Any], numbers: dict[str, Any]
) -> list[tuple[str, bool]]:
    """Every typed check the state's expectations state, in a fixed order. A check in the
    contract that is not the shape Argus writes (a hand-edited or forged contract.json) is bad
    input naming the file, never a traceback."""
    try:
        return _typed_checks(ctx, expectations, numbers)
    except (KeyError, TypeError, AttributeError, re.error) as exc:
        raise InputError(
            f"{ctx.packet.require('contract')}: a typed check of the expectations is malformed "
            f"({type(exc).__name__}: {exc}); rebuild the packet from spec.json"
        ) from exc


def _typed_checks(
    ctx: MetricContext, expectations: dict[str, Any], numbers: dict[str, Any]
) -> list[tuple[str, bool]]:
    results: list[tuple[str, bool]] = []
    measured: dict[str, Any] = {}
    if any(expectations.get(k) for k in ("numeric_columns", "formats", "sort", "shown")):
        tree = Tree(ctx.probe, ctx.probe_raw.get("elements", []))
        for where in expectations.get("numeric_columns") or []:
            results.append(numeric_column_check(tree, where, measured))
        results += [format_check(tree, e, measured) for e in expectations.get("formats") or []]
        results += [sort_check(tree, e, measured) for e in expectations.get("sort") or []]
        results += [shown_check(tree, e, measured) for e in expectations.get("shown") or []]
    trap = expectations.get("focus_trap")
    if trap:
        results.append(trap_check(ctx.probe_raw, trap, measured))
    if measured:
        numbers["typed"] = measured
    return results
