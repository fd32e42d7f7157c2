"""The run-state layer the loop and the contract runner share, below every workflow.

- ``runstore``: the run store, SQLite at ``{repo}/.argus/argus.db``: runs and append-only,
  hash-chained events, the loop's and a contract run's ledger records (``_migrations`` upgrades
  an older store in place; ``transaction`` lands several appends together);
- ``chain``: the one hash chain (the events; a contract's old ``ledger.jsonl`` before import),
  with ``first_broken`` naming the first link that does not hold;
- ``_mirror``: the ``runs`` table (status, finish time) against the chained ``run_finished``
  events, ``first_disagreement`` naming the first run where they differ;
- ``registry``: open runs, remembered in every state home and read by workspace;
- ``lock``: the one run-state lock (``argus.folderlock`` by the folder's identity, plus a key in
  the state home), taken by the loop's feature lock and by every contract command;
- ``ui_marker``: the marker of a serving ``argus ui``.

Atomic JSON state is ``argus.io.atomic_write_json`` (foundation), for the loop's state.json and
signoff.json and a contract run's state.json alike.
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.store._migrations import EVENT_KINDS, LATEST_VERSION
    from argus.store._mirror import Disagreement, first_disagreement
    from argus.store.chain import BrokenLink, first_broken, link_hash
    from argus.store.model import CONTRACT_MODE, Event, Run, ViewKey, ViewLike
    from argus.store.runstore import RunStore, db_path

# The package's face: each name is imported from its module on first use (PEP 562), so a
# command that only reads the registry of open runs (the Stop hook with none open) loads
# neither SQLite nor the hash chain.
_SOURCES = {
    "EVENT_KINDS": "argus.store._migrations",
    "LATEST_VERSION": "argus.store._migrations",
    "Disagreement": "argus.store._mirror",
    "first_disagreement": "argus.store._mirror",
    "BrokenLink": "argus.store.chain",
    "first_broken": "argus.store.chain",
    "link_hash": "argus.store.chain",
    "CONTRACT_MODE": "argus.store.model",
    "Event": "argus.store.model",
    "Run": "argus.store.model",
    "ViewKey": "argus.store.model",
    "ViewLike": "argus.store.model",
    "RunStore": "argus.store.runstore",
    "db_path": "argus.store.runstore",
}
__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "CONTRACT_MODE",
    "EVENT_KINDS",
    "LATEST_VERSION",
    "BrokenLink",
    "Disagreement",
    "Event",
    "Run",
    "RunStore",
    "ViewKey",
    "ViewLike",
    "db_path",
    "first_broken",
    "first_disagreement",
    "link_hash",
]
