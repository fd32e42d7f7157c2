"""Every package of argus shows a curated face: ``__all__`` names what it offers, and every
name there is really there (httpx's rule). A lazy face (PEP 562) is checked by loading each
name, so a renamed or moved function cannot leave a dangling entry behind."""

from __future__ import annotations

import ast
import importlib
import types
from collections.abc import Iterator
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


# Private modules stay private: ``argus.P._m`` (any part of the name after the first underscored
# one included) is imported only by modules of ``argus.P`` itself. src/, bench/, examples/ and
# scripts/ are held to it, so a caller outside reaches ``argus.P`` through its face. tests/ is
# not: a deciding module's unit tests (paired with it in scripts/mutate.py) reach into it to
# kill its mutants, which a face that exports only the package's offer cannot serve.
ROOT = SRC.parent
HELD = ("src", "bench", "examples", "scripts")


def module_of(path: Path) -> str:
    """The dotted name a file under the repository is imported as (its package for __init__)."""
    parts = list(path.relative_to(SRC if SRC in path.parents else ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = frozenset(module_of(path) for path in (SRC / "argus").rglob("*.py"))


def private_owner(module: str) -> str | None:
    """The package a private module belongs to (``argus.ci._junit`` -> ``argus.ci``,
    ``argus._lazy`` -> ``argus``), or None when no part of its name is underscored."""
    parts = module.split(".")
    if parts[0] != "argus":
        return None
    for at, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            return ".".join(parts[:at])
    return None


def imported_modules(tree: ast.Module, importer: str, is_package: bool) -> Iterator[str]:
    """Every module an import in ``tree`` names (relative ones resolved): ``from M import n``
    names M, and M.n too when that is a module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = importer.split(".")
                if not is_package:
                    package = package[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, base] if base else package)
            yield base
            names = (f"{base}.{alias.name}" for alias in node.names)
            yield from (name for name in names if name in MODULES)  # a module, not a function


def private_imports(source: str, path: Path) -> list[str]:
    """``file: module`` for each private module ``source`` imports from outside its owner."""
    importer = module_of(path)
    tree = ast.parse(source, filename=str(path))
    found = []
    for module in imported_modules(tree, importer, path.name == "__init__.py"):
        owner = private_owner(module)
        inside = owner is not None and (importer == owner or importer.startswith(owner + "."))
        if owner is not None and not (inside and path.is_relative_to(SRC)):
            found.append(f"{path.relative_to(ROOT)}: {module}")
    return sorted(set(found))


def test_no_private_module_is_imported_from_outside_its_package() -> None:
    found = [
        line
        for folder in HELD
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line in private_imports(path.read_text(encoding="utf-8"), path)
    ]
    assert found == [], "import these through the package's face instead:\n" + "\n".join(found)


def test_an_import_of_another_packages_private_module_is_caught() -> None:
    outside = SRC / "argus" / "cli" / "_referee.py"
    inside = SRC / "argus" / "referee" / "verdict.py"
    reach = "from argus.referee._sources import Gate\n"
    assert private_imports(reach, outside) == ["src/argus/cli/_referee.py: argus.referee._sources"]
    assert private_imports("from argus.referee import _sources\n", outside) != []
    assert private_imports("import argus.referee._sources.x\n", outside) != []
    assert private_imports("from ._sources import Gate\n", inside) == []
    assert private_imports(reach, inside) == []
    assert private_imports("from argus._lazy import lazy_attributes\n", outside) == []
    bench = ROOT / "bench" / "x.py"
    assert private_imports("from argus._lazy import lazy_attributes\n", bench) != []
    assert private_imports("from argus.referee import referee\n", bench) == []
