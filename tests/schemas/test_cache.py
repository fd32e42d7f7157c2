"""The generated schemas kept in the package's bytecode cache (argus.schemas._cache): used only
under this process's key, generated again when damaged, never needed for a correct answer."""

from __future__ import annotations

import ast
import contextlib
import importlib
import json
import os
import subprocess
import sys
import sysconfig
import threading
from importlib import machinery
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import argus.io
import argus.schemas.models
from argus.schemas import SCHEMA_NAMES, schema, validate_errors
from argus.schemas import _cache as cache
from argus.schemas._validation import _locate, _path_key
from argus.schemas.models import generated_schema
from tests.schemas.test_schemas import INVALID_CASES, VALID, _set

KEY = "k" * 64


def same(a: Any, b: Any) -> bool:
    """Equal with the same types all the way down (1 == 1.0 and [1] == (1,) are not enough:
    a validation message quotes the value as its type prints it)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def error_lines(document: dict[str, Any], data: Any) -> list[str]:
    """The ``$.path: message`` lines Argus prints, from a validator of ``document``."""
    found = Draft202012Validator(document).iter_errors(data)
    ordered = sorted(found, key=lambda e: (_path_key(e), str(e.validator)))
    return ["{}: {}".format(*_locate(error)) for error in ordered]


def no_generation(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(name: str) -> dict[str, Any]:
        raise AssertionError(f"{name} was generated, not read from the cache")

    monkeypatch.setattr(argus.schemas.models, "generated_schema", refuse)


def kept(folder: Path, name: str) -> dict[str, Any]:
    read: dict[str, Any] = json.loads(cache.cache_file(name, folder).read_bytes())
    return read


@pytest.fixture(autouse=True)
def _writes_bytecode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_the_kept_schema_is_the_generated_one(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generated = generated_schema(name)
    used = schema(name)  # what this process validates with
    first = cache.cached_schema(name, tmp_path, KEY)  # generated and written
    assert kept(tmp_path, name) == {"key": KEY, "schema": generated}
    no_generation(monkeypatch)
    again = cache.cached_schema(name, tmp_path, KEY)  # read back
    for result in (first, again, used):
        assert same(result, generated)
        # `argus schema NAME` prints it byte for byte as before.
        printed = json.dumps(result, indent=2, ensure_ascii=False)
        assert printed == json.dumps(generated, indent=2, ensure_ascii=False)


@pytest.mark.parametrize(("name", "field", "value", "expected"), INVALID_CASES)
def test_the_kept_schema_gives_the_same_error_lines(
    name: str, field: str, value: Any, expected: str, tmp_path: Path
) -> None:
    cache.cached_schema(name, tmp_path, KEY)
    data = _set(VALID[name](), field, value)
    lines = error_lines(cache.cached_schema(name, tmp_path, KEY), data)
    assert lines == error_lines(generated_schema(name), data)
    assert lines == validate_errors(name, data)
    assert lines[0].startswith(expected)


def test_a_file_under_another_key_is_never_used(tmp_path: Path) -> None:
    forged = {"type": "object"}  # would let anything through
    path = cache.cache_file("spec", tmp_path)
    path.write_text(json.dumps({"key": "old", "schema": forged}))
    read = cache.cached_schema("spec", tmp_path, KEY)
    assert same(read, generated_schema("spec"))
    assert kept(tmp_path, "spec") == {"key": KEY, "schema": generated_schema("spec")}


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b'{"key": "' + KEY.encode() + b'", "schema": {"$schema": "https://json-sch',  # truncated
        b"\xff\xfe\x00garbage",
        b"[1, 2]",
        b"[" * 100_000,  # nested past the parser's limit
        json.dumps({"key": KEY}).encode(),
        json.dumps({"key": KEY, "schema": ["type", "object"]}).encode(),
        json.dumps({"schema": {"type": "object"}}).encode(),
    ],
    ids=["empty", "truncated", "binary", "list", "deep", "no-schema", "schema-list", "no-key"],
)
def test_a_damaged_file_is_generated_again_and_replaced(tmp_path: Path, content: bytes) -> None:
    tmp_path.joinpath(cache.cache_file("rubric", tmp_path).name).write_bytes(content)
    assert same(cache.cached_schema("rubric", tmp_path, KEY), generated_schema("rubric"))
    assert kept(tmp_path, "rubric") == {"key": KEY, "schema": generated_schema("rubric")}


def test_a_folder_that_cannot_be_written_works_without_a_cache(tmp_path: Path) -> None:
    in_the_way = tmp_path / "file"
    in_the_way.write_text("not a folder")
    folder = in_the_way / "__pycache__"
    for _ in range(2):
        assert same(cache.cached_schema("verdict", folder, KEY), generated_schema("verdict"))
    assert in_the_way.read_text() == "not a folder"


def test_a_refused_write_leaves_no_file_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(source: str, target: str) -> None:
        raise PermissionError(13, "Permission denied", target)

    monkeypatch.setattr(argus.io.os, "replace", refuse)
    assert same(cache.cached_schema("signoff", tmp_path, KEY), generated_schema("signoff"))
    assert list(tmp_path.iterdir()) == []


def test_without_bytecode_nothing_is_written_but_a_kept_file_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # python -B, PYTHONDONTWRITEBYTECODE
    assert same(cache.cached_schema("contract", tmp_path, KEY), generated_schema("contract"))
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    cache.cached_schema("contract", tmp_path, KEY)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    no_generation(monkeypatch)
    assert same(cache.cached_schema("contract", tmp_path, KEY), generated_schema("contract"))


def test_an_unknown_key_means_no_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "cache_key", lambda: None)
    assert same(cache.cached_schema("loop-state", tmp_path), generated_schema("loop-state"))
    assert list(tmp_path.iterdir()) == []


def test_concurrent_writers_and_readers_see_whole_files(tmp_path: Path) -> None:
    path = cache.cache_file("spec", tmp_path)
    generated = generated_schema("spec")
    texts = [json.dumps({"key": f"{n:064}", "schema": generated}) for n in range(4)]
    seen: list[bytes] = []
    done = threading.Event()

    def write(text: str) -> None:
        for _ in range(40):
            cache._write(path, text)

    def read() -> None:
        while not done.is_set():
            with contextlib.suppress(FileNotFoundError):  # before the first write
                seen.append(path.read_bytes())

    reader = threading.Thread(target=read)
    reader.start()
    writers = [threading.Thread(target=write, args=(text,)) for text in texts]
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join()
    done.set()
    reader.join()
    # Every read found one writer's whole file, never a mix or a part.
    assert seen
    assert {content.decode() for content in seen} <= set(texts)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left


# -- the key ---------------------------------------------------------------------------------


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the sources the key reads, which the key then reads instead."""
    root = tmp_path / "argus"
    (root / "schemas" / "models").mkdir(parents=True)
    for path in cache._sources():
        relative = path.relative_to(cache._PACKAGE)
        (root / relative).write_bytes(path.read_bytes())
    monkeypatch.setattr(cache, "_PACKAGE", root)
    monkeypatch.setattr(cache, "MODELS", root / "schemas" / "models")
    return root


