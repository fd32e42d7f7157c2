"""A run's append-only ledger: every change Argus made to a run, in order, as events of the
run-state layer's SQLite store (``.argus/argus.db``, argus.store.runstore), the store the loop
keeps its events in: the same hash chain, the same triggers, the same ``argus runs --verify``.

Each record says what changed (kind ``contract_run``: phase, counters, fingerprint; kind
``contract_stage``: one stage's status, attempts, evidence and the tree it passed on) and its
``seq`` (its place among the run's records, 1 first). A run is a row of the store's ``runs``
table named ``contract/ID/RUN`` (contract id and run id), feature ``contract/ID``, mode
``contract``; a run that closes (completed or aborted) is finished there with a
``run_finished`` event, as the loop's runs are. Archiving a closed run moves its folder; its
records stay in the store under its name, so the archive is found and verified from there.

``save_state`` appends what changed in one SQLite transaction before it writes state.json, so
state.json is only a view: every command walks the store's chain and checks that state.json is
exactly what the run's records fold to, and ``complete`` and the Stop hook re-derive each stage
from the records themselves (a pass must carry its evidence: an exit 0 of the stage's command,
or an independent grader's GO with evidence), never from state.json.

A ledger an earlier Argus kept as a file (``ledger.jsonl`` in the run's folder, open or
archived) is imported on first open (``import_file``): its chain is walked first and a broken
one is refused whole; the import is one transaction, and only after it commits is the file
renamed ``ledger.imported.jsonl``, never written again. A process killed part-way leaves the
file as it was, still the run's ledger, and the next open imports it again.

A same-user process that rewrites the store and state.json consistently can still forge a run
(nothing here is signed with a key the executor cannot read); docs/security.md names that limit.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, Protocol

from argus.contract.registry import TERMINAL
from argus.errors import InputError
from argus.io import loads_json, read_bytes
from argus.store.chain import Link, canonical, first_broken
from argus.store.model import CONTRACT_MODE, Event
from argus.store.runstore import RunStore

LEGACY = "ledger.jsonl"  # a ledger an earlier Argus kept as a file
IMPORTED = "ledger.imported.jsonl"  # the same file, once its records are in the store
KINDS = {"run": "contract_run", "stage": "contract_stage"}
RUN_FIELDS = (
    "run_id", "contract_sha256", "executor_model", "phase", "resume_phase", "reason",
    "total_attempts", "judgment_dispatches", "mechanical_failures", "fingerprint",
)  # fmt: skip
MAX_LEDGER_BYTES = 64 * 1024 * 1024


class RunState(Protocol):
    """What the ledger reads of a run's state (argus.contract.state.RunState). A protocol, so
    the ledger sits below the state module that appends to it."""

    contract_id: str
    run_id: str
    phase: str

    def to_json(self) -> dict[str, Any]: ...


def feature_of(contract_id: str) -> str:
    """The ``feature`` a contract's runs are kept under: never a loop feature's name (those
    are folder names, without '/')."""
    return f"contract/{contract_id}"


def store_run_id(contract_id: str, run_id: str) -> str:
    """The run's name in the store's ``runs`` table: its contract id and its run id."""
    return f"{feature_of(contract_id)}/{run_id}"


def snapshot(state: RunState) -> dict[str, Any]:
    """What the ledger must fold to for ``state``: the run's fields and each stage's record."""
    data = state.to_json()
    return {
        "run": {k: data[k] for k in RUN_FIELDS},
        "stages": {k: v for k, v in data["stages"].items()},
    }


def fold(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The run as the ledger says it stands: the latest record of the run and of each stage."""
    view: dict[str, Any] = {"run": {}, "stages": {}}
    for entry in entries:
        if entry.get("kind") == "run":
            view["run"] = dict(entry["record"])
        elif entry.get("kind") == "stage":
            view["stages"][entry["stage"]] = dict(entry["record"])
    return view


# -- reading ---------------------------------------------------------------------------------


