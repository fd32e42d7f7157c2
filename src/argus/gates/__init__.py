"""The deterministic gates: one module a gate, registered by name, and the runner.

    run = run_gates(inputs)            # every configured gate of one view
    run.all_green, run.red_gates       # derived from the statuses, never self-reported
    run.write(run_dir / "gate-result.json")

Importing the package declares every built-in gate (argus.gates._registry).
"""

from argus.gates import (  # noqa: F401  (imported to register the gates)
    _commands,
    _console,
    _lighthouse,
    _snapshot,
    _source_tokens,
    _tell_tales,
    _token_contrast,
    a11y_ids,
    axe,
    focus_visible,
    rendered_contrast,
    token_compliance,
)
from argus.gates._registry import (
    GatePlugin,
    builtin_gates,
    gate_names,
    gate_plugin,
    get_gate,
    register_gate,
    wcag_gates,
)
from argus.gates.base import Finding, GateInputs, GateOutcome, GateStatus, SensedFiles
from argus.gates.runner import GateRun, configured_gates, run_gates

# The built-in gates, published to the argus.gates entry-point group (pyproject.toml) and loaded
# from there like any plug-in's.
BUILTIN = builtin_gates()

__all__ = [
    "BUILTIN",
    "Finding",
    "GateInputs",
    "GateOutcome",
    "GatePlugin",
    "GateRun",
    "GateStatus",
    "SensedFiles",
    "configured_gates",
    "gate_names",
    "gate_plugin",
    "get_gate",
    "register_gate",
    "run_gates",
    "wcag_gates",
]
