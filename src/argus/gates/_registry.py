"""The gates Argus knows by name: its built-ins and every installed plug-in's.

Each gate is a ``GatePlugin``: a name, the function run over one view, the pydantic model its
``[gates.NAME]`` table is validated by, and the WCAG success criteria it measures. Every
installed distribution declares its gates in the ``argus.gates`` entry-point group; Argus's own
built-ins are declared there too (``argus.gates:BUILTIN``, collected from the ``register_gate``
calls of its gate modules), so a third party's gate is loaded, configured and run exactly like
a built-in. Two gates with one name are refused.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import BaseModel, ValidationError

from argus.entrypoints import PLUGIN_NAME, plugins_by_name
from argus.errors import ConfigError, InputError
from argus.gates.base import Gate

if TYPE_CHECKING:
    from argus.config import ProjectConfig

GROUP = "argus.gates"


@dataclass(frozen=True)
class GatePlugin:
    """A gate as a package declares it (see docs/plugins.md)."""

    name: str
    run: Gate
    # The model of the gate's [gates.NAME] table; None: the gate takes no settings.
    settings: type[BaseModel] | None = None
    # The WCAG success criteria the gate measures ("2.4.7"); "" for none.
    wcag: str = ""

    def __post_init__(self) -> None:
        if not PLUGIN_NAME.match(self.name):
            raise ValueError(f"gate name {self.name!r} must match {PLUGIN_NAME.pattern}")

    def settings_from(self, config: ProjectConfig) -> BaseModel | None:
        """This gate's settings in ``config``: a built-in's typed section, else its
        ``[gates.NAME]`` table validated by ``settings`` (ConfigError naming the key)."""
        if self.settings is None:
            return None
        own = getattr(config.gates, self.name, None)
        if isinstance(own, self.settings):
            return own
        table = config.gates.plugins.get(self.name, {})
        try:
            return self.settings.model_validate(table)
        except ValidationError as exc:
            from argus.config import config_error

            source = config.source or config.root / "argus.toml"
            raise config_error(source, f"gates.{self.name}.", exc) from exc


# The built-ins, in the order their modules declare them (argus.gates publishes the tuple).
_BUILTIN: list[GatePlugin] = []


def register_gate(
    name: str, *, wcag: str = "", settings: type[BaseModel] | None = None
) -> Callable[[Gate], Gate]:
    """Declare the built-in gate ``name`` (Argus's gate modules call this once each)."""

    def declare(func: Gate) -> Gate:
        plugin = GatePlugin(name, func, settings, wcag)
        declared = [p for p in _BUILTIN if p.name == name]
        if declared and declared[0] != plugin:
            raise ValueError(f"gate {name!r} is already declared")
        if not declared:
            _BUILTIN.append(plugin)
        return func

    return declare


def builtin_gates() -> tuple[GatePlugin, ...]:
    return tuple(_BUILTIN)


@functools.cache
def _registry() -> dict[str, GatePlugin]:
    return plugins_by_name(GROUP, GatePlugin, "gate")


def gate_plugin(name: str) -> GatePlugin:
    """The gate called ``name`` (InputError naming the known ones when none is)."""
    try:
        return _registry()[name]
    except KeyError:
        known = ", ".join(sorted(_registry()))
        raise InputError(f"unknown gate {name!r}; known gates: {known}") from None


def get_gate(name: str) -> Gate:
    return gate_plugin(name).run


def gate_names() -> tuple[str, ...]:
    return tuple(sorted(_registry()))


def wcag_gates() -> dict[str, str]:
    """Every known gate that measures WCAG success criteria: name -> the criteria."""
    return {name: plugin.wcag for name, plugin in sorted(_registry().items()) if plugin.wcag}


def check_plugin_settings(config: ProjectConfig) -> None:
    """Every ``[gates.NAME]`` table that is not a built-in's section must belong to a known
    gate and hold valid settings; ConfigError (exit 2) naming the file and key otherwise."""
    for name in config.gates.plugins:
        if name not in _registry():
            where = config.source or config.root / "argus.toml"
            known = ", ".join(sorted(_registry()))
            raise ConfigError(
                f"{where}: gates.{name}: no installed gate is called {name!r} (known: {known}); "
                "check the spelling, or install the plug-in that provides it"
            )
        _registry()[name].settings_from(config)
