"""Recording a sense attempt, so that its files are bound to it (the readers' side, and why:
argus.evidence.attempt).

    attempt = begin_attempt(out_dir)        # before anything of the sense is written
    ... write render.png, probe.json, ..., meta.json ...
    seal_attempt(out_dir, attempt)          # meta.json again, last, with the sense record
    # or, when it failed: fail_attempt(out_dir, attempt, reason)
    # later, evidence the sense left for its caller to collect (the loop's deferred probe):
    add_to_attempt(out_dir, "controls.json", write, meta_update)
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from argus.errors import ArgusError, InputError
from argus.io import atomic_write_json, read_json
from argus.sense.result import EVIDENCE, META

ATTEMPT_FILE = "sense-attempt.json"
META_KEY = "sense"
MAX_ERROR = 300
REDO = "sense the view again (argus gates --sense; argus sense when it is to be judged)"


@dataclass(frozen=True)
class Attempt:
    number: int
    id: str


def _last_number(out_dir: Path) -> int:
    try:
        found = read_json(out_dir / ATTEMPT_FILE, what=ATTEMPT_FILE)
    except ArgusError:
        return 0  # none yet, or unreadable: numbering starts again, the id still differs
    number = found.get("attempt") if isinstance(found, dict) else None
    return number if isinstance(number, int) and not isinstance(number, bool) else 0


def begin_attempt(out_dir: Path) -> Attempt:
    """Record a new sense attempt of ``out_dir`` before anything of it is written: from now on
    the files already there belong to an older attempt and are refused."""
    out_dir.mkdir(parents=True, exist_ok=True)
    attempt = Attempt(_last_number(out_dir) + 1, uuid.uuid4().hex)
    _write(out_dir, attempt, "running")
    return attempt


def fail_attempt(out_dir: Path, attempt: Attempt | None, error: str) -> None:
    """Record that ``attempt`` (None: one that never began) failed, and why."""
    if not out_dir.is_dir():
        return  # nothing was ever written there, so nothing older can be taken for it
    attempt = attempt or begin_attempt(out_dir)
    reason = " ".join(error.split())[:MAX_ERROR]
    _write(out_dir, attempt, "failed", reason)


def seal_attempt(out_dir: Path, attempt: Attempt) -> None:
    """Bind the sense's files to ``attempt``: meta.json (already written by the sensor) gets
    the ``sense`` record with every evidence file's hash, and is written again, last."""
    meta = read_json(out_dir / META, what=META)
    if not isinstance(meta, dict):
        raise InputError(f"{out_dir / META}: not a JSON object; {REDO}")
    meta[META_KEY] = {
        "attempt": attempt.number,
        "id": attempt.id,
        "outcome": "ok",
        "files": evidence_hashes(out_dir),
    }
    atomic_write_json(out_dir / META, meta, durable=False)
    _write(out_dir, attempt, "ok")


def add_to_attempt(
    out_dir: Path, name: str, write: Callable[[], None], meta_update: Mapping[str, Any]
) -> None:
    """Add the evidence file ``name`` to the sealed sense in ``out_dir``, collected after it
    (the loop's dead-control probe, run once the view's gates are green): ``write`` writes the
    file, then meta.json takes ``meta_update`` and the file's hash in its ``sense`` record, and
    is written again, last. InputError, with nothing written, unless ``out_dir`` holds the
    files of its last sense, which succeeded, every other one as that sense wrote it, and the
    sense sealed no ``name`` of its own: an added file never blesses a file changed since."""
    meta = read_json(out_dir / META, what=META)
    sealed = meta.get(META_KEY) if isinstance(meta, dict) else None
    try:
        last = read_json(out_dir / ATTEMPT_FILE, what=ATTEMPT_FILE)
    except ArgusError:
        last = None
    where = f"{out_dir}: cannot add {name} to its sense"
    if not isinstance(sealed, dict) or not isinstance(last, dict):
        raise InputError(f"{where}: no sealed sense to add it to; {REDO}")
    if sealed.get("id") != last.get("id") or sealed.get("outcome") != "ok":
        raise InputError(f"{where}: meta.json is not the last successful sense's; {REDO}")
    if last.get("outcome") != "ok":
        raise InputError(f"{where}: the last sense did not succeed; {REDO}")
    recorded = sealed.get("files")
    if not isinstance(recorded, dict) or name in recorded:
        raise InputError(f"{where}: its sense recorded {name} already, or no files; {REDO}")
    others = {k: v for k, v in evidence_hashes(out_dir).items() if k != name}
    if others != recorded:
        raise InputError(f"{where}: its other files changed since it sealed them; {REDO}")
    write()
    assert isinstance(meta, dict)
    meta.update(meta_update)
    meta[META_KEY] = {**sealed, "files": evidence_hashes(out_dir)}
    atomic_write_json(out_dir / META, meta, durable=False)


def evidence_hashes(out_dir: Path) -> dict[str, str]:
    """The SHA-256 of each evidence file present in ``out_dir``."""
    return {name: _sha256(out_dir / name) for name in EVIDENCE if (out_dir / name).is_file()}


def _write(out_dir: Path, attempt: Attempt, outcome: str, error: str | None = None) -> None:
    record: dict[str, object] = {
        "version": 1,
        "attempt": attempt.number,
        "id": attempt.id,
        "outcome": outcome,
    }
    if error is not None:
        record["error"] = error
    atomic_write_json(out_dir / ATTEMPT_FILE, record, durable=False)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
