"""The accessibility-id gate: does the render expose every id the spec's a11y contract names?

Ids are harvested from whatever the sensor wrote: any JSON shape (every string under an id-like
key, at any depth) and Playwright ARIA snapshot text. A contract entry ending in ``*`` is a
prefix family: ``row.habit.*`` needs at least one id starting with ``row.habit.``.

Page content is data, not evidence: accessible names, text nodes and other values are never
read as ids, so a page cannot satisfy the contract by printing ``[data-testid=...]``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from argus.errors import InputError

# Keys whose string values are element ids, whichever adapter wrote the probe.
ID_KEYS = frozenset(
    {"id", "identifier", "accessibilityIdentifier", "testId", "testid", "data-testid", "dataTestid"}
)
# Keys holding Playwright ARIA snapshot text inside a probe.
ARIA_SNAPSHOT_KEYS = frozenset({"aria_snapshot", "ariaSnapshot"})

_ROLE = re.compile(r"[A-Za-z][\w-]*")
_ATTRIBUTE = re.compile(r"\[\s*([\w-]+)\s*(?:=\s*(\"(?:[^\"\\]|\\.)*\"|[^\]]*?))?\s*\]")


def harvest_ids(probe: Any) -> set[str]:
    """Every element id in a probe: parsed JSON of any shape, or ARIA snapshot text."""
    if isinstance(probe, str):
        return harvest_aria_ids(probe)
    found: set[str] = set()
    # An explicit stack, not recursion: a hostile probe may nest thousands deep.
    stack: list[Any] = [probe]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            for key, value in node.items():
                if key in ID_KEYS and isinstance(value, str):
                    _add(found, value)
                elif key in ARIA_SNAPSHOT_KEYS and isinstance(value, str):
                    found |= harvest_aria_ids(value)
                elif key == "attributes":
                    found |= _attribute_ids(value)
                    stack.append(value)
                else:
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _attribute_ids(attributes: Any) -> set[str]:
    """Ids in DOM attribute lists: CDP's flat [name, value, ...] or [{name, value}, ...]."""
    found: set[str] = set()
    if not isinstance(attributes, list):
        return found
    if all(isinstance(item, str) for item in attributes) and len(attributes) % 2 == 0:
        for name, value in zip(attributes[::2], attributes[1::2], strict=True):
            if name in ID_KEYS:
                _add(found, value)
    for item in attributes:
        if isinstance(item, Mapping) and item.get("name") in ID_KEYS:
            value = item.get("value")
            if isinstance(value, str):
                _add(found, value)
    return found


def harvest_aria_ids(text: str) -> set[str]:
    """Ids in Playwright ARIA snapshot text.

    Playwright's own snapshots name roles, accessible names and states (``[level=1]``,
    ``[checked]``), not DOM ids; adapters that add ids write them as attributes
    (``- button "Add" [data-testid=button.add]``) or properties (``- /testid: button.add``).
    Only those two places are read. Names (``"..."`` or ``/regex/``) and text after ``:``
    are page content and are skipped; ``[ref=e5]`` handles are per-snapshot, not ids.
    """
    found: set[str] = set()
    for line in text.splitlines():
        item = line.strip()
        if not item.startswith("-"):
            continue
        key = _unquote_yaml_key(item[1:].strip())
        if key.startswith("/"):
            prop, _, value = key[1:].partition(":")
            if prop.strip() in ID_KEYS:
                _add(found, _unquote(value.strip()))
            continue
        for name, attribute in _attributes(key):
            if name in ID_KEYS and attribute is not None:
                _add(found, _unquote(attribute))
    return found


def _unquote_yaml_key(item: str) -> str:
    """Playwright single-quotes a whole key that YAML would misread (``- 'button "a: b"'``)."""
    if item.startswith("'"):
        end = 1
        while end < len(item):
            if item[end] == "'" and item[end + 1 : end + 2] != "'":
                return item[1:end].replace("''", "'")
            end += 2 if item[end] == "'" else 1
    return item


def _attributes(key: str) -> Iterable[tuple[str, str | None]]:
    """The ``[name=value]`` attributes after a role and its optional name."""
    role = _ROLE.match(key)
    if role is None:
        return
    position = _skip_name(key, role.end())
    while True:
        while position < len(key) and key[position] == " ":
            position += 1
        match = _ATTRIBUTE.match(key, position)
        if match is None:
            return
        yield match.group(1), match.group(2)
        position = match.end()


def _skip_name(key: str, position: int) -> int:
    """Index just past the accessible name (``"..."`` or ``/.../``), if one follows the role."""
    while position < len(key) and key[position] == " ":
        position += 1
    if position >= len(key) or key[position] not in '"/':
        return position
    quote = key[position]
    position += 1
    while position < len(key):
        if key[position] == "\\":
            position += 2
            continue
        if key[position] == quote:
            return position + 1
        position += 1
    return len(key)


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == '"':
        try:
            decoded = json.loads(value)
        except json.JSONDecodeError:
            return value[1:-1]
        return decoded if isinstance(decoded, str) else value
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    return value


# The sensor cuts long strings and marks them; a cut value is not the element's id.
TRUNCATION_MARKER = "…[truncated]"


def _add(found: set[str], value: str) -> None:
    value = value.strip()
    if value and TRUNCATION_MARKER[:-1] not in value:
        found.add(value)


@dataclass(frozen=True)
class IdReport:
    """Contract entries, split into those the render satisfies and those it misses."""

    expected: tuple[str, ...]
    present: tuple[str, ...]
    missing: tuple[str, ...]
    matches: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return not self.missing

    def as_gate_result(self) -> dict[str, Any]:
        """The seed's gate-result ``a11y_ids`` object: counts and the missing entries."""
        return {
            "expected": len(self.expected),
            "present": len(self.present),
            "missing": list(self.missing),
        }

    def as_json(self) -> dict[str, Any]:
        return {
            **self.as_gate_result(),
            "passed": self.passed,
            "contract": list(self.expected),
            "matches": {entry: list(ids) for entry, ids in self.matches.items()},
        }


def check_ids(contract: Iterable[str], ids: Iterable[str]) -> IdReport:
    """Match each contract entry (exact id, or ``prefix*`` family) against the harvested ids."""
    entries = _validated(contract)
    available = sorted(set(ids))
    matches: dict[str, tuple[str, ...]] = {}
    for entry in entries:
        if entry.endswith("*"):
            prefix = entry[:-1]
            matches[entry] = tuple(i for i in available if i.startswith(prefix))
        else:
            matches[entry] = (entry,) if entry in available else ()
    return IdReport(
        expected=entries,
        present=tuple(e for e in entries if matches[e]),
        missing=tuple(e for e in entries if not matches[e]),
        matches=matches,
    )


def _validated(contract: Iterable[str]) -> tuple[str, ...]:
    entries: list[str] = []
    for entry in contract:
        if not isinstance(entry, str) or not entry.strip():
            raise InputError(f"a11y contract entry {entry!r} is not a non-empty id")
        if entry.strip() == "*":
            raise InputError(
                "a11y contract entry '*' would match any id; name a prefix such as 'row.item.*'"
            )
        if entry not in entries:
            entries.append(entry)
    return tuple(entries)
