"""Plug-ins found by entry points: the gates and judge backends of every installed package.

A distribution declares its plug-ins in an entry-point group (``argus.gates``, ``argus.judges``);
each entry point names one plug-in object or a sequence of them. Argus's own built-ins are
declared the same way (pyproject.toml), so a built-in and a third party's plug-in are loaded by
one path. Loading is the one seam where a foreign package's failure becomes ours: a plug-in that
cannot be imported, or is not a plug-in, is a ConfigError (exit 2) naming the package and what
to do, never a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Generic, Protocol, TypeVar

from argus.errors import ConfigError

T = TypeVar("T")

# What a plug-in may be called: a [gates.NAME] / [judge.NAME] table key and a gate-result key.
PLUGIN_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,63}$")
# The distribution that declares the built-ins (pyproject.toml's [project] name).
OWN_DISTRIBUTION = "argus-ui"


@dataclass(frozen=True)
class Loaded(Generic[T]):
    """One plug-in object and the distribution that declared it."""

    plugin: T
    distribution: str


def load_group(group: str, kind: type[T]) -> Iterator[Loaded[T]]:
    """Every ``kind`` declared in ``group`` by the installed distributions, Argus's own first.

    ConfigError when one cannot be loaded, is not a ``kind``, or when Argus's own entry points
    are missing (an install without its metadata: reinstall it)."""
    found = sorted(entry_points(group=group), key=lambda ep: _distribution(ep) != OWN_DISTRIBUTION)
    if not any(_distribution(ep) == OWN_DISTRIBUTION for ep in found):
        raise ConfigError(
            f"argus's built-in {group} entry points are missing from this environment; "
            "reinstall argus (pip install argus-ui, or pip install -e . in a checkout)"
        )
    for entry in found:
        for plugin in _objects(entry, kind):
            yield Loaded(plugin, _distribution(entry))


class Named(Protocol):
    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=Named)


def plugins_by_name(group: str, kind: type[N], what: str) -> dict[str, N]:
    """Every ``kind`` of ``group`` by its name (see load_group); ConfigError when two installed
    packages declare one name (``what``: "gate", "judge" for the message)."""
    found: dict[str, N] = {}
    origin: dict[str, str] = {}
    for loaded in load_group(group, kind):
        name = loaded.plugin.name
        if name in found and found[name] is not loaded.plugin:
            raise ConfigError(
                f"two installed packages declare the {what} {name!r} ({origin[name]} and "
                f"{loaded.distribution}); uninstall one"
            )
        found[name] = loaded.plugin
        origin[name] = loaded.distribution
    return found


def _objects(entry: EntryPoint, kind: type[T]) -> tuple[T, ...]:
    where = f"plug-in {entry.name} = {entry.value} (package {_distribution(entry)})"
    try:
        obj = entry.load()
    except Exception as exc:  # a foreign package's import error, whatever it is
        reason = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
        raise ConfigError(f"{where} could not be loaded ({reason}); fix or uninstall it") from exc
    items = tuple(obj) if isinstance(obj, list | tuple) else (obj,)
    for item in items:
        if not isinstance(item, kind):
            raise ConfigError(
                f"{where} is a {type(item).__name__}, not an argus {kind.__name__}; "
                "see docs/plugins.md"
            )
    return items


def _distribution(entry: EntryPoint) -> str:
    dist = entry.dist
    return dist.name if dist is not None else "unknown"
