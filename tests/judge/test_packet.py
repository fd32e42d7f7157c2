"""The judge packet: only allowed inputs, hashed, page text clipped, never on red gates."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from argus.errors import InputError, JudgeError
from argus.evidence.content import MAX_TEXT, TRUNCATION_MARKER
from argus.judge.assemble import packet_for_view, view_contract
from argus.judge.packet import ROLES, load_packet
from argus.spec import View, load_spec
from tests.judge.conftest import PacketFactory, derived_gate_result, png, small_probe
from tests.support.habits import HABITS_SPEC

PATCH = """\
diff --git a/app.css b/app.css
--- a/app.css
+++ b/app.css
@@ -1,3 +1,3 @@
-.a { margin: 8px; }
+.a { margin: 14px; }
"""


def test_the_manifest_hashes_every_file(make_packet: PacketFactory) -> None:
    packet = make_packet(reference="candidate", prev=True)
    manifest = json.loads((packet.directory / "manifest.json").read_text())
    assert manifest["reference_source"] == "candidate" and manifest["iteration"] == 1
    assert set(manifest["files"]) == set(packet.files)
    for role, entry in manifest["files"].items():
        data = (packet.directory / entry["path"]).read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest(), role
    assert sorted(p.name for p in packet.directory.iterdir()) == sorted(
        [*(ROLES[r].filename for r in manifest["files"]), "manifest.json"]
    )


def test_the_builder_refuses_a_diff(make_packet: PacketFactory, tmp_path: Path) -> None:
    patch = tmp_path / "change.diff"
    patch.write_text(PATCH)
    with pytest.raises(InputError, match="diff is not a judge input"):
        make_packet(extra={"diff": patch})


@pytest.mark.parametrize("role", ["notes", "transcript", "implementer_output", "reasoning"])
def test_the_builder_refuses_any_role_outside_the_allow_list(
    make_packet: PacketFactory, tmp_path: Path, role: str
) -> None:
    other = tmp_path / "other.txt"
    other.write_text("I changed the margins to make it pass")
    with pytest.raises(InputError, match="not a judge input"):
        make_packet(extra={role: other})


def test_the_contract_is_never_taken_from_the_caller(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    forged = tmp_path / "contract.json"
    forged.write_text(json.dumps({"expectations": None}))
    with pytest.raises(InputError, match="derived from the spec by Argus"):
        make_packet(extra={"contract": forged})


def test_a_diff_smuggled_in_under_an_allowed_role_is_refused(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    patch = tmp_path / "spec.md"
    patch.write_text(PATCH)
    with pytest.raises(InputError, match="looks like a diff"):
        make_packet(extra={"spec_md": patch})


def test_an_image_role_must_hold_a_png(make_packet: PacketFactory, tmp_path: Path) -> None:
    fake = tmp_path / "render.png"
    fake.write_text("not an image")
    with pytest.raises(InputError, match="must be a PNG"):
        make_packet(extra={"render": fake})


@pytest.mark.parametrize(
    "gates",
    [
        {"axe": "fail"},
        {"snapshot": "diff"},
        {"build": "error"},
        {"a11y_ids": {"expected": 3, "present": 2, "missing": ["habits.add"]}},
    ],
)
def test_red_gates_stop_the_judge_whatever_all_green_claims(
    make_packet: PacketFactory, gates: dict
) -> None:
    red = {"feature": "habits", "target": "list", "gates": gates, "all_green": True}
    with pytest.raises(JudgeError, match="red; the judge runs only on an all-green view"):
        make_packet(gate_result=red)


def _sensed(tmp_path: Path) -> Path:
    sensed = tmp_path / "sensed"
    sensed.mkdir()
    (sensed / "probe.json").write_text(json.dumps(small_probe()))
    png(sensed / "render.png")
    return sensed


def _empty(result: dict) -> dict:
    return {**result, "gates": {}, "details": {}}


def _all_skipped(result: dict) -> dict:
    return {**result, "gates": {"token_contrast": "skip", "console": "skip"}, "details": {}}


def _other_view(result: dict) -> dict:
    return {**result, "appearance": "dark"}


def _other_render(result: dict) -> dict:
    return {**result, "inputs": {**result["inputs"], "render_sha256": "0" * 64}}


def _other_probe(result: dict) -> dict:
    return {**result, "inputs": {**result["inputs"], "probe_sha256": "1" * 64}}


def _unbound(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "inputs"}


@pytest.mark.parametrize(
    ("forge", "message"),
    [
        (_empty, "no gate ran"),
        (_all_skipped, "every gate was skipped"),
        (_other_view, "is for habits/list/populated/dark"),
        (_other_render, "not about this render"),
        (_other_probe, "not about this render"),
        (_unbound, "not about this render"),
    ],
)
def test_a_gate_result_that_proves_nothing_about_this_render_is_refused(
    habits_root: Path, tmp_path: Path, forge: object, message: str
) -> None:
    spec = load_spec(habits_root / HABITS_SPEC)
    view = View("habits", "list", "populated", "light")
    sensed = _sensed(tmp_path)
    real = derived_gate_result(spec, view, sensed)
    gates = tmp_path / "gate-result.json"
    assert callable(forge)
    gates.write_text(json.dumps(forge(real)))
    with pytest.raises(JudgeError, match=message):
        packet_for_view(
            spec, view, sensed=sensed, gate_result=gates, run_dir=tmp_path / "run", iteration=1
        )
    gates.write_text(json.dumps(real))  # the real one is accepted
    packet = packet_for_view(
        spec, view, sensed=sensed, gate_result=gates, run_dir=tmp_path / "run", iteration=1
    )
    assert packet.json("gate_result")["inputs"] == real["inputs"]


def test_configured_gates_missing_from_the_result_are_refused(
    habits_root: Path, tmp_path: Path
) -> None:
    spec = load_spec(habits_root / HABITS_SPEC)
    view = View("habits", "list", "populated", "light")
    sensed = _sensed(tmp_path)
    gates = tmp_path / "gate-result.json"
    gates.write_text(json.dumps(derived_gate_result(spec, view, sensed)))
    with pytest.raises(JudgeError, match=r"configured gate\(s\) axe, console did not run"):
        packet_for_view(
            spec,
            view,
            sensed=sensed,
            gate_result=gates,
            run_dir=tmp_path / "run",
            iteration=1,
            gates=["token_contrast", "axe", "console"],
        )


def test_page_text_is_clipped_on_the_way_in(make_packet: PacketFactory) -> None:
    long_text = "x" * 1000
    console = {
        "messages": [{"level": "error", "text": "y" * 900, "location": ""}],
        "page_errors": [],
    }
    packet = make_packet(probe=small_probe(long_text), console=console)
    probe = packet.json("probe")
    text = probe["elements"][2]["text"]
    assert len(text) == MAX_TEXT and text.endswith(TRUNCATION_MARKER)
    assert all(len(line) <= MAX_TEXT for line in probe["aria_snapshot"].splitlines())
    assert len(packet.json("console")["messages"][0]["text"]) == MAX_TEXT


def test_page_data_within_the_rules_is_copied_byte_for_byte(
    make_packet: PacketFactory, tmp_path: Path
) -> None:
    packet = make_packet(console={"messages": [], "page_errors": []})
    sources = sorted(tmp_path.glob("inputs-*"))[-1]
    for role in ("probe", "console"):
        assert packet.require(role).read_bytes() == (sources / f"{role}.json").read_bytes()


def test_a_changed_file_is_caught_when_the_packet_is_read_back(make_packet: PacketFactory) -> None:
    packet = make_packet()
    png(packet.require("render"), shade=10)
    with pytest.raises(InputError, match="changed after the packet was built"):
        load_packet(packet.directory)


def test_an_unknown_role_in_a_manifest_is_refused(make_packet: PacketFactory) -> None:
    packet = make_packet()
    manifest_path = packet.directory / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["files"]["diff"] = {"path": "change.diff", "sha256": "0" * 64}
    manifest_path.write_text(json.dumps(manifest))
    with pytest.raises(InputError, match="'diff' is not a judge input"):
        load_packet(packet.directory)


def test_rebuilding_replaces_the_old_packet(
    make_packet: PacketFactory, habits_root: Path, tmp_path: Path
) -> None:
    spec = load_spec(habits_root / HABITS_SPEC)
    view = View("habits", "list", "populated", "light")
    sensed = _sensed(tmp_path)
    gates = tmp_path / "gate-result.json"
    gates.write_text(json.dumps(derived_gate_result(spec, view, sensed)))
    run_dir = tmp_path / "run"
    first = packet_for_view(
        spec, view, sensed=sensed, gate_result=gates, run_dir=run_dir, iteration=1
    )
    (sensed / "console.json").write_text(json.dumps({"messages": [], "page_errors": []}))
    second = packet_for_view(
        spec, view, sensed=sensed, gate_result=gates, run_dir=run_dir, iteration=2
    )
    assert first.directory == second.directory
    assert "console" in second.files and second.iteration == 2
    reference = spec.target("list").reference_for("populated", "light")
    assert reference is not None and reference.status == "present"
    assert second.reference_source == (reference.source or "human")
    assert "reference" in second.files


def test_a_non_packet_directory_is_never_overwritten(habits_root: Path, tmp_path: Path) -> None:
    spec = load_spec(habits_root / HABITS_SPEC)
    view = View("habits", "list", "populated", "light")
    sensed = _sensed(tmp_path)
    gates = tmp_path / "gate-result.json"
    gates.write_text(json.dumps(derived_gate_result(spec, view, sensed)))
    run_dir = tmp_path / "run"
    (run_dir / "packet").mkdir(parents=True)
    (run_dir / "packet" / "precious.txt").write_text("keep me")
    with pytest.raises(InputError, match="not a judge packet"):
        packet_for_view(spec, view, sensed=sensed, gate_result=gates, run_dir=run_dir, iteration=1)
    assert (run_dir / "packet" / "precious.txt").exists()


def test_the_view_contract_resolves_fixture_counts(habits_root: Path) -> None:
    spec = load_spec(habits_root / HABITS_SPEC)
    contract = view_contract(spec, View("habits", "list", "populated", "light"))
    assert contract["primary_action"] == "habits.add"
    listitems = next(c for c in contract["expectations"]["counts"] if c["role"] == "listitem")
    fixture = json.loads((habits_root / "fixtures" / "populated.json").read_text())
    assert listitems["equals"] == len(fixture["habits"])
    assert listitems["from"] == "fixtures/populated.json#/habits"