def key() -> str | None:
    found: str | None = cache.cache_key.__wrapped__()
    return found


def test_the_key_changes_with_every_source(package: Path) -> None:
    before = key()
    assert before is not None
    sources = cache._sources()
    assert len(sources) == len(list(package.rglob("*.py")))
    for path in sources:
        text = path.read_bytes()
        path.write_bytes(text.replace(b"\n", b"\n\n", 1))  # one byte more, nothing else
        assert key() not in (before, None), path
        path.write_bytes(text)
        assert key() == before
    (package / "schemas" / "models" / "_new.py").write_text("X = 1\n")
    assert key() not in (before, None)


@pytest.mark.parametrize("beside", [f"_spec{machinery.EXTENSION_SUFFIXES[0]}", "_spec.pyc"])
def test_no_key_when_something_else_than_a_source_would_be_imported(
    package: Path, beside: str
) -> None:
    assert key() is not None
    (package / "schemas" / "models" / beside).write_bytes(b"\0")
    assert key() is None


@pytest.mark.parametrize("missing", ["schemas/models/__init__.py", "entrypoints.py"])
def test_no_key_without_the_sources(package: Path, missing: str) -> None:
    (package / missing).unlink()
    assert key() is None


def test_the_key_changes_with_the_installed_packages(
    package: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    module = site / "argus_probe_pkg.py"
    module.write_text("X = 1\n")
    (site / "argus_probe_pkg-1.0.dist-info").mkdir()
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(cache, "PACKAGES", (*cache.PACKAGES, "argus_probe_pkg"))
    seen = [key()]
    os.utime(module, ns=(1_000_000_000, 1_000_000_000))  # an upgrade writes it again
    seen.append(key())
    module.write_text("X = 22\n")  # another size, the same time
    os.utime(module, ns=(1_000_000_000, 1_000_000_000))
    seen.append(key())
    (site / "argus_probe_pkg-1.0.dist-info").rename(site / "argus_probe_pkg-1.1.dist-info")
    seen.append(key())  # another version, the same file
    module.unlink()  # uninstalled
    importlib.invalidate_caches()
    seen.append(key())
    assert None not in seen
    assert len(set(seen)) == len(seen)


def test_the_key_changes_with_the_interpreter(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = key()
    monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    assert key() not in (before, None)


def _file_of(module: str) -> Path:
    parts = module.split(".")[1:]
    path = cache._PACKAGE.joinpath(*parts)
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def test_the_key_covers_every_module_generation_imports() -> None:
    script = (
        "import json, sys\n"
        "import argus.schemas\n"
        "before = set(sys.modules)\n"
        "from argus.schemas.models import generated_schema\n"
        "for name in argus.schemas.SCHEMA_NAMES: generated_schema(name)\n"
        "new = set(sys.modules) - before\n"
        "print(json.dumps({m: getattr(sys.modules[m], '__file__', None) for m in new}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    imported: dict[str, str | None] = json.loads(done.stdout)
    sources = {path.resolve() for path in cache._sources()}
    ours = {m for m in imported if m.split(".")[0] == "argus"}
    assert "argus.schemas.models._spec" in ours
    assert {m for m in ours if Path(str(imported[m])).resolve() not in sources} == set()
    site = {Path(sysconfig.get_paths()[k]).resolve() for k in ("purelib", "platlib")}
    installed = {
        m.split(".")[0]
        for m, file in imported.items()
        if file and any(Path(file).resolve().is_relative_to(s) for s in site)
    }
    assert "pydantic" in installed
    assert installed <= set(cache.PACKAGES)
    # What the models import by name, whatever was imported before them.
    for path in cache._sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            else:
                continue
            for module in names:
                top = module.split(".")[0]
                if top == "argus":
                    assert _file_of(module).resolve() in sources, (path, module)
                elif top != "__future__" and top not in sys.stdlib_module_names:
                    assert top in cache.PACKAGES, (path, module)


# -- a new process ---------------------------------------------------------------------------


def test_a_process_with_a_kept_schema_validates_without_pydantic(tmp_path: Path) -> None:
    data = _set(VALID["spec"](), "targets.0.route", 3)
    script = (
        "import json, sys\n"
        "from argus.schemas import validate_errors\n"
        f"errors = validate_errors('spec', json.loads({json.dumps(json.dumps(data))}))\n"
        "print(json.dumps([errors, sorted({m.split('.')[0] for m in sys.modules})]))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    runs = []
    for _ in range(2):  # the first writes the schema if no earlier process did
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path
        )
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout))
    assert cache.cache_file("spec").is_file()
    errors, modules = runs[1]
    assert "pydantic" not in modules and "pydantic_core" not in modules
    assert errors == runs[0][0] == validate_errors("spec", data)
    assert errors[0].startswith("$.targets[0].route: 3 is not of type 'string'")
