"""A distribution made on disk for a test: a module and a ``.dist-info`` with entry points, in a
folder put on ``sys.path``, where importlib.metadata finds it as it finds any installed one."""

from __future__ import annotations

from pathlib import Path

import pytest

from argus.gates import _registry as gate_registry
from argus.judge import registry as judge_registry


def install_fake(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    module: str,
    source: str,
    entry_points: dict[str, dict[str, str]],
    distribution: str = "fake-plugin",
) -> None:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / f"{module}.py").write_text(source)
    info = site / f"{distribution.replace('-', '_')}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 0.1\n")
    lines = []
    for group, entries in entry_points.items():
        lines.append(f"[{group}]")
        lines.extend(f"{name} = {value}" for name, value in entries.items())
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    monkeypatch.syspath_prepend(str(site))
    forget_plugins()


def forget_plugins() -> None:
    """The registries load entry points once a process; a test that installs one starts over."""
    gate_registry._registry.cache_clear()
    judge_registry._registry.cache_clear()
