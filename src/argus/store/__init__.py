"""What a repository keeps under ``.argus/``: the run store, SQLite at ``{repo}/.argus/argus.db``
holding runs and append-only events, and ``ui_marker``, the marker of a serving ``argus ui``.
"""

from argus.store.migrations import EVENT_KINDS, LATEST_VERSION
from argus.store.model import Event, Run, ViewKey, ViewLike
from argus.store.runstore import RunStore, db_path

__all__ = [
    "EVENT_KINDS",
    "LATEST_VERSION",
    "Event",
    "Run",
    "RunStore",
    "ViewKey",
    "ViewLike",
    "db_path",
]
