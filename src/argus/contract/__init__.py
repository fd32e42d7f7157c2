"""Contracts (seed 003, enact-loop): the stages a piece of work must pass before its session ends.

Mechanical stages Argus runs itself (pass = exit 0); judgment stages an independent grader
decides (GO with evidence); phases, budgets and fingerprints in ``.argus/contracts/ID/``; and a
Claude Code Stop hook that refuses to end a session while a run is open. See docs/contract.md.
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.contract.doctor import diagnose
    from argus.contract.hook import run_stop_hook, session_start
    from argus.contract.model import Contract, Stage, load_contract
    from argus.contract.presets import write_preset
    from argus.contract.source import read_contract
    from argus.contract.state import RunState, load_state, started_runs, state_dir
    from argus.contract.summary import current_summary

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "Contract": "argus.contract.model",
    "Stage": "argus.contract.model",
    "load_contract": "argus.contract.model",
    "RunState": "argus.contract.state",
    "load_state": "argus.contract.state",
    "started_runs": "argus.contract.state",
    "state_dir": "argus.contract.state",
    "read_contract": "argus.contract.source",
    "run_stop_hook": "argus.contract.hook",
    "session_start": "argus.contract.hook",
    "current_summary": "argus.contract.summary",
    "diagnose": "argus.contract.doctor",
    "write_preset": "argus.contract.presets",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "Contract",
    "RunState",
    "Stage",
    "current_summary",
    "diagnose",
    "load_contract",
    "load_state",
    "read_contract",
    "run_stop_hook",
    "session_start",
    "started_runs",
    "state_dir",
    "write_preset",
]
