"""The protected set as the loop last left it, kept in the run store where the implementer's
edit of a working-tree file cannot reach it.

Every time the loop knows the protected files to be right (the run starts or resumes, right before
and after each implementer call, after the loop's own writes to them: a baseline, a candidate
reference) it appends a manifest, their SHA-256 digests, to the run store as a ``note`` event of
type ``protected_manifest``, and keeps a content-addressed copy of each file. The manifest taken
before an implementer call also holds the loop's records (argus.loop.records.guarded) and names the
view and iteration being edited, so a loop killed during the edit (``kill -9 $PPID`` from the
implementer) finds out on resume what the edit changed, from the store and not from a file the
implementer could have deleted or rewritten.

``verify`` compares the files with the last manifest (before every judge call and every
sign-off) and puts back what changed from copies whose digest still matches; a file that cannot
be put back is reported, and the caller stops (BLOCKED). Commit notes do the same for the files
an iteration is judged on: before a view's state counts an iteration, the digests of its
outcome, gate result, verdict and render go to the store, and a sign-off counts an iteration
only when its files still have those digests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from argus.loop.guard.integrity import (
    IntegrityChanges,
    ProtectedCopies,
    compare,
    hash_file,
    hash_set,
)
from argus.spec.model import View
from argus.store.model import Event
from argus.store.runstore import RunStore

MANIFEST = "protected_manifest"
COMMIT = "iteration_commit"
# The files of an iteration a sign-off rests on.
COMMITTED_FILES = ("outcome.json", "gate-result.json", "verdict.json", "render.png")


@dataclass(frozen=True)
class Manifest:
    """One manifest as the store holds it."""

    protected: Mapping[str, str]
    records: Mapping[str, str] | None = None  # only in a manifest taken before an edit
    editing: tuple[str, int] | None = None  # (view slug, iteration) of that edit
    may_write: tuple[str, ...] = ()  # path prefixes the loop was about to write itself


@dataclass(frozen=True)
class Verified:
    """What ``verify`` found: the changes, and the paths it could not put back."""

    changes: IntegrityChanges
    unrestored: tuple[str, ...] = ()

    @property
    def clean(self) -> bool:
        return self.changes.clean

    def to_json(self) -> dict[str, Any]:
        return {
            **self.changes.to_json(),
            "restored": not self.unrestored,
            "unrestored": list(self.unrestored),
        }


@dataclass
class Guard:
    """The run's protected-set manifests and iteration commit notes, in the run store."""

    root: Path
    protected: Callable[[], list[str]]
    copies: ProtectedCopies
    store: RunStore
    feature: str
    run_id: str
    expected: dict[str, str] = field(default_factory=dict)

    # -- manifests ------------------------------------------------------------------------------

    def record(
        self,
        reason: str,
        *,
        records: Mapping[str, str] | None = None,
        editing: tuple[str, int] | None = None,
        may_write: tuple[str, ...] = (),
    ) -> dict[str, str]:
        """Hash the protected set as it is now, keep copies, and append the manifest.
        ``may_write``: repo-relative path prefixes the loop itself is about to write (a resume
        finding only those changed knows they were the loop's own)."""
        hashes = hash_set(self.root, self.protected())
        self.copies.keep(self.root, {**hashes, **(records or {})})
        payload: dict[str, Any] = {"type": MANIFEST, "reason": reason, "protected": hashes}
        if records is not None:
            payload["records"] = dict(records)
        if editing is not None:
            payload["editing"] = {"view": editing[0], "iteration": editing[1]}
        if may_write:
            payload["may_write"] = list(may_write)
        self.store.append(Event("note", self.feature, self.run_id, payload=payload))
        self.expected = hashes
        return hashes

    def last_manifest(self) -> Manifest | None:
        """The run's latest manifest in the store, or None when it has none."""
        found: Manifest | None = None
        for event in self.store.events(run_id=self.run_id, kind="note"):
            payload = event.payload
            if payload.get("type") != MANIFEST or not isinstance(payload.get("protected"), dict):
                continue
            editing = payload.get("editing")
            records = payload.get("records")
            may_write = payload.get("may_write")
            found = Manifest(
                protected=payload["protected"],
                records=records if isinstance(records, dict) else None,
                editing=(str(editing["view"]), int(editing["iteration"]))
                if isinstance(editing, dict)
                else None,
                may_write=tuple(str(p) for p in may_write) if isinstance(may_write, list) else (),
            )
        return found

    def verify(self, expected: Mapping[str, str] | None = None) -> Verified:
        """Compare the protected set with ``expected`` (default: the last manifest) and put
        back what changed."""
        before = dict(self.expected if expected is None else expected)
        changes = compare(before, hash_set(self.root, self.protected()))
        if changes.clean:
            return Verified(changes)
        return Verified(changes, tuple(self.copies.restore(self.root, before, changes)))

    def restore(self, before: Mapping[str, str], changes: IntegrityChanges) -> Verified:
        return Verified(changes, tuple(self.copies.restore(self.root, before, changes)))

    # -- iteration commits ----------------------------------------------------------------------

    def note_commit(self, view: View, iteration: int, directory: Path) -> None:
        """Before the state counts ``iteration``: the digests of the files it rests on."""
        files = {
            name: hash_file(directory / name)
            for name in COMMITTED_FILES
            if (directory / name).is_file()
        }
        self.store.append(
            Event(
                "note",
                self.feature,
                self.run_id,
                view.target,
                view.state,
                view.appearance,
                iteration,
                {"type": COMMIT, "files": files},
            )
        )

    def committed_files(self, view: View) -> dict[int, dict[str, str]]:
        """Per iteration of ``view`` in this run, the digests its commit note recorded (the
        latest note of an iteration counts: a redone iteration is noted again)."""
        found: dict[int, dict[str, str]] = {}
        for event in self.store.events(run_id=self.run_id, kind="note", view=view):
            files = event.payload.get("files")
            if event.payload.get("type") == COMMIT and event.iteration and isinstance(files, dict):
                found[event.iteration] = {str(k): str(v) for k, v in files.items()}
        return found


def unrestored_detail(paths: Sequence[str], when: str) -> str:
    """The one-line reason a view stops when protected files could not be put back."""
    return (
        f"protected files changed {when} and could not be restored "
        f"({', '.join(paths)}): their backup copies are missing or no longer "
        "match their digest; put them back by hand (git checkout) and rerun with --new-run"
    )
