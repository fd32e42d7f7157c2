"""The run-state layer the loop and the contract runner share, below every workflow.

- ``runstore``: the run store, SQLite at ``{repo}/.argus/argus.db``: runs and append-only,
  hash-chained events (``migrations`` upgrades an older store in place);
- ``chain``: the one hash chain of every append-only log (the events, a contract's ledger),
  with ``first_broken`` naming the first link that does not hold;
- ``ui_marker``: the marker of a serving ``argus ui``.

Atomic JSON state is ``argus.io.atomic_write_json`` and the one-writer lock by folder identity
is ``argus.folderlock``: both foundation, used here and by the workflows alike.
"""

from argus.store.chain import BrokenLink, first_broken, link_hash
from argus.store.migrations import EVENT_KINDS, LATEST_VERSION
from argus.store.model import Event, Run, ViewKey, ViewLike
from argus.store.runstore import RunStore, db_path

__all__ = [
    "EVENT_KINDS",
    "LATEST_VERSION",
    "BrokenLink",
    "Event",
    "Run",
    "RunStore",
    "ViewKey",
    "ViewLike",
    "db_path",
    "first_broken",
    "link_hash",
]
