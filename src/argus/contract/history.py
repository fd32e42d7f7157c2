"""A contract's closed runs: starting a contract again moves its closed run's files (state,
ledger, summaries, logs) to ``.argus/contracts/ID/archive/STAMP-RUNID/`` (``archive_run``), and
``argus contract status`` lists them from here.

Archiving never splits or mixes a run's history: state.json (what names the run) moves last,
so a crash part-way leaves the closed run in place with part of its files already in its archive
folder, and the next start finds that folder by the run's id and moves the rest into it. No new
run starts beside a half-archived one, and no new ledger is appended to an old one.

An archived run is history, read for a listing only: a folder whose state cannot be read is
listed as unreadable, never skipped, and nothing here trusts it for a decision.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.contract.state import CONTRACTS_DIR, RunState, now, state_dir

ARCHIVE = "archive"
MAX_STATE_BYTES = 5 * 1024 * 1024


@dataclass(frozen=True)
class ArchivedRun:
    folder: Path
    run_id: str
    phase: str  # "unreadable" when its state.json cannot be read
    summary: bool  # its closure summary (the final summary.md, or the summaries written) came too

    def to_json(self) -> dict[str, Any]:
        return {
            "folder": str(self.folder),
            "run_id": self.run_id,
            "phase": self.phase,
            "summary": self.summary,
        }


def archive_run(root: Path, state: RunState) -> Path:
    """Move a closed run's files to its archive folder (see the module doc); the folder."""
    directory = state_dir(root, state.contract_id)
    run_name = state.run_id or "run"
    base = directory / ARCHIVE
    # An archive of this run that stopped part-way has everything but its state.json.
    unfinished = [p for p in base.glob(f"*-{run_name}") if not (p / "state.json").exists()]
    if unfinished:
        target = sorted(unfinished)[-1]
    else:
        stamp = now().replace(":", "").replace("-", "").replace("+0000", "Z")
        target = base / f"{stamp}-{run_name}"
        target.mkdir(parents=True, exist_ok=False)
    items = [p for p in directory.iterdir() if p.name not in (ARCHIVE, ".lock")]
    for item in sorted(items, key=lambda p: (p.name == "state.json", p.name)):
        item.rename(target / item.name)
    return target


def archived_runs(root: Path, contract_id: str) -> list[ArchivedRun]:
    """The contract's archived runs, oldest first (their folders are named by time)."""
    base = root / CONTRACTS_DIR / contract_id / ARCHIVE
    if not base.is_dir():
        return []
    return [_read(folder) for folder in sorted(base.iterdir()) if folder.is_dir()]


def archived_ids(root: Path) -> list[str]:
    """Every contract id with an archived run."""
    base = root / CONTRACTS_DIR
    return sorted(p.parent.name for p in base.glob(f"*/{ARCHIVE}") if p.is_dir())


def _read(folder: Path) -> ArchivedRun:
    run_id, phase = folder.name, "unreadable"
    try:
        with (folder / "state.json").open("rb") as fh:
            data = json.loads(fh.read(MAX_STATE_BYTES))
        if isinstance(data, dict) and isinstance(data.get("phase"), str):
            phase = data["phase"]
            run_id = str(data.get("run_id", run_id))
    except (OSError, ValueError, RecursionError):
        pass
    summaries = folder / "summaries"
    written = summaries.is_dir() and any(summaries.glob("*-summary.md"))
    return ArchivedRun(folder, run_id, phase, (folder / "summary.md").is_file() or written)
