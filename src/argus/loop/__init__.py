"""The convergence loop: implement, sense, gate, judge, record, decide, sign off.

    engine     one run and one view's convergence (run_loop), and the services it calls
    records    what a run leaves behind: the run directory's layout, state, outcomes, sign-offs
    guard      what the implementer must not move: the protected set, the config, the lock
    human      the decisions a person makes: references, spot-checks, baselines
    terminal   live progress and the summary printed at the end

``_implementer`` runs the implementer once (the engine's, private to the loop). Lowest first:
records, guard, human, engine, terminal; no sub-package imports one above it
(tests/test_layers.py). See docs/loop.md.
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.loop.engine.modes import Mode
    from argus.loop.engine.run import LoopOptions, RunOutcome, run_loop
    from argus.loop.guard.lock import FeatureLock
    from argus.loop.records.layout import RunLayout
    from argus.loop.records.state import LoopState
    from argus.loop.records.status import Status, exit_code
    from argus.loop.terminal.progress import make_progress
    from argus.loop.terminal.summary import render_summary

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "LoopOptions": "argus.loop.engine.run",
    "RunOutcome": "argus.loop.engine.run",
    "run_loop": "argus.loop.engine.run",
    "Mode": "argus.loop.engine.modes",
    "Status": "argus.loop.records.status",
    "exit_code": "argus.loop.records.status",
    "RunLayout": "argus.loop.records.layout",
    "LoopState": "argus.loop.records.state",
    "FeatureLock": "argus.loop.guard.lock",
    "render_summary": "argus.loop.terminal.summary",
    "make_progress": "argus.loop.terminal.progress",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "FeatureLock",
    "LoopOptions",
    "LoopState",
    "Mode",
    "RunLayout",
    "RunOutcome",
    "Status",
    "exit_code",
    "make_progress",
    "render_summary",
    "run_loop",
]
