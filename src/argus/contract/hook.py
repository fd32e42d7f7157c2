"""The Stop hook: a session may not end while a contract it started is still open.

Claude Code runs a Stop hook when the agent is about to finish, with a JSON object on standard
input (``cwd``, ``session_id``, ``stop_hook_active`` ...). Printing
``{"decision": "block", "reason": "..."}`` keeps the session going and gives the agent the
reason as its next instruction. A run that is running or verifying with a required stage not
proven blocks, and so does one whose contract a person has not pinned as it is now
(argus.contract.pins); so does a blocked run (a spent budget must not let the session walk away: a
person resumes, pauses or aborts it in a terminal). A paused (a person's decision), completed
or aborted run does not.

The hook fails closed: it looks for runs in every directory the session could mean (the
event's ``cwd``, ``CLAUDE_PROJECT_DIR``, its own directory, and every directory above each up to
its repository's root: a run in another repository is that workspace's, never this one's),
and anything it cannot read (an event that is not JSON, an integer too long to convert, JSON
nested past the parser's depth, bytes that are not UTF-8, a run it cannot read) blocks with
what went wrong, since it cannot prove that no run is open. Several open runs are listed one
a line.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from argus.contract.registry import remembered
from argus.io import loads_json
from argus.store.registry import workspace_dirs, workspaces

MAX_EVENT_BYTES = 1024 * 1024
CONTRACTS = Path(".argus") / "contracts"


def candidate_roots(starts: list[Path]) -> list[Path]:
    """Every folder of the workspaces of ``starts`` (each start and the folders above it up to
    its repository's root, argus.store.registry.workspace_dirs) that holds contract runs, each
    once. A run in another repository, even one whose folder holds this one, is not here."""
    found: list[Path] = []
    for start in starts:
        for directory in workspace_dirs(start):
            if (directory / CONTRACTS).is_dir() and directory not in found:
                found.append(directory)
    return found


def vanished(starts: list[Path]) -> list[str]:
    """Runs remembered as open (outside the repository) in the workspaces of ``starts`` whose
    files are gone or replaced."""
    out = []
    for entry in remembered(places=workspaces(starts)):
        directory = Path(entry["root"])
        run_id = str(entry.get("contract_id", ""))
        state = directory / CONTRACTS / run_id / "state.json"
        try:
            current = json.loads(state.read_bytes()).get("run_id")
        except (OSError, ValueError, RecursionError, AttributeError):
            current = None
        if current != entry.get("run_id"):
            out.append(
                f"contract run '{run_id}' ({entry.get('run_id')}, {entry.get('phase')}) was open "
                f"in {directory} and its files are gone or replaced; a person aborts it or "
                "restores .argus/contracts"
            )
    return out


def _runs(root: Path) -> list[str]:
    return sorted(p.parent.name for p in (root / CONTRACTS).glob("*/state.json"))


def stop_decision(root: Path) -> dict[str, str] | None:
    """The block decision for the open contract runs under ``root``, or None to allow."""
    return decide([root], problem=None)


def decide(starts: list[Path], problem: str | None) -> dict[str, str] | None:
    """Block while any run under the roots of ``starts`` is open (or ``problem`` says the
    event could not be read), one reason a line; None to allow."""
    reasons = [problem] if problem else []
    for missing in vanished(starts):
        reasons.append(missing)
    for root in candidate_roots(starts):
        for run_id in _runs(root):
            from argus.contract._open_run import reason_for  # only once a run is there

            try:
                reason = reason_for(root, run_id)
            except Exception as exc:
                reason = f"contract run {run_id} in {root} cannot be read ({exc})"
            if reason:
                reasons.append(reason)
    if not reasons:
        return None
    return {"decision": "block", "reason": "\n".join(reasons)}


def read_event(raw: bytes) -> tuple[dict[str, Any], str | None]:
    """The event's object, and why it could not be read (None when it could)."""
    if len(raw) > MAX_EVENT_BYTES:
        return {}, f"the Stop event is over {MAX_EVENT_BYTES} bytes"
    try:
        text = raw.decode("utf-8")
        if not text.strip():
            return {}, "the Stop event is empty"
        payload = loads_json(text)
    except (ValueError, RecursionError) as exc:  # bad JSON, bad UTF-8, a 4300-digit integer
        return {}, f"the Stop event could not be read ({type(exc).__name__})"
    if not isinstance(payload, dict):
        return {}, "the Stop event is not a JSON object"
    return payload, None


def _place(value: object, what: str) -> tuple[Path | None, str | None]:
    """A directory the hook was told to look in, and why it cannot (None when it can)."""
    if not isinstance(value, str) or not value or "\0" in value:
        return None, f"{what} is not a directory name"
    path = Path(value)
    if not path.is_absolute():
        return None, f"{what} ({value[:200]!r}) is not an absolute path"
    try:
        if path.resolve(strict=True).is_dir():
            return path, None
    except (OSError, RuntimeError):
        pass
    return None, f"{what} ({value[:200]!r}) is not a directory that exists"


def hook_starts(
    payload: dict[str, Any], project_dir: str | None, cwd: Path | None
) -> tuple[list[Path], list[str]]:
    """Where to look for runs (the event's cwd, the project's directory, the hook's own
    directory) and each one that cannot be resolved, said as a problem."""
    starts: list[Path] = []
    problems: list[str] = []
    places: list[tuple[object, str]] = []
    if "cwd" in payload:
        places.append((payload["cwd"], "the Stop event's cwd"))
    if project_dir is not None:
        places.append((project_dir, "CLAUDE_PROJECT_DIR"))
    places.append((str(cwd) if cwd is not None else None, "the hook's working directory"))
    for value, what in places:
        place, problem = _place(value, what)
        if place is not None:
            starts.append(place)
        if problem:
            problems.append(problem)
    return starts, problems


def run_stop_hook(raw: bytes, project_dir: str | None, cwd: Path | None) -> str:
    """What the hook prints: a block decision as JSON, or nothing. Never fails open: anything
    unexpected blocks, with what went wrong (an event that is empty or not JSON, a directory
    it was given that cannot be resolved, ``cwd`` None when the hook's own directory is
    gone)."""
    try:
        payload, unread = read_event(raw)
        starts, unresolved = hook_starts(payload, project_dir, cwd)
        problems = [unread] if unread else []
        if unresolved:
            problems.append("; ".join(unresolved))
        decision = decide(starts, "\n".join(problems) or None)
        if decision is not None and problems:
            what = "read its event" if unread else "resolve every place it was told to look in"
            fix = "the hook's input" if unread else "the hook's settings"
            decision["reason"] += (
                f"\n(argus hook stop could not {what}, so it cannot prove no run is open; "
                f"fix {fix}, or a person stops the session)"
            )
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        decision = {"decision": "block", "reason": f"argus hook stop failed: {exc!r}"[:500]}
    return json.dumps(decision) if decision else ""


def session_start(
    raw: bytes,
    project_dir: str | None,
    cwd: Path | None,
    loop_runs: Callable[[list[Path]], list[str]] | None = None,
) -> str:
    """What the SessionStart hook prints: the open runs as context for the new session (their
    status and next command), or nothing. It changes no run: a paused run stays paused.
    ``loop_runs`` says the loop's open runs in the same workspaces (the CLI passes
    argus.loop.records.openruns.open_loop_runs: the contract runner does not import the loop)."""
    payload, _ = read_event(raw)
    starts, _ = hook_starts(payload, project_dir, cwd)
    lines = []
    for root in candidate_roots(starts):
        for run_id in _runs(root):
            from argus.contract._open_run import briefing  # only once a run is there

            try:
                line = briefing(root, run_id)
            except Exception as exc:
                line = f"contract run {run_id} in {root} cannot be read ({exc})"
            if line:
                lines.append(line)
    loops = loop_runs(starts) if loop_runs is not None else []
    parts = [
        f"{title}:\n" + "\n".join(f"- {x}" for x in found)
        for title, found in (
            ("Argus contract runs in this project", lines),
            ("Argus loop runs in this project", loops),
        )
        if found
    ]
    if not parts:
        return ""
    context = "\n".join(parts)
    return json.dumps(
        {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": context}}
    )
