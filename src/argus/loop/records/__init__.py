"""What a run leaves behind: the run directory's layout and every record the loop writes.

``layout`` names the files under ``.argus-runs/``; ``state`` keeps a view's counters,
``outcome`` what one iteration found, ``runrecord`` the current run, ``signoff`` the sign-off
records, ``events`` and ``spotchecks`` what the run store holds, ``status`` the four-state
status, and ``guarded`` which of these records are hashed like the protected set.
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.loop.records.layout import RunLayout
    from argus.loop.records.outcome import Finding, IterationOutcome
    from argus.loop.records.runrecord import RunRecord, load_run, save_run
    from argus.loop.records.signoff import load_records
    from argus.loop.records.state import (
        LoopSettings,
        LoopState,
        init_state,
        load_state,
        save_state,
        state_path,
    )
    from argus.loop.records.status import Status, exit_code, parse_status, worst

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "RunLayout": "argus.loop.records.layout",
    "LoopSettings": "argus.loop.records.state",
    "LoopState": "argus.loop.records.state",
    "init_state": "argus.loop.records.state",
    "load_state": "argus.loop.records.state",
    "save_state": "argus.loop.records.state",
    "state_path": "argus.loop.records.state",
    "Status": "argus.loop.records.status",
    "exit_code": "argus.loop.records.status",
    "parse_status": "argus.loop.records.status",
    "worst": "argus.loop.records.status",
    "Finding": "argus.loop.records.outcome",
    "IterationOutcome": "argus.loop.records.outcome",
    "load_records": "argus.loop.records.signoff",
    "RunRecord": "argus.loop.records.runrecord",
    "load_run": "argus.loop.records.runrecord",
    "save_run": "argus.loop.records.runrecord",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "Finding",
    "IterationOutcome",
    "LoopSettings",
    "LoopState",
    "RunLayout",
    "RunRecord",
    "Status",
    "exit_code",
    "init_state",
    "load_records",
    "load_run",
    "load_state",
    "parse_status",
    "save_run",
    "save_state",
    "state_path",
    "worst",
]
