"""Ground the implementer must not move: the protected set, the config, the one-writer lock.

``integrity`` hashes the protected files around every edit, ``manifest`` keeps the set as the
loop last left it in the run store, ``resume`` checks it before a resumed run does anything,
``config_guard`` pins the effective config, and ``lock`` holds one writer per feature.
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.loop.guard.integrity import compare, hash_set
    from argus.loop.guard.lock import LOCK_NAME, FeatureLock
    from argus.loop.guard.manifest import Guard, Verified

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "LOCK_NAME": "argus.loop.guard.lock",
    "FeatureLock": "argus.loop.guard.lock",
    "compare": "argus.loop.guard.integrity",
    "hash_set": "argus.loop.guard.integrity",
    "Guard": "argus.loop.guard.manifest",
    "Verified": "argus.loop.guard.manifest",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "LOCK_NAME",
    "FeatureLock",
    "Guard",
    "Verified",
    "compare",
    "hash_set",
]
