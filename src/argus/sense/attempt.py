"""Recording a sense attempt, so that its files are bound to it (the readers' side, and why:
argus.evidence.attempt).

    attempt = begin_attempt(out_dir)        # before anything of the sense is written
    ... write render.png, probe.json, ..., meta.json ...
    seal_attempt(out_dir, attempt)          # meta.json again, last, with the sense record
    # or, when it failed: fail_attempt(out_dir, attempt, reason)
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from pathlib import Path

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
    atomic_write_json(out_dir / META, meta)
    _write(out_dir, attempt, "ok")


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
    atomic_write_json(out_dir / ATTEMPT_FILE, record)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
