"""The run store: SQLite at ``{repo}/.argus/argus.db`` holding runs and append-only events."""

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
