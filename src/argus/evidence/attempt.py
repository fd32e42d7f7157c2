"""Sensed files bound to the one successful sense that wrote them.

A sensed directory (render.png, probe.json, console.json, axe.json, focus.json,
controls.json, meta.json: argus.sense.result) is rewritten by each sense of its view. A sense
that fails part-way, or before it writes anything (a state's step that does nothing, a page
that errors, a server that is down), would otherwise leave the previous sense's files behind,
whole and self-consistent, and a judge, a gate or a report run on its own afterwards would pass
a render that is no longer the view's. So:

1. Every sense first records a new attempt in ``sense-attempt.json`` (its number, one more
   than the last, a fresh id, outcome ``running``), before any file of it is written.
2. A sense that fails records ``failed`` and its one-line reason there.
3. A sense that succeeds writes meta.json last, with a ``sense`` object: the attempt's number
   and id, outcome ``ok``, and the SHA-256 of every evidence file it wrote.

``require_fresh`` accepts a directory only when meta.json's attempt is the last one recorded,
it succeeded, and every evidence file on disk is the one it wrote (none missing, none changed,
none added). Older files after a failed or unfinished attempt, a meta.json of one attempt
beside files of another, and a directory with no record are all refused: one line naming the
directory, what is wrong and what to do. The sensor writes the record (argus.sense.attempt),
every reader checks it here.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from argus.errors import ArgusError, InputError
from argus.io import read_json
from argus.sense.attempt import ATTEMPT_FILE, META_KEY, REDO, evidence_hashes
from argus.sense.result import EVIDENCE, META


def require_fresh(sensed_dir: Path, meta: Mapping[str, Any], view: str) -> None:
    """InputError unless ``sensed_dir``'s files are those of its last sense, which succeeded
    (see the module docstring). ``meta`` is its meta.json, ``view`` names the view."""
    where = f"{sensed_dir}: {view}"
    try:
        last = read_json(sensed_dir / ATTEMPT_FILE, what=ATTEMPT_FILE)
    except ArgusError:
        last = None
    if not isinstance(last, dict):
        raise InputError(
            f"{where}: no readable record of the sense that wrote these files "
            f"({ATTEMPT_FILE}), so nothing shows they are the view's latest; {REDO}"
        )
    sealed = meta.get(META_KEY)
    if last.get("outcome") == "failed":
        raise InputError(
            f"{where}: the last sense of this view (attempt {last.get('attempt')}) failed: "
            f"{last.get('error') or 'no reason recorded'}; the files left are an older "
            f"render's, never evidence for it; fix that and {REDO}"
        )
    if not isinstance(sealed, dict) or sealed.get("id") != last.get("id"):
        raise InputError(
            f"{where}: meta.json is not from the last sense of this view (attempt "
            f"{last.get('attempt')}, {last.get('outcome')}), so the files may be another "
            f"attempt's; {REDO}"
        )
    if sealed.get("outcome") != "ok":
        raise InputError(f"{where}: meta.json records a sense that did not succeed; {REDO}")
    _check_files(where, sensed_dir, sealed.get("files"), sealed.get("attempt"))


def stale_reason(sensed_dir: Path, view: str) -> str | None:
    """Why the files in ``sensed_dir`` are not its last successful sense's, or None when they
    are, or when no attempt was ever recorded there (a directory no sensor wrote into)."""
    if not (sensed_dir / ATTEMPT_FILE).exists():
        return None
    try:
        meta = read_json(sensed_dir / META, what=META)
        require_fresh(sensed_dir, meta if isinstance(meta, dict) else {}, view)
    except ArgusError as exc:
        return str(exc)
    return None


def _check_files(where: str, sensed_dir: Path, recorded: object, attempt: object) -> None:
    if not isinstance(recorded, dict):
        raise InputError(f"{where}: meta.json lists no files of its sense; {REDO}")
    on_disk = evidence_hashes(sensed_dir)
    for name in EVIDENCE:
        if on_disk.get(name) != recorded.get(name):
            state = "missing" if name not in on_disk else "not the one its sense wrote"
            if name not in recorded:
                state = "not written by its sense"
            raise InputError(
                f"{where}: {name} is {state} (attempt {attempt}), so the files are not all of "
                f"one sense; {REDO}"
            )
