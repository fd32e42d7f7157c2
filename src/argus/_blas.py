"""One BLAS thread for the ``argus`` process while numpy loads.

numpy's wheels bundle OpenBLAS, which starts one busy thread per core the moment numpy is
imported: about 50 ms of CPU on two cores, more than half of what ``argus diff`` costs as a
process. Argus does no linear algebra that gains from threads (its arrays are pixels and
colours), so the command line asks OpenBLAS for one thread. The variable is set only for the
import and removed right after, so the commands Argus starts (an implementer, a build, a
grader) get the environment the user gave it. A user who sets ``OPENBLAS_NUM_THREADS`` keeps it.

The finder and loader are plain classes, not subclasses of ``importlib.abc``'s: that module
imports ``importlib.resources``, about 20 ms of CPU on every command that loads numpy.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Sequence
from types import ModuleType

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy takes it as True)
if TYPE_CHECKING:
    from importlib.abc import Loader

VARIABLE = "OPENBLAS_NUM_THREADS"


class _Loader:
    def __init__(self, inner: Loader) -> None:
        self._inner = inner

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        try:
            self._inner.exec_module(module)
        finally:
            os.environ.pop(VARIABLE, None)


class _Finder:
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "numpy":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            os.environ.pop(VARIABLE, None)
            return spec
        from typing import cast  # numpy is loading: it imports typing itself

        spec.loader = cast("Loader", _Loader(spec.loader))
        return spec


def one_thread_while_numpy_loads() -> None:
    """Set OpenBLAS to one thread for the coming numpy import, unless the user chose, numpy is
    already loaded or this was done before."""
    if VARIABLE in os.environ or "numpy" in sys.modules:
        return
    if any(isinstance(finder, _Finder) for finder in sys.meta_path):
        return
    os.environ[VARIABLE] = "1"
    sys.meta_path.insert(0, _Finder())


def numpy_not_needed() -> None:
    """The command is over without having loaded numpy (``argus diff`` of a sparse pair): the
    variable set for its import goes, with the finder waiting for it."""
    finders = [finder for finder in sys.meta_path if isinstance(finder, _Finder)]
    if not finders:
        return
    for finder in finders:
        sys.meta_path.remove(finder)
    os.environ.pop(VARIABLE, None)
