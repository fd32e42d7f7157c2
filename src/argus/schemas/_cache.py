"""The generated schemas kept between processes, the way Python keeps its bytecode.

Generating a schema imports pydantic and builds the models: half a second or more of every new
process that validates a file. What it produces depends only on the models' sources, the
argus modules they import and the versions of the packages that generate it, so a process
writes each schema it generated into the models' own ``__pycache__`` folder and the next one
reads it back instead:

- a file holds its key, SHA-256 over what generation's output depends on: the interpreter's
  version; the path and content of every source in ``_sources()`` (the models and the argus
  modules they import); and for each package in ``PACKAGES`` (pydantic and what it imports),
  the file the import system would load it from, with its size and modification time (which
  an install or an upgrade changes, as an edited source changes a ``.pyc``'s check), and the
  version its ``.dist-info`` folder names. Nothing registered at run time (gates, judges,
  plug-ins, config) enters a schema: a gate's name is checked against the pattern of
  ``argus.entrypoints.PLUGIN_NAME``, a source above. A file whose key is not this process's
  is never used; tests hold both lists to what generation imports;
- a file that is missing, unreadable, not JSON or not in this shape is generated again and
  replaced; a write is atomic (a temporary file renamed over the old one), so concurrent
  writers (xdist workers, parallel commands) and readers see one whole file or the other;
- the folder is the package's own, never a user's cache or the project: whoever can write
  there can already plant a ``.pyc``, and confinement keeps the implementer out of it
  (``argus.confine``'s read-only list); nothing is written when the folder is not writable
  or Python writes no bytecode (``-B``, ``PYTHONDONTWRITEBYTECODE``), and then each process
  generates, as before.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sys
from importlib import machinery, util
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.io import atomic_write_bytes

_PACKAGE = Path(__file__).resolve().parents[1]  # the argus package folder
MODELS = _PACKAGE / "schemas" / "models"
FOLDER = MODELS / "__pycache__"

# The argus modules outside the models that generation imports: argus.entrypoints (a gate's
# name pattern, PLUGIN_NAME) and what it imports in turn.
IMPORTED = ("entrypoints.py", "errors.py")

# Every package generation imports besides argus and the standard library.
PACKAGES = (
    "pydantic",
    "pydantic_core",
    "typing_extensions",
    "typing_inspection",
    "annotated_types",
)

# A compiled module or a bare .pyc beside a source is imported instead of it: its source's
# content would not say what runs.
_NOT_SOURCE = (*machinery.EXTENSION_SUFFIXES, *machinery.BYTECODE_SUFFIXES)


def _sources() -> list[Path]:
    """Every source generation runs; OSError when one is missing or something other than its
    source would be imported."""
    listed = sorted(MODELS.iterdir())
    sources = [path for path in listed if path.suffix == ".py"]
    sources += [_PACKAGE / name for name in IMPORTED]
    shadows = [path for path in listed if path.name.endswith(_NOT_SOURCE)]
    if shadows or MODELS / "__init__.py" not in sources:
        raise OSError(f"{MODELS}: not a folder of sources")
    return sources


def _installed(package: str, listings: dict[Path, list[str]]) -> str:
    """Where ``package`` would be imported from, that file's size and modification time, and
    the version its installed metadata names (a ``NAME-VERSION.dist-info`` folder beside it;
    ``listings``: the folders listed so far, by path)."""
    spec = util.find_spec(package)
    if spec is None or spec.origin is None:
        return f"{package}: none"
    origin = Path(spec.origin)
    found = origin.stat()
    site = origin.parents[1] if spec.submodule_search_locations is not None else origin.parent
    if site not in listings:
        listings[site] = os.listdir(site)
    metadata = sorted(
        name
        for name in listings[site]
        if name.startswith(f"{package}-") and name.endswith(".dist-info")
    )
    return f"{origin} {found.st_size} {found.st_mtime_ns} {' '.join(metadata)}"


@functools.cache
def cache_key() -> str | None:
    """The key of the schemas this process would generate; None when it cannot be known (or
    this interpreter keeps no bytecode cache)."""
    if sys.implementation.cache_tag is None:
        return None
    digest = hashlib.sha256(sys.version.encode("utf-8"))
    try:
        for path in _sources():
            digest.update(f"\0{path.relative_to(_PACKAGE).as_posix()}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        listings: dict[Path, list[str]] = {}
        for package in PACKAGES:
            digest.update(f"\0{_installed(package, listings)}".encode())
    except (OSError, ValueError, ImportError):
        return None
    return digest.hexdigest()


def cache_file(name: str, folder: Path = FOLDER) -> Path:
    """Where the schema called ``name`` is kept (one file per schema and interpreter)."""
    return folder / f"schema-{name}.{sys.implementation.cache_tag}.json"


def _read(path: Path, key: str) -> dict[str, Any] | None:
    try:
        kept = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(kept, dict) or kept.get("key") != key:
        return None
    schema = kept.get("schema")
    return schema if isinstance(schema, dict) else None


def _write(path: Path, text: str) -> None:
    if sys.dont_write_bytecode:
        return
    # A folder that is not writable: every process generates, as before.
    with contextlib.suppress(InputError):
        atomic_write_bytes(path, text.encode("utf-8"), durable=False)


def cached_schema(name: str, folder: Path = FOLDER, key: str | None = None) -> dict[str, Any]:
    """The schema called ``name``: read from ``folder`` when a file there has ``key`` (this
    process's ``cache_key()`` by default), else generated from its model and written there."""
    key = key or cache_key()
    path = cache_file(name, folder)
    if key is not None:
        kept = _read(path, key)
        if kept is not None:
            return kept
    from argus.schemas.models import generated_schema  # pydantic only when generating

    text = json.dumps({"key": key, "schema": generated_schema(name)}, ensure_ascii=False)
    if key is not None:
        _write(path, text)
    # What a later process reads back, so a process sees the same schema either way.
    schema: dict[str, Any] = json.loads(text)["schema"]
    return schema