def _verified(store: RunStore) -> None:
    """InputError naming the first event that does not hold, when the store's chain is broken."""
    _, broken = store.verify()
    if broken is not None:
        raise InputError(
            f"{store.path}: the run store's hash chain is broken at event {broken.seq} "
            f"({broken.why}; edited outside Argus; `argus runs --verify` names it); a person "
            "aborts the run"
        )


def _events(store: RunStore, contract_id: str, run_id: str) -> list[Event]:
    return store.events(run_id=store_run_id(contract_id, run_id))


def _entries(store: RunStore, events: list[Event]) -> list[dict[str, Any]]:
    """The run's records as ledger entries (kind "run" or "stage"), each in its place."""
    kinds = {v: k for k, v in KINDS.items()}
    entries: list[dict[str, Any]] = []
    for event in events:
        if event.kind == "run_finished":
            continue
        payload = dict(event.payload)
        if event.kind not in kinds or payload.get("seq") != len(entries) + 1:
            raise InputError(
                f"{store.path}: event {event.id} is not the run's next ledger record (edited "
                "outside Argus); a person aborts the run"
            )
        entries.append({**payload, "kind": kinds[event.kind], "event": event.id})
    return entries


def read_ledger(root: Path, contract_id: str, run_id: str) -> list[dict[str, Any]]:
    """The run's records, the store's chain walked first; InputError when they are missing or
    the chain is broken."""
    with RunStore.open(root) as store:
        _verified(store)
        entries = _entries(store, _events(store, contract_id, run_id))
        if not entries:
            raise InputError(
                f"{store.path}: run {run_id} of contract {contract_id!r}: the run's ledger is "
                "missing; a person aborts the run"
            )
    return entries


def check(root: Path, state: RunState, folder: Path) -> list[dict[str, Any]]:
    """The run's records when the state.json in ``folder`` is exactly what they fold to;
    InputError when not."""
    entries = read_ledger(root, state.contract_id, state.run_id)
    if canonical(fold(entries)) != canonical(snapshot(state)):
        raise InputError(
            f"{folder / 'state.json'}: does not match the run's ledger (edited outside "
            "Argus); a person aborts the run"
        )
    return entries


# -- writing ---------------------------------------------------------------------------------


def _append(
    store: RunStore, contract_id: str, run_id: str, seq: int, change: dict[str, Any]
) -> None:
    payload = {k: v for k, v in change.items() if k != "kind"}
    store.append(
        Event(
            kind=KINDS[change["kind"]],
            feature=feature_of(contract_id),
            run_id=store_run_id(contract_id, run_id),
            payload={**payload, "seq": seq},
        )
    )


def _finish(store: RunStore, contract_id: str, run_id: str, phase: str) -> None:
    """A closed run is finished in the runs table, after its chained run_finished event."""
    name = store_run_id(contract_id, run_id)
    if phase not in TERMINAL:
        return
    row = [r for r in store.runs(feature=feature_of(contract_id)) if r.run_id == name]
    if row and row[0].finished_at is None:
        store.append(
            Event(kind="run_finished", feature=feature_of(contract_id), run_id=name,
                  payload={"status": phase})
        )  # fmt: skip
        store.finish_run(name, phase)


def record(root: Path, state: RunState, *, repair: bool = False) -> None:
    """Append what changed in ``state`` since the ledger's last word (nothing if nothing), in
    one transaction.

    ``repair`` (a person's abort of a damaged run): the chain is not walked and the whole
    snapshot is appended after whatever the store holds, so the run's last word is right; a
    broken link stays where it is, for ``argus runs --verify`` to name.
    """
    contract_id, run_id = state.contract_id, state.run_id
    with RunStore.open(root) as store, store.transaction():
        events = _events(store, contract_id, run_id)
        if repair:
            view: dict[str, Any] = {"run": None, "stages": {}}
            seq = sum(1 for e in events if e.kind in KINDS.values())
        else:
            _verified(store)
            entries = _entries(store, events)
            view, seq = fold(entries), len(entries)
        now_view = snapshot(state)
        changes: list[dict[str, Any]] = []
        if canonical(view["run"]) != canonical(now_view["run"]):
            changes.append({"kind": "run", "record": now_view["run"]})
        for stage_id, stage in now_view["stages"].items():
            if canonical(view["stages"].get(stage_id)) != canonical(stage):
                changes.append({"kind": "stage", "stage": stage_id, "record": stage})
        if changes:
            store.open_run(
                store_run_id(contract_id, run_id), feature_of(contract_id), CONTRACT_MODE
            )
        for change in changes:
            seq += 1
            _append(store, contract_id, run_id, seq, change)
        _finish(store, contract_id, run_id, state.phase)


