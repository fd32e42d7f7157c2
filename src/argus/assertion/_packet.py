"""The assertion packet: one sentence, the evidence captured for it, and nothing about the run.

A packet is a directory: ``judge-packet.json`` (a random ``packet_id`` the judge must echo, the
instructions, the assertion, the app's vocabulary, and each piece of evidence with its
SHA-256) and ``evidence/`` holding copies of the evidence files. The copies are what the judge
reads, so the evidence cannot change under it; reading a packet back re-checks every digest.

What a packet may hold is closed: the assertion, the vocabulary, and evidence of two kinds, a
``screenshot`` (PNG, required) and a ``ui-tree`` (the page's elements and accessibility tree:
JSON, or an ARIA snapshot as text). Anything that describes the run (a transcript, step
summaries, notes, findings, the tester's instructions or expectations) is refused, as evidence
and as a key of a UI tree at any depth (or a ``key:`` line of a text tree). Evidence must be
current: a file older than ``max_age_s`` was captured for some earlier step and is refused.
"""

from __future__ import annotations

import hashlib
import math
import re
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from argus.diff.png import MAX_PNG_BYTES, PNG_SIGNATURE
from argus.errors import InputError
from argus.io import atomic_write_json, loads_json, read_bytes, read_json, staged_directory

PACKET_FILE = "judge-packet.json"
EVIDENCE_DIR = "evidence"
PACKET_VERSION = 2  # 2: a packet_id ties each answer to its packet
KINDS = {"screenshot": "screenshot.png", "ui-tree": "ui-tree"}  # kind -> file stem/name
MAX_ASSERTION_CHARS = 300
MAX_VOCABULARY_CHARS = 1000
MAX_TREE_BYTES = 5 * 1024 * 1024
DEFAULT_MAX_AGE_S = 600.0
# Keys of a UI tree that would carry the run into the packet.
RUN_KEYS = frozenset(
    {
        "transcript",
        "steps",
        "step_summaries",
        "summary",
        "notes",
        "findings",
        "instructions",
        "expected",
        "expectation",
        "goal",
        "history",
        "conversation",
        "plan",
    }
)
VERDICTS = ("passed", "failed", "inconclusive")
ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["packet_id", "verdict", "reason", "citations"],
    "properties": {
        "packet_id": {"type": "string"},
        "verdict": {"type": "string", "enum": list(VERDICTS)},
        "reason": {"type": "string"},
        "citations": {"type": "array", "items": {"type": "string"}},
    },
}


@cache
def instructions() -> str:
    return resources.files("argus.assertion").joinpath("prompts", "assert-v1.md").read_text("utf-8")


@cache
def instructions_version() -> str:
    digest = hashlib.sha256(instructions().encode("utf-8")).hexdigest()
    return f"assert-v1+{digest[:12]}"


@dataclass(frozen=True)
class Evidence:
    id: str  # the kind: "screenshot" or "ui-tree"
    path: Path  # the copy inside the packet
    sha256: str

    @property
    def relative(self) -> str:
        return f"{EVIDENCE_DIR}/{self.path.name}"


@dataclass(frozen=True)
class AssertionPacket:
    directory: Path
    packet_id: str  # random; the judge echoes it, so an answer cannot be moved to another packet
    assertion: str
    vocabulary: str | None
    evidence: tuple[Evidence, ...]
    digest: str  # SHA-256 of judge-packet.json

    @property
    def file(self) -> Path:
        return self.directory / PACKET_FILE

    def get(self, kind: str) -> Evidence | None:
        return next((e for e in self.evidence if e.id == kind), None)

    def screenshot(self) -> Evidence:
        found = self.get("screenshot")
        assert found is not None, "a packet always holds a screenshot"
        return found


# In free text (the assertion, the vocabulary) a run-describing "key:" anywhere in the line.
_RUN_KEY_IN_TEXT = re.compile(
    r"(?<![\w-])(" + "|".join(map(re.escape, sorted(RUN_KEYS))) + r")\s*:", re.IGNORECASE
)


