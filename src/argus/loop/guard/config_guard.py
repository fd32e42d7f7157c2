"""The project config is ground the implementer must not move.

An implementer that edits ``argus.toml`` (drops a gate, swaps the judge for ``cat
judge.json``) can make any view pass, so the config files are in the protected set, and the
run remembers a digest of the *effective* config: a run is not resumed, and no view is signed
off, under a config other than the one the run started with.

The effective config is ``argus.toml`` when it exists (its bytes), else the ``[tool.argus]``
table of ``pyproject.toml`` (its parsed content, so a dependency edit elsewhere in pyproject.toml
is not a config change), else Argus's defaults.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path

CONFIG_FILE = "argus.toml"
PYPROJECT = "pyproject.toml"


def config_files(root: Path) -> tuple[Path, ...]:
    """The files that hold, or would hold, the project config: argus.toml even when absent
    (creating one replaces the config), and pyproject.toml while there is no argus.toml."""
    files = [root / CONFIG_FILE]
    if not files[0].is_file():
        files.append(root / PYPROJECT)
    return tuple(files)


def config_digest(root: Path) -> str:
    """sha256 of the effective config's source (see the module doc)."""
    toml = root / CONFIG_FILE
    if toml.is_file():
        return _digest(CONFIG_FILE.encode() + b"\0" + toml.read_bytes())
    pyproject = root / PYPROJECT
    if pyproject.is_file():
        data = pyproject.read_bytes()
        try:
            tool = tomllib.loads(data.decode("utf-8")).get("tool", {})
        except (ValueError, RecursionError):  # not UTF-8, not TOML, a huge integer...
            # Unreadable: the whole file stands for the config, so any change shows.
            return _digest(PYPROJECT.encode() + b"\0" + data)
        section = tool.get("argus") if isinstance(tool, dict) else None
        if section is not None:
            text = json.dumps(section, sort_keys=True, default=str)
            return _digest(f"{PYPROJECT}[tool.argus]\0{text}".encode())
    return _digest(b"defaults")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
