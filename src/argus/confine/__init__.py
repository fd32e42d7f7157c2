"""Confinement of every program Argus starts that the builder controls (docs/security.md).

``policy`` says what a program may write (an allow-list), ``detect`` which backend this machine
offers (bubblewrap, else Landlock, else none, said as "hash-checked only"), ``launch`` starts a
program under both, and ``contain`` ends every process it started where there is no PID
namespace.
"""

from argus.confine._policy import Policy, read_only, workspace
from argus.confine.detection import (
    BUBBLEWRAP,
    HASH_CHECKED,
    LANDLOCK,
    PROTECTIONS,
    Confinement,
    detect,
)
from argus.confine.launch import run_confined, start_confined

__all__ = [
    "BUBBLEWRAP",
    "HASH_CHECKED",
    "LANDLOCK",
    "PROTECTIONS",
    "Confinement",
    "Policy",
    "detect",
    "read_only",
    "run_confined",
    "start_confined",
    "workspace",
]
