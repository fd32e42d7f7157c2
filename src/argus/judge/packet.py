"""The judge packet: a directory holding only what a judge may see, and a manifest of it.

A judge scores the *result* of a change against targets it did not write: the spec, the tokens,
the rubric, the reference, and the sensor's outputs. It never sees the change itself, the
builder's notes or the conversation that produced it, because a grader that reads the
builder's reasoning grades the reasoning. So the builder takes inputs by role, accepts only the
roles in ROLES, checks each file is what its role says (a PNG, JSON, UTF-8 text that is not a
patch), cuts page text to PAGE_TEXT_LIMIT, and refuses to build at all unless the gate result
is green and proves something about this render (argus.judge._gatecheck).

    packet/
      manifest.json        view, iteration, reference_source, and for each role: path, sha256
      spec.json spec.md tokens.json rubric.json contract.json
      reference.png render.png render.prev.png probe.json console.json axe.json focus.json
      controls.json gate-result.json

``contract.json`` is derived by Argus from spec.json for this one view (primary action, id
contract, machine-checkable expectations with fixture counts resolved to numbers), so a judge
needs no access to the repository.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from argus.errors import InputError, JudgeError
from argus.evidence.content import clip_page_data
from argus.io import atomic_write_json, loads_json, read_bytes, read_json, staged_directory
from argus.judge._gatecheck import check_gate_result
from argus.verdict import normalize_gate_result

Kind = Literal["png", "json", "text"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_IMAGE_BYTES = 40 * 1024 * 1024
MANIFEST = "manifest.json"
PACKET_VERSION = 1


@dataclass(frozen=True)
class Role:
    filename: str
    kind: Kind
    required: bool
    page_content: bool = False  # written by the page: strings are clipped on the way in


ROLES: Mapping[str, Role] = {
    "spec": Role("spec.json", "json", True),
    "spec_md": Role("spec.md", "text", False),
    "tokens": Role("tokens.json", "json", True),
    "rubric": Role("rubric.json", "json", True),
    "contract": Role("contract.json", "json", True),
    "reference": Role("reference.png", "png", False),
    "render": Role("render.png", "png", True),
    "prev_render": Role("render.prev.png", "png", False),
    "probe": Role("probe.json", "json", True, page_content=True),
    "console": Role("console.json", "json", False, page_content=True),
    "axe": Role("axe.json", "json", False, page_content=True),
    # The sensor's focus walk and dead-control probe (argus.sense.focus_visible, .controls).
    "focus": Role("focus.json", "json", False, page_content=True),
    "controls": Role("controls.json", "json", False, page_content=True),
    "gate_result": Role("gate-result.json", "json", True),
}
REFERENCE_SOURCES = ("human", "candidate")


@dataclass(frozen=True)
class PacketFile:
    role: str
    path: Path
    sha256: str


@dataclass(frozen=True)
class Packet:
    """A built (or re-read and verified) packet; every file in it hashed in the manifest."""

    directory: Path
    feature: str
    target: str
    state: str
    appearance: str
    iteration: int
    reference_source: str | None
    files: Mapping[str, PacketFile]

    def path(self, role: str) -> Path | None:
        entry = self.files.get(role)
        return entry.path if entry else None

    def require(self, role: str) -> Path:
        path = self.path(role)
        if path is None:
            raise JudgeError(f"{self.directory}: the packet has no {role} file")
        return path

    def json(self, role: str) -> Any:
        return read_json(self.require(role), what=ROLES[role].filename)

    def text(self, role: str) -> str:
        path = self.path(role)
        return read_bytes(path, what=ROLES[role].filename).decode("utf-8") if path else ""

    @property
    def fingerprint(self) -> str:
        """One digest over every file and the view: equal packets, equal fingerprints."""
        lines = [f"{self.feature}/{self.target}/{self.state}/{self.appearance}"]
        lines += [f"{role}:{self.files[role].sha256}" for role in sorted(self.files)]
        return hashlib.sha256("\n".join(lines).encode()).hexdigest()

    def verdict_header(self) -> dict[str, Any]:
        """The fields every verdict about this packet starts with."""
        header: dict[str, Any] = {
            "iteration": self.iteration,
            "feature": self.feature,
            "target": self.target,
            "state": self.state,
            "appearance": self.appearance,
        }
        if self.reference_source is not None:
            header["reference_source"] = self.reference_source
        return header


def build_packet(
    directory: Path,
    *,
    feature: str,
    target: str,
    state: str,
    appearance: str,
    iteration: int,
    reference_source: str | None,
    inputs: Mapping[str, Path],
    contract: Mapping[str, Any],
    gates: Sequence[str] | None = None,
) -> Packet:
    """Copy the allowed ``inputs`` (role -> file) into a fresh packet at ``directory``.
    ``gates``: the configured gate names, each of which the gate result must hold."""
    unknown = sorted(set(inputs) - set(ROLES))
    if unknown:
        raise InputError(
            f"judge packet: {', '.join(unknown)} is not a judge input; a judge sees only "
            f"{', '.join(r for r in ROLES if r != 'contract')} "
            "(never a diff, notes or a transcript)"
        )
    if "contract" in inputs:
        raise InputError(
            "judge packet: contract.json is derived from the spec by Argus; pass `contract=`"
        )
    missing = [
        r for r, spec in ROLES.items() if spec.required and r != "contract" and r not in inputs
    ]
    if missing:
        raise InputError(f"judge packet: missing required input(s): {', '.join(missing)}")
    if isinstance(iteration, bool) or not isinstance(iteration, int) or iteration < 1:
        raise InputError(f"judge packet: iteration must be a whole number >= 1, got {iteration!r}")
    if reference_source not in (None, *REFERENCE_SOURCES):
        raise InputError(
            f"judge packet: reference_source must be human or candidate, got {reference_source!r}"
        )
    if "reference" in inputs and reference_source is None:
        raise InputError("judge packet: a reference needs its source (human or candidate)")
    payloads: dict[str, bytes] = {
        role: _checked_payload(role, path) for role, path in inputs.items()
    }
    view = {"feature": feature, "target": target, "state": state, "appearance": appearance}
    check_gate_result(
        read_json(inputs["gate_result"], what="gate result"),
        inputs["gate_result"],
        view=view,
        render_sha256=hashlib.sha256(payloads["render"]).hexdigest(),
        probe_sha256=_sha256_of(inputs["probe"]),  # as sensed: the payload is clipped
        required=gates,
    )
    payloads["contract"] = _json_bytes(dict(contract))
    header = {**view, "iteration": iteration, "reference_source": reference_source}
    return _write(directory, payloads, header)


def require_green(gate_raw: Any, source: Path | str) -> None:
    """Refuse unless every gate is green, re-derived from the statuses (the flag is ignored)."""
    result = normalize_gate_result(gate_raw, source=source)
    if not result.all_green:
        raise JudgeError(
            f"{source}: {result.not_green_reason}; the judge runs only on an "
            "all-green view (fix the gates, then judge)"
        )


def _sha256_of(path: Path) -> str:
    return hashlib.sha256(read_bytes(path, what=path.name)).hexdigest()


def _checked_payload(role: str, path: Path) -> bytes:
    spec = ROLES[role]
    what = f"{role} input ({path.name})"
    data = read_bytes(
        path, what=what, limit=MAX_IMAGE_BYTES if spec.kind == "png" else 5 * 1024 * 1024
    )
    if spec.kind == "png":
        if not data.startswith(PNG_SIGNATURE):
            raise InputError(f"{path}: the {role} input must be a PNG image")
        return data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: the {role} input is not UTF-8 text") from exc
    if _looks_like_patch(text):
        raise InputError(f"{path}: the {role} input looks like a diff; a judge never sees changes")
    if spec.kind == "text":
        return data
    try:
        value = loads_json(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path}: the {role} input is not valid JSON (line {exc.lineno}: {exc.msg})"
        ) from exc
    if spec.page_content:
        clipped = clip_page_data(value)
        if clipped != value:
            return _json_bytes(clipped)
    # Valid and already within the rules (the sensor saves probes clipped): the file as it is.
    return data


def _looks_like_patch(text: str) -> bool:
    head = text.lstrip()[:4096]
    if head.startswith(("diff --git ", "From ", "Index: ")) and "\n--- " in head:
        return True
    lines = head.splitlines()
    return any(
        a.startswith("--- ") and b.startswith("+++ ") and c.startswith("@@ ")
        for a, b, c in zip(lines, lines[1:], lines[2:], strict=False)
    )


def _json_bytes(value: Any) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _write(directory: Path, payloads: Mapping[str, bytes], header: Mapping[str, Any]) -> Packet:
    """Write the payloads and a manifest (``header``: the view, iteration, reference source)."""
    if directory.exists() and any(directory.iterdir()) and not (directory / MANIFEST).is_file():
        raise InputError(
            f"{directory}: exists and is not a judge packet; choose an empty directory"
        )
    with staged_directory(directory) as staging:
        files: dict[str, dict[str, Any]] = {}
        for role, data in payloads.items():
            name = ROLES[role].filename
            (staging / name).write_bytes(data)
            files[role] = {
                "path": name,
                "sha256": hashlib.sha256(data).hexdigest(),
                "bytes": len(data),
            }
        manifest = {"version": PACKET_VERSION, **header, "files": files}
        atomic_write_json(staging / MANIFEST, manifest)
    return load_packet(directory)


def load_packet(directory: Path) -> Packet:
    """Read a packet back, refusing unknown roles, changed files and red gates."""
    manifest_path = directory / MANIFEST
    manifest = read_json(manifest_path, what="judge packet manifest")
    if not isinstance(manifest, dict) or manifest.get("version") != PACKET_VERSION:
        raise InputError(f"{manifest_path}: not a version {PACKET_VERSION} judge packet manifest")
    raw_files = manifest.get("files")
    if not isinstance(raw_files, dict):
        raise InputError(f"{manifest_path}: 'files' must map roles to files")
    files: dict[str, PacketFile] = {}
    for role, entry in raw_files.items():
        if role not in ROLES:
            raise InputError(f"{manifest_path}: '{role}' is not a judge input; rebuild the packet")
        if not isinstance(entry, dict) or entry.get("path") != ROLES[role].filename:
            raise InputError(f"{manifest_path}: files.{role} must name {ROLES[role].filename}")
        path = directory / ROLES[role].filename
        digest = hashlib.sha256(read_bytes(path, what=role, limit=MAX_IMAGE_BYTES)).hexdigest()
        if digest != entry.get("sha256"):
            raise InputError(f"{path}: changed after the packet was built; rebuild the packet")
        files[role] = PacketFile(role, path, digest)
    missing = [r for r, spec in ROLES.items() if spec.required and r not in files]
    if missing:
        raise InputError(f"{manifest_path}: missing required file(s): {', '.join(missing)}")
    try:
        packet = Packet(
            directory=directory,
            feature=str(manifest["feature"]),
            target=str(manifest["target"]),
            state=str(manifest["state"]),
            appearance=str(manifest["appearance"]),
            iteration=int(manifest["iteration"]),
            reference_source=manifest.get("reference_source"),
            files=files,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{manifest_path}: incomplete manifest ({exc})") from exc
    require_green(packet.json("gate_result"), packet.require("gate_result"))
    return packet
