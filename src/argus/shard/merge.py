"""Combine the results files of a sharded run into one, like Playwright's ``merge-reports``.

merge_results(files) -> Merged     checked, re-derived, in the plan's order, with one exit code

The shards must fit: the same command, feature, target and plan; either one unsharded file or
shards 1..n of one n, each once; every planned view exactly once. A missing shard or view is
bad input (exit 2), never a smaller green run. Gates views are re-derived from their
gate-result (argus.verdict), so the merged colour is Argus's, not the file's word.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from argus.errors import InputError
from argus.loop.records.status import Status, exit_code, worst
from argus.shard.results import ResultsFile, ViewEntry
from argus.shard.split import Shard, view_key
from argus.verdict import normalize_gate_result

SENSE_STATUSES = ("sensed", "failed")


@dataclass(frozen=True)
class Merged:
    command: str
    feature: str
    target: str | None
    shards: int
    views: tuple[ViewEntry, ...]
    exit_code: int
    corrected: tuple[str, ...]  # slugs whose recorded status the re-derivation changed

    @property
    def durations_ms(self) -> dict[str, float]:
        return {view_key(v.view): round(v.duration_ms, 1) for v in self.views}


def merge_results(files: Sequence[ResultsFile]) -> Merged:
    if not files:
        raise InputError("argus merge: give at least one results file")
    first = files[0]
    for other in files[1:]:
        for name in ("command", "feature", "target", "planned"):
            if getattr(other, name) != getattr(first, name):
                raise InputError(
                    f"{other.path}: {name} differs from {first.path}; merge the shards of one run"
                )
    total = check_shards(files)
    by_key: dict[str, ViewEntry] = {}
    for results in files:
        for entry in results.views:
            key = view_key(entry.view)
            if key not in first.planned:
                raise InputError(f"{results.path}: {entry.view.slug} is not in the run's plan")
            if key in by_key:
                raise InputError(f"{results.path}: {entry.view.slug} was run by two shards")
            by_key[key] = entry
    missing = [key for key in first.planned if key not in by_key]
    if missing:
        raise InputError(
            f"argus merge: {len(missing)} planned view(s) have no result "
            f"({', '.join(missing[:3])}{' …' if len(missing) > 3 else ''}); rerun their shard"
        )
    entries = [by_key[key] for key in first.planned]
    derived = [_derive(first.command, entry, files) for entry in entries]
    corrected = tuple(d.view.slug for d, e in zip(derived, entries, strict=True) if d != e)
    return Merged(
        command=first.command,
        feature=first.feature,
        target=first.target,
        shards=total,
        views=tuple(derived),
        exit_code=_exit_code(first.command, derived),
        corrected=corrected,
    )


class Sharded(Protocol):
    """A file one machine of a split run wrote: a results file, or a pytest plugin's report."""

    @property
    def path(self) -> Path: ...

    @property
    def shard(self) -> Shard | None: ...


def check_shards(files: Sequence[Sharded]) -> int:
    """The shard count; InputError when shards are missing, repeated or mixed."""
    unsharded = [f for f in files if f.shard is None]
    if unsharded:
        if len(files) > 1:
            raise InputError(f"{unsharded[0].path}: an unsharded run cannot be merged with others")
        return 1
    totals = {f.shard.total for f in files if f.shard is not None}
    if len(totals) > 1:
        raise InputError(f"argus merge: shards of different splits ({sorted(totals)}) given")
    total = totals.pop()
    seen: dict[int, Sharded] = {}
    for results in files:
        assert results.shard is not None
        if results.shard.index in seen:
            raise InputError(
                f"{results.path}: shard {results.shard} given twice "
                f"(also {seen[results.shard.index].path})"
            )
        seen[results.shard.index] = results
    absent = [f"{i}/{total}" for i in range(1, total + 1) if i not in seen]
    if absent:
        raise InputError(f"argus merge: shard {', '.join(absent)} missing; give every shard")
    return total


def _derive(command: str, entry: ViewEntry, files: Sequence[ResultsFile]) -> ViewEntry:
    if command == "gates":
        return _derive_gates(entry, files)
    if command == "sense" and entry.status not in SENSE_STATUSES:
        raise InputError(f"argus merge: {entry.view.slug}: unknown sense status {entry.status!r}")
    if command == "loop" and entry.status not in set(Status):
        raise InputError(f"argus merge: {entry.view.slug}: unknown loop status {entry.status!r}")
    return entry


def _derive_gates(entry: ViewEntry, files: Sequence[ResultsFile]) -> ViewEntry:
    """Green only when the view's own gate-result says so; missing evidence is red."""
    if entry.gate_result is None:
        return replace(entry, status="red", error=entry.error or "no gate result recorded")
    source = next(f.path for f in files if entry in f.views)
    result = normalize_gate_result(entry.gate_result, source=f"{source} ({entry.view.slug})")
    about = (
        result.feature,
        result.target,
        result.other.get("state"),
        result.other.get("appearance"),
    )
    view = entry.view
    if about != (view.feature, view.target, view.state, view.appearance):
        raise InputError(f"{source}: the gate result given for {view.slug} is about another view")
    status = "green" if result.all_green else "red"
    return replace(entry, status=status, red_gates=result.red_gates)


def _exit_code(command: str, views: Sequence[ViewEntry]) -> int:
    if command == "gates":
        return 0 if all(v.status == "green" for v in views) else 1
    if command == "sense":
        return 0 if all(v.status == "sensed" for v in views) else 2
    return exit_code(worst([Status(v.status) for v in views]))
