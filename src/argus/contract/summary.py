"""The closure summary: the executor writes it, Argus stamps it, closing needs a fresh one.

``argus contract summary write ID`` reads the body from standard input. It must hold the
sections ``## Summary``, ``## Stage state``, ``## Blockers``, ``## Failures``, ``## Evidence`` and
``## Recommendations`` and stay under 100 lines. Argus writes it to
``.argus/contracts/ID/summaries/STAMP-summary.md`` under a header line

    <!-- argus-contract-summary run:RUN contract:ID fp:FINGERPRINT -->

and points ``summary-current.json`` at it. The fingerprint covers the run, its phase, the stages
that passed, the length of its history and the working tree: once any of them changes, the
summary is stale. ``complete``, ``block`` and ``abort`` need a fresh one; the Stop hook asks for
one when every stage passed. Summaries are never overwritten (one file per write).
"""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime
from pathlib import Path

from argus.contract._worktree import worktree_digest
from argus.contract.state import RunState, state_dir
from argus.errors import InputError
from argus.io import atomic_write_json, atomic_write_text, read_json

SECTIONS = ("Summary", "Stage state", "Blockers", "Failures", "Evidence", "Recommendations")
MAX_LINES = 100
MAX_BYTES = 64 * 1024
CURRENT = "summary-current.json"
HEADER = re.compile(r"<!-- argus-contract-summary run:(\S+) contract:(\S+) fp:([0-9a-f]{64}) -->")


class SummaryMissing(InputError):
    """Closing needs a fresh closure summary (E_CLOSURE_SUMMARY_MISSING)."""

    exit_code = 1


def summary_fingerprint(root: Path, state: RunState) -> str:
    passed = sorted(k for k, v in state.stages.items() if v.status == "passed")
    parts = [
        state.run_id,
        state.phase,
        ",".join(passed),
        str(len(state.history)),
        worktree_digest(root) or "(no git tree)",
    ]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()


def _check_body(body: str) -> str:
    text = body.replace("\r\n", "\n").strip()
    if not text:
        raise InputError("summary: standard input was empty; pipe the summary's sections to it")
    if len(text.encode()) > MAX_BYTES or text.count("\n") + 1 >= MAX_LINES:
        raise InputError(f"summary: keep it under {MAX_LINES} lines")
    if "<!-- argus-contract-summary" in text:
        raise InputError("summary: the header is Argus's to write; pipe only the sections")
    headings = {m.strip() for m in re.findall(r"^##\s+(.+?)\s*$", text, re.M)}
    missing = [s for s in SECTIONS if s not in headings]
    if missing:
        raise InputError(
            f"summary: missing section(s) {', '.join('## ' + s for s in missing)}; the sections "
            f"are {', '.join(SECTIONS)}"
        )
    return text


def write_summary(root: Path, state: RunState, body: str) -> Path:
    """Stamp ``body`` with the run's current fingerprint and make it the current summary."""
    text = _check_body(body)
    directory = state_dir(root, state.contract_id)
    fingerprint = summary_fingerprint(root, state)
    stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S%f")
    path = directory / "summaries" / f"{stamp}-summary.md"
    header = (
        f"<!-- argus-contract-summary run:{state.run_id} contract:{state.contract_id} "
        f"fp:{fingerprint} -->"
    )
    atomic_write_text(path, f"{header}\n{text}\n")
    atomic_write_json(directory / CURRENT, {"path": path.name, "fingerprint": fingerprint})
    return path


def current_summary(root: Path, state: RunState) -> tuple[Path | None, str]:
    """The current summary when it is fresh, else None and why."""
    directory = state_dir(root, state.contract_id)
    pointer = directory / CURRENT
    if not pointer.is_file():
        return None, "no closure summary was written"
    data = read_json(pointer, what="summary pointer")
    name = data.get("path") if isinstance(data, dict) else None
    if not isinstance(name, str) or "/" in name or not name.endswith("-summary.md"):
        return None, "the summary pointer is not one Argus wrote"
    path = directory / "summaries" / name
    if not path.is_file():
        return None, "the current summary file is missing"
    first = path.read_text("utf-8", errors="replace").split("\n", 1)[0]
    match = HEADER.fullmatch(first.strip())
    if match is None or match.group(1) != state.run_id:
        return None, "the current summary has no header of this run"
    if match.group(3) != summary_fingerprint(root, state):
        return None, "the closure summary is stale (the run or the working tree changed since)"
    return path, ""


def require_summary(root: Path, state: RunState, action: str) -> Path:
    path, why = current_summary(root, state)
    if path is None:
        raise SummaryMissing(
            f"contract '{state.contract_id}': E_CLOSURE_SUMMARY_MISSING: {why}; {action} needs "
            f"a fresh one: argus contract summary write {state.contract_id} < summary.md"
        )
    return path
