"""Which confinement this machine gives untrusted programs, said in one string.

In order of preference: bubblewrap (a read-only root, user, PID and mount namespaces: writes,
metadata changes and processes all contained), then Landlock (writes only; processes contained
by a cgroup where one can be made, else swept), else none. Detected at run time and said, never
assumed: ``run.json``, each ``implementer.json`` and the report carry the ``protection`` string
(``run.json`` and ``implementer.json`` the ``containment`` too), and a run without confinement
is "hash-checked only" everywhere it is reported.

``ARGUS_SANDBOX``: ``off`` turns confinement off (hash-checked only); ``landlock`` skips
bubblewrap (to use or test the fallback); anything else (or unset) picks the best available.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from argus.confine import _bwrap as bwrap
from argus.confine import contain
from argus.confine._landlock import abi_version

BUBBLEWRAP = "sandboxed: bubblewrap"
LANDLOCK = "sandboxed: landlock"
HASH_CHECKED = "hash-checked only"
PROTECTIONS = (BUBBLEWRAP, LANDLOCK, HASH_CHECKED)
# What ends every process a confined program started (contain.py): said beside the protection.
PID_NAMESPACE, CGROUP, SWEEP = "pid namespace", "cgroup", "sweep"
ENV = "ARGUS_SANDBOX"


@dataclass(frozen=True)
class Confinement:
    """The confinement untrusted programs get in this run."""

    backend: str  # "bubblewrap", "landlock" or "" (none)
    abi: int = 0  # the kernel's Landlock ABI, for the landlock backend
    why_not: str = ""  # without confinement (or without bubblewrap): why
    # What ends what it started: the PID namespace (bubblewrap), a cgroup (Landlock, where one
    # can be made) or only the process-group kill and subreaper sweep, which can be outrun.
    containment: str = SWEEP

    @property
    def active(self) -> bool:
        return bool(self.backend)

    @property
    def protection(self) -> str:
        if self.backend == "bubblewrap":
            return BUBBLEWRAP
        return LANDLOCK if self.backend == "landlock" else HASH_CHECKED


NONE = Confinement("", why_not="not detected")


def detect() -> Confinement:
    """The best confinement available now (see the module doc)."""
    wanted = os.environ.get(ENV, "").strip().lower()
    if wanted == "off":
        return Confinement("", why_not=f"{ENV}=off")
    reasons = []
    if wanted != "landlock":
        problem = bwrap.problem()
        if not problem:
            return Confinement("bubblewrap", containment=PID_NAMESPACE)
        reasons.append(problem)
    else:
        reasons.append(f"{ENV}=landlock")
    abi = abi_version()
    if abi:
        contained = CGROUP if contain.available() else SWEEP
        return Confinement("landlock", abi, "; ".join(reasons), contained)
    reasons.append("this kernel offers no Landlock")
    return Confinement("", why_not="; ".join(reasons))
