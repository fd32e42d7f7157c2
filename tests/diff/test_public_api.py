"""argus.diff's __all__ lists exactly the public names it exports."""

from __future__ import annotations

import argus.diff


def test_all_is_honest() -> None:
    for name in argus.diff.__all__:  # the snapshot part loads on first use: load it all
        getattr(argus.diff, name)
    public = {name for name in vars(argus.diff) if not name.startswith("_")}
    modules = {name for name in public if type(getattr(argus.diff, name)).__name__ == "module"}
    assert set(argus.diff.__all__) == public - modules
    assert len(set(argus.diff.__all__)) == len(argus.diff.__all__)


def test_an_unknown_name_is_an_attribute_error() -> None:
    assert not hasattr(argus.diff, "no_such_name")