# -- a ledger an earlier Argus kept as a file ---------------------------------------------------


def read_file(path: Path) -> list[dict[str, Any]]:
    """The entries of a ``ledger.jsonl``, its chain verified; InputError when it is broken."""
    raw = read_bytes(path, what="contract ledger", limit=MAX_LEDGER_BYTES)
    entries: list[dict[str, Any]] = []
    for number, line in enumerate(raw.splitlines(), 1):
        try:
            entry = loads_json(line)
        except (ValueError, RecursionError) as exc:
            raise _refused(path, number, "not a ledger line Argus wrote") from exc
        if not isinstance(entry, dict) or entry.get("seq") != number:
            raise _refused(path, number, "not the ledger's next line")
        if entry.get("kind") not in KINDS or not isinstance(entry.get("record"), dict):
            raise _refused(path, number, "not a ledger line Argus wrote")
        entries.append(entry)
    broken = first_broken(_link(entry) for entry in entries)
    if broken is not None:
        raise _refused(path, broken.seq, f"the ledger's chain is broken: {broken.why}")
    if not entries:
        raise _refused(path, 1, "it is empty")
    return entries


def _link(entry: dict[str, Any]) -> Link:
    content = {k: v for k, v in entry.items() if k not in ("prev", "hash")}
    return Link(entry["seq"], entry.get("prev"), entry.get("hash"), content)


def _refused(path: Path, number: int, why: str) -> InputError:
    return InputError(
        f"{path}:{number}: not imported into the run store ({why}; edited outside Argus); "
        "nothing was imported: move the file aside, then a person aborts the run"
    )


def _same(entries: list[dict[str, Any]], found: list[dict[str, Any]]) -> bool:
    def bare(entry: dict[str, Any]) -> str:
        return canonical({k: v for k, v in entry.items() if k not in ("prev", "hash", "event")})

    return [bare(e) for e in entries] == [bare(e) for e in found]


def import_file(root: Path, folder: Path, contract_id: str) -> bool:
    """Import the ``ledger.jsonl`` in ``folder`` (a run's folder, open or archived) into the
    store, once; True when there was one. See the module doc."""
    path = folder / LEGACY
    if not path.is_file():
        return False
    entries = read_file(path)
    run_id = fold(entries)["run"].get("run_id")
    if not isinstance(run_id, str) or not run_id:
        raise _refused(path, 1, "no record names the run")
    with RunStore.open(root) as store, store.transaction():
        found = _entries(store, _events(store, contract_id, run_id))
        if found and not _same(entries, found):
            raise InputError(
                f"{path}: run {run_id} of contract {contract_id!r} already has other records in "
                f"{store.path}; nothing was imported: move the file aside"
            )
        if not found:  # else: imported before, killed before the rename below
            store.open_run(
                store_run_id(contract_id, run_id), feature_of(contract_id), CONTRACT_MODE
            )
            for entry in entries:
                change = {k: v for k, v in entry.items() if k not in ("prev", "hash", "seq")}
                _append(store, contract_id, run_id, entry["seq"], change)
            _finish(store, contract_id, run_id, str(fold(entries)["run"].get("phase")))
    with contextlib.suppress(FileNotFoundError):  # another process's import renamed it
        path.replace(folder / IMPORTED)
    return True
