"""A view's prose criteria: what its spec says in words that no machine expectation checks.

One reading for the metric judge (functional_correctness abstains on a measured pass while
they remain, unless the target declares ``expectations_cover_prose``) and for ``argus lint``
(which says, before any run, which views therefore cannot sign off under the metric judge
alone)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

CHECKLIST = re.compile(r"^\s*[-*] \[[ xX]\]", re.MULTILINE)  # "- [ ] criterion"


def prose_criteria(spec_md: str, component_contracts: Sequence[Any]) -> list[str]:
    """The prose a view has: spec.md acceptance criteria (a checklist or a section so named)
    and the component contracts of its state."""
    parts = []
    if CHECKLIST.search(spec_md) or "acceptance criteria" in spec_md.lower():
        parts.append("spec.md acceptance criteria")
    count = len(component_contracts)
    if count:
        parts.append(f"{count} component contract{'' if count == 1 else 's'}")
    return parts


def are_prose(parts: Sequence[str]) -> str:
    """``parts`` (``prose_criteria``) said to be prose, the verb agreeing: "1 component
    contract is prose", "spec.md acceptance criteria and 2 component contracts are prose"."""
    one = len(parts) == 1 and parts[0].startswith("1 ")
    return f"{' and '.join(parts)} {'is' if one else 'are'} prose"
