"""Each confinement backend this machine offers, and a workspace with a protected set."""

from __future__ import annotations

from pathlib import Path

import pytest

from argus.confine import Confinement
from argus.confine import _bwrap as bwrap
from argus.confine._landlock import abi_version


@pytest.fixture(params=["bubblewrap", "landlock"])
def backend(request: pytest.FixtureRequest) -> Confinement:
    """Bubblewrap, then Landlock (each skipped, saying why, where this machine lacks it)."""
    if request.param == "bubblewrap":
        if bwrap.problem():
            pytest.skip(bwrap.problem())
        return Confinement("bubblewrap")
    if abi_version() == 0:
        pytest.skip("this kernel offers no Landlock (or it is disabled)")
    return Confinement("landlock", abi_version())


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A workspace with a config, a spec folder, an adapter and an editable file."""
    root = tmp_path / "repo"
    (root / "argus" / "specs" / "demo").mkdir(parents=True)
    (root / "argus" / "specs" / "demo" / "spec.md").write_text("- the spec\n")
    (root / "argus" / "adapters" / "tui").mkdir(parents=True)
    (root / "argus" / "adapters" / "tui" / "sense.sh").write_text("#!/bin/sh\n")
    (root / "argus.toml").write_text("# config\n")
    (root / "app.css").write_text("body {}\n")
    return root
