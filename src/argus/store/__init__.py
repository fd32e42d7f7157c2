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

from argus.store._migrations import EVENT_KINDS, LATEST_VERSION
from argus.store._mirror import Disagreement, first_disagreement
from argus.store.chain import BrokenLink, first_broken, link_hash
from argus.store.model import CONTRACT_MODE, Event, Run, ViewKey, ViewLike
from argus.store.runstore import RunStore, db_path

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
