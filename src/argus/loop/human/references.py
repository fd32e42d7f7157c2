"""Reference bootstrapping (HE-1): candidate renders, and the human's approval of one.

A target whose canonical view has no reference cannot be judged visually. The loop renders a
candidate into ``.argus-runs/candidates/{slug}.png`` and marks the reference ``candidate`` in
spec.json; ``argus approve`` moves the image into ``references/`` and marks it ``present`` with
``source: candidate``, so every later sign-off says its reference was an approved Argus render,
not a designer's. spec.json is rewritten atomically (two-space JSON).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.io import atomic_write_bytes, atomic_write_json, read_json, refuse_symlinks
from argus.spec.model import Spec, View

CANDIDATES_DIR = "candidates"


def candidate_path(runs_dir: Path, view: View) -> Path:
    return runs_dir / CANDIDATES_DIR / f"{view.slug}.png"


def default_reference_file(view: View) -> str:
    """The reference path relative to the feature directory."""
    return f"references/{view.slug}.png"


def _reference_entry(data: dict[str, Any], spec_path: Path, view: View) -> dict[str, Any]:
    for target in data.get("targets", []):
        if target.get("id") != view.target:
            continue
        references: list[dict[str, Any]] = target.setdefault("references", [])
        for entry in references:
            if entry.get("state") == view.state and entry.get("appearance") == view.appearance:
                return entry
        entry = {"state": view.state, "appearance": view.appearance, "status": "needed"}
        references.append(entry)
        return entry
    raise InputError(f"{spec_path}: no target '{view.target}'")


def mark_reference(
    spec_path: Path, view: View, *, status: str, source: str | None, file: str
) -> None:
    """Set the reference entry of ``view`` in spec.json (created when missing)."""
    data = read_json(spec_path, what="spec")
    entry = _reference_entry(data, spec_path, view)
    entry["status"] = status
    entry["file"] = entry.get("file") or file
    if source is None:
        entry.pop("source", None)
    else:
        entry["source"] = source
    atomic_write_json(spec_path, data)


def record_candidate(spec: Spec, runs_dir: Path, view: View, render: Path) -> Path:
    """Keep ``render`` as the candidate of ``view`` and mark the spec entry ``candidate``."""
    target = candidate_path(runs_dir, view)
    atomic_write_bytes(target, render.read_bytes())
    mark_reference(
        spec.path, view, status="candidate", source=None, file=default_reference_file(view)
    )
    return target


def approve_candidate(spec: Spec, runs_dir: Path, view: View) -> Path:
    """Move the candidate of ``view`` into references/ and mark it present (source candidate)."""
    candidate = candidate_path(runs_dir, view)
    if not candidate.is_file():
        raise InputError(
            f"{candidate}: no candidate reference for {view.slug}; "
            f"run 'argus loop --feature {view.feature} --target {view.target}' to render one"
        )
    reference = spec.target(view.target).reference_for(view.state, view.appearance)
    relative = default_reference_file(view)
    if reference is not None and reference.file is not None:
        with contextlib.suppress(ValueError):  # a file outside the feature: use the default
            relative = reference.file.resolve().relative_to(spec.spec_dir.resolve()).as_posix()
    destination = spec.spec_dir / relative
    refuse_symlinks(destination, spec.spec_dir, what="the reference image path")
    atomic_write_bytes(destination, candidate.read_bytes())
    mark_reference(spec.path, view, status="present", source="candidate", file=relative)
    # The image now lives in references/; the run directory keeps no second copy.
    candidate.unlink()
    if not any(candidate.parent.iterdir()):
        candidate.parent.rmdir()
    return destination


def approve_command(view: View) -> str:
    """The exact command a human runs to accept the candidate of ``view``."""
    return (
        f"argus approve --feature {view.feature} --target {view.target} "
        f"--state {view.state} --appearance {view.appearance}"
    )
