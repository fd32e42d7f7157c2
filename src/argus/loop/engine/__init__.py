"""The loop's engine: one run, one view's convergence, and the services it calls.

``run.run_loop`` validates, bootstraps references and converges each view (``_viewloop``);
``_endings`` says how a view's loop ends, ``_checkpoints`` where a run pauses for a person,
``_rederive`` replays the committed iterations before a sign-off, and ``services`` names
everything the engine asks of the rest of Argus (``web_services`` backs it with the real parts).
The underscored modules (``_context``, ``_prompt``, ``_killpoint`` too) are the engine's own.
"""

import typing as _typing

from argus._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from argus.loop.engine.modes import Mode
    from argus.loop.engine.progress import Progress, SilentProgress
    from argus.loop.engine.run import LoopOptions, RunOutcome, run_loop
    from argus.loop.engine.services import LoopServices

# The package's face: each name is imported from its module on first use (PEP 562), so
# importing one module of the package loads none of the others.
_SOURCES = {
    "LoopOptions": "argus.loop.engine.run",
    "RunOutcome": "argus.loop.engine.run",
    "run_loop": "argus.loop.engine.run",
    "Mode": "argus.loop.engine.modes",
    "LoopServices": "argus.loop.engine.services",
    "Progress": "argus.loop.engine.progress",
    "SilentProgress": "argus.loop.engine.progress",
}

__getattr__ = _lazy_attributes(__name__, _SOURCES, globals())

__all__ = [
    "LoopOptions",
    "LoopServices",
    "Mode",
    "Progress",
    "RunOutcome",
    "SilentProgress",
    "run_loop",
]
