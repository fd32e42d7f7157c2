"""Gather a view's judge inputs from the spec and a sense directory, and build its packet."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from argus.errors import InputError
from argus.io import atomic_write_json, atomic_write_text, read_json, refuse_symlinks
from argus.judge.packet import Packet, build_packet
from argus.schemas.rubric import default_rubric_text
from argus.spec import Spec, View, fixture_count
from argus.spec.model import Expectation
from argus.spec.texts import render_texts

PACKET_DIR = "packet"
WORD_LIST = "words.txt"
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def view_contract(spec: Spec, view: View) -> dict[str, Any]:
    """What spec.json says about this one view, with fixture counts resolved to numbers."""
    target = spec.target(view.target)
    expectation = target.expectations.get(view.state)
    expectations: dict[str, Any] | None = None
    if expectation is not None:
        counts = []
        for count in expectation.counts:
            entry: dict[str, Any] = {"role": count.role, "name": count.name}
            if count.equals_fixture is not None:
                source = count.equals_fixture
                entry["equals"] = fixture_count(source.file, source.pointer)
                entry["from"] = f"{source.file.relative_to(spec.root).as_posix()}#{source.pointer}"
            else:
                entry["equals"] = count.equals
            counts.append(entry)
        expectations = {"aria_snapshot": expectation.aria_snapshot, "counts": counts}
        if expectation.focus_order:
            expectations["focus_order"] = list(expectation.focus_order)
        expectations.update(expectation.typed.to_contract())
        if expectation.texts:
            expectations["texts"] = render_texts(
                expectation.texts,
                expectation.texts_fixture,
                f"{spec.path}: expectations.{view.state}.texts",
            )
    return {
        "feature": spec.feature,
        "target": target.id,
        "state": view.state,
        "appearance": view.appearance,
        "fixture": target.fixture_for(view.state),
        # The state's own primary action over the target's; none at all when it says null.
        "primary_action": target.primary_action_for(view.state),
        "no_primary_action": target.no_primary_action(view.state),
        # Selectors the hierarchy check measures as headings or as figures (data).
        "hierarchy": target.hierarchy.to_contract(),
        "a11y_contract": list(target.a11y_contract),
        "component_contracts": [
            dict(c) for c in target.component_contracts if c.get("state") in (None, view.state)
        ],
        "expectations": expectations,
        # Regions a regression check may accept: the target's declared (dynamic content) masks.
        "masks": list(target.snapshot.masks),
        # Elements whose text the spec allows to be cut short.
        "allow_truncation": list(target.allow_truncation),
        # Controls meant to do nothing when activated (the dead-control check leaves them).
        "inert": list(target.inert_for(view.state)),
        # The author's declaration that the expectations check the prose criteria.
        "expectations_cover_prose": target.expectations_cover_prose,
        # Words the spelling check accepts beyond its dictionary: the spec's own words.
        "words": spec_words(spec, expectation),
    }


def spec_words(spec: Spec, expectation: Expectation | None) -> list[str]:
    """The spec's own words (spec.json strings, spec.md, the texts fixture) and the project's
    word list (``words.txt`` beside spec.json, one word a line), lower-cased."""
    sources = [spec.path, spec.spec_dir / "spec.md", spec.spec_dir / WORD_LIST]
    if expectation is not None and expectation.texts_fixture is not None:
        sources.append(expectation.texts_fixture)
    for target in spec.targets:
        for state in target.expectations.values():
            sources.extend(c.equals_fixture.file for c in state.counts if c.equals_fixture)
    words: set[str] = set()
    for source in dict.fromkeys(sources):
        if source.is_file():
            words.update(w.lower() for w in WORD.findall(source.read_text(encoding="utf-8")))
    return sorted(words)


CONTROLS_NOT_RUN = "controls.not-run.json"


def controls_not_run(sensed: Path) -> dict[str, Any]:
    """The packet's controls.json for a view sensed without one: the dead-control probe did
    not run, and why (meta.json's ``controls`` record, argus.sense.controls_choice; none for
    an adapter or a sense older than the probe)."""
    try:
        meta = read_json(sensed / "meta.json", what="meta.json")
    except InputError:
        meta = None
    record = meta.get("controls") if isinstance(meta, dict) else None
    if not isinstance(meta, dict) or "controls" not in meta:
        why = "the sensor wrote no controls.json and records no dead-control probe"
    elif isinstance(record, dict) and record.get("ran") is False:
        why = str(record.get("why") or "no reason given")
        if (sensed / "controls.json").is_file():
            # Never this sense's (an earlier iteration's, or forged): not read, as if missing.
            why += "; the controls.json beside it is not this sense's and is not read"
    elif isinstance(record, dict) and record.get("ran") is True:
        why = "meta.json says it ran, but its controls.json is missing"
    else:
        why = "meta.json's controls record is malformed"
    return {"version": 1, "ran": False, "why": why, "controls": []}


def _probe_did_not_run(sensed: Path) -> bool:
    """Whether meta.json says the dead-control probe did not run for this sense: then no
    controls.json is its evidence (the loop's probe, deferred to a judged iteration, writes
    it into that iteration's own directory and records it there)."""
    try:
        meta = read_json(sensed / "meta.json", what="meta.json")
    except InputError:
        return False
    record = meta.get("controls") if isinstance(meta, dict) else None
    return isinstance(record, dict) and record.get("ran") is False


def packet_for_view(
    spec: Spec,
    view: View,
    *,
    sensed: Path,
    gate_result: Path,
    run_dir: Path,
    iteration: int,
    prev_render: Path | None = None,
    gates: Sequence[str] | None = None,
) -> Packet:
    """Build ``run_dir/packet`` for ``view`` from the spec and the sensor's files in ``sensed``.
    ``gates``: the configured gate names the gate result must hold (None: not checked)."""
    target = spec.target(view.target)
    inputs: dict[str, Path] = {
        "spec": spec.path,
        "tokens": spec.tokens_path,
        "render": sensed / "render.png",
        "probe": sensed / "probe.json",
        "gate_result": gate_result,
    }
    spec_md = spec.spec_dir / "spec.md"
    if spec_md.is_file():
        inputs["spec_md"] = spec_md
    for role, name in (
        ("console", "console.json"),
        ("axe", "axe.json"),
        ("focus", "focus.json"),
        ("controls", "controls.json"),
    ):
        if (sensed / name).is_file():
            inputs[role] = sensed / name
    if "controls" in inputs and _probe_did_not_run(sensed):
        del inputs["controls"]
    if "controls" not in inputs:
        # The packet says the probe did not run, so no judge reads "no controls.json" as "no
        # dead controls"; rewritten each time, as the loop judges many iterations.
        atomic_write_json(run_dir / CONTROLS_NOT_RUN, controls_not_run(sensed))
        inputs["controls"] = run_dir / CONTROLS_NOT_RUN
    if prev_render is not None and prev_render.is_file():
        inputs["prev_render"] = prev_render
    reference = target.reference_for(view.state, view.appearance)
    source: str | None = None
    if reference is not None and reference.status == "present" and reference.file is not None:
        refuse_symlinks(reference.file, spec.spec_dir, what="the reference image path")
        inputs["reference"] = reference.file
        source = reference.source or "human"
    if spec.rubric_path is not None:
        inputs["rubric"] = spec.rubric_path
    else:
        default = run_dir / "rubric.default.json"
        text = default_rubric_text()
        # Written once per run directory: the loop builds a packet every judged iteration.
        if not default.is_file() or default.read_bytes() != text.encode("utf-8"):
            atomic_write_text(default, text)
        inputs["rubric"] = default
    contract = view_contract(spec, view)
    json.dumps(contract)  # fail here, not half-way through writing, if it is not JSON
    return build_packet(
        run_dir / PACKET_DIR,
        feature=view.feature,
        target=view.target,
        state=view.state,
        appearance=view.appearance,
        iteration=iteration,
        reference_source=source,
        inputs=inputs,
        contract=contract,
        gates=gates,
    )
