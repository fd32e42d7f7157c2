"""Project gates: build, lint, type_check and flows, each a command from the config.

Argus runs the command itself (a shell command line, in the repository root, with a
timeout) and takes the status from the exit code alone: 0 passes, anything else fails, a
timeout fails with a note. A gate without a configured command is skipped. The output goes
to ``{run_dir}/{gate}.log`` and never into the outcome. The command is the builder's to edit
(a lint script, a build file), so it runs confined (argus.confine): it may write in the
repository but its protected set (the config, the run store, the spec folders), nowhere else,
and nothing it starts outlives it; the outcome's data says which confinement held it.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from argus.confine import detect, run_confined, workspace
from argus.confine.program import NOT_FOUND_EXIT, ProgramNotFound, shell_not_found
from argus.errors import InputError
from argus.gates._registry import register_gate
from argus.gates.base import Finding, GateInputs, GateOutcome, GateStatus
from argus.proc import read_tail

COMMAND_GATES = ("build", "lint", "type_check", "flows")


def run_command_gate(
    name: str, command: str, *, timeout: float, cwd: Path, log_path: Path
) -> GateOutcome:
    """Run ``command`` through the shell in ``cwd``, confined to writing there; the exit code
    decides pass or fail."""
    confinement = detect()
    try:
        # Its own process group, so a timeout ends every child; killed at once (no grace).
        run = run_confined(
            command,
            workspace(f"the {name} gate", cwd),
            cwd=cwd,
            timeout=timeout,
            log_path=log_path,
            grace=0,
            confinement=confinement,
        )
    except ProgramNotFound as exc:
        raise InputError(f"[gates.commands.{name}] command = {command!r}: {exc}") from exc
    except OSError as exc:
        raise InputError(f"{cwd}: cannot start the {name} command ({exc.strerror or exc})") from exc
    code, timed_out, seconds = run.exit_code, run.timed_out, run.seconds
    data = {
        "command": command,
        "exit_code": code,
        "timed_out": timed_out,
        "seconds": round(seconds, 3),
        "log": str(log_path),
        "protection": confinement.protection,
    }
    if timed_out:
        note = f"killed; see {log_path}"
        finding = Finding(name, "timeout", f"{timeout:g}s", "finish in time", note)
        summary = f"timed out after {timeout:g}s (killed)"
        return GateOutcome(name, GateStatus.FAIL, summary, (finding,), data)
    missing = shell_not_found(read_tail(log_path)) if code == NOT_FOUND_EXIT else None
    if missing is not None:
        # The line ran, but a program later in it does not exist: red, and said so.
        summary = f"program {missing!r} not found (exit code {code}); install it or fix the command"
        finding = Finding(name, "program_not_found", missing, "an installed program", summary)
        return GateOutcome(name, GateStatus.FAIL, summary, (finding,), data)
    if code != 0:
        finding = Finding(name, "exit_code", str(code), "0", f"see {log_path}")
        return GateOutcome(name, GateStatus.FAIL, f"exit code {code}", (finding,), data)
    return GateOutcome(name, GateStatus.PASS, f"exit code 0 in {seconds:.1f}s", (), data)


def command_gate(name: str, inputs: GateInputs) -> GateOutcome:
    """The gate ``name``: its configured command run in the repository root, or a skip."""
    configured = inputs.config.gates.commands.get(name)
    if configured is None:
        return GateOutcome(name, GateStatus.SKIP, f"no [gates.commands.{name}] command configured")
    return run_command_gate(
        name,
        configured.command,
        timeout=configured.timeout,
        cwd=inputs.root,
        log_path=inputs.run_dir / f"{name}.log",
    )


# Registered by a call, not a decorator, so that mutation testing (mutmut skips decorated
# functions) reaches the gate's body.
for _name in COMMAND_GATES:
    register_gate(_name)(partial(command_gate, _name))