def _check_sentence(text: str, what: str, limit: int) -> str:
    text = text.strip()
    if not text:
        raise InputError(f"the {what} is empty")
    if "\n" in text or "\r" in text:
        raise InputError(f"the {what} must be one line (one sentence about the screen)")
    if len(text) > limit:
        raise InputError(f"the {what} is {len(text)} characters; at most {limit}")
    carried = sorted({m.group(1).lower() for m in _RUN_KEY_IN_TEXT.finditer(text)})
    if carried:
        raise InputError(
            f"the {what} has {', '.join(k + ':' for k in carried)}, which describe the run, not "
            "the screen; a judge sees only what the screen shows"
        )
    return text


def parse_evidence(items: list[str]) -> dict[str, Path]:
    """``KIND=PATH`` arguments -> {kind: path}; unknown kinds and repeats are refused."""
    found: dict[str, Path] = {}
    for item in items:
        kind, sep, path = item.partition("=")
        kind = kind.strip()
        if not sep or not kind or not path:
            raise InputError(f"--evidence {item!r}: give KIND=PATH, e.g. screenshot=shot.png")
        if kind not in KINDS:
            raise InputError(
                f"--evidence {kind}: not evidence a judge may see; only "
                f"{' and '.join(KINDS)} (never a transcript, notes or the run's history)"
            )
        if kind in found:
            raise InputError(f"--evidence {kind} given twice; one per kind")
        found[kind] = Path(path)
    return found


def _check_current(path: Path, max_age_s: float | None, now: float) -> float:
    captured = path.stat().st_mtime
    if max_age_s is not None and now - captured > max_age_s:
        raise InputError(
            f"{path}: captured {now - captured:.0f} s ago; evidence must be captured now, for "
            f"this assertion (capture it again, or allow older files with --max-age)"
        )
    return captured


def _screenshot(path: Path) -> tuple[bytes, str]:
    data = read_bytes(path, what="screenshot", limit=MAX_PNG_BYTES)
    if not data.startswith(PNG_SIGNATURE):
        raise InputError(f"{path}: the screenshot must be a PNG image")
    return data, KINDS["screenshot"]


_RUN_LINE = re.compile(
    r"^\s*(" + "|".join(map(re.escape, sorted(RUN_KEYS))) + r")\s*:", re.IGNORECASE | re.MULTILINE
)


