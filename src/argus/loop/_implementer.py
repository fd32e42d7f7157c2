"""Run the configured implementer: an external agent CLI that edits the UI once per call.

The command is a template (``claude -p "$(cat {prompt_file})"`` is a shell idiom we do not
need: ``claude -p --prompt-file {prompt_file}`` or ``my-agent {prompt_file}`` work as argv).
It is split like a shell line, then each placeholder is filled inside its own argument, so a
value with spaces never splits and nothing is ever passed through a shell. A crash, a
timeout or a missing status line is recorded as data; none of them stops the run.
"""

from __future__ import annotations

import os
import re
import shlex
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.confine import HASH_CHECKED, Confinement, Policy, run_confined
from argus.confine.detection import NONE, SWEEP
from argus.errors import ConfigError
from argus.loop.records.status import Status, parse_status
from argus.proc import one_line, read_tail

# How bwrap reports a set-up it could not make (a bind whose source vanished, say).
SANDBOX_FAILED_MARK = "bwrap: "

PLACEHOLDERS = ("prompt_file", "feature", "target", "state", "appearance", "workdir", "model")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# Only the tail of a long transcript is searched for the status line.
_STATUS_TAIL_BYTES = 64 * 1024


@dataclass(frozen=True)
class ImplementerResult:
    """What one implementer call did, as far as Argus can observe it."""

    argv: tuple[str, ...]
    exit_code: int | None  # None when it never started or was killed on timeout
    timed_out: bool
    started: bool
    status: Status | None  # the four-state status it printed, if any
    duration_s: float
    log_path: Path
    error: str  # one line when it could not start, crashed or timed out
    protection: str = HASH_CHECKED  # argus.confine: what kept its writes in bounds
    containment: str = SWEEP  # argus.confine: what ended the processes it started

    @property
    def outcome(self) -> str:
        if not self.started:
            return "not_started"
        if self.timed_out:
            return "timeout"
        if self.exit_code != 0:
            return "crashed"
        if self.status is None:
            return "no_status"
        return "ok"

    def to_json(self) -> dict[str, Any]:
        return {
            "argv": list(self.argv),
            "exit_code": self.exit_code,
            "timed_out": self.timed_out,
            "started": self.started,
            "status": self.status.value if self.status else None,
            "outcome": self.outcome,
            "duration_s": round(self.duration_s, 3),
            "log": self.log_path.name,
            "error": self.error,
            "protection": self.protection,
            "containment": self.containment,
        }


def expand_command(template: str, values: Mapping[str, str]) -> list[str]:
    """Split ``template`` like a shell line and fill the placeholders inside each argument."""
    try:
        parts = shlex.split(template)
    except ValueError as exc:
        raise ConfigError(f"[implementer] command: cannot split {template!r} ({exc})") from exc
    if not parts:
        raise ConfigError("[implementer] command is empty; set it in argus.toml")
    for name in _PLACEHOLDER.findall(template):
        if name not in PLACEHOLDERS:
            raise ConfigError(
                f"[implementer] command: unknown placeholder {{{name}}}; "
                f"use {', '.join('{' + p + '}' for p in PLACEHOLDERS)}"
            )

    def fill(match: re.Match[str]) -> str:
        return values.get(match.group(1), match.group(0))

    return [_PLACEHOLDER.sub(fill, part) for part in parts]


def run_implementer(
    template: str,
    values: Mapping[str, str],
    *,
    cwd: Path,
    timeout: float,
    log_path: Path,
    policy: Policy | None = None,
    confinement: Confinement = NONE,
) -> ImplementerResult:
    """Run the implementer once under ``confinement`` (argus.confine; ``policy``: where it
    may write, default the working folder); its stdout and stderr go to ``log_path``."""
    argv = expand_command(template, values)
    env = dict(os.environ)
    env.update({f"ARGUS_{name.upper()}": value for name, value in values.items()})
    started_at = time.monotonic()
    try:
        # Confined before any of its code runs, in its own session and process group, so a
        # timeout stops everything it spawned (SIGTERM, then SIGKILL after a grace); when it
        # returns, whatever it left running (in its group, or detached with setsid) is killed
        # before Argus checks the protected files, so nothing edits them behind the check.
        run = run_confined(
            argv,
            policy or Policy("implementer", (cwd,)),
            cwd=cwd,
            timeout=timeout,
            log_path=log_path,
            env=env,
            confinement=confinement,
        )
    except OSError as exc:
        return ImplementerResult(
            argv=tuple(argv),
            exit_code=None,
            timed_out=False,
            started=False,
            status=None,
            duration_s=time.monotonic() - started_at,
            log_path=log_path,
            error=f"could not start {argv[0]!r}: {exc.strerror or exc}",
        )
    code, timed_out = run.exit_code, run.timed_out
    tail = read_tail(log_path, _STATUS_TAIL_BYTES)
    status = parse_status(tail)
    error = ""
    if confinement.backend == "bubblewrap" and code != 0 and tail.startswith(SANDBOX_FAILED_MARK):
        # The sandbox could not be applied: the implementer never ran (hash checks still hold).
        return ImplementerResult(
            argv=tuple(argv),
            exit_code=None,
            timed_out=False,
            started=False,
            status=None,
            duration_s=run.seconds,
            log_path=log_path,
            error="the sandbox could not be applied: " + one_line(tail),
            protection=HASH_CHECKED,
        )
    if timed_out:
        error = f"timed out after {timeout:g}s and was stopped"
    elif code != 0:
        error = f"exited with code {code}"
    elif status is None:
        error = "printed no STATUS line (expected e.g. 'STATUS: DONE' at the end)"
    return ImplementerResult(
        argv=tuple(argv),
        exit_code=code,
        timed_out=timed_out,
        started=True,
        status=status,
        duration_s=run.seconds,
        log_path=log_path,
        error=error,
        protection=confinement.protection,
        containment=confinement.containment,
    )
