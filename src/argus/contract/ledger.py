"""A run's append-only ledger: every change Argus made to a run, in order, hash-chained.

``.argus/contracts/ID/ledger.jsonl`` holds one JSON object a line. Each says what changed
(``kind`` "run": phase, counters, fingerprint; ``kind`` "stage": one stage's status, attempts,
evidence and the tree it passed on) and its ``seq`` (its line number), and is a link of the
run-state layer's hash chain (argus.store.chain, the chain the run store's events keep too):
``prev`` (the previous line's hash) and ``hash`` (over the line's content and ``prev``). The
ledger stays a file in the run's folder, so archiving a closed run moves its whole history with
it. ``save_state`` appends what changed before it
writes state.json, so state.json is only a view: every command checks that it is exactly what
the ledger folds to, and ``complete`` and the Stop hook re-derive each stage from the ledger's
own records (a pass must carry its evidence: an exit 0 of the stage's command, or an
independent grader's GO with evidence), never from state.json.

A same-user process that rewrites both files consistently can still forge a run (nothing here
is signed with a key the executor cannot read); docs/security.md names that limit.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Protocol

from argus.errors import InputError
from argus.io import loads_json, read_bytes
from argus.store.chain import GENESIS, Link, canonical, first_broken, link_hash

LEDGER = "ledger.jsonl"
RUN_FIELDS = (
    "run_id", "contract_sha256", "executor_model", "phase", "resume_phase", "reason",
    "total_attempts", "judgment_dispatches", "mechanical_failures", "fingerprint",
)  # fmt: skip
MAX_LEDGER_BYTES = 64 * 1024 * 1024


class RunState(Protocol):
    """What the ledger reads of a run's state (argus.contract.state.RunState): its JSON form.
    A protocol, so the ledger sits below the state module that appends to it."""

    def to_json(self) -> dict[str, Any]: ...


def snapshot(state: RunState) -> dict[str, Any]:
    """What the ledger must fold to for ``state``: the run's fields and each stage's record."""
    data = state.to_json()
    return {
        "run": {k: data[k] for k in RUN_FIELDS},
        "stages": {k: v for k, v in data["stages"].items()},
    }


def read_ledger(directory: Path) -> list[dict[str, Any]]:
    """The ledger's entries, its chain verified; InputError when it is missing or broken."""
    path = directory / LEDGER
    if not path.is_file():
        raise InputError(f"{path}: the run's ledger is missing; a person aborts the run")
    raw = read_bytes(path, what="contract ledger", limit=MAX_LEDGER_BYTES)
    entries: list[dict[str, Any]] = []
    for number, line in enumerate(raw.splitlines(), 1):
        try:
            entry = loads_json(line)
        except (ValueError, RecursionError) as exc:
            raise InputError(f"{path}:{number}: not a ledger line Argus wrote") from exc
        if not isinstance(entry, dict) or entry.get("seq") != number:
            raise _broken(path, number, "not the ledger's next line")
        entries.append(entry)
    broken = first_broken(_link(entry) for entry in entries)
    if broken is not None:
        raise _broken(path, broken.seq, broken.why)
    return entries


def _link(entry: dict[str, Any]) -> Link:
    content = {k: v for k, v in entry.items() if k not in ("prev", "hash")}
    return Link(entry["seq"], entry.get("prev"), entry.get("hash"), content)


def _broken(path: Path, number: int, why: str) -> InputError:
    return InputError(
        f"{path}:{number}: the ledger's chain is broken ({why}; edited outside Argus); a "
        "person aborts the run"
    )


def fold(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The run as the ledger says it stands: the latest record of the run and of each stage."""
    view: dict[str, Any] = {"run": {}, "stages": {}}
    for entry in entries:
        if entry.get("kind") == "run":
            view["run"] = dict(entry["record"])
        elif entry.get("kind") == "stage":
            view["stages"][entry["stage"]] = dict(entry["record"])
    return view


def record(directory: Path, state: RunState) -> None:
    """Append what changed in ``state`` since the ledger's last word (nothing if nothing)."""
    path = directory / LEDGER
    entries = read_ledger(directory) if path.is_file() else []
    view = fold(entries)
    now_view = snapshot(state)
    changes: list[dict[str, Any]] = []
    if canonical(view["run"]) != canonical(now_view["run"]):
        changes.append({"kind": "run", "record": now_view["run"]})
    for stage_id, stage in now_view["stages"].items():
        if canonical(view["stages"].get(stage_id)) != canonical(stage):
            changes.append({"kind": "stage", "stage": stage_id, "record": stage})
    if not changes:
        return
    previous = entries[-1]["hash"] if entries else GENESIS
    seq = len(entries)
    lines = []
    for change in changes:
        seq += 1
        content = {"seq": seq, **change}
        digest = link_hash(previous, content)
        lines.append(canonical({**content, "prev": previous, "hash": digest}) + "\n")
        previous = digest
    directory.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, "".join(lines).encode())
        os.fsync(fd)
    finally:
        os.close(fd)


def check(directory: Path, state: RunState) -> list[dict[str, Any]]:
    """The ledger's entries when state.json is exactly what they fold to; InputError when not."""
    entries = read_ledger(directory)
    view = fold(entries)
    if canonical(view) != canonical(snapshot(state)):
        raise InputError(
            f"{directory / 'state.json'}: does not match the run's ledger (edited outside "
            "Argus); a person aborts the run"
        )
    return entries
