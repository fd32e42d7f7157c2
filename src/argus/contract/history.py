"""A contract's closed runs: starting a contract again moves its closed run's files (state,
summaries, logs) to ``.argus/contracts/ID/archive/STAMP-RUNID/`` (``archive_run``); its
ledger's records stay in the run store under the run's name, so ``argus contract status``
lists it from here with them and ``argus contract verify`` checks it against them.

Archiving never splits or mixes a run's history: state.json (what names the run) moves last,
so a crash part-way leaves the closed run in place with part of its files already in its archive
folder, and the next start finds that folder by the run's id and moves the rest into it. No new
run starts beside a half-archived one, and no new run's records are appended to an old one
(each run's records are its own in the store: contract id and run id).

An archived run is history, read for a listing only: a folder whose state cannot be read is
listed as unreadable, never skipped, and nothing here trusts it for a decision.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from argus.contract import _ledger as ledger
from argus.contract._ledger import store_run_id
from argus.contract.state import CONTRACTS_DIR, RunState, now, state_dir
from argus.errors import InputError
from argus.store.runstore import RunStore

ARCHIVE = "archive"
MAX_STATE_BYTES = 5 * 1024 * 1024


@dataclass(frozen=True)
class ArchivedRun:
    folder: Path
    run_id: str
    phase: str  # "unreadable" when its state.json cannot be read
    summary: bool  # its closure summary (the final summary.md, or the summaries written) came too
    records: int = 0  # its ledger's records in the run store (they stay there when it moves)

    def to_json(self) -> dict[str, Any]:
        return {
            "folder": str(self.folder),
            "run_id": self.run_id,
            "phase": self.phase,
            "summary": self.summary,
            "records": self.records,
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
    """The contract's archived runs, oldest first (their folders are named by time). A ledger
    an earlier Argus archived as a file is imported into the run store first."""
    base = root / CONTRACTS_DIR / contract_id / ARCHIVE
    if not base.is_dir():
        return []
    folders = [folder for folder in sorted(base.iterdir()) if folder.is_dir()]
    for folder in folders:
        ledger.import_file(root, folder, contract_id)
    found = [_read(folder) for folder in folders]
    with RunStore.open(root) as store:
        return [
            replace(run, records=_records(store, store_run_id(contract_id, run.run_id)))
            for run in found
        ]


def _records(store: RunStore, name: str) -> int:
    return sum(1 for event in store.events(run_id=name) if event.kind in ledger.KINDS.values())


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


@dataclass(frozen=True)
class Checked:
    """One run of a contract checked against its ledger in the run store."""

    contract_id: str
    run_id: str
    archived: bool
    phase: str
    records: int  # the ledger's records that state.json was checked against (0 on a problem)
    problem: str | None  # why state.json is not the ledger's view, or the chain broken; None

    def to_json(self) -> dict[str, Any]:
        return {
            "contract_id": self.contract_id,
            "run_id": self.run_id,
            "archived": self.archived,
            "phase": self.phase,
            "records": self.records,
            "problem": self.problem,
        }


def check_runs(root: Path, contract_id: str) -> list[Checked]:
    """The contract's open run (when there is one) and each archived run, each state.json
    checked against the records its run has in the store (the store's chain walked first). A
    run archived from before the ledger (state version 1) has nothing to check and is left
    out."""
    from argus.contract.state import load_state, read_state

    folder = state_dir(root, contract_id)
    places: list[tuple[Path, bool]] = []
    if (folder / "state.json").is_file():
        ledger.import_file(root, folder, contract_id)  # a broken file is refused here, exit 2
        places.append((folder, False))
    places += [(old.folder, True) for old in archived_runs(root, contract_id)]
    found: list[Checked] = []
    for place, archived in places:
        run_id, phase = place.name, "unreadable"
        try:
            if archived:
                state = read_state(place / "state.json", contract_id)
            else:
                state = load_state(root, contract_id)
            run_id, phase = state.run_id, state.phase
            if archived and state.run_id == "v1":
                continue
            entries = ledger.check(root, state, place)
        except InputError as exc:
            found.append(Checked(contract_id, run_id, archived, phase, 0, str(exc)))
            continue
        found.append(Checked(contract_id, run_id, archived, phase, len(entries), None))
    return found


def contract_ids(root: Path) -> list[str]:
    """Every contract id with an open or an archived run."""
    base = root / CONTRACTS_DIR
    started = {p.parent.name for p in base.glob("*/state.json")} if base.is_dir() else set()
    return sorted(started | set(archived_ids(root)))
