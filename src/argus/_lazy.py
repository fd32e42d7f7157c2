"""Package names loaded on first use (PEP 562), so a light command imports only what it needs.

__getattr__ = lazy_attributes(__name__, {"Name": "package.module"}, globals())
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, MutableMapping

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy takes it as True)
if TYPE_CHECKING:
    from typing import Any


def lazy_attributes(
    package: str, sources: Mapping[str, str], namespace: MutableMapping[str, Any]
) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``name`` from ``sources[name]`` and keeps it in
    ``namespace``, so later lookups are plain attribute reads."""

    def load(name: str) -> Any:
        source = sources.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source), name)
        namespace[name] = value
        return value

    return load