def _run_keys(value: Any) -> set[str]:
    """Every key, at any depth (inside lists too), that names a part of the run."""
    found: set[str] = set()
    stack = [value]
    while stack:  # iterative: a deeply nested tree cannot exhaust the recursion limit
        item = stack.pop()
        if isinstance(item, dict):
            found.update(str(k) for k in item if str(k).lower() in RUN_KEYS)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _ui_tree(path: Path) -> tuple[bytes, str]:
    """The tree as given: JSON or ARIA snapshot text, refused when either carries the run."""
    data = read_bytes(path, what="UI tree", limit=MAX_TREE_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: the UI tree is not UTF-8 text") from exc
    if text.lstrip().startswith(("{", "[")):
        carried = _run_keys(read_json(path, what="UI tree"))
        name = "ui-tree.json"
    else:
        carried = {m.group(1) for m in _RUN_LINE.finditer(text)}
        name = "ui-tree.txt"
    if carried:
        raise InputError(
            f"{path}: the UI tree has {', '.join(sorted(carried))}, which describe the run, not "
            "the screen; a judge sees only what the screen shows"
        )
    return data, name


def build_packet(
    directory: Path,
    *,
    assertion: str,
    evidence: Mapping[str, Path],
    vocabulary: str | None = None,
    max_age_s: float | None = DEFAULT_MAX_AGE_S,
) -> AssertionPacket:
    """Write a packet at ``directory`` (new or empty, or an earlier packet, replaced whole)."""
    if max_age_s is not None and not (math.isfinite(max_age_s) and max_age_s >= 0):
        raise InputError(f"the maximum evidence age must be finite and 0 or more (got {max_age_s})")
    assertion = _check_sentence(assertion, "assertion", MAX_ASSERTION_CHARS)
    if vocabulary is not None:
        vocabulary = _check_sentence(vocabulary, "vocabulary", MAX_VOCABULARY_CHARS)
    unknown = sorted(set(evidence) - set(KINDS))
    if unknown:
        raise InputError(f"not evidence a judge may see: {', '.join(unknown)}")
    if "screenshot" not in evidence:
        raise InputError("an assertion is judged on a screenshot: give --evidence screenshot=PNG")
    if directory.exists() and any(directory.iterdir()) and not (directory / PACKET_FILE).is_file():
        raise InputError(f"{directory}: exists and is not an assertion packet; choose a new one")
    now = time.time()
    readers = {"screenshot": _screenshot, "ui-tree": _ui_tree}
    files: dict[str, tuple[bytes, str, float]] = {}
    for kind, path in evidence.items():
        data, name = readers[kind](path)
        files[kind] = (data, name, _check_current(path, max_age_s, now))
    with staged_directory(directory) as staging:
        (staging / EVIDENCE_DIR).mkdir()
        entries = []
        for kind, (data, name, captured) in files.items():
            (staging / EVIDENCE_DIR / name).write_bytes(data)
            entries.append(
                {
                    "id": kind,
                    "path": f"{EVIDENCE_DIR}/{name}",
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "bytes": len(data),
                    "captured_at": _iso(captured),
                }
            )
        document = {
            "version": PACKET_VERSION,
            "packet_id": secrets.token_hex(8),
            "instructions_version": instructions_version(),
            "instructions": instructions(),
            "assertion": assertion,
            "vocabulary": vocabulary,
            "evidence": entries,
            "answer_schema": ANSWER_SCHEMA,
            "created_at": _iso(now),
        }
        atomic_write_json(staging / PACKET_FILE, document)
    return load_packet(directory)


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def load_packet(directory: Path) -> AssertionPacket:
    """Read a packet back; every evidence file must still have its recorded digest."""
    if directory.is_file() and directory.name == PACKET_FILE:
        directory = directory.parent
    directory = directory.absolute()  # the judge is shown paths it can open from anywhere
    path = directory / PACKET_FILE
    raw = read_bytes(path, what="assertion packet", limit=MAX_TREE_BYTES)
    doc = read_json(path, what="assertion packet")
    where = str(path)
    if not isinstance(doc, dict) or doc.get("version") != PACKET_VERSION:
        raise InputError(f"{where}: not an assertion packet (version {PACKET_VERSION})")
    packet_id = doc.get("packet_id")
    assertion = doc.get("assertion")
    vocabulary = doc.get("vocabulary")
    entries = doc.get("evidence")
    if not isinstance(assertion, str) or not isinstance(entries, list):
        raise InputError(f"{where}: needs an assertion and an evidence list")
    if vocabulary is not None and not isinstance(vocabulary, str):
        raise InputError(f"{where}: vocabulary must be text or null")
    if not isinstance(packet_id, str) or not re.fullmatch(r"[0-9a-f]{16}", packet_id):
        raise InputError(f"{where}: has no packet_id; build the packet again")
    evidence = []
    for entry in entries:
        if not isinstance(entry, dict) or entry.get("id") not in KINDS:
            raise InputError(f"{where}: evidence entries are screenshot or ui-tree, got {entry!r}")
        rel = str(entry.get("path", ""))
        file = directory / rel
        if Path(rel).is_absolute() or ".." in Path(rel).parts or not rel.startswith(EVIDENCE_DIR):
            raise InputError(f"{where}: evidence path {rel!r} is not inside the packet")
        data = read_bytes(file, what=f"{entry['id']} evidence", limit=MAX_PNG_BYTES)
        digest = hashlib.sha256(data).hexdigest()
        if digest != entry.get("sha256"):
            raise InputError(
                f"{file}: changed after the packet was built; build a new packet from new evidence"
            )
        evidence.append(Evidence(str(entry["id"]), file, digest))
    if not any(e.id == "screenshot" for e in evidence):
        raise InputError(f"{where}: holds no screenshot")
    return AssertionPacket(
        directory=directory,
        packet_id=packet_id,
        assertion=assertion,
        vocabulary=vocabulary,
        evidence=tuple(evidence),
        digest=hashlib.sha256(raw).hexdigest(),
    )


def packet_json(packet: AssertionPacket) -> dict[str, Any]:
    value: dict[str, Any] = loads_json(packet.file.read_text("utf-8"))
    return value
