"""The judge backends Argus knows by name: its built-ins and every installed plug-in's.

Each backend is a ``JudgePlugin``: a name, a factory that builds the backend from the project
config, and the pydantic model its ``[judge.NAME]`` table is validated by. Installed
distributions declare backends in the ``argus.judges`` entry-point group; Argus's own are
declared there too (``argus.judge.builtin:BUILTIN``). Whatever a backend answers still goes
through ``argus.judge.base.run_judge``, which no backend can bend.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ValidationError

from argus.config import ProjectConfig, config_error
from argus.entrypoints import PLUGIN_NAME, plugins_by_name
from argus.errors import ConfigError
from argus.judge.base import Judge

GROUP = "argus.judges"


@dataclass(frozen=True)
class JudgePlugin:
    """A judge backend as a package declares it (see docs/plugins.md)."""

    name: str
    factory: Callable[[ProjectConfig], Judge]
    # The model of the backend's [judge.NAME] table; None: the backend takes no settings.
    settings: type[BaseModel] | None = None

    def __post_init__(self) -> None:
        if not PLUGIN_NAME.match(self.name):
            raise ValueError(f"judge name {self.name!r} must match {PLUGIN_NAME.pattern}")

    def settings_from(self, config: ProjectConfig) -> BaseModel | None:
        """This backend's ``[judge.NAME]`` table validated (ConfigError naming the key)."""
        if self.settings is None:
            return None
        try:
            return self.settings.model_validate(config.judge.plugins.get(self.name, {}))
        except ValidationError as exc:
            raise config_error(_source(config), f"judge.{self.name}.", exc) from exc


def _source(config: ProjectConfig) -> Path:
    return config.source or config.root / "argus.toml"


@functools.cache
def _registry() -> dict[str, JudgePlugin]:
    return plugins_by_name(GROUP, JudgePlugin, "judge")


def judge_names() -> tuple[str, ...]:
    return tuple(sorted(_registry()))


def get_judge(name: str, config: ProjectConfig) -> Judge:
    """The backend called ``name``, built from ``config`` (ConfigError when unknown, or when a
    ``[judge.NAME]`` table names no backend or holds settings its backend refuses)."""
    registry = _registry()
    known = ", ".join(sorted(registry))
    for table in config.judge.plugins:
        if table not in registry:
            raise ConfigError(
                f"{_source(config)}: judge.{table}: no installed judge backend is called "
                f"{table!r} (known: {known}); check the spelling, or install its plug-in"
            )
    plugin = registry.get(name)
    if plugin is None:
        raise ConfigError(
            f"{_source(config)}: judge.backend: unknown judge {name!r}; use one of {known}"
        )
    plugin.settings_from(config)
    return plugin.factory(config)
