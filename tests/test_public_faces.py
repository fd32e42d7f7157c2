"""Every package of argus shows a curated face: ``__all__`` names what it offers, and every
name there is really there (httpx's rule). A lazy face (PEP 562) is checked by loading each
name, so a renamed or moved function cannot leave a dangling entry behind."""

from __future__ import annotations

import importlib
import types
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGES = sorted(
    ".".join(init.parent.relative_to(SRC).parts) for init in (SRC / "argus").rglob("__init__.py")
)


def test_the_packages_are_found() -> None:
    assert {"argus", "argus.gates", "argus.loop.engine", "argus.evidence"} <= set(PACKAGES)


@pytest.mark.parametrize("name", PACKAGES)
def test_every_package_declares_its_face(name: str) -> None:
    package = importlib.import_module(name)
    public = getattr(package, "__all__", None)
    assert isinstance(public, list), f"{name} has no __all__"
    assert all(isinstance(item, str) for item in public)
    assert len(public) == len(set(public)), f"{name}.__all__ names something twice"


@pytest.mark.parametrize("name", PACKAGES)
def test_every_name_in_a_face_exists(name: str) -> None:
    package = importlib.import_module(name)
    missing = [item for item in package.__all__ if not hasattr(package, item)]
    assert missing == [], f"{name}.__all__ names what it does not have: {missing}"


@pytest.mark.parametrize("name", PACKAGES)
def test_a_face_offers_no_module_by_accident(name: str) -> None:
    # A name that is also a submodule's name is shadowed by the submodule once it is imported.
    package = importlib.import_module(name)
    modules = [i for i in package.__all__ if isinstance(getattr(package, i), types.ModuleType)]
    assert modules == [], f"{name}.__all__ names modules: {modules}"


@pytest.mark.parametrize("name", PACKAGES)
def test_a_lazy_face_loads_only_what_it_lists(name: str) -> None:
    package = importlib.import_module(name)
    sources = getattr(package, "_SOURCES", {})
    assert set(sources) <= set(package.__all__), f"{name} loads names its __all__ hides"
    with pytest.raises(AttributeError):
        getattr(package, "no_such_name_anywhere")  # noqa: B009


def test_a_face_with_a_dangling_name_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    import argus.shard

    monkeypatch.setattr(argus.shard, "__all__", [*argus.shard.__all__, "merge_everything"])
    with pytest.raises(AssertionError, match="merge_everything"):
        test_every_name_in_a_face_exists("argus.shard")
